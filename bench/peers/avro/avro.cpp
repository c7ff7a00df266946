// avro — Apache Avro binary encoding through Avro C (libavro), its generic value interface.
//
// Avro C has no code generator, so the object a user holds is a generic value
// (avro_value_t) made from the parsed schema: that is the native object here, as the
// generated message is for Protobuf. The schema (<dataset>.avsc) is parsed once and its
// generic class made once, when the codec is created. load() fills the generic value from
// the canonical struct (untimed); serialize = avro_value_write into a reused memory writer
// over a reused buffer (avro_writer_memory_set_dest; the buffer doubles and the write is
// retried on ENOSPC, which happens only on the first calls); deserialize = avro_value_read
// from a reused memory reader into the reused generic value (it resets the value and keeps
// its storage); fresh = a new generic value per call. store() copies the generic value out
// (untimed). No verifier: reading checks lengths against the input.
//
// Type mapping (see the .avsc files): Avro has int (32-bit) and long (64-bit) zig-zag
// varints and no unsigned or 16-bit types, so int16 travels as int, uint32 as long and
// uint64 as long holding the same 64 bits; the account's `flags State` is an int (any bit
// combination, which an Avro enum cannot hold); the optional asset is a ["null", Balance]
// union; map<int32, string> is an array of {key, value} records because Avro map keys are
// strings. Avro C's memory reader does not expose its position, so trailing bytes after
// the value are not detected.
#include <avro.h>

#include <cerrno>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "../../harness/registry.h"
#include "../common/foreach.h"
#include "avro_schemas.h"

