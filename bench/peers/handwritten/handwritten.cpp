// handwritten — the baseline: a careful hand-coded encoder and decoder per data set.
//
// Format: little-endian fixed-width scalars in declaration order; strings, byte vectors
// and vectors as a u32 count then the items; an optional as a u8 flag then the value.
// Serialize walks the value twice with the same code: once with a Sizer to get the exact
// size, once with a Writer through a raw cursor into a buffer resized once and reused.
// Deserialize checks every length against the remaining input, validates enums, rejects
// trailing bytes, and decodes into the caller's object reusing its capacity.
#include <bit>
#include <cstring>
#include <vector>

#include "../../harness/registry.h"

namespace fwb {
namespace {

static_assert(std::endian::native == std::endian::little, "the handwritten format is LE");

struct Sizer {
    size_t n = 0;
    template <class T>
    void pod(T) {
        n += sizeof(T);
    }
    void bytes(const void*, size_t len) { n += len; }
};

struct Writer {
    uint8_t* p;
    template <class T>
    void pod(T v) {
        std::memcpy(p, &v, sizeof v);
        p += sizeof v;
    }
    void bytes(const void* d, size_t len) {
        if (len) std::memcpy(p, d, len);
        p += len;
    }
};

template <class S>
void put_len(S& s, size_t n) {
    s.pod(static_cast<uint32_t>(n));
}
template <class S>
void put_str(S& s, const std::string& v) {
    put_len(s, v.size());
    s.bytes(v.data(), v.size());
}

// Out of line and cold, so the checks in the hot accessors stay two instructions each.
[[noreturn, gnu::cold, gnu::noinline]] void fail(const char* what) { throw DecodeError(what); }

class Reader {
public:
    explicit Reader(ByteView in) : p_(in.data), end_(in.data + in.size) {}
    template <class T>
    T pod() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, p_, sizeof v);
        p_ += sizeof v;
        return v;
    }
    // A count of items that each take at least `min_item` bytes: bounded by the input.
    size_t count(size_t min_item) {
        const size_t n = pod<uint32_t>();
        if (min_item && n > static_cast<size_t>(end_ - p_) / min_item) fail("count exceeds input");
        return n;
    }
    void str(std::string& s) {
        const size_t n = count(1);
        s.assign(reinterpret_cast<const char*>(p_), n);
        p_ += n;
    }
    template <class E>
    E enumeration(unsigned max) {
        auto v = pod<std::underlying_type_t<E>>();
        if (static_cast<uint64_t>(v) > max) fail("enum out of range");
        return static_cast<E>(v);
    }
    void finish() const {
        if (p_ != end_) fail("trailing bytes");
    }
    void bytes(void* out, size_t n) {
        need(n);
        if (n) std::memcpy(out, p_, n);
        p_ += n;
    }

private:
    void need(size_t n) const {
        if (static_cast<size_t>(end_ - p_) < n) fail("truncated");
    }
    const uint8_t* p_;
    const uint8_t* end_;
};

// ---- account
template <class S>
void put(S& s, const account::Balance& v) {
    put_str(s, v.currency);
    s.pod(v.amount);
}
template <class S>
void put(S& s, const account::Account& v) {
    s.pod(v.uid);
    put_str(s, v.name);
    s.pod(static_cast<uint8_t>(v.state));
    put(s, v.wallet);
    s.pod(static_cast<uint8_t>(v.asset.has_value()));
    if (v.asset) put(s, *v.asset);
    put_len(s, v.orders.size());
    for (const auto& o : v.orders) {
        s.pod(o.uid);
        put_str(s, o.symbol);
        s.pod(static_cast<uint8_t>(o.side));
        s.pod(static_cast<uint8_t>(o.type));
        s.pod(o.price);
        s.pod(o.volume);
    }
}
void get(Reader& r, account::Balance& v) {
    r.str(v.currency);
    v.amount = r.pod<double>();
}
void get(Reader& r, account::Account& v) {
    using namespace account;
    v.uid = r.pod<int32_t>();
    r.str(v.name);
    v.state = r.enumeration<State>(0x0F);
    get(r, v.wallet);
    const uint8_t has_asset = r.pod<uint8_t>();
    if (has_asset > 1) fail("bad optional flag");
    if (has_asset)
        get(r, v.asset ? *v.asset : v.asset.emplace());
    else
        v.asset.reset();
    v.orders.resize(r.count(4 + 4 + 1 + 1 + 8 + 8));
    for (auto& o : v.orders) {
        o.uid = r.pod<int32_t>();
        r.str(o.symbol);
        o.side = r.enumeration<OrderSide>(1);
        o.type = r.enumeration<OrderType>(2);
        o.price = r.pod<double>();
        o.volume = r.pod<double>();
    }
}

