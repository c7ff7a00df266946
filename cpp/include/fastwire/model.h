// fastwire/model.h - the versioned root model: one struct as a self-contained message.
//
// Layout (spec §2.4): [u32 full_size][u32 8][struct body…][heap…]. Model<S> owns a
// buffer to serialize into and can instead be attached to bytes owned by the caller;
// several models may follow each other in one buffer (next() steps over one).
//
//   proto::AccountModel writer;                // = fastwire::Model<proto::Account>
//   writer.serialize(account);                 // returns full_size (252 for the seed account)
//   assert(writer.verify());
//   proto::AccountModel reader;
//   reader.attach(writer.buffer());
//   assert(reader.verify());
//   reader.deserialize(account);               // fastwire::status; reuses account's capacity
//
// serialize() appends at the end of the owned buffer (reset() empties it): the exact size
// is computed first, the buffer grows once, and every byte is then written through a
// cursor (no zero-fill). verify() and deserialize() work on the model at the current
// position and are safe on any input: a malformed message yields an error status.
// deserialize() does not need a prior verify(); it makes the same checks as it reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fastwire/buffer.h>
#include <fastwire/endian.h>
#include <fastwire/limits.h>
#include <fastwire/status.h>
#include <fastwire/versioned.h>

namespace fastwire {
namespace versioned {

template <class S>
class Model {
    static_assert(is_struct_v<S>, "Model<S> needs a struct_schema<S> specialisation");
    using C = codec<S>;

public:
    using value_type = S;

    Model() = default;
    explicit Model(const limits& lim) : limits_(lim) {}

    // The struct's type number.
    static constexpr std::uint32_t type() noexcept { return struct_schema<S>::type; }

    // Appends `value` as a root model to the owned buffer and views the owned buffer.
    // Returns the model's size. Throws std::length_error above 4 GiB - 1 (offsets are
    // 32-bit) and std::bad_alloc when memory runs out.
    std::size_t serialize(const S& value) {
        const std::size_t n = 8 + C::extra(value);
        if (n > UINT32_MAX) throw std::length_error("fastwire: message larger than 4 GiB");
        if (!own_) {
            own_ = true;
            pos_ = 0;
        }
        std::uint8_t* start = buffer_.append(n);
        store_le<std::uint32_t>(start, static_cast<std::uint32_t>(n));
        Writer w{start + 8};
        C::write(w, start + 4, start, value);
        return n;
    }

    // Checks the model at the current position. On success the status holds its size.
    status verify() const noexcept {
        std::size_t full;
        const errc e = root(full);
        if (e != errc::ok) return e;
        Reader r(data() + pos_, full);
        if (!C::verify(r, 4, 0, start(full)).ok()) return failure(r);
        return status(errc::ok, full);
    }

    // Reads the model at the current position into `value`, reusing its memory. Safe on
    // malformed input: returns an error status (then `value` is valid but unspecified).
    status deserialize(S& value) const {
        std::size_t full;
        const errc e = root(full);
        if (e != errc::ok) return e;
        Reader r(data() + pos_, full);
        if (!C::read(r, 4, 0, start(full), value).ok()) return failure(r);
        return status(errc::ok, full);
    }

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
    buffer_view view() const noexcept { return buffer_view(data(), total()).subview(pos_); }

    // The full_size of the model at the current position (0 when fewer than 4 bytes remain).
    std::size_t size() const noexcept {
        return total() - pos_ >= 4 ? load_le<std::uint32_t>(data() + pos_) : 0;
    }

    // Steps over n bytes, e.g. next(status.size()) to reach the following model.
    void next(std::size_t n) noexcept { pos_ = n < total() - pos_ ? pos_ + n : total(); }

    // Empties the owned buffer (keeping its capacity) and views it.
    void reset() noexcept {
        buffer_.clear();
        own_ = true;
        pos_ = 0;
    }

    const limits& get_limits() const noexcept { return limits_; }
    void set_limits(const limits& lim) noexcept { limits_ = lim; }

private:
    const std::uint8_t* data() const noexcept { return own_ ? buffer_.data() : ext_; }
    std::size_t total() const noexcept { return own_ ? buffer_.size() : ext_size_; }

    // The walk of a whole message: it may visit every byte after the 8-byte root header
    // once, and enter limits::max_depth structs.
    Walk start(std::size_t full) const noexcept {
        return Walk{static_cast<std::int64_t>(full) - 8, limits_.max_depth};
    }
    static errc failure(const Reader& r) noexcept { return r.error != errc::ok ? r.error : errc::over_budget; }

    // Checks the root header; full = full_size.
    errc root(std::size_t& full) const noexcept {
        const std::size_t avail = total() - pos_;
        if (avail < 8) return errc::truncated;
        full = load_le<std::uint32_t>(data() + pos_);
        if (full > limits_.max_message_size) return errc::too_large;
        if (full > avail) return errc::truncated;
        if (full < Reader::min_size) return errc::bad_size;  // the header and the smallest body
        return errc::ok;
    }

    ::fastwire::buffer buffer_;
    const std::uint8_t* ext_ = nullptr;
    std::size_t ext_size_ = 0;
    std::size_t pos_ = 0;
    bool own_ = true;
    limits limits_;
};

}  // namespace versioned

// The default format is the versioned one.
template <class S>
using Model = versioned::Model<S>;

}  // namespace fastwire
