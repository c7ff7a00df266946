// protobuf — Google Protobuf rows: "protobuf" (plain messages) and "protobuf-arena".
//
// Native object: the generated message. load() converts the canonical value into it
// (untimed); serialize = ByteSizeLong + SerializeWithCachedSizesToArray into a reused
// buffer; deserialize = ParseFromArray into a reused message (plain) or into a message
// created on a reused arena after Reset() (arena); fresh = a new message (plain) or a new
// arena (arena) per call. Protobuf has no separate verifier: parsing validates.
#include <google/protobuf/arena.h>

#include <string>
#include <vector>

#include "../../harness/registry.h"
#include "account.pb.h"
#include "events.pb.h"
#include "monsters.pb.h"
#include "record.pb.h"
#include "talk.pb.h"

namespace fwb {
namespace {

namespace pa = fwb_pb::account;
namespace pm = fwb_pb::monsters;
namespace pr = fwb_pb::record;
namespace pt = fwb_pb::talk;
namespace pe = fwb_pb::events;

// ---- canonical -> message
void to_pb(const account::Balance& v, pa::Balance* m) {
    m->set_currency(v.currency);
    m->set_amount(v.amount);
}
void to_pb(const account::Account& v, pa::Account* m) {
    m->set_uid(v.uid);
    m->set_name(v.name);
    m->set_state(static_cast<uint32_t>(v.state));
    to_pb(v.wallet, m->mutable_wallet());
    if (v.asset) to_pb(*v.asset, m->mutable_asset());
    for (const auto& o : v.orders) {
        auto* x = m->add_orders();
        x->set_uid(o.uid);
        x->set_symbol(o.symbol);
        x->set_side(static_cast<pa::OrderSide>(o.side));
        x->set_type(static_cast<pa::OrderType>(o.type));
        x->set_price(o.price);
        x->set_volume(o.volume);
    }
}
void to_pb(const monsters::Vec3& v, pm::Vec3* m) {
    m->set_x(v.x);
    m->set_y(v.y);
    m->set_z(v.z);
}
void to_pb(const monsters::Weapon& v, pm::Weapon* m) {
    m->set_name(v.name);
    m->set_damage(v.damage);
}
void to_pb(const monsters::Monsters& v, pm::Monsters* m) {
    for (const auto& s : v.monsters) {
        auto* x = m->add_monsters();
        to_pb(s.pos, x->mutable_pos());
        x->set_mana(s.mana);
        x->set_hp(s.hp);
        x->set_name(s.name);
        x->set_inventory(std::string(s.inventory.begin(), s.inventory.end()));
        x->set_color(static_cast<pm::Color>(s.color));
        for (const auto& w : s.weapons) to_pb(w, x->add_weapons());
        to_pb(s.equipped, x->mutable_equipped());
        for (const auto& p : s.path) to_pb(p, x->add_path());
    }
}
void to_pb(const record::Record& v, pr::Record* m) {
    m->mutable_ids()->Add(v.ids.begin(), v.ids.end());
    for (const auto& s : v.strings) m->add_strings(s);
}
void to_pb(const ints::Ints& v, pt::Ints* m) {
    m->set_id(v.id);
    m->set_int1(v.int1);
    m->set_int2(v.int2);
    m->set_int3(v.int3);
    m->set_int4(v.int4);
}
void to_pb(const mixed::Mixed& v, pt::Mixed* m) {
    m->set_id(v.id);
    m->set_int1(v.int1);
    m->set_int2(v.int2);
    m->set_uint1(v.uint1);
    m->set_float1(v.float1);
    m->set_text1(v.text1);
    m->set_enum1(static_cast<pt::Enumeration>(v.enum1));
}
void to_pb(const complex::Complex& v, pt::Complex* m) {
    m->set_id(v.id);
    m->set_text1(v.text1);
    m->set_text2(v.text2);
    m->set_text3(v.text3);
    m->set_int1(v.int1);
    m->set_int2(v.int2);
    m->set_int3(v.int3);
    m->set_text4(v.text4);
    m->set_enum1(static_cast<pt::Enumeration>(v.enum1));
    m->set_float1(v.float1);
    m->set_int4(v.int4);
    m->set_uint1(v.uint1);
    m->set_uint2(v.uint2);
    m->set_int5(v.int5);
    m->set_int6(v.int6);
    m->set_float2(v.float2);
    m->set_text5(v.text5);
}
void to_pb(const vec::ContainerVec& v, pt::ContainerVec* m) {
    m->set_id(v.id);
    m->set_int1(v.int1);
    m->set_text1(v.text1);
    for (const auto& s : v.stringvec) m->add_stringvec(s);
    m->mutable_intvec()->Add(v.intvec.begin(), v.intvec.end());
}
void to_pb(const map::ContainerMap& v, pt::ContainerMap* m) {
    m->set_id(v.id);
    m->set_int1(v.int1);
    m->set_text1(v.text1);
    for (const auto& [k, s] : v.map1) (*m->mutable_map1())[k] = s;
}

// ---- message -> canonical
void from_pb(const pa::Balance& m, account::Balance& v) {
    v.currency = m.currency();
    v.amount = m.amount();
}
void from_pb(const pa::Account& m, account::Account& v) {
    v.uid = m.uid();
    v.name = m.name();
    v.state = static_cast<account::State>(m.state());
    from_pb(m.wallet(), v.wallet);
    if (m.has_asset())
        from_pb(m.asset(), v.asset.emplace());
    else
        v.asset.reset();
    v.orders.resize(m.orders_size());
    for (int i = 0; i < m.orders_size(); ++i) {
        const auto& x = m.orders(i);
        auto& o = v.orders[i];
        o.uid = x.uid();
        o.symbol = x.symbol();
        o.side = static_cast<account::OrderSide>(x.side());
        o.type = static_cast<account::OrderType>(x.type());
        o.price = x.price();
        o.volume = x.volume();
    }
}
void from_pb(const pm::Vec3& m, monsters::Vec3& v) { v = {m.x(), m.y(), m.z()}; }
void from_pb(const pm::Weapon& m, monsters::Weapon& v) {
    v.name = m.name();
    v.damage = static_cast<int16_t>(m.damage());
}
void from_pb(const pm::Monsters& m, monsters::Monsters& v) {
    v.monsters.resize(m.monsters_size());
    for (int i = 0; i < m.monsters_size(); ++i) {
        const auto& x = m.monsters(i);
        auto& s = v.monsters[i];
        from_pb(x.pos(), s.pos);
        s.mana = static_cast<int16_t>(x.mana());
        s.hp = static_cast<int16_t>(x.hp());
        s.name = x.name();
        s.inventory.assign(x.inventory().begin(), x.inventory().end());
        s.color = static_cast<monsters::Color>(x.color());
        s.weapons.resize(x.weapons_size());
        for (int j = 0; j < x.weapons_size(); ++j) from_pb(x.weapons(j), s.weapons[j]);
        from_pb(x.equipped(), s.equipped);
        s.path.resize(x.path_size());
        for (int j = 0; j < x.path_size(); ++j) from_pb(x.path(j), s.path[j]);
    }
}
void from_pb(const pr::Record& m, record::Record& v) {
    v.ids.assign(m.ids().begin(), m.ids().end());
    v.strings.assign(m.strings().begin(), m.strings().end());
}
void from_pb(const pt::Ints& m, ints::Ints& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.int3 = m.int3();
    v.int4 = m.int4();
}
void from_pb(const pt::Mixed& m, mixed::Mixed& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.uint1 = m.uint1();
    v.float1 = m.float1();
    v.text1 = m.text1();
    v.enum1 = static_cast<mixed::Enumeration>(m.enum1());
}
void from_pb(const pt::Complex& m, complex::Complex& v) {
    v.id = m.id();
    v.text1 = m.text1();
    v.text2 = m.text2();
    v.text3 = m.text3();
    v.int1 = m.int1();
    v.int2 = m.int2();
    v.int3 = m.int3();
    v.text4 = m.text4();
    v.enum1 = static_cast<complex::Enumeration>(m.enum1());
    v.float1 = m.float1();
    v.int4 = m.int4();
    v.uint1 = m.uint1();
    v.uint2 = m.uint2();
    v.int5 = m.int5();
    v.int6 = m.int6();
    v.float2 = m.float2();
    v.text5 = m.text5();
}
void from_pb(const pt::ContainerVec& m, vec::ContainerVec& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.text1 = m.text1();
    v.stringvec.assign(m.stringvec().begin(), m.stringvec().end());
    v.intvec.assign(m.intvec().begin(), m.intvec().end());
}
void from_pb(const pt::ContainerMap& m, map::ContainerMap& v) {
    v.id = m.id();
    v.int1 = m.int1();
    v.text1 = m.text1();
    v.map1.clear();
    for (const auto& [k, s] : m.map1()) v.map1.emplace(k, s);
}

void to_pb(const events::Events& v, pe::Events* m) {
    for (const auto& e : v.events) {
        auto* x = m->add_events();
        switch (e.index()) {
            case 0: {
                const auto& t = std::get<events::Trade>(e);
                auto* y = x->mutable_trade();
                y->set_id(t.id);
                y->set_price(t.price);
                y->set_quantity(t.quantity);
                y->set_symbol(t.symbol);
                break;
            }
            case 1: {
                const auto& q = std::get<events::Quote>(e);
                auto* y = x->mutable_quote();
                y->set_bid(q.bid);
                y->set_ask(q.ask);
                y->set_bid_size(q.bid_size);
                y->set_ask_size(q.ask_size);
                break;
            }
            case 2: x->mutable_heartbeat()->set_time(std::get<events::Heartbeat>(e).time); break;
            case 3: {
                const auto& c = std::get<events::Cancel>(e);
                auto* y = x->mutable_cancel();
                y->set_id(c.id);
                y->set_reason(c.reason);
                break;
            }
            default: x->set_sequence(std::get<int64_t>(e)); break;
        }
    }
}
void from_pb(const pe::Events& m, events::Events& v) {
    v.events.clear();
    v.events.reserve(static_cast<size_t>(m.events_size()));
    for (const auto& x : m.events()) {
        switch (x.event_case()) {
            case pe::Event::kTrade: {
                const auto& y = x.trade();
                v.events.emplace_back(events::Trade{y.id(), y.price(), y.quantity(), y.symbol()});
                break;
            }
            case pe::Event::kQuote: {
                const auto& y = x.quote();
                v.events.emplace_back(events::Quote{y.bid(), y.ask(), y.bid_size(), y.ask_size()});
                break;
            }
            case pe::Event::kHeartbeat: v.events.emplace_back(events::Heartbeat{x.heartbeat().time()}); break;
            case pe::Event::kCancel: v.events.emplace_back(events::Cancel{x.cancel().id(), x.cancel().reason()}); break;
            case pe::Event::kSequence: v.events.emplace_back(x.sequence()); break;
            default: throw DecodeError("protobuf: an event with no alternative set");
        }
    }
}

template <class Msg>
ByteView serialize_to(const Msg& msg, std::vector<uint8_t>& buf) {
    const size_t size = msg.ByteSizeLong();
    buf.resize(size);
    msg.SerializeWithCachedSizesToArray(buf.data());
    return {buf.data(), size};
}

template <class Msg>
void parse(Msg& msg, ByteView in) {
    if (!msg.ParseFromArray(in.data, static_cast<int>(in.size))) throw DecodeError("protobuf parse failed");
}

template <class Model, class Msg>
class PlainCodec final : public Codec<Model> {
public:
    void load(const Model& value) override {
        src_.Clear();
        to_pb(value, &src_);
    }
    ByteView serialize() override { return serialize_to(src_, buf_); }
    void deserialize(ByteView in) override { parse(dst_, in); }
    void deserialize_fresh(ByteView in) override {
        Msg fresh;
        parse(fresh, in);
        escape(&fresh);
    }
    void store(Model& out) const override { from_pb(dst_, out); }

private:
    Msg src_, dst_;
    std::vector<uint8_t> buf_;
};

template <class Model, class Msg>
class ArenaCodec final : public Codec<Model> {
public:
    ArenaCodec() : block_(1 << 18), arena_(options(block_)) {}
    void load(const Model& value) override {
        src_ = google::protobuf::Arena::CreateMessage<Msg>(&src_arena_);
        to_pb(value, src_);
    }
    ByteView serialize() override { return serialize_to(*src_, buf_); }
    void deserialize(ByteView in) override {
        arena_.Reset();  // keeps the initial block: steady state allocates nothing
        dst_ = google::protobuf::Arena::CreateMessage<Msg>(&arena_);
        parse(*dst_, in);
    }
    void deserialize_fresh(ByteView in) override {
        google::protobuf::Arena arena;
        auto* fresh = google::protobuf::Arena::CreateMessage<Msg>(&arena);
        parse(*fresh, in);
        escape(fresh);
    }
    void store(Model& out) const override { from_pb(*dst_, out); }

private:
    static google::protobuf::ArenaOptions options(std::vector<char>& block) {
        google::protobuf::ArenaOptions o;
        o.initial_block = block.data();
        o.initial_block_size = block.size();
        return o;
    }
    std::vector<char> block_;
    google::protobuf::Arena arena_;
    google::protobuf::Arena src_arena_;
    Msg* src_ = nullptr;
    Msg* dst_ = nullptr;
    std::vector<uint8_t> buf_;
};

std::string version() {
    const int v = GOOGLE_PROTOBUF_VERSION;
    return std::to_string(v / 1000000) + "." + std::to_string(v / 1000 % 1000) + "." + std::to_string(v % 1000);
}

template <class Model, class Msg>
void add_both(Registry& r, const PeerInfo& plain, const PeerInfo& arena) {
    r.add<Model>(plain, [] { return std::make_unique<PlainCodec<Model, Msg>>(); });
    r.add<Model>(arena, [] { return std::make_unique<ArenaCodec<Model, Msg>>(); });
}

}  // namespace

void register_protobuf(Registry& r) {
    const PeerInfo plain{"protobuf", "protobuf", Kind::binary,
                         version(),  "",         "generated message -> bytes; ParseFromArray into a reused message"};
    const PeerInfo arena{"protobuf-arena",
                         "protobuf",
                         Kind::binary,
                         version(),
                         "",
                         "as protobuf, but deserialize creates the message on a reused arena "
                         "(Reset, 256 KiB initial block); fresh = a new arena per call"};
    add_both<account::Account, pa::Account>(r, plain, arena);
    add_both<monsters::Monsters, pm::Monsters>(r, plain, arena);
    add_both<record::Record, pr::Record>(r, plain, arena);
    add_both<ints::Ints, pt::Ints>(r, plain, arena);
    add_both<mixed::Mixed, pt::Mixed>(r, plain, arena);
    add_both<complex::Complex, pt::Complex>(r, plain, arena);
    add_both<vec::ContainerVec, pt::ContainerVec>(r, plain, arena);
    add_both<map::ContainerMap, pt::ContainerMap>(r, plain, arena);
    add_both<events::Events, pe::Events>(r, plain, arena);
}

}  // namespace fwb
