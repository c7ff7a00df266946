// The final (compact) format: the reference's golden bytes, layouts computed by hand from
// spec §3 (so a bug shared by writer and reader cannot pass), and round trips of every
// codec with extremes, including every type of schemas/everything.fbe.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "everything_models.h"  // generated with FINAL: <Name>final_model aliases
#include "test_everything.h"
#include "test_types.h"
#include "test_util.h"

using testutil::load_hex;
using testutil::parse_hex;
using testutil::seed_account;
using testutil::str;

namespace {

template <class S>
std::vector<std::uint8_t> serialize(const S& v) {
    fastwire::final_model<S> m;
    m.serialize(v);
    return m.buffer().to_vector();
}

// Serialize, verify, read into a fresh object and into a reused "dirty" one; both must
// equal the input and re-serialize to the same bytes (hash maps: the same size).
template <class S>
S round_trip(const S& v, const S& dirty = S{}, bool stable_bytes = true) {
    fastwire::final_model<S> w;
    const std::size_t n = w.serialize(v);
    EXPECT_EQ(n, w.buffer().size());
    const auto vs = w.verify();
    EXPECT_TRUE(vs) << vs.message();
    EXPECT_EQ(vs.size(), n);

    fastwire::final_model<S> r;
    r.attach(w.buffer());
    S fresh{};
    const auto st = r.deserialize(fresh);
    EXPECT_TRUE(st) << st.message();
    EXPECT_EQ(st.size(), n);
    S reused = dirty;
    EXPECT_TRUE(r.deserialize(reused));
    EXPECT_TRUE(reused == fresh);
    if (stable_bytes)
        EXPECT_EQ(serialize(fresh), w.buffer().to_vector());
    else
        EXPECT_EQ(serialize(fresh).size(), w.buffer().size());
    return fresh;
}

const char* const seed_text =
    "Account(uid=1,name=\"Test\",state=initialized|calculated|good,wallet=Balance(currency=\"USD\",amount=1000),"
    "asset=Balance(currency=\"EUR\",amount=100),orders=[3][Order(uid=1,symbol=\"EURUSD\",side=buy,type=market,"
    "price=1.23456,volume=1000),Order(uid=2,symbol=\"EURUSD\",side=sell,type=limit,price=1,volume=100),"
    "Order(uid=3,symbol=\"EURUSD\",side=buy,type=stop,price=1.5,volume=10)])";

}  // namespace

// ---- the reference's bytes ---------------------------------------------------------------------

TEST(FinalGolden, AccountSerializesToReferenceBytes) {
    proto::AccountFinalModel writer;
    EXPECT_EQ(writer.serialize(seed_account()), 152u);
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("account.final.hex"));
    EXPECT_EQ(writer.verify().size(), 152u);
}

TEST(FinalGolden, OrderAndBalanceSerializeToReferenceBytes) {
    proto::OrderFinalModel order;
    order.serialize(proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0));
    EXPECT_EQ(testutil::bytes_of(order.buffer()), load_hex("order.final.hex"));
    EXPECT_TRUE(order.verify());
    proto::BalanceFinalModel balance;
    balance.serialize(proto::Balance("USD", 1000.0));
    EXPECT_EQ(testutil::bytes_of(balance.buffer()), load_hex("balance.final.hex"));
    EXPECT_TRUE(balance.verify());
}

TEST(FinalGolden, ReferenceBytesDeserialize) {
    const auto bytes = load_hex("account.final.hex");
    proto::AccountFinalModel reader;
    reader.attach(bytes);
    ASSERT_TRUE(reader.verify());
    proto::Account a;
    const fastwire::status s = reader.deserialize(a);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(s.size(), 152u);
    EXPECT_EQ(str(a), seed_text);

    const auto ob = load_hex("order.final.hex");
    proto::OrderFinalModel orders;
    orders.attach(ob);
    proto::Order o;
    ASSERT_TRUE(orders.deserialize(o));
    EXPECT_EQ(str(o), str(proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0)));

    const auto bb = load_hex("balance.final.hex");
    proto::BalanceFinalModel balances;
    balances.attach(bb.data(), bb.size());
    proto::Balance b;
    ASSERT_TRUE(balances.deserialize(b));
    EXPECT_EQ(str(b), str(proto::Balance("USD", 1000.0)));
}

