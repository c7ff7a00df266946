// fastwire — fastwire's own rows: "fastwire" (versioned FBE format), "fastwire-final" (final
// format) and "fastwire-json"; "fastwire-arena" (the --pmr types on an arena) is in
// fastwire_arena.cpp.
//
// Native object: the struct generated from bench/datasets/<dataset>.fbe (namespace =
// package, e.g. ::account::Account); load()/store() convert from/to the canonical
// fwb::<dataset> types, untimed.
//
// fastwire / fastwire-final: serialize = reset() + serialize() on a reused writer model
// (model<S> / final_model<S>): exact size first, one append into the kept buffer, no
// zero-fill. deserialize = attach() a reused reader model to the bytes + deserialize() into
// a reused struct (strings and vectors keep their capacity). That is the library's default
// path and it is checked: deserialize() makes every check verify() makes as it reads and
// reports malformed input as a status (turned into fwb::DecodeError here), so no verify()
// runs first. fresh = the same into a newly constructed struct. verify = attach + verify().
// read_few ("read a few fields"): fastwire = attach + checked_view() (verify(), then the
// generated trusted view reads the fields in place, checking nothing more);
// fastwire-view-noverify = fastwire::view<S>(bytes) (model::attach + view() without the
// model), no verify(): the view checks bounds as it reads, like Cap'n Proto's reader;
// fastwire-view-trusted = fastwire::trusted_view<S>(bytes), no verify() and no checks: it
// trusts the input, as flatbuffers-noverify does (only read_few is timed for these two);
// fastwire-final has no views: its read_few is its deserialize.
//
// fastwire-json: serialize = fastwire::json::writer (reused, cleared) over the generated
// struct; deserialize = fastwire::json::reader (reused: it keeps its simdjson On-Demand
// parser and its padded copy of the input) into the reused struct; the reader copies the
// input into its padded buffer on every call, as the simdjson row does.
//
// The final and JSON rows are compiled only when the runtime has them
// (fastwire/final_model.h; fastwire/json.h + json_reader.h + simdjson); otherwise they
// register "n/a" with the reason for every data set.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "../../harness/registry.h"
#include "convert.h"

#include "account_models.h"
#include "complex_models.h"
#include "ints_models.h"
#include "map_models.h"
#include "mixed_models.h"
#include "monsters_models.h"
#include "record_models.h"
#include "vec_models.h"

#if __has_include(<fastwire/final_model.h>)
#include <fastwire/final_model.h>
#define FWB_FW_FINAL 1
#else
#define FWB_FW_FINAL 0
#endif

#if defined(FWB_FASTWIRE_JSON) && __has_include(<fastwire/json.h>) && __has_include(<fastwire/json_reader.h>)
#include "account_json.h"
#include "complex_json.h"
#include "ints_json.h"
#include "map_json.h"
#include "mixed_json.h"
#include "monsters_json.h"
#include "record_json.h"
#include "vec_json.h"
#define FWB_FW_JSON 1
#else
#define FWB_FW_JSON 0
#endif

#ifndef FWB_FASTWIRE_VERSION
#define FWB_FASTWIRE_VERSION "?"
#endif

