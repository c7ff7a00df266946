// fastwire/print.h - the text form of generated types, shared by every operator<<.
//
// Generated operator<< functions are one line per field on top of these helpers:
//
//   std::ostream& operator<<(std::ostream& os, const Balance& v) {
//       return fastwire::struct_printer(os, "Balance").field("currency", v.currency)
//                                                     .field("amount", v.amount).end();
//   }                                          // Balance(currency="USD",amount=1000)
//   std::ostream& operator<<(std::ostream& os, Side v) { return fastwire::print_enum(os, v); }
//
// Forms (those of the FBE reference's generated C++ where the seed shows them):
//   string "text" (not escaped)   bool true/false          char 'c'      wchar 'c' or 'U+0444'
//   int8/uint8 as numbers         float/double as the stream formats them (1000, 1.23456)
//   decimal 123.45                uuid "123e4567-…"        timestamp: a number
//   bytes bytes[N]                optional: null or the value
//   vector/array [N][a,b]         list [N]<a,b>           set [N]{a,b}
//   map [N]<{k->v},{k->v}>        hash [N][{k->v}]         struct Name(f=v,…)
//   enum: its name, or <unknown>  flags: every named value whose bits are all set (and
//                                        nonzero), in declaration order, joined by |
//   [hidden] fields print as name=***
//   derived struct: Derived(Base(base fields…),own fields…)
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/schema.h>
#include <fastwire/uuid.h>

namespace fastwire {

template <class T, class = void>
struct value_printer {
    // Numbers, enums and structs: their own operator<< (found by ADL for generated types).
    static void print(std::ostream& os, const T& v) { os << v; }
};

template <class T>
inline void print_value(std::ostream& os, const T& v) {
    value_printer<T>::print(os, v);
}

template <>
struct value_printer<bool> {
    static void print(std::ostream& os, bool v) { os << (v ? "true" : "false"); }
};
template <>
struct value_printer<char> {
    static void print(std::ostream& os, char v) { os << '\'' << v << '\''; }
};
template <>
struct value_printer<wchar_t> {
    static void print(std::ostream& os, wchar_t v) {
        const auto c = static_cast<std::uint32_t>(v);
        if (c >= 0x20 && c < 0x7F) {
            os << '\'' << static_cast<char>(c) << '\'';
        } else {
            const auto flags = os.flags();
            os << "'U+" << std::hex << std::uppercase << c << '\'';
            os.flags(flags);
        }
    }
};
template <>
struct value_printer<std::int8_t> {
    static void print(std::ostream& os, std::int8_t v) { os << static_cast<int>(v); }
};
template <>
struct value_printer<std::uint8_t> {
    static void print(std::ostream& os, std::uint8_t v) { os << static_cast<unsigned>(v); }
};
template <class A>
struct value_printer<std::basic_string<char, std::char_traits<char>, A>> {
    static void print(std::ostream& os, const std::basic_string<char, std::char_traits<char>, A>& v) {
        os << '"' << v << '"';
    }
};
template <>
struct value_printer<uuid> {
    static void print(std::ostream& os, const uuid& v) { os << '"' << v << '"'; }
};
template <>
struct value_printer<bytes> {
    static void print(std::ostream& os, const bytes& v) { os << "bytes[" << v.size() << ']'; }
};

template <class T>
struct value_printer<std::optional<T>> {
    static void print(std::ostream& os, const std::optional<T>& v) {
        if (v)
            print_value(os, *v);
        else
            os << "null";
    }
};

namespace internal {
template <class Range>
inline void print_elements(std::ostream& os, const Range& r, char open, char close) {
    os << '[' << r.size() << ']' << open;
    bool first = true;
    for (const auto& e : r) {
        if (!first) os << ',';
        first = false;
        print_value(os, e);
    }
    os << close;
}
template <class Map>
inline void print_pairs(std::ostream& os, const Map& m, char open, char close) {
    os << '[' << m.size() << ']' << open;
    bool first = true;
    for (const auto& kv : m) {
        if (!first) os << ',';
        first = false;
        os << '{';
        print_value(os, kv.first);
        os << "->";
        print_value(os, kv.second);
        os << '}';
    }
    os << close;
}
}  // namespace internal

template <class T, class A>
struct value_printer<std::vector<T, A>> {
    static void print(std::ostream& os, const std::vector<T, A>& v) { internal::print_elements(os, v, '[', ']'); }
};
template <class T, std::size_t N>
struct value_printer<std::array<T, N>> {
    static void print(std::ostream& os, const std::array<T, N>& v) { internal::print_elements(os, v, '[', ']'); }
};
template <class T, class A>
struct value_printer<std::list<T, A>> {
    static void print(std::ostream& os, const std::list<T, A>& v) { internal::print_elements(os, v, '<', '>'); }
};
template <class T, class C, class A>
struct value_printer<std::set<T, C, A>> {
    static void print(std::ostream& os, const std::set<T, C, A>& v) { internal::print_elements(os, v, '{', '}'); }
};
template <class K, class V, class C, class A>
struct value_printer<std::map<K, V, C, A>> {
    static void print(std::ostream& os, const std::map<K, V, C, A>& v) { internal::print_pairs(os, v, '<', '>'); }
};
template <class K, class V, class H, class E, class A>
struct value_printer<std::unordered_map<K, V, H, E, A>> {
    static void print(std::ostream& os, const std::unordered_map<K, V, H, E, A>& v) {
        internal::print_pairs(os, v, '[', ']');
    }
};

// Prints Name(field=value,…). Construct, call field() per field, then end().
class struct_printer {
public:
    struct_printer(std::ostream& os, const char* name) : os_(os) { os_ << name << '('; }

    template <class T>
    struct_printer& field(const char* name, const T& value) {
        separator();
        os_ << name << '=';
        print_value(os_, value);
        return *this;
    }
    // A [hidden] field: name=***.
    struct_printer& hidden(const char* name) {
        separator();
        os_ << name << "=***";
        return *this;
    }
    // A derived struct's base, printed first as a whole: Derived(Base(…),f=…).
    template <class B>
    struct_printer& base(const B& value) {
        separator();
        os_ << value;
        return *this;
    }
    std::ostream& end() {
        os_ << ')';
        return os_;
    }

private:
    void separator() {
        if (!first_) os_ << ',';
        first_ = false;
    }
    std::ostream& os_;
    bool first_ = true;
};

// An enum value's name, or <unknown>.
template <class E>
inline std::ostream& print_enum(std::ostream& os, E value) {
    const char* name = enum_name(value);
    return os << (name ? name : "<unknown>");
}

// Every named value whose bits are all set in `value` (named zero values never match),
// in declaration order, joined by |.
template <class E>
inline std::ostream& print_flags(std::ostream& os, E value) {
    bool first = true;
    for (const auto& e : enum_traits<E>::entries) {
        if (has_all(value, e.value)) {
            if (!first) os << '|';
            first = false;
            os << e.name;
        }
    }
    return os;
}

}  // namespace fastwire
