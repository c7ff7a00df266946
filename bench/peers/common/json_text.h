// json_text.h — a small hand-written compact JSON writer over the fields.h field lists.
//
// Used by the simdjson row (simdjson only parses). Same output shape as RapidJSON's Writer:
// shortest round-trip doubles via std::to_chars, with ".0" appended to whole numbers.
#pragma once

#include <charconv>
#include <string>

#include "fields.h"

namespace fwb {

class JsonText {
public:
    void clear() { s_.clear(); }
    const std::string& str() const { return s_; }

    template <class T>
    void value(const T& x) {
        if constexpr (std::is_enum_v<T>) {
            value(static_cast<std::underlying_type_t<T>>(x));
        } else if constexpr (std::is_integral_v<T>) {
            number(static_cast<std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>(x));
        } else if constexpr (std::is_floating_point_v<T>) {
            real(static_cast<double>(x));
        } else if constexpr (std::is_same_v<T, std::string>) {
            string(x);
        } else if constexpr (IsVector<T>::value) {
            s_ += '[';
            bool first = true;
            for (const auto& e : x) {
                if (!first) s_ += ',';
                first = false;
                value(e);
            }
            s_ += ']';
        } else if constexpr (IsOptional<T>::value) {
            if (x)
                value(*x);
            else
                s_ += "null";
        } else if constexpr (IsMap<T>::value) {
            s_ += '{';
            bool first = true;
            for (const auto& [k, v] : x) {
                if (!first) s_ += ',';
                first = false;
                s_ += '"';
                number(static_cast<int64_t>(k));
                s_ += "\":";
                value(v);
            }
            s_ += '}';
        } else {
            s_ += '{';
            bool first = true;
            auto visit = [&](const char* name, const auto& v) {
                if (!first) s_ += ',';
                first = false;
                s_ += '"';
                s_ += name;
                s_ += "\":";
                value(v);
            };
            fields(visit, x);
            s_ += '}';
        }
    }

private:
    template <class I>
    void number(I v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        s_.append(buf, r.ptr);
    }
    void real(double v) {
        char buf[32];
        auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
        s_.append(buf, r.ptr);
        bool plain = true;
        for (const char* p = buf; p != r.ptr; ++p)
            if (*p == '.' || *p == 'e' || *p == 'n' || *p == 'i') plain = false;
        if (plain) s_ += ".0";
    }
    void string(const std::string& v) {
        s_ += '"';
        for (char c : v) {
            const auto u = static_cast<unsigned char>(c);
            if (c == '"' || c == '\\') {
                s_ += '\\';
                s_ += c;
            } else if (u < 0x20) {
                static const char hex[] = "0123456789abcdef";
                s_ += "\\u00";
                s_ += hex[u >> 4];
                s_ += hex[u & 15];
            } else {
                s_ += c;
            }
        }
        s_ += '"';
    }
    std::string s_;
};

}  // namespace fwb
