// fastwire-arena — fastwire's final format over the allocator-aware types of `fastwire
// compile --pmr` (fastwire/pmr.h: std::pmr strings and vectors, structs that take an
// allocator), read into values on a std::pmr::monotonic_buffer_resource: the arena option,
// as protobuf-arena is protobuf's.
//
// Native object: the struct generated with --pmr from a copy of bench/datasets/<dataset>.fbe
// whose package is <dataset>_pmr (CMakeLists.txt), e.g. ::monsters_pmr::Monsters.
// serialize = reset() + serialize() on a reused final_model<S>, as fastwire-final.
// deserialize = a new value on a reused fastwire::pmr::arena (release(), then the value is
// made with arena.make<S>() on the arena's kept 256 KiB initial buffer) +
// final_model::deserialize (checked): the steady state allocates nothing, as
// protobuf-arena's Reset(). fresh = a new fastwire::pmr::arena per call (default first
// block, 4 KiB, doubling, from the heap, as a new protobuf Arena per call), the value made
// on it, read, dropped with the arena. Values made with arena.make<S>() are not destroyed
// one by one (as messages on a protobuf Arena): every byte they hold is the arena's
// (fastwire::pmr::releasable_v<S>). Not so for account (the value of its set optional
// `asset` comes from the default resource): its values are made with fastwire::pmr::make
// and destroyed.
#include <cstddef>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fastwire/final_model.h>
#include <fastwire/pmr.h>

#include "../../harness/registry.h"
#include "convert.h"

#include "account_pmr_models.h"
#include "complex_pmr_models.h"
#include "ints_pmr_models.h"
#include "map_pmr_models.h"
#include "mixed_pmr_models.h"
#include "monsters_pmr_models.h"
#include "record_pmr_models.h"
#include "vec_pmr_models.h"

#ifndef FWB_FASTWIRE_VERSION
#define FWB_FASTWIRE_VERSION "?"
#endif

namespace fwb {
namespace {

// ---- canonical <-> generated (untimed): convert.h
FWB_FW_CONVERT(_pmr)

template <class Canon, class Gen>
class ArenaCodec final : public Codec<Canon> {
public:
    ArenaCodec() : block_(256 * 1024), arena_(block_.data(), block_.size()) {}
    ArenaCodec(const ArenaCodec&) = delete;
    ArenaCodec& operator=(const ArenaCodec&) = delete;
    void load(const Canon& value) override { Convert::cv(value, src_); }
    ByteView serialize() override {
        writer_.reset();  // keeps the buffer's capacity
        const size_t n = writer_.serialize(src_);
        return {writer_.buffer().data(), n};
    }
    void deserialize(ByteView in) override {
        if constexpr (releasable) {
            dst_ = nullptr;
            arena_.release();  // back to the start of the kept initial buffer
            dst_ = &arena_.make<Gen>();
        } else {
            kept_.reset();
            arena_.release();
            dst_ = &kept_.emplace(fastwire::pmr::make<Gen>(&arena_));
        }
        read(in, *dst_);
    }
    void deserialize_fresh(ByteView in) override {
        fastwire::pmr::arena arena;
        if constexpr (releasable) {
            Gen& fresh = arena.make<Gen>();
            read(in, fresh);
            escape(&fresh);
        } else {  // account: the value of a set optional is not the arena's, so ~Gen must run
            Gen fresh = fastwire::pmr::make<Gen>(&arena);
            read(in, fresh);
            escape(&fresh);
        }
    }
    void store(Canon& out) const override { Convert::cv(*dst_, out); }

private:
    void read(ByteView in, Gen& out) {
        reader_.attach(in.data, in.size);
        const auto status = reader_.deserialize(out);
        if (!status) throw DecodeError(std::string("fastwire: ") + status.message());
    }

    Gen src_;
    std::vector<std::byte> block_;
    // arena.make<Gen>() (never destroyed) only for types whose every byte is the arena's.
    static constexpr bool releasable = fastwire::pmr::releasable_v<Gen>;
    fastwire::pmr::arena arena_;
    std::optional<Gen> kept_;  // the value when it is not releasable
    Gen* dst_ = nullptr;
    fastwire::final_model<Gen> writer_, reader_;
};

template <class Canon, class Gen>
void add(Registry& r, const PeerInfo& info) {
    r.add<Canon>(info, [] { return std::make_unique<ArenaCodec<Canon, Gen>>(); });
}

}  // namespace

void register_fastwire_arena(Registry& r) {
    const PeerInfo info{"fastwire-arena",
                        "fastwire",
                        Kind::binary,
                        FWB_FASTWIRE_VERSION,
                        "",
                        "as fastwire-final, over the --pmr types (std::pmr strings and vectors, allocator-aware "
                        "structs); deserialize = a new value (arena.make) on a reused fastwire::pmr::arena "
                        "(release(), 256 KiB initial buffer) + final_model::deserialize (checked); fresh = a new "
                        "fastwire::pmr::arena per call (4 KiB first block, from the heap)"};
    add<account::Account, ::account_pmr::Account>(r, info);
    add<monsters::Monsters, ::monsters_pmr::Monsters>(r, info);
    add<record::Record, ::record_pmr::Record>(r, info);
    add<ints::Ints, ::ints_pmr::Ints>(r, info);
    add<mixed::Mixed, ::mixed_pmr::Mixed>(r, info);
    add<complex::Complex, ::complex_pmr::Complex>(r, info);
    add<vec::ContainerVec, ::vec_pmr::ContainerVec>(r, info);
    add<map::ContainerMap, ::map_pmr::ContainerMap>(r, info);
    r.unsupported<events::Events>(info, "fastwire's C++ variants are not in this build yet");
}

}  // namespace fwb
