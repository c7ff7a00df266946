// JSON: golden text of the seed account, the corrections of the reference (issue 5), the
// leniencies of spec §4.4/§9, errors with path and byte offset, and a round trip of every
// type of schemas/everything.fbe.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "everything_json.h"
#include "everything_models.h"
#include "proto_json.h"

namespace {

std::string slurp(const std::string& name) {
    std::ifstream f(std::string(FASTWIRE_VECTORS_DIR) + "/" + name, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

proto::Account seed_account() {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}

template <class S>
std::vector<std::uint8_t> bytes_of(const S& v) {
    fastwire::model<S> m;
    m.serialize(v);
    return m.buffer().to_vector();
}

std::string num(double d) {
    char b[64];
    return std::string(b, fastwire::json::format_number(b, d));
}
std::string numf(float d) {
    char b[64];
    return std::string(b, fastwire::json::format_number(b, d));
}

}  // namespace

TEST(JsonWrite, SeedAccountCompactIsTheGoldenText) {
    const std::string golden = slurp("account.json");
    ASSERT_EQ(golden.size(), 353u);
    EXPECT_EQ(fastwire::json::to_json(seed_account()), golden);
}

TEST(JsonWrite, SeedAccountPrettyIsTheGoldenText) {
    const std::string golden = slurp("account.pretty.json");
    ASSERT_EQ(golden.size(), 751u);
    EXPECT_EQ(fastwire::json::to_json(seed_account(), true), golden);
}

TEST(JsonWrite, OrderAndBalanceAreTheGoldenText) {
    EXPECT_EQ(fastwire::json::to_json(seed_account().orders[0]), slurp("order.json"));
    EXPECT_EQ(fastwire::json::to_json(seed_account().wallet), slurp("balance.json"));
}

TEST(JsonWrite, WriterIsReusable) {
    fastwire::json::writer w;
    for (int i = 0; i < 3; ++i) {
        w.clear();
        w.write(seed_account());
        EXPECT_EQ(w.view(), slurp("account.json"));
    }
}

TEST(JsonWrite, NumbersAsRapidJsonLaysThemOut) {
    EXPECT_EQ(num(1000.0), "1000.0");
    EXPECT_EQ(num(1.0), "1.0");
    EXPECT_EQ(num(1.23456), "1.23456");
    EXPECT_EQ(num(0.0), "0.0");
    EXPECT_EQ(num(-0.0), "-0.0");
    EXPECT_EQ(num(0.001), "0.001");
    EXPECT_EQ(num(1e-7), "1e-7");
    EXPECT_EQ(num(-1.23456e125), "-1.23456e125");
    EXPECT_EQ(num(1e21), "1e21");
    EXPECT_EQ(num(1e20), "100000000000000000000.0");
    EXPECT_EQ(num(123456.123456), "123456.123456");
    EXPECT_EQ(num(5e-324), "5e-324");
    EXPECT_EQ(num(std::numeric_limits<double>::max()), "1.7976931348623157e308");
    // A float is widened to double first, as the reference does (spec 4.2).
    EXPECT_EQ(numf(123.456f), "123.45600128173828");
    EXPECT_EQ(numf(1.5e10f), "15000000512.0");
    EXPECT_EQ(numf(std::numeric_limits<float>::max()), "3.4028234663852886e38");
    EXPECT_EQ(numf(std::numeric_limits<float>::denorm_min()), "1.401298464324817e-45");
    EXPECT_EQ(numf(-0.0f), "-0.0");
    EXPECT_EQ(numf(0.5f), "0.5");
    EXPECT_EQ(numf(std::numeric_limits<float>::infinity()), "\"Infinity\"");
    // Correction: NaN and infinities are strings.
    EXPECT_EQ(num(std::nan("")), "\"NaN\"");
    EXPECT_EQ(num(HUGE_VAL), "\"Infinity\"");
    EXPECT_EQ(num(-HUGE_VAL), "\"-Infinity\"");
}

TEST(JsonWrite, Corrections) {
    everything::Primitives p;
    p.f_char = static_cast<char>(0xE9);
    p.f_wchar = static_cast<wchar_t>(0x1F600);
    p.f_uint64 = std::numeric_limits<std::uint64_t>::max();
    p.f_int64 = std::numeric_limits<std::int64_t>::min();
    p.f_decimal = *fastwire::decimal::from_string("79228162514264337593543950335");
    p.f_double = std::nan("");
    p.f_bytes = fastwire::bytes{'a', 'b', 'c', 'd'};
    const std::string j = fastwire::json::to_json(p);
    EXPECT_NE(j.find("\"f_char\":233,"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_wchar\":128512,"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_uint64\":18446744073709551615,"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_int64\":-9223372036854775808,"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_decimal\":\"79228162514264337593543950335\","), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_double\":\"NaN\","), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_bytes\":\"YWJjZA==\","), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_string\":\"Hello, \\\"world\\\"!\\n\","), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_uuid\":\"123e4567-e89b-12d3-a456-426655440000\""), std::string::npos) << j;
}

