# frozen_string_literal: true

# Loads the runtime (ruby/lib) and code generated from schemas/ and
# conformance/schemas/hostile.fbe: from $FASTWIRE_RUBY_GEN when set (make test-ruby
# generates it), else generated here into build/ruby/gen. The tests require it through
# test_helper.rb (with minitest); the fuzzer directly.
REPO = File.expand_path("../..", __dir__)
$LOAD_PATH.unshift(File.join(REPO, "ruby", "lib"))
require "fastwire"

GEN = ENV.fetch("FASTWIRE_RUBY_GEN") do
  out = File.join(REPO, "build", "ruby", "gen")
  schemas = %w[schemas/proto.fbe schemas/protoex.fbe schemas/protocol.fbe schemas/everything.fbe
               schemas/service.fbe conformance/schemas/hostile.fbe].map { |s| File.join(REPO, s) }
  env = { "PYTHONPATH" => File.join(REPO, "compiler") }
  system(env, "python3", "-m", "fastwire", "compile", *schemas, "--lang", "ruby", "--final",
         "--json", "--proto", "-q", "-o", out, exception: true)
  out
end
%w[proto protoex protocol everything service hostile].each { |p| require File.join(GEN, "#{p}_fbe") }

module Vectors
  module_function

  def read(name)
    path = File.join(REPO, "tests", "vectors", name)
    return File.read(path).strip if name.end_with?(".json")

    [File.read(path).split.join].pack("H*")
  end

  # The seed account of the golden vectors.
  def account
    Proto::Account.new(
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
  end
end
