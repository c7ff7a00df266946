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
// - max_depth: structs nested inside structs (each struct entered counts, the root too).
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
    std::uint32_t max_depth = 64;
    std::size_t max_message_size = std::size_t{64} * 1024 * 1024;
    std::size_t max_zero_size_elements = std::size_t{1} << 16;
};

}  // namespace fastwire
