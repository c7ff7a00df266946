// thrift — Apache Thrift rows: "thrift-binary" (TBinaryProtocol) and "thrift-compact"
// (TCompactProtocol), both over TMemoryBuffer.
//
// Native object: the generated struct. serialize = write() into a reused, owned
// TMemoryBuffer (resetBuffer keeps its memory); deserialize = read() from a TMemoryBuffer
// observing the input into a reused struct; fresh = into a new struct. The protocols are
// the transport-templated classes (TBinaryProtocolT<TMemoryBuffer>), used through the
// generated read/write(TProtocol*) as a normal user would. No verifier: read() validates.
#include <thrift/config.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include <memory>

#include "../../harness/registry.h"
#include "account_types.h"
#include "monsters_types.h"
#include "record_types.h"
#include "talk_types.h"

namespace fwb {
namespace {

using apache::thrift::transport::TMemoryBuffer;
namespace ta = fwb_thrift::account;
namespace tm = fwb_thrift::monsters;
namespace tr = fwb_thrift::record;
namespace tt = fwb_thrift::talk;

// ---- canonical -> generated
void to_thrift(const account::Balance& v, ta::Balance& t) {
    t.currency = v.currency;
    t.amount = v.amount;
}
void to_thrift(const account::Account& v, ta::Account& t) {
    t.uid = v.uid;
    t.name = v.name;
    t.state = static_cast<int8_t>(v.state);
    to_thrift(v.wallet, t.wallet);
    if (v.asset) {
        ta::Balance b;
        to_thrift(*v.asset, b);
        t.__set_asset(b);
    }
    t.orders.clear();
    for (const auto& o : v.orders) {
        ta::Order x;
        x.uid = o.uid;
        x.symbol = o.symbol;
        x.side = static_cast<ta::OrderSide::type>(o.side);
        x.type = static_cast<ta::OrderType::type>(o.type);
        x.price = o.price;
        x.volume = o.volume;
        t.orders.push_back(x);
    }
}
void to_thrift(const monsters::Vec3& v, tm::Vec3& t) {
    t.x = v.x;
    t.y = v.y;
    t.z = v.z;
}
void to_thrift(const monsters::Weapon& v, tm::Weapon& t) {
    t.name = v.name;
    t.damage = v.damage;
}
void to_thrift(const monsters::Monsters& v, tm::Monsters& t) {
    t.monsters.resize(v.monsters.size());
    for (size_t i = 0; i < v.monsters.size(); ++i) {
        const auto& s = v.monsters[i];
        auto& x = t.monsters[i];
        to_thrift(s.pos, x.pos);
        x.mana = s.mana;
        x.hp = s.hp;
        x.name = s.name;
        x.inventory.assign(s.inventory.begin(), s.inventory.end());
        x.color = static_cast<tm::Color::type>(s.color);
        x.weapons.resize(s.weapons.size());
        for (size_t j = 0; j < s.weapons.size(); ++j) to_thrift(s.weapons[j], x.weapons[j]);
        to_thrift(s.equipped, x.equipped);
        x.path.resize(s.path.size());
        for (size_t j = 0; j < s.path.size(); ++j) to_thrift(s.path[j], x.path[j]);
    }
}
void to_thrift(const record::Record& v, tr::Record& t) {
    t.ids = v.ids;
    t.strings = v.strings;
}
void to_thrift(const ints::Ints& v, tt::Ints& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.int3 = v.int3;
    t.int4 = v.int4;
}
void to_thrift(const mixed::Mixed& v, tt::Mixed& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.uint1 = v.uint1;
    t.float1 = v.float1;
    t.text1 = v.text1;
    t.enum1 = static_cast<tt::Enumeration::type>(v.enum1);
}
void to_thrift(const complex::Complex& v, tt::Complex& t) {
    t.id = v.id;
    t.text1 = v.text1;
    t.text2 = v.text2;
    t.text3 = v.text3;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.int3 = v.int3;
    t.text4 = v.text4;
    t.enum1 = static_cast<tt::Enumeration::type>(v.enum1);
    t.float1 = v.float1;
    t.int4 = v.int4;
    t.uint1 = v.uint1;
    t.uint2 = static_cast<int64_t>(v.uint2);
    t.int5 = v.int5;
    t.int6 = v.int6;
    t.float2 = v.float2;
    t.text5 = v.text5;
}
void to_thrift(const vec::ContainerVec& v, tt::ContainerVec& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.text1 = v.text1;
    t.stringvec = v.stringvec;
    t.intvec = v.intvec;
}
void to_thrift(const map::ContainerMap& v, tt::ContainerMap& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.text1 = v.text1;
    t.map1 = v.map1;
}

// ---- generated -> canonical
void from_thrift(const ta::Balance& t, account::Balance& v) {
    v.currency = t.currency;
    v.amount = t.amount;
}
void from_thrift(const ta::Account& t, account::Account& v) {
    v.uid = t.uid;
    v.name = t.name;
    v.state = static_cast<account::State>(static_cast<uint8_t>(t.state));
    from_thrift(t.wallet, v.wallet);
    if (t.__isset.asset)
        from_thrift(t.asset, v.asset.emplace());
    else
        v.asset.reset();
    v.orders.resize(t.orders.size());
    for (size_t i = 0; i < t.orders.size(); ++i) {
        const auto& x = t.orders[i];
        v.orders[i] = {
            x.uid,   x.symbol, static_cast<account::OrderSide>(x.side), static_cast<account::OrderType>(x.type),
            x.price, x.volume};
    }
}
void from_thrift(const tm::Monsters& t, monsters::Monsters& v) {
    v.monsters.resize(t.monsters.size());
    for (size_t i = 0; i < t.monsters.size(); ++i) {
        const auto& x = t.monsters[i];
        auto& s = v.monsters[i];
        s.pos = {static_cast<float>(x.pos.x), static_cast<float>(x.pos.y), static_cast<float>(x.pos.z)};
        s.mana = x.mana;
        s.hp = x.hp;
        s.name = x.name;
        s.inventory.assign(x.inventory.begin(), x.inventory.end());
        s.color = static_cast<monsters::Color>(x.color);
        s.weapons.resize(x.weapons.size());
        for (size_t j = 0; j < x.weapons.size(); ++j) s.weapons[j] = {x.weapons[j].name, x.weapons[j].damage};
        s.equipped = {x.equipped.name, x.equipped.damage};
        s.path.resize(x.path.size());
        for (size_t j = 0; j < x.path.size(); ++j)
            s.path[j] = {static_cast<float>(x.path[j].x), static_cast<float>(x.path[j].y),
                         static_cast<float>(x.path[j].z)};
    }
}
void from_thrift(const tr::Record& t, record::Record& v) {
    v.ids = t.ids;
    v.strings = t.strings;
}
void from_thrift(const tt::Ints& t, ints::Ints& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.int2 = t.int2;
    v.int3 = t.int3;
    v.int4 = t.int4;
}
void from_thrift(const tt::Mixed& t, mixed::Mixed& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.int2 = t.int2;
    v.uint1 = static_cast<uint32_t>(t.uint1);
    v.float1 = t.float1;
    v.text1 = t.text1;
    v.enum1 = static_cast<mixed::Enumeration>(t.enum1);
}
void from_thrift(const tt::Complex& t, complex::Complex& v) {
    v.id = t.id;
    v.text1 = t.text1;
    v.text2 = t.text2;
    v.text3 = t.text3;
    v.int1 = t.int1;
    v.int2 = t.int2;
    v.int3 = t.int3;
    v.text4 = t.text4;
    v.enum1 = static_cast<complex::Enumeration>(t.enum1);
    v.float1 = t.float1;
    v.int4 = t.int4;
    v.uint1 = static_cast<uint32_t>(t.uint1);
    v.uint2 = static_cast<uint64_t>(t.uint2);
    v.int5 = t.int5;
    v.int6 = t.int6;
    v.float2 = t.float2;
    v.text5 = t.text5;
}
void from_thrift(const tt::ContainerVec& t, vec::ContainerVec& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.text1 = t.text1;
    v.stringvec = t.stringvec;
    v.intvec = t.intvec;
}
void from_thrift(const tt::ContainerMap& t, map::ContainerMap& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.text1 = t.text1;
    v.map1 = t.map1;
}

template <class Model, class T, template <class> class Protocol>
class ThriftCodec final : public Codec<Model> {
    using Proto = Protocol<TMemoryBuffer>;

public:
    void load(const Model& value) override { to_thrift(value, src_); }
    ByteView serialize() override {
        out_buf_->resetBuffer();  // keeps the owned memory
        src_.write(&out_proto_);
        uint8_t* p = nullptr;
        uint32_t n = 0;
        out_buf_->getBuffer(&p, &n);
        return {p, n};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        T fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { from_thrift(dst_, out); }

private:
    void decode(ByteView in, T& out) {
        try {
            in_buf_->resetBuffer(const_cast<uint8_t*>(in.data), static_cast<uint32_t>(in.size), TMemoryBuffer::OBSERVE);
            out.read(&in_proto_);
            // readEnd() resets the transport's consumed-bytes budget; resetBuffer() does not
            // (its swap keeps the counter), so without it a long run ends in "MaxMessageSize".
            in_buf_->readEnd();
        } catch (const apache::thrift::TException& e) {
            throw DecodeError(std::string("thrift: ") + e.what());
        }
    }
    std::shared_ptr<TMemoryBuffer> out_buf_ = std::make_shared<TMemoryBuffer>(4096);
    std::shared_ptr<TMemoryBuffer> in_buf_ = std::make_shared<TMemoryBuffer>();
    Proto out_proto_{out_buf_};
    Proto in_proto_{in_buf_};
    T src_, dst_;
};

template <class Transport>
using Binary = apache::thrift::protocol::TBinaryProtocolT<Transport>;
template <class Transport>
using Compact = apache::thrift::protocol::TCompactProtocolT<Transport>;

template <class Model, class T>
void add_both(Registry& r, const PeerInfo& binary, const PeerInfo& compact) {
    r.add<Model>(binary, [] { return std::make_unique<ThriftCodec<Model, T, Binary>>(); });
    r.add<Model>(compact, [] { return std::make_unique<ThriftCodec<Model, T, Compact>>(); });
}

}  // namespace

void register_thrift(Registry& r) {
    const char* notes =
        "generated struct write()/read() through %s over a reused TMemoryBuffer; "
        "floats travel as double, unsigned as i64 (Thrift has neither)";
    auto describe = [&](const char* proto) {
        char buf[256];
        std::snprintf(buf, sizeof buf, notes, proto);
        return std::string(buf);
    };
    const PeerInfo binary{"thrift-binary", "thrift", Kind::binary, PACKAGE_VERSION, "", describe("TBinaryProtocolT")};
    const PeerInfo compact{"thrift-compact", "thrift", Kind::binary,
                           PACKAGE_VERSION,  "",       describe("TCompactProtocolT")};
    add_both<account::Account, ta::Account>(r, binary, compact);
    add_both<monsters::Monsters, tm::Monsters>(r, binary, compact);
    add_both<record::Record, tr::Record>(r, binary, compact);
    add_both<ints::Ints, tt::Ints>(r, binary, compact);
    add_both<mixed::Mixed, tt::Mixed>(r, binary, compact);
    add_both<complex::Complex, tt::Complex>(r, binary, compact);
    add_both<vec::ContainerVec, tt::ContainerVec>(r, binary, compact);
    add_both<map::ContainerMap, tt::ContainerMap>(r, binary, compact);
    r.unsupported<events::Events>(binary, kNoSumType);
    r.unsupported<events::Events>(compact, kNoSumType);
}

}  // namespace fwb
