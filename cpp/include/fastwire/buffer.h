// fastwire/buffer.h - a growable byte buffer that owns its memory, and a read-only view
// over bytes owned by someone else.
//
// `buffer` is what a model serializes into. Unlike std::vector<uint8_t> it grows without
// zero-filling: append(n) hands out n uninitialised bytes that the caller must write,
// which is how serialize() avoids touching every byte twice. clear() keeps the capacity,
// so a reused model allocates once.
//
//   fastwire::buffer buf;
//   uint8_t* p = buf.append(4);                 // 4 uninitialised bytes
//   fastwire::store_le<uint32_t>(p, 42);
//   fastwire::buffer_view v(buf);               // {buf.data(), 4}
//
// `buffer_view` is a pointer and a size. It never owns or copies; the caller keeps the
// bytes alive while the view is used.
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include <fastwire/internal/wire.h>  // FASTWIRE_NOINLINE

namespace fastwire {

class buffer {
public:
    buffer() noexcept = default;
    explicit buffer(std::size_t capacity) { reserve(capacity); }
    buffer(const void* data, std::size_t size) { append(data, size); }

    buffer(const buffer& other) { append(other.data(), other.size()); }
    buffer(buffer&& other) noexcept : data_(std::move(other.data_)), size_(other.size_), capacity_(other.capacity_) {
        other.size_ = other.capacity_ = 0;
    }
    buffer& operator=(const buffer& other) {
        if (this != &other) {
            clear();
            append(other.data(), other.size());
        }
        return *this;
    }
    buffer& operator=(buffer&& other) noexcept {
        data_ = std::move(other.data_);
        size_ = other.size_;
        capacity_ = other.capacity_;
        other.size_ = other.capacity_ = 0;
        return *this;
    }

    const std::uint8_t* data() const noexcept { return data_.get(); }
    std::uint8_t* data() noexcept { return data_.get(); }
    std::size_t size() const noexcept { return size_; }
    std::size_t capacity() const noexcept { return capacity_; }
    bool empty() const noexcept { return size_ == 0; }

    const std::uint8_t* begin() const noexcept { return data(); }
    const std::uint8_t* end() const noexcept { return data() + size_; }
    std::uint8_t* begin() noexcept { return data(); }
    std::uint8_t* end() noexcept { return data() + size_; }
    std::uint8_t operator[](std::size_t i) const noexcept { return data_[i]; }
    std::uint8_t& operator[](std::size_t i) noexcept { return data_[i]; }

    // Makes room for at least n bytes in total; existing bytes are kept.
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        std::size_t cap = std::max(n, capacity_ + capacity_ / 2);
        std::unique_ptr<std::uint8_t[]> p(new std::uint8_t[cap]);  // default-init: no zero-fill
        if (size_ != 0) std::memcpy(p.get(), data_.get(), size_);
        data_ = std::move(p);
        capacity_ = cap;
    }

    // Appends n uninitialised bytes and returns a pointer to them. The pointer is valid
    // until the next call that grows the buffer.
    std::uint8_t* append(std::size_t n) {
#if defined(__GNUC__) || defined(__clang__)
        if (__builtin_expect(n > capacity_ - size_, 0)) return append_growing(n);
#else
        if (n > capacity_ - size_) return append_growing(n);
#endif
        std::uint8_t* p = data_.get() + size_;
        size_ += n;
        return p;
    }

    // append(n) when the caller knows the buffer has room (n <= capacity() - size()).
    std::uint8_t* append_in_capacity(std::size_t n) noexcept {
        std::uint8_t* p = data_.get() + size_;
        size_ += n;
        return p;
    }

    // Makes room for n more bytes: append(n) then needs no growing.
    void reserve_more(std::size_t n) {
        if (n > SIZE_MAX - size_) throw std::length_error("fastwire::buffer: size overflow");
        reserve(size_ + n);
    }

    void append(const void* src, std::size_t n) {
        if (n == 0) return;
        std::uint8_t* p = append(n);
        std::memcpy(p, src, n);
    }

    // Resizes; bytes added at the end are zero.
    void resize(std::size_t n) {
        if (n > size_) {
            const std::size_t old = size_;
            append(n - old);
            std::memset(data_.get() + old, 0, n - old);
        } else {
            size_ = n;
        }
    }

    // Drops the contents and keeps the capacity.
    void clear() noexcept { size_ = 0; }

    void shrink_to_fit() {
        if (size_ == capacity_) return;
        buffer tmp(data(), size_);
        *this = std::move(tmp);
    }

    std::vector<std::uint8_t> to_vector() const { return std::vector<std::uint8_t>(begin(), end()); }

    friend bool operator==(const buffer& a, const buffer& b) noexcept {
        return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data(), b.data(), a.size_) == 0);
    }
    friend bool operator!=(const buffer& a, const buffer& b) noexcept { return !(a == b); }

private:
    // append() when the buffer must grow: out of line, so that the common path of a reused
    // buffer (one compare, one store) saves no registers around an allocation it skips.
    FASTWIRE_NOINLINE std::uint8_t* append_growing(std::size_t n) {
        reserve_more(n);
        return append_in_capacity(n);
    }

    std::unique_ptr<std::uint8_t[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

class buffer_view {
public:
    constexpr buffer_view() noexcept = default;
    constexpr buffer_view(const std::uint8_t* data, std::size_t size) noexcept : data_(data), size_(size) {}
    buffer_view(const void* data, std::size_t size) noexcept
        : data_(static_cast<const std::uint8_t*>(data)), size_(size) {}
    buffer_view(const buffer& b) noexcept : data_(b.data()), size_(b.size()) {}  // NOLINT: implicit by design
    buffer_view(const std::vector<std::uint8_t>& v) noexcept                     // NOLINT
        : data_(v.data()), size_(v.size()) {}

    constexpr const std::uint8_t* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const std::uint8_t* begin() const noexcept { return data_; }
    constexpr const std::uint8_t* end() const noexcept { return data_ + size_; }
    constexpr std::uint8_t operator[](std::size_t i) const noexcept { return data_[i]; }

    // The bytes from `offset` on (empty when offset is past the end).
    constexpr buffer_view subview(std::size_t offset) const noexcept {
        return offset >= size_ ? buffer_view(data_ + size_, 0) : buffer_view(data_ + offset, size_ - offset);
    }

private:
    const std::uint8_t* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace fastwire
