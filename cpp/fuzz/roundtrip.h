// roundtrip.h - the body of the format fuzz targets (fuzz_versioned.cpp, fuzz_final.cpp).
//
// The first input byte picks one of the generated types of schemas/everything.fbe (which
// imports proto and protoex); the rest is a message of that type. For any bytes:
// verify() and deserialize() must agree; when they accept, the value must serialize,
// verify, deserialize and serialize again to the same bytes (the same size when the type
// holds hash maps, whose order is unspecified). Versioned: deserialize() (the canonical read
// first, versioned.h) gives what the general walk alone gives - the same status and the
// same value (its bytes, or its size with hash maps) - and a message the canonical read
// accepts is accepted by the general walk. Any disagreement aborts, which libFuzzer
// reports as a crash; ASan and UBSan report any stray access.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>

#include "everything_models.h"

namespace fuzz {

[[noreturn]] inline void fail(const char* what) {
    std::fprintf(stderr, "fastwire fuzz: %s\n", what);
    std::abort();
}

// a and b serialize to the same bytes (the same size only when !exact).
template <class S>
void same_bytes(const S& a, const S& b, bool exact, const char* what) {
    fastwire::versioned::model<S> ma, mb;
    const std::size_t n = ma.serialize(a);
    if (mb.serialize(b) != n || (exact && std::memcmp(ma.buffer().data(), mb.buffer().data(), n) != 0)) fail(what);
}

template <class S>
void same_as_general(const fastwire::versioned::model<S>& reader, const S& value, fastwire::status read, bool ordered) {
    S general{};
    const fastwire::status walked = reader.deserialize_general(general);
    if (walked.code() != read.code() || walked.size() != read.size()) fail("deserialize and the general walk disagree");
    if (!walked) {
        S canonical{};
        if (reader.deserialize_canonical(canonical)) fail("the canonical read accepts what the general walk rejects");
        return;
    }
    // A body older than the schema's gets its missing fields' defaults, and a timestamp
    // defaulting to `utc` is the time it was made: when a second general read differs from
    // the first, only sizes are compared.
    S again{};
    (void)reader.deserialize_general(again);
    fastwire::versioned::model<S> m1, m2;
    const std::size_t n = m1.serialize(general);
    const bool exact =
        ordered && m2.serialize(again) == n && std::memcmp(m1.buffer().data(), m2.buffer().data(), n) == 0;
    same_bytes(value, general, exact, "deserialize and the general walk read different values");
    S canonical{};
    if (reader.deserialize_canonical(canonical))
        same_bytes(canonical, general, exact, "the canonical read and the general walk read different values");
}

template <template <class> class model, class S>
void round_trip(const std::uint8_t* data, std::size_t size, bool ordered) {
    fastwire::limits lim;
    lim.max_message_size = std::size_t{1} << 20;  // keeps the fuzzer's memory bounded
    model<S> reader(lim);
    reader.attach(data, size);
    const fastwire::status verdict = reader.verify();
    S value{};
    const fastwire::status read = reader.deserialize(value);
    if (verdict.code() != read.code()) fail("verify and deserialize disagree");
    if constexpr (std::is_same_v<model<S>, fastwire::versioned::model<S>>)
        same_as_general(reader, value, read, ordered);
    if (!verdict) return;
    if (verdict.size() != read.size() || verdict.size() > size) fail("accepted size is wrong");

    model<S> first;
    const std::size_t n = first.serialize(value);
    const fastwire::status again = first.verify();
    if (!again || again.size() != n) fail("a re-serialized message does not verify");
    S back{};
    if (!first.deserialize(back)) fail("a re-serialized message does not deserialize");
    model<S> second;
    if (second.serialize(back) != n) fail("serialize -> deserialize -> serialize changed the size");
    if (ordered && std::memcmp(first.buffer().data(), second.buffer().data(), n) != 0)
        fail("serialize -> deserialize -> serialize changed the bytes");
}

template <template <class> class model>
int one_input(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t pick = data[0];
    // An exact-size copy, so that ASan sees a read one byte past the message.
    std::unique_ptr<std::uint8_t[]> msg(new std::uint8_t[size]);
    std::memcpy(msg.get(), data + 1, size - 1);
    const std::uint8_t* p = msg.get();
    const std::size_t n = size - 1;
    switch (pick % 12) {
        case 0: round_trip<model, proto::Account>(p, n, true); break;
        case 1: round_trip<model, proto::Order>(p, n, true); break;
        case 2: round_trip<model, proto::Balance>(p, n, true); break;
        case 3: round_trip<model, everything::Primitives>(p, n, true); break;
        case 4: round_trip<model, everything::Optionals>(p, n, true); break;
        case 5: round_trip<model, everything::Collections>(p, n, false); break;
        case 6: round_trip<model, everything::ExAccount>(p, n, true); break;
        case 7: round_trip<model, everything::MoreDerived>(p, n, true); break;
        case 8: round_trip<model, everything::Wallet>(p, n, true); break;
        case 9: round_trip<model, everything::PingRequest>(p, n, true); break;
        case 10: round_trip<model, everything::Empty>(p, n, true); break;
        default: round_trip<model, protoex::Account>(p, n, true); break;
    }
    return 0;
}

}  // namespace fuzz
