// fastwire/json_reader.h - reading JSON text into generated types, through simdjson.
//
// The inverse of json.h, parsed by simdjson's On-Demand API (link simdjson; Debian:
// libsimdjson-dev). A reader owns the parser and a padded copy of the input, so reusing
// one reader allocates nothing once warmed up.
//
//   fastwire::json::reader r;
//   fastwire::json::result res = r.read(text, account);
//   if (!res) std::cerr << res.message() << '\n';
//       // e.g. "orders[1].price: expected a number at byte 212"
//   fastwire::json::from_json(text, account);        // the same with a temporary reader
//
// Rules (spec §4.4, with fastwire's corrections):
// - Every key is optional: a missing field keeps the value it had. Unknown keys are
//   skipped (a newer writer's fields), but must still be JSON and Unicode. For a repeated
//   field the last one wins whole (a struct's is read into the field's default, not
//   merged); of map keys equal by the schema's rule the first stays. Every value is
//   checked, those a later key overrides or a first map key shadows too.
// - Errors name the path and the byte offset of the offending value; reading stops
//   there. The target stays a valid object: fields read before the error hold the new
//   values, the others keep theirs. Syntax errors name the offset where simdjson stopped.
// - Accepted beyond what the writer produces: any JSON number for float and double within
//   its range (the nearest double; beyond ±1.7976931348623157e308, or a float's range,
//   it is out of range); "NaN", "Infinity", "-Infinity" for float and double (no other
//   spellings; bare NaN is not JSON); a decimal as a string ("0.0", "1.5e3") or as a
//   number (its exact text); `null` only for optionals. An enum or flags is a number
//   only (a name is the wrong type; an enum map key is a string holding the number).
//   Integer fields take integers only, range-checked (-0 is 0 in every kind); char and
//   wchar take code units. Bytes are padded standard Base64.
// - A fixed array T[N] needs exactly N elements. Vectors reuse the target's elements
//   (strings keep their capacity).
// - Hostile input (docs/wire-format.md#json): every array and object counts one level
//   against limits::max_depth (64, at most max_depth_cap), those under unknown keys and
//   the [key, value] pairs too; elements of zero final size (empty structs) are charged
//   to limits::max_zero_size_elements; text longer than limits::max_message_size is
//   rejected. So what is read can be written, and read back from binary.
#pragma once

#include <array>
#include <bitset>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <simdjson.h>

#include <fastwire/json.h>
#include <fastwire/limits.h>

// Generated structs may mark fields [[deprecated]]; reading and writing them is still
// this header's job.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace fastwire {
namespace json {

// The outcome of a read: converts to true on success; otherwise message() says what,
// where (path) and at which byte.
class result {
public:
    result() = default;

    explicit operator bool() const noexcept { return ok_; }
    bool ok() const noexcept { return ok_; }
    // "orders[1].price" ("" for the root value).
    const std::string& path() const noexcept { return path_; }
    // Byte offset of the offending value in the input.
    std::size_t offset() const noexcept { return offset_; }
    // "expected a number"
    const std::string& what() const noexcept { return what_; }
    // "orders[1].price: expected a number at byte 212"
    std::string message() const {
        if (ok_) return "ok";
        std::string m = path_;
        if (!m.empty()) m += ": ";
        m += what_;
        m += " at byte ";
        m += std::to_string(offset_);
        return m;
    }

private:
    friend class reader;
    bool ok_ = true;
    std::string path_;
    std::size_t offset_ = 0;
    std::string what_;
};

namespace internal {

using simdjson::ondemand::array;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

// The error being unwound: the innermost failure, and path segments added as the
// recursion returns (innermost first). Built only on failure.
struct read_context {
    const char* begin = nullptr;
    const char* end = nullptr;  // end of the padded input
    const char* error_at = nullptr;
    const char* what = nullptr;
    std::string what_owned;
    std::vector<std::string> segments;  // reversed
    std::uint32_t depth = 0;
    std::uint32_t max_depth = 64;
    std::size_t zero_left = std::size_t{1} << 16;  // zero-size elements that may still be read
    std::string key_buffer;                        // escaped keys, decoded

