// main.cpp — fastwire-bench-core: the round-trip check and the Google Benchmark runs.
//
// The user-facing CLI is bench/fastwire-bench (Python), which drives this binary and
// formats tables and reports. This binary prints JSON only:
//
//   fastwire-bench-core --list
//   fastwire-bench-core --peers protobuf,handwritten --datasets account --check
//   fastwire-bench-core --repetitions 5 --min-time 0.1 --out results.json
//
// Exit status: 0 when every selected pair round-trips, 1 when any fails, 2 on bad usage.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "cases.h"
#include "json_writer.h"

namespace fwb {
#define FWB_PEER(family) void register_##family(Registry&);
#include "peer_list.inc"
#undef FWB_PEER
}  // namespace fwb

namespace {

using namespace fwb;

struct Options {
    bool list = false, check_only = false;
    std::vector<std::string> peers, datasets;  // empty: all
    long long iterations = 0;                  // 0: use min_time
    double min_time = 0.1;
    int repetitions = 5;
    double warmup = 0.05;
    std::string out;
    std::string dump_dir;  // write each encoding to <dir>/<peer>.<dataset>.bin
    long heap_offset = 0;  // bytes taken from the heap before anything else (see main)
};

const char* kind_name(Kind k) {
    switch (k) {
        case Kind::binary: return "binary";
        case Kind::text: return "text";
        case Kind::floor: return "floor";
        case Kind::baseline: return "baseline";
    }
    return "?";
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string item; std::getline(ss, item, ',');)
        if (!item.empty()) out.push_back(item);
    return out;
}

[[noreturn]] void usage(const std::string& why) {
    std::cerr << "fastwire-bench-core: " << why << "\n"
              << "usage: fastwire-bench-core [--list] [--check] [--peers a,b] [--datasets x,y]\n"
              << "       [--iterations N | --min-time S] [--repetitions R] [--warmup S] [--out FILE]\n"
              << "       [--dump DIR]   (write every encoding to DIR/<serializer>.<dataset>.bin)\n"
              << "       [--heap-offset B]   (shift every object the runner allocates by B bytes, 0-65536)\n";
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) usage("missing value after " + a);
            return argv[++i];
        };
        try {
            if (a == "--list")
                o.list = true;
            else if (a == "--check")
                o.check_only = true;
            else if (a == "--peers")
                o.peers = split(next());
            else if (a == "--datasets")
                o.datasets = split(next());
            else if (a == "--iterations")
                o.iterations = std::stoll(next());
            else if (a == "--min-time")
                o.min_time = std::stod(next());
            else if (a == "--repetitions")
                o.repetitions = std::stoi(next());
            else if (a == "--warmup")
                o.warmup = std::stod(next());
            else if (a == "--out")
                o.out = next();
            else if (a == "--dump")
                o.dump_dir = next();
            else if (a == "--heap-offset")
                o.heap_offset = std::stol(next());
            else
                usage("unknown option " + a);
        } catch (const std::logic_error&) {
            usage("bad value for " + a);
        }
    }
    if (o.repetitions < 1 || o.iterations < 0 || o.min_time <= 0 || o.warmup < 0) usage("values must be positive");
    if (o.heap_offset < 0 || o.heap_offset > 65536) usage("--heap-offset must be 0-65536");
    return o;
}

std::vector<std::string> dataset_names() {
    std::vector<std::string> names;
    for_each_dataset([&]<class M>() { names.push_back(Dataset<M>::name); });
    return names;
}

struct Measure {
    double cpu_ns = 0, real_ns = 0, stddev_cpu_ns = 0;
    long long iterations = 0;
};

struct Row {
    size_t peer;
    std::string dataset;
    std::string status;  // "ok", "n/a", "fail"
    std::string reason;
    std::string source;  // memcpy: which encoding was copied
    size_t size = 0;
    std::unique_ptr<Case> c;
    std::map<Op, Measure> measures;
};

