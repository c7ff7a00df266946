// account_bench.cpp - the seed account through the versioned and the final format,
// measured the way the reference's performance fixtures measure it: one model reused,
// writer.reset() before each serialize, deserialize into a reused Account, verify of a
// serialized buffer.
//
//   ./fastwire_account_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
//
// Reference generated C++ on this machine class (spec §8), versioned: serialize 67 ns,
// deserialize 81 ns, verify 21 ns (goals 33 / 40 / 20 ns); final: 37 / 66 / 23.5 ns
// (goals 18 / 30 / 15 ns).
//
// Give a single benchmark's figure from a run of it alone (--benchmark_filter=...): in the
// full suite, the heap layout left by the benchmarks before it can place the output buffer
// 4 KiB (mod 4096) from the account's strings, and the resulting 4K aliasing costs the
// final serialize ~50% for the same code (docs/performance/cpp.md).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

#include "proto_models.h"  // generated from schemas/proto.fbe at build time

namespace {

// The fastest repetition, reported next to mean/median/stddev: on a shared VM the median
// includes time lost to other tenants; the minimum shows the code's own cost.
double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

proto::Account seed_account() {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}

// Each operation is one template over the model (versioned: fastwire::model, final:
// final_model), registered under the names the README and the spec's table use.

// Bytes of the seed account in model M's format (252 versioned, 152 final).
template <class M>
std::int64_t account_bytes() {
    M m;
    return static_cast<std::int64_t>(m.serialize(seed_account()));
}

template <class M>
void Serialize(benchmark::State& state) {
    const proto::Account account = seed_account();
    M writer;
    for (auto _ : state) {
        writer.reset();
        benchmark::DoNotOptimize(writer.serialize(account));
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * account_bytes<M>());
}

template <class M>
void Deserialize(benchmark::State& state) {
    M writer;
    writer.serialize(seed_account());
    M reader;
    reader.attach(writer.buffer());
    proto::Account account;
    for (auto _ : state) {
        auto s = reader.deserialize(account);
        benchmark::DoNotOptimize(s);
        benchmark::ClobberMemory();
    }
    if (!reader.deserialize(account)) state.SkipWithError("deserialize failed");
    state.SetBytesProcessed(state.iterations() * account_bytes<M>());
}

template <class M>
void DeserializeNewTarget(benchmark::State& state) {
    M writer;
    writer.serialize(seed_account());
    M reader;
    reader.attach(writer.buffer());
    for (auto _ : state) {
        proto::Account account;
        auto s = reader.deserialize(account);
        benchmark::DoNotOptimize(s);
        benchmark::DoNotOptimize(account);
    }
    state.SetBytesProcessed(state.iterations() * account_bytes<M>());
}

template <class M>
void Verify(benchmark::State& state) {
    M writer;
    writer.serialize(seed_account());
    M reader;
    reader.attach(writer.buffer());
    for (auto _ : state) {
        auto s = reader.verify();
        benchmark::DoNotOptimize(s);
        benchmark::ClobberMemory();
    }
    if (!reader.verify()) state.SkipWithError("verify failed");
    state.SetBytesProcessed(state.iterations() * account_bytes<M>());
}

// The floor: copying the serialized bytes into a reused buffer.
template <class M>
void MemcpyFloor(benchmark::State& state) {
    M writer;
    writer.serialize(seed_account());
    fastwire::buffer out;
    for (auto _ : state) {
        out.clear();
        out.append(writer.buffer().data(), writer.buffer().size());
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(state.iterations() * account_bytes<M>());
}

using Versioned = proto::AccountModel;
using Final = proto::AccountFinalModel;

// name, benchmark: the order the README's table lists them in.
const std::pair<const char*, void (*)(benchmark::State&)> benchmarks[] = {
    {"BM_Serialize", Serialize<Versioned>},
    {"BM_Deserialize", Deserialize<Versioned>},
    {"BM_DeserializeNewTarget", DeserializeNewTarget<Versioned>},
    {"BM_Verify", Verify<Versioned>},
    {"BM_MemcpyFloor", MemcpyFloor<Versioned>},
    {"BM_FinalSerialize", Serialize<Final>},
    {"BM_FinalDeserialize", Deserialize<Final>},
    {"BM_FinalDeserializeNewTarget", DeserializeNewTarget<Final>},
    {"BM_FinalVerify", Verify<Final>},
    {"BM_FinalMemcpyFloor", MemcpyFloor<Final>},
};

}  // namespace

// FASTWIRE_BENCH_ITERATIONS=N runs each benchmark for exactly N iterations in one round,
// so that instruction counts under callgrind (cpp/bench/callgrind.sh) compare between
// builds; this Google Benchmark (1.7) has no --benchmark_min_time=Nx.
int main(int argc, char** argv) {
    const char* fixed = std::getenv("FASTWIRE_BENCH_ITERATIONS");
    for (const auto& [name, fn] : benchmarks) {
        auto* b = benchmark::RegisterBenchmark(name, fn)->ComputeStatistics("min", min_of);
        if (fixed) b->Iterations(std::strtoll(fixed, nullptr, 10));
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
