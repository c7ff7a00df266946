// cases.cpp — the timed loops and the round-trip check, shared by every codec.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "cases.h"

namespace fwb {

const char* op_name(Op op) {
    switch (op) {
        case Op::serialize: return "serialize";
        case Op::deserialize: return "deserialize";
        case Op::deserialize_fresh: return "deserialize_fresh";
        case Op::verify: return "verify";
        case Op::read_few: return "read_few";
    }
    return "?";
}

size_t Registry::intern(const PeerInfo& peer) {
    for (size_t i = 0; i < peers_.size(); ++i)
        if (peers_[i].name == peer.name) return i;
    peers_.push_back(peer);
    return peers_.size() - 1;
}

namespace {

// The fields the "read a few fields" scenario reads (codec.h, Few), from the canonical
// value; false for the data sets it does not cover.
bool few_fields(const monsters::Monsters& v, Few& f) {
    for (const auto& m : v.monsters) {
        f.a += m.hp;
        f.b += m.mana;
        f.add_text(m.name.data(), m.name.size());
    }
    return true;
}
bool few_fields(const record::Record& v, Few& f) {
    if (!v.ids.empty()) {
        f.a = v.ids.front();
        f.b = v.ids.back();
    }
    if (!v.strings.empty()) f.add_text(v.strings.back().data(), v.strings.back().size());
    return true;
}
bool few_fields(const account::Account& v, Few& f) {
    f.a = v.uid;
    f.b = static_cast<int64_t>(v.wallet.amount * 100);
    f.add_text(v.name.data(), v.name.size());
    return true;
}
template <class Model>
bool few_fields(const Model&, Few&) {
    return false;
}

// Runs `body` until `seconds` have passed (checking the clock every 16 calls).
template <class Body>
void repeat_for(double seconds, Body&& body) {
    using clock = std::chrono::steady_clock;
    const auto end = clock::now() + std::chrono::duration<double>(seconds);
    do {
        for (int i = 0; i < 16; ++i) body();
    } while (clock::now() < end);
}

template <class Model>
class CodecCase final : public Case {
public:
    CodecCase(std::unique_ptr<Codec<Model>> codec, bool has_verify)
        : codec_(std::move(codec)), has_verify_(has_verify) {}

    std::string check() override {
        const Model& value = Dataset<Model>::value();
        codec_->load(value);
        ByteView out = codec_->serialize();
        if (out.size == 0) return "serialize produced no bytes";
        input_.assign(out.data, out.data + out.size);
        // A second serialize of the same value must give the same bytes (buffer reuse bugs).
        ByteView again = codec_->serialize();
        if (again.size != input_.size() || std::memcmp(again.data, input_.data(), input_.size()) != 0)
            return "serialize is not repeatable (second call gave different bytes)";
        if (has_verify_ && !codec_->verify(view())) return "verify() rejected its own encoding";
        // Decode twice into the reused object: the second pass catches state that leaks
        // between calls (appending to vectors, stale optionals).
        for (int pass = 0; pass < 2; ++pass) {
            codec_->deserialize(view());
            Model back;
            codec_->store(back);
            if (!(back == value)) return pass == 0 ? "round trip mismatch" : "round trip mismatch on reuse";
        }
        codec_->deserialize_fresh(view());
        Few expected;
        has_few_ = few_fields(value, expected);
        if (has_few_) {
            const Few got = codec_->read_few(view());
            if (got.in_place && !(got == expected)) return "read_few read other values than the data set's";
        }
        return "";
    }

    ByteView encoded() const override { return {input_.data(), input_.size()}; }

    bool has(Op op) const override {
        if (op == Op::read_few) return has_few_;
        if (codec_->read_few_only()) return false;
        return op != Op::verify || has_verify_;
    }

    void warm(Op op, double seconds) override {
        repeat_for(seconds, [&] { once(op); });
    }

