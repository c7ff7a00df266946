// fastwire/json.h - JSON text of generated types (writing; reading is json_reader.h).
//
// The mapping is the FBE reference's (spec §4): a struct is an object with every field in
// declaration order (base fields first, flattened), keys are the schema names; integers,
// enums, flags, timestamps, char and wchar are numbers; decimal, uuid and bytes (Base64)
// are strings; optionals are null or the value; arrays, vectors, lists and sets are
// arrays; maps and hashes are objects. Compact output is RapidJSON's writer byte for byte,
// pretty output its PrettyWriter (4-space indent by default), for the seed account
// exactly tests/vectors/account.json and account.pretty.json.
//
//   std::string text = fastwire::json::to_json(account);          // compact
//   std::string pretty = fastwire::json::to_json(account, true);  // pretty
//   fastwire::json::writer w;                                     // reusable, no allocation
//   w.clear(); w.write(account); std::string_view out = w.view(); //   once warmed up
//
// Where the reference is wrong, fastwire writes valid, exact JSON instead (issue 5):
// - decimal is its exact text ("123456.123456", "1.50"), not printf("%f");
// - char and wchar are unsigned code units (0xE9 is 233, not 4294967273);
// - NaN and ±Inf are the strings "NaN", "Infinity", "-Infinity" (protobuf's JSON mapping),
//   not malformed output;
// - double uses the shortest text that reads back to the same value (std::to_chars),
//   laid out as RapidJSON does: whole numbers keep ".0" (1000.0), exponents look like
//   1e-7 and -1.23456e125. A float is widened to double first, as the reference does
//   (123.456f is 123.45600128173828, 1.5e10f is 15000000512.0);
// - map keys may be numbers (to_chars text), uuids, decimals, enums (the underlying
//   number), bools or strings. A map whose key is a struct (JSON has no such key) is
//   written as an array of [key, value] pairs ([] when empty).
// These are the rules every fastwire language writes by (docs/wire-format.md, "JSON");
// the conformance suite's expectations are this writer's output.
#pragma once

#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fastwire/bytes.h>
#include <fastwire/decimal.h>
#include <fastwire/internal/kinds.h>
#include <fastwire/schema.h>
#include <fastwire/uuid.h>

