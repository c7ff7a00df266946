# frozen_string_literal: true

require_relative "test_helper"

# Untrusted input: every truncation and seven single-byte changes at every position of
# each golden vector are rejected or read safely (verify, its checked walk and deserialize
# agree, an accepted value re-serializes to bytes that verify); crafted attacks are rejected
# quickly. Nothing but Fastwire::DecodeError is ever raised.
class TestMalformed < Minitest::Test
  MODELS = {
    "account.fbe.hex" => Proto::AccountModel, "order.fbe.hex" => Proto::OrderModel,
    "balance.fbe.hex" => Proto::BalanceModel, "account.final.hex" => Proto::AccountFinalModel,
    "order.final.hex" => Proto::OrderFinalModel, "balance.final.hex" => Proto::BalanceFinalModel
  }.freeze
  CHANGES = [->(b) { b ^ 0xFF }, ->(b) { (b + 1) & 0xFF }, ->(b) { (b - 1) & 0xFF },
             ->(_) { 0 }, ->(_) { 0xFF }, ->(_) { 0x80 }, ->(b) { b ^ 0x01 }].freeze

  def check(model, data)
    ok = model.verify(data)
    assert_equal checked_walk(model, data), ok, "verify's fast walk and the checked walk disagree"
    begin
      value = model.deserialize(data)
    rescue Fastwire::DecodeError
      refute ok, "verify accepted what deserialize rejects"
      return false
    end
    assert ok, "deserialize accepted what verify rejects"
    again = model.serialize(value)
    assert model.verify(again)
    assert_equal value.to_s, model.deserialize(again).to_s
    true
  end

  # validate: the checked walk, which verify's fast walk defers to when it cannot decide.
  def checked_walk(model, data)
    model.validate(data)
    true
  rescue Fastwire::DecodeError
    false
  end

  def test_every_truncation_is_rejected
    MODELS.each do |name, cls|
      data = Vectors.read(name)
      model = cls.new
      (0...data.bytesize).each { |n| refute check(model, data.byteslice(0, n)), "#{name}[0, #{n}]" }
    end
  end

  def test_every_single_byte_change_is_rejected_or_read_safely
    MODELS.each do |name, cls|
      data = Vectors.read(name)
      model = cls.new
      data.bytesize.times do |i|
        CHANGES.each do |change|
          bad = data.dup
          bad.setbyte(i, change.call(data.getbyte(i)))
          check(model, bad)
        end
      end
    end
  end

  def test_four_billion_elements_are_rejected_at_once
    # A Node whose children vector declares 4 294 967 295 elements in 28 bytes.
    data = [28, 8, 16, Hostile::S_Node.type, 0, 16, 0xFFFFFFFF].pack("V7")
    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    refute Hostile::NodeModel.new.verify(data)
    huge = [16, Hostile::S_Bag.type, 0xFFFFFFFF, 0].pack("V4")
    refute Hostile::BagFinalModel.new.verify(huge)
    assert_raises(Fastwire::DecodeError) { Hostile::BagFinalModel.new.deserialize(huge) }
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :<, 0.05
  end

  def test_nesting_beyond_the_limit_is_too_deep
    node = Hostile::Node.new(value: 0)
    100.times { |i| node = Hostile::Node.new(value: i, children: [node]) }
    [Hostile::NodeModel, Hostile::NodeFinalModel].each do |cls|
      data = cls.new.serialize(node)
      err = assert_raises(Fastwire::DecodeError) { cls.new.deserialize(data) }
      assert_equal "too_deep", err.code
      deep = cls.new(Fastwire::Limits.new(max_depth: 200))
      assert_equal 99, deep.deserialize(data).value
    end
  end

  def test_zero_size_elements_are_bounded
    bag = Hostile::Bag.new(items: Array.new(70_000) { Hostile::Nothing.new })
    data = Hostile::BagFinalModel.new.serialize(bag)
    err = assert_raises(Fastwire::DecodeError) { Hostile::BagFinalModel.new.deserialize(data) }
    assert_equal "over_budget", err.code
  end

  def test_only_decode_errors_from_garbage
    rng = Random.new(7)
    models = MODELS.values.map(&:new) + [Everything::PrimitivesModel.new, Everything::CollectionsFinalModel.new]
    2000.times do
      data = rng.bytes(rng.rand(0..64))
      data[0, 4] = [data.bytesize].pack("V") if data.bytesize >= 4 && rng.rand < 0.7
      models.each { |m| check(m, data) }
    end
  end
end