    // Records a failure at value v (its first byte, when simdjson can still tell).
    bool fail(value& v, const char* message) {
        error_at = v.raw_json_token().data();
        what = message;
        return false;
    }
    bool fail_at(const char* where, const char* message) {
        error_at = where;
        what = message;
        return false;
    }
    bool fail_simdjson(value& v, simdjson::error_code e) {
        what_owned = simdjson::error_message(e);
        error_at = v.raw_json_token().data();
        what = what_owned.c_str();
        return false;
    }
    void field(const char* name) { segments.push_back(std::string(".") + name); }
    void index(std::size_t i) { segments.push_back("[" + std::to_string(i) + "]"); }
    void key(std::string_view k) {
        std::string s = "[";
        s.append(k.data(), k.size());
        s += "]";
        segments.push_back(std::move(s));
    }
    std::string path() const {
        std::string p;
        for (auto it = segments.rbegin(); it != segments.rend(); ++it) p += *it;
        if (!p.empty() && p.front() == '.') p.erase(0, 1);
        return p;
    }
};

// Standard Base64 (docs/wire-format.md#json): groups of four characters of the standard
// alphabet, the last one padded with '=' or "=="; anything else (no padding, other
// characters, the URL-safe alphabet, '=' inside) is malformed. The unused low bits of the
// last character are ignored ("QR==" reads as "QQ=="), as in every language.
inline bool decode_base64(std::string_view s, bytes& out) {
    auto val = [](char c) -> int {
        if (c >= 'A' && c <= 'Z') return c - 'A';
        if (c >= 'a' && c <= 'z') return c - 'a' + 26;
        if (c >= '0' && c <= '9') return c - '0' + 52;
        if (c == '+') return 62;
        if (c == '/') return 63;
        return -1;
    };
    if (s.size() % 4 != 0) return false;
    if (!s.empty() && s.back() == '=') s.remove_suffix(1);
    if (!s.empty() && s.back() == '=') s.remove_suffix(1);
    if (s.size() % 4 == 1) return false;
    out.resize(s.size() / 4 * 3 + (s.size() % 4 == 0 ? 0 : s.size() % 4 - 1));
    std::uint8_t* o = out.data();
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : s) {
        const int v = val(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = static_cast<std::uint8_t>(acc >> bits);
        }
    }
    return true;
}

// A JSON number token as RFC 8259 spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// (simdjson checks the numbers it converts; a token taken as text, a decimal's, is
// checked here: no "01", "1.", ".5", "+1").
inline bool json_number_token(std::string_view s) noexcept {
    std::size_t i = 0;
    const std::size_t n = s.size();
    auto digits = [&] {
        const std::size_t from = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
        return i > from;
    };
    if (i < n && s[i] == '-') ++i;
    if (i < n && s[i] == '0')
        ++i;
    else if (!digits())
        return false;
    if (i < n && s[i] == '.') {
        ++i;
        if (!digits()) return false;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digits()) return false;
    }
    return i == n;
}