// Collects medians (or the single run) and prints progress on stderr.
class Collector : public benchmark::BenchmarkReporter {
public:
    Collector(std::map<std::string, std::pair<Row*, Op>> index, int repetitions)
        : index_(std::move(index)), repetitions_(repetitions) {}
    bool ReportContext(const Context&) override { return true; }
    void ReportRuns(const std::vector<Run>& runs) override {
        for (const Run& run : runs) {
            auto it = index_.find(run.run_name.function_name);
            if (it == index_.end()) continue;
            Row& row = *it->second.first;
            if (run.error_occurred) {  // the codec threw inside the timed loop
                if (row.status == "ok") {
                    row.status = "fail";
                    row.reason = std::string(op_name(it->second.second)) + ": " + run.error_message;
                }
                if (failed_.insert(run.run_name.function_name).second)  // once per benchmark
                    std::fprintf(stderr, "[%zu/%zu] %-48s FAILED: %s\n", ++done_, index_.size(),
                                 run.run_name.function_name.c_str(), run.error_message.c_str());
                continue;
            }
            Measure& m = row.measures[it->second.second];
            if (repetitions_ > 1) {
                if (run.run_type != Run::RT_Aggregate) continue;
                if (run.aggregate_name == "stddev") m.stddev_cpu_ns = run.GetAdjustedCPUTime();
                if (run.aggregate_name != "median") continue;
            } else if (run.run_type != Run::RT_Iteration) {
                continue;
            }
            m.cpu_ns = run.GetAdjustedCPUTime();
            m.real_ns = run.GetAdjustedRealTime();
            m.iterations = static_cast<long long>(run.iterations);
            ++done_;
            std::fprintf(stderr, "[%zu/%zu] %-48s %12.1f ns\n", done_, index_.size(),
                         run.run_name.function_name.c_str(), m.cpu_ns);
        }
    }
    void Finalize() override {}

private:
    std::map<std::string, std::pair<Row*, Op>> index_;
    int repetitions_;
    size_t done_ = 0;
    std::set<std::string> failed_;
};

void write_peer(JsonOut& j, const PeerInfo& p) {
    j.begin_object()
        .field("name", p.name)
        .field("family", p.family)
        .field("kind", kind_name(p.kind))
        .field("version", p.version)
        .field("verifier", p.verifier)
        .field("notes", p.notes)
        .end_object();
}

}  // namespace

