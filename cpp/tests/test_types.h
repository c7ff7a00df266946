// test_types.h - small hand-written schema types covering every codec: scalars of every
// width, text, every collection, optionals, nesting, inheritance, recursion, an empty
// struct. Written in the same shape as generated code (struct_schema + enum_traits).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <fastwire/fastwire.h>

namespace t {

enum class Color : std::int16_t { red = -1, green = 0, blue = 7 };
enum class Perm : std::uint32_t { none = 0, r = 1, w = 2, x = 4, rw = r | w, top = 0x80000000u };
FASTWIRE_FLAGS(Perm)
enum class Letter : char { a = 'a', z = 'z' };
enum class Wide : wchar_t { euro = 0x20AC, smile = 0x1F600 };
enum class Big : std::uint64_t { zero = 0, max = 0xFFFFFFFFFFFFFFFFull };

}  // namespace t

namespace fastwire {
template <>
struct enum_traits<t::Color> {
    static constexpr bool is_flags = false;
    static constexpr std::array<enum_entry<t::Color>, 3> entries{
        {{t::Color::red, "red"}, {t::Color::green, "green"}, {t::Color::blue, "blue"}}};
};
template <>
struct enum_traits<t::Perm> {
    static constexpr bool is_flags = true;
    static constexpr std::array<enum_entry<t::Perm>, 6> entries{{{t::Perm::none, "none"},
                                                                 {t::Perm::r, "r"},
                                                                 {t::Perm::w, "w"},
                                                                 {t::Perm::x, "x"},
                                                                 {t::Perm::rw, "rw"},
                                                                 {t::Perm::top, "top"}}};
};
}  // namespace fastwire

namespace t {

inline std::ostream& operator<<(std::ostream& os, Color v) { return fastwire::print_enum(os, v); }
inline std::ostream& operator<<(std::ostream& os, Perm v) { return fastwire::print_flags(os, v); }

struct Point {  // type 10
    std::int32_t x = 0;
    std::int32_t y = 0;
    friend bool operator==(const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }
    friend bool operator<(const Point& a, const Point& b) { return std::tie(a.x, a.y) < std::tie(b.x, b.y); }
    friend std::ostream& operator<<(std::ostream& os, const Point& v) {
        return fastwire::struct_printer(os, "Point").field("x", v.x).field("y", v.y).end();
    }
};

struct Scalars {  // type 11
    bool f_bool = false;
    char f_char = 0;
    wchar_t f_wchar = 0;
    std::int8_t f_i8 = 0;
    std::uint8_t f_u8 = 0;
    std::int16_t f_i16 = 0;
    std::uint16_t f_u16 = 0;
    std::int32_t f_i32 = 0;
    std::uint32_t f_u32 = 0;
    std::int64_t f_i64 = 0;
    std::uint64_t f_u64 = 0;
    float f_float = 0;
    double f_double = 0;
    fastwire::decimal f_decimal;
    fastwire::uuid f_uuid;
    std::uint64_t f_timestamp = 0;
    Color f_color = Color::green;
    Perm f_perm = Perm::none;
    Letter f_letter = Letter::a;
    Wide f_wide = Wide::euro;
    Big f_big = Big::zero;

    auto tie() const {
        return std::tie(f_bool, f_char, f_wchar, f_i8, f_u8, f_i16, f_u16, f_i32, f_u32, f_i64, f_u64, f_timestamp,
                        f_color, f_perm, f_letter, f_wide, f_big, f_uuid);
    }
    // Floats compared by bits (NaN payloads), decimals by identity (scale too).
    friend bool operator==(const Scalars& a, const Scalars& b) {
        return a.tie() == b.tie() && std::memcmp(&a.f_float, &b.f_float, sizeof(float)) == 0 &&
               std::memcmp(&a.f_double, &b.f_double, sizeof(double)) == 0 && a.f_decimal.identical(b.f_decimal);
    }
};

struct Texts {  // type 12
    std::string s;
    fastwire::bytes b;
    std::vector<std::uint8_t> v;
    friend bool operator==(const Texts& x, const Texts& y) { return x.s == y.s && x.b == y.b && x.v == y.v; }
};

struct Optionals {  // type 13
    std::optional<bool> o_bool;
    std::optional<std::int32_t> o_i32;
    std::optional<std::string> o_string;
    std::optional<fastwire::bytes> o_bytes;
    std::optional<fastwire::decimal> o_decimal;
    std::optional<fastwire::uuid> o_uuid;
    std::optional<Color> o_color;
    std::optional<Point> o_point;
    std::optional<double> o_double;
    auto tie() const {
        return std::tie(o_bool, o_i32, o_string, o_bytes, o_decimal, o_uuid, o_color, o_point, o_double);
    }
    friend bool operator==(const Optionals& a, const Optionals& b) { return a.tie() == b.tie(); }
    friend bool operator<(const Optionals& a, const Optionals& b) { return a.o_i32 < b.o_i32; }
};

struct Bag {  // type 14: optional structs inside a vector
    std::vector<std::optional<Point>> items;
    friend bool operator==(const Bag& a, const Bag& b) { return a.items == b.items; }
};

struct Collections {  // type 15
    std::array<std::int32_t, 3> a{};
    std::array<std::optional<std::string>, 2> a_opt;
    std::array<Point, 2> a_struct{};
    std::vector<bool> v_bool;
    std::vector<double> v_double;
    std::vector<std::optional<Color>> v_opt;
    std::vector<Point> v_struct;
    std::vector<std::string> v_string;
    std::list<std::string> l_string;
    std::list<std::optional<Point>> l_opt;
    std::set<std::int64_t> s_i64;
    std::set<std::string> s_string;
    std::set<Point> s_struct;
    std::map<std::int32_t, std::string> m;
    std::map<std::string, std::optional<double>> m_opt;
    std::map<std::string, Bag> m_bags;  // optional structs inside vectors inside maps
    std::unordered_map<fastwire::uuid, fastwire::bytes> h;
    std::unordered_map<std::string, std::optional<Point>> h_opt;
    std::map<Color, Optionals> m_enum_key;

