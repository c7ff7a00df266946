// boost — Boost.Serialization binary archives (binary_oarchive / binary_iarchive).
//
// Native object: the canonical struct (serialize() functions below, found by ADL).
// serialize = a binary_oarchive (default flags: with its archive header) over a streambuf
// appending to a reused vector; deserialize = a binary_iarchive over the input bytes into
// the reused struct; fresh = into a new struct. The binary archive is not portable
// (native endianness and sizes). No verifier.
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <boost/version.hpp>

#include "../../harness/registry.h"
#include "../common/streams.h"

namespace fwb {
namespace account {
template <class A>
void serialize(A& ar, Order& v, unsigned) {
    ar& v.uid& v.symbol& v.side& v.type& v.price& v.volume;
}
template <class A>
void serialize(A& ar, Balance& v, unsigned) {
    ar& v.currency& v.amount;
}
// Boost 1.74 has no std::optional support: a presence flag, then the value.
template <class A>
void serialize(A& ar, std::optional<Balance>& v, unsigned) {
    bool has = v.has_value();
    ar& has;
    if constexpr (A::is_loading::value) {
        if (!has) {
            v.reset();
            return;
        }
        if (!v) v.emplace();
    }
    if (has) ar&* v;
}
template <class A>
void serialize(A& ar, Account& v, unsigned) {
    ar& v.uid& v.name& v.state& v.wallet& v.asset& v.orders;
}
}  // namespace account
namespace monsters {
template <class A>
void serialize(A& ar, Vec3& v, unsigned) {
    ar& v.x& v.y& v.z;
}
template <class A>
void serialize(A& ar, Weapon& v, unsigned) {
    ar& v.name& v.damage;
}
template <class A>
void serialize(A& ar, Monster& v, unsigned) {
    ar& v.pos& v.mana& v.hp& v.name& v.inventory& v.color& v.weapons& v.equipped& v.path;
}
template <class A>
void serialize(A& ar, Monsters& v, unsigned) {
    ar& v.monsters;
}
}  // namespace monsters
namespace record {
template <class A>
void serialize(A& ar, Record& v, unsigned) {
    ar& v.ids& v.strings;
}
}  // namespace record
namespace ints {
template <class A>
void serialize(A& ar, Ints& v, unsigned) {
    ar& v.id& v.int1& v.int2& v.int3& v.int4;
}
}  // namespace ints
namespace mixed {
template <class A>
void serialize(A& ar, Mixed& v, unsigned) {
    ar& v.id& v.int1& v.int2& v.uint1& v.float1& v.text1& v.enum1;
}
}  // namespace mixed
namespace complex {
template <class A>
void serialize(A& ar, Complex& v, unsigned) {
    ar& v.id& v.text1& v.text2& v.text3& v.int1& v.int2& v.int3& v.text4& v.enum1& v.float1& v.int4& v.uint1& v.uint2& v
        .int5& v.int6& v.float2& v.text5;
}
}  // namespace complex
namespace vec {
template <class A>
void serialize(A& ar, ContainerVec& v, unsigned) {
    ar& v.id& v.int1& v.text1& v.stringvec& v.intvec;
}
}  // namespace vec
namespace map {
template <class A>
void serialize(A& ar, ContainerMap& v, unsigned) {
    ar& v.id& v.int1& v.text1& v.map1;
}
}  // namespace map

namespace {

template <class Model>
class BoostCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        out_.reset();
        {
            boost::archive::binary_oarchive ar(out_);
            ar << static_cast<const Model&>(src_);
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
        try {
            boost::archive::binary_iarchive ar(in_);
            ar >> out;
        } catch (const boost::archive::archive_exception& e) {
            throw DecodeError(std::string("boost: ") + e.what());
        }
    }
    VectorOutBuf out_;
    SpanInBuf in_;
    Model src_, dst_;
};

}  // namespace

void register_boost(Registry& r) {
    const std::string version = std::to_string(BOOST_VERSION / 100000) + "." +
                                std::to_string(BOOST_VERSION / 100 % 1000) + "." + std::to_string(BOOST_VERSION % 100);
    const PeerInfo info{"boost",
                        "boost",
                        Kind::binary,
                        version,
                        "",
                        "binary_oarchive/binary_iarchive (default flags, with header; not "
                        "portable) over streambufs; into the reused canonical struct"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<BoostCodec<M>>(); });
    });
}

}  // namespace fwb