TEST(JsonWrite, StringEscapes) {
    proto::Balance b{std::string("a\"b\\c\x01\x1f\t\xc3\xa9/", 11), 0.0};
    EXPECT_EQ(fastwire::json::to_json(b), "{\"currency\":\"a\\\"b\\\\c\\u0001\\u001F\\t\xc3\xa9/\",\"amount\":0.0}");
}

TEST(JsonWrite, MapKeysAndEmptyContainers) {
    everything::Collections c;
    c.f_map = {{-1, "m"}, {7, "s"}};
    c.f_map_enum_key[everything::EnumByte::a2];
    c.f_hash[fastwire::uuid::literal("123e4567-e89b-12d3-a456-426655440000")] = fastwire::bytes{1};
    const std::string j = fastwire::json::to_json(c);
    EXPECT_NE(j.find("\"f_map\":{\"-1\":\"m\",\"7\":\"s\"}"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_map_enum_key\":{\"254\":{"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_hash\":{\"123e4567-e89b-12d3-a456-426655440000\":\"AQ==\"}"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_list\":[]"), std::string::npos) << j;
    EXPECT_NE(j.find("\"f_hash_struct_key\":[]"), std::string::npos) << j;
    const std::string pretty = fastwire::json::to_json(c, true);
    EXPECT_NE(pretty.find("\"f_list\": [],\n"), std::string::npos) << pretty;
}

// ---- reading ------------------------------------------------------------------------------------

TEST(JsonRead, SeedAccountRoundTrip) {
    proto::Account a;
    fastwire::json::reader r;
    for (const char* file : {"account.json", "account.pretty.json"}) {
        a = proto::Account();
        auto res = r.read(slurp(file), a);
        ASSERT_TRUE(res) << res.message();
        EXPECT_EQ(bytes_of(a), bytes_of(seed_account()));
        EXPECT_EQ(fastwire::json::to_json(a), slurp("account.json"));
    }
}

TEST(JsonRead, ErrorNamesPathAndOffset) {
    std::string text = slurp("account.json");
    const std::size_t at = text.find("\"price\":1.0,") + 8;
    text.replace(at, 3, "\"x\"");
    proto::Account a = seed_account();
    auto res = fastwire::json::from_json(text, a);
    ASSERT_FALSE(res);
    EXPECT_EQ(res.path(), "orders[1].price");
    EXPECT_EQ(res.offset(), at);
    EXPECT_EQ(res.message(), "orders[1].price: expected a number at byte " + std::to_string(at));
    // The target is still a valid object holding what was read before the error.
    EXPECT_EQ(a.orders.size(), 2u);
    EXPECT_EQ(a.orders[1].uid, 2);
    (void)fastwire::json::to_json(a);
}