// The token of a JSON value without the whitespace simdjson leaves after it.
inline std::string_view trimmed_token(std::string_view s) noexcept {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Parses the text of a number (a JSON number or a map key) into an arithmetic type.
template <class T>
bool parse_number_text(std::string_view s, T& out) noexcept {
    if constexpr (std::is_same_v<T, bool>) {
        if (s == "true") return out = true, true;
        if (s == "false") return out = false, true;
        return false;
    } else if constexpr (std::is_floating_point_v<T>) {
        if (s == "NaN") return out = std::numeric_limits<T>::quiet_NaN(), true;
        if (s == "Infinity") return out = std::numeric_limits<T>::infinity(), true;
        if (s == "-Infinity") return out = -std::numeric_limits<T>::infinity(), true;
        // Otherwise a number: no "inf" or "nan" spellings, and within the type's range.
        const std::size_t digit = !s.empty() && s[0] == '-' ? 1 : 0;
        if (s.size() <= digit || !((s[digit] >= '0' && s[digit] <= '9') || s[digit] == '.')) return false;
        T v{};
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
        out = v;
        return true;
    } else {
        if constexpr (std::is_unsigned_v<T>) {
            // "-0" ("-" and zeros) is 0, in every integer kind (docs/wire-format.md#json).
            if (s.size() > 1 && s[0] == '-' && s.find_first_not_of('0', 1) == std::string_view::npos)
                return out = 0, true;
        }
        T v{};
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return false;
        out = v;
        return true;
    }
}

// Integer I from a JSON value, range-checked.
template <class I>
bool read_integer(read_context& ctx, value& v, I& out) {
    if constexpr (std::is_signed_v<I>) {
        std::int64_t x;
        const auto e = v.get_int64().get(x);
        if (e != simdjson::SUCCESS) {
            return ctx.fail(v, e == simdjson::NUMBER_OUT_OF_RANGE ? "integer out of range" : "expected an integer");
        }
        if (x < std::numeric_limits<I>::min() || x > std::numeric_limits<I>::max())
            return ctx.fail(v, "integer out of range");
        out = static_cast<I>(x);
    } else {
        std::uint64_t x;
        const auto e = v.get_uint64().get(x);
        if (e != simdjson::SUCCESS) {
            // -0 is a JSON integer, and 0 in every integer kind (docs/wire-format.md#json);
            // simdjson's unsigned reader takes no sign.
            if (trimmed_token(v.raw_json_token()) == "-0") return out = 0, true;
            return ctx.fail(v, e == simdjson::NUMBER_OUT_OF_RANGE ? "integer out of range" : "expected an integer");
        }
        if (x > std::numeric_limits<I>::max()) return ctx.fail(v, "integer out of range");
        out = static_cast<I>(x);
    }
    return true;
}

template <class T>
bool read_value(read_context& ctx, value& v, T& out);

// A map key from its text.
template <class K>
bool read_key(std::string_view s, K& out) {
    if constexpr (is_string_v<K>) {
        out.assign(s.data(), s.size());
        return true;
    } else if constexpr (is_char_v<K>) {
        code_unit_t<K> c{};
        if (!parse_number_text(s, c)) return false;
        out = static_cast<K>(c);
        return true;
    } else if constexpr (std::is_enum_v<K>) {
        enum_number_t<K> n{};
        if (!parse_number_text(s, n)) return false;
        out = static_cast<K>(n);
        return true;
    } else if constexpr (std::is_arithmetic_v<K>) {
        return parse_number_text(s, out);
    } else if constexpr (std::is_same_v<K, uuid>) {
        return uuid::parse(s, out) == errc::ok;
    } else if constexpr (std::is_same_v<K, decimal>) {
        return decimal::parse(s, out) == errc::ok;
    } else if constexpr (std::is_same_v<K, bytes>) {
        out.assign(s.data(), s.size());
        return true;
    } else {
        static_assert(sizeof(K) == 0, "fastwire::json: unsupported map key type");
    }
}

// The field names of S as string_views (lengths known at compile time).
template <class S>
struct key_views {
    static constexpr auto value = [] {
        std::array<std::string_view, names_of<S>::value.size()> out{};
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = names_of<S>::value[i];
        return out;
    }();
};

inline int hex_digit(char c) noexcept {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The text of a key whose raw JSON starts at `raw` (after the opening quote), decoding
// escapes into `scratch`. Never reads at or past `end`; a malformed escape (which
// simdjson's first stage does not check) gives an empty key, i.e. an unknown one.
inline std::string_view raw_key(const char* raw, const char* end, std::string& scratch) {
    const char* q = raw;
    while (q < end && *q != '"' && *q != '\\') ++q;
    if (q >= end) return {};
    if (*q == '"') return std::string_view(raw, static_cast<std::size_t>(q - raw));
    scratch.assign(raw, static_cast<std::size_t>(q - raw));
    auto hex4 = [&](std::uint32_t& out) {
        if (end - q < 4) return false;
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const int d = hex_digit(*q++);
            if (d < 0) return false;
            out = (out << 4) | static_cast<std::uint32_t>(d);
        }
        return true;
    };
    while (q < end && *q != '"') {
        if (*q != '\\') {
            scratch.push_back(*q++);
            continue;
        }
        if (end - q < 2) return {};
        ++q;
        const char c = *q++;
        switch (c) {
            case 'n': scratch.push_back('\n'); break;
            case 't': scratch.push_back('\t'); break;
            case 'r': scratch.push_back('\r'); break;
            case 'b': scratch.push_back('\b'); break;
            case 'f': scratch.push_back('\f'); break;
            case '"':
            case '\\':
            case '/': scratch.push_back(c); break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return {};
                if (cp >= 0xD800 && cp < 0xDC00) {
                    std::uint32_t lo = 0;
                    if (end - q < 2 || q[0] != '\\' || q[1] != 'u') return {};
                    q += 2;
                    if (!hex4(lo) || lo < 0xDC00 || lo >= 0xE000) return {};
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                } else if (cp >= 0xDC00 && cp < 0xE000) {
                    return {};
                }
                if (cp < 0x80) {
                    scratch.push_back(static_cast<char>(cp));
                } else if (cp < 0x800) {
                    scratch.push_back(static_cast<char>(0xC0 | (cp >> 6)));
                    scratch.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
                } else if (cp < 0x10000) {
                    scratch.push_back(static_cast<char>(0xE0 | (cp >> 12)));
                    scratch.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
                    scratch.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
                } else {
                    scratch.push_back(static_cast<char>(0xF0 | (cp >> 18)));
                    scratch.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
                    scratch.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
                    scratch.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
                }
                break;
            }
            default: return {};
        }
    }
    if (q >= end) return {};
    return scratch;
}