// serialize() writes every byte itself: a dirty buffer gives the same bytes.
TEST(FinalGolden, NoZeroFillNeeded) {
    proto::AccountFinalModel writer;
    std::memset(writer.buffer().append(4096), 0xA5, 4096);
    writer.reset();
    writer.serialize(seed_account());
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("account.final.hex"));
}

// The API of model<S>: append, view, size, next over a stream of models.
TEST(final_model, StreamOfModels) {
    proto::AccountFinalModel w;
    const std::size_t a = w.serialize(seed_account());
    const std::size_t b = w.serialize(proto::Account{});
    EXPECT_EQ(w.buffer().size(), a + b);
    EXPECT_EQ(w.size(), a);
    proto::AccountFinalModel r;
    r.attach(w.buffer());
    proto::Account x;
    auto s = r.deserialize(x);
    ASSERT_TRUE(s);
    EXPECT_EQ(str(x), seed_text);
    r.next(s.size());
    EXPECT_EQ(r.bytes().size(), b);
    EXPECT_EQ(r.size(), b);
    ASSERT_TRUE(r.deserialize(x));
    EXPECT_EQ(str(x), str(proto::Account{}));
    r.next(b);
    EXPECT_EQ(r.size(), 0u);
    EXPECT_EQ(r.verify(), fastwire::errc::truncated);
    static_assert(proto::AccountFinalModel::type() == 3, "");
}

// ---- layouts computed by hand --------------------------------------------------------------------

TEST(FinalLayout, Sizes) {
    using namespace fastwire::final;
    static_assert(codec<bool>::min_size == 1 && codec<wchar_t>::min_size == 4 && codec<double>::min_size == 8, "");
    static_assert(codec<fastwire::decimal>::min_size == 16 && codec<fastwire::uuid>::fixed, "");
    static_assert(codec<std::string>::min_size == 4 && !codec<std::string>::fixed, "");
    static_assert(codec<std::optional<t::Point>>::min_size == 1, "");
    static_assert(codec<std::array<std::int16_t, 3>>::min_size == 6 && codec<std::array<std::int16_t, 3>>::fixed, "");
    static_assert(codec<t::Point>::min_size == 8 && codec<t::Point>::fixed && codec<t::Point>::levels == 1, "");
    static_assert(codec<t::Empty>::min_size == 0 && codec<t::Empty>::fixed, "");
    static_assert(codec<t::Derived>::min_size == 4 + 4 + 4 + 1, "");
    static_assert(codec<proto::Order>::min_size == 4 + 4 + 1 + 1 + 8 + 8, "");
    static_assert(codec<t::Tree>::min_size == 8, "a recursive struct: its vector's count word");
}

TEST(FinalLayout, RootAndScalars) {
    EXPECT_EQ(serialize(t::Point{1, 2}), parse_hex("10000000 0a000000 01000000 02000000"));
    EXPECT_EQ(serialize(t::Empty{}), parse_hex("08000000 13000000"));
}

TEST(FinalLayout, OptionalsAreInline) {
    t::Optionals o;
    o.o_i32 = 5;
    o.o_string = "hi";
    o.o_point = t::Point{7, 8};
    EXPECT_EQ(serialize(o), parse_hex("23000000 0d000000"
                                      "00"                    // o_bool: null
                                      "01 05000000"           // o_i32
                                      "01 02000000 6869"      // o_string
                                      "00 00 00 00"           // o_bytes, o_decimal, o_uuid, o_color
                                      "01 07000000 08000000"  // o_point: its fields inline
                                      "00"));                 // o_double
}