int main(int argc, char** argv) {
    Options opt = parse(argc, argv);
    // --heap-offset: a block of that size taken first and kept, so that every codec, buffer
    // and value allocated after it lands that many bytes further on. Where they land against
    // cache lines and pages moves the smallest rows by up to 30 % (bench/README.md); the
    // script gives each of its processes another offset, so that their median is taken over
    // several placements rather than over one that favours some serializers.
    const std::unique_ptr<char[]> heap_pad(opt.heap_offset > 0 ? new char[opt.heap_offset] : nullptr);
    benchmark::DoNotOptimize(heap_pad.get());

    Registry reg;
#define FWB_PEER(family) register_##family(reg);
#include "peer_list.inc"
#undef FWB_PEER
    reg.declare({"memcpy", "memcpy", Kind::floor, "", "",
                 "memcpy of the smallest binary encoding of the data set, in both directions"});
    const auto& peers = reg.peers();
    const auto all_datasets = dataset_names();

    auto entry_for = [&](size_t p, const std::string& d) -> const Entry* {
        for (const auto& e : reg.entries())
            if (e.peer == p && e.dataset == d) return &e;
        return nullptr;
    };

    if (opt.list) {
        JsonOut j;
        j.begin_object().key("peers").begin_array();
        for (const auto& p : peers) write_peer(j, p);
        j.end_array().key("datasets").begin_array();
        for_each_dataset([&]<class M>() {
            j.begin_object()
                .field("name", Dataset<M>::name)
                .field("description", Dataset<M>::description())
                .end_object();
        });
        j.end_array().key("unsupported").begin_array();
        for (const auto& e : reg.entries())
            if (!e.unsupported.empty())
                j.begin_object()
                    .field("peer", peers[e.peer].name)
                    .field("dataset", e.dataset)
                    .field("reason", e.unsupported)
                    .end_object();
        j.end_array().end_object();
        std::cout << j.str() << "\n";
        return 0;
    }

    // Selection: a token names a row ("thrift-compact") or a family ("thrift").
    std::vector<size_t> sel_peers;
    if (opt.peers.empty()) {
        for (size_t i = 0; i < peers.size(); ++i) sel_peers.push_back(i);
    } else {
        for (const auto& t : opt.peers) {
            bool found = false;
            for (size_t i = 0; i < peers.size(); ++i)
                if (peers[i].name == t || peers[i].family == t) {
                    found = true;
                    if (std::find(sel_peers.begin(), sel_peers.end(), i) == sel_peers.end()) sel_peers.push_back(i);
                }
            if (!found) usage("unknown serializer '" + t + "' (see --list)");
        }
    }
    std::vector<std::string> sel_datasets;
    for (const auto& d : all_datasets)
        if (opt.datasets.empty() || std::find(opt.datasets.begin(), opt.datasets.end(), d) != opt.datasets.end())
            sel_datasets.push_back(d);
    for (const auto& t : opt.datasets)
        if (std::find(all_datasets.begin(), all_datasets.end(), t) == all_datasets.end())
            usage("unknown data set '" + t + "' (see --list)");

    // Round-trip check: every selected pair, before any timing.
    std::vector<std::unique_ptr<Row>> rows;
    bool failed = false;
    auto check_row = [&](Row& r) {
        try {
            r.reason = r.c->check();
        } catch (const std::exception& e) {
            r.reason = std::string("exception: ") + e.what();
        }
        r.status = r.reason.empty() ? "ok" : "fail";
        if (r.status == "ok") r.size = r.c->encoded().size;
    };
    for (const auto& d : sel_datasets) {
        for (size_t p : sel_peers) {
            const PeerInfo& info = peers[p];
            auto row = std::make_unique<Row>();
            row->peer = p;
            row->dataset = d;
            if (info.kind == Kind::floor) {
                // memcpy: copy the smallest binary encoding, found among all binary peers.
                std::unique_ptr<Case> best;
                std::string best_name;
                for (size_t q = 0; q < peers.size(); ++q) {
                    const Entry* e = entry_for(q, d);
                    if ((peers[q].kind != Kind::binary && peers[q].kind != Kind::baseline) || !e || !e->make) continue;
                    auto c = e->make();
                    try {
                        if (!c->check().empty()) continue;
                    } catch (const std::exception&) {
                        continue;
                    }
                    if (!best || c->encoded().size < best->encoded().size) {
                        best = std::move(c);
                        best_name = peers[q].name;
                    }
                }
                if (!best) {
                    row->status = "n/a";
                    row->reason = "no binary peer encodes this data set";
                } else {
                    row->c = make_memcpy_case(best->encoded());
                    row->source = best_name;
                    check_row(*row);
                }
            } else if (const Entry* e = entry_for(p, d); !e) {
                row->status = "fail";
                row->reason = "peer registered no codec and no reason for this data set";
            } else if (!e->unsupported.empty()) {
                row->status = "n/a";
                row->reason = e->unsupported;
            } else {
                row->c = e->make();
                check_row(*row);
            }
            if (row->status == "fail") failed = true;
            if (row->status == "ok" && !opt.dump_dir.empty()) {
                const ByteView bytes = row->c->encoded();
                std::ofstream f(opt.dump_dir + "/" + info.name + "." + d + ".bin", std::ios::binary);
                f.write(reinterpret_cast<const char*>(bytes.data), static_cast<std::streamsize>(bytes.size));
            }
            std::fprintf(stderr, "check %-20s %-10s %s%s%s\n", info.name.c_str(), d.c_str(), row->status.c_str(),
                         row->reason.empty() ? "" : ": ", row->reason.c_str());
            rows.push_back(std::move(row));
        }
    }

    // Timing.
    if (!opt.check_only) {
        int bm_argc = 1;
        char arg0[] = "fastwire-bench-core";
        char* bm_argv[] = {arg0, nullptr};
        benchmark::Initialize(&bm_argc, bm_argv);
        std::map<std::string, std::pair<Row*, Op>> index;
        const double warmup = opt.warmup;
        for (auto& row : rows) {
            if (row->status != "ok") continue;
            for (Op op : {Op::serialize, Op::deserialize, Op::deserialize_fresh, Op::verify, Op::read_few}) {
                if (!row->c->has(op)) continue;
                std::string name = peers[row->peer].name + "/" + row->dataset + "/" + op_name(op);
                Case* c = row->c.get();
                auto warmed = std::make_shared<bool>(false);
                auto* b = benchmark::RegisterBenchmark(name.c_str(), [c, op, warmup, warmed](benchmark::State& st) {
                    try {
                        if (!*warmed) {  // once per benchmark, untimed (outside the measured loop)
                            *warmed = true;
                            c->warm(op, warmup);
                        }
                        c->run(op, st);
                    } catch (const std::exception& e) {
                        st.SkipWithError((std::string("exception while timing: ") + e.what()).c_str());
                    }
                });
                b->Unit(benchmark::kNanosecond);
                if (opt.iterations > 0)
                    b->Iterations(opt.iterations);
                else
                    b->MinTime(opt.min_time);
                if (opt.repetitions > 1) b->Repetitions(opt.repetitions)->ReportAggregatesOnly(true);
                index[name] = {row.get(), op};
            }
        }
        Collector collector(std::move(index), opt.repetitions);
        benchmark::RunSpecifiedBenchmarks(&collector);
        benchmark::Shutdown();
    }

    JsonOut j;
    j.begin_object().field("format", "fastwire-bench-core/1");
    j.key("config")
        .begin_object()
        .field("iterations", opt.iterations)
        .field("min_time_s", opt.min_time)
        .field("repetitions", opt.repetitions)
        .field("warmup_s", opt.warmup)
        .field("heap_offset", static_cast<long long>(opt.heap_offset))
        .field("check_only", opt.check_only)
        .field("time", "cpu time, median of repetitions")
        .field("compiler", std::string("g++ ") + __VERSION__)
        .end_object();
    j.key("peers").begin_array();
    for (size_t p : sel_peers) write_peer(j, peers[p]);
    j.end_array().key("datasets").begin_array();
    for_each_dataset([&]<class M>() {
        if (std::find(sel_datasets.begin(), sel_datasets.end(), Dataset<M>::name) != sel_datasets.end())
            j.begin_object()
                .field("name", Dataset<M>::name)
                .field("description", Dataset<M>::description())
                .end_object();
    });
    j.end_array().key("results").begin_array();
    for (auto& row : rows) {
        j.begin_object()
            .field("peer", peers[row->peer].name)
            .field("dataset", row->dataset)
            .field("status", row->status)
            .field("reason", row->reason);
        if (!row->source.empty()) j.field("source", row->source);
        if (row->status == "ok") j.field("size", row->size);
        j.key("ops").begin_object();
        for (auto& [op, m] : row->measures)
            j.key(op_name(op))
                .begin_object()
                .field("cpu_ns", m.cpu_ns)
                .field("real_ns", m.real_ns)
                .field("stddev_cpu_ns", m.stddev_cpu_ns)
                .field("iterations", m.iterations)
                .end_object();
        j.end_object().end_object();
    }
    j.end_array().end_object();

    if (opt.out.empty()) {
        std::cout << j.str() << "\n";
    } else {
        std::ofstream f(opt.out);
        f << j.str() << "\n";
        if (!f) {
            std::cerr << "fastwire-bench-core: cannot write " << opt.out << "\n";
            return 2;
        }
    }
    for (auto& row : rows)
        if (row->status == "fail") failed = true;
    return failed ? 1 : 0;
}
