// fastwire/limits.h - the bounds applied to untrusted input.
//
// verify() and deserialize() reject a message that exceeds these limits before doing
// the work it asks for. The defaults are safe for data from the network; raise them per
// model when a larger message is expected.
//
//   fastwire::limits lim;
//   lim.max_message_size = 1u << 30;   // 1 GiB
//   proto::AccountModel reader(lim);
//
// What is bounded (docs/security.md has the whole contract):
// - max_depth: structs nested inside structs (each struct entered counts, the root too);
//   capped at max_depth_cap (4096), what the stack is known to hold.
// - max_message_size: the size a root model (or a protocol message) may declare.
// - max_zero_size_elements: the final format has elements of zero wire size (empty
//   structs); the bytes cannot bound their count, so the count summed over the whole
//   message is capped instead. The versioned format has no zero-size element (every slot
//   is at least one byte), so it never consults this.
// - Everything else is bounded by the message: a count must fit (count x the element's
//   minimum wire size <= the bytes that remain), and a versioned walk may not visit more
//   bytes than the message holds, so verify work and deserialize allocation grow linearly
//   with the message.
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <cstddef>
#include <cstdint>

namespace fastwire {

struct limits {
    std::uint32_t max_depth = 64;  // at most max_depth_cap takes effect
    std::size_t max_message_size = std::size_t{64} * 1024 * 1024;
    std::size_t max_zero_size_elements = std::size_t{1} << 16;
};

// The deepest nesting any reader walks, whatever max_depth says: the walks recurse once
// per level, so a limit raised without bound would turn deep input into a stack overflow.
// A level takes about 150 bytes of stack (GCC 12, -O2; about 1.3 KiB under ASan at -O0,
// where nothing is inlined: internal/wire.h), so 4096 levels need about 0.6 MiB (5.3 MiB
// under ASan): within a main thread's 8 MiB and glibc's default thread stack (measured on
// the deepest walk, the versioned read of a chain through a vector and an optional, with
// `ulimit -s`). cpp/tests/test_adversarial.cpp reads data nested this deep, in every
// format, under ASan.
inline constexpr std::uint32_t max_depth_cap = 4096;

// The depth limit a reader applies: max_depth, at most max_depth_cap.
constexpr std::uint32_t depth_limit(const limits& lim) noexcept {
    return lim.max_depth < max_depth_cap ? lim.max_depth : max_depth_cap;
}

}  // namespace fastwire
