// fields.h — the field list of every canonical struct, for the JSON peers.
//
// `fields(v, x)` calls `v("name", x.name)` for each field in declaration order; X may be
// const (writing) or not (reading). Field names are the schema's, so the JSON looks like
// FBE's JSON mapping: objects keyed by field name, enums and flags as numbers, optionals
// as null or the value, maps as objects with stringified keys.
#pragma once

#include <string>
#include <type_traits>
#include <utility>

#include "../../datasets/models.h"
#include "../../harness/codec.h"
#include "foreach.h"

#define FWB_FIELD_VISIT(f) v(#f, x.f);
#define FWB_FIELDS(NS, T, ...)                                                   \
    namespace fwb::NS {                                                          \
    template <class V, class X>                                                  \
    requires std::is_same_v<std::remove_const_t<X>, T> void fields(V& v, X& x) { \
        FWB_FOR_EACH(FWB_FIELD_VISIT, __VA_ARGS__)                               \
    }                                                                            \
    }

FWB_FIELDS(account, Order, uid, symbol, side, type, price, volume)
FWB_FIELDS(account, Balance, currency, amount)
FWB_FIELDS(account, Account, uid, name, state, wallet, asset, orders)
FWB_FIELDS(monsters, Vec3, x, y, z)
FWB_FIELDS(monsters, Weapon, name, damage)
FWB_FIELDS(monsters, Monster, pos, mana, hp, name, inventory, color, weapons, equipped, path)
FWB_FIELDS(monsters, Monsters, monsters)
FWB_FIELDS(record, Record, ids, strings)
FWB_FIELDS(ints, Ints, id, int1, int2, int3, int4)
FWB_FIELDS(mixed, Mixed, id, int1, int2, uint1, float1, text1, enum1)
FWB_FIELDS(complex, Complex, id, text1, text2, text3, int1, int2, int3, text4, enum1, float1, int4, uint1, uint2, int5,
           int6, float2, text5)
FWB_FIELDS(vec, ContainerVec, id, int1, text1, stringvec, intvec)
FWB_FIELDS(map, ContainerMap, id, int1, text1, map1)

namespace fwb {

struct AnyFieldVisitor {
    template <class T>
    void operator()(const char*, T&) {}
};
// A struct with a field list (found by ADL in the struct's namespace).
template <class T>
concept Reflected = requires(AnyFieldVisitor& v, T& x) {
    fields(v, x);
};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsMap : std::false_type {};
template <class K, class V>
struct IsMap<std::map<K, V>> : std::true_type {};

// Converts a JSON integer to T, rejecting values T cannot hold.
template <class T, class I>
T narrow_int(I v, const char* what) {
    if (!std::in_range<T>(v)) throw DecodeError(std::string("json: integer out of range for ") + what);
    return static_cast<T>(v);
}

}  // namespace fwb
