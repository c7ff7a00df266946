// convert.h — canonical fwb::<dataset> values <-> the structs fastwire generates for them
// (untimed load()/store()), shared by fastwire.cpp (the plain types, namespace <dataset>)
// and fastwire_arena.cpp (the --pmr types, namespace <dataset>_pmr).
//
// The generated structs mirror the canonical ones field for field (same names, C++ types
// that differ at most in their allocator), so one overload set converts both ways. Static
// members of one class, so that the container templates see every struct overload
// whatever the order. FWB_FW_CONVERT(SUFFIX) defines that class, Convert, for the generated
// namespaces <dataset>SUFFIX: FWB_FW_CONVERT() or FWB_FW_CONVERT(_pmr).
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../../datasets/models.h"

namespace fwb::fastwire_convert {

struct Base {
    template <class T>
    requires std::is_arithmetic_v<T> static void cv(const T& a, T& b) {
        b = a;
    }

    template <class A, class B>
    requires(std::is_enum_v<A>&& std::is_enum_v<B>&&
                 std::is_same_v<std::underlying_type_t<A>, std::underlying_type_t<B>>) static void cv(const A& a,
                                                                                                      B& b) {
        b = static_cast<B>(static_cast<std::underlying_type_t<A>>(a));
    }

    template <class AA, class AB>
    static void cv(const std::basic_string<char, std::char_traits<char>, AA>& a,
                   std::basic_string<char, std::char_traits<char>, AB>& b) {
        b.assign(a.data(), a.size());
    }
};

}  // namespace fwb::fastwire_convert

// The containers recurse into Convert::cv, so they are defined inside Convert itself.
#define FWB_FW_CONVERT_CONTAINERS                                                           \
    template <class A, class AA, class B, class AB>                                         \
    static void cv(const std::vector<A, AA>& a, std::vector<B, AB>& b) {                    \
        b.resize(a.size());                                                                 \
        for (std::size_t i = 0; i < a.size(); ++i) cv(a[i], b[i]);                          \
    }                                                                                       \
    template <class A, class B>                                                             \
    static void cv(const std::optional<A>& a, std::optional<B>& b) {                        \
        if (a)                                                                              \
            cv(*a, b ? *b : b.emplace());                                                   \
        else                                                                                \
            b.reset();                                                                      \
    }                                                                                       \
    template <class KA, class A, class CA, class AA, class KB, class B, class CB, class AB> \
    static void cv(const std::map<KA, A, CA, AA>& a, std::map<KB, B, CB, AB>& b) {          \
        b.clear();                                                                          \
        for (const auto& [k, v] : a) {                                                      \
            KB key;                                                                         \
            cv(k, key);                                                                     \
            cv(v, b[key]);                                                                  \
        }                                                                                   \
    }

// Both directions of one struct: BODY is a list of FWB_FW_F(field).
#define FWB_FW_STRUCT(CANON, GEN, BODY)             \
    static void cv(const CANON& a, GEN& b) { BODY } \
    static void cv(const GEN& a, CANON& b) { BODY }
#define FWB_FW_F(x) cv(a.x, b.x);

#define FWB_FW_CONVERT(SUFFIX)                                                                                        \
    struct Convert : ::fwb::fastwire_convert::Base {                                                                  \
        using Base::cv;                                                                                               \
        FWB_FW_CONVERT_CONTAINERS                                                                                     \
        FWB_FW_STRUCT(account::Order, ::account##SUFFIX::Order,                                                       \
                      FWB_FW_F(uid) FWB_FW_F(symbol) FWB_FW_F(side) FWB_FW_F(type) FWB_FW_F(price) FWB_FW_F(volume))  \
        FWB_FW_STRUCT(account::Balance, ::account##SUFFIX::Balance, FWB_FW_F(currency) FWB_FW_F(amount))              \
        FWB_FW_STRUCT(account::Account, ::account##SUFFIX::Account,                                                   \
                      FWB_FW_F(uid) FWB_FW_F(name) FWB_FW_F(state) FWB_FW_F(wallet) FWB_FW_F(asset) FWB_FW_F(orders)) \
        FWB_FW_STRUCT(monsters::Vec3, ::monsters##SUFFIX::Vec3, FWB_FW_F(x) FWB_FW_F(y) FWB_FW_F(z))                  \
        FWB_FW_STRUCT(monsters::Weapon, ::monsters##SUFFIX::Weapon, FWB_FW_F(name) FWB_FW_F(damage))                  \
        FWB_FW_STRUCT(monsters::Monster, ::monsters##SUFFIX::Monster,                                                 \
                      FWB_FW_F(pos) FWB_FW_F(mana) FWB_FW_F(hp) FWB_FW_F(name) FWB_FW_F(inventory) FWB_FW_F(color)    \
                          FWB_FW_F(weapons) FWB_FW_F(equipped) FWB_FW_F(path))                                        \
        FWB_FW_STRUCT(monsters::Monsters, ::monsters##SUFFIX::Monsters, FWB_FW_F(monsters))                           \
        FWB_FW_STRUCT(record::Record, ::record##SUFFIX::Record, FWB_FW_F(ids) FWB_FW_F(strings))                      \
        FWB_FW_STRUCT(ints::Ints, ::ints##SUFFIX::Ints,                                                               \
                      FWB_FW_F(id) FWB_FW_F(int1) FWB_FW_F(int2) FWB_FW_F(int3) FWB_FW_F(int4))                       \
        FWB_FW_STRUCT(mixed::Mixed, ::mixed##SUFFIX::Mixed,                                                           \
                      FWB_FW_F(id) FWB_FW_F(int1) FWB_FW_F(int2) FWB_FW_F(uint1) FWB_FW_F(float1) FWB_FW_F(text1)     \
                          FWB_FW_F(enum1))                                                                            \
        FWB_FW_STRUCT(complex::Complex, ::complex##SUFFIX::Complex,                                                   \
                      FWB_FW_F(id) FWB_FW_F(text1) FWB_FW_F(text2) FWB_FW_F(text3) FWB_FW_F(int1) FWB_FW_F(int2)      \
                          FWB_FW_F(int3) FWB_FW_F(text4) FWB_FW_F(enum1) FWB_FW_F(float1) FWB_FW_F(int4)              \
                              FWB_FW_F(uint1) FWB_FW_F(uint2) FWB_FW_F(int5) FWB_FW_F(int6) FWB_FW_F(float2)          \
                                  FWB_FW_F(text5))                                                                    \
        FWB_FW_STRUCT(vec::ContainerVec, ::vec##SUFFIX::ContainerVec,                                                 \
                      FWB_FW_F(id) FWB_FW_F(int1) FWB_FW_F(text1) FWB_FW_F(stringvec) FWB_FW_F(intvec))               \
        FWB_FW_STRUCT(map::ContainerMap, ::map##SUFFIX::ContainerMap,                                                 \
                      FWB_FW_F(id) FWB_FW_F(int1) FWB_FW_F(text1) FWB_FW_F(map1))                                     \
    };