    auto tie() const {
        return std::tie(a, a_opt, a_struct, v_bool, v_double, v_opt, v_struct, v_string, l_string, l_opt, s_i64,
                        s_string, s_struct, m, m_opt, m_bags, h, h_opt, m_enum_key);
    }
    friend bool operator==(const Collections& x, const Collections& y) { return x.tie() == y.tie(); }
};

struct Derived : Point {  // type 16: inherits Point's fields
    std::string label;
    std::optional<Point> other;
    friend bool operator==(const Derived& a, const Derived& b) {
        return static_cast<const Point&>(a) == static_cast<const Point&>(b) && a.label == b.label && a.other == b.other;
    }
};

struct MoreDerived : Derived {  // type 17: two levels of inheritance
    double weight = 0.25;
};

struct Tree {  // type 18: recursive through a vector
    std::int32_t value = 0;
    std::vector<Tree> children;
    friend bool operator==(const Tree& a, const Tree& b) { return a.value == b.value && a.children == b.children; }
};

struct Empty {  // type 19
    friend bool operator==(const Empty&, const Empty&) { return true; }
};

struct Holder {  // type 20: nested structs and an empty struct as fields
    Point p;
    Empty e;
    std::optional<Empty> oe;
    std::vector<Empty> ve;
    Tree tree;
    friend bool operator==(const Holder& a, const Holder& b) {
        return a.p == b.p && a.oe.has_value() == b.oe.has_value() && a.ve.size() == b.ve.size() && a.tree == b.tree;
    }
};

}  // namespace t

namespace fastwire {
template <>
struct struct_schema<t::Point> {
    static constexpr std::uint32_t type = 10;
    using fields = fastwire::fields<&t::Point::x, &t::Point::y>;
};
template <>
struct struct_schema<t::Scalars> {
    static constexpr std::uint32_t type = 11;
    using S = t::Scalars;
    using fields =
        fastwire::fields<&S::f_bool, &S::f_char, &S::f_wchar, &S::f_i8, &S::f_u8, &S::f_i16, &S::f_u16, &S::f_i32,
                         &S::f_u32, &S::f_i64, &S::f_u64, &S::f_float, &S::f_double, &S::f_decimal, &S::f_uuid,
                         &S::f_timestamp, &S::f_color, &S::f_perm, &S::f_letter, &S::f_wide, &S::f_big>;
};
template <>
struct struct_schema<t::Texts> {
    static constexpr std::uint32_t type = 12;
    using fields = fastwire::fields<&t::Texts::s, &t::Texts::b, &t::Texts::v>;
};
template <>
struct struct_schema<t::Optionals> {
    static constexpr std::uint32_t type = 13;
    using S = t::Optionals;
    using fields = fastwire::fields<&S::o_bool, &S::o_i32, &S::o_string, &S::o_bytes, &S::o_decimal, &S::o_uuid,
                                    &S::o_color, &S::o_point, &S::o_double>;
};
template <>
struct struct_schema<t::Bag> {
    static constexpr std::uint32_t type = 14;
    using fields = fastwire::fields<&t::Bag::items>;
};
template <>
struct struct_schema<t::Collections> {
    static constexpr std::uint32_t type = 15;
    using S = t::Collections;
    using fields = fastwire::fields<&S::a, &S::a_opt, &S::a_struct, &S::v_bool, &S::v_double, &S::v_opt, &S::v_struct,
                                    &S::v_string, &S::l_string, &S::l_opt, &S::s_i64, &S::s_string, &S::s_struct, &S::m,
                                    &S::m_opt, &S::m_bags, &S::h, &S::h_opt, &S::m_enum_key>;
};
template <>
struct struct_schema<t::Derived> {
    static constexpr std::uint32_t type = 16;
    using base = t::Point;
    using fields = fastwire::fields<&t::Derived::label, &t::Derived::other>;
};
template <>
struct struct_schema<t::MoreDerived> {
    static constexpr std::uint32_t type = 17;
    using base = t::Derived;
    using fields = fastwire::fields<&t::MoreDerived::weight>;
};
template <>
struct struct_schema<t::Tree> {
    static constexpr std::uint32_t type = 18;
    using fields = fastwire::fields<&t::Tree::value, &t::Tree::children>;
};
template <>
struct struct_schema<t::Empty> {
    static constexpr std::uint32_t type = 19;
    using fields = fastwire::fields<>;
};
template <>
struct struct_schema<t::Holder> {
    static constexpr std::uint32_t type = 20;
    using S = t::Holder;
    using fields = fastwire::fields<&S::p, &S::e, &S::oe, &S::ve, &S::tree>;
};
}  // namespace fastwire