    void run(Op op, benchmark::State& state) override {
        const ByteView in = view();
        switch (op) {
            case Op::serialize:
                for (auto _ : state) {
                    ByteView out = codec_->serialize();
                    benchmark::DoNotOptimize(out.data);
                    benchmark::DoNotOptimize(out.size);
                    benchmark::ClobberMemory();
                }
                break;
            case Op::deserialize:
                for (auto _ : state) {
                    codec_->deserialize(in);
                    benchmark::ClobberMemory();
                }
                break;
            case Op::deserialize_fresh:
                for (auto _ : state) {
                    codec_->deserialize_fresh(in);
                    benchmark::ClobberMemory();
                }
                break;
            case Op::verify:
                for (auto _ : state) {
                    bool ok = codec_->verify(in);
                    benchmark::DoNotOptimize(ok);
                }
                break;
            case Op::read_few:
                for (auto _ : state) {
                    Few f = codec_->read_few(in);
                    benchmark::DoNotOptimize(f);
                    benchmark::ClobberMemory();
                }
                break;
        }
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(input_.size()));
    }

private:
    ByteView view() const { return {input_.data(), input_.size()}; }
    void once(Op op) {
        switch (op) {
            case Op::serialize: benchmark::DoNotOptimize(codec_->serialize().data); break;
            case Op::deserialize: codec_->deserialize(view()); break;
            case Op::deserialize_fresh: codec_->deserialize_fresh(view()); break;
            case Op::verify: {
                bool ok = codec_->verify(view());
                benchmark::DoNotOptimize(ok);
            } break;
            case Op::read_few: {
                Few f = codec_->read_few(view());
                benchmark::DoNotOptimize(f);
            } break;
        }
        benchmark::ClobberMemory();
    }

    std::unique_ptr<Codec<Model>> codec_;
    bool has_verify_;
    bool has_few_ = false;
    std::vector<uint8_t> input_;  // the encoding every deserialize/verify reads
};

// The floor: copy the bytes of an existing encoding, nothing else.
class MemcpyCase final : public Case {
public:
    explicit MemcpyCase(ByteView source) : source_(source.data, source.data + source.size) {}

    std::string check() override {
        once(Op::serialize);
        once(Op::deserialize);
        if (out_ != source_ || back_ != source_) return "copy differs from source";
        return "";
    }
    ByteView encoded() const override { return {source_.data(), source_.size()}; }
    bool has(Op op) const override { return op != Op::verify && op != Op::read_few; }
    void warm(Op op, double seconds) override {
        repeat_for(seconds, [&] { once(op); });
    }

    void run(Op op, benchmark::State& state) override {
        for (auto _ : state) once(op);
        state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(source_.size()));
    }

private:
    void once(Op op) {
        switch (op) {
            case Op::serialize:  // into a reused output buffer, like every serializer's
                out_.resize(source_.size());
                std::memcpy(out_.data(), source_.data(), source_.size());
                benchmark::DoNotOptimize(out_.data());
                break;
            case Op::deserialize:
                back_.assign(source_.begin(), source_.end());
                benchmark::DoNotOptimize(back_.data());
                break;
            case Op::deserialize_fresh: {
                std::vector<uint8_t> fresh(source_.begin(), source_.end());
                benchmark::DoNotOptimize(fresh.data());
                break;
            }
            case Op::verify:
            case Op::read_few: break;
        }
        benchmark::ClobberMemory();
    }
    std::vector<uint8_t> source_, out_, back_;
};

}  // namespace

template <class Model>
std::unique_ptr<Case> make_codec_case(std::unique_ptr<Codec<Model>> codec, bool has_verify) {
    return std::make_unique<CodecCase<Model>>(std::move(codec), has_verify);
}

std::unique_ptr<Case> make_memcpy_case(ByteView source) { return std::make_unique<MemcpyCase>(source); }

#define FWB_INSTANTIATE(T) template std::unique_ptr<Case> make_codec_case<T>(std::unique_ptr<Codec<T>>, bool);
FWB_INSTANTIATE(account::Account)
FWB_INSTANTIATE(monsters::Monsters)
FWB_INSTANTIATE(record::Record)
FWB_INSTANTIATE(ints::Ints)
FWB_INSTANTIATE(mixed::Mixed)
FWB_INSTANTIATE(complex::Complex)
FWB_INSTANTIATE(vec::ContainerVec)
FWB_INSTANTIATE(map::ContainerMap)
FWB_INSTANTIATE(events::Events)
#undef FWB_INSTANTIATE

}  // namespace fwb
