// test_canonical.h - the versioned deserialize() reads a message laid out as this schema
// version's writers lay it out with the canonical read (versioned.h) and any other with the
// general walk. expect_same_as_general() checks, for one message, that deserialize() gives
// exactly what the general walk alone (deserialize_general()) gives: the same status and,
// on success, the same value (compared by its serialized bytes, which show every field,
// NaN payloads included). The value is read both into a fresh target and into a reused one
// (`reused`, e.g. the golden message's value), since a message the canonical read gives up
// on is read again into a target it has partly overwritten. A reused hash map may iterate
// in another order than a fresh one, so there operator== (which these types define over
// every field, or over the keys for generated ones) stands in for the bytes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <fastwire/model.h>

#include "test_alloc.h"

namespace testcanon {

// a == b where S has operator==, else false (the bytes must then match).
template <class S, class = void>
struct equality {
    static bool same(const S&, const S&) { return false; }
};
template <class S>
struct equality<S, std::void_t<decltype(std::declval<const S&>() == std::declval<const S&>())>> {
    static bool same(const S& a, const S& b) { return a == b; }
};

template <class S>
std::vector<std::uint8_t> serialized_bytes(const S& v) {
    fastwire::versioned::model<S> m;
    m.serialize(v);
    return m.buffer().to_vector();
}

template <class S>
void expect_same_as_general(const fastwire::versioned::model<S>& m, const S* reused = nullptr, const char* what = "") {
    // Types without a schema depth (recursive ones, hand-written ones) never take the
    // canonical read: deserialize() is the general walk itself.
    if constexpr (fastwire::schema_depth_v<S> == 0) {
        (void)reused;
        (void)what;
        return;
    }
    // Not counted: the allocation bounds of the caller's tests are for one deserialize().
    struct Pause {
        bool was = testalloc::counting;
        Pause() { testalloc::counting = false; }
        ~Pause() { testalloc::counting = was; }
    } pause;
    S general{};
    const fastwire::status g = m.deserialize_general(general);
    S canonical{};
    const bool canon = m.deserialize_canonical(canonical);
    S fresh{};
    const fastwire::status d = m.deserialize(fresh);
    S target{};
    fastwire::status r = fastwire::errc::ok;
    if (reused) {
        target = *reused;
        r = m.deserialize(target);
    }
    // A body older than the schema's gets the defaults of its missing fields, and a
    // timestamp defaulting to `utc` is the time it was made: when a second general read
    // differs from the first, the values are compared by size only.
    S again{};
    (void)m.deserialize_general(again);
    const auto want = serialized_bytes(general);
    const bool exact = want == serialized_bytes(again);
    auto same = [&](const S& v) {
        const auto got = serialized_bytes(v);
        return exact ? got == want : got.size() == want.size();
    };

    if (canon) {  // then the general walk accepts it too, with the same values
        EXPECT_TRUE(g) << what << ": canonical, but the general walk rejects it: " << g.message();
        if (g) {
            EXPECT_TRUE(same(canonical)) << what << ": canonical values differ";
        }
    }
    EXPECT_EQ(d.code(), g.code()) << what << ": deserialize and the general walk disagree";
    if (d && g) {
        EXPECT_EQ(d.size(), g.size()) << what;
        EXPECT_TRUE(same(fresh)) << what << ": values differ";
    }
    if (reused) {
        EXPECT_EQ(r.code(), g.code()) << what << ": into a reused target";
        if (r && g) {
            EXPECT_TRUE(same(target) || equality<S>::same(target, general)) << what << ": reused target";
        }
    }
}

}  // namespace testcanon
