// nlohmann — nlohmann::json, used the way its documentation shows.
//
// Native object: the canonical struct. serialize = build a nlohmann::json from the struct
// (to_json below) + dump() (compact) into a reused std::string; deserialize =
// json::parse + from_json into the reused struct; fresh = into a new struct. No verifier
// beyond the parser. JSON shape: FBE's mapping (see peers/common/fields.h).
#include <charconv>
#include <nlohmann/json.hpp>

#include "../../harness/registry.h"
#include "../common/fields.h"

namespace fwb {
namespace {

using json = nlohmann::json;

template <class T>
json to_json_value(const T& x) {
    if constexpr (std::is_enum_v<T>) {
        return to_json_value(static_cast<std::underlying_type_t<T>>(x));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        return json(static_cast<int64_t>(x));
    } else if constexpr (std::is_integral_v<T>) {
        return json(static_cast<uint64_t>(x));
    } else if constexpr (std::is_floating_point_v<T>) {
        return json(static_cast<double>(x));
    } else if constexpr (std::is_same_v<T, std::string>) {
        return json(x);
    } else if constexpr (IsVector<T>::value) {
        json a = json::array();
        for (const auto& e : x) a.push_back(to_json_value(e));
        return a;
    } else if constexpr (IsOptional<T>::value) {
        return x ? to_json_value(*x) : json(nullptr);
    } else if constexpr (IsMap<T>::value) {
        json o = json::object();
        for (const auto& [k, v] : x) o[std::to_string(k)] = to_json_value(v);
        return o;
    } else {
        json o = json::object();
        auto visit = [&o](const char* name, const auto& value) { o[name] = to_json_value(value); };
        fields(visit, x);
        return o;
    }
}

[[noreturn]] void bad(const char* what) { throw DecodeError(std::string("json: expected ") + what); }

template <class T>
void from_json_value(const json& j, T& x) {
    if constexpr (std::is_enum_v<T>) {
        std::underlying_type_t<T> u;
        from_json_value(j, u);
        x = static_cast<T>(u);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        if (j.is_number_integer() && !j.is_number_unsigned())
            x = narrow_int<T>(j.get<int64_t>(), "signed field");
        else if (j.is_number_unsigned())
            x = narrow_int<T>(j.get<uint64_t>(), "signed field");
        else
            bad("an integer");
    } else if constexpr (std::is_integral_v<T>) {
        if (j.is_number_unsigned())
            x = narrow_int<T>(j.get<uint64_t>(), "unsigned field");
        else
            bad("an unsigned integer");
    } else if constexpr (std::is_floating_point_v<T>) {
        if (!j.is_number()) bad("a number");
        x = static_cast<T>(j.get<double>());
    } else if constexpr (std::is_same_v<T, std::string>) {
        if (!j.is_string()) bad("a string");
        x = j.get_ref<const std::string&>();
    } else if constexpr (IsVector<T>::value) {
        if (!j.is_array()) bad("an array");
        x.resize(j.size());
        for (size_t i = 0; i < x.size(); ++i) from_json_value(j[i], x[i]);
    } else if constexpr (IsOptional<T>::value) {
        if (j.is_null())
            x.reset();
        else
            from_json_value(j, x ? *x : x.emplace());
    } else if constexpr (IsMap<T>::value) {
        if (!j.is_object()) bad("an object");
        x.clear();
        for (const auto& [key, value] : j.items()) {
            typename T::key_type k{};
            auto r = std::from_chars(key.data(), key.data() + key.size(), k);
            if (r.ec != std::errc() || r.ptr != key.data() + key.size()) bad("an integer map key");
            from_json_value(value, x[k]);
        }
    } else {
        if (!j.is_object()) bad("an object");
        auto visit = [&j](const char* name, auto& value) {
            auto it = j.find(name);
            if (it == j.end()) throw DecodeError(std::string("json: missing field ") + name);
            from_json_value(*it, value);
        };
        fields(visit, x);
    }
}

template <class Model>
class NlohmannCodec final : public Codec<Model> {
public:
    void load(const Model& value) override { src_ = value; }
    ByteView serialize() override {
        out_ = to_json_value(src_).dump();
        return {reinterpret_cast<const uint8_t*>(out_.data()), out_.size()};
    }
    void deserialize(ByteView in) override { decode(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Model fresh;
        decode(in, fresh);
        escape(&fresh);
    }
    void store(Model& out) const override { out = dst_; }

private:
    static void decode(ByteView in, Model& out) {
        json j = json::parse(in.data, in.data + in.size, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded()) throw DecodeError("nlohmann: parse error");
        from_json_value(j, out);
    }
    std::string out_;
    Model src_, dst_;
};

}  // namespace

void register_nlohmann(Registry& r) {
    const std::string version = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                                std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                                std::to_string(NLOHMANN_JSON_VERSION_PATCH);
    const PeerInfo info{"nlohmann", "nlohmann", Kind::text,
                        version,    "",         "struct -> nlohmann::json -> dump(); json::parse -> struct (reused)"};
    for_each_dataset([&]<class M>() {
        if constexpr (holds_variant<M>)
            r.unsupported<M>(info, kNoSumType);
        else
            r.add<M>(info, [] { return std::make_unique<NlohmannCodec<M>>(); });
    });
}

}  // namespace fwb
