// fastwire/final_model.h - the final (compact) root model: one struct as a message.
//
// Layout (spec §3): [u32 size][u32 type][fields…], size = 8 + the fields' bytes, so the
// first word covers the whole model. final_model<S> has the API of model<S> (model.h):
// it owns a buffer to serialize into, can instead be attached to bytes owned by the
// caller, and steps from one model to the next in a stream with next().
//
//   proto::AccountFinalModel writer;           // = fastwire::final_model<proto::Account>
//   writer.serialize(account);                 // 152 for the seed account
//   proto::AccountFinalModel reader;
//   reader.attach(writer.buffer());
//   if (fastwire::status s = reader.deserialize(account); !s) std::cerr << s.message();
//
// serialize() computes the exact size, grows the buffer once and writes every byte
// through a cursor. verify() and deserialize() are safe on any input (docs/security.md):
// every length and count is checked against the bytes that remain, zero-size elements
// against limits::max_zero_size_elements, nesting against limits::max_depth, and the
// fields must end exactly at the declared size. deserialize() makes those checks itself,
// so a prior verify() is not needed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include <fastwire/buffer.h>
#include <fastwire/endian.h>
#include <fastwire/final.h>
#include <fastwire/internal/model_bytes.h>
#include <fastwire/limits.h>
#include <fastwire/status.h>

namespace fastwire {
namespace final {

// A root model in two steps, so that model<S>::serialize() and the protocol's senders
// (protocol.h) share it whatever buffer they write to:
//   const std::size_t n = model_size(value);   // throws std::length_error above 4 GiB - 1
//   write_root(out.append(n), n, value);       // all n bytes (uninitialised before)
template <class S>
FASTWIRE_INLINE std::size_t model_size(const S& value) {
    const std::size_t n = 8 + codec<S>::size(value);
    if (n > UINT32_MAX) throw std::length_error("fastwire: message larger than 4 GiB");  // the size word is 32-bit
    return n;
}
// A small root struct is written where this is called, with no call (codec::write_inline).
template <class S>
FASTWIRE_INLINE void write_root(std::uint8_t* start, std::size_t n, const S& value) noexcept {
    store_le<std::uint32_t>(start, static_cast<std::uint32_t>(n));
    store_le<std::uint32_t>(start + 4, struct_schema<S>::type);
    codec<S>::write_inline(start + 8, value);
}

template <class S>
class model : public ::fastwire::internal::model_bytes {
    static_assert(is_struct_v<S>, "final_model<S> needs a struct_schema<S> specialisation");
    using C = codec<S>;

public:
    using value_type = S;

    model() = default;
    explicit model(const limits& lim) : model_bytes(lim) {}

    // The struct's type number.
    static constexpr std::uint32_t type() noexcept { return struct_schema<S>::type; }

    // Appends `value` as a root model to the owned buffer and views the owned buffer.
    // Returns the model's size. Throws std::length_error above 4 GiB - 1 (the size word is
    // 32-bit) and std::bad_alloc when memory runs out.
    FASTWIRE_INLINE std::size_t serialize(const S& value) {
        const std::size_t n = model_size(value);
        if (!FASTWIRE_LIKELY(has_room(n))) return serialize_growing(*this, n, value);
        write_root(append_in_room(n), n, value);
        return n;
    }

    // Checks the model at the current position. On success the status holds its size.
    FASTWIRE_INLINE status verify() const noexcept {
        std::size_t full;
        if (!quick_root(full)) return header_error();
        const std::uint8_t* msg = current();
        reader r(limits_);
        return finish(r, C::verify_inline(r, msg + 8, msg + full, depth_limit(limits_)), msg + full, full);
    }

    // Reads the model at the current position into `value`, reusing its memory. Safe on
    // malformed input: returns an error status (then `value` is valid but unspecified).
    // Inlined where called, with the root struct's own fields (nested structs are calls):
    // a small message is read with no call and no stack frame.
    FASTWIRE_INLINE status deserialize(S& value) const {
        std::size_t full;
        if (!quick_root(full)) return header_error();
        const std::uint8_t* msg = current();
        reader r(limits_);
        return finish(r, C::read_inline(r, msg + 8, msg + full, depth_limit(limits_), value), msg + full, full);
    }

private:
    // The walk stopped at `at`: it must have consumed exactly the declared size.
    static status finish(const reader& r, cursor at, cursor end, std::size_t full) noexcept {
        if (!at) return r.error;
        if (at != end) return errc::bad_size;  // bytes left over inside the declared size
        return status(errc::ok, full);
    }

    // The root header's checks on the hot path, as few as they can be: the size and type
    // words are one 8-byte load and one compare against the bytes given (capped by the
    // limit). True: the header is S's (type, 8 + min_size <= size <= the bytes given and
    // the limit) and full = its size. A struct of fixed-size fields has a known size:
    // only exactly that size passes, and its (compile-time) nesting is checked against
    // the depth limit here too. False: the model is malformed, header_error() says why.
    FASTWIRE_INLINE bool quick_root(std::size_t& full) const noexcept {
        constexpr std::size_t lo = 8 + C::min_size;
        static_assert(lo <= UINT32_MAX, "the size word is 32-bit");
        constexpr std::uint64_t want = (std::uint64_t{struct_schema<S>::type} << 32) | lo;
        std::size_t cap = avail();
        if (cap > limits_.max_message_size) cap = limits_.max_message_size;
        if constexpr (C::fixed) {
            if (cap < lo || load_le<std::uint64_t>(current()) != want || depth_limit(limits_) < C::levels) return false;
        } else {
            if (cap > UINT32_MAX) cap = UINT32_MAX;
            if (cap < lo) return false;
            // head - want: the size beyond lo when the type matches and size >= lo; any
            // other type or a smaller size wraps to at least 2^32 - lo > cap - lo.
            const std::uint64_t head = load_le<std::uint64_t>(current());
            if (head - want > cap - lo) return false;
            full = static_cast<std::uint32_t>(head);
            return true;
        }
        full = lo;
        return true;
    }

    // Why quick_root() failed: the header's error, or for a struct of fixed-size fields
    // with a sound header, too deep a nesting or a size other than its fields' (which the
    // walk would find at the end, as bad_size, or an error in the fields before it).
    FASTWIRE_COLD status header_error() const noexcept {
        std::size_t full;
        if (const errc e = root(full); e != errc::ok) return e;
        if (depth_limit(limits_) < C::levels) return errc::too_deep;
        return errc::bad_size;
    }

    // Checks the root header; full = the declared size.
    errc root(std::size_t& full) const noexcept {
        if (const errc e = root_size(8, full); e != errc::ok) return e;
        if (load_le<std::uint32_t>(current() + 4) != type()) return errc::bad_type;
        if (full - 8 < C::min_size) return errc::truncated;  // the fields' fixed parts do not fit
        return errc::ok;
    }
};

}  // namespace final

// The final format's root model, with the API of model<S>.
template <class S>
using final_model = final::model<S>;

}  // namespace fastwire