namespace fwb {
namespace {

// ---- canonical <-> generated (untimed): convert.h
FWB_FW_CONVERT()

// ---- binary rows: model<S> (versioned) and final_model<S> (final) --------------------------
//
// M is the root model type. Both have serialize / reset / buffer / attach / verify /
// deserialize; verify() and deserialize() return a fastwire::status.
// ---- "read a few fields" through the generated views (versioned format)
template <class P>
[[gnu::always_inline]] inline Few few(::monsters::BasicMonstersView<P> v) {
    Few f;
    f.in_place = true;
    for (::monsters::BasicMonsterView<P> m : v.monsters()) {
        f.a += m.hp();
        f.b += m.mana();
        const std::string_view name = m.name();
        f.add_text(name.data(), name.size());
    }
    return f;
}
template <class P>
[[gnu::always_inline]] inline Few few(::record::BasicRecordView<P> v) {
    Few f;
    f.in_place = true;
    const auto ids = v.ids();
    if (!ids.empty()) {
        f.a = ids.front();
        f.b = ids.back();
    }
    const auto strings = v.strings();
    if (!strings.empty()) {
        const std::string_view s = strings.back();
        f.add_text(s.data(), s.size());
    }
    return f;
}
template <class P>
[[gnu::always_inline]] inline Few few(::account::BasicAccountView<P> v) {
    Few f;
    f.in_place = true;
    f.a = v.uid();
    f.b = static_cast<int64_t>(v.wallet().amount() * 100);
    const std::string_view name = v.name();
    f.add_text(name.data(), name.size());
    return f;
}
template <class V>
Few few(const V&) {
    return {};
}

// verified: checked_view() (verify() + the trusted view); checked: view(), no verify()
// (checked as read); trusted: trusted_view(), no verify() (trusts the input).
enum class Views { none, verified, checked, trusted };

template <class Canon, class Gen, class M, Views V = Views::none>
class BinaryCodec final : public Codec<Canon> {
public:
    Few read_few(ByteView in) override {
        if constexpr (V == Views::none) {
            return Codec<Canon>::read_few(in);
        } else {
            return few(view(in));  // into the caller's Few, as the other peers' read_few()
        }
    }
    bool read_few_only() const override { return V == Views::checked || V == Views::trusted; }
    void load(const Canon& value) override { Convert::cv(value, src_); }
    ByteView serialize() override {
        writer_.reset();  // keeps the buffer's capacity
        const size_t n = writer_.serialize(src_);
        return {writer_.buffer().data(), n};
    }
    bool verify(ByteView in) override {
        reader_.attach(in.data, in.size);
        return static_cast<bool>(reader_.verify());
    }
    void deserialize(ByteView in) override { read(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Gen fresh;
        read(in, fresh);
        escape(&fresh);
    }
    void store(Canon& out) const override { Convert::cv(dst_, out); }

private:
    auto view(ByteView in) {
        if constexpr (V == Views::verified) {
            reader_.attach(in.data, in.size);
            const auto v = reader_.checked_view();
            if (!v) fail("verify failed");
            return *v;
        } else if constexpr (V == Views::checked) {
            return fastwire::view<Gen>(in.data, in.size);  // = attach + view(), no model
        } else {
            return fastwire::trusted_view<Gen>(in.data, in.size);  // = attach + trusted_view()
        }
    }
    void read(ByteView in, Gen& out) {
        reader_.attach(in.data, in.size);
        const auto status = reader_.deserialize(out);
        if (!status) fail(status.code());
    }
    // Out of line and cold (as handwritten's), so the error path costs the hot loop no
    // stack frame.
    [[noreturn, gnu::cold, gnu::noinline]] static void fail(fastwire::errc e) { fail(fastwire::message(e)); }
    [[noreturn, gnu::cold, gnu::noinline]] static void fail(const char* why) {
        throw DecodeError(std::string("fastwire: ") + why);
    }

    Gen src_, dst_;
    M writer_, reader_;
};

#if FWB_FW_JSON
template <class Canon, class Gen>
class JsonCodec final : public Codec<Canon> {
public:
    void load(const Canon& value) override { Convert::cv(value, src_); }
    ByteView serialize() override {
        writer_.clear();  // keeps the buffer
        writer_.write(src_);
        return {reinterpret_cast<const uint8_t*>(writer_.data()), writer_.size()};
    }
    void deserialize(ByteView in) override { read(in, dst_); }
    void deserialize_fresh(ByteView in) override {
        Gen fresh;
        read(in, fresh);
        escape(&fresh);
    }
    void store(Canon& out) const override { Convert::cv(dst_, out); }

private:
    void read(ByteView in, Gen& out) {
        const auto result = reader_.read(std::string_view(reinterpret_cast<const char*>(in.data), in.size), out);
        if (!result) throw DecodeError("fastwire json: " + result.message());
    }