// True when the raw (still escaped) key at `raw` is exactly `name` (which needs no escape).
inline bool raw_equals(const read_context& ctx, const char* raw, std::string_view name) noexcept {
    if (name.size() >= static_cast<std::size_t>(ctx.end - raw)) return false;
    // Schema names are short: an inline loop beats a call to memcmp.
    for (std::size_t i = 0; i < name.size(); ++i)
        if (raw[i] != name[i]) return false;
    return raw[name.size()] == '"';
}

// Whether the raw string at `raw` (after its opening quote) is a JSON string of Unicode
// text: up to its closing quote, no control character, only JSON's escapes, and every
// \\u surrogate escape one of a pair. Checks what simdjson leaves unchecked in strings it
// does not unescape (the keys and values of unknown keys, and keys compared as written).
// Never reads at or past `end`.
inline bool valid_raw_string(const char* raw, const char* end) noexcept {
    auto hex4 = [&](const char*& q, std::uint32_t& out) {
        if (end - q < 4) return false;
        out = 0;
        for (int i = 0; i < 4; ++i) {
            const int d = hex_digit(*q++);
            if (d < 0) return false;
            out = (out << 4) | static_cast<std::uint32_t>(d);
        }
        return true;
    };
    const char* q = raw;
    while (q < end) {
        const auto c = static_cast<unsigned char>(*q);
        if (c == '"') return true;
        if (c < 0x20) return false;
        if (c != '\\') {
            ++q;
            continue;
        }
        if (end - q < 2) return false;
        const char e = q[1];
        q += 2;
        if (e == 'u') {
            std::uint32_t cp = 0;
            if (!hex4(q, cp)) return false;
            if (cp >= 0xDC00 && cp < 0xE000) return false;  // a low surrogate first
            if (cp >= 0xD800 && cp < 0xDC00) {
                std::uint32_t lo = 0;
                if (end - q < 2 || q[0] != '\\' || q[1] != 'u') return false;
                q += 2;
                if (!hex4(q, lo) || lo < 0xDC00 || lo >= 0xE000) return false;
            }
        } else if (!(e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't')) {
            return false;
        }
    }
    return false;
}

// Skips the value of an unknown key, counting its arrays and objects against max_depth
// like any others (so every language answers the same for deep unknown values). What is
// skipped must still be JSON (docs/wire-format.md#json): simdjson's On-Demand API does
// not look at a value it skips, so its numbers, literals, strings and keys are checked
// here, in work bounded by their length.
inline bool skip_value(read_context& ctx, value& v) {
    simdjson::ondemand::json_type type{};
    if (v.type().get(type) != simdjson::SUCCESS) return ctx.fail(v, "malformed value");
    switch (type) {
        case simdjson::ondemand::json_type::object: {
            object obj;
            if (v.get_object().get(obj) != simdjson::SUCCESS) return ctx.fail(v, "malformed value");
            if (++ctx.depth > ctx.max_depth) return ctx.fail(v, "nested too deeply");
            for (auto item : obj) {
                if (auto e = item.error(); e != simdjson::SUCCESS) return ctx.fail_simdjson(v, e);
                simdjson::ondemand::field& f = item.value_unsafe();
                if (!valid_raw_string(f.key().raw(), ctx.end)) return ctx.fail(f.value(), "malformed key");
                if (!skip_value(ctx, f.value())) return false;
            }
            --ctx.depth;
            return true;
        }
        case simdjson::ondemand::json_type::array: {
            array arr;
            if (v.get_array().get(arr) != simdjson::SUCCESS) return ctx.fail(v, "malformed value");
            if (++ctx.depth > ctx.max_depth) return ctx.fail(v, "nested too deeply");
            for (auto item : arr) {
                if (auto e = item.error(); e != simdjson::SUCCESS) return ctx.fail_simdjson(v, e);
                if (!skip_value(ctx, item.value_unsafe())) return false;
            }
            --ctx.depth;
            return true;
        }
        case simdjson::ondemand::json_type::string: {
            const std::string_view tok = v.raw_json_token();
            if (tok.empty() || !valid_raw_string(tok.data() + 1, ctx.end)) return ctx.fail(v, "malformed string");
            return true;
        }
        case simdjson::ondemand::json_type::number:
            if (!json_number_token(trimmed_token(v.raw_json_token()))) return ctx.fail(v, "malformed number");
            return true;
        default: {  // true, false, null
            const std::string_view tok = trimmed_token(v.raw_json_token());
            if (tok != "true" && tok != "false" && tok != "null") return ctx.fail(v, "malformed value");
            return true;
        }
    }
}

