# frozen_string_literal: true

require "strscan"

module Fastwire
  # JSON text: the number and string forms every language writes
  # (docs/wire-format.md#json), and a strict reader that bounds hostile text (its
  # length, nesting and numbers) and keeps numbers exact.
  module JSONText
    # A JSON number that is not a small integer, kept as its text: read exactly by the
    # field that takes it (decimal, double, or rejected by an integer field).
    Number = Struct.new(:text, :integer)

    ESCAPES = (0...0x20).to_h { |c| [c.chr, format("\\u%04X", c)] }
    ESCAPES.update('"' => '\\"', "\\" => "\\\\", "\b" => "\\b", "\f" => "\\f", "\n" => "\\n",
                   "\r" => "\\r", "\t" => "\\t")
    ESCAPES.freeze
    TO_ESCAPE = /["\\\x00-\x1f]/

    module_function

    # A JSON string literal: UTF-8 as is, `"`, `\` and control characters escaped as
    # RapidJSON escapes them (\u001F upper case). Text that is not valid UTF-8 (bytes
    # read from a binary message) has its invalid bytes written as \u00XX escapes.
    def string(s)
      s = s.dup.force_encoding(Encoding::UTF_8) unless s.encoding == Encoding::UTF_8
      unless s.valid_encoding?
        s = s.scrub { |bad| bad.unpack("C*").map { |b| format("\\u%04x", b) }.join }
        return %("#{s.gsub(/["\\\x00-\x1f]|\\u00[89a-f][0-9a-f]/) { |c| c.length > 1 ? c : ESCAPES[c] }}")
      end
      TO_ESCAPE.match?(s) ? %("#{s.gsub(TO_ESCAPE, ESCAPES)}") : %("#{s}")
    end

    # A double as RapidJSON writes it, with the shortest round-trip digits; NaN and the
    # infinities as the strings "NaN", "Infinity", "-Infinity".
    def double(x)
      return '"NaN"' if x.nan?
      return x.positive? ? '"Infinity"' : '"-Infinity"' if x.infinite?
      return (1.0 / x).negative? ? "-0.0" : "0.0" if x.zero?

      text = x.to_s # shortest digits: "123.456", "1.0e+20", "5.0e-324"
      # From 1e-4 up to 1e16 Ruby writes the digits positionally, as the rule does.
      return text unless text.include?("e")

      sign = ""
      if text.start_with?("-")
        sign = "-"
        text = text[1..]
      end
      mantissa, exponent = text.split("e")
      whole, fraction = mantissa.split(".")
      fraction ||= ""
      digits = (whole + fraction).sub(/\A0+/, "")
      k = (exponent ? exponent.to_i : 0) - fraction.length
      stripped = digits.sub(/0+\z/, "")
      k += digits.length - stripped.length
      digits = stripped
      length = digits.length
      kk = length + k
      out = if k >= 0 && kk <= 21
              "#{digits}#{'0' * k}.0"
            elsif kk.positive? && kk <= 21
              "#{digits[0, kk]}.#{digits[kk..]}"
            elsif kk > -6 && kk <= 0
              "0.#{'0' * -kk}#{digits}"
            elsif length == 1
              "#{digits}e#{kk - 1}"
            else
              "#{digits[0]}.#{digits[1..]}e#{kk - 1}"
            end
      sign + out
    end

    # The double nearest to JSON number text; DecodeError(out_of_range) beyond the
    # double range (after rounding). Work bounded by the text's length.
    def to_double(text)
      m = /\A(-?)0*(\d*?)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\z/.match(text)
      Fastwire.fail!("invalid_argument", "not a number") unless m
      int = m[2]
      frac = m[3] || ""
      exp = m[4].to_i
      negative = m[1] == "-"
      if int.empty?
        lead = frac[/\A0*/].length
        return negative ? -0.0 : 0.0 if lead == frac.length

        magnitude = exp - lead # value ~ 0.d... x 10^magnitude
      else
        magnitude = exp + int.length
      end
      Fastwire.fail!("out_of_range", "#{text[0, 40]} does not fit a double") if magnitude > 310
      return negative ? -0.0 : 0.0 if magnitude < -330

      x = if magnitude > 300 || magnitude < -300
            quiet { Float(text) }
          else
            Float(text)
          end
      Fastwire.fail!("out_of_range", "#{text[0, 40]} does not fit a double") if x.infinite?
      x
    end

    def quiet
      verbose = $VERBOSE
      $VERBOSE = nil
      yield
    ensure
      $VERBOSE = verbose
    end

    # ---- reading ---------------------------------------------------------------------

    WS = /[ \t\n\r]*/
    NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/
    PLAIN = /[^"\\\x00-\x1f]*/
    SIMPLE_ESCAPES = { '"' => '"', "\\" => "\\", "/" => "/", "b" => "\b", "f" => "\f",
                       "n" => "\n", "r" => "\r", "t" => "\t" }.freeze

    # Parses JSON text into Hash (string keys; a repeated key keeps its last value, the
    # values it replaced listed by JSONText.repeated),
    # Array, String (valid UTF-8: a lone surrogate escape is rejected),
    # Integer (up to 18 digits) or Number, true, false, nil. Raises DecodeError:
    # invalid_argument (not JSON), too_deep (nesting beyond max_depth), too_large.
    def parse(text, limits = DEFAULT_LIMITS)
      Fastwire.fail!("too_large", "JSON text longer than max_message_size") if text.bytesize > limits.max_message_size
      text = text.dup.force_encoding(Encoding::UTF_8) unless text.encoding == Encoding::UTF_8
      Fastwire.fail!("invalid_argument", "JSON text is not UTF-8") unless text.valid_encoding?
      Parser.new(text, limits.max_depth).run
    end

    # The values of a parsed object's repeated keys that a later one replaced, as
    # [key, value] pairs in text order, or nil: a struct still checks them, a map keeps
    # each key's first value (docs/wire-format.md#json, "Repeated keys").
    def repeated(hash)
      hash.instance_variable_get(:@fw_repeated)
    end

    # The recursive-descent reader behind parse.
    class Parser
      QUOTED = /"([^"\\\x00-\x1f]*)"/ # a string without escapes
      SPACE = [32, 9, 10, 13].freeze

      def initialize(text, max_depth)
        @text = text
        @s = StringScanner.new(text)
        @max_depth = max_depth
      end

      def run
        ws
        v = value(0)
        ws
        bad("extra text after the value") unless @s.eos?
        v
      end

      def ws
        @s.skip(WS) if SPACE.include?(@text.getbyte(@s.pos))
      end

      def bad(what)
        Fastwire.fail!("invalid_argument", "#{what} at #{@s.pos}")
      end

      def value(depth)
        case @text.getbyte(@s.pos)
        when 123 then object(depth + 1) # {
        when 91 then array(depth + 1) # [
        when 34 then string # "
        when 116 then literal(/true/, true)
        when 102 then literal(/false/, false)
        when 110 then literal(/null/, nil)
        else number
        end
      end

      def literal(word, v)
        bad("not JSON") unless @s.skip(word)
        v
      end

      def number
        t = @s.scan(NUMBER) || bad("not JSON")
        # (-0 stays text: 0 for an integer field, but -0 for a decimal or a double)
        if @s[1].nil? && @s[2].nil? && t.length <= 18 && t != "-0"
          t.to_i
        else
          Number.new(t, @s[1].nil? && @s[2].nil?)
        end
      end

      def deeper(depth)
        Fastwire.fail!("too_deep", "arrays and objects nested beyond #{@max_depth}") if depth > @max_depth
      end

      def object(depth)
        deeper(depth)
        @s.pos += 1
        h = {}
        earlier = nil
        ws
        if @text.getbyte(@s.pos) == 125 # }
          @s.pos += 1
          return h
        end

        loop do
          bad("object key expected") unless @text.getbyte(@s.pos) == 34
          k = string
          ws
          bad("':' expected") unless @text.getbyte(@s.pos) == 58
          @s.pos += 1
          ws
          v = value(depth)
          (earlier ||= []) << [k, h[k]] if h.key?(k)
          h[k] = v
          ws
          c = @text.getbyte(@s.pos)
          if c == 44 # ,
            @s.pos += 1
            ws
            next
          end
          bad("',' or '}' expected") unless c == 125
          @s.pos += 1
          break
        end
        h.instance_variable_set(:@fw_repeated, earlier) if earlier
        h
      end

      def array(depth)
        deeper(depth)
        @s.pos += 1
        a = []
        ws
        if @text.getbyte(@s.pos) == 93 # ]
          @s.pos += 1
          return a
        end

        loop do
          a << value(depth)
          ws
          c = @text.getbyte(@s.pos)
          if c == 44 # ,
            @s.pos += 1
            ws
            next
          end
          bad("',' or ']' expected") unless c == 93
          @s.pos += 1
          break
        end
        a
      end

      def string
        return @s[1] if @s.scan(QUOTED)

        @s.pos += 1
        out = nil
        loop do
          part = @s.scan(PLAIN)
          if @s.skip(/"/)
            return part if out.nil?

            return out << part
          end
          out = out.nil? ? +part : out << part
          bad("unterminated string or control character in it") unless @s.skip(/\\/)
          e = @s.getch
          if (simple = SIMPLE_ESCAPES[e])
            out << simple
          elsif e == "u"
            hex = @s.scan(/\h{4}/) || bad("bad \\u escape")
            cp = hex.to_i(16)
            if cp >= 0xD800 && cp <= 0xDBFF && @s.match?(/\\u[dD][c-fC-F]\h\h/)
              low = @s.scan(/\\u\h{4}/)[2, 4].to_i(16)
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
            end
            # A lone surrogate has no UTF-8 form: the text is rejected here, so that no
            # string that is not valid UTF-8 reaches a reader (whose regexes would raise
            # ArgumentError on it).
            bad("lone surrogate \\u#{hex} in a string") if cp >= 0xD800 && cp <= 0xDFFF
            out << cp.chr(Encoding::UTF_8)
          else
            bad("bad escape")
          end
        end
      end
    end
  end
end
