// fastwire/internal/model_bytes.h - the bytes a root model works on, shared by
// fastwire::model (versioned, model.h) and fastwire::final_model (final, final_model.h).
//
// A model either owns a buffer that serialize() appends to, or views bytes the caller
// attached; `pos` marks the model being read when several follow each other in a stream.
// The format-specific parts (serialize, verify, deserialize, the root header's checks)
// stay in the two model classes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <fastwire/buffer.h>
#include <fastwire/endian.h>
#include <fastwire/limits.h>
#include <fastwire/status.h>

namespace fastwire {
namespace internal {

class model_bytes {
public:
    model_bytes() = default;
    explicit model_bytes(const limits& lim) : limits_(lim) {}

    // Views bytes owned by the caller, who keeps them alive and unchanged meanwhile.
    void attach(const void* data, std::size_t size) noexcept {
        ext_ = static_cast<const std::uint8_t*>(data);
        ext_size_ = size;
        own_ = false;
        pos_ = 0;
    }
    void attach(buffer_view v) noexcept { attach(v.data(), v.size()); }
    void attach(const std::vector<std::uint8_t>& v) noexcept { attach(v.data(), v.size()); }
    void attach(const ::fastwire::buffer& b) noexcept { attach(b.data(), b.size()); }
    // The model only views bytes: attaching a temporary would leave it dangling.
    void attach(std::vector<std::uint8_t>&&) = delete;
    void attach(::fastwire::buffer&&) = delete;

    // The owned buffer (what serialize() wrote).
    const ::fastwire::buffer& buffer() const noexcept { return buffer_; }
    ::fastwire::buffer& buffer() noexcept { return buffer_; }

    // The viewed bytes from the current position on.
    buffer_view bytes() const noexcept { return buffer_view(data(), total()).subview(pos_); }

    // The size word of the model at the current position (0 when fewer than 4 bytes remain).
    std::size_t size() const noexcept { return total() - pos_ >= 4 ? load_le<std::uint32_t>(data() + pos_) : 0; }

    // Steps over n bytes, e.g. next(status.size()) to reach the following model.
    void next(std::size_t n) noexcept { pos_ = n < total() - pos_ ? pos_ + n : total(); }

    // Empties the owned buffer (keeping its capacity) and views it.
    void reset() noexcept {
        buffer_.clear();
        // Written only when they change: a model reset before each serialize() (the usual
        // loop) then makes one store here instead of three (measured: storing both every
        // time was slower). One test for both, after which own_ is known to be set, so
        // the append() of the serialize() that follows needs no test of its own.
        if (!own_ || pos_ != 0) {
            own_ = true;
            pos_ = 0;
        }
    }

    const limits& get_limits() const noexcept { return limits_; }
    void set_limits(const limits& lim) noexcept { limits_ = lim; }

protected:
    const std::uint8_t* data() const noexcept { return own_ ? buffer_.data() : ext_; }
    std::size_t total() const noexcept { return own_ ? buffer_.size() : ext_size_; }
    // The model at the current position.
    const std::uint8_t* current() const noexcept { return data() + pos_; }
    // The bytes from the current position to the end.
    std::size_t avail() const noexcept { return total() - pos_; }

    // n uninitialised bytes at the end of the owned buffer, which the model views from now
    // on (serialize after attach switches back to the owned buffer).
    std::uint8_t* append(std::size_t n) {
        if (!own_) {
            own_ = true;
            pos_ = 0;
        }
        return buffer_.append(n);
    }

    // serialize()'s two paths. has_room(n) switches the model to its owned buffer and
    // tells whether that takes n more bytes without growing; if so append_in_room(n)
    // appends them with no further check, otherwise make_room(n) (out of line) grows it
    // first. Split so that a reused model's serialize() calls nothing: a small struct is
    // written by a function with no stack frame to set up. (n >= 1, as every model has:
    // n - 1 keeps a zero n, and so a null buffer, off the path that writes.)
    bool has_room(std::size_t n) noexcept {
        if (!own_) {
            own_ = true;
            pos_ = 0;
        }
        return n - 1 < buffer_.capacity() - buffer_.size();
    }
    std::uint8_t* append_in_room(std::size_t n) noexcept { return buffer_.append_in_capacity(n); }
    void make_room(std::size_t n) { buffer_.reserve_more(n); }
    // serialize() of model M when the owned buffer must grow first: it grows, then M's
    // serialize() has room (one copy of the writing code, inlined in serialize()).
    template <class M, class S>
    FASTWIRE_NOINLINE static std::size_t serialize_growing(M& model, std::size_t n, const S& value) {
        model.make_room(n);
        return model.serialize(value);
    }

    // The checks every root header needs: 8 bytes present, a declared size within the
    // limit, within the bytes given, and at least `min_size`. full = the declared size.
    errc root_size(std::size_t min_size, std::size_t& full) const noexcept {
        const std::size_t avail = total() - pos_;
        if (avail < 8) return errc::truncated;
        full = load_le<std::uint32_t>(current());
        if (full > limits_.max_message_size) return errc::too_large;
        if (full > avail) return errc::truncated;
        if (full < min_size) return errc::bad_size;
        return errc::ok;
    }

    limits limits_;

private:
    ::fastwire::buffer buffer_;
    const std::uint8_t* ext_ = nullptr;
    std::size_t ext_size_ = 0;
    std::size_t pos_ = 0;
    bool own_ = true;
};

}  // namespace internal
}  // namespace fastwire
