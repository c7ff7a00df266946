// msgpack — MessagePack via msgpack-cxx: each struct is a msgpack array of its fields.
//
// Native object: the canonical struct (msgpack-cxx serializes C++ types through adaptor
// specializations, written below). serialize = msgpack::pack into a reused sbuffer;
// deserialize = msgpack::unpack into a reused zone (cleared per call) + convert into the
// reused struct; fresh = unpack with a new zone into a new struct. No verifier: unpack and
// convert check types and sizes.
#include <msgpack.hpp>

#include "../../harness/registry.h"
#include "../common/foreach.h"

MSGPACK_ADD_ENUM(fwb::account::OrderSide)
MSGPACK_ADD_ENUM(fwb::account::OrderType)
MSGPACK_ADD_ENUM(fwb::account::State)
MSGPACK_ADD_ENUM(fwb::monsters::Color)
MSGPACK_ADD_ENUM(fwb::mixed::Enumeration)
MSGPACK_ADD_ENUM(fwb::complex::Enumeration)

// FWB_MSGPACK_STRUCT(Type, fields...) — a msgpack array of the listed fields, in order.
#define FWB_MSGPACK_FIELD_PACK(f) o.pack(v.f);
#define FWB_MSGPACK_FIELD_CONVERT(f) a.ptr[i++].convert(v.f);
#define FWB_MSGPACK_COUNT(...) \
    FWB_MSGPACK_COUNT_(__VA_ARGS__, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define FWB_MSGPACK_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, N, ...) N

#define FWB_MSGPACK_STRUCT(T, ...)                                                                            \
    namespace msgpack {                                                                                       \
    MSGPACK_API_VERSION_NAMESPACE(MSGPACK_DEFAULT_API_NS) {                                                   \
        namespace adaptor {                                                                                   \
        template <>                                                                                           \
        struct pack<T> {                                                                                      \
            template <class Stream>                                                                           \
            packer<Stream>& operator()(packer<Stream>& o, const T& v) const {                                 \
                o.pack_array(FWB_MSGPACK_COUNT(__VA_ARGS__));                                                 \
                FWB_FOR_EACH(FWB_MSGPACK_FIELD_PACK, __VA_ARGS__)                                             \
                return o;                                                                                     \
            }                                                                                                 \
        };                                                                                                    \
        template <>                                                                                           \
        struct convert<T> {                                                                                   \
            const msgpack::object& operator()(const msgpack::object& obj, T& v) const {                       \
                if (obj.type != msgpack::type::ARRAY || obj.via.array.size != FWB_MSGPACK_COUNT(__VA_ARGS__)) \
                    throw msgpack::type_error();                                                              \
                const auto& a = obj.via.array;                                                                \
                uint32_t i = 0;                                                                               \
                FWB_FOR_EACH(FWB_MSGPACK_FIELD_CONVERT, __VA_ARGS__)                                          \
                return obj;                                                                                   \
            }                                                                                                 \
        };                                                                                                    \
        }                                                                                                     \
    }                                                                                                         \
    }

FWB_MSGPACK_STRUCT(fwb::account::Order, uid, symbol, side, type, price, volume)
FWB_MSGPACK_STRUCT(fwb::account::Balance, currency, amount)
FWB_MSGPACK_STRUCT(fwb::account::Account, uid, name, state, wallet, asset, orders)
FWB_MSGPACK_STRUCT(fwb::monsters::Vec3, x, y, z)
FWB_MSGPACK_STRUCT(fwb::monsters::Weapon, name, damage)
FWB_MSGPACK_STRUCT(fwb::monsters::Monster, pos, mana, hp, name, inventory, color, weapons, equipped, path)
FWB_MSGPACK_STRUCT(fwb::monsters::Monsters, monsters)
FWB_MSGPACK_STRUCT(fwb::record::Record, ids, strings)
FWB_MSGPACK_STRUCT(fwb::ints::Ints, id, int1, int2, int3, int4)
FWB_MSGPACK_STRUCT(fwb::mixed::Mixed, id, int1, int2, uint1, float1, text1, enum1)
FWB_MSGPACK_STRUCT(fwb::complex::Complex, id, text1, text2, text3, int1, int2, int3, text4, enum1, float1, int4, uint1,
                   uint2, int5, int6, float2, text5)
FWB_MSGPACK_STRUCT(fwb::vec::ContainerVec, id, int1, text1, stringvec, intvec)
FWB_MSGPACK_STRUCT(fwb::map::ContainerMap, id, int1, text1, map1)

namespace fwb {
namespace {

template <class Model>
class MsgpackCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        buf_.clear();  // keeps the allocation
        msgpack::pack(buf_, src_);
        return {reinterpret_cast<const uint8_t*>(buf_.data()), buf_.size()};
    }
    void deserialize(ByteView in) override {
        zone_.clear();
        decode(zone_, in, dst_);
    }
    void deserialize_fresh(ByteView in) override {
        msgpack::zone zone;
        Model fresh;
        decode(zone, in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    static void decode(msgpack::zone& zone, ByteView in, Model& out) {
        try {
            std::size_t off = 0;
            msgpack::object obj = msgpack::unpack(zone, reinterpret_cast<const char*>(in.data), in.size, off);
            if (off != in.size) throw DecodeError("msgpack: trailing bytes");
            obj.convert(out);
        } catch (const msgpack::unpack_error& e) {
            throw DecodeError(std::string("msgpack: ") + e.what());
        } catch (const msgpack::type_error& e) {
            throw DecodeError(std::string("msgpack: ") + e.what());
        }
    }
    msgpack::sbuffer buf_{4096};
    msgpack::zone zone_;
    Model src_, dst_;
};

}  // namespace

void register_msgpack(Registry& r) {
    const PeerInfo info{"msgpack",
                        "msgpack",
                        Kind::binary,
                        MSGPACK_VERSION,
                        "",
                        "msgpack-cxx: struct = array of fields; pack into a reused sbuffer; "
                        "unpack into a reused zone + convert into the reused struct"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<MsgpackCodec<M>>(); });
    });
}

}  // namespace fwb