TEST(JsonRead, Errors) {
    struct Case {
        const char* json;
        const char* message;
    };
    const Case cases[] = {
        {R"({"uid":1.5})", "uid: expected an integer at byte 7"},
        {R"({"uid":3000000000})", "uid: integer out of range at byte 7"},
        {R"({"uid":"1"})", "uid: expected an integer at byte 7"},
        {R"({"name":5})", "name: expected a string at byte 8"},
        {R"({"wallet":[]})", "wallet: expected an object at byte 10"},
        {R"({"wallet":null})", "wallet: expected an object at byte 10"},
        {R"({"asset":{"amount":true}})", "asset.amount: expected a number at byte 19"},
        {R"({"orders":{}})", "orders: expected an array at byte 10"},
        {R"({"orders":[{"side":256}]})", "orders[0].side: integer out of range at byte 19"},
        {R"({"state":"nonsense"})", "state: expected an integer at byte 9"},
        {R"({"state":"good"})", "state: expected an integer at byte 9"},  // numbers only
        {R"({"orders":[{"side":"sell"}]})", "orders[0].side: expected an integer at byte 19"},
        {R"({"uid":"x","uid":1})", "uid: expected an integer at byte 7"},  // every value checked
        {R"({"uid":1} [])", "unexpected text after the value at byte 10"},
        {R"([1])", "expected an object at byte 0"},
    };
    fastwire::json::reader r;
    for (const auto& c : cases) {
        proto::Account a;
        auto res = r.read(c.json, a);
        EXPECT_FALSE(res) << c.json;
        EXPECT_EQ(res.message(), c.message) << c.json;
    }
    proto::Account a;
    for (const char* bad : {"", "{", "{\"uid\":", "{\"uid\":1,}", "{\"name\":\"abc}", "nul", "{\"orders\":[{]}"}) {
        auto res = r.read(bad, a);
        EXPECT_FALSE(res) << bad;
        (void)fastwire::json::to_json(a);
    }
}

TEST(JsonRead, RepeatedStructFieldIsReplacedWhole) {
    // The last value wins whole: fields it does not name have their defaults, not the
    // earlier value's (docs/wire-format.md#json, "Repeated keys").
    proto::Account a;
    fastwire::json::reader r;
    auto res = r.read(R"({"wallet":{"currency":"X","amount":2},"asset":{"currency":"A","amount":3},)"
                      R"("orders":[{"uid":1,"symbol":"s"}],"wallet":{"amount":5},"asset":{"currency":"B"},)"
                      R"("orders":[{"uid":2}]})",
                      a);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(a.wallet.currency, "");
    EXPECT_EQ(a.wallet.amount, 5.0);
    ASSERT_TRUE(a.asset.has_value());
    EXPECT_EQ(a.asset->currency, "B");
    EXPECT_EQ(a.asset->amount, 0.0);
    ASSERT_EQ(a.orders.size(), 1u);
    EXPECT_EQ(a.orders[0].uid, 2);
    EXPECT_EQ(a.orders[0].symbol, "");
}

TEST(JsonRead, FloatOutOfRangeIsRejected) {
    // A double beyond a float's range has no float value: an error, not a conversion.
    everything::Primitives p;
    fastwire::json::reader r;
    auto res = r.read(R"({"f_float":1e39})", p);
    EXPECT_FALSE(res);
    EXPECT_EQ(res.message(), "f_float: number out of range for float at byte 11");
    res = r.read(R"({"f_float":-3.5e38})", p);
    EXPECT_EQ(res.message(), "f_float: number out of range for float at byte 11");
    res = r.read(R"({"f_float":3.4028234663852886e38,"f_double":1e300})", p);  // FLT_MAX exactly
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_float, std::numeric_limits<float>::max());
    EXPECT_EQ(p.f_double, 1e300);
    // Rounded to the nearest float: below halfway to 2^128 that is the largest float.
    res = r.read(R"({"f_float":-3.4028235e38})", p);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_float, -std::numeric_limits<float>::max());
    res = r.read(R"({"f_float":3.4028235677973366e38})", p);  // halfway: rounds to infinity
    EXPECT_EQ(res.message(), "f_float: number out of range for float at byte 11");
}

