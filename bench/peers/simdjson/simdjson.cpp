// simdjson — simdjson's DOM parser for reading; simdjson cannot write JSON, so this row
// serializes with our hand-written writer (peers/common/json_text.h).
//
// Native object: the canonical struct. serialize = JsonText (std::to_chars numbers) into a
// reused string; deserialize = copy the input into a reused padded buffer (simdjson needs
// SIMDJSON_PADDING readable bytes past the end) + dom::parser::parse (parser reused, as
// simdjson recommends) + copy every field out by name into the reused struct; fresh = the
// same into a new struct. No verifier beyond the parser (which validates UTF-8 too).
#include <simdjson.h>

#include <charconv>
#include <cstring>
#include <vector>

#include "../../harness/registry.h"
#include "../common/json_text.h"

namespace fwb {
namespace {

using simdjson::dom::element;

[[noreturn]] void bad(const char* what) { throw DecodeError(std::string("json: expected ") + what); }

template <class T>
void read(element j, T& x) {
    if constexpr (std::is_enum_v<T>) {
        std::underlying_type_t<T> u;
        read(j, u);
        x = static_cast<T>(u);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        int64_t v;
        if (j.get_int64().get(v)) bad("an integer");
        x = narrow_int<T>(v, "signed field");
    } else if constexpr (std::is_integral_v<T>) {
        uint64_t v;
        if (j.get_uint64().get(v)) bad("an unsigned integer");
        x = narrow_int<T>(v, "unsigned field");
    } else if constexpr (std::is_floating_point_v<T>) {
        double v;
        if (j.get_double().get(v)) bad("a number");
        x = static_cast<T>(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
        std::string_view v;
        if (j.get_string().get(v)) bad("a string");
        x.assign(v.data(), v.size());
    } else if constexpr (IsVector<T>::value) {
        simdjson::dom::array a;
        if (j.get_array().get(a)) bad("an array");
        x.resize(a.size());
        size_t i = 0;
        for (element e : a) read(e, x[i++]);
    } else if constexpr (IsOptional<T>::value) {
        if (j.is_null())
            x.reset();
        else
            read(j, x ? *x : x.emplace());
    } else if constexpr (IsMap<T>::value) {
        simdjson::dom::object o;
        if (j.get_object().get(o)) bad("an object");
        x.clear();
        for (auto [key, value] : o) {
            typename T::key_type k{};
            auto r = std::from_chars(key.data(), key.data() + key.size(), k);
            if (r.ec != std::errc() || r.ptr != key.data() + key.size()) bad("an integer map key");
            read(value, x[k]);
        }
    } else {
        simdjson::dom::object o;
        if (j.get_object().get(o)) bad("an object");
        auto visit = [&o](const char* name, auto& value) {
            element e;
            if (o.at_key(name).get(e)) throw DecodeError(std::string("json: missing field ") + name);
            read(e, value);
        };
        fields(visit, x);
    }
}

template <class Model>
class SimdjsonCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        out_.clear();
        out_.value(src_);
        return {reinterpret_cast<const uint8_t*>(out_.str().data()), out_.str().size()};
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
        if (padded_.size() < in.size + simdjson::SIMDJSON_PADDING) padded_.resize(in.size + simdjson::SIMDJSON_PADDING);
        std::memcpy(padded_.data(), in.data, in.size);
        element root;
        if (parser_.parse(padded_.data(), in.size, /*realloc_if_needed=*/false).get(root))
            throw DecodeError("simdjson: parse error");
        read(root, out);
    }
    JsonText out_;
    std::vector<uint8_t> padded_;
    simdjson::dom::parser parser_;
    Model src_, dst_;
};

}  // namespace

void register_simdjson(Registry& r) {
    const PeerInfo info{"simdjson",
                        "simdjson",
                        Kind::text,
                        std::to_string(simdjson::SIMDJSON_VERSION_MAJOR) + "." +
                            std::to_string(simdjson::SIMDJSON_VERSION_MINOR) + "." +
                            std::to_string(simdjson::SIMDJSON_VERSION_REVISION),
                        "",
                        "simdjson cannot write JSON: serialize uses our hand-written writer "
                        "(std::to_chars); deserialize = copy to a reused padded buffer + "
                        "dom::parser (reused) + field lookup into the reused struct"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<SimdjsonCodec<M>>(); });
    });
}

}  // namespace fwb
