// fastwire-arena — fastwire's final format over the allocator-aware types of `fastwire
// compile --pmr` (fastwire/pmr.h: std::pmr strings and vectors, structs that take an
// allocator), read into values on a std::pmr::monotonic_buffer_resource: the arena option,
// as protobuf-arena is protobuf's.
//
// Native object: the struct generated with --pmr from a copy of bench/datasets/<dataset>.fbe
// whose package is <dataset>_pmr (CMakeLists.txt), e.g. ::monsters_pmr::Monsters.
// serialize = reset() + serialize() on a reused final_model<S>, as fastwire-final.
// deserialize = a new value on a reused arena (release(), then the value is made on the
// arena's kept 256 KiB initial buffer) + final_model::deserialize (checked): the steady
// state allocates nothing, as protobuf-arena's Reset(). fresh = a new
// std::pmr::monotonic_buffer_resource per call (default size, growing from the heap, as a
// new protobuf Arena per call), the value made on it, read, dropped with the arena.
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
    void load(const Canon& value) override { Convert::cv(value, src_); }
    ByteView serialize() override {
        writer_.reset();  // keeps the buffer's capacity
        const size_t n = writer_.serialize(src_);
        return {writer_.buffer().data(), n};
    }
    void deserialize(ByteView in) override {
        dst_.reset();
        arena_.release();  // back to the start of the kept initial buffer
        read(in, dst_.emplace(fastwire::pmr::make<Gen>(&arena_)));
    }
    void deserialize_fresh(ByteView in) override {
        std::pmr::monotonic_buffer_resource arena;
        Gen fresh = fastwire::pmr::make<Gen>(&arena);
        read(in, fresh);
        escape(&fresh);
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
    std::pmr::monotonic_buffer_resource arena_;
    std::optional<Gen> dst_;
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
                        "structs); deserialize = a new value on a reused std::pmr::monotonic_buffer_resource "
                        "(release(), 256 KiB initial buffer) + final_model::deserialize (checked); fresh = a new "
                        "monotonic_buffer_resource per call"};
    add<account::Account, ::account_pmr::Account>(r, info);
    add<monsters::Monsters, ::monsters_pmr::Monsters>(r, info);
    add<record::Record, ::record_pmr::Record>(r, info);
    add<ints::Ints, ::ints_pmr::Ints>(r, info);
    add<mixed::Mixed, ::mixed_pmr::Mixed>(r, info);
    add<complex::Complex, ::complex_pmr::Complex>(r, info);
    add<vec::ContainerVec, ::vec_pmr::ContainerVec>(r, info);
    add<map::ContainerMap, ::map_pmr::ContainerMap>(r, info);
}

}  // namespace fwb
