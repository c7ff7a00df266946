// Zero-copy views (fastwire/view.h and the generated <Name>View classes): they show what
// deserialize() gives, allocate nothing, read an older struct's missing fields as defaults,
// write fixed-size fields in place, and never read outside the bytes, verified or not.
#include <gtest/gtest.h>

#include <fastwire/internal/view_check.h>

#include "everything_models.h"
#include "protoex_models.h"
#include "test_alloc.h"
#include "test_util.h"

using fastwire::internal::view_matches;

namespace {

// Attaches `bytes`, verifies, deserializes, and checks the view against the value.
template <class S>
void expect_view_matches_deserialize(const std::vector<std::uint8_t>& bytes) {
    fastwire::model<S> m;
    m.attach(bytes);
    ASSERT_TRUE(m.verify());
    S value;
    ASSERT_TRUE(m.deserialize(value));
    EXPECT_TRUE(view_matches(value, m.view()));
    EXPECT_TRUE(view_matches(value, m.trusted_view()));  // verified: no checks needed
    EXPECT_TRUE(view_matches(value, *m.checked_view()));
}

}  // namespace

TEST(Views, SeedAccountFieldByField) {
    const auto bytes = testutil::load_hex("account.fbe.hex");
    proto::AccountModel m;
    m.attach(bytes);
    ASSERT_TRUE(m.verify());
    Counting c;  // nothing below allocates
    proto::AccountView v = m.view();
    EXPECT_EQ(v.uid(), 1);
    EXPECT_EQ(v.name(), "Test");
    EXPECT_EQ(v.state(), proto::State::good);
    EXPECT_EQ(v.wallet().currency(), "USD");
    EXPECT_EQ(v.wallet().amount(), 1000.0);
    ASSERT_TRUE(v.asset().has_value());
    EXPECT_EQ(v.asset()->currency(), "EUR");
    EXPECT_EQ(v.asset()->amount(), 100.0);
    ASSERT_EQ(v.orders().size(), 3u);
    EXPECT_EQ(v.orders()[0].price(), 1.23456);
    EXPECT_EQ(v.orders()[1].side(), proto::OrderSide::sell);
    EXPECT_EQ(v.orders()[2].type(), proto::OrderType::stop);
    double volume = 0;
    for (proto::OrderView o : v.orders()) volume += o.volume();
    EXPECT_EQ(volume, 1110.0);
    EXPECT_EQ(v.orders().end() - v.orders().begin(), 3);
    // The strings point into the buffer: no copy.
    EXPECT_GE(v.name().data(), reinterpret_cast<const char*>(bytes.data()));
    EXPECT_LT(v.name().data(), reinterpret_cast<const char*>(bytes.data() + bytes.size()));
    EXPECT_EQ(fastwire::view<proto::Account>(bytes.data(), bytes.size()).wallet().currency(), "USD");
    // The trusted view of the verified bytes: the same values, with no checks.
    proto::AccountTrustedView t = fastwire::trusted_view<proto::Account>(bytes.data(), bytes.size());
    EXPECT_EQ(t.wallet().currency(), "USD");
    EXPECT_EQ(t.asset()->amount(), 100.0);
    EXPECT_EQ(t.orders()[2].type(), proto::OrderType::stop);
    for (proto::OrderTrustedView o : t.orders()) volume -= o.volume();
    EXPECT_EQ(volume, 0.0);
    static_assert(std::is_same_v<decltype(m.checked_view()), std::optional<proto::AccountTrustedView>>);
    EXPECT_EQ(c.bytes(), 0u);
}

TEST(Views, GoldenVectorsMatchDeserialize) {
    expect_view_matches_deserialize<proto::Account>(testutil::load_hex("account.fbe.hex"));
    expect_view_matches_deserialize<proto::Order>(testutil::load_hex("order.fbe.hex"));
    expect_view_matches_deserialize<proto::Balance>(testutil::load_hex("balance.fbe.hex"));
}