// Elements of zero final wire size (empty structs, arrays of them): the JSON reader
// charges them to limits::max_zero_size_elements, as the final reader does, so what is
// read from JSON can be written and read back.
template <class T>
constexpr bool zero_size_element();
template <class S, auto... M>
constexpr bool all_zero_size(fields<M...>) {
    return (zero_size_element<std::decay_t<decltype(std::declval<S&>().*M)>>() && ...);
}
template <class T>
constexpr bool zero_size_element() {
    if constexpr (is_struct_v<T>)
        return all_zero_size<T>(all_fields_t<T>{});
    else if constexpr (is_std_array<T>::value)
        return std::tuple_size<T>::value == 0 || zero_size_element<typename T::value_type>();
    else
        return false;
}

// Charges one zero-size element; false (the error recorded) when the allowance is spent.
template <class T>
bool charge(read_context& ctx, value& v) {
    if constexpr (zero_size_element<T>()) {
        if (ctx.zero_left == 0) return ctx.fail(v, "over budget: too many elements of zero size");
        --ctx.zero_left;
    }
    (void)ctx, (void)v;
    return true;
}

template <class S, auto... M, std::size_t... I>
bool read_field(read_context& ctx, std::size_t index, value& v, S& out, fields<M...>, std::index_sequence<I...>) {
    bool ok = true;
    (void)((index == I ? (ok = read_value(ctx, v, out.*M), true) : false) || ...);
    return ok;
}

// A repeated field is read again from its default (docs/wire-format.md#json): its last
// value replaces it whole, a struct's fields included.
template <class S, auto... M, std::size_t... I>
void reset_field(std::size_t index, S& out, fields<M...>, std::index_sequence<I...>) {
    static const S defaults{};
    (void)((index == I ? (out.*M = defaults.*M, true) : false) || ...);
    (void)defaults, (void)index, (void)out;  // a struct without fields
}

template <class S>
bool read_struct(read_context& ctx, value& v, S& out) {
    object obj;
    if (v.get_object().get(obj) != simdjson::SUCCESS) return ctx.fail(v, "expected an object");
    constexpr auto& names = names_of<S>::value;
    constexpr std::size_t count = names.size();
    if (++ctx.depth > ctx.max_depth) return ctx.fail(v, "nested too deeply");
    std::size_t next = 0;  // fields usually come in declaration order
    std::bitset<count> seen;
    for (auto item : obj) {
        if (auto e = item.error(); e != simdjson::SUCCESS) return ctx.fail_simdjson(v, e);
        simdjson::ondemand::field& f = item.value_unsafe();
        // Keys are compared as written (schema names need no escapes); a key spelled with
        // escapes is decoded first.
        const char* raw = f.key().raw();
        std::size_t index = count;
        if (next < count && raw_equals(ctx, raw, key_views<S>::value[next])) {
            index = next;  // the usual case: the key the writer puts next
        } else {
            const std::string_view k = raw_key(raw, ctx.end, ctx.key_buffer);
            for (std::size_t i = 0; i < count; ++i)
                if (k == key_views<S>::value[i]) {
                    index = i;
                    break;
                }
        }
        if (index == count) {  // unknown key: skipped, its nesting counted
            if (!valid_raw_string(raw, ctx.end)) return ctx.fail(f.value(), "malformed key");
            if (!skip_value(ctx, f.value())) return false;
            continue;
        }
        next = index + 1;
        if (seen[index]) reset_field(index, out, all_fields_t<S>{}, std::make_index_sequence<count>{});
        seen.set(index);
        value& fv = f.value();
        if (!read_field(ctx, index, fv, out, all_fields_t<S>{}, std::make_index_sequence<count>{})) {
            ctx.field(names[index]);
            return false;
        }
    }
    --ctx.depth;
    return true;
}

