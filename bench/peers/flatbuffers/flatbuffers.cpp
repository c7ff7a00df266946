// flatbuffers — FlatBuffers rows: "flatbuffers" (Verifier, then unpack) and
// "flatbuffers-noverify" (unpack trusted input).
//
// Native object: the Object-API type (`AccountT`, generated with --gen-object-api).
// serialize = Pack into a reused FlatBufferBuilder (Clear keeps its memory);
// deserialize = [Verifier] + UnPackTo a reused `T`; fresh = [Verifier] + UnPack to a new
// `T`; verify = flatbuffers::Verifier over the whole buffer. In 2.0.8 UnPackTo allocates
// nested tables anew even into a reused object. read_few = [Verifier] + the generated
// accessors on the buffer (FlatBuffers' own zero-copy reader).
#include <flatbuffers/flatbuffers.h>

#include <memory>
#include <string>

#include "../../harness/registry.h"
#include "account_generated.h"
#include "events_generated.h"
#include "monsters_generated.h"
#include "record_generated.h"
#include "talk_generated.h"

namespace fwb {
namespace {

namespace fa = fwb_fb::account;
namespace fm = fwb_fb::monsters;
namespace fr = fwb_fb::record;
namespace ft = fwb_fb::talk;
namespace fe = fwb_fb::events;

// ---- canonical -> object API
std::unique_ptr<fa::BalanceT> to_fb(const account::Balance& v) {
    auto b = std::make_unique<fa::BalanceT>();
    b->currency = v.currency;
    b->amount = v.amount;
    return b;
}
void to_fb(const account::Account& v, fa::AccountT& t) {
    t.uid = v.uid;
    t.name = v.name;
    t.state = static_cast<uint8_t>(v.state);
    t.wallet = to_fb(v.wallet);
    t.asset = v.asset ? to_fb(*v.asset) : nullptr;
    t.orders.clear();
    for (const auto& o : v.orders) {
        auto x = std::make_unique<fa::OrderT>();
        x->uid = o.uid;
        x->symbol = o.symbol;
        x->side = static_cast<fa::OrderSide>(o.side);
        x->type = static_cast<fa::OrderType>(o.type);
        x->price = o.price;
        x->volume = o.volume;
        t.orders.push_back(std::move(x));
    }
}
std::unique_ptr<fm::WeaponT> to_fb(const monsters::Weapon& v) {
    auto w = std::make_unique<fm::WeaponT>();
    w->name = v.name;
    w->damage = v.damage;
    return w;
}
void to_fb(const monsters::Monsters& v, fm::MonstersT& t) {
    t.monsters.clear();
    for (const auto& s : v.monsters) {
        auto x = std::make_unique<fm::MonsterT>();
        x->pos = std::make_unique<fm::Vec3>(s.pos.x, s.pos.y, s.pos.z);
        x->mana = s.mana;
        x->hp = s.hp;
        x->name = s.name;
        x->inventory = s.inventory;
        x->color = static_cast<fm::Color>(s.color);
        for (const auto& w : s.weapons) x->weapons.push_back(to_fb(w));
        x->equipped = to_fb(s.equipped);
        for (const auto& p : s.path) x->path.emplace_back(p.x, p.y, p.z);
        t.monsters.push_back(std::move(x));
    }
}
void to_fb(const record::Record& v, fr::RecordT& t) {
    t.ids = v.ids;
    t.strings = v.strings;
}
void to_fb(const ints::Ints& v, ft::IntsT& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.int3 = v.int3;
    t.int4 = v.int4;
}
void to_fb(const mixed::Mixed& v, ft::MixedT& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.uint1 = v.uint1;
    t.float1 = v.float1;
    t.text1 = v.text1;
    t.enum1 = static_cast<ft::Enumeration>(v.enum1);
}
void to_fb(const complex::Complex& v, ft::ComplexT& t) {
    t.id = v.id;
    t.text1 = v.text1;
    t.text2 = v.text2;
    t.text3 = v.text3;
    t.int1 = v.int1;
    t.int2 = v.int2;
    t.int3 = v.int3;
    t.text4 = v.text4;
    t.enum1 = static_cast<ft::Enumeration>(v.enum1);
    t.float1 = v.float1;
    t.int4 = v.int4;
    t.uint1 = v.uint1;
    t.uint2 = v.uint2;
    t.int5 = v.int5;
    t.int6 = v.int6;
    t.float2 = v.float2;
    t.text5 = v.text5;
}
void to_fb(const vec::ContainerVec& v, ft::ContainerVecT& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.text1 = v.text1;
    t.stringvec = v.stringvec;
    t.intvec = v.intvec;
}
void to_fb(const map::ContainerMap& v, ft::ContainerMapT& t) {
    t.id = v.id;
    t.int1 = v.int1;
    t.text1 = v.text1;
    t.map1.clear();
    for (const auto& [k, s] : v.map1) {  // std::map iterates in key order: the vector is sorted
        auto e = std::make_unique<ft::MapEntryT>();
        e->key = k;
        e->value = s;
        t.map1.push_back(std::move(e));
    }
}
void to_fb(const events::Events& v, fe::EventsT& t) {
    t.events.clear();
    t.events.resize(v.events.size());
    for (size_t i = 0; i < v.events.size(); ++i) {
        const events::Event& e = v.events[i];
        fe::EventUnion& u = t.events[i];
        switch (e.index()) {
            case 0: {
                const auto& x = std::get<events::Trade>(e);
                fe::TradeT y;
                y.id = x.id;
                y.price = x.price;
                y.quantity = x.quantity;
                y.symbol = x.symbol;
                u.Set(std::move(y));
                break;
            }
            case 1: {
                const auto& x = std::get<events::Quote>(e);
                fe::QuoteT y;
                y.bid = x.bid;
                y.ask = x.ask;
                y.bid_size = x.bid_size;
                y.ask_size = x.ask_size;
                u.Set(std::move(y));
                break;
            }
            case 2: {
                fe::HeartbeatT y;
                y.time = std::get<events::Heartbeat>(e).time;
                u.Set(std::move(y));
                break;
            }
            case 3: {
                const auto& x = std::get<events::Cancel>(e);
                fe::CancelT y;
                y.id = x.id;
                y.reason = x.reason;
                u.Set(std::move(y));
                break;
            }
            default: {
                fe::SequenceT y;
                y.value = std::get<int64_t>(e);
                u.Set(std::move(y));
                break;
            }
        }
    }
}

// ---- object API -> canonical
void from_fb(const fa::BalanceT& t, account::Balance& v) {
    v.currency = t.currency;
    v.amount = t.amount;
}
void from_fb(const fa::AccountT& t, account::Account& v) {
    v.uid = t.uid;
    v.name = t.name;
    v.state = static_cast<account::State>(t.state);
    if (t.wallet)
        from_fb(*t.wallet, v.wallet);
    else
        v.wallet = {};
    if (t.asset)
        from_fb(*t.asset, v.asset.emplace());
    else
        v.asset.reset();
    v.orders.resize(t.orders.size());
    for (size_t i = 0; i < t.orders.size(); ++i) {
        const auto& x = *t.orders[i];
        v.orders[i] = {
            x.uid,   x.symbol, static_cast<account::OrderSide>(x.side), static_cast<account::OrderType>(x.type),
            x.price, x.volume};
    }
}
void from_fb(const fm::MonstersT& t, monsters::Monsters& v) {
    v.monsters.resize(t.monsters.size());
    for (size_t i = 0; i < t.monsters.size(); ++i) {
        const auto& x = *t.monsters[i];
        auto& s = v.monsters[i];
        s.pos = x.pos ? monsters::Vec3{x.pos->x(), x.pos->y(), x.pos->z()} : monsters::Vec3{};
        s.mana = x.mana;
        s.hp = x.hp;
        s.name = x.name;
        s.inventory = x.inventory;
        s.color = static_cast<monsters::Color>(x.color);
        s.weapons.resize(x.weapons.size());
        for (size_t j = 0; j < x.weapons.size(); ++j) s.weapons[j] = {x.weapons[j]->name, x.weapons[j]->damage};
        s.equipped = x.equipped ? monsters::Weapon{x.equipped->name, x.equipped->damage} : monsters::Weapon{};
        s.path.resize(x.path.size());
        for (size_t j = 0; j < x.path.size(); ++j) s.path[j] = {x.path[j].x(), x.path[j].y(), x.path[j].z()};
    }
}
void from_fb(const fr::RecordT& t, record::Record& v) {
    v.ids = t.ids;
    v.strings = t.strings;
}
void from_fb(const ft::IntsT& t, ints::Ints& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.int2 = t.int2;
    v.int3 = t.int3;
    v.int4 = t.int4;
}
void from_fb(const ft::MixedT& t, mixed::Mixed& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.int2 = t.int2;
    v.uint1 = t.uint1;
    v.float1 = t.float1;
    v.text1 = t.text1;
    v.enum1 = static_cast<mixed::Enumeration>(t.enum1);
}
void from_fb(const ft::ComplexT& t, complex::Complex& v) {
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
    v.uint1 = t.uint1;
    v.uint2 = t.uint2;
    v.int5 = t.int5;
    v.int6 = t.int6;
    v.float2 = t.float2;
    v.text5 = t.text5;
}
void from_fb(const ft::ContainerVecT& t, vec::ContainerVec& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.text1 = t.text1;
    v.stringvec = t.stringvec;
    v.intvec = t.intvec;
}
void from_fb(const ft::ContainerMapT& t, map::ContainerMap& v) {
    v.id = t.id;
    v.int1 = t.int1;
    v.text1 = t.text1;
    v.map1.clear();
    for (const auto& e : t.map1) v.map1.emplace(e->key, e->value);
}
void from_fb(const fe::EventsT& t, events::Events& v) {
    v.events.clear();
    v.events.reserve(t.events.size());
    for (const fe::EventUnion& u : t.events) {
        switch (u.type) {
            case fe::Event_Trade: {
                const auto* x = u.AsTrade();
                v.events.emplace_back(events::Trade{x->id, x->price, x->quantity, x->symbol});
                break;
            }
            case fe::Event_Quote: {
                const auto* x = u.AsQuote();
                v.events.emplace_back(events::Quote{x->bid, x->ask, x->bid_size, x->ask_size});
                break;
            }
            case fe::Event_Heartbeat: v.events.emplace_back(events::Heartbeat{u.AsHeartbeat()->time}); break;
            case fe::Event_Cancel: v.events.emplace_back(events::Cancel{u.AsCancel()->id, u.AsCancel()->reason}); break;
            case fe::Event_Sequence: v.events.emplace_back(u.AsSequence()->value); break;
            default: throw DecodeError("flatbuffers: an event of no known type");
        }
    }
}

// ---- "read a few fields" through the generated accessors (no unpacking)
Few few(const fm::Monsters* t) {
    Few f;
    for (const fm::Monster* m : *t->monsters()) {
        f.a += m->hp();
        f.b += m->mana();
        f.add_text(m->name()->data(), m->name()->size());
    }
    return f;
}
Few few(const fr::Record* t) {
    Few f;
    const auto* ids = t->ids();
    if (ids->size()) {
        f.a = ids->Get(0);
        f.b = ids->Get(ids->size() - 1);
    }
    const auto* strings = t->strings();
    if (strings->size()) {
        const auto* s = strings->Get(strings->size() - 1);
        f.add_text(s->data(), s->size());
    }
    return f;
}
Few few(const fa::Account* t) {
    Few f;
    f.a = t->uid();
    f.b = static_cast<int64_t>(t->wallet()->amount() * 100);
    f.add_text(t->name()->data(), t->name()->size());
    return f;
}
template <class Table>
Few few(const Table*) {
    return {};
}

template <class Model, class Table, bool Verify>
class FbCodec final : public Codec<Model> {
    using T = typename Table::NativeTableType;

public:
    void load(const Model& value) override { to_fb(value, src_); }
    ByteView serialize() override {
        fbb_.Clear();
        fbb_.Finish(Table::Pack(fbb_, &src_));
        return {fbb_.GetBufferPointer(), fbb_.GetSize()};
    }
    bool verify(ByteView in) override {
        flatbuffers::Verifier v(in.data, in.size);
        return v.VerifyBuffer<Table>(nullptr);
    }
    void deserialize(ByteView in) override { root(in)->UnPackTo(&dst_); }
    void deserialize_fresh(ByteView in) override {
        std::unique_ptr<T> fresh(root(in)->UnPack());
        escape(fresh.get());
    }
    void store(Model& out) const override { from_fb(dst_, out); }
    Few read_few(ByteView in) override {
        Few f = few(root(in));
        f.in_place = true;
        return f;
    }

private:
    const Table* root(ByteView in) {
        if constexpr (Verify)
            if (!verify(in)) throw DecodeError("flatbuffers verifier rejected the buffer");
        return flatbuffers::GetRoot<Table>(in.data);
    }
    T src_, dst_;
    flatbuffers::FlatBufferBuilder fbb_{1024};
};

template <class Model, class Table>
void add_both(Registry& r, const PeerInfo& checked, const PeerInfo& unchecked) {
    r.add<Model>(checked, [] { return std::make_unique<FbCodec<Model, Table, true>>(); });
    r.add<Model>(unchecked, [] { return std::make_unique<FbCodec<Model, Table, false>>(); });
}

}  // namespace

void register_flatbuffers(Registry& r) {
    const std::string version = std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." +
                                std::to_string(FLATBUFFERS_VERSION_MINOR) + "." +
                                std::to_string(FLATBUFFERS_VERSION_REVISION);
    const PeerInfo checked{"flatbuffers",
                           "flatbuffers",
                           Kind::binary,
                           version,
                           "flatbuffers::Verifier (offsets, sizes, strings, nested tables)",
                           "Object API: Pack from T into a reused builder; deserialize = "
                           "Verifier + UnPackTo a reused T"};
    const PeerInfo unchecked{"flatbuffers-noverify",
                             "flatbuffers",
                             Kind::binary,
                             version,
                             "",
                             "as flatbuffers, but deserialize trusts the input (no Verifier)"};
    add_both<account::Account, fa::Account>(r, checked, unchecked);
    add_both<monsters::Monsters, fm::Monsters>(r, checked, unchecked);
    add_both<record::Record, fr::Record>(r, checked, unchecked);
    add_both<ints::Ints, ft::Ints>(r, checked, unchecked);
    add_both<mixed::Mixed, ft::Mixed>(r, checked, unchecked);
    add_both<complex::Complex, ft::Complex>(r, checked, unchecked);
    add_both<vec::ContainerVec, ft::ContainerVec>(r, checked, unchecked);
    add_both<map::ContainerMap, ft::ContainerMap>(r, checked, unchecked);
    add_both<events::Events, fe::Events>(r, checked, unchecked);
}

}  // namespace fwb