TEST(JsonRead, Leniencies) {
    everything::Primitives p;
    fastwire::json::reader r;
    // floats given as integers (even beyond int32), a decimal as "0.0" or as a number, NaN
    // strings, unknown keys skipped, missing keys kept.
    auto res = r.read(R"({"f_float":3000000000,"f_double":-5,"f_decimal":"0.0","unknown":{"a":[1,2]},"f_int32":7})", p);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_float, 3e9f);
    EXPECT_EQ(p.f_double, -5.0);
    EXPECT_TRUE(p.f_decimal.identical(fastwire::decimal(0, 1)));
    EXPECT_EQ(p.f_int32, 7);
    EXPECT_EQ(p.f_string, "Hello, \"world\"!\n");  // missing: kept
    res = r.read(R"({"f_decimal":-1.23456e+3,"f_double":"-Infinity","f_float":"NaN"})", p);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_decimal.to_string(), "-1234.56");
    EXPECT_TRUE(std::isinf(p.f_double) && p.f_double < 0);
    EXPECT_TRUE(std::isnan(p.f_float));
    everything::Optionals o;
    res = r.read(R"({"f_enum":255,"f_flags":7,"f_int32":null,"f_struct":{}})", o);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(o.f_enum, everything::EnumByte::a3);
    EXPECT_EQ(o.f_flags, everything::Flags::abc);
    EXPECT_FALSE(o.f_int32.has_value());
    EXPECT_TRUE(o.f_struct.has_value());
    // keys spelled with escapes are still recognised
    proto::Balance b;
    res = r.read(R"({"curr\u0065ncy":"A\u00e9","\u0061mount":2})", b);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(b.currency, "A\xc3\xa9");
    EXPECT_EQ(b.amount, 2.0);
    // reference test input style (spec §9)
    res = r.read(R"({"f_double":-1.23456e+125,"f_decimal":"0.0"})", p);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_double, -1.23456e+125);
}

TEST(JsonRead, DepthIsLimited) {
    fastwire::limits lim;
    lim.max_depth = 2;  // the account (1) and its wallet (2), but not the orders' elements (3)
    fastwire::json::reader r(lim);
    proto::Account a;
    auto res = r.read(slurp("account.json"), a);
    EXPECT_FALSE(res);
    EXPECT_EQ(res.path(), "orders[0]");
    EXPECT_NE(res.message().find("nested too deeply"), std::string::npos) << res.message();
    std::string deep(100000, '[');
    res = fastwire::json::from_json(deep, a);  // simdjson's own depth limit
    EXPECT_FALSE(res);
}

// ---- round trip of every type -------------------------------------------------------------

