# frozen_string_literal: true

require_relative "test_helper"

# The reference's golden vectors (tests/vectors) in both formats and JSON.
class TestGolden < Minitest::Test
  MODELS = {
    "account" => [Proto::AccountModel, Proto::AccountFinalModel],
    "order" => [Proto::OrderModel, Proto::OrderFinalModel],
    "balance" => [Proto::BalanceModel, Proto::BalanceFinalModel]
  }.freeze

  def test_seed_account_writes_the_vectors
    a = Vectors.account
    assert_equal Vectors.read("account.fbe.hex"), Proto::AccountModel.new.serialize(a)
    assert_equal Vectors.read("account.final.hex"), Proto::AccountFinalModel.new.serialize(a)
    assert_equal Vectors.read("account.json"), a.to_json
    assert_equal 252, Proto::AccountModel.new.serialize(a).bytesize
    assert_equal 152, Proto::AccountFinalModel.new.serialize(a).bytesize
  end

  def test_every_vector_reads_and_writes_back_in_both_formats_and_json
    MODELS.each do |name, (versioned, final)|
      v = Vectors.read("#{name}.fbe.hex")
      f = Vectors.read("#{name}.final.hex")
      j = Vectors.read("#{name}.json")
      assert versioned.new.verify(v), name
      assert final.new.verify(f), name
      value = versioned.new.deserialize(v)
      assert_equal v, versioned.new.serialize(value)
      assert_equal f, final.new.serialize(final.new.deserialize(f))
      assert_equal f, final.new.serialize(value)
      assert_equal j, value.to_json
      assert_equal v, versioned.new.serialize(value.class.from_json(j))
    end
  end

  def test_fields_of_the_seed
    a = Proto::AccountModel.new.deserialize(Vectors.read("account.fbe.hex"))
    assert_equal [1, "Test", 6], [a.uid, a.name, a.state]
    assert_equal "EUR", a.asset.currency
    assert_equal [1.23456, 1.0, 1.5], a.orders.map(&:price)
    assert_equal Encoding::UTF_8, a.name.encoding
    assert_equal Proto::OrderSide::SELL, a.orders[1].side
  end

  def test_printout_matches_cpp
    assert_equal 'Order(uid=1,symbol="EURUSD",side=buy,type=market,price=1.23456,volume=1000)',
                 Vectors.account.orders[0].to_s
    assert_match(/\AAccount\(uid=1,name="Test",state=initialized\|calculated\|good,/, Vectors.account.inspect)
  end

  def test_protocol_stream_vectors
    [[Protocol::Receiver, "protocol.hex"], [Protocol::FinalReceiver, "protocol.final.hex"]].each do |cls, name|
      got = []
      receiver = Class.new(cls) do
        define_method(:on_receive_order_message) { |v| got << v }
        define_method(:on_receive_balance_message) { |v| got << v }
        define_method(:on_receive_account_message) { |v| got << v }
      end.new
      data = Vectors.read(name)
      data.each_char.each_slice(7) { |chunk| receiver.receive(chunk.join) } # any chunking
      assert_equal [Protocol::OrderMessage, Protocol::BalanceMessage, Protocol::AccountMessage], got.map(&:class)
      sender = (name.include?("final") ? Protocol::FinalSender : Protocol::Sender).new
      got.each { |m| sender.send_message(m) }
      assert_equal data, sender.buffer
    end
  end
end