// ---- monsters
template <class S>
void put(S& s, const monsters::Vec3& v) {
    s.pod(v.x);
    s.pod(v.y);
    s.pod(v.z);
}
template <class S>
void put(S& s, const monsters::Weapon& v) {
    put_str(s, v.name);
    s.pod(v.damage);
}
template <class S>
void put(S& s, const monsters::Monsters& v) {
    put_len(s, v.monsters.size());
    for (const auto& m : v.monsters) {
        put(s, m.pos);
        s.pod(m.mana);
        s.pod(m.hp);
        put_str(s, m.name);
        put_len(s, m.inventory.size());
        s.bytes(m.inventory.data(), m.inventory.size());
        s.pod(static_cast<uint8_t>(m.color));
        put_len(s, m.weapons.size());
        for (const auto& w : m.weapons) put(s, w);
        put(s, m.equipped);
        put_len(s, m.path.size());
        for (const auto& p : m.path) put(s, p);
    }
}
void get(Reader& r, monsters::Vec3& v) {
    v.x = r.pod<float>();
    v.y = r.pod<float>();
    v.z = r.pod<float>();
}
void get(Reader& r, monsters::Weapon& v) {
    r.str(v.name);
    v.damage = r.pod<int16_t>();
}
void get(Reader& r, monsters::Monsters& v) {
    v.monsters.resize(r.count(12 + 2 + 2 + 4 + 4 + 1 + 4 + 6 + 4));
    for (auto& m : v.monsters) {
        get(r, m.pos);
        m.mana = r.pod<int16_t>();
        m.hp = r.pod<int16_t>();
        r.str(m.name);
        m.inventory.resize(r.count(1));
        r.bytes(m.inventory.data(), m.inventory.size());
        m.color = r.enumeration<monsters::Color>(2);
        m.weapons.resize(r.count(6));
        for (auto& w : m.weapons) get(r, w);
        get(r, m.equipped);
        m.path.resize(r.count(12));
        for (auto& p : m.path) get(r, p);
    }
}

// ---- record
template <class S>
void put(S& s, const record::Record& v) {
    put_len(s, v.ids.size());
    s.bytes(v.ids.data(), v.ids.size() * sizeof(int64_t));
    put_len(s, v.strings.size());
    for (const auto& x : v.strings) put_str(s, x);
}
void get(Reader& r, record::Record& v) {
    v.ids.resize(r.count(8));
    r.bytes(v.ids.data(), v.ids.size() * sizeof(int64_t));
    v.strings.resize(r.count(4));
    for (auto& x : v.strings) r.str(x);
}

// ---- ints, mixed, complex
template <class S>
void put(S& s, const ints::Ints& v) {
    s.pod(v.id);
    s.pod(v.int1);
    s.pod(v.int2);
    s.pod(v.int3);
    s.pod(v.int4);
}
void get(Reader& r, ints::Ints& v) {
    v.id = r.pod<int64_t>();
    v.int1 = r.pod<int64_t>();
    v.int2 = r.pod<int64_t>();
    v.int3 = r.pod<int32_t>();
    v.int4 = r.pod<int32_t>();
}
template <class S>
void put(S& s, const mixed::Mixed& v) {
    s.pod(v.id);
    s.pod(v.int1);
    s.pod(v.int2);
    s.pod(v.uint1);
    s.pod(v.float1);
    put_str(s, v.text1);
    s.pod(static_cast<int32_t>(v.enum1));
}
void get(Reader& r, mixed::Mixed& v) {
    v.id = r.pod<int32_t>();
    v.int1 = r.pod<int32_t>();
    v.int2 = r.pod<int64_t>();
    v.uint1 = r.pod<uint32_t>();
    v.float1 = r.pod<double>();
    r.str(v.text1);
    v.enum1 = r.enumeration<mixed::Enumeration>(1);
}
template <class S>
void put(S& s, const complex::Complex& v) {
    s.pod(v.id);
    put_str(s, v.text1);
    put_str(s, v.text2);
    put_str(s, v.text3);
    s.pod(v.int1);
    s.pod(v.int2);
    s.pod(v.int3);
    put_str(s, v.text4);
    s.pod(static_cast<int32_t>(v.enum1));
    s.pod(v.float1);
    s.pod(v.int4);
    s.pod(v.uint1);
    s.pod(v.uint2);
    s.pod(v.int5);
    s.pod(v.int6);
    s.pod(v.float2);
    put_str(s, v.text5);
}
void get(Reader& r, complex::Complex& v) {
    v.id = r.pod<int64_t>();
    r.str(v.text1);
    r.str(v.text2);
    r.str(v.text3);
    v.int1 = r.pod<int32_t>();
    v.int2 = r.pod<int32_t>();
    v.int3 = r.pod<int32_t>();
    r.str(v.text4);
    v.enum1 = r.enumeration<complex::Enumeration>(1);
    v.float1 = r.pod<double>();
    v.int4 = r.pod<int64_t>();
    v.uint1 = r.pod<uint32_t>();
    v.uint2 = r.pod<uint64_t>();
    v.int5 = r.pod<int64_t>();
    v.int6 = r.pod<int32_t>();
    v.float2 = r.pod<double>();
    r.str(v.text5);
}