TEST(FinalLayout, CollectionsAndInheritance) {
    t::Texts x;
    x.s = "ab";
    x.b = fastwire::bytes{1, 2, 3};
    x.v = {9};
    EXPECT_EQ(serialize(x), parse_hex("1a000000 0c000000 02000000 6162 03000000 010203 01000000 09"));

    t::Derived d;
    d.x = 1;
    d.y = 2;
    d.label = "L";
    EXPECT_EQ(serialize(d), parse_hex("16000000 10000000 01000000 02000000 01000000 4c 00"));

    t::Bag bag;
    bag.items = {t::Point{1, 2}, std::nullopt};
    EXPECT_EQ(serialize(bag), parse_hex("16000000 0e000000 02000000 01 01000000 02000000 00"));

    t::Collections c;
    c.m = {{1, "a"}, {2, "bc"}};
    c.v_bool = {true, false};
    const auto bytes = serialize(c);
    // a (12) + a_opt (2 flags) + a_struct (16) = 30 bytes after the header, then v_bool.
    EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin() + 38, bytes.begin() + 44), parse_hex("02000000 01 00"));
    // m: [2][1]["a"][2]["bc"] somewhere after: find it.
    const auto m = parse_hex("02000000 01000000 01000000 61 02000000 02000000 6263");
    EXPECT_NE(std::search(bytes.begin(), bytes.end(), m.begin(), m.end()), bytes.end());
}

// ---- round trips -----------------------------------------------------------------------------------

TEST(FinalRoundTrip, ScalarLimits) {
    t::Scalars lo, hi;
    lo.f_char = std::numeric_limits<char>::min();
    lo.f_wchar = std::numeric_limits<wchar_t>::min();
    lo.f_i8 = std::numeric_limits<std::int8_t>::min();
    lo.f_i16 = std::numeric_limits<std::int16_t>::min();
    lo.f_i32 = std::numeric_limits<std::int32_t>::min();
    lo.f_i64 = std::numeric_limits<std::int64_t>::min();
    lo.f_float = -std::numeric_limits<float>::max();
    lo.f_double = std::numeric_limits<double>::lowest();
    lo.f_decimal = fastwire::decimal::from_parts(~0ull, ~0u, 28, true);
    lo.f_color = t::Color::red;
    hi.f_bool = true;
    hi.f_char = std::numeric_limits<char>::max();
    hi.f_wchar = std::numeric_limits<wchar_t>::max();
    hi.f_u8 = std::numeric_limits<std::uint8_t>::max();
    hi.f_u16 = std::numeric_limits<std::uint16_t>::max();
    hi.f_u32 = std::numeric_limits<std::uint32_t>::max();
    hi.f_u64 = std::numeric_limits<std::uint64_t>::max();
    hi.f_float = std::numeric_limits<float>::denorm_min();
    hi.f_double = std::numeric_limits<double>::infinity();
    hi.f_decimal = fastwire::decimal::from_parts(~0ull, ~0u, 0, false);
    hi.f_uuid = fastwire::uuid::literal("ffffffff-ffff-ffff-ffff-ffffffffffff");
    hi.f_timestamp = std::numeric_limits<std::uint64_t>::max();
    hi.f_perm = t::Perm::r | t::Perm::x | t::Perm::top;
    hi.f_letter = t::Letter::z;
    hi.f_wide = t::Wide::smile;
    hi.f_big = t::Big::max;
    EXPECT_TRUE(round_trip(lo, hi) == lo);
    EXPECT_TRUE(round_trip(hi, lo) == hi);

    t::Scalars nan;
    const std::uint32_t fbits = 0x7F800001u;
    const std::uint64_t dbits = 0xFFF8000000001234ull;
    std::memcpy(&nan.f_float, &fbits, 4);
    std::memcpy(&nan.f_double, &dbits, 8);
    nan.f_color = static_cast<t::Color>(1234);
    nan.f_decimal = fastwire::decimal(150, 2);
    const t::Scalars back = round_trip(nan);
    EXPECT_TRUE(back == nan);
    EXPECT_EQ(back.f_decimal.to_string(), "1.50");
}

