# frozen_string_literal: true

# The Ruby conformance testee: answers the runner's requests on stdin/stdout.
#
#     ruby conformance/ruby/testee.rb GENERATED_DIR
#
# GENERATED_DIR holds the files `fastwire compile --lang ruby --final --json --proto`
# generated for the conformance schemas (package p in p_fbe.rb, module P). The protocol
# is in conformance/README.md: each request names a type ("package.Struct"), an input
# format, a payload and an output format; the answer is the payload converted, or the
# stage that rejected it.

REPO = File.expand_path("../..", __dir__)
$LOAD_PATH.unshift(File.join(REPO, "ruby", "lib"))
require "fastwire"

VERSIONED = 1
FINAL = 2
JSON_FORMAT = 3
OK = 0
PARSE_ERROR = 1
VERIFY_ERROR = 2
SERIALIZE_ERROR = 3
UNSUPPORTED = 4
INTERNAL_ERROR = 5

if ARGV.size != 1
  warn "usage: ruby conformance/ruby/testee.rb GENERATED_DIR"
  exit 2
end
DIR = File.expand_path(ARGV[0])
TYPES = {}

def resolve(name)
  TYPES[name] ||= begin
    package, struct = name.split(".", 2)
    raise LoadError, name unless struct && package.match?(/\A\w+\z/) && struct.match?(/\A\w+\z/)

    file = File.join(DIR, "#{package}_fbe.rb")
    raise LoadError, name unless File.exist?(file)

    require file
    mod = Object.const_get(package.split("_").map(&:capitalize).join.then { |m| m[0].upcase + m[1..] })
    cls = mod.const_get(struct[0].upcase + struct[1..])
    [cls, mod.const_get("#{struct}Model").new, mod.const_get("#{struct}FinalModel").new]
  end
end

def handle(request)
  version, fmt_in, fmt_out, name_len = request.unpack("CCCv")
  return [UNSUPPORTED, "protocol version #{version}"] unless version == 1

  name = request.byteslice(5, name_len).force_encoding(Encoding::UTF_8)
  payload = request.byteslice(5 + name_len..)
  begin
    cls, model, final = resolve(name)
  rescue LoadError, NameError
    return [UNSUPPORTED, "unknown type #{name}"]
  end
  begin
    case fmt_in
    when JSON_FORMAT
      value = cls.from_json(payload)
    when VERSIONED, FINAL
      m = fmt_in == VERSIONED ? model : final
      # validate (the checked walk) gives the error; verify (its fast walk) must agree
      begin
        m.validate(payload)
      rescue Fastwire::DecodeError => e
        raise "verify accepts what validate rejects (#{e.message})" if m.verify(payload)

        return [VERIFY_ERROR, e.message]
      end
      raise "verify rejects what validate accepts" unless m.verify(payload)

      value = m.deserialize(payload)
    else
      return [UNSUPPORTED, "input format #{fmt_in}"]
    end
  rescue Fastwire::DecodeError => e
    return [PARSE_ERROR, e.message]
  end
  begin
    case fmt_out
    when VERSIONED then [OK, model.serialize(value)]
    when FINAL then [OK, final.serialize(value)]
    when JSON_FORMAT then [OK, value.to_json]
    else [UNSUPPORTED, "output format #{fmt_out}"]
    end
  rescue Fastwire::EncodeError => e
    [SERIALIZE_ERROR, e.message]
  end
end

$stdin.binmode
$stdout.binmode
loop do
  head = $stdin.read(4)
  break if head.nil? || head.bytesize < 4

  request = $stdin.read(head.unpack1("V")) || "".b
  begin
    status, payload = handle(request)
  rescue StandardError, SystemStackError => e
    status = INTERNAL_ERROR
    payload = "#{e.class}: #{e.message}"
  end
  payload = payload.b
  $stdout.write([1 + payload.bytesize, status].pack("VC"), payload)
  $stdout.flush
end
