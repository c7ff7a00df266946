// models.h — the canonical C++ model of every data set.
//
// Plain structs written by hand to mirror the `.fbe` schemas next to this file (one
// namespace per package). Every peer converts from and to these types, and the round-trip
// check compares them with `==`. The values themselves come from datasets.cpp.
//
//   const fwb::account::Account& a = fwb::Dataset<fwb::account::Account>::value();
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fwb {

namespace account {
enum class OrderSide : uint8_t { buy = 0, sell = 1 };
enum class OrderType : uint8_t { market = 0, limit = 1, stop = 2 };
// `flags State : byte`; kept as an enum class holding any bit combination.
enum class State : uint8_t {
    unknown = 0x00,
    invalid = 0x01,
    initialized = 0x02,
    calculated = 0x04,
    broken = 0x08,
    good = 0x06,
    bad = 0x09
};
struct Order {
    int32_t uid = 0;
    std::string symbol;
    OrderSide side = OrderSide::buy;
    OrderType type = OrderType::market;
    double price = 0.0;
    double volume = 0.0;
    bool operator==(const Order&) const = default;
};
struct Balance {
    std::string currency;
    double amount = 0.0;
    bool operator==(const Balance&) const = default;
};
struct Account {
    int32_t uid = 0;
    std::string name;
    State state = State(0x0B);  // initialized | bad, the schema default
    Balance wallet;
    std::optional<Balance> asset;
    std::vector<Order> orders;
    bool operator==(const Account&) const = default;
};
}  // namespace account

namespace monsters {
enum class Color : uint8_t { red = 0, green = 1, blue = 2 };
struct Vec3 {
    float x = 0, y = 0, z = 0;
    bool operator==(const Vec3&) const = default;
};
struct Weapon {
    std::string name;
    int16_t damage = 0;
    bool operator==(const Weapon&) const = default;
};
struct Monster {
    Vec3 pos;
    int16_t mana = 0;
    int16_t hp = 0;
    std::string name;
    std::vector<uint8_t> inventory;
    Color color = Color::red;
    std::vector<Weapon> weapons;
    Weapon equipped;
    std::vector<Vec3> path;
    bool operator==(const Monster&) const = default;
};
struct Monsters {
    std::vector<Monster> monsters;
    bool operator==(const Monsters&) const = default;
};
}  // namespace monsters

namespace record {
struct Record {
    std::vector<int64_t> ids;
    std::vector<std::string> strings;
    bool operator==(const Record&) const = default;
};
}  // namespace record

namespace ints {
struct Ints {
    int64_t id = 0, int1 = 0, int2 = 0;
    int32_t int3 = 0, int4 = 0;
    bool operator==(const Ints&) const = default;
};
}  // namespace ints

namespace mixed {
enum class Enumeration : int32_t { one = 0, two = 1 };
struct Mixed {
    int32_t id = 0;
    int32_t int1 = 0;
    int64_t int2 = 0;
    uint32_t uint1 = 0;
    double float1 = 0;
    std::string text1;
    Enumeration enum1 = Enumeration::one;
    bool operator==(const Mixed&) const = default;
};
}  // namespace mixed

namespace complex {
enum class Enumeration : int32_t { one = 0, two = 1 };
struct Complex {
    int64_t id = 0;
    std::string text1, text2, text3;
    int32_t int1 = 0, int2 = 0, int3 = 0;
    std::string text4;
    Enumeration enum1 = Enumeration::one;
    double float1 = 0;
    int64_t int4 = 0;
    uint32_t uint1 = 0;
    uint64_t uint2 = 0;
    int64_t int5 = 0;
    int32_t int6 = 0;
    double float2 = 0;
    std::string text5;
    bool operator==(const Complex&) const = default;
};
}  // namespace complex

namespace vec {
struct ContainerVec {
    int32_t id = 0;
    int64_t int1 = 0;
    std::string text1;
    std::vector<std::string> stringvec;
    std::vector<int64_t> intvec;
    bool operator==(const ContainerVec&) const = default;
};
}  // namespace vec

namespace map {
struct ContainerMap {
    int32_t id = 0;
    int64_t int1 = 0;
    std::string text1;
    std::map<int32_t, std::string> map1;
    bool operator==(const ContainerMap&) const = default;
};
}  // namespace map

namespace events {
struct Trade {
    int64_t id = 0;
    double price = 0.0;
    int64_t quantity = 0;
    std::string symbol;
    bool operator==(const Trade&) const = default;
};
struct Quote {
    double bid = 0.0;
    double ask = 0.0;
    int32_t bid_size = 0;
    int32_t ask_size = 0;
    bool operator==(const Quote&) const = default;
};
struct Heartbeat {
    int64_t time = 0;
    bool operator==(const Heartbeat&) const = default;
};
struct Cancel {
    int64_t id = 0;
    std::string reason;
    bool operator==(const Cancel&) const = default;
};
// `variant Event { Trade; Quote; Heartbeat; Cancel; int64; }`: the index is the alternative.
using Event = std::variant<Trade, Quote, Heartbeat, Cancel, int64_t>;
struct Events {
    std::vector<Event> events;
    bool operator==(const Events&) const = default;
};
}  // namespace events

// Static facts about a data set, keyed by its root type.
template <class Model>
struct Dataset;

#define FWB_DATASET(NS, TYPE)                                \
    template <>                                              \
    struct Dataset<NS::TYPE> {                               \
        static constexpr const char* name = #NS;             \
        static const NS::TYPE& value(); /* generated once */ \
        static const char* description();                    \
    };
FWB_DATASET(account, Account)
FWB_DATASET(monsters, Monsters)
FWB_DATASET(record, Record)
FWB_DATASET(ints, Ints)
FWB_DATASET(mixed, Mixed)
FWB_DATASET(complex, Complex)
FWB_DATASET(vec, ContainerVec)
FWB_DATASET(map, ContainerMap)
FWB_DATASET(events, Events)
#undef FWB_DATASET

// True for a data set whose model holds a sum type (events: a std::variant). It compares
// the serializers that have one (Protobuf oneof, FlatBuffers and Cap'n Proto unions,
// fastwire variants, the handwritten baseline); the others register it as n/a.
template <class Model>
inline constexpr bool holds_variant = false;
template <>
inline constexpr bool holds_variant<events::Events> = true;
inline constexpr const char* kNoSumType =
    "not measured: the events data set compares sum types (Protobuf oneof, FlatBuffers and Cap'n Proto "
    "unions, fastwire variants, std::variant by hand)";

// Calls f.template operator()<Model>() for every data set, in report order.
template <class F>
void for_each_dataset(F&& f) {
    f.template operator()<account::Account>();
    f.template operator()<monsters::Monsters>();
    f.template operator()<record::Record>();
    f.template operator()<ints::Ints>();
    f.template operator()<mixed::Mixed>();
    f.template operator()<complex::Complex>();
    f.template operator()<vec::ContainerVec>();
    f.template operator()<map::ContainerMap>();
    f.template operator()<events::Events>();
}

}  // namespace fwb
