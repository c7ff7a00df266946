// test_alloc.h - a counting allocator for the tests of untrusted input.
//
// test_malformed.cpp replaces the global operator new/delete of the fastwire_tests binary;
// while a Counting scope is alive on a thread, every allocation made on that thread adds
// its size to the count. Used to prove that rejecting a hostile message allocates almost
// nothing, and that reading an accepted one allocates at most a small multiple of it.
//
//   { Counting c; model.deserialize(v); EXPECT_LE(c.bytes(), 64u * 1024); }
#pragma once

#include <cstddef>

namespace testalloc {

inline thread_local bool counting = false;
inline thread_local std::size_t allocated = 0;

}  // namespace testalloc

struct Counting {
    Counting() {
        testalloc::allocated = 0;
        testalloc::counting = true;
    }
    ~Counting() { testalloc::counting = false; }
    Counting(const Counting&) = delete;
    Counting& operator=(const Counting&) = delete;
    std::size_t bytes() const { return testalloc::allocated; }
};
