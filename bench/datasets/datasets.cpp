// datasets.cpp — the values of the data sets: fixed samples and seeded generators.
//
// Every generator draws from its own fwb::Prng with a fixed seed, so the data sets are
// identical on every machine and standard library.
#include "models.h"
#include "prng.h"

namespace fwb {
namespace {

account::Account make_account() {
    // The FBE README sample (seed 001), field for field.
    using namespace account;
    Account a;
    a.uid = 1;
    a.name = "Test";
    a.state = State::good;
    a.wallet = {"USD", 1000.0};
    a.asset = Balance{"EUR", 100.0};
    a.orders = {{1, "EURUSD", OrderSide::buy, OrderType::market, 1.23456, 1000.0},
                {2, "EURUSD", OrderSide::sell, OrderType::limit, 1.0, 100.0},
                {3, "EURUSD", OrderSide::buy, OrderType::stop, 1.5, 10.0}};
    return a;
}

float coordinate(Prng& rng) {
    // A float in [-1000, 1000) with 24 significant random bits.
    return static_cast<float>(static_cast<double>(rng.next() >> 40) / 16777216.0 * 2000.0 - 1000.0);
}

monsters::Monsters make_monsters() {
    using namespace monsters;
    Prng rng(0x4d6f6e7374657273ull);  // "Monsters"
    Monsters m;
    m.monsters.resize(50);
    for (auto& x : m.monsters) {
        x.pos = {coordinate(rng), coordinate(rng), coordinate(rng)};
        x.mana = static_cast<int16_t>(rng.range(0, 1000));
        x.hp = static_cast<int16_t>(rng.range(1, 1000));
        x.name = rng.alnum(static_cast<size_t>(rng.range(5, 19)));
        x.inventory.resize(static_cast<size_t>(rng.range(0, 19)));
        for (auto& b : x.inventory) b = static_cast<uint8_t>(rng.below(256));
        x.color = static_cast<Color>(rng.below(3));
        x.weapons.resize(static_cast<size_t>(rng.range(0, 4)));
        for (auto& w : x.weapons) {
            w.name = rng.alnum(static_cast<size_t>(rng.range(4, 11)));
            w.damage = static_cast<int16_t>(rng.range(1, 300));
        }
        x.equipped.name = rng.alnum(static_cast<size_t>(rng.range(4, 11)));
        x.equipped.damage = static_cast<int16_t>(rng.range(1, 300));
        x.path.resize(static_cast<size_t>(rng.range(0, 9)));
        for (auto& p : x.path) p = {coordinate(rng), coordinate(rng), coordinate(rng)};
    }
    return m;
}

record::Record make_record() {
    Prng rng(0x5265636f7264ull);  // "Record"
    record::Record r;
    r.ids.resize(1000);
    for (auto& v : r.ids) v = rng.mixed_magnitude();
    r.strings.resize(100);
    for (auto& s : r.strings) s = rng.alnum(static_cast<size_t>(rng.range(40, 120)));
    return r;
}

ints::Ints make_ints() {
    Prng rng(0x496e7473ull);  // "Ints"
    ints::Ints v;
    v.id = rng.range(1, 100000);
    v.int1 = rng.range(-1000, 1000);
    v.int2 = rng.mixed_magnitude();
    v.int3 = static_cast<int32_t>(rng.range(-100000, 100000));
    v.int4 = static_cast<int32_t>(rng.range(INT32_MIN, INT32_MAX));
    return v;
}

mixed::Mixed make_mixed() {
    Prng rng(0x4d69786564ull);  // "Mixed"
    mixed::Mixed v;
    v.id = static_cast<int32_t>(rng.range(1, 100000));
    v.int1 = static_cast<int32_t>(rng.range(-100000, 100000));
    v.int2 = rng.mixed_magnitude();
    v.uint1 = static_cast<uint32_t>(rng.below(1ull << 32));
    v.float1 = (rng.unit() - 0.5) * 1e6;
    v.text1 = rng.alnum(12);
    v.enum1 = mixed::Enumeration::two;
    return v;
}

complex::Complex make_complex() {
    Prng rng(0x436f6d706c6578ull);  // "Complex"
    complex::Complex v;
    auto text = [&] { return rng.alnum(static_cast<size_t>(rng.range(60, 100))); };
    v.id = rng.range(1, 100000);
    v.text1 = text();
    v.text2 = text();
    v.text3 = text();
    v.int1 = static_cast<int32_t>(rng.range(-1000, 1000));
    v.int2 = static_cast<int32_t>(rng.range(-100000, 100000));
    v.int3 = static_cast<int32_t>(rng.range(INT32_MIN, INT32_MAX));
    v.text4 = text();
    v.enum1 = complex::Enumeration::two;
    v.float1 = (rng.unit() - 0.5) * 1e3;
    v.int4 = rng.mixed_magnitude();
    v.uint1 = static_cast<uint32_t>(rng.below(1ull << 32));
    v.uint2 = rng.next();
    v.int5 = rng.mixed_magnitude();
    v.int6 = static_cast<int32_t>(rng.range(-1000000, 1000000));
    v.float2 = rng.unit() * 1e9;
    v.text5 = text();
    return v;
}

vec::ContainerVec make_vec() {
    Prng rng(0x566563ull);  // "Vec"
    vec::ContainerVec v;
    v.id = static_cast<int32_t>(rng.range(1, 100000));
    v.int1 = rng.range(0, 1000000000);
    v.text1 = rng.alnum(12);
    v.stringvec.resize(50);
    for (auto& s : v.stringvec) s = rng.alnum(8);
    v.intvec.resize(50);
    for (auto& i : v.intvec) i = rng.range(-1000000, 1000000);
    return v;
}

map::ContainerMap make_map() {
    Prng rng(0x4d6170ull);  // "Map"
    map::ContainerMap v;
    v.id = static_cast<int32_t>(rng.range(1, 100000));
    v.int1 = rng.range(0, 1000000000);
    v.text1 = rng.alnum(12);
    while (v.map1.size() < 20) v.map1.emplace(static_cast<int32_t>(rng.range(-100000, 100000)), rng.alnum(8));
    return v;
}

events::Events make_events() {
    // 100 events: mostly quotes and trades, as a feed carries them, some cancels and
    // heartbeats, and bare sequence numbers (the scalar alternative).
    using namespace events;
    Prng rng(0x4576656e7473ull);  // "Events"
    Events v;
    v.events.reserve(100);
    int64_t time = 1700000000000000000;
    for (int i = 0; i < 100; ++i) {
        const int64_t pick = rng.range(0, 99);
        time += rng.range(1000, 1000000);
        const double mid = 100.0 + static_cast<double>(rng.range(-50000, 50000)) / 1000.0;
        if (pick < 40) {
            v.events.emplace_back(Quote{mid - 0.01, mid + 0.01, static_cast<int32_t>(rng.range(1, 10000)),
                                        static_cast<int32_t>(rng.range(1, 10000))});
        } else if (pick < 70) {
            v.events.emplace_back(Trade{rng.range(1, 1000000000), mid, rng.range(1, 100000),
                                        rng.alnum(static_cast<size_t>(rng.range(3, 8)))});
        } else if (pick < 80) {
            v.events.emplace_back(Cancel{rng.range(1, 1000000000), rng.alnum(static_cast<size_t>(rng.range(8, 24)))});
        } else if (pick < 90) {
            v.events.emplace_back(Heartbeat{time});
        } else {
            v.events.emplace_back(rng.range(0, 1000000000));
        }
    }
    return v;
}

}  // namespace

#define FWB_DATASET_VALUE(NS, TYPE, MAKE, DESC)  \
    const NS::TYPE& Dataset<NS::TYPE>::value() { \
        static const NS::TYPE v = MAKE();        \
        return v;                                \
    }                                            \
    const char* Dataset<NS::TYPE>::description() { return DESC; }

FWB_DATASET_VALUE(account, Account, make_account, "FBE README Account: wallet, optional asset, 3 orders")
FWB_DATASET_VALUE(monsters, Monsters, make_monsters, "50 monsters (vectors of structs, strings, bytes, floats)")
FWB_DATASET_VALUE(record, Record, make_record, "1000 int64 of mixed magnitude + 100 strings (40..120 chars)")
FWB_DATASET_VALUE(ints, Ints, make_ints, "3 int64 + 2 int32")
FWB_DATASET_VALUE(mixed, Mixed, make_mixed, "ints, uint32, double, 12-char string, enum")
FWB_DATASET_VALUE(complex, Complex, make_complex, "17 fields, 5 strings of 60..100 chars")
FWB_DATASET_VALUE(vec, ContainerVec, make_vec, "50 strings of 8 chars + 50 int64")
FWB_DATASET_VALUE(map, ContainerMap, make_map, "map<int32,string> with 20 entries")
FWB_DATASET_VALUE(events, Events, make_events,
                  "100 events, each a variant of 4 structs (quote, trade, cancel, heartbeat) or an int64")

}  // namespace fwb