// Generated structs may mark fields [[deprecated]]; reading and writing them is still
// this header's job.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fastwire {
namespace json {

// ---- type classification shared by the writer and the reader ------------------------------

namespace internal {

// Which container a type is: one answer for the codecs and JSON (internal/kinds.h).
using ::fastwire::internal::is_list;
using ::fastwire::internal::is_map;
using ::fastwire::internal::is_optional;
using ::fastwire::internal::is_sequence;
using ::fastwire::internal::is_std_array;
using ::fastwire::internal::is_string_v;
using ::fastwire::internal::is_vector;

// A map key that has no JSON string form: the map is written as [[key, value], …].
template <class K>
inline constexpr bool is_pair_key_v = is_struct_v<K>;

// Character types are written as their unsigned code unit.
template <class T>
inline constexpr bool is_char_v = std::is_same_v<T, char> || std::is_same_v<T, wchar_t>;

template <class T>
using code_unit_t = std::conditional_t<std::is_same_v<T, char>, std::uint8_t, std::uint32_t>;

// The number an enum is written as (char-based enums as unsigned code units).
template <class E>
using enum_number_t = std::conditional_t<is_char_v<std::underlying_type_t<E>>, code_unit_t<std::underlying_type_t<E>>,
                                         std::underlying_type_t<E>>;

// The names of all fields of S, base-most first, matching all_fields_t<S>.
template <class S, class = void>
struct has_base : std::false_type {};
template <class S>
struct has_base<S, std::void_t<typename struct_schema<S>::base>> : std::true_type {};

template <class S>
constexpr std::size_t flat_count() noexcept {
    if constexpr (has_base<S>::value)
        return flat_count<typename struct_schema<S>::base>() + struct_schema<S>::names.size();
    else
        return struct_schema<S>::names.size();
}

template <class S>
constexpr std::array<const char*, flat_count<S>()> flat_names() noexcept {
    std::array<const char*, flat_count<S>()> out{};
    std::size_t i = 0;
    if constexpr (has_base<S>::value) {
        for (const char* n : flat_names<typename struct_schema<S>::base>()) out[i++] = n;
    }
    for (const char* n : struct_schema<S>::names) out[i++] = n;
    return out;
}

template <class S>
struct names_of {
    static constexpr auto value = flat_names<S>();
};

// The keys of S as one constant text: "\"name\":" for every field, back to back, so that
// writing a key is one fixed-size copy.
template <class S>
struct key_text {
    static constexpr auto& names = names_of<S>::value;
    static constexpr std::size_t count = names.size();
    static constexpr std::size_t total = [] {
        std::size_t n = 0;
        for (const char* k : names) n += std::char_traits<char>::length(k) + 3;
        return n;
    }();
    static constexpr std::array<std::size_t, count + 1> offsets = [] {
        std::array<std::size_t, count + 1> o{};
        for (std::size_t i = 0; i < count; ++i) o[i + 1] = o[i] + std::char_traits<char>::length(names[i]) + 3;
        return o;
    }();
    static constexpr std::array<char, total + 1> text = [] {
        std::array<char, total + 1> t{};
        std::size_t n = 0;
        for (const char* k : names) {
            t[n++] = '"';
            for (std::size_t i = 0; k[i] != 0; ++i) t[n++] = k[i];
            t[n++] = '"';
            t[n++] = ':';
        }
        return t;
    }();
};

inline constexpr char base64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// "\u00XX"-free escape table: 0 = copy, 'u' = \u00XX, other = the letter after '\'.
inline constexpr std::array<char, 256> escape_table = [] {
    std::array<char, 256> t{};
    for (int c = 0; c < 0x20; ++c) t[static_cast<std::size_t>(c)] = 'u';
    t['\b'] = 'b';
    t['\f'] = 'f';
    t['\n'] = 'n';
    t['\r'] = 'r';
    t['\t'] = 't';
    t['"'] = '"';
    t['\\'] = '\\';
    return t;
}();

// Writes a finite, nonzero magnitude laid out as RapidJSON's Prettify does, from the
// shortest digits std::to_chars finds. Returns the end.
inline char* format_finite(char* p, double v) noexcept {
    char tmp[40];
    const auto r = std::to_chars(tmp, tmp + sizeof tmp, v, std::chars_format::scientific);
    // tmp is d[.ddd]e(+|-)XX
    char digits[24];
    int n = 0;
    const char* q = tmp;
    for (; q != r.ptr && *q != 'e'; ++q)
        if (*q != '.') digits[n++] = *q;
    ++q;  // 'e'
    const bool eneg = *q == '-';
    ++q;
    int e = 0;
    for (; q != r.ptr; ++q) e = e * 10 + (*q - '0');
    if (eneg) e = -e;
    const int kk = e + 1;  // position of the decimal point relative to the digits
    const int k = kk - n;  // value = digits x 10^k
    if (k >= 0 && kk <= 21) {
        std::memcpy(p, digits, static_cast<std::size_t>(n));
        p += n;
        for (int i = 0; i < k; ++i) *p++ = '0';
        *p++ = '.';
        *p++ = '0';
    } else if (kk > 0 && kk <= 21) {
        std::memcpy(p, digits, static_cast<std::size_t>(kk));
        p += kk;
        *p++ = '.';
        std::memcpy(p, digits + kk, static_cast<std::size_t>(n - kk));
        p += n - kk;
    } else if (kk > -6 && kk <= 0) {
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -kk; ++i) *p++ = '0';
        std::memcpy(p, digits, static_cast<std::size_t>(n));
        p += n;
    } else {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            std::memcpy(p, digits + 1, static_cast<std::size_t>(n - 1));
            p += n - 1;
        }
        *p++ = 'e';
        int x = kk - 1;
        if (x < 0) {
            *p++ = '-';
            x = -x;
        }
        if (x >= 100) {
            *p++ = static_cast<char>('0' + x / 100);
            x %= 100;
            *p++ = static_cast<char>('0' + x / 10);
            *p++ = static_cast<char>('0' + x % 10);
        } else if (x >= 10) {
            *p++ = static_cast<char>('0' + x / 10);
            *p++ = static_cast<char>('0' + x % 10);
        } else {
            *p++ = static_cast<char>('0' + x);
        }
    }
    return p;
}

}  // namespace internal