TEST(FinalRoundTrip, Strings) {
    t::Texts empty;
    EXPECT_TRUE(round_trip(empty) == empty);
    t::Texts big;
    big.s.assign(1 << 20, 'x');
    big.b = fastwire::bytes(std::size_t{1} << 20, 0xAB);
    big.v.assign(1 << 20, 0xCD);
    EXPECT_TRUE(round_trip(big) == big);
    EXPECT_TRUE(round_trip(empty, big) == empty);
    t::Texts odd;
    odd.s = std::string("\0\x01\xff\n", 4);
    EXPECT_TRUE(round_trip(odd) == odd);
    for (std::size_t n : {1u, 3u, 4u, 8u, 9u, 16u, 17u, 31u}) {
        odd.s.assign(n, 'q');
        EXPECT_TRUE(round_trip(odd, big) == odd) << n;
    }
}

TEST(FinalRoundTrip, Optionals) {
    t::Optionals none;
    EXPECT_TRUE(round_trip(none) == none);
    t::Optionals all;
    all.o_bool = false;
    all.o_i32 = std::numeric_limits<std::int32_t>::min();
    all.o_string = "";
    all.o_bytes = fastwire::bytes{0};
    all.o_decimal = fastwire::decimal(-1, 3);
    all.o_uuid = fastwire::uuid::v4();
    all.o_color = t::Color::red;
    all.o_point = t::Point{-1, 1};
    all.o_double = -0.0;
    EXPECT_TRUE(round_trip(all) == all);
    EXPECT_TRUE(round_trip(none, all) == none);
    EXPECT_TRUE(round_trip(all, none) == all);
}

TEST(FinalRoundTrip, CollectionSizes) {
    for (std::size_t n : {0u, 1u, 10000u}) {
        t::Collections c;
        c.a = {1, 2, 3};
        c.a_opt = {std::nullopt, std::string(n % 7, 'a')};
        c.a_struct = {t::Point{1, 2}, t::Point{3, 4}};
        for (std::size_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::int32_t>(i);
            c.v_bool.push_back(i % 3 == 0);
            c.v_double.push_back(static_cast<double>(i) / 3);
            c.v_opt.push_back(i % 2 ? std::optional<t::Color>(t::Color::blue) : std::nullopt);
            c.v_struct.push_back(t::Point{k, -k});
            c.v_string.push_back(std::to_string(i));
            c.l_string.push_back(std::string(i % 5, 'l'));
            c.l_opt.push_back(i % 2 ? std::optional<t::Point>(t::Point{k, k}) : std::nullopt);
            c.s_i64.insert(static_cast<std::int64_t>(i) * 1000003 - 5000000000ll);
            c.s_string.insert("s" + std::to_string(i));
            c.s_struct.insert(t::Point{k % 17, k});
            c.m[k] = std::to_string(i * 2);
            c.m_opt["k" + std::to_string(i)] = i % 2 ? std::optional<double>(static_cast<double>(i)) : std::nullopt;
            c.h[fastwire::uuid::v4()] = fastwire::bytes(i % 4, static_cast<std::uint8_t>(i));
            c.h_opt[std::to_string(i)] = i % 3 ? std::optional<t::Point>(t::Point{k, 0}) : std::nullopt;
        }
        for (std::size_t i = 0; i < std::min<std::size_t>(n, 100); ++i) {
            t::Bag bag;
            for (std::size_t j = 0; j < i % 4; ++j)
                bag.items.push_back(j % 2 ? std::optional<t::Point>() : t::Point{static_cast<int>(j), 1});
            c.m_bags["bag" + std::to_string(i)] = bag;
        }
        if (n) {
            t::Optionals o;
            o.o_point = t::Point{5, 5};
            c.m_enum_key[t::Color::red] = o;
            c.m_enum_key[static_cast<t::Color>(99)] = t::Optionals{};
        }
        t::Collections dirty;
        dirty.v_struct.resize(5);
        dirty.m[77] = "gone";
        dirty.s_i64 = {1, 2, 3};
        dirty.h_opt["x"] = t::Point{};
        EXPECT_TRUE(round_trip(c, dirty, n <= 1) == c) << n;
    }
}

