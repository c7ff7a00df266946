// test_util.h - helpers shared by the fastwire C++ tests: golden-vector loading and the
// seed account.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "proto_models.h"  // generated from schemas/proto.fbe at build time

namespace testutil {

inline std::string vector_path(const std::string& name) { return std::string(FASTWIRE_VECTORS_DIR) + "/" + name; }

inline std::string read_text(const std::string& name) {
    std::ifstream in(vector_path(name), std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + vector_path(name));
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Hex text (any whitespace between byte pairs) -> bytes.
inline std::vector<std::uint8_t> parse_hex(const std::string& text) {
    std::vector<std::uint8_t> out;
    int hi = -1;
    for (char c : text) {
        int v;
        if (c >= '0' && c <= '9')
            v = c - '0';
        else if (c >= 'a' && c <= 'f')
            v = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v = c - 'A' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            out.push_back(static_cast<std::uint8_t>(hi * 16 + v));
            hi = -1;
        }
    }
    return out;
}

inline std::vector<std::uint8_t> load_hex(const std::string& name) { return parse_hex(read_text(name)); }

// The seed's sample account, built exactly as the seed's C++ example builds it.
inline proto::Account seed_account() {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}

template <class T>
std::string str(const T& v) {
    std::ostringstream ss;
    ss << v;
    return ss.str();
}

inline std::vector<std::uint8_t> bytes_of(const fastwire::buffer& b) { return b.to_vector(); }

}  // namespace testutil
