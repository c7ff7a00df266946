// sbe — Simple Binary Encoding (real-logic sbe-tool 1.30.0 C++ generator).
//
// SBE has no owning object type: its generated classes are flyweights over the buffer.
// So the native object is the canonical struct; serialize = wrapAndApplyHeader over a
// reused 1 MiB buffer + encode every field in schema order; deserialize = check the message
// header, wrapForDecode, and copy every field out (groups and var data in schema order)
// into the reused struct. The generated code bounds-checks positions (SBE_NO_BOUNDS_CHECK
// is not defined) and rejects unknown enum values. No separate verifier.
// The schema flattens what SBE cannot nest (see bench.xml).
#include <cstring>
#include <stdexcept>
#include <vector>

#include "../../harness/registry.h"
#include "fwb_sbe/Account.h"
#include "fwb_sbe/Complex.h"
#include "fwb_sbe/ContainerMap.h"
#include "fwb_sbe/ContainerVec.h"
#include "fwb_sbe/Ints.h"
#include "fwb_sbe/MessageHeader.h"
#include "fwb_sbe/Mixed.h"
#include "fwb_sbe/Monsters.h"
#include "fwb_sbe/Record.h"

namespace fwb {
namespace {

namespace s = fwb_sbe;

uint16_t group_count(size_t n) {
    if (n > 65534) throw std::length_error("sbe: group too large");
    return static_cast<uint16_t>(n);
}
void assign(std::string& out, std::string_view v) { out.assign(v.data(), v.size()); }

// ---- account
void encode(const account::Account& v, s::Account& m) {
    m.uid(v.uid).state(static_cast<uint8_t>(v.state)).walletAmount(v.wallet.amount);
    auto& asset = m.assetCount(v.asset ? 1 : 0);
    if (v.asset) asset.next().amount(v.asset->amount).putCurrency(v.asset->currency);
    auto& orders = m.ordersCount(group_count(v.orders.size()));
    for (const auto& o : v.orders) {
        orders.next()
            .uid(o.uid)
            .side(static_cast<s::OrderSide::Value>(o.side))
            .orderType(static_cast<s::OrderType::Value>(o.type))
            .price(o.price)
            .volume(o.volume)
            .putSymbol(o.symbol);
    }
    m.putName(v.name).putWalletCurrency(v.wallet.currency);
}
void decode(s::Account& m, account::Account& v) {
    v.uid = m.uid();
    v.state = static_cast<account::State>(m.state());
    v.wallet.amount = m.walletAmount();
    auto& asset = m.asset();
    if (asset.count() > 1) throw DecodeError("sbe: more than one asset");
    if (asset.hasNext()) {
        asset.next();
        auto& b = v.asset ? *v.asset : v.asset.emplace();
        b.amount = asset.amount();
        assign(b.currency, asset.getCurrencyAsStringView());
    } else {
        v.asset.reset();
    }
    auto& orders = m.orders();
    v.orders.resize(orders.count());
    for (auto& o : v.orders) {
        orders.next();
        o.uid = orders.uid();
        o.side = static_cast<account::OrderSide>(orders.side());
        o.type = static_cast<account::OrderType>(orders.orderType());
        o.price = orders.price();
        o.volume = orders.volume();
        assign(o.symbol, orders.getSymbolAsStringView());
    }
    assign(v.name, m.getNameAsStringView());
    assign(v.wallet.currency, m.getWalletCurrencyAsStringView());
}

// ---- monsters
void encode(const monsters::Monsters& v, s::Monsters& m) {
    auto& g = m.monsterCount(group_count(v.monsters.size()));
    for (const auto& x : v.monsters) {
        g.next();
        g.pos().x(x.pos.x).y(x.pos.y).z(x.pos.z);
        g.mana(x.mana).hp(x.hp).color(static_cast<s::Color::Value>(x.color)).equippedDamage(x.equipped.damage);
        auto& weapons = g.weaponsCount(group_count(x.weapons.size()));
        for (const auto& w : x.weapons) weapons.next().damage(w.damage).putWeaponName(w.name);
        auto& path = g.pathCount(group_count(x.path.size()));
        for (const auto& p : x.path) path.next().point().x(p.x).y(p.y).z(p.z);
        g.putName(x.name);
        g.putInventory(reinterpret_cast<const char*>(x.inventory.data()), static_cast<uint32_t>(x.inventory.size()));
        g.putEquippedName(x.equipped.name);
    }
}
void decode(s::Monsters& m, monsters::Monsters& v) {
    auto& g = m.monster();
    v.monsters.resize(g.count());
    for (auto& x : v.monsters) {
        g.next();
        auto& pos = g.pos();
        x.pos = {pos.x(), pos.y(), pos.z()};
        x.mana = g.mana();
        x.hp = g.hp();
        x.color = static_cast<monsters::Color>(g.color());
        x.equipped.damage = g.equippedDamage();
        auto& weapons = g.weapons();
        x.weapons.resize(weapons.count());
        for (auto& w : x.weapons) {
            weapons.next();
            w.damage = weapons.damage();
            assign(w.name, weapons.getWeaponNameAsStringView());
        }
        auto& path = g.path();
        x.path.resize(path.count());
        for (auto& p : x.path) {
            auto& point = path.next().point();
            p = {point.x(), point.y(), point.z()};
        }
        assign(x.name, g.getNameAsStringView());
        auto inv = g.getInventoryAsStringView();
        x.inventory.assign(reinterpret_cast<const uint8_t*>(inv.data()),
                           reinterpret_cast<const uint8_t*>(inv.data()) + inv.size());
        assign(x.equipped.name, g.getEquippedNameAsStringView());
    }
}

// ---- record
void encode(const record::Record& v, s::Record& m) {
    auto& ids = m.idsCount(group_count(v.ids.size()));
    for (int64_t id : v.ids) ids.next().id(id);
    auto& strings = m.stringsCount(group_count(v.strings.size()));
    for (const auto& x : v.strings) strings.next().putText(x);
}
void decode(s::Record& m, record::Record& v) {
    auto& ids = m.ids();
    v.ids.resize(ids.count());
    for (auto& id : v.ids) id = ids.next().id();
    auto& strings = m.strings();
    v.strings.resize(strings.count());
    for (auto& x : v.strings) assign(x, strings.next().getTextAsStringView());
}

// ---- ints, mixed, complex
void encode(const ints::Ints& v, s::Ints& m) { m.id(v.id).int1(v.int1).int2(v.int2).int3(v.int3).int4(v.int4); }
void decode(s::Ints& m, ints::Ints& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.int3 = m.int3();
    v.int4 = m.int4();
}
void encode(const mixed::Mixed& v, s::Mixed& m) {
    m.id(v.id)
        .int1(v.int1)
        .int2(v.int2)
        .uint1(v.uint1)
        .float1(v.float1)
        .enum1(static_cast<s::Enumeration::Value>(v.enum1))
        .putText1(v.text1);
}
void decode(s::Mixed& m, mixed::Mixed& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.uint1 = m.uint1();
    v.float1 = m.float1();
    v.enum1 = static_cast<mixed::Enumeration>(m.enum1());
    assign(v.text1, m.getText1AsStringView());
}
void encode(const complex::Complex& v, s::Complex& m) {
    m.id(v.id)
        .int1(v.int1)
        .int2(v.int2)
        .int3(v.int3)
        .enum1(static_cast<s::Enumeration::Value>(v.enum1))
        .float1(v.float1)
        .int4(v.int4)
        .uint1(v.uint1)
        .uint2(v.uint2)
        .int5(v.int5)
        .int6(v.int6)
        .float2(v.float2);
    m.putText1(v.text1).putText2(v.text2).putText3(v.text3).putText4(v.text4).putText5(v.text5);
}
void decode(s::Complex& m, complex::Complex& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.int3 = m.int3();
    v.enum1 = static_cast<complex::Enumeration>(m.enum1());
    v.float1 = m.float1();
    v.int4 = m.int4();
    v.uint1 = m.uint1();
    v.uint2 = m.uint2();
    v.int5 = m.int5();
    v.int6 = m.int6();
    v.float2 = m.float2();
    assign(v.text1, m.getText1AsStringView());
    assign(v.text2, m.getText2AsStringView());
    assign(v.text3, m.getText3AsStringView());
    assign(v.text4, m.getText4AsStringView());
    assign(v.text5, m.getText5AsStringView());
}

// ---- vec, map
void encode(const vec::ContainerVec& v, s::ContainerVec& m) {
    m.id(v.id).int1(v.int1);
    auto& sv = m.stringvecCount(group_count(v.stringvec.size()));
    for (const auto& x : v.stringvec) sv.next().putText(x);
    auto& iv = m.intvecCount(group_count(v.intvec.size()));
    for (int64_t x : v.intvec) iv.next().value(x);
    m.putText1(v.text1);
}
void decode(s::ContainerVec& m, vec::ContainerVec& v) {
    v.id = m.id();
    v.int1 = m.int1();
    auto& sv = m.stringvec();
    v.stringvec.resize(sv.count());
    for (auto& x : v.stringvec) assign(x, sv.next().getTextAsStringView());
    auto& iv = m.intvec();
    v.intvec.resize(iv.count());
    for (auto& x : v.intvec) x = iv.next().value();
    assign(v.text1, m.getText1AsStringView());
}
void encode(const map::ContainerMap& v, s::ContainerMap& m) {
    m.id(v.id).int1(v.int1);
    auto& g = m.map1Count(group_count(v.map1.size()));
    for (const auto& [k, x] : v.map1) g.next().key(k).putText(x);
    m.putText1(v.text1);
}
void decode(s::ContainerMap& m, map::ContainerMap& v) {
    v.id = m.id();
    v.int1 = m.int1();
    auto& g = m.map1();
    v.map1.clear();
    while (g.hasNext()) {
        g.next();
        const int32_t k = g.key();
        auto text = g.getTextAsStringView();
        v.map1.emplace_hint(v.map1.end(), k, std::string(text));
    }
    assign(v.text1, m.getText1AsStringView());
}

template <class Model, class Msg>
class SbeCodec final : public Codec<Model> {
public:
    SbeCodec() : buf_(1 << 20) {}
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        Msg m;
        m.wrapAndApplyHeader(buf_.data(), 0, buf_.size());
        encode(src_, m);
        return {reinterpret_cast<const uint8_t*>(buf_.data()), s::MessageHeader::encodedLength() + m.encodedLength()};
    }
    void deserialize(ByteView in) override { decode_message(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode_message(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    static void decode_message(ByteView in, Model& out) {
        char* p = const_cast<char*>(reinterpret_cast<const char*>(in.data));  // decoding only reads
        try {
            s::MessageHeader hdr(p, 0, in.size, Msg::sbeSchemaVersion());
            if (hdr.templateId() != Msg::sbeTemplateId() || hdr.schemaId() != Msg::sbeSchemaId())
                throw DecodeError("sbe: unexpected message template or schema");
            Msg m;
            m.wrapForDecode(p, s::MessageHeader::encodedLength(), hdr.blockLength(), hdr.version(), in.size);
            decode(m, out);
        } catch (const std::runtime_error& e) {
            throw DecodeError(std::string("sbe: ") + e.what());
        }
    }
    std::vector<char> buf_;
    Model src_, dst_;
};

}  // namespace

void register_sbe(Registry& r) {
    const PeerInfo info{"sbe",
                        "sbe",
                        Kind::binary,
                        FWB_SBE_VERSION,
                        "",
                        "flyweight encode of the canonical struct into a reused buffer; decode "
                        "= header check + wrapForDecode + copy out (bounds-checked); nested "
                        "structs flattened, optional = 0/1 group, map = group (see bench.xml)"};
    r.add<account::Account>(info, [] { return std::make_unique<SbeCodec<account::Account, s::Account>>(); });
    r.add<monsters::Monsters>(info, [] { return std::make_unique<SbeCodec<monsters::Monsters, s::Monsters>>(); });
    r.add<record::Record>(info, [] { return std::make_unique<SbeCodec<record::Record, s::Record>>(); });
    r.add<ints::Ints>(info, [] { return std::make_unique<SbeCodec<ints::Ints, s::Ints>>(); });
    r.add<mixed::Mixed>(info, [] { return std::make_unique<SbeCodec<mixed::Mixed, s::Mixed>>(); });
    r.add<complex::Complex>(info, [] { return std::make_unique<SbeCodec<complex::Complex, s::Complex>>(); });
    r.add<vec::ContainerVec>(info, [] { return std::make_unique<SbeCodec<vec::ContainerVec, s::ContainerVec>>(); });
    r.add<map::ContainerMap>(info, [] { return std::make_unique<SbeCodec<map::ContainerMap, s::ContainerMap>>(); });
    r.unsupported<events::Events>(info, kNoSumType);
}

}  // namespace fwb
