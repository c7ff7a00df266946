// rapidjson — RapidJSON: SAX Writer out, DOM Document in.
//
// Native object: the canonical struct. serialize = rapidjson::Writer (compact) straight
// from the struct into a reused StringBuffer, as FBE's own JSON does; deserialize =
// Document::Parse (kParseFullPrecisionFlag, so doubles round-trip exactly) into memory
// pools over reused buffers + copy every field out by name into the reused struct.
// No verifier beyond the parser. JSON shape: FBE's mapping (see peers/common/fields.h).
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <charconv>
#include <vector>

#include "../../harness/registry.h"
#include "../common/fields.h"

namespace fwb {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;
using Pool = rapidjson::MemoryPoolAllocator<>;
using Document = rapidjson::GenericDocument<rapidjson::UTF8<>, Pool, Pool>;
using Value = Document::ValueType;

template <class T>
void write(Writer& w, const T& x) {
    if constexpr (std::is_enum_v<T>) {
        write(w, static_cast<std::underlying_type_t<T>>(x));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        w.Int64(x);
    } else if constexpr (std::is_integral_v<T>) {
        w.Uint64(x);
    } else if constexpr (std::is_floating_point_v<T>) {
        w.Double(x);
    } else if constexpr (std::is_same_v<T, std::string>) {
        w.String(x.data(), static_cast<rapidjson::SizeType>(x.size()));
    } else if constexpr (IsVector<T>::value) {
        w.StartArray();
        for (const auto& e : x) write(w, e);
        w.EndArray();
    } else if constexpr (IsOptional<T>::value) {
        if (x)
            write(w, *x);
        else
            w.Null();
    } else if constexpr (IsMap<T>::value) {
        w.StartObject();
        char key[16];
        for (const auto& [k, v] : x) {
            auto r = std::to_chars(key, key + sizeof key, k);
            w.Key(key, static_cast<rapidjson::SizeType>(r.ptr - key));
            write(w, v);
        }
        w.EndObject();
    } else {
        static_assert(Reflected<const T>);
        w.StartObject();
        auto visit = [&w](const char* name, const auto& value) {
            w.Key(name);
            write(w, value);
        };
        fields(visit, x);
        w.EndObject();
    }
}

[[noreturn]] void bad(const char* what) { throw DecodeError(std::string("json: expected ") + what); }

template <class T>
void read(const Value& j, T& x) {
    if constexpr (std::is_enum_v<T>) {
        std::underlying_type_t<T> u;
        read(j, u);
        x = static_cast<T>(u);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        if (!j.IsInt64()) bad("an integer");
        x = narrow_int<T>(j.GetInt64(), "signed field");
    } else if constexpr (std::is_integral_v<T>) {
        if (!j.IsUint64()) bad("an unsigned integer");
        x = narrow_int<T>(j.GetUint64(), "unsigned field");
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!j.IsNumber()) bad("a number");
        x = static_cast<T>(j.GetDouble());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.IsString()) bad("a string");
        x.assign(j.GetString(), j.GetStringLength());
    } else if constexpr (IsVector<T>::value) {
        if (!j.IsArray()) bad("an array");
        x.resize(j.Size());
        size_t i = 0;
        for (const auto& e : j.GetArray()) read(e, x[i++]);
    } else if constexpr (IsOptional<T>::value) {
        if (j.IsNull())
            x.reset();
        else
            read(j, x ? *x : x.emplace());
    } else if constexpr (IsMap<T>::value) {
        if (!j.IsObject()) bad("an object");
        x.clear();
        for (const auto& m : j.GetObject()) {
            typename T::key_type k{};
            const char* s = m.name.GetString();
            auto r = std::from_chars(s, s + m.name.GetStringLength(), k);
            if (r.ec != std::errc() || r.ptr != s + m.name.GetStringLength()) bad("an integer map key");
            read(m.value, x[k]);
        }
    } else {
        if (!j.IsObject()) bad("an object");
        auto visit = [&j](const char* name, auto& value) {
            auto it = j.FindMember(name);
            if (it == j.MemberEnd()) throw DecodeError(std::string("json: missing field ") + name);
            read(it->value, value);
        };
        fields(visit, x);
    }
}

template <class Model>
class RapidCodec final : public Codec<Model> {
public:
    RapidCodec() : value_block_(1 << 18), stack_block_(1 << 14) {}
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        out_.Clear();  // keeps its memory
        Writer w(out_);
        write(w, src_);
        return {reinterpret_cast<const uint8_t*>(out_.GetString()), out_.GetSize()};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    void decode(ByteView in, Model& out) {
        // Pools over reused blocks: no malloc per parse unless the blocks overflow.
        Pool values(value_block_.data(), value_block_.size());
        Pool stack(stack_block_.data(), stack_block_.size());
        Document doc(&values, 1024, &stack);
        doc.Parse<rapidjson::kParseFullPrecisionFlag>(reinterpret_cast<const char*>(in.data), in.size);
        if (doc.HasParseError()) throw DecodeError("rapidjson: parse error");
        read(static_cast<const Value&>(doc), out);
    }
    std::vector<char> value_block_, stack_block_;
    rapidjson::StringBuffer out_;
    Model src_, dst_;
};

}  // namespace

void register_rapidjson(Registry& r) {
    const PeerInfo info{"rapidjson",
                        "rapidjson",
                        Kind::text,
                        RAPIDJSON_VERSION_STRING,
                        "",
                        "Writer (SAX) from the struct into a reused StringBuffer; Document::Parse "
                        "(full precision, pooled) + field lookup by name into the reused struct"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<RapidCodec<M>>(); });
    });
}

}  // namespace fwb
