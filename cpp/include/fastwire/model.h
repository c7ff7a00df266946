// fastwire/model.h - the versioned root model: one struct as a self-contained message.
//
// Layout (spec §2.4): [u32 full_size][u32 8][struct body…][heap…]. model<S> owns a
// buffer to serialize into and can instead be attached to bytes owned by the caller;
// several models may follow each other in one buffer (next() steps over one).
//
//   proto::AccountModel writer;                // = fastwire::model<proto::Account>
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
//
// view() reads fields in place instead (view.h): no copy, no allocation; it never reads
// outside the bytes, and shows the message's values when they passed verify():
//   if (reader.verify()) { proto::AccountView v = reader.view(); v.wallet().currency(); }
//   if (auto v = reader.checked_view()) v->uid();   // verify(), then a view that checks nothing
//                                                   // more (proto::AccountTrustedView)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

#include <fastwire/buffer.h>
#include <fastwire/endian.h>
#include <fastwire/internal/model_bytes.h>
#include <fastwire/limits.h>
#include <fastwire/status.h>
#include <fastwire/versioned.h>
#include <fastwire/view.h>

namespace fastwire {
namespace versioned {

// A root model in two steps, so that model<S>::serialize() and the protocol's senders
// (protocol.h) share it whatever buffer they write to:
//   const std::size_t n = model_size(value);   // throws std::length_error above 4 GiB - 1
//   write_root(out.append(n), n, value);       // all n bytes (uninitialised before)
template <class S>
FASTWIRE_INLINE std::size_t model_size(const S& value) {
    const std::size_t n = 8 + codec<S>::extra(value);
    if (n > UINT32_MAX) throw std::length_error("fastwire: message larger than 4 GiB");  // offsets are 32-bit
    return n;
}
template <class S>
void write_root(std::uint8_t* start, std::size_t n, const S& value) noexcept {
    store_le<std::uint32_t>(start, static_cast<std::uint32_t>(n));
    writer w{start + 8};
    codec<S>::write(w, start + 4, start, value);
}

template <class S>
class model : public ::fastwire::internal::model_bytes {
    static_assert(is_struct_v<S>, "model<S> needs a struct_schema<S> specialisation");
    using C = codec<S>;

public:
    using value_type = S;

    model() = default;
    explicit model(const limits& lim) : model_bytes(lim) {}

    // The struct's type number.
    static constexpr std::uint32_t type() noexcept { return struct_schema<S>::type; }

    // Appends `value` as a root model to the owned buffer and views the owned buffer.
    // Returns the model's size. Throws std::length_error above 4 GiB - 1 (offsets are
    // 32-bit) and std::bad_alloc when memory runs out.
    std::size_t serialize(const S& value) {
        const std::size_t n = model_size(value);
        if (!FASTWIRE_LIKELY(has_room(n))) return serialize_growing(*this, n, value);
        write_root(append_in_room(n), n, value);
        return n;
    }

    // Checks the model at the current position. On success the status holds its size.
    status verify() const noexcept {
        std::size_t full;
        const errc e = root(full);
        if (e != errc::ok) return e;
        reader r(current(), full);
        if (flat()) return finish(r, C::verify(r, 4, 0, walk{budget(full)}), full);
        if constexpr (depth != 0)
            return verify_counting_cold(r, full);
        else
            return verify_counting(r, full);
    }

    // Reads the model at the current position into `value`, reusing its memory. Safe on
    // malformed input: returns an error status (then `value` is valid but unspecified).
    // A message laid out as this schema version's writers lay it out is read by the
    // canonical read (versioned.h), any other by the general walk, which alone reports
    // errors; the values are the same either way.
    status deserialize(S& value) const {
        std::size_t full;
        const errc e = root(full);
        if (e != errc::ok) return e;
        if constexpr (depth != 0) {
            if (FASTWIRE_LIKELY(flat() && read_canonical(full, value))) return status(errc::ok, full);
        }
        return deserialize_walk(full, value);
    }