template <class Seq>
bool read_sequence(read_context& ctx, value& v, Seq& out) {
    using T = typename Seq::value_type;
    array arr;
    if (v.get_array().get(arr) != simdjson::SUCCESS) return ctx.fail(v, "expected an array");
    if (++ctx.depth > ctx.max_depth) return ctx.fail(v, "nested too deeply");
    std::size_t n = 0;
    if constexpr (is_vector<Seq>::value && !std::is_same_v<T, bool>) {
        for (auto item : arr) {
            if (auto err = item.error(); err != simdjson::SUCCESS) return ctx.fail_simdjson(v, err);
            value& e = item.value_unsafe();
            if (!charge<T>(ctx, e)) return false;
            if (n == out.size()) out.emplace_back();
            if (!read_value(ctx, e, out[n])) {
                out.resize(n + 1);
                ctx.index(n);
                return false;
            }
            ++n;
        }
        out.resize(n);
    } else if constexpr (is_std_array<Seq>::value) {
        for (auto item : arr) {
            if (auto err = item.error(); err != simdjson::SUCCESS) return ctx.fail_simdjson(v, err);
            value& e = item.value_unsafe();
            if (n == out.size()) return ctx.fail(e, "too many elements for a fixed-size array");
            if (!charge<T>(ctx, e)) return false;
            if (!read_value(ctx, e, out[n])) {
                ctx.index(n);
                return false;
            }
            ++n;
        }
        if (n != out.size()) return ctx.fail(v, "too few elements for a fixed-size array");
    } else if constexpr (is_list<Seq>::value) {
        auto it = out.begin();
        for (auto item : arr) {
            if (auto err = item.error(); err != simdjson::SUCCESS) return ctx.fail_simdjson(v, err);
            value& e = item.value_unsafe();
            if (!charge<T>(ctx, e)) return false;
            if (it == out.end()) it = out.emplace(out.end());
            if (!read_value(ctx, e, *it)) {
                out.erase(std::next(it), out.end());
                ctx.index(n);
                return false;
            }
            ++it;
            ++n;
        }
        out.erase(it, out.end());
    } else {  // set, vector<bool>: build each element, then add it
        out.clear();
        for (auto item : arr) {
            if (auto err = item.error(); err != simdjson::SUCCESS) return ctx.fail_simdjson(v, err);
            value& e = item.value_unsafe();
            if (!charge<T>(ctx, e)) return false;
            T x{};
            if (!read_value(ctx, e, x)) {
                ctx.index(n);
                return false;
            }
            if constexpr (is_vector<Seq>::value)
                out.push_back(x);
            else
                out.insert(std::move(x));
            ++n;
        }
    }
    --ctx.depth;
    return true;
}

template <class Map>
bool read_map(read_context& ctx, value& v, Map& out) {
    using K = typename Map::key_type;
    using V = typename Map::mapped_type;
    if (++ctx.depth > ctx.max_depth) return ctx.fail(v, "nested too deeply");
    out.clear();
    if constexpr (is_pair_key_v<K>) {
        array arr;
        if (v.get_array().get(arr) != simdjson::SUCCESS) return ctx.fail(v, "expected an array of [key, value] pairs");
        std::size_t n = 0;
        for (auto item : arr) {
            value pv;
            if (auto err = std::move(item).get(pv); err != simdjson::SUCCESS) return ctx.fail_simdjson(v, err);
            array pair;
            if (pv.get_array().get(pair) != simdjson::SUCCESS) {
                ctx.fail(pv, "expected a [key, value] pair");
                ctx.index(n);
                return false;
            }
            if (++ctx.depth > ctx.max_depth) return ctx.fail(pv, "nested too deeply");  // the pair's array
            if constexpr (zero_size_element<K>() && zero_size_element<V>()) {
                if (!charge<K>(ctx, pv)) return false;
            }
            K key{};
            V val{};
            int parts = 0;
            for (auto part : pair) {
                value pvv;
                if (auto err = std::move(part).get(pvv); err != simdjson::SUCCESS) return ctx.fail_simdjson(pv, err);
                bool ok = true;
                if (parts == 0)
                    ok = read_value(ctx, pvv, key);
                else if (parts == 1)
                    ok = read_value(ctx, pvv, val);
                else
                    ok = ctx.fail(pvv, "expected a [key, value] pair");
                if (!ok) {
                    ctx.index(static_cast<std::size_t>(parts));
                    ctx.index(n);
                    return false;
                }
                ++parts;
            }
            if (parts != 2) {
                ctx.fail(pv, "expected a [key, value] pair");
                ctx.index(n);
                return false;
            }
            --ctx.depth;
            // Entries equal by the key rule (docs/schema-language.md): the first one stays,
            // as in the binary readers and every other language.
            out.emplace(std::move(key), std::move(val));
            ++n;
        }
    } else {
        object obj;
        if (v.get_object().get(obj) != simdjson::SUCCESS) return ctx.fail(v, "expected an object");
        for (auto item : obj) {
            if (auto e = item.error(); e != simdjson::SUCCESS) return ctx.fail_simdjson(v, e);
            simdjson::ondemand::field& f = item.value_unsafe();
            std::string_view ks;
            if (auto e = f.unescaped_key().get(ks); e != simdjson::SUCCESS) return ctx.fail_simdjson(v, e);
            K key{};
            value& fv = f.value();
            if (!read_key(ks, key)) {
                std::string k(ks);
                ctx.fail(fv, "bad map key");
                ctx.key(k);
                return false;
            }
            // Keys equal to one read before (the same text, or the same value: "7", "07")
            // keep the first entry (docs/schema-language.md); the value is still read.
            auto [at, fresh] = out.try_emplace(std::move(key));
            bool ok;
            if (fresh) {
                ok = read_value(ctx, fv, at->second);
            } else {
                V dropped{};
                ok = read_value(ctx, fv, dropped);
            }
            if (!ok) {
                ctx.key(ks);  // still valid: the key's text lives in the parser until the next key
                return false;
            }
        }
    }
    --ctx.depth;
    return true;
}

