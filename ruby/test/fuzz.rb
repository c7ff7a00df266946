# frozen_string_literal: true

# A mutation fuzzer for the Ruby runtime (Ruby has no standard coverage-guided fuzzer):
# random changes of the golden vectors, of messages of every kind of generated type and
# of JSON texts, for SECONDS. Every input must be rejected with Fastwire::DecodeError or
# read safely: verify, its checked walk (validate) and deserialize agree, and what was
# read serializes to bytes that verify and read back the same. Anything else stops the
# run with the input in hex.
#
#   make fuzz-ruby FUZZ_SECONDS=300        # or: ruby ruby/test/fuzz.rb SECONDS [SEED]
require_relative "support"

seconds = Float(ARGV[0] || 30)
seed = Integer(ARGV[1] || Random.new_seed % (1 << 32))
rng = Random.new(seed)
puts "fuzz: #{seconds} s, seed #{seed}"

targets = []
%w[account order balance].each do |n|
  mod = Proto
  cls = n.capitalize
  targets << [mod.const_get("#{cls}Model").new, Vectors.read("#{n}.fbe.hex")]
  targets << [mod.const_get("#{cls}FinalModel").new, Vectors.read("#{n}.final.hex")]
end
node = Hostile::Node.new(value: 1, children: [Hostile::Node.new(value: 2, children: [Hostile::Node.new])])
bag = Hostile::Bag.new(items: [Hostile::Nothing.new] * 3, names: ["a", nil], words: %w[x y], blob: "\x01\x02".b)
coll = Everything::Collections.new(f_vector: [1, 2], f_set: Set[3, 1], f_map: { 1 => "a" },
                                   f_hash: { Fastwire::UUID.uuid4 => "b".b }, f_list_optional: [nil, Everything::Optionals.new])
[[Hostile::NodeModel, node], [Hostile::NodeFinalModel, node], [Hostile::BagModel, bag], [Hostile::BagFinalModel, bag],
 [Everything::PrimitivesModel, Everything::Primitives.new], [Everything::PrimitivesFinalModel, Everything::Primitives.new],
 [Everything::OptionalsModel, Everything::Optionals.new], [Everything::CollectionsModel, coll],
 [Everything::CollectionsFinalModel, coll]].each { |cls, value| targets << [cls.new, cls.new.serialize(value)] }
texts = [[Proto::Account, Vectors.read("account.json")], [Everything::Collections, coll.to_json],
         [Everything::Primitives, Everything::Primitives.new.to_json]]

def mutate(rng, data)
  d = data.dup
  case rng.rand(6)
  when 0 then rng.rand(1..4).times { d.setbyte(rng.rand(d.bytesize), rng.rand(256)) unless d.empty? }
  when 1 then d = d.byteslice(0, rng.rand(d.bytesize + 1))
  when 2 then d.insert(rng.rand(d.bytesize + 1), rng.bytes(rng.rand(1..8)))
  when 3
    at = rng.rand([d.bytesize - 3, 1].max)
    d[at, 4] = [[0, 1, 0xFF, 0xFFFFFFFF, rng.rand(1 << 32), d.bytesize].sample(random: rng)].pack("V") if d.bytesize >= 4
  when 4 then d.setbyte(rng.rand(d.bytesize), d.getbyte(rng.rand(d.bytesize))) unless d.empty?
  else d = d.byteslice(0, rng.rand(d.bytesize + 1)) + rng.bytes(rng.rand(16))
  end
  d.force_encoding(Encoding::BINARY)
end

def check(model, data)
  ok = model.verify(data)
  slow = begin
    model.validate(data)
    true
  rescue Fastwire::DecodeError
    false
  end
  raise "verify's fast walk and the checked walk (validate) disagree" unless ok == slow

  begin
    value = model.deserialize(data)
  rescue Fastwire::DecodeError
    raise "verify accepted what deserialize rejects" if ok

    return
  end
  raise "deserialize accepted what verify rejects" unless ok

  again = model.serialize(value)
  raise "re-serialized bytes do not verify" unless model.verify(again)
  raise "re-read differs" unless model.deserialize(again).to_s == value.to_s
end

runs = 0
deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
while Process.clock_gettime(Process::CLOCK_MONOTONIC) < deadline
  200.times do
    model, data = targets.sample(random: rng)
    input = mutate(rng, data)
    begin
      check(model, input)
    rescue StandardError, SystemStackError => e
      warn "fuzz: #{model.class}: #{e.class}: #{e.message}\ninput: #{input.unpack1('H*')}\n#{e.backtrace.first(6).join("\n")}"
      exit 1
    end
    cls, text = texts.sample(random: rng)
    input = mutate(rng, text.b).force_encoding(Encoding::UTF_8)
    begin
      cls.from_json(input)
    rescue Fastwire::DecodeError
      nil
    rescue StandardError, SystemStackError => e
      warn "fuzz: #{cls}.from_json: #{e.class}: #{e.message}\ninput: #{input.unpack1('H*')}"
      exit 1
    end
    runs += 2
  end
end
puts "fuzz: #{runs} inputs, no failure"