    // The two halves of deserialize(), for tests that compare them. deserialize_canonical():
    // the canonical read alone; true when the message is laid out as this schema version's
    // writers lay it out (then `value` holds it, as deserialize() gives it), false for any
    // other message, recursive types and a max_depth below the schema's (then `value` is
    // partly overwritten and nothing is reported). deserialize_general(): the general walk
    // alone, with deserialize()'s results on every input.
    bool deserialize_canonical(S& value) const {
        std::size_t full;
        if (root(full) != errc::ok) return false;
        if constexpr (depth != 0)
            return flat() && read_canonical(full, value);
        else
            return false;
    }
    status deserialize_general(S& value) const {
        std::size_t full;
        const errc e = root(full);
        if (e != errc::ok) return e;
        return deserialize_walk(full, value);
    }

    // The struct view (S's generated view class, view.h) of the model at the current
    // position. It never reads outside the bytes; on bytes that fail verify() it may show
    // unspecified values (view.h, "Safety").
    auto view() const noexcept { return root_view<S>(current(), bytes().size()); }

    // The same view without any check (S's trusted view, view.h): only for a model that
    // passed verify() and has not changed since; on other bytes it can read outside them.
    auto trusted_view() const noexcept { return root_view<S, versioned::trusted>(current(), bytes().size()); }

    // verify(), then the trusted view (the checks verify() made are not made again);
    // std::nullopt when the bytes fail verify().
    auto checked_view() const noexcept {
        using V = decltype(trusted_view());
        return verify() ? std::optional<V>(trusted_view()) : std::optional<V>();
    }

    // A mutable view (set_x() for fixed-size fields) of the model at the current position
    // of the owned buffer, as serialize() wrote it. Not for an attached model: its bytes
    // are the caller's (make the mutable view from a view of them instead).
    auto mutable_view() noexcept {
        return root_mutable_view<S>(buffer().data() + (current() - data()), bytes().size());
    }

private:
    static constexpr std::uint32_t depth = schema_depth_v<S>;

    // The canonical read of the whole model (full >= 16 bytes); false when it is not
    // canonical, with `value` partly overwritten.
    bool read_canonical(std::size_t full, S& value) const {
        const std::uint8_t* m = current();
        if (full - 8 < C::heap_min) return false;
        return C::canon_read(m + 4, m, m + 8, m + full, value) != nullptr;
    }

    // Out of line: a message that fastwire wrote takes the canonical read, and the walk
    // inlined into deserialize() would keep deserialize() from being inlined where called.
    FASTWIRE_NOINLINE status deserialize_walk(std::size_t full, S& value) const {
        reader r(current(), full);
        if (flat()) return finish(r, C::read(r, 4, 0, walk{budget(full)}, value), full);
        if constexpr (depth != 0)
            return read_counting_cold(r, full, value);
        else
            return read_counting(r, full, value);
    }

    // True when the schema bounds S's nesting within the limit, so the walk need not count
    // levels (versioned.h, walk): a register and a branch less per struct.
    bool flat() const noexcept { return depth != 0 && depth <= depth_limit(limits_); }

    // The walk of a whole message may visit every byte after the 8-byte root header once.
    static std::int64_t budget(std::size_t full) noexcept { return static_cast<std::int64_t>(full) - 8; }

    // Counting walks (deep_walk): the only kind for recursive types (depth 0); for the
    // others only when the limit is below the schema's depth, hence the cold entries.
    deep_walk counting(std::size_t full) const noexcept { return deep_walk{budget(full), depth_limit(limits_)}; }
    status read_counting(reader& r, std::size_t full, S& value) const {
        return finish(r, C::read(r, 4, 0, counting(full), value), full);
    }
    status verify_counting(reader& r, std::size_t full) const noexcept {
        return finish(r, C::verify(r, 4, 0, counting(full)), full);
    }
    FASTWIRE_COLD status read_counting_cold(reader& r, std::size_t full, S& value) const {
        return read_counting(r, full, value);
    }
    FASTWIRE_COLD status verify_counting_cold(reader& r, std::size_t full) const noexcept {
        return verify_counting(r, full);
    }

    template <class W>
    static status finish(const reader& r, W w, std::size_t full) noexcept {
        if (w.ok()) return status(errc::ok, full);
        return r.error != errc::ok ? r.error : errc::over_budget;
    }

    // Checks the root header; full = full_size.
    errc root(std::size_t& full) const noexcept {
        return root_size(reader::min_size, full);  // the header and the smallest body
    }
};

}  // namespace versioned

// The default format is the versioned one.
template <class S>
using model = versioned::model<S>;

}  // namespace fastwire