TEST(FinalRoundTrip, InheritanceRecursionEmpty) {
    t::MoreDerived m;
    m.x = 3;
    m.y = 4;
    m.label = "more";
    m.other = t::Point{5, 6};
    m.weight = -1.5;
    const t::MoreDerived back = round_trip(m);
    EXPECT_TRUE(static_cast<const t::Derived&>(back) == m);
    EXPECT_EQ(back.weight, -1.5);

    t::Holder h;
    h.p = {1, 1};
    h.oe = t::Empty{};
    h.ve.resize(3);
    h.tree.value = 1;
    h.tree.children = {t::Tree{2, {}}, t::Tree{3, {t::Tree{4, {}}}}};
    EXPECT_TRUE(round_trip(h) == h);
}

// ---- every type of schemas/everything.fbe, through the generated code ---------------------------

namespace {

// Generated structs compare [key] fields only: compare the printed form (every field but
// [hidden] ones) and the bytes of both formats instead.
template <class S>
void everything_round_trip(const S& v) {
    fastwire::final_model<S> fw;
    fw.serialize(v);
    ASSERT_TRUE(fw.verify()) << fw.verify().message();
    S back{};
    ASSERT_TRUE(fw.deserialize(back));
    EXPECT_EQ(str(back), str(v));
    fastwire::final_model<S> again;
    again.serialize(back);
    EXPECT_EQ(again.buffer(), fw.buffer());
    // The same value through the versioned format reads back to the same final bytes.
    fastwire::model<S> vw;
    vw.serialize(v);
    S via{};
    ASSERT_TRUE(vw.deserialize(via));
    fastwire::final_model<S> third;
    third.serialize(via);
    EXPECT_EQ(third.buffer(), fw.buffer());
}

}  // namespace

TEST(FinalEverything, DefaultsOfEveryType) {
    everything_round_trip(everything::Primitives{});
    everything_round_trip(everything::Optionals{});
    everything_round_trip(everything::Collections{});
    everything_round_trip(everything::Fixed{});
    everything_round_trip(everything::Next{});
    everything_round_trip(everything::Shifted{});
    everything_round_trip(everything::Base{});
    everything_round_trip(everything::Derived{});
    everything_round_trip(everything::MoreDerived{});
    everything_round_trip(everything::Wallet{});
    everything_round_trip(everything::ExAccount{});
    everything_round_trip(everything::Ping{});
    everything_round_trip(everything::Pong{});
    everything_round_trip(everything::Refused{});
    everything_round_trip(everything::Failure{});
    everything_round_trip(everything::PingRequest{});
    everything_round_trip(everything::Notify{});
    everything_round_trip(everything::Empty{});
}

TEST(FinalEverything, FilledCollectionsAndOptionals) {
    everything::Optionals o;
    o.f_bool = true;
    o.f_struct = everything::Primitives{};
    o.f_order = proto::Order(7, "X", proto::OrderSide::sell, proto::OrderType::stop, 2.5, 3.0);
    o.f_reset = -1;
    o.f_resetReset = true;
    everything_round_trip(o);

    everything_round_trip(filled_collections());

    everything::ExAccount ex;
    ex.name = "ex";
    ex.orders.resize(2);
    everything_round_trip(ex);
}
