// cereal — Cereal's PortableBinaryArchive (little-endian on the wire, portable).
//
// Native object: the canonical struct (serialize() functions below, found by ADL).
// serialize = a PortableBinaryOutputArchive over a std::ostream writing into a reused
// byte vector; deserialize = a PortableBinaryInputArchive over the input bytes, into the
// reused struct; fresh = into a new struct. No verifier: reads are bounds-checked by the
// stream (a short read throws).
#include <cereal/archives/portable_binary.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/optional.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/vector.hpp>
#include <cereal/version.hpp>

#include <istream>
#include <ostream>

#include "../../harness/registry.h"
#include "../common/streams.h"

namespace fwb {
namespace account {
template <class A>
void serialize(A& ar, Order& v) {
    ar(v.uid, v.symbol, v.side, v.type, v.price, v.volume);
}
template <class A>
void serialize(A& ar, Balance& v) {
    ar(v.currency, v.amount);
}
template <class A>
void serialize(A& ar, Account& v) {
    ar(v.uid, v.name, v.state, v.wallet, v.asset, v.orders);
}
}  // namespace account
namespace monsters {
template <class A>
void serialize(A& ar, Vec3& v) {
    ar(v.x, v.y, v.z);
}
template <class A>
void serialize(A& ar, Weapon& v) {
    ar(v.name, v.damage);
}
template <class A>
void serialize(A& ar, Monster& v) {
    ar(v.pos, v.mana, v.hp, v.name, v.inventory, v.color, v.weapons, v.equipped, v.path);
}
template <class A>
void serialize(A& ar, Monsters& v) {
    ar(v.monsters);
}
}  // namespace monsters
namespace record {
template <class A>
void serialize(A& ar, Record& v) {
    ar(v.ids, v.strings);
}
}  // namespace record
namespace ints {
template <class A>
void serialize(A& ar, Ints& v) {
    ar(v.id, v.int1, v.int2, v.int3, v.int4);
}
}  // namespace ints
namespace mixed {
template <class A>
void serialize(A& ar, Mixed& v) {
    ar(v.id, v.int1, v.int2, v.uint1, v.float1, v.text1, v.enum1);
}
}  // namespace mixed
namespace complex {
template <class A>
void serialize(A& ar, Complex& v) {
    ar(v.id, v.text1, v.text2, v.text3, v.int1, v.int2, v.int3, v.text4, v.enum1, v.float1, v.int4, v.uint1, v.uint2,
       v.int5, v.int6, v.float2, v.text5);
}
}  // namespace complex
namespace vec {
template <class A>
void serialize(A& ar, ContainerVec& v) {
    ar(v.id, v.int1, v.text1, v.stringvec, v.intvec);
}
}  // namespace vec
namespace map {
template <class A>
void serialize(A& ar, ContainerMap& v) {
    ar(v.id, v.int1, v.text1, v.map1);
}
}  // namespace map

namespace {

template <class Model>
class CerealCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        out_.reset();
        {
            cereal::PortableBinaryOutputArchive ar(out_stream_);
            ar(src_);
        }
        return {out_.bytes().data(), out_.bytes().size()};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    void decode(ByteView in, Model& out) {
        in_.reset(in.data, in.size);
        in_stream_.clear();
        try {
            cereal::PortableBinaryInputArchive ar(in_stream_);
            ar(out);
        } catch (const cereal::Exception& e) {
            throw DecodeError(std::string("cereal: ") + e.what());
        }
    }
    VectorOutBuf out_;
    std::ostream out_stream_{&out_};
    SpanInBuf in_;
    std::istream in_stream_{&in_};
    Model src_, dst_;
};

}  // namespace

void register_cereal(Registry& r) {
    const std::string version = std::to_string(CEREAL_VERSION_MAJOR) + "." + std::to_string(CEREAL_VERSION_MINOR) +
                                "." + std::to_string(CEREAL_VERSION_PATCH);
    const PeerInfo info{"cereal",
                        "cereal",
                        Kind::binary,
                        version,
                        "",
                        "PortableBinaryArchive over a std::ostream into a reused vector / a "
                        "std::istream over the input; into the reused canonical struct"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<CerealCodec<M>>(); });
    });
}

}  // namespace fwb