TEST(Views, EveryKindOfFieldMatchesDeserialize) {
    everything::Collections all;
    all.f_vector = {1, 2, 3};
    all.f_list = {"a", "bc"};
    all.f_set = {3, 1, 2};
    all.f_map[1] = "one";
    all.f_map[2] = "two";
    all.f_map_optional["k"] = 1.5;
    all.f_map_optional["n"] = std::nullopt;
    all.f_array_optional[1] = "seven";
    fastwire::model<everything::Collections> w;
    w.serialize(all);
    const auto bytes = w.buffer().to_vector();
    expect_view_matches_deserialize<everything::Collections>(bytes);
    expect_view_matches_deserialize<everything::Primitives>([] {
        fastwire::model<everything::Primitives> p;
        p.serialize(everything::Primitives{});
        return p.buffer().to_vector();
    }());

    const auto v = w.view();
    EXPECT_EQ(v.f_vector().size(), 3u);
    EXPECT_EQ(v.f_list()[1], "bc");
    std::size_t n = 0;
    for (auto e : v.f_map()) n += e.value.size();
    EXPECT_EQ(n, 6u);
    EXPECT_FALSE(v.f_array_optional()[0].has_value());
    EXPECT_EQ(v.f_array_optional()[1], "seven");
    // Not a view that matches another value.
    all.f_vector[2] = 4;  // was 3
    EXPECT_FALSE(view_matches(all, v));
}

// An older writer's body ends before the fields whose defaults are made afresh (f_utc,
// f_uuid1, f_uuid4): deserialize() and the view each make their own, which is no
// disagreement (the conformance testee raised false alarms on such input; issue 37).
TEST(Views, FreshDefaultsBeyondAnOlderBodyMatch) {
    fastwire::model<everything::Primitives> w;
    w.serialize(everything::Primitives{});
    std::vector<std::uint8_t> bytes = w.buffer().to_vector();
    ASSERT_EQ(fastwire::load_le<std::uint32_t>(bytes.data() + 8),
              fastwire::versioned::layout<everything::Primitives>::body);
    const std::uint32_t f_utc_at = fastwire::versioned::layout<everything::Primitives>::offsets[18];
    ASSERT_EQ(f_utc_at, 89u);
    fastwire::store_le<std::uint32_t>(bytes.data() + 8, f_utc_at);  // the body ends before f_utc
    expect_view_matches_deserialize<everything::Primitives>(bytes);
    fastwire::model<everything::Primitives> m;
    m.attach(bytes);
    everything::Primitives value;
    ASSERT_TRUE(m.deserialize(value));
    EXPECT_NE(value.f_uuid4, m.view().f_uuid4());  // made afresh by each
    // The fields the body holds are still compared.
    value.f_epoch = 1;
    EXPECT_FALSE(view_matches(value, m.view()));
}

TEST(Views, OlderStructReadsDefaults) {
    // proto.Order has no tp/sl: protoex's view of proto bytes gives the defaults, as
    // deserialize() does, and cannot write them.
    const auto bytes = testutil::load_hex("account.fbe.hex");
    protoex::AccountModel m;
    m.attach(bytes);
    ASSERT_TRUE(m.verify());
    const protoex::AccountView v = m.view();
    EXPECT_EQ(v.orders()[0].tp(), 10.0);
    EXPECT_EQ(v.orders()[0].sl(), -10.0);
    EXPECT_EQ(v.wallet().locked(), 0.0);
    expect_view_matches_deserialize<protoex::Account>(bytes);
    auto copy = bytes;
    protoex::AccountModel w;
    w.attach(copy);
    protoex::OrderMutableView order(w.view().orders()[0]);
    EXPECT_FALSE(order.set_tp(1.0));
    EXPECT_TRUE(order.set_price(2.0));
}

TEST(Views, MutableViewWritesInPlace) {
    proto::AccountModel m;
    m.serialize(testutil::seed_account());
    const auto before = m.buffer().to_vector();
    proto::AccountMutableView v = m.mutable_view();
    EXPECT_TRUE(v.set_uid(42));
    EXPECT_TRUE(v.set_state(proto::State::bad));
    EXPECT_TRUE(proto::OrderMutableView(v.orders()[1]).set_price(2.5));
    EXPECT_TRUE(proto::BalanceMutableView(*v.asset()).set_amount(7.0));
    ASSERT_TRUE(m.verify());
    EXPECT_EQ(m.buffer().size(), before.size());
    proto::Account a;
    ASSERT_TRUE(m.deserialize(a));
    proto::Account expected = testutil::seed_account();
    expected.uid = 42;
    expected.state = proto::State::bad;
    expected.orders[1].price = 2.5;
    expected.asset->amount = 7.0;
    EXPECT_EQ(testutil::str(a), testutil::str(expected));
}