    Gen src_, dst_;
    fastwire::json::writer writer_;
    fastwire::json::reader reader_;
};
#endif

#if !FWB_FW_FINAL
constexpr const char* kNoFinal = "final format not built yet (no fastwire/final_model.h in cpp/include)";
#endif
#if !FWB_FW_JSON
#if defined(FWB_FASTWIRE_JSON_MISSING)
constexpr const char* kNoJson = "JSON not built: " FWB_FASTWIRE_JSON_MISSING;
#else
constexpr const char* kNoJson = "JSON not built yet (no fastwire/json.h + json_reader.h in cpp/include)";
#endif
#endif

struct Rows {
    PeerInfo versioned, final_, json, checked_view, trusted_view;
};

template <class Canon, class Gen>
void add_dataset(Registry& r, const Rows& rows) {
    using Model = fastwire::model<Gen>;
    r.add<Canon>(rows.versioned, [] { return std::make_unique<BinaryCodec<Canon, Gen, Model, Views::verified>>(); });
    if (Dataset<Canon>::name == std::string("monsters") || Dataset<Canon>::name == std::string("record") ||
        Dataset<Canon>::name == std::string("account")) {
        r.add<Canon>(rows.checked_view,
                     [] { return std::make_unique<BinaryCodec<Canon, Gen, Model, Views::checked>>(); });
        r.add<Canon>(rows.trusted_view,
                     [] { return std::make_unique<BinaryCodec<Canon, Gen, Model, Views::trusted>>(); });
    } else {
        r.unsupported<Canon>(rows.checked_view, "times only the \"read a few fields\" data sets");
        r.unsupported<Canon>(rows.trusted_view, "times only the \"read a few fields\" data sets");
    }
#if FWB_FW_FINAL
    r.add<Canon>(rows.final_, [] { return std::make_unique<BinaryCodec<Canon, Gen, fastwire::final_model<Gen>>>(); });
#else
    r.unsupported<Canon>(rows.final_, kNoFinal);
#endif
#if FWB_FW_JSON
    r.add<Canon>(rows.json, [] { return std::make_unique<JsonCodec<Canon, Gen>>(); });
#else
    r.unsupported<Canon>(rows.json, kNoJson);
#endif
}

}  // namespace

#if defined(FWB_FASTWIRE_ARENA)
void register_fastwire_arena(Registry& r);  // fastwire_arena.cpp: the "fastwire-arena" row
#endif

void register_fastwire(Registry& r) {
    const std::string version = FWB_FASTWIRE_VERSION;
    const Rows rows{
        {"fastwire", "fastwire", Kind::binary, version,
         "FBE verify(): root size, every offset/size/count in bounds and pointing forward, "
         "struct sizes and type numbers, nesting depth, visit budget",
         "generated struct -> model<S>::serialize into a reused model (reset keeps the buffer; "
         "exact size, one append); deserialize = attach + model::deserialize into a reused "
         "struct: the default path, which makes verify()'s checks as it reads, so no verify() "
         "first"},
        {"fastwire-final", "fastwire", Kind::binary, version,
         "final_model<S>::verify() (final format: sizes and counts in bounds)",
         "as fastwire, with final_model<S> (final format: no offsets, no struct headers); "
         "deserialize = attach + final_model::deserialize (checked), no verify() first"},
        {"fastwire-json", "fastwire", Kind::text, version, "",
         "fastwire::json::writer (reused) over the generated struct; deserialize = "
         "fastwire::json::reader (reused simdjson On-Demand parser; copies the input into its "
         "padded buffer) into the reused struct"},
        {"fastwire-view-noverify", "fastwire", Kind::binary, version, "",
         "only \"read a few fields\": the generated view (fastwire::view<S>(bytes), as model::view()), "
         "no verify(); the view "
         "checks each offset/length/count it follows against the message's end"},
        {"fastwire-view-trusted", "fastwire", Kind::binary, version, "",
         "only \"read a few fields\": the generated trusted view (fastwire::trusted_view<S>(bytes), "
         "as model::trusted_view()), no verify() and no checks: it trusts the input, as "
         "flatbuffers-noverify does"},
    };
    add_dataset<account::Account, ::account::Account>(r, rows);
    add_dataset<monsters::Monsters, ::monsters::Monsters>(r, rows);
    add_dataset<record::Record, ::record::Record>(r, rows);
    add_dataset<ints::Ints, ::ints::Ints>(r, rows);
    add_dataset<mixed::Mixed, ::mixed::Mixed>(r, rows);
    add_dataset<complex::Complex, ::complex::Complex>(r, rows);
    add_dataset<vec::ContainerVec, ::vec::ContainerVec>(r, rows);
    add_dataset<map::ContainerMap, ::map::ContainerMap>(r, rows);
    for (const PeerInfo* row : {&rows.versioned, &rows.final_, &rows.json, &rows.checked_view, &rows.trusted_view})
        r.unsupported<events::Events>(*row, "fastwire's C++ variants are not in this build yet");
#if defined(FWB_FASTWIRE_ARENA)
    register_fastwire_arena(r);
#endif
}

}  // namespace fwb
