// fastwire/schema.h - how generated code describes its types to the runtime.
//
// A struct is described once, independently of the wire format, by specialising
// fastwire::struct_schema: its type number, its base (optional) and its own fields as a
// list of member pointers in declaration order. The codecs of both formats (versioned.h,
// final.h) derive slot offsets, sizes and the write/read/verify code from it at compile
// time. An enum or flags type is described by fastwire::enum_traits: its named values,
// for printing.
//
//   struct Balance { std::string currency; double amount = 0.0; };
//   template <> struct fastwire::struct_schema<Balance> {   // (inside namespace fastwire)
//       static constexpr std::uint32_t type = 2;
//       using fields = fastwire::fields<&Balance::currency, &Balance::amount>;
//   };
//
//   enum class Side : std::uint8_t { buy, sell };
//   template <> struct fastwire::enum_traits<Side> {
//       static constexpr bool is_flags = false;
//       static constexpr std::array<fastwire::enum_entry<Side>, 2> entries{{
//           {Side::buy, "buy"}, {Side::sell, "sell"}}};
//   };
//
// Flags get their bit operators from FASTWIRE_FLAGS(Type), written after the enum in the
// enum's namespace.
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

// Generated structs may mark fields [[deprecated]]; naming them through member pointers
// here must not warn in the user's build.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fastwire {

// The fields of a struct, as member pointers in declaration order.
template <auto... Members>
struct fields {};

// Specialise per generated struct S:
//   static constexpr std::uint32_t type;       // the struct's type number
//   using fields = fastwire::fields<&S::a, …>;  // S's own fields, in declaration order
//   using base = B;                             // only when S derives from the struct B
// The primary template is empty: is_struct_v<T> is true only for specialised types.
template <class S>
struct struct_schema {};

template <class T, class = void>
struct is_struct : std::false_type {};
template <class T>
struct is_struct<T, std::void_t<decltype(struct_schema<T>::type), typename struct_schema<T>::fields>> : std::true_type {
};
template <class T>
inline constexpr bool is_struct_v = is_struct<T>::value;

namespace internal {

template <class A, class B>
struct concat_fields;
template <auto... A, auto... B>
struct concat_fields<fields<A...>, fields<B...>> {
    using type = fields<A..., B...>;
};

template <class S, class = void>
struct base_of {
    using type = void;
};
template <class S>
struct base_of<S, std::void_t<typename struct_schema<S>::base>> {
    using type = typename struct_schema<S>::base;
};

template <class S, class Base = typename base_of<S>::type>
struct flat_fields {
    using type = typename concat_fields<typename flat_fields<Base>::type, typename struct_schema<S>::fields>::type;
};
template <class S>
struct flat_fields<S, void> {
    using type = typename struct_schema<S>::fields;
};

template <class P>
struct member_pointer;
template <class C, class T>
struct member_pointer<T C::*> {
    using type = T;
    using owner = C;
};

}  // namespace internal

// All fields of S, the base's (recursively, base-most first) before S's own.
template <class S>
using all_fields_t = typename internal::flat_fields<S>::type;

// The deepest struct nesting a value of S can have (S itself is level 1), from the
// generated `static constexpr std::uint32_t depth`; 0 when the schema does not bound it
// (S reaches itself through a collection) or the specialisation does not say.
template <class S, class = void>
struct schema_depth : std::integral_constant<std::uint32_t, 0> {};
template <class S>
struct schema_depth<S, std::void_t<decltype(struct_schema<S>::depth)>>
    : std::integral_constant<std::uint32_t, struct_schema<S>::depth> {};
template <class S>
inline constexpr std::uint32_t schema_depth_v = schema_depth<S>::value;

// The C++ type of the field a member pointer names.
template <auto Member>
using member_type_t = typename internal::member_pointer<decltype(Member)>::type;

// ---- enums and flags --------------------------------------------------------------------

template <class E>
struct enum_entry {
    E value;
    const char* name;
};

// Specialise per generated enum or flags type E:
//   static constexpr bool is_flags;   // true for `flags`
//   static constexpr std::array<fastwire::enum_entry<E>, N> entries{{…}};   // declaration order
template <class E>
struct enum_traits {};

// The name of an enum value, or nullptr when it has none.
template <class E>
constexpr const char* enum_name(E value) noexcept {
    for (const auto& e : enum_traits<E>::entries)
        if (e.value == value) return e.name;
    return nullptr;
}

template <class E>
constexpr auto to_underlying(E e) noexcept {
    return static_cast<std::underlying_type_t<E>>(e);
}

// True when every bit of `flags` is set in `value` (and `flags` is not empty).
template <class E>
constexpr bool has_all(E value, E flags) noexcept {
    return to_underlying(flags) != 0 && (to_underlying(value) & to_underlying(flags)) == to_underlying(flags);
}
// True when any bit of `flags` is set in `value`.
template <class E>
constexpr bool has_any(E value, E flags) noexcept {
    return (to_underlying(value) & to_underlying(flags)) != 0;
}

// ---- hashing ------------------------------------------------------------------------------

// Mixes the hash of v into seed (for std::hash of [key] fields).
template <class T>
inline void hash_combine(std::size_t& seed, const T& v) noexcept {
    seed ^= std::hash<T>()(v) + static_cast<std::size_t>(0x9e3779b97f4a7c15ull) + (seed << 6) + (seed >> 2);
}

}  // namespace fastwire

#pragma GCC diagnostic pop

// Bit operators for a flags enum class E: | & ^ ~ |= &= ^=. Use in E's namespace.
#define FASTWIRE_FLAGS(E)                                                                         \
    constexpr E operator|(E a, E b) noexcept {                                                    \
        return static_cast<E>(::fastwire::to_underlying(a) | ::fastwire::to_underlying(b));       \
    }                                                                                             \
    constexpr E operator&(E a, E b) noexcept {                                                    \
        return static_cast<E>(::fastwire::to_underlying(a) & ::fastwire::to_underlying(b));       \
    }                                                                                             \
    constexpr E operator^(E a, E b) noexcept {                                                    \
        return static_cast<E>(::fastwire::to_underlying(a) ^ ::fastwire::to_underlying(b));       \
    }                                                                                             \
    constexpr E operator~(E a) noexcept { return static_cast<E>(~::fastwire::to_underlying(a)); } \
    constexpr E& operator|=(E& a, E b) noexcept { return a = a | b; }                             \
    constexpr E& operator&=(E& a, E b) noexcept { return a = a & b; }                             \
    constexpr E& operator^=(E& a, E b) noexcept { return a = a ^ b; }
