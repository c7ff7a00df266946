// capnp — Cap'n Proto rows: "capnp" (flat, unpacked words) and "capnp-packed".
//
// Cap'n Proto has no owning object type: its builders are the message. So the native
// object is the canonical struct and serialize = build a MallocMessageBuilder (first
// segment in reused scratch space) from it + write the message into a reused buffer
// (writeMessage / writePackedMessage). deserialize = FlatArrayMessageReader (flat) or
// PackedMessageReader (packed, reused scratch) + copy every field into the reused struct.
// No separate verifier: the reader bounds-checks each pointer lazily when it is followed.
// read_few = FlatArrayMessageReader / PackedMessageReader + the generated getters of only
// the fields the scenario reads (Cap'n Proto's own zero-copy reader).
#include <capnp/message.h>
#include <capnp/serialize-packed.h>
#include <capnp/serialize.h>
#include <kj/io.h>

#include <cstring>
#include <vector>

#include "../../harness/registry.h"
#include "account.capnp.h"
#include "events.capnp.h"
#include "monsters.capnp.h"
#include "record.capnp.h"
#include "talk.capnp.h"

namespace fwb {
namespace {

namespace ca = fwb_capnp::account;
namespace cm = fwb_capnp::monsters;
namespace cr = fwb_capnp::record;
namespace ce = fwb_capnp::events;
namespace ct = fwb_capnp::talk;

capnp::Text::Reader text(const std::string& s) { return capnp::Text::Reader(s.data(), s.size()); }
void assign(std::string& out, capnp::Text::Reader t) { out.assign(t.begin(), t.size()); }

// ---- canonical -> builder
void build(const account::Balance& v, ca::Balance::Builder b) {
    b.setCurrency(text(v.currency));
    b.setAmount(v.amount);
}
void build(const account::Account& v, ca::Account::Builder b) {
    b.setUid(v.uid);
    b.setName(text(v.name));
    b.setState(static_cast<uint8_t>(v.state));
    build(v.wallet, b.initWallet());
    if (v.asset) build(*v.asset, b.initAsset());
    auto orders = b.initOrders(static_cast<unsigned>(v.orders.size()));
    for (unsigned i = 0; i < v.orders.size(); ++i) {
        const auto& o = v.orders[i];
        auto x = orders[i];
        x.setUid(o.uid);
        x.setSymbol(text(o.symbol));
        x.setSide(static_cast<ca::OrderSide>(o.side));
        x.setType(static_cast<ca::OrderType>(o.type));
        x.setPrice(o.price);
        x.setVolume(o.volume);
    }
}
void build(const monsters::Vec3& v, cm::Vec3::Builder b) {
    b.setX(v.x);
    b.setY(v.y);
    b.setZ(v.z);
}
void build(const monsters::Weapon& v, cm::Weapon::Builder b) {
    b.setName(text(v.name));
    b.setDamage(v.damage);
}
void build(const monsters::Monsters& v, cm::Monsters::Builder b) {
    auto list = b.initMonsters(static_cast<unsigned>(v.monsters.size()));
    for (unsigned i = 0; i < v.monsters.size(); ++i) {
        const auto& s = v.monsters[i];
        auto x = list[i];
        build(s.pos, x.initPos());
        x.setMana(s.mana);
        x.setHp(s.hp);
        x.setName(text(s.name));
        x.setInventory(capnp::Data::Reader(s.inventory.data(), s.inventory.size()));
        x.setColor(static_cast<cm::Color>(s.color));
        auto weapons = x.initWeapons(static_cast<unsigned>(s.weapons.size()));
        for (unsigned j = 0; j < s.weapons.size(); ++j) build(s.weapons[j], weapons[j]);
        build(s.equipped, x.initEquipped());
        auto path = x.initPath(static_cast<unsigned>(s.path.size()));
        for (unsigned j = 0; j < s.path.size(); ++j) build(s.path[j], path[j]);
    }
}
void build(const record::Record& v, cr::Record::Builder b) {
    auto ids = b.initIds(static_cast<unsigned>(v.ids.size()));
    for (unsigned i = 0; i < v.ids.size(); ++i) ids.set(i, v.ids[i]);
    auto strings = b.initStrings(static_cast<unsigned>(v.strings.size()));
    for (unsigned i = 0; i < v.strings.size(); ++i) strings.set(i, text(v.strings[i]));
}
void build(const ints::Ints& v, ct::Ints::Builder b) {
    b.setId(v.id);
    b.setInt1(v.int1);
    b.setInt2(v.int2);
    b.setInt3(v.int3);
    b.setInt4(v.int4);
}
void build(const mixed::Mixed& v, ct::Mixed::Builder b) {
    b.setId(v.id);
    b.setInt1(v.int1);
    b.setInt2(v.int2);
    b.setUint1(v.uint1);
    b.setFloat1(v.float1);
    b.setText1(text(v.text1));
    b.setEnum1(static_cast<ct::Enumeration>(v.enum1));
}
void build(const complex::Complex& v, ct::Complex::Builder b) {
    b.setId(v.id);
    b.setText1(text(v.text1));
    b.setText2(text(v.text2));
    b.setText3(text(v.text3));
    b.setInt1(v.int1);
    b.setInt2(v.int2);
    b.setInt3(v.int3);
    b.setText4(text(v.text4));
    b.setEnum1(static_cast<ct::Enumeration>(v.enum1));
    b.setFloat1(v.float1);
    b.setInt4(v.int4);
    b.setUint1(v.uint1);
    b.setUint2(v.uint2);
    b.setInt5(v.int5);
    b.setInt6(v.int6);
    b.setFloat2(v.float2);
    b.setText5(text(v.text5));
}
void build(const vec::ContainerVec& v, ct::ContainerVec::Builder b) {
    b.setId(v.id);
    b.setInt1(v.int1);
    b.setText1(text(v.text1));
    auto sv = b.initStringvec(static_cast<unsigned>(v.stringvec.size()));
    for (unsigned i = 0; i < v.stringvec.size(); ++i) sv.set(i, text(v.stringvec[i]));
    auto iv = b.initIntvec(static_cast<unsigned>(v.intvec.size()));
    for (unsigned i = 0; i < v.intvec.size(); ++i) iv.set(i, v.intvec[i]);
}
void build(const map::ContainerMap& v, ct::ContainerMap::Builder b) {
    b.setId(v.id);
    b.setInt1(v.int1);
    b.setText1(text(v.text1));
    auto m = b.initMap1(static_cast<unsigned>(v.map1.size()));
    unsigned i = 0;
    for (const auto& [k, s] : v.map1) {
        m[i].setKey(k);
        m[i].setValue(text(s));
        ++i;
    }
}
void build(const events::Events& v, ce::Events::Builder b) {
    auto list = b.initEvents(static_cast<unsigned>(v.events.size()));
    for (unsigned i = 0; i < v.events.size(); ++i) {
        const events::Event& e = v.events[i];
        auto x = list[i];
        switch (e.index()) {
            case 0: {
                const auto& t = std::get<events::Trade>(e);
                auto y = x.initTrade();
                y.setId(t.id);
                y.setPrice(t.price);
                y.setQuantity(t.quantity);
                y.setSymbol(text(t.symbol));
                break;
            }
            case 1: {
                const auto& q = std::get<events::Quote>(e);
                auto y = x.initQuote();
                y.setBid(q.bid);
                y.setAsk(q.ask);
                y.setBidSize(q.bid_size);
                y.setAskSize(q.ask_size);
                break;
            }
            case 2: x.initHeartbeat().setTime(std::get<events::Heartbeat>(e).time); break;
            case 3: {
                const auto& c = std::get<events::Cancel>(e);
                auto y = x.initCancel();
                y.setId(c.id);
                y.setReason(text(c.reason));
                break;
            }
            default: x.setSequence(std::get<int64_t>(e)); break;
        }
    }
}

// ---- reader -> canonical
void read(ca::Balance::Reader r, account::Balance& v) {
    assign(v.currency, r.getCurrency());
    v.amount = r.getAmount();
}
void read(ca::Account::Reader r, account::Account& v) {
    v.uid = r.getUid();
    assign(v.name, r.getName());
    v.state = static_cast<account::State>(r.getState());
    read(r.getWallet(), v.wallet);
    if (r.hasAsset())
        read(r.getAsset(), v.asset ? *v.asset : v.asset.emplace());
    else
        v.asset.reset();
    auto orders = r.getOrders();
    v.orders.resize(orders.size());
    for (unsigned i = 0; i < orders.size(); ++i) {
        auto x = orders[i];
        auto& o = v.orders[i];
        o.uid = x.getUid();
        assign(o.symbol, x.getSymbol());
        o.side = static_cast<account::OrderSide>(x.getSide());
        o.type = static_cast<account::OrderType>(x.getType());
        o.price = x.getPrice();
        o.volume = x.getVolume();
    }
}
void read(cm::Vec3::Reader r, monsters::Vec3& v) { v = {r.getX(), r.getY(), r.getZ()}; }
void read(cm::Weapon::Reader r, monsters::Weapon& v) {
    assign(v.name, r.getName());
    v.damage = r.getDamage();
}
void read(cm::Monsters::Reader r, monsters::Monsters& v) {
    auto list = r.getMonsters();
    v.monsters.resize(list.size());
    for (unsigned i = 0; i < list.size(); ++i) {
        auto x = list[i];
        auto& s = v.monsters[i];
        read(x.getPos(), s.pos);
        s.mana = x.getMana();
        s.hp = x.getHp();
        assign(s.name, x.getName());
        auto inv = x.getInventory();
        s.inventory.assign(inv.begin(), inv.end());
        s.color = static_cast<monsters::Color>(x.getColor());
        auto weapons = x.getWeapons();
        s.weapons.resize(weapons.size());
        for (unsigned j = 0; j < weapons.size(); ++j) read(weapons[j], s.weapons[j]);
        read(x.getEquipped(), s.equipped);
        auto path = x.getPath();
        s.path.resize(path.size());
        for (unsigned j = 0; j < path.size(); ++j) read(path[j], s.path[j]);
    }
}
void read(cr::Record::Reader r, record::Record& v) {
    auto ids = r.getIds();
    v.ids.resize(ids.size());
    for (unsigned i = 0; i < ids.size(); ++i) v.ids[i] = ids[i];
    auto strings = r.getStrings();
    v.strings.resize(strings.size());
    for (unsigned i = 0; i < strings.size(); ++i) assign(v.strings[i], strings[i]);
}
void read(ct::Ints::Reader r, ints::Ints& v) {
    v.id = r.getId();
    v.int1 = r.getInt1();
    v.int2 = r.getInt2();
    v.int3 = r.getInt3();
    v.int4 = r.getInt4();
}
void read(ct::Mixed::Reader r, mixed::Mixed& v) {
    v.id = r.getId();
    v.int1 = r.getInt1();
    v.int2 = r.getInt2();
    v.uint1 = r.getUint1();
    v.float1 = r.getFloat1();
    assign(v.text1, r.getText1());
    v.enum1 = static_cast<mixed::Enumeration>(r.getEnum1());
}
void read(ct::Complex::Reader r, complex::Complex& v) {
    v.id = r.getId();
    assign(v.text1, r.getText1());
    assign(v.text2, r.getText2());
    assign(v.text3, r.getText3());
    v.int1 = r.getInt1();
    v.int2 = r.getInt2();
    v.int3 = r.getInt3();
    assign(v.text4, r.getText4());
    v.enum1 = static_cast<complex::Enumeration>(r.getEnum1());
    v.float1 = r.getFloat1();
    v.int4 = r.getInt4();
    v.uint1 = r.getUint1();
    v.uint2 = r.getUint2();
    v.int5 = r.getInt5();
    v.int6 = r.getInt6();
    v.float2 = r.getFloat2();
    assign(v.text5, r.getText5());
}
void read(ct::ContainerVec::Reader r, vec::ContainerVec& v) {
    v.id = r.getId();
    v.int1 = r.getInt1();
    assign(v.text1, r.getText1());
    auto sv = r.getStringvec();
    v.stringvec.resize(sv.size());
    for (unsigned i = 0; i < sv.size(); ++i) assign(v.stringvec[i], sv[i]);
    auto iv = r.getIntvec();
    v.intvec.resize(iv.size());
    for (unsigned i = 0; i < iv.size(); ++i) v.intvec[i] = iv[i];
}
void read(ct::ContainerMap::Reader r, map::ContainerMap& v) {
    v.id = r.getId();
    v.int1 = r.getInt1();
    assign(v.text1, r.getText1());
    v.map1.clear();
    for (auto e : r.getMap1())
        v.map1.emplace_hint(v.map1.end(), e.getKey(), std::string(e.getValue().cStr(), e.getValue().size()));
}
void read(ce::Events::Reader r, events::Events& v) {
    auto list = r.getEvents();
    v.events.clear();
    v.events.reserve(list.size());
    for (auto x : list) {
        switch (x.which()) {
            case ce::Event::TRADE: {
                auto y = x.getTrade();
                events::Trade t{y.getId(), y.getPrice(), y.getQuantity(), {}};
                assign(t.symbol, y.getSymbol());
                v.events.emplace_back(std::move(t));
                break;
            }
            case ce::Event::QUOTE: {
                auto y = x.getQuote();
                v.events.emplace_back(events::Quote{y.getBid(), y.getAsk(), y.getBidSize(), y.getAskSize()});
                break;
            }
            case ce::Event::HEARTBEAT: v.events.emplace_back(events::Heartbeat{x.getHeartbeat().getTime()}); break;
            case ce::Event::CANCEL: {
                auto y = x.getCancel();
                events::Cancel c{y.getId(), {}};
                assign(c.reason, y.getReason());
                v.events.emplace_back(std::move(c));
                break;
            }
            case ce::Event::SEQUENCE: v.events.emplace_back(x.getSequence()); break;
            default: throw DecodeError("capnp: an event of no known alternative");
        }
    }
}

// ---- "read a few fields" through the generated readers (no copy)
Few few(cm::Monsters::Reader r) {
    Few f;
    for (auto m : r.getMonsters()) {
        f.a += m.getHp();
        f.b += m.getMana();
        auto name = m.getName();
        f.add_text(name.cStr(), name.size());
    }
    return f;
}
Few few(cr::Record::Reader r) {
    Few f;
    auto ids = r.getIds();
    if (ids.size()) {
        f.a = ids[0];
        f.b = ids[ids.size() - 1];
    }
    auto strings = r.getStrings();
    if (strings.size()) {
        auto s = strings[strings.size() - 1];
        f.add_text(s.cStr(), s.size());
    }
    return f;
}
Few few(ca::Account::Reader r) {
    Few f;
    f.a = r.getUid();
    f.b = static_cast<int64_t>(r.getWallet().getAmount() * 100);
    auto name = r.getName();
    f.add_text(name.cStr(), name.size());
    return f;
}
template <class Reader>
Few few(Reader) {
    return {};
}

template <class Model, class Root, bool Packed>
class CapnpCodec final : public Codec<Model> {
public:
    CapnpCodec() : scratch_(kScratchWords), read_scratch_(kScratchWords) {}
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        // The builder re-zeroes the used scratch on destruction, so scratch_ can be reused.
        capnp::MallocMessageBuilder message(kj::arrayPtr(scratch_.data(), scratch_.size()));
        build(src_, message.initRoot<Root>());
        const size_t flat = capnp::computeSerializedSizeInWords(message) * sizeof(capnp::word);
        // Packing never grows a message by more than one tag byte per word (plus run counts).
        const size_t cap = Packed ? flat + flat / 8 + 64 : flat;
        if (buf_.size() < cap) buf_.resize(cap);
        kj::ArrayOutputStream out(kj::arrayPtr(buf_.data(), cap));
        if constexpr (Packed)
            capnp::writePackedMessage(out, message);
        else
            capnp::writeMessage(out, message);
        return {buf_.data(), out.getArray().size()};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }
    Few read_few(ByteView in) override {
        Few f;
        with_root(in, [&](typename Root::Reader r) { f = few(r); });
        f.in_place = true;
        return f;
    }

private:
    static constexpr size_t kScratchWords = 1 << 13;  // 64 KiB
    void decode(ByteView in, Model& out) {
        with_root(in, [&](typename Root::Reader r) { read(r, out); });
    }
    template <class Body>
    void with_root(ByteView in, Body&& body) {
        try {
            if constexpr (Packed) {
                kj::ArrayInputStream stream(kj::arrayPtr(in.data, in.size));
                capnp::PackedMessageReader reader(stream, {}, kj::arrayPtr(read_scratch_.data(), read_scratch_.size()));
                body(reader.getRoot<Root>());
            } else {
                if (in.size % sizeof(capnp::word) != 0 ||
                    reinterpret_cast<uintptr_t>(in.data) % alignof(capnp::word) != 0)
                    throw DecodeError("capnp: input not word-aligned");
                capnp::FlatArrayMessageReader reader(
                    kj::arrayPtr(reinterpret_cast<const capnp::word*>(in.data), in.size / sizeof(capnp::word)));
                body(reader.getRoot<Root>());
            }
        } catch (const kj::Exception& e) {
            throw DecodeError(std::string("capnp: ") + e.getDescription().cStr());
        }
    }
    std::vector<capnp::word> scratch_, read_scratch_;
    std::vector<uint8_t> buf_;
    Model src_, dst_;
};

template <class Model, class Root>
void add_both(Registry& r, const PeerInfo& flat, const PeerInfo& packed) {
    r.add<Model>(flat, [] { return std::make_unique<CapnpCodec<Model, Root, false>>(); });
    r.add<Model>(packed, [] { return std::make_unique<CapnpCodec<Model, Root, true>>(); });
}

}  // namespace

