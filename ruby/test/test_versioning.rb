# frozen_string_literal: true

require_relative "test_helper"

# proto (old) and protoex (new) read each other's data; fields an older writer did not
# send take their declared defaults; final data of another version is rejected.
class TestVersioning < Minitest::Test
  def new_account
    Protoex::Account.new(
      uid: 7, name: "New", state: Protoex::State::GOOD | Protoex::State::SAD,
      wallet: Protoex::Balance.new(currency: "USD", amount: 1000.0, locked: 50.0),
      orders: [Protoex::Order.new(uid: 1, symbol: "EURUSD", side: Protoex::OrderSide::TELL,
                                  type: Protoex::OrderType::STOPLIMIT, price: 1.5, volume: 10.0, tp: 2.0, sl: 1.0)]
    )
  end

  def test_old_to_new_fills_declared_defaults
    old = Vectors.read("account.fbe.hex")
    assert Protoex::AccountModel.new.verify(old)
    a = Protoex::AccountModel.new.deserialize(old)
    assert_equal [1, "Test", 6], [a.uid, a.name, a.state]
    assert_equal ["USD", 1000.0, 0.0], [a.wallet.currency, a.wallet.amount, a.wallet.locked]
    assert_equal [[1, 10.0, -10.0], [2, 10.0, -10.0], [3, 10.0, -10.0]], a.orders.map { |o| [o.uid, o.tp, o.sl] }
    assert_equal 316, Protoex::AccountModel.new.serialize(a).bytesize
  end

  def test_new_to_old_drops_what_it_does_not_know
    data = Protoex::AccountModel.new.serialize(new_account)
    assert Proto::AccountModel.new.verify(data)
    a = Proto::AccountModel.new.deserialize(data)
    assert_equal [7, "New", 6 | 0x10 | 0x20], [a.uid, a.name, a.state]
    assert_equal Proto::Balance.new(currency: "USD", amount: 1000.0), a.wallet
    assert_nil a.asset
    assert_equal 2, a.orders[0].side # a value the old enum has no name for stays
    assert_equal "<unknown>", Proto::E_OrderSide.text(a.orders[0].side)
  end

  def test_new_to_new_and_old_to_old
    data = Protoex::AccountModel.new.serialize(new_account)
    back = Protoex::AccountModel.new.deserialize(data)
    assert_equal 50.0, back.wallet.locked
    assert_equal data, Protoex::AccountModel.new.serialize(back)
  end

  def test_final_format_of_another_version_is_rejected
    data = Protoex::AccountFinalModel.new.serialize(new_account)
    refute Proto::AccountFinalModel.new.verify(data)
    assert_raises(Fastwire::DecodeError) { Proto::AccountFinalModel.new.deserialize(data) }
  end
end