// Writes a float or double as fastwire's JSON does (see the banner); at most 40 chars.
// Returns the end. NaN and infinities become the quoted strings. A float is widened to
// double first, as the reference does (spec 4.2): 123.456f is 123.45600128173828.
inline char* format_number(char* p, double v) noexcept {
    if (std::isnan(v)) {
        std::memcpy(p, "\"NaN\"", 5);
        return p + 5;
    }
    if (std::isinf(v)) {
        if (v < 0) {
            std::memcpy(p, "\"-Infinity\"", 11);
            return p + 11;
        }
        std::memcpy(p, "\"Infinity\"", 10);
        return p + 10;
    }
    if (std::signbit(v)) {
        *p++ = '-';
        v = -v;
    }
    if (v == 0) {
        std::memcpy(p, "0.0", 3);
        return p + 3;
    }
    // Whole numbers below 10^15 (prices, amounts, counts): the digits and ".0", which is
    // what the shortest form gives for them.
    // (Exact below 2^53, where neighbouring values are at most 1 apart, so no shorter
    // digit string names the same value.)
    if (v < 1e15 && v == static_cast<double>(static_cast<std::uint64_t>(v))) {
        p = std::to_chars(p, p + 24, static_cast<std::uint64_t>(v)).ptr;
        *p++ = '.';
        *p++ = '0';
        return p;
    }
    // Few fractional digits (1.23456, 0.25): the smallest k for which round(v x 10^k)
    // / 10^k gives v back. Both operands of that division are exact doubles, so it is
    // correctly rounded: the text reads back as v. With at most 15 significant digits
    // only one k-digit decimal lies within v's rounding interval, so this is exactly
    // the shortest form std::to_chars would find; beyond that, to_chars decides.
    if (v >= 1e-5 && v < 1e15) {
        static constexpr double pow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                             1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
        static constexpr std::uint64_t ipow10[16] = {1ull,
                                                     10ull,
                                                     100ull,
                                                     1000ull,
                                                     10000ull,
                                                     100000ull,
                                                     1000000ull,
                                                     10000000ull,
                                                     100000000ull,
                                                     1000000000ull,
                                                     10000000000ull,
                                                     100000000000ull,
                                                     1000000000000ull,
                                                     10000000000000ull,
                                                     100000000000000ull,
                                                     1000000000000000ull};
        const auto whole = static_cast<std::uint64_t>(v);
        int whole_digits = 0;
        for (std::uint64_t w = whole; w != 0; w /= 10) ++whole_digits;
        for (int k = 1; k + whole_digits <= 15; ++k) {
            const double scaled = v * pow10[k] + 0.5;
            const auto m = static_cast<std::uint64_t>(scaled);
            if (static_cast<double>(m) / pow10[k] != v) continue;
            const std::uint64_t ip = m / ipow10[k];
            std::uint64_t frac = m % ipow10[k];
            p = std::to_chars(p, p + 24, ip).ptr;
            *p++ = '.';
            for (int i = k - 1; i >= 0; --i) {
                p[i] = static_cast<char>('0' + frac % 10);
                frac /= 10;
            }
            return p + k;
        }
    }
    return internal::format_finite(p, v);
}