// ---- vec, map
template <class S>
void put(S& s, const vec::ContainerVec& v) {
    s.pod(v.id);
    s.pod(v.int1);
    put_str(s, v.text1);
    put_len(s, v.stringvec.size());
    for (const auto& x : v.stringvec) put_str(s, x);
    put_len(s, v.intvec.size());
    s.bytes(v.intvec.data(), v.intvec.size() * sizeof(int64_t));
}
void get(Reader& r, vec::ContainerVec& v) {
    v.id = r.pod<int32_t>();
    v.int1 = r.pod<int64_t>();
    r.str(v.text1);
    v.stringvec.resize(r.count(4));
    for (auto& x : v.stringvec) r.str(x);
    v.intvec.resize(r.count(8));
    r.bytes(v.intvec.data(), v.intvec.size() * sizeof(int64_t));
}
template <class S>
void put(S& s, const map::ContainerMap& v) {
    s.pod(v.id);
    s.pod(v.int1);
    put_str(s, v.text1);
    put_len(s, v.map1.size());
    for (const auto& [k, x] : v.map1) {
        s.pod(k);
        put_str(s, x);
    }
}
void get(Reader& r, map::ContainerMap& v) {
    v.id = r.pod<int32_t>();
    v.int1 = r.pod<int64_t>();
    r.str(v.text1);
    const size_t n = r.count(8);
    v.map1.clear();
    std::string value;
    for (size_t i = 0; i < n; ++i) {
        const auto k = r.pod<int32_t>();
        r.str(value);
        auto before = v.map1.size();
        v.map1.emplace_hint(v.map1.end(), k, value);
        if (v.map1.size() == before) fail("duplicate map key");
    }
}
// events: a u8 index, then the alternative's fields. Decoding reuses an element that holds
// the same alternative (and its strings' capacity).
template <class S>
void put(S& s, const events::Events& v) {
    put_len(s, v.events.size());
    for (const events::Event& e : v.events) {
        s.pod(static_cast<uint8_t>(e.index()));
        if (const auto* t = std::get_if<events::Trade>(&e)) {
            s.pod(t->id);
            s.pod(t->price);
            s.pod(t->quantity);
            put_str(s, t->symbol);
        } else if (const auto* q = std::get_if<events::Quote>(&e)) {
            s.pod(q->bid);
            s.pod(q->ask);
            s.pod(q->bid_size);
            s.pod(q->ask_size);
        } else if (const auto* h = std::get_if<events::Heartbeat>(&e)) {
            s.pod(h->time);
        } else if (const auto* c = std::get_if<events::Cancel>(&e)) {
            s.pod(c->id);
            put_str(s, c->reason);
        } else {
            s.pod(std::get<int64_t>(e));
        }
    }
}
template <class T>
T& holding(events::Event& e) {
    if (auto* x = std::get_if<T>(&e)) return *x;
    return e.emplace<T>();
}
void get(Reader& r, events::Events& v) {
    v.events.resize(r.count(9));  // the smallest event: the index and 8 bytes
    for (events::Event& e : v.events) {
        switch (r.pod<uint8_t>()) {
            case 0: {
                auto& t = holding<events::Trade>(e);
                t.id = r.pod<int64_t>();
                t.price = r.pod<double>();
                t.quantity = r.pod<int64_t>();
                r.str(t.symbol);
                break;
            }
            case 1: {
                auto& q = holding<events::Quote>(e);
                q.bid = r.pod<double>();
                q.ask = r.pod<double>();
                q.bid_size = r.pod<int32_t>();
                q.ask_size = r.pod<int32_t>();
                break;
            }
            case 2: holding<events::Heartbeat>(e).time = r.pod<int64_t>(); break;
            case 3: {
                auto& c = holding<events::Cancel>(e);
                c.id = r.pod<int64_t>();
                r.str(c.reason);
                break;
            }
            case 4: holding<int64_t>(e) = r.pod<int64_t>(); break;
            default: fail("bad event index");
        }
    }
}

template <class Model>
class HandCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        Sizer sizer;
        put(sizer, src_);
        buf_.resize(sizer.n);
        Writer w{buf_.data()};
        put(w, src_);
        return {buf_.data(), sizer.n};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    static void decode(ByteView in, Model& out) {
        Reader r(in);
        get(r, out);
        r.finish();
    }
    Model src_, dst_;
    std::vector<uint8_t> buf_;
};

}  // namespace

void register_handwritten(Registry& r) {
    const PeerInfo info{"handwritten",
                        "handwritten",
                        Kind::baseline,
                        "-",
                        "",
                        "hand-coded LE encoder (exact size, one resize, raw cursor) and "
                        "bounds-checked decoder into the reused canonical struct"};
    for_each_dataset([&]<class M>() { r.add<M>(info, [] { return std::make_unique<HandCodec<M>>(); }); });
}

}  // namespace fwb
