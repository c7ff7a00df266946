// json_writer.h — a minimal JSON emitter for the runner's result file (no dependency on
// any peer's JSON library, so the harness measures them without using them).
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace fwb {

class JsonOut {
public:
    JsonOut& begin_object() {
        sep();
        s_ += '{';
        first_ = true;
        return *this;
    }
    JsonOut& end_object() {
        s_ += '}';
        first_ = false;
        return *this;
    }
    JsonOut& begin_array() {
        sep();
        s_ += '[';
        first_ = true;
        return *this;
    }
    JsonOut& end_array() {
        s_ += ']';
        first_ = false;
        return *this;
    }
    JsonOut& key(const std::string& k) {
        sep();
        str(k);
        s_ += ':';
        first_ = true;
        return *this;
    }
    JsonOut& value(const std::string& v) {
        sep();
        str(v);
        return *this;
    }
    JsonOut& value(const char* v) { return value(std::string(v)); }
    JsonOut& value(bool v) {
        sep();
        s_ += v ? "true" : "false";
        return *this;
    }
    JsonOut& value(double v) {
        sep();
        if (!std::isfinite(v)) {
            s_ += "null";
            return *this;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", v);
        s_ += buf;
        return *this;
    }
    JsonOut& value(long long v) {
        sep();
        s_ += std::to_string(v);
        return *this;
    }
    JsonOut& value(unsigned long long v) {
        sep();
        s_ += std::to_string(v);
        return *this;
    }
    JsonOut& value(int v) { return value(static_cast<long long>(v)); }
    JsonOut& value(size_t v) { return value(static_cast<unsigned long long>(v)); }
    JsonOut& null() {
        sep();
        s_ += "null";
        return *this;
    }
    template <class T>
    JsonOut& field(const std::string& k, const T& v) {
        key(k);
        return value(v);
    }
    const std::string& str() const { return s_; }

private:
    void sep() {
        if (!first_ && !s_.empty() && s_.back() != ':') s_ += ',';
        first_ = false;
    }
    void str(const std::string& v) {
        s_ += '"';
        for (unsigned char c : v) {
            if (c == '"' || c == '\\') {
                s_ += '\\';
                s_ += static_cast<char>(c);
            } else if (c < 0x20) {
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", c);
                s_ += b;
            } else
                s_ += static_cast<char>(c);
        }
        s_ += '"';
    }
    std::string s_;
    bool first_ = true;
};

}  // namespace fwb