// checked_view() = verify() + a trusted view: over every truncation and every corrupted
// byte of the seed account it either refuses or gives a view that matches deserialize()
// and, read in full, stays inside the bytes (the sanitizer build checks each read: the
// trusted view checks nothing itself, so this is verify()'s guarantee).
TEST(Views, CheckedViewOfDamagedBytes) {
    const auto golden = testutil::load_hex("account.fbe.hex");
    proto::AccountModel m;
    for (std::size_t n = 0; n < golden.size(); ++n) {
        const std::vector<std::uint8_t> cut(golden.begin(), golden.begin() + static_cast<std::ptrdiff_t>(n));
        m.attach(cut);
        EXPECT_FALSE(m.checked_view().has_value()) << n;
    }
    std::size_t refused = 0;
    for (std::size_t i = 0; i < golden.size(); ++i) {
        for (std::uint8_t x : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
            auto bad = golden;
            bad[i] = static_cast<std::uint8_t>(bad[i] ^ x);
            m.attach(bad);
            const auto v = m.checked_view();
            if (!v) {
                ++refused;
                continue;
            }
            proto::Account value;
            ASSERT_TRUE(m.deserialize(value));
            EXPECT_TRUE(view_matches(value, *v)) << i;
            EXPECT_EQ(fastwire::internal::touch_all(*v), fastwire::internal::touch_all(m.view())) << i;
        }
    }
    EXPECT_GT(refused, 0u);
}

// Without verify(): over every truncation and bit flip, reading everything a view shows
// stays inside the bytes (the sanitizer build checks each read), and a truncated model
// never shows bytes beyond its end.
TEST(Views, UnverifiedBytesAreNeverReadOutside) {
    const auto golden = testutil::load_hex("account.fbe.hex");
    proto::AccountModel m;
    std::uint64_t sum = 0;
    for (std::size_t n = 0; n <= golden.size(); ++n) {
        // A copy of exactly n bytes on the heap: a read past it is a sanitizer error.
        const std::vector<std::uint8_t> cut(golden.begin(), golden.begin() + static_cast<std::ptrdiff_t>(n));
        m.attach(cut);
        const std::uint64_t seen = fastwire::internal::touch_all(m.view());
        // fastwire::view<S>(data, size): the same view without a model.
        EXPECT_EQ(fastwire::internal::touch_all(fastwire::view<proto::Account>(cut.data(), cut.size())), seen) << n;
        sum += seen;
    }
    for (std::size_t i = 0; i < golden.size(); ++i) {
        for (std::uint8_t x : {std::uint8_t{0x01}, std::uint8_t{0x10}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
            auto bad = golden;
            bad[i] = static_cast<std::uint8_t>(bad[i] ^ x);
            m.attach(bad);
            sum += fastwire::internal::touch_all(m.view());
        }
    }
    EXPECT_GT(sum, 0u);

    everything::Collections all;
    all.f_list = {"a", "bc"};
    all.f_map[1] = "one";
    all.f_map_optional["k"] = 1.5;
    all.f_vector_struct.resize(2);
    fastwire::model<everything::Collections> w;
    w.serialize(all);
    const auto bytes = w.buffer().to_vector();
    fastwire::model<everything::Collections> r;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        auto bad = bytes;
        bad[i] = static_cast<std::uint8_t>(bad[i] ^ 0x40);
        r.attach(bad);
        sum += fastwire::internal::touch_all(r.view());
        if (const auto v = r.checked_view()) sum += fastwire::internal::touch_all(*v);  // verified: trusted
        const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(i));
        r.attach(cut);
        sum += fastwire::internal::touch_all(r.view());
    }
    EXPECT_GT(sum, 0u);
}

TEST(Views, DefaultViewsAreEmpty) {
    const proto::AccountView v;
    EXPECT_EQ(v.uid(), 0);
    EXPECT_EQ(v.name(), "");
    EXPECT_EQ(v.state(), proto::State::initialized | proto::State::bad);
    EXPECT_EQ(v.wallet().currency(), "");
    EXPECT_FALSE(v.asset().has_value());
    EXPECT_TRUE(v.orders().empty());
}