template <class T>
bool read_value(read_context& ctx, value& v, T& out) {
    if constexpr (std::is_same_v<T, bool>) {
        bool b;
        if (v.get_bool().get(b) != simdjson::SUCCESS) return ctx.fail(v, "expected true or false");
        out = b;
        return true;
    } else if constexpr (is_char_v<T>) {
        code_unit_t<T> c{};
        if (!read_integer(ctx, v, c)) return false;
        out = static_cast<T>(c);
        return true;
    } else if constexpr (std::is_enum_v<T>) {
        using N = enum_number_t<T>;
        if constexpr (std::is_signed_v<N>) {
            std::int64_t x;
            if (v.get_int64().get(x) == simdjson::SUCCESS) {
                if (x < std::numeric_limits<N>::min() || x > std::numeric_limits<N>::max())
                    return ctx.fail(v, "integer out of range");
                return out = static_cast<T>(static_cast<N>(x)), true;
            }
        } else {
            std::uint64_t x;
            if (v.get_uint64().get(x) == simdjson::SUCCESS) {
                if (x > std::numeric_limits<N>::max()) return ctx.fail(v, "integer out of range");
                return out = static_cast<T>(static_cast<N>(x)), true;
            }
        }
        N n{};
        // Reports why the number does not fit; or reads -0 (simdjson's unsigned reader
        // takes no sign).
        if (!read_integer(ctx, v, n)) return false;
        out = static_cast<T>(n);
        return true;
    } else if constexpr (std::is_integral_v<T>) {
        return read_integer(ctx, v, out);
    } else if constexpr (std::is_floating_point_v<T>) {
        double d;
        if (v.get_double().get(d) == simdjson::SUCCESS) {
            // Rounded to the nearest float (docs/wire-format.md#json): from halfway between
            // the largest float and 2^128 on it rounds to infinity and is out of range;
            // below, it is the largest float (converting such a double is undefined).
            if constexpr (std::is_same_v<T, float>) {
                constexpr double float_max = static_cast<double>(std::numeric_limits<float>::max());
                constexpr double halfway = 3.4028235677973366e38;  // 2^128 - 2^103
                if (std::fabs(d) >= halfway) return ctx.fail(v, "number out of range for float");
                if (std::fabs(d) > float_max) d = std::copysign(float_max, d);
            }
            out = static_cast<T>(d);
            return true;
        }
        std::string_view s;
        if (v.get_string().get(s) == simdjson::SUCCESS) {
            T x{};
            if (s == "NaN" || s == "Infinity" || s == "-Infinity") {
                parse_number_text(s, x);
                out = x;
                return true;
            }
        }
        return ctx.fail(v, "expected a number");
    } else if constexpr (is_string_v<T>) {
        // Without escapes the text is copied straight from the input (the usual case);
        // otherwise simdjson unescapes it.
        const std::string_view tok = v.raw_json_token();
        if (!tok.empty() && tok.front() == '"') {
            const char* b = tok.data() + 1;
            const char* q = b;
            while (q < ctx.end && *q != '"' && *q != '\\') ++q;
            if (q < ctx.end && *q == '"') {
                simdjson::ondemand::raw_json_string raw;
                if (v.get_raw_json_string().get(raw) != simdjson::SUCCESS) return ctx.fail(v, "expected a string");
                out.assign(b, static_cast<std::size_t>(q - b));
                return true;
            }
        }
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS) return ctx.fail(v, "expected a string");
        out.assign(s.data(), s.size());
        return true;
    } else if constexpr (std::is_same_v<T, bytes>) {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS) return ctx.fail(v, "expected a Base64 string");
        if (!decode_base64(s, out)) return ctx.fail(v, "expected a Base64 string");
        return true;
    } else if constexpr (std::is_same_v<T, decimal>) {
        std::string_view s;
        simdjson::ondemand::json_type type{};
        if (v.type().get(type) != simdjson::SUCCESS) return ctx.fail(v, "malformed value");
        if (type == simdjson::ondemand::json_type::number) {
            // Its text, which must be a JSON number (simdjson has not converted it).
            s = trimmed_token(v.raw_json_token());
            if (!json_number_token(s)) return ctx.fail(v, "malformed number");
        } else if (v.get_string().get(s) != simdjson::SUCCESS) {
            return ctx.fail(v, "expected a decimal string");
        }
        const errc e = decimal::parse(s, out);
        if (e == errc::ok) return true;
        return ctx.fail(v, e == errc::out_of_range ? "decimal out of range (96 bits, scale 28)" : "expected a decimal");
    } else if constexpr (std::is_same_v<T, uuid>) {
        std::string_view s;
        if (v.get_string().get(s) != simdjson::SUCCESS || uuid::parse(s, out) != errc::ok)
            return ctx.fail(v, "expected a uuid string");
        return true;
    } else if constexpr (is_optional<T>::value) {
        // is_null() reports a malformed token as an error, not as false; take the error
        // code rather than converting the result (the conversion throws).
        bool null = false;
        if (v.is_null().get(null) != simdjson::SUCCESS) return ctx.fail(v, "malformed value");
        if (null) {
            out.reset();
            return true;
        }
        if (!out) out.emplace();
        return read_value(ctx, v, *out);
    } else if constexpr (is_std_array<T>::value || is_sequence<T>::value) {
        return read_sequence(ctx, v, out);
    } else if constexpr (is_map<T>::value) {
        return read_map(ctx, v, out);
    } else if constexpr (is_struct_v<T>) {
        return read_struct(ctx, v, out);
    } else {
        static_assert(sizeof(T) == 0, "fastwire::json: no JSON form for this type");
    }
}

}  // namespace internal

