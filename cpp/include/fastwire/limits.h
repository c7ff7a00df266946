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
// What is bounded (see cpp/README.md, "Safety"):
// - max_depth: structs nested inside structs (each struct body entered counts one).
// - max_message_size: the full_size a root model may declare.
// - Counts are always checked against the bytes that remain (count x the element's slot
//   size must fit), and the bytes visited by a walk may not exceed the message size, so
//   verify work and deserialize allocation grow linearly with the message.
// - max_zero_size_elements: the final format (issue 4) has elements of zero wire size
//   (an empty struct); their count is capped separately. The versioned format has no
//   zero-size element (every slot is at least one byte), so it never consults this.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fastwire {

struct limits {
    std::uint32_t max_depth = 64;
    std::size_t max_message_size = std::size_t{64} * 1024 * 1024;
    std::size_t max_zero_size_elements = std::size_t{1} << 16;
};

}  // namespace fastwire