namespace {

everything::Primitives primitives(int seed) {
    everything::Primitives p;
    p.f_bool = seed % 2 == 0;
    p.f_byte = static_cast<std::uint8_t>(200 + seed);
    p.f_char = static_cast<char>(0xE0 + seed);
    p.f_wchar = static_cast<wchar_t>(0x1F600 + seed);
    p.f_int8 = static_cast<std::int8_t>(-100 - seed);
    p.f_uint8 = 255;
    p.f_int16 = -32768;
    p.f_uint16 = static_cast<std::uint16_t>(65000 + seed);
    p.f_int32 = -2147483647 - 1;
    p.f_uint32 = 4000000000u + static_cast<std::uint32_t>(seed);
    p.f_int64 = std::numeric_limits<std::int64_t>::min() + seed;
    p.f_uint64 = std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(seed);
    p.f_float = 0.1f * static_cast<float>(seed + 1);
    p.f_double = seed == 0 ? 5e-324 : -1.23456e125 * seed;
    p.f_decimal = *fastwire::decimal::from_string(seed == 0 ? "-79228162514264337593543950335"
                                                            : "0.0000000000000000000000000001");
    p.f_string = seed == 0 ? std::string("tab\t \"q\" \\ \x01 \xe2\x82\xac") : std::string();
    p.f_bytes = seed == 0 ? fastwire::bytes{0, 1, 2, 254, 255} : fastwire::bytes{7};
    p.f_epoch = 1;
    p.f_utc = seed == 0 ? 1700000000000000000ull : 1700000000000000001ull;
    p.f_ns = 0;
    p.f_uuid0 = fastwire::uuid();
    p.f_uuid1 = fastwire::uuid::literal("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
    p.f_uuid4 = fastwire::uuid::literal("f47ac10b-58cc-4372-a567-0e02b2c3d479");
    p.password = "pw";
    return p;
}

everything::Optionals optionals(int seed) {
    everything::Optionals o;
    o.f_bool = seed % 2 == 0;
    o.f_int32 = seed == 1 ? std::nullopt : std::optional<std::int32_t>(-seed);
    o.f_string = std::string("s") + std::to_string(seed);
    o.f_decimal = fastwire::decimal(150, 2);
    o.f_uuid = fastwire::uuid::literal("123e4567-e89b-12d3-a456-426655440000");
    o.f_time = 42u;
    o.f_enum = seed == 0 ? everything::EnumByte::a3 : static_cast<everything::EnumByte>(77);  // unknown value kept
    o.f_flags = everything::Flags::ab;
    if (seed == 0) o.f_struct = primitives(1);
    o.f_order = proto::Order(5, "X", proto::OrderSide::sell, proto::OrderType::stop, 0.5, -0.0);
    o.f_reset = seed == 0 ? std::optional<std::int64_t>(-1) : std::nullopt;
    o.f_resetReset = true;
    return o;
}

template <class T>
void round_trip(const T& value) {
    const std::string text = fastwire::json::to_json(value);
    const std::string pretty = fastwire::json::to_json(value, true);
    fastwire::json::reader r;
    for (const std::string* t : {&text, &pretty}) {
        T back{};
        auto res = r.read(*t, back);
        ASSERT_TRUE(res) << res.message() << "\n" << *t;
        EXPECT_EQ(fastwire::json::to_json(back), text);
        EXPECT_EQ(bytes_of(back), bytes_of(value)) << text;
        // Reading over a value that already holds other data gives the same result.
        T reused = value;
        res = r.read(*t, reused);
        ASSERT_TRUE(res) << res.message();
        EXPECT_EQ(bytes_of(reused), bytes_of(value));
    }
}

}  // namespace

TEST(JsonRoundTrip, Primitives) {
    round_trip(primitives(0));
    round_trip(primitives(1));
    round_trip(everything::Primitives());
}

TEST(JsonRoundTrip, Optionals) {
    round_trip(optionals(0));
    round_trip(optionals(1));
    everything::Optionals none;
    none.f_int32.reset();
    none.f_string.reset();
    none.f_decimal.reset();
    none.f_uuid.reset();
    none.f_time.reset();
    none.f_enum.reset();
    none.f_flags.reset();
    round_trip(none);
}

TEST(JsonRoundTrip, Collections) {
    everything::Collections c;
    c.f_array = {1, -2, 3};
    c.f_array_optional = {std::optional<std::string>("a"), std::nullopt};
    c.f_array_struct = {primitives(0), primitives(1)};
    c.f_vector = {0, 1, 255};
    c.f_vector_optional = {everything::EnumByte::a1, std::nullopt};
    c.f_vector_struct = seed_account().orders;
    c.f_list = {"x", "", "z"};
    c.f_list_optional = {std::nullopt, optionals(0)};
    c.f_set = {-5, 0, std::numeric_limits<std::int64_t>::max()};
    c.f_set_struct = {proto::Balance("EUR", 1.0), proto::Balance("USD", 2.0)};
    c.f_map = {{-1, "m"}, {7, "s"}};
    c.f_map_optional = {{"a", 1.5}, {"b", std::nullopt}, {"\"quoted\"", 0.0}};
    c.f_map_enum_key = {{everything::EnumByte::a0, optionals(0)}, {everything::EnumByte::a2, optionals(1)}};
    c.f_hash = {{fastwire::uuid::literal("123e4567-e89b-12d3-a456-426655440000"), fastwire::bytes{1, 2, 3}}};
    c.f_hash_optional = {{"k", primitives(1)}};
    c.f_hash_struct_key = {
        {proto::Order(9, "K", proto::OrderSide::buy, proto::OrderType::limit, 1.0, 2.0), optionals(1)}};
    round_trip(c);
    round_trip(everything::Collections());
}

TEST(JsonRoundTrip, InheritanceAndTheRest) {
    everything::MoreDerived m;
    m.name = "base";
    m.level = -3;
    m.serial = 12;
    m.weight = 0.75;
    m.last = true;
    EXPECT_EQ(fastwire::json::to_json(m), R"({"name":"base","level":-3,"serial":12,"weight":0.75,"last":true})");
    round_trip(m);
    everything::Wallet w;
    w.currency = "CHF";
    w.amount = 3.25;
    w.reserved = fastwire::decimal(-125, 2);
    EXPECT_EQ(fastwire::json::to_json(w), R"({"currency":"CHF","amount":3.25,"reserved":"-1.25"})");
    round_trip(w);
    everything::ExAccount ex;
    ex.name = "ex";
    round_trip(ex);
    round_trip(everything::Fixed());
    round_trip(everything::Next());
    round_trip(everything::Shifted());
    round_trip(everything::PingRequest());
    round_trip(everything::Notify());
    round_trip(everything::Empty());
    EXPECT_EQ(fastwire::json::to_json(everything::Empty()), "{}");
    EXPECT_EQ(fastwire::json::to_json(everything::Empty(), true), "{}");
    round_trip(seed_account());
}

// Found by fuzz_json (cpp/fuzz/regressions/json/is-null-on-malformed-token): a malformed
// token where an optional struct was expected made simdjson's is_null() report an error,
// and converting that result to bool threw out of the reader.
TEST(JsonRead, MalformedTokenInAnOptionalIsAnErrorNotAnException) {
    static const char input[] =
        "{\"uid\":1,\"name\":\"Test\",\"state\":6,\"wallet\":{\"currency\":\"USD\","
        "\"amount\":2000.0},\"asset\":n\"lume\":1000.0},\001\000a\020\000CT-:\"USD\",\"amo"
        "unt\":1000.0},\"asset\":{\"currside\":1000.0e\":2,\"pricm\":1.5,%vol"
        "ume\":10.0}]}";
    const std::string text(input, sizeof input - 1);
    fastwire::json::reader r;
    proto::Account a;
    fastwire::json::result res = r.read(text, a);
    EXPECT_FALSE(res);
    EXPECT_NE(res.message().find("asset"), std::string::npos) << res.message();
    const std::string cut = "{\"uid\":1,\"asset\":n\"x\"}";
    EXPECT_FALSE(r.read(cut, a));
}

// Hostile text (docs/wire-format.md#json, issue 37): Base64 must be padded standard
// Base64 (D3), a decimal given as a number must be a JSON number (D4), and -0 is 0 in
// every integer kind (D5).
TEST(JsonRead, Base64IsPaddedStandardBase64) {
    everything::Primitives p;
    fastwire::json::reader r;
    const std::pair<const char*, std::string> good[] = {{"QQ==", "A"},           {"QR==", "A"},   {"QUI=", "AB"},
                                                        {"QUJ=", "AB"},          {"QUJD", "ABC"}, {"", ""},
                                                        {"+/+/", "\xfb\xff\xbf"}};
    for (const auto& [text, want] : good) {
        auto res = r.read(std::string(R"({"f_bytes":")") + text + "\"}", p);
        ASSERT_TRUE(res) << text << ": " << res.message();
        EXPECT_EQ(std::string(p.f_bytes.begin(), p.f_bytes.end()), want) << text;
    }
    for (const char* bad : {"NaN", "QQ", "QQ=", "Q===", "====", "=", "QQ==QQ==", "Q=Q=", "-_-_", "QU JD", "QUJD\\n",
                            "QUJ*", "QUJ\\u00e9"}) {
        auto res = r.read(std::string(R"({"f_bytes":")") + bad + "\"}", p);
        EXPECT_FALSE(res) << bad;
        EXPECT_EQ(res.what(), "expected a Base64 string") << bad;
    }
}

TEST(JsonRead, DecimalNumberMustBeAJsonNumber) {
    everything::Shifted s;
    fastwire::json::reader r;
    for (const char* bad : {"01", "-01.5", "00", "01e2"}) {
        auto res = r.read(std::string(R"({"amount":)") + bad + "}", s);
        EXPECT_FALSE(res) << bad;
    }
    for (const auto& [text, want] : {std::pair<const char*, const char*>{"\"01\"", "1"},
                                     {"0", "0"},
                                     {"-0", "-0"},
                                     {"1.50", "1.50"},
                                     {"1e2", "100"}}) {
        auto res = r.read(std::string(R"({"amount":)") + text + "}", s);
        ASSERT_TRUE(res) << text << ": " << res.message();
        EXPECT_EQ(s.amount.to_string(), want) << text;
    }
}

TEST(JsonRead, MinusZeroIsZeroInEveryIntegerKind) {
    everything::Primitives p;
    fastwire::json::reader r;
    auto res = r.read(R"({"f_byte":-0,"f_char":-0,"f_wchar":-0,"f_int8":-0,"f_uint8":-0,"f_uint16":-0,)"
                      R"("f_uint32":-0,"f_int64":-0,"f_uint64":-0,"f_epoch":-0,"f_utc":-0,"f_ns":-0})",
                      p);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(p.f_byte, 0);
    EXPECT_EQ(p.f_char, 0);
    EXPECT_EQ(p.f_wchar, 0u);
    EXPECT_EQ(p.f_int8, 0);
    EXPECT_EQ(p.f_uint8, 0);
    EXPECT_EQ(p.f_uint16, 0);
    EXPECT_EQ(p.f_uint32, 0u);
    EXPECT_EQ(p.f_int64, 0);
    EXPECT_EQ(p.f_uint64, 0u);
    EXPECT_EQ(p.f_epoch, 0u);
    EXPECT_EQ(p.f_utc, 0u);
    EXPECT_EQ(p.f_ns, 0u);
    proto::Account a;
    res = r.read(R"({"state":-0,"orders":[{"side":-0}]})", a);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(static_cast<int>(a.state), 0);
    EXPECT_EQ(static_cast<int>(a.orders.at(0).side), 0);
    everything::Optionals o;
    res = r.read(R"({"f_enum":-0,"f_flags":-0,"f_time":-0})", o);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(o.f_enum, everything::EnumByte::a0);
    EXPECT_EQ(static_cast<int>(*o.f_flags), 0);
    EXPECT_EQ(o.f_time, 0u);
    everything::Collections c;
    res = r.read(R"({"f_map_enum_key":{"-0":{}},"f_map":{"-0":"z"}})", c);
    ASSERT_TRUE(res) << res.message();
    EXPECT_EQ(c.f_map_enum_key.count(everything::EnumByte::a0), 1u);
    EXPECT_EQ(c.f_map.at(0), "z");
    for (const char* bad : {R"({"f_uint8":-1})", R"({"f_uint8":-0.0})", R"({"f_uint8":-00})", R"({"f_utc":-1})"}) {
        EXPECT_FALSE(r.read(bad, p)) << bad;
    }
}
