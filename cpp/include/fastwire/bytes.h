// fastwire/bytes.h - the C++ type of the schema's `bytes`.
//
// A schema `bytes` field and a `byte[]` field have the same wire form but are different
// schema types, so they get different C++ types: `byte[]` is std::vector<uint8_t>, and
// `bytes` is fastwire::bytes, a thin owner of a byte vector with a vector-like API.
//
//   fastwire::bytes b{0x01, 0x02};
//   b.append("xyz", 3);
//   b.size();                              // 5
//   std::vector<uint8_t>& raw = b.vector(); // the storage, when a real vector is needed
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

namespace fastwire {

class bytes {
public:
    using value_type = std::uint8_t;
    using size_type = std::size_t;
    using iterator = std::vector<std::uint8_t>::iterator;
    using const_iterator = std::vector<std::uint8_t>::const_iterator;

    bytes() = default;
    bytes(std::initializer_list<std::uint8_t> init) : data_(init) {}
    bytes(const void* data, std::size_t size) { assign(data, size); }
    explicit bytes(std::size_t size, std::uint8_t value = 0) : data_(size, value) {}
    explicit bytes(std::vector<std::uint8_t> v) noexcept : data_(std::move(v)) {}
    explicit bytes(std::string_view s) { assign(s.data(), s.size()); }

    const std::uint8_t* data() const noexcept { return data_.data(); }
    std::uint8_t* data() noexcept { return data_.data(); }
    std::size_t size() const noexcept { return data_.size(); }
    bool empty() const noexcept { return data_.empty(); }
    std::size_t capacity() const noexcept { return data_.capacity(); }

    iterator begin() noexcept { return data_.begin(); }
    iterator end() noexcept { return data_.end(); }
    const_iterator begin() const noexcept { return data_.begin(); }
    const_iterator end() const noexcept { return data_.end(); }
    std::uint8_t& operator[](std::size_t i) noexcept { return data_[i]; }
    std::uint8_t operator[](std::size_t i) const noexcept { return data_[i]; }

    void assign(const void* data, std::size_t size) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        data_.assign(p, p + size);
    }
    void append(const void* data, std::size_t size) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        data_.insert(data_.end(), p, p + size);
    }
    void resize(std::size_t n) { data_.resize(n); }
    void reserve(std::size_t n) { data_.reserve(n); }
    void clear() noexcept { data_.clear(); }
    void push_back(std::uint8_t b) { data_.push_back(b); }

    std::vector<std::uint8_t>& vector() noexcept { return data_; }
    const std::vector<std::uint8_t>& vector() const noexcept { return data_; }

    friend bool operator==(const bytes& a, const bytes& b) noexcept { return a.data_ == b.data_; }
    friend bool operator!=(const bytes& a, const bytes& b) noexcept { return a.data_ != b.data_; }
    friend bool operator<(const bytes& a, const bytes& b) noexcept { return a.data_ < b.data_; }
    friend bool operator<=(const bytes& a, const bytes& b) noexcept { return a.data_ <= b.data_; }
    friend bool operator>(const bytes& a, const bytes& b) noexcept { return a.data_ > b.data_; }
    friend bool operator>=(const bytes& a, const bytes& b) noexcept { return a.data_ >= b.data_; }

private:
    std::vector<std::uint8_t> data_;
};

}  // namespace fastwire

namespace std {
template <>
struct hash<fastwire::bytes> {
    std::size_t operator()(const fastwire::bytes& b) const noexcept {
        return std::hash<std::string_view>()(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
    }
};
}  // namespace std