void register_capnp(Registry& r) {
    const std::string version = std::to_string(CAPNP_VERSION_MAJOR) + "." + std::to_string(CAPNP_VERSION_MINOR) + "." +
                                std::to_string(CAPNP_VERSION_MICRO);
    const PeerInfo flat{"capnp",
                        "capnp",
                        Kind::binary,
                        version,
                        "",
                        "serialize = build the message from the canonical struct (scratch first "
                        "segment) + writeMessage; deserialize = FlatArrayMessageReader + copy out; "
                        "no verifier (pointers checked lazily on access)"};
    const PeerInfo packed{"capnp-packed", "capnp", Kind::binary,
                          version,        "",      "as capnp, with writePackedMessage / PackedMessageReader"};
    add_both<account::Account, ca::Account>(r, flat, packed);
    add_both<monsters::Monsters, cm::Monsters>(r, flat, packed);
    add_both<record::Record, cr::Record>(r, flat, packed);
    add_both<ints::Ints, ct::Ints>(r, flat, packed);
    add_both<mixed::Mixed, ct::Mixed>(r, flat, packed);
    add_both<complex::Complex, ct::Complex>(r, flat, packed);
    add_both<vec::ContainerVec, ct::ContainerVec>(r, flat, packed);
    add_both<map::ContainerMap, ct::ContainerMap>(r, flat, packed);
    add_both<events::Events, ce::Events>(r, flat, packed);
}

}  // namespace fwb
