# frozen_string_literal: true

# The seed account (tests/vectors/account.*): serialize, deserialize and verify in both
# formats, and JSON, with benchmark-ips (Debian's ruby-benchmark-ips).
#
#   make bench-ruby          # or: FASTWIRE_RUBY_GEN=gen ruby ruby/bench/account_bench.rb
#
# Prints one line per case: benchmark-ips's mean wall time per operation and its spread,
# and the median CPU time per operation (see cpu_us).
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
cases = {
  "versioned serialize" => -> { versioned.serialize(account) },
  "versioned deserialize" => -> { versioned.deserialize(vdata) },
  "versioned verify" => -> { versioned.verify(vdata) },
  "final serialize" => -> { final.serialize(account) },
  "final deserialize" => -> { final.deserialize(fdata) },
  "final verify" => -> { final.verify(fdata) },
  "json serialize" => -> { account.to_json },
  "json deserialize" => -> { Proto::Account.from_json(json) }
}
report = Benchmark.ips(quiet: true) do |x|
  x.config(time: time, warmup: 1)
  cases.each { |label, fn| x.report(label) { fn.call } }
end

# CPU time per operation (this process's user + system time), the median of five runs
# of about time/5 seconds each: on a shared machine it moves far less than wall time.
def cpu_us(fn, seconds)
  runs = Array.new(5) do
    n = 0
    start = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    stop = start + seconds
    while (now = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)) < stop
      100.times { fn.call }
      n += 100
    end
    1e6 * (now - start) / n
  end
  runs.sort[2]
end

# The goals of issue #24 (CPU median, plain ruby: Debian's 3.1 runs without YJIT).
GOALS = {
  "versioned serialize" => 6, "versioned deserialize" => 8, "versioned verify" => 4,
  "final serialize" => 5, "final deserialize" => 6, "final verify" => 3
}.freeze

puts format("%-24s %14s %8s %16s %8s", "seed account (Ruby #{RUBY_VERSION}#{defined?(RubyVM::YJIT) && RubyVM::YJIT.enabled? ? ', YJIT' : ''})",
            "ips us/op", "+-%", "CPU us/op (med)", "goal")
report.entries.each do |e|
  cpu = cpu_us(cases[e.label], time / 5)
  goal = GOALS[e.label]
  verdict = goal ? format("%3d %s", goal, cpu <= goal ? "met" : "MISSED") : ""
  puts format("%-24s %14.2f %8.1f %16.2f %8s", e.label, 1e6 / e.ips, e.error_percentage, cpu, verdict)
end
