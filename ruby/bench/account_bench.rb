# frozen_string_literal: true

# The seed account (tests/vectors/account.*): serialize, deserialize and verify in both
# formats, and JSON, with benchmark-ips (Debian's ruby-benchmark-ips).
#
#   make bench-ruby          # or: FASTWIRE_RUBY_GEN=gen ruby ruby/bench/account_bench.rb
#
# Prints one line per case with the mean time per operation (microseconds) and the
# spread benchmark-ips reports.
REPO = File.expand_path("../..", __dir__)
$LOAD_PATH.unshift(File.join(REPO, "ruby", "lib"))
require "benchmark/ips"
require "fastwire"
require File.join(ENV.fetch("FASTWIRE_RUBY_GEN", File.join(REPO, "build", "ruby", "bench")), "proto_fbe")

def seed
  Proto::Account.new(
    uid: 1, name: "Test", state: Proto::State::GOOD,
    wallet: Proto::Balance.new(currency: "USD", amount: 1000.0),
    asset: Proto::Balance.new(currency: "EUR", amount: 100.0),
    orders: [
      Proto::Order.new(uid: 1, symbol: "EURUSD", side: 0, type: 0, price: 1.23456, volume: 1000.0),
      Proto::Order.new(uid: 2, symbol: "EURUSD", side: 1, type: 1, price: 1.0, volume: 100.0),
      Proto::Order.new(uid: 3, symbol: "EURUSD", side: 0, type: 2, price: 1.5, volume: 10.0)
    ]
  )
end

account = seed
versioned = Proto::AccountModel.new
final = Proto::AccountFinalModel.new
vdata = versioned.serialize(account)
fdata = final.serialize(account)
json = account.to_json
raise "not the seed" unless vdata.bytesize == 252 && fdata.bytesize == 152

time = Float(ENV.fetch("FASTWIRE_BENCH_SECONDS", "2"))
report = Benchmark.ips(quiet: true) do |x|
  x.config(time: time, warmup: 1)
  x.report("versioned serialize") { versioned.serialize(account) }
  x.report("versioned deserialize") { versioned.deserialize(vdata) }
  x.report("versioned verify") { versioned.verify(vdata) }
  x.report("final serialize") { final.serialize(account) }
  x.report("final deserialize") { final.deserialize(fdata) }
  x.report("final verify") { final.verify(fdata) }
  x.report("json serialize") { account.to_json }
  x.report("json deserialize") { Proto::Account.from_json(json) }
end
puts format("%-24s %12s %10s", "seed account (Ruby #{RUBY_VERSION})", "us/op", "+-%")
report.entries.each do |e|
  puts format("%-24s %12.2f %10.1f", e.label, 1e6 / e.ips, 100.0 * e.error_percentage / 100)
end