// Reads JSON text into values; reusable (keeps its parser and input buffer).
class reader {
public:
    reader() = default;
    explicit reader(const limits& lim)
        : max_depth_(depth_limit(lim)), max_size_(lim.max_message_size), max_zero_(lim.max_zero_size_elements) {}

    // Reads one JSON value (and nothing but whitespace after it) into `out`.
    template <class T>
    result read(std::string_view text, T& out) {
        const std::size_t need = text.size() + simdjson::SIMDJSON_PADDING;
        if (need > cap_) {
            buf_.reset(new char[need]);
            cap_ = need;
        }
        std::memcpy(buf_.get(), text.data(), text.size());
        std::memset(buf_.get() + text.size(), 0, simdjson::SIMDJSON_PADDING);
        return read_padded(buf_.get(), text.size(), cap_, out);
    }

    // The same without a copy: text[size..capacity) must be readable (capacity >= size +
    // simdjson::SIMDJSON_PADDING).
    template <class T>
    result read_padded(const char* text, std::size_t size, std::size_t capacity, T& out) {
        result res;
        internal::read_context ctx;
        ctx.begin = text;
        ctx.end = text + capacity;
        ctx.max_depth = max_depth_;
        ctx.zero_left = max_zero_;
        // The same budget as binary input: no text longer than a message may be.
        if (size > max_size_) return failure(res, ctx, text, "too large: text longer than limits::max_message_size");
        simdjson::ondemand::document doc;
        if (auto e = parser_.iterate(text, size, capacity).get(doc); e != simdjson::SUCCESS)
            return failure(res, ctx, nullptr, simdjson::error_message(e));
        simdjson::ondemand::value root;
        if (auto e = doc.get_value().get(root); e != simdjson::SUCCESS)
            return failure(res, ctx, location(doc, text), simdjson::error_message(e));
        if (!internal::read_value(ctx, root, out)) {
            const char* at = ctx.error_at ? ctx.error_at : location(doc, text);
            return failure(res, ctx, at, ctx.what);
        }
        // At the end of the document simdjson has no current location.
        const char* rest = nullptr;
        if (doc.current_location().get(rest) == simdjson::SUCCESS)
            return failure(res, ctx, rest, "unexpected text after the value");
        return res;
    }

private:
    static const char* location(simdjson::ondemand::document& doc, const char* text) {
        const char* at = nullptr;
        if (doc.current_location().get(at) != simdjson::SUCCESS) at = nullptr;
        (void)text;
        return at;
    }
    result& failure(result& res, internal::read_context& ctx, const char* at, const char* what) const {
        res.ok_ = false;
        res.path_ = ctx.path();
        res.what_ = what ? what : "error";
        res.offset_ = at && at >= ctx.begin ? static_cast<std::size_t>(at - ctx.begin) : 0;
        return res;
    }

    simdjson::ondemand::parser parser_;
    std::unique_ptr<char[]> buf_;
    std::size_t cap_ = 0;
    std::uint32_t max_depth_ = 64;
    std::size_t max_size_ = limits{}.max_message_size;
    std::size_t max_zero_ = limits{}.max_zero_size_elements;
};

// Reads `text` into `out` with a temporary reader (prefer a reused reader in loops).
template <class T>
result from_json(std::string_view text, T& out) {
    reader r;
    return r.read(text, out);
}

}  // namespace json
}  // namespace fastwire

#pragma GCC diagnostic pop
