# frozen_string_literal: true

# The seed account round trip: build it, write it in both binary formats and JSON, read
# each back. Run it where `fastwire compile schemas/proto.fbe --lang ruby` wrote
# proto_fbe.rb (or name that folder in FASTWIRE_GEN), with the fastwire gem installed
# (or `ruby -I ruby/lib`):
#
#   python3 -m fastwire compile schemas/proto.fbe --lang ruby --final --json -o gen
#   FASTWIRE_GEN=gen ruby -I ruby/lib examples/ruby/account.rb

$LOAD_PATH.unshift(ENV.fetch("FASTWIRE_GEN", Dir.pwd))
require "fastwire"
require "proto_fbe"

account = Proto::Account.new(
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
)

model = Proto::AccountModel.new
data = model.serialize(account)
raise "versioned: #{data.bytesize} bytes" unless data.bytesize == 252 && model.verify(data)

copy = model.deserialize(data)
raise "versioned round trip" unless copy.to_s == account.to_s

if defined?(Proto::AccountFinalModel)
  final = Proto::AccountFinalModel.new
  compact = final.serialize(account)
  raise "final: #{compact.bytesize} bytes" unless compact.bytesize == 152 && final.deserialize(compact).to_s == account.to_s
end
if account.respond_to?(:to_json)
  raise "JSON round trip" unless Proto::Account.from_json(account.to_json).to_s == account.to_s
end

begin
  model.deserialize(data.byteslice(0, 100)) # cut short: rejected, never a crash
  raise "a truncated message was accepted"
rescue Fastwire::DecodeError => e
  puts "truncated message rejected: #{e.code}"
end
puts copy
puts "versioned #{data.bytesize} bytes, round trip ok"