inline char* format_number(char* p, float v) noexcept { return format_number(p, static_cast<double>(v)); }

// ---- the writer ---------------------------------------------------------------------------------

// Appends JSON text to an owned, reusable character buffer. Pretty = PrettyWriter layout.
template <bool Pretty>
class basic_writer {
public:
    explicit basic_writer(unsigned indent = 4) noexcept : indent_(indent) {}
    basic_writer(const basic_writer&) = delete;
    basic_writer& operator=(const basic_writer&) = delete;

    // Writes `value` as one JSON value after what is already in the buffer.
    template <class T>
    void write(const T& value) {
        value_(value);
    }

    void clear() noexcept {
        size_ = 0;
        level_ = 0;
    }
    std::string_view view() const noexcept { return std::string_view(data_.get(), size_); }
    std::string str() const { return std::string(data_.get(), size_); }
    const char* data() const noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }

private:
    // Makes room for n more characters and returns where they go.
    char* reserve(std::size_t n) {
        if (n > cap_ - size_) grow(n);
        return data_.get() + size_;
    }
    void commit(char* end) noexcept { size_ = static_cast<std::size_t>(end - data_.get()); }

    void grow(std::size_t n) {
        if (n > SIZE_MAX / 2 - size_) throw std::length_error("fastwire::json: output too large");
        std::size_t cap = cap_ < 256 ? 256 : cap_ * 2;
        while (cap - size_ < n) cap *= 2;
        std::unique_ptr<char[]> p(new char[cap]);
        if (size_ != 0) std::memcpy(p.get(), data_.get(), size_);
        data_ = std::move(p);
        cap_ = cap;
    }

    void raw(const char* s, std::size_t n) {
        char* p = reserve(n);
        std::memcpy(p, s, n);
        commit(p + n);
    }

    // The separator before an element: "," unless first, then in pretty mode a newline
    // and the indentation of the current level.
    char* separator(char* p, bool first) noexcept {
        if (!first) *p++ = ',';
        if constexpr (Pretty) {
            *p++ = '\n';
            const std::size_t n = std::size_t{level_} * indent_;
            std::memset(p, ' ', n);
            p += n;
        }
        return p;
    }
    std::size_t separator_room() const noexcept { return Pretty ? 2 + std::size_t{level_} * indent_ : 1; }

    void open(char c) {
        char* p = reserve(1);
        *p++ = c;
        commit(p);
        ++level_;
    }
    void close(char c, bool empty) {
        --level_;
        char* p = reserve(separator_room() + 1);
        if constexpr (Pretty) {
            if (!empty) p = separator(p, true);
        }
        *p++ = c;
        commit(p);
    }
    void element(bool first) {
        char* p = reserve(separator_room());
        commit(separator(p, first));
    }
    // A key that needs escaping (map keys).
    void escaped_key(std::string_view name, bool first) {
        element(first);
        string_(name.data(), name.size());
        char* p = reserve(2);
        *p++ = ':';
        if constexpr (Pretty) *p++ = ' ';
        commit(p);
    }

    template <class I>
    void integer_(I v) {
        char* p = reserve(24);
        commit(std::to_chars(p, p + 24, v).ptr);
    }

    void string_(const char* s, std::size_t n) {
        char* p = reserve(n + 2);
        *p++ = '"';
        const auto* u = reinterpret_cast<const unsigned char*>(s);
        std::size_t i = 0;
        // Copies runs that need no escape; escapes the rest.
        while (true) {
            std::size_t j = i;
            while (j < n && internal::escape_table[u[j]] == 0) ++j;
            std::memcpy(p, s + i, j - i);
            p += j - i;
            if (j == n) break;
            // Escapes grow the text: make room for the worst case of what remains.
            commit(p);
            p = reserve(6 * (n - j) + 1);
            const char e = internal::escape_table[u[j]];
            *p++ = '\\';
            if (e == 'u') {
                static constexpr char hex[] = "0123456789ABCDEF";
                *p++ = 'u';
                *p++ = '0';
                *p++ = '0';
                *p++ = hex[u[j] >> 4];
                *p++ = hex[u[j] & 15];
            } else {
                *p++ = e;
            }
            i = j + 1;
        }
        *p++ = '"';
        commit(p);
    }

    void base64_(const std::uint8_t* b, std::size_t n) {
        char* p = reserve((n + 2) / 3 * 4 + 2);
        *p++ = '"';
        std::size_t i = 0;
        for (; i + 3 <= n; i += 3) {
            const std::uint32_t x = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8) | b[i + 2];
            *p++ = internal::base64_alphabet[(x >> 18) & 63];
            *p++ = internal::base64_alphabet[(x >> 12) & 63];
            *p++ = internal::base64_alphabet[(x >> 6) & 63];
            *p++ = internal::base64_alphabet[x & 63];
        }
        if (n - i == 1) {
            const std::uint32_t x = std::uint32_t{b[i]} << 16;
            *p++ = internal::base64_alphabet[(x >> 18) & 63];
            *p++ = internal::base64_alphabet[(x >> 12) & 63];
            *p++ = '=';
            *p++ = '=';
        } else if (n - i == 2) {
            const std::uint32_t x = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8);
            *p++ = internal::base64_alphabet[(x >> 18) & 63];
            *p++ = internal::base64_alphabet[(x >> 12) & 63];
            *p++ = internal::base64_alphabet[(x >> 6) & 63];
            *p++ = '=';
        }
        *p++ = '"';
        commit(p);
    }

    void uuid_(const uuid& u) {
        static constexpr char hex[] = "0123456789abcdef";
        char* p = reserve(38);
        *p++ = '"';
        const std::uint8_t* b = u.data();
        for (int i = 0; i < 16; ++i) {
            if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
            *p++ = hex[b[i] >> 4];
            *p++ = hex[b[i] & 15];
        }
        *p++ = '"';
        commit(p);
    }

    // The text of a map key (no quotes, not escaped).
    template <class K>
    static std::string_view key_text(const K& k, char (&buf)[48], std::string& spill) {
        if constexpr (internal::is_string_v<K>) {
            (void)buf;
            (void)spill;
            return k;
        } else if constexpr (std::is_same_v<K, bool>) {
            return k ? "true" : "false";
        } else if constexpr (internal::is_char_v<K>) {
            const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<internal::code_unit_t<K>>(k));
            return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
        } else if constexpr (std::is_enum_v<K>) {
            const auto r = std::to_chars(buf, buf + sizeof buf, static_cast<internal::enum_number_t<K>>(k));
            return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
        } else if constexpr (std::is_integral_v<K>) {
            const auto r = std::to_chars(buf, buf + sizeof buf, k);
            return std::string_view(buf, static_cast<std::size_t>(r.ptr - buf));
        } else if constexpr (std::is_floating_point_v<K>) {
            char* e = format_number(buf, k);
            std::string_view s(buf, static_cast<std::size_t>(e - buf));
            if (s.front() == '"') s = s.substr(1, s.size() - 2);  // "NaN" is already a string
            return s;
        } else if constexpr (std::is_same_v<K, uuid>) {
            spill = k.to_string();
            return spill;
        } else if constexpr (std::is_same_v<K, decimal>) {
            spill = k.to_string();
            return spill;
        } else if constexpr (std::is_same_v<K, bytes>) {
            spill.assign(reinterpret_cast<const char*>(k.data()), k.size());
            return spill;
        } else {
            static_assert(sizeof(K) == 0, "fastwire::json: unsupported map key type");
        }
    }

    template <class S>
    void struct_(const S& v) {
        open('{');
        bool first = true;
        fields_(v, first, all_fields_t<S>{}, std::make_index_sequence<internal::flat_count<S>()>{});
        close('}', first);
    }
    template <class S, auto... M, std::size_t... I>
    void fields_(const S& v, bool& first, fields<M...>, std::index_sequence<I...>) {
        ((put_key<S, I>(), value_(v.*M)), ...);
        first = sizeof...(I) == 0;
    }
    // The I-th key of S, with the separator before it.
    template <class S, std::size_t I>
    void put_key() {
        using K = internal::key_text<S>;
        constexpr std::size_t n = K::offsets[I + 1] - K::offsets[I];
        char* p = reserve(separator_room() + n + 1);
        p = separator(p, I == 0);
        std::memcpy(p, K::text.data() + K::offsets[I], n);
        p += n;
        if constexpr (Pretty) *p++ = ' ';
        commit(p);
    }

    template <class T>
    void value_(const T& v) {
        if constexpr (std::is_same_v<T, bool>) {
            if (v)
                raw("true", 4);
            else
                raw("false", 5);
        } else if constexpr (internal::is_char_v<T>) {
            integer_(static_cast<internal::code_unit_t<T>>(v));
        } else if constexpr (std::is_enum_v<T>) {
            integer_(static_cast<internal::enum_number_t<T>>(v));
        } else if constexpr (std::is_integral_v<T>) {
            integer_(v);
        } else if constexpr (std::is_floating_point_v<T>) {
            char* p = reserve(48);
            commit(format_number(p, v));
        } else if constexpr (internal::is_string_v<T>) {
            string_(v.data(), v.size());
        } else if constexpr (std::is_same_v<T, bytes>) {
            base64_(v.data(), v.size());
        } else if constexpr (std::is_same_v<T, decimal>) {
            const std::string s = v.to_string();
            raw("\"", 1);
            raw(s.data(), s.size());
            raw("\"", 1);
        } else if constexpr (std::is_same_v<T, uuid>) {
            uuid_(v);
        } else if constexpr (internal::is_optional<T>::value) {
            if (v)
                value_(*v);
            else
                raw("null", 4);
        } else if constexpr (internal::is_std_array<T>::value || internal::is_sequence<T>::value) {
            open('[');
            bool first = true;
            for (const auto& e : v) {
                element(first);
                first = false;
                value_(e);
            }
            close(']', first);
        } else if constexpr (internal::is_map<T>::value) {
            using K = typename T::key_type;
            if constexpr (internal::is_pair_key_v<K>) {
                open('[');
                bool first = true;
                for (const auto& kv : v) {
                    element(first);
                    first = false;
                    open('[');
                    element(true);
                    value_(kv.first);
                    element(false);
                    value_(kv.second);
                    close(']', false);
                }
                close(']', first);
            } else {
                open('{');
                bool first = true;
                char buf[48];
                std::string spill;
                for (const auto& kv : v) {
                    escaped_key(key_text(kv.first, buf, spill), first);
                    first = false;
                    value_(kv.second);
                }
                close('}', first);
            }
        } else if constexpr (is_struct_v<T>) {
            struct_(v);
        } else {
            static_assert(sizeof(T) == 0, "fastwire::json: no JSON form for this type");
        }
    }

    std::unique_ptr<char[]> data_;
    std::size_t size_ = 0;
    std::size_t cap_ = 0;
    unsigned level_ = 0;
    unsigned indent_;
};

using writer = basic_writer<false>;
using pretty_writer = basic_writer<true>;

// The JSON text of `value`: compact (RapidJSON writer), or pretty (PrettyWriter, 4 spaces).
template <class T>
std::string to_json(const T& value, bool pretty = false) {
    if (pretty) {
        pretty_writer w;
        w.write(value);
        return w.str();
    }
    writer w;
    w.write(value);
    return w.str();
}

}  // namespace json
}  // namespace fastwire

#pragma GCC diagnostic pop
