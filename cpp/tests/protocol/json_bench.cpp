// JSON of the seed account: fastwire (json.h writer, simdjson On-Demand reader) against
// RapidJSON the way the FBE reference uses it (spec §8: rapidjson::Writer into a reused
// StringBuffer; Document::Parse, then every field looked up by name). Same run, same data.
//
//   build/…/fastwire_json_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstring>
#include <string>

#include "proto_json.h"

namespace {

proto::Account seed_account() {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}

// ---- RapidJSON, shaped like the reference's generated FBE::JSON code ------------------------

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void rj_write(Writer& w, const proto::Balance& b) {
    w.StartObject();
    w.Key("currency");
    w.String(b.currency.data(), static_cast<rapidjson::SizeType>(b.currency.size()));
    w.Key("amount");
    w.Double(b.amount);
    w.EndObject();
}
void rj_write(Writer& w, const proto::Order& o) {
    w.StartObject();
    w.Key("uid");
    w.Int(o.uid);
    w.Key("symbol");
    w.String(o.symbol.data(), static_cast<rapidjson::SizeType>(o.symbol.size()));
    w.Key("side");
    w.Uint(static_cast<std::uint8_t>(o.side));
    w.Key("type");
    w.Uint(static_cast<std::uint8_t>(o.type));
    w.Key("price");
    w.Double(o.price);
    w.Key("volume");
    w.Double(o.volume);
    w.EndObject();
}
void rj_write(Writer& w, const proto::Account& a) {
    w.StartObject();
    w.Key("uid");
    w.Int(a.uid);
    w.Key("name");
    w.String(a.name.data(), static_cast<rapidjson::SizeType>(a.name.size()));
    w.Key("state");
    w.Uint(static_cast<std::uint8_t>(a.state));
    w.Key("wallet");
    rj_write(w, a.wallet);
    w.Key("asset");
    if (a.asset)
        rj_write(w, *a.asset);
    else
        w.Null();
    w.Key("orders");
    w.StartArray();
    for (const auto& o : a.orders) rj_write(w, o);
    w.EndArray();
    w.EndObject();
}

// Reads like the reference: FindMember per field, type checks, wrong type -> false.
template <class V>
bool rj_get(const V& obj, const char* key, double& out) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsNumber()) return false;
    out = it->value.GetDouble();
    return true;
}
template <class V>
bool rj_get(const V& obj, const char* key, std::int32_t& out) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsInt()) return false;
    out = it->value.GetInt();
    return true;
}
template <class V>
bool rj_get(const V& obj, const char* key, std::string& out) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsString()) return false;
    out.assign(it->value.GetString(), it->value.GetStringLength());
    return true;
}
template <class V, class E>
bool rj_get_enum(const V& obj, const char* key, E& out) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsUint()) return false;
    out = static_cast<E>(it->value.GetUint());
    return true;
}
template <class V>
bool rj_read(const V& v, proto::Balance& b) {
    if (!v.IsObject()) return false;
    bool ok = rj_get(v, "currency", b.currency);
    ok &= rj_get(v, "amount", b.amount);
    return ok;
}
template <class V>
bool rj_read(const V& v, proto::Order& o) {
    if (!v.IsObject()) return false;
    bool ok = rj_get(v, "uid", o.uid);
    ok &= rj_get(v, "symbol", o.symbol);
    ok &= rj_get_enum(v, "side", o.side);
    ok &= rj_get_enum(v, "type", o.type);
    ok &= rj_get(v, "price", o.price);
    ok &= rj_get(v, "volume", o.volume);
    return ok;
}
template <class V>
bool rj_read(const V& v, proto::Account& a) {
    if (!v.IsObject()) return false;
    bool ok = rj_get(v, "uid", a.uid);
    ok &= rj_get(v, "name", a.name);
    ok &= rj_get_enum(v, "state", a.state);
    auto w = v.FindMember("wallet");
    ok &= w != v.MemberEnd() && rj_read(w->value, a.wallet);
    auto s = v.FindMember("asset");
    if (s != v.MemberEnd() && s->value.IsNull()) {
        a.asset.reset();
    } else if (s != v.MemberEnd()) {
        if (!a.asset) a.asset.emplace();
        ok &= rj_read(s->value, *a.asset);
    } else {
        ok = false;
    }
    auto o = v.FindMember("orders");
    if (o == v.MemberEnd() || !o->value.IsArray()) return false;
    a.orders.resize(o->value.Size());
    std::size_t i = 0;
    for (const auto& e : o->value.GetArray()) ok &= rj_read(e, a.orders[i++]);
    return ok;
}

// ---- benchmarks ------------------------------------------------------------------------------

void BM_Write_RapidJSON(benchmark::State& state) {
    const proto::Account account = seed_account();
    rapidjson::StringBuffer buffer;
    for (auto _ : state) {
        buffer.Clear();
        Writer w(buffer);
        rj_write(w, account);
        benchmark::DoNotOptimize(buffer.GetString());
    }
    if (std::strlen(buffer.GetString()) != 353) state.SkipWithError("RapidJSON output is not 353 characters");
}

void BM_Write_fastwire(benchmark::State& state) {
    const proto::Account account = seed_account();
    fastwire::json::writer w;
    for (auto _ : state) {
        w.clear();
        w.write(account);
        benchmark::DoNotOptimize(w.data());
    }
    if (w.size() != 353) state.SkipWithError("fastwire output is not 353 characters");
}

void BM_WritePretty_fastwire(benchmark::State& state) {
    const proto::Account account = seed_account();
    fastwire::json::pretty_writer w;
    for (auto _ : state) {
        w.clear();
        w.write(account);
        benchmark::DoNotOptimize(w.data());
    }
}

void BM_ParseRead_RapidJSON(benchmark::State& state) {
    const std::string text = fastwire::json::to_json(seed_account());
    proto::Account account;
    for (auto _ : state) {
        rapidjson::Document doc;
        doc.Parse(text.c_str());
        const bool ok = rj_read(doc, account);
        benchmark::DoNotOptimize(ok);
    }
    if (account.orders.size() != 3) state.SkipWithError("RapidJSON read failed");
}

void BM_ParseRead_fastwire(benchmark::State& state) {
    const std::string text = fastwire::json::to_json(seed_account());
    proto::Account account;
    fastwire::json::reader r;
    bool ok = true;
    for (auto _ : state) {
        ok &= static_cast<bool>(r.read(text, account));
        benchmark::DoNotOptimize(account);
    }
    if (!ok || account.orders.size() != 3) state.SkipWithError("fastwire read failed");
}

// The same reading from a buffer that already has simdjson's padding (no copy).
void BM_ParseReadPadded_fastwire(benchmark::State& state) {
    const std::string text = fastwire::json::to_json(seed_account());
    std::string padded = text + std::string(simdjson::SIMDJSON_PADDING, '\0');
    proto::Account account;
    fastwire::json::reader r;
    for (auto _ : state) {
        auto res = r.read_padded(padded.data(), text.size(), padded.size(), account);
        benchmark::DoNotOptimize(res);
    }
}

}  // namespace

BENCHMARK(BM_Write_RapidJSON);
BENCHMARK(BM_Write_fastwire);
BENCHMARK(BM_WritePretty_fastwire);
BENCHMARK(BM_ParseRead_RapidJSON);
BENCHMARK(BM_ParseRead_fastwire);
BENCHMARK(BM_ParseReadPadded_fastwire);
BENCHMARK_MAIN();