namespace fwb {
namespace {

[[noreturn]] void fail(const char* what) { throw DecodeError(std::string("avro: ") + what + ": " + avro_strerror()); }
inline void check(int rc, const char* what) {
    if (rc != 0) fail(what);
}

// The i-th field of a record, or the i-th item of an array.
avro_value_t child(avro_value_t& v, size_t i) {
    avro_value_t c;
    check(avro_value_get_by_index(&v, i, &c, nullptr), "get_by_index");
    return c;
}

// ---- canonical -> generic value
void put(avro_value_t v, int32_t x) { check(avro_value_set_int(&v, x), "set_int"); }
void put(avro_value_t v, int16_t x) { check(avro_value_set_int(&v, x), "set_int"); }
void put(avro_value_t v, int64_t x) { check(avro_value_set_long(&v, x), "set_long"); }
void put(avro_value_t v, uint32_t x) { check(avro_value_set_long(&v, x), "set_long"); }
void put(avro_value_t v, uint64_t x) { check(avro_value_set_long(&v, static_cast<int64_t>(x)), "set_long"); }
void put(avro_value_t v, float x) { check(avro_value_set_float(&v, x), "set_float"); }
void put(avro_value_t v, double x) { check(avro_value_set_double(&v, x), "set_double"); }
void put(avro_value_t v, const std::string& s) {
    // Avro C string sizes count the terminating NUL.
    check(avro_value_set_string_len(&v, s.c_str(), s.size() + 1), "set_string_len");
}
void put(avro_value_t v, const std::vector<uint8_t>& b) {
    // The generic bytes setter rejects a null pointer even for zero bytes (an empty vector's data()).
    static uint8_t none = 0;
    check(avro_value_set_bytes(&v, b.empty() ? &none : const_cast<uint8_t*>(b.data()), b.size()), "set_bytes");
}
void put(avro_value_t v, account::State s) { check(avro_value_set_int(&v, static_cast<int32_t>(s)), "set_int"); }
template <class E>
requires std::is_enum_v<E> void put(avro_value_t v, E e) {
    check(avro_value_set_enum(&v, static_cast<int>(e)), "set_enum");
}
template <class T>
requires std::is_class_v<T> void put(avro_value_t v, const T& x);  // records, below
template <class T>
void put(avro_value_t v, const std::vector<T>& xs) {
    check(avro_value_reset(&v), "reset");
    for (const auto& x : xs) {
        avro_value_t item;
        check(avro_value_append(&v, &item, nullptr), "append");
        put(item, x);
    }
}
template <class T>
void put(avro_value_t v, const std::optional<T>& x) {
    avro_value_t branch;
    check(avro_value_set_branch(&v, x ? 1 : 0, &branch), "set_branch");
    if (x)
        put(branch, *x);
    else
        check(avro_value_set_null(&branch), "set_null");
}
void put(avro_value_t v, const std::map<int32_t, std::string>& m) {
    check(avro_value_reset(&v), "reset");
    for (const auto& [key, value] : m) {
        avro_value_t entry;
        check(avro_value_append(&v, &entry, nullptr), "append");
        put(child(entry, 0), key);
        put(child(entry, 1), value);
    }
}

// ---- generic value -> canonical
template <class Int>
Int narrow(int64_t x) {
    if (x < std::numeric_limits<Int>::min() || x > std::numeric_limits<Int>::max())
        throw DecodeError("avro: integer out of range");
    return static_cast<Int>(x);
}
void get(avro_value_t v, int32_t& x) { check(avro_value_get_int(&v, &x), "get_int"); }
void get(avro_value_t v, int16_t& x) {
    int32_t t = 0;
    check(avro_value_get_int(&v, &t), "get_int");
    x = narrow<int16_t>(t);
}
void get(avro_value_t v, int64_t& x) { check(avro_value_get_long(&v, &x), "get_long"); }
void get(avro_value_t v, uint32_t& x) {
    int64_t t = 0;
    check(avro_value_get_long(&v, &t), "get_long");
    x = narrow<uint32_t>(t);
}
void get(avro_value_t v, uint64_t& x) {
    int64_t t = 0;
    check(avro_value_get_long(&v, &t), "get_long");
    x = static_cast<uint64_t>(t);
}
void get(avro_value_t v, float& x) { check(avro_value_get_float(&v, &x), "get_float"); }
void get(avro_value_t v, double& x) { check(avro_value_get_double(&v, &x), "get_double"); }
void get(avro_value_t v, std::string& s) {
    const char* p = nullptr;
    size_t n = 0;
    check(avro_value_get_string(&v, &p, &n), "get_string");
    s.assign(p, n ? n - 1 : 0);
}
void get(avro_value_t v, std::vector<uint8_t>& b) {
    const void* p = nullptr;
    size_t n = 0;
    check(avro_value_get_bytes(&v, &p, &n), "get_bytes");
    b.assign(static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
}
void get(avro_value_t v, account::State& s) {
    int32_t t = 0;
    check(avro_value_get_int(&v, &t), "get_int");
    s = static_cast<account::State>(narrow<uint8_t>(t));
}
template <class E>
requires std::is_enum_v<E> void get(avro_value_t v, E& e) {
    int t = 0;
    check(avro_value_get_enum(&v, &t), "get_enum");
    if (t < 0 || t >= avro_schema_enum_number_of_symbols(avro_value_get_schema(&v)))
        throw DecodeError("avro: enum index out of range");
    e = static_cast<E>(t);
}
template <class T>
requires std::is_class_v<T> void get(avro_value_t v, T& x);  // records, below
template <class T>
void get(avro_value_t v, std::vector<T>& xs) {
    size_t n = 0;
    check(avro_value_get_size(&v, &n), "get_size");
    xs.resize(n);
    for (size_t i = 0; i < n; ++i) get(child(v, i), xs[i]);
}
template <class T>
void get(avro_value_t v, std::optional<T>& x) {
    int which = 0;
    avro_value_t branch;
    check(avro_value_get_discriminant(&v, &which), "get_discriminant");
    check(avro_value_get_current_branch(&v, &branch), "get_current_branch");
    if (which == 0) {
        x.reset();
    } else {
        if (!x) x.emplace();
        get(branch, *x);
    }
}
void get(avro_value_t v, std::map<int32_t, std::string>& m) {
    size_t n = 0;
    check(avro_value_get_size(&v, &n), "get_size");
    m.clear();
    for (size_t i = 0; i < n; ++i) {
        avro_value_t entry = child(v, i);
        int32_t key = 0;
        std::string value;
        get(child(entry, 0), key);
        get(child(entry, 1), value);
        m.insert_or_assign(m.end(), key, std::move(value));
    }
}

// FWB_AVRO_RECORD(Type, fields...) — put/get for a record whose Avro fields are the
// listed struct fields, in schema order.
#define FWB_AVRO_PUT(f) put(child(v, i++), x.f);
#define FWB_AVRO_GET(f) get(child(v, i++), x.f);
#define FWB_AVRO_RECORD(T, ...)                 \
    template <>                                 \
    void put<T>(avro_value_t v, const T& x) {   \
        size_t i = 0;                           \
        FWB_FOR_EACH(FWB_AVRO_PUT, __VA_ARGS__) \
    }                                           \
    template <>                                 \
    void get<T>(avro_value_t v, T & x) {        \
        size_t i = 0;                           \
        FWB_FOR_EACH(FWB_AVRO_GET, __VA_ARGS__) \
    }

FWB_AVRO_RECORD(account::Order, uid, symbol, side, type, price, volume)
FWB_AVRO_RECORD(account::Balance, currency, amount)
FWB_AVRO_RECORD(account::Account, uid, name, state, wallet, asset, orders)
FWB_AVRO_RECORD(monsters::Vec3, x, y, z)
FWB_AVRO_RECORD(monsters::Weapon, name, damage)
FWB_AVRO_RECORD(monsters::Monster, pos, mana, hp, name, inventory, color, weapons, equipped, path)
FWB_AVRO_RECORD(monsters::Monsters, monsters)
FWB_AVRO_RECORD(record::Record, ids, strings)
FWB_AVRO_RECORD(ints::Ints, id, int1, int2, int3, int4)
FWB_AVRO_RECORD(mixed::Mixed, id, int1, int2, uint1, float1, text1, enum1)
FWB_AVRO_RECORD(complex::Complex, id, text1, text2, text3, int1, int2, int3, text4, enum1, float1, int4, uint1, uint2,
                int5, int6, float2, text5)
FWB_AVRO_RECORD(vec::ContainerVec, id, int1, text1, stringvec, intvec)
FWB_AVRO_RECORD(map::ContainerMap, id, int1, text1, map1)

template <class Model>
const char* schema_text();
template <>
const char* schema_text<account::Account>() {
    return fwb_avro_account_schema;
}
template <>
const char* schema_text<monsters::Monsters>() {
    return fwb_avro_monsters_schema;
}
template <>
const char* schema_text<record::Record>() {
    return fwb_avro_record_schema;
}
template <>
const char* schema_text<ints::Ints>() {
    return fwb_avro_ints_schema;
}
template <>
const char* schema_text<mixed::Mixed>() {
    return fwb_avro_mixed_schema;
}
template <>
const char* schema_text<complex::Complex>() {
    return fwb_avro_complex_schema;
}
template <>
const char* schema_text<vec::ContainerVec>() {
    return fwb_avro_vec_schema;
}
template <>
const char* schema_text<map::ContainerMap>() {
    return fwb_avro_map_schema;
}

template <class Model>
class AvroCodec final : public Codec<Model> {
public:
    AvroCodec() : buf_(4096) {
        const char* text = schema_text<Model>();
        if (avro_schema_from_json_length(text, std::strlen(text), &schema_) != 0) fail("schema");
        iface_ = avro_generic_class_from_schema(schema_);
        if (!iface_) fail("generic class");
        check(avro_generic_value_new(iface_, &src_), "value_new");
        check(avro_generic_value_new(iface_, &dst_), "value_new");
        writer_ = avro_writer_memory(buf_.data(), static_cast<int64_t>(buf_.size()));
        reader_ = avro_reader_memory(buf_.data(), 0);
    }
    ~AvroCodec() override {
        avro_reader_free(reader_);
        avro_writer_free(writer_);
        avro_value_decref(&dst_);
        avro_value_decref(&src_);
        avro_value_iface_decref(iface_);
        avro_schema_decref(schema_);
    }
    AvroCodec(const AvroCodec&) = delete;
    AvroCodec& operator=(const AvroCodec&) = delete;

    void load(const Model& value) override {
        check(avro_value_reset(&src_), "reset");
        put(src_, value);
    }
    ByteView serialize() override {
        for (;;) {
            avro_writer_memory_set_dest(writer_, buf_.data(), static_cast<int64_t>(buf_.size()));
            const int rc = avro_value_write(writer_, &src_);
            if (rc == 0) break;
            if (rc != ENOSPC) fail("write");
            buf_.resize(buf_.size() * 2);
        }
        return {reinterpret_cast<const uint8_t*>(buf_.data()), static_cast<size_t>(avro_writer_tell(writer_))};
    }
    void deserialize(ByteView in) override { read(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        avro_value_t fresh;
        check(avro_generic_value_new(iface_, &fresh), "value_new");
        try {
            read(in, fresh);
        } catch (...) {
            avro_value_decref(&fresh);
            throw;
        }
        escape(fresh.self);
        avro_value_decref(&fresh);
    }
    void store(Model& out) const override {
        avro_value_t v = dst_;
        get(v, out);
    }

private:
    void read(ByteView in, avro_value_t& into) {
        avro_reader_memory_set_source(reader_, reinterpret_cast<const char*>(in.data), static_cast<int64_t>(in.size));
        check(avro_value_read(reader_, &into), "read");
    }

    std::vector<char> buf_;
    avro_schema_t schema_ = nullptr;
    avro_value_iface_t* iface_ = nullptr;
    avro_value_t src_{}, dst_{};
    avro_writer_t writer_ = nullptr;
    avro_reader_t reader_ = nullptr;
};

}  // namespace

void register_avro(Registry& r) {
    const PeerInfo info{"avro",
                        "avro",
                        Kind::binary,
                        FWB_AVRO_VERSION,
                        "",
                        "Avro C generic values (no code generator; schema parsed once): native object = "
                        "avro_value_t; avro_value_write into a reused memory writer; avro_value_read from a "
                        "reused memory reader into the reused value"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<AvroCodec<M>>(); });
    });
}

}  // namespace fwb
