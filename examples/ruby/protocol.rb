# frozen_string_literal: true

# The protocol example: a Sender that logs what it sends, a Receiver that logs what it
# receives; prints the same lines as examples/cpp/protocol (expected_protocol.txt).
#
#   python3 -m fastwire compile schemas/proto.fbe --lang ruby --proto -o gen
#   FASTWIRE_GEN=gen ruby -I ruby/lib examples/ruby/protocol.rb

$LOAD_PATH.unshift(ENV.fetch("FASTWIRE_GEN", Dir.pwd))
require "fastwire"
require "proto_fbe"

# Logs each message it sends, and keeps the stream in its buffer (sends nothing).
class MySender < Proto::Sender
  def send_message(value)
    puts "onSend: #{value}"
    super
  end
end

# Logs each message it receives.
class MyReceiver < Proto::Receiver
  def on_receive_order(value)
    puts "onReceive: #{value}"
  end

  def on_receive_balance(value)
    puts "onReceive: #{value}"
  end

  def on_receive_account(value)
    puts "onReceive: #{value}"
  end
end

sender = MySender.new
sender.send_message(Proto::Order.new(uid: 1, symbol: "EURUSD", side: Proto::OrderSide::BUY,
                                     type: Proto::OrderType::MARKET, price: 1.23456, volume: 1000.0))
sender.send_message(Proto::Balance.new(currency: "USD", amount: 1000.0))
sender.send_message(Proto::Account.new(
                      uid: 1, name: "Test", state: Proto::State::GOOD,
                      wallet: Proto::Balance.new(currency: "USD", amount: 1000.0),
                      asset: Proto::Balance.new(currency: "EUR", amount: 100.0),
                      orders: [
                        Proto::Order.new(uid: 1, symbol: "EURUSD", side: Proto::OrderSide::BUY,
                                         type: Proto::OrderType::MARKET, price: 1.23456, volume: 1000.0),
                        Proto::Order.new(uid: 2, symbol: "EURUSD", side: Proto::OrderSide::SELL,
                                         type: Proto::OrderType::LIMIT, price: 1.0, volume: 100.0),
                        Proto::Order.new(uid: 3, symbol: "EURUSD", side: Proto::OrderSide::BUY,
                                         type: Proto::OrderType::STOP, price: 1.5, volume: 10.0)
                      ]
                    ))

MyReceiver.new.receive(sender.buffer) # everything the sender queued
