// codec.h — the adapter interface every peer implements, once per data set.
//
// A peer (a serializer, one row of the report) provides a Codec<Model> for each data set
// it can express, where Model is the data set's canonical type from datasets/models.h.
// The harness drives it like this:
//
//   codec.load(value);                       // untimed: build the peer's native object
//   ByteView bytes = codec.serialize();      // timed: native object -> bytes
//   codec.verify(bytes);                     // timed, only if the peer has a verifier
//   codec.deserialize(bytes);                // timed: bytes -> reused native object
//   codec.deserialize_fresh(bytes);          // timed: bytes -> new native object
//   codec.store(out);                        // untimed: reused native object -> canonical
//   codec.read_few(bytes);                   // timed: "read a few fields" (see Few)
//
// "Native object" is the type a user of that library would hold: the generated message
// for Protobuf and Thrift, the Object-API `T` for FlatBuffers; the canonical struct
// itself for libraries that serialize C++ types directly (Cereal, Boost, msgpack, JSON,
// handwritten) and for libraries without an owning object type (Cap'n Proto, SBE), whose
// serialize then includes building the message. Each adapter states its choice in
// PeerInfo::notes, which the report prints.
//
// Rules for implementers:
//  - serialize() returns a view of a buffer owned by the codec, valid until the next call.
//    Reuse that buffer across calls (no fresh allocation per call unless the library
//    forces one, and then say so in notes).
//  - deserialize() and deserialize_fresh() must read every field (lazy formats copy the
//    values out), and throw DecodeError on malformed input instead of returning garbage.
//  - The object deserialize() fills must be different from the one load() filled, so that
//    serialize benchmarks always encode the loaded value.
//  - verify() is only called when PeerInfo::verifier is non-empty.
//  - read_few(): the "read a few fields" scenario (Few). Peers with a zero-copy reader
//    (FlatBuffers, Cap'n Proto, fastwire's views) override it, read the fields straight
//    from the bytes and return them with `in_place = true`; the check compares them with
//    the data set's. The default is the normal parse: deserialize() into the reused
//    object (reading three fields out of it afterwards costs next to nothing).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace fwb {

struct ByteView {
    const uint8_t* data = nullptr;
    size_t size = 0;
};

class DecodeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// What a row is: the report groups and baselines by it.
enum class Kind {
    binary,    // a binary serializer (candidate for the memcpy floor's source)
    text,      // JSON
    floor,     // memcpy of the smallest binary encoding
    baseline,  // the handwritten encoder/decoder
};

struct PeerInfo {
    std::string name;    // unique row name, e.g. "protobuf-arena"
    std::string family;  // directory under bench/peers/, e.g. "protobuf"
    Kind kind = Kind::binary;
    std::string version;   // library version as compiled in
    std::string verifier;  // what verify() checks; empty if the peer has no verifier
    std::string notes;     // what exactly serialize/deserialize measure for this row
};

// Makes `p`'s pointee observable, so a fresh object decoded and dropped inside
// deserialize_fresh() cannot be optimized away.
inline void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

// The "read a few fields" scenario, per data set (few_fields() in cases.cpp says which):
// monsters: hp, mana and name of every monster; record: the first and the last id and the
// last string; account: uid, wallet.amount and name. a and b sum the scalars; text sums
// each string's length and first byte (so its bytes are reached).
struct Few {
    int64_t a = 0;
    int64_t b = 0;
    uint64_t text = 0;
    bool in_place = false;  // read from the bytes (zero-copy reader), not by a full parse

    void add_text(const char* s, size_t n) { text += n + (n ? static_cast<unsigned char>(s[0]) : 0u); }
    bool operator==(const Few& o) const { return a == o.a && b == o.b && text == o.text; }
};

template <class Model>
class Codec {
public:
    virtual ~Codec() = default;
    virtual void load(const Model& value) = 0;
    virtual ByteView serialize() = 0;
    virtual bool verify(ByteView) { return true; }
    virtual void deserialize(ByteView bytes) = 0;
    virtual void deserialize_fresh(ByteView bytes) = 0;
    virtual void store(Model& out) const = 0;
    virtual Few read_few(ByteView bytes) {
        deserialize(bytes);
        return {};
    }
    // True for a row that only times read_few() (a second way of reading, such as a
    // reader without its verifier); its other ops are not timed.
    virtual bool read_few_only() const { return false; }
};

}  // namespace fwb
