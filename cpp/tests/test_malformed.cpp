// Untrusted input: every truncation and every single-byte change of the golden account,
// random mutations, and crafted attacks (huge counts, backward offsets, deep nesting,
// shared blocks). verify() and deserialize() must agree, never touch memory outside the
// message (run under ASan+UBSan with FASTWIRE_SANITIZE=ON), never hang, and allocate at
// most a small multiple of the message size. A counting operator new measures the last.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <new>
#include <random>

#include "everything_models.h"
#include "test_alloc.h"
#include "test_canonical.h"
#include "test_everything.h"
#include "test_types.h"
#include "test_util.h"

#if defined(__GNUC__) && !defined(__clang__)
// The replacement operator new below uses malloc, so its operator delete uses free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

// ---- counting allocator (test_alloc.h: counts while a Counting scope is active) ----------

void* operator new(std::size_t n) {
    if (testalloc::counting) testalloc::allocated += n;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return ::operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace {

using fastwire::errc;
std::size_t g_checked = 0, g_accepted = 0;

// Checks one candidate message of type S: verify and deserialize agree; an accepted
// message re-serializes to something that verifies and reads back identically; deserialize()
// gives what the general walk alone gives (test_canonical.h), also into a copy of `reused`.
template <class S>
errc check(const std::vector<std::uint8_t>& bytes, const fastwire::limits& lim = {}, const S* reused = nullptr) {
    // An exact-size heap copy, so that ASan sees any read past the end.
    std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size() ? bytes.size() : 1]);
    if (!bytes.empty()) std::memcpy(exact.get(), bytes.data(), bytes.size());
    fastwire::model<S> m(lim);
    m.attach(exact.get(), bytes.size());
    const fastwire::status v = m.verify();
    S value{};
    const fastwire::status d = m.deserialize(value);
    EXPECT_EQ(v.code(), d.code()) << "verify and deserialize disagree";
    testcanon::expect_same_as_general(m, reused);
    ++g_checked;
    if (v) {
        ++g_accepted;
        EXPECT_EQ(v.size(), d.size());
        fastwire::model<S> again(lim);
        again.serialize(value);
        EXPECT_TRUE(again.verify());
        S back{};
        EXPECT_TRUE(again.deserialize(back));
        EXPECT_EQ(fastwire::model<S>().serialize(back), again.buffer().size());
    }
    return v.code();
}

std::vector<std::uint8_t> account_bytes() { return testutil::load_hex("account.fbe.hex"); }

template <class S>
std::vector<std::uint8_t> serialized(const S& v) {
    fastwire::model<S> m;
    m.serialize(v);
    return m.buffer().to_vector();
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    fastwire::store_le<std::uint32_t>(&b[at], v);
}

// The fastest of a few runs of f, in milliseconds: other processes share this machine, so
// a single measurement may include a preemption.
template <class F>
double best_ms(F f) {
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

}  // namespace

TEST(Malformed, EveryTruncation) {
    const auto full = account_bytes();
    const proto::Account seed = testutil::seed_account();
    for (std::size_t k = 0; k < full.size(); ++k) {
        std::vector<std::uint8_t> cut(full.begin(), full.begin() + static_cast<long>(k));
        EXPECT_NE(check<proto::Account>(cut, {}, &seed), errc::ok) << k;
        // The same cut with a consistent header: the body or heap is missing instead.
        if (k >= 4) {
            put32(cut, 0, static_cast<std::uint32_t>(k));
            EXPECT_NE(check<proto::Account>(cut, {}, &seed), errc::ok) << k;
        }
    }
}

TEST(Malformed, EverySingleByteChange) {
    const auto good = account_bytes();
    const proto::Account seed = testutil::seed_account();
    std::size_t accepted = 0, rejected = 0;
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (int change : {0x01, 0x02, 0x10, 0x80, 0xFF, -1, -2}) {
            auto bad = good;
            if (change == -1)
                bad[i] = 0x00;
            else if (change == -2)
                bad[i] = 0xFF;
            else
                bad[i] = static_cast<std::uint8_t>(bad[i] ^ change);
            if (bad == good) continue;
            (check<proto::Account>(bad, {}, &seed) == errc::ok ? accepted : rejected)++;
        }
    }
    // Changes inside values (names, prices) are fine; changes to sizes and offsets are not.
    EXPECT_GT(accepted, 0u);
    EXPECT_GT(rejected, 0u);
    std::cout << "[          ] " << accepted << " changes accepted, " << rejected << " rejected\n";
}

TEST(Malformed, RandomMutations) {
    std::mt19937 rng(12345);
    t::Collections c;
    c.a_opt = {std::string("x"), std::nullopt};
    c.v_struct = {t::Point{1, 2}, t::Point{3, 4}};
    c.v_opt = {t::Color::blue, std::nullopt};
    c.l_opt = {t::Point{5, 6}, std::nullopt};
    c.s_string = {"a", "bb"};
    c.m = {{1, "x"}, {2, "yy"}};
    c.m_bags["b"].items = {t::Point{7, 7}, std::nullopt};
    c.h[fastwire::uuid()] = fastwire::bytes{1};
    c.m_enum_key[t::Color::red].o_point = t::Point{1, 1};
    const auto coll = serialized(c);
    const auto acct = account_bytes();
    const proto::Account seed = testutil::seed_account();
    for (int round = 0; round < 30000; ++round) {
        for (const auto* base : {&acct, &coll}) {
            auto bad = *base;
            const int edits = 1 + static_cast<int>(rng() % 4);
            for (int e = 0; e < edits; ++e) bad[rng() % bad.size()] = static_cast<std::uint8_t>(rng());
            if (base == &acct)
                check<proto::Account>(bad, {}, &seed);
            else
                check<t::Collections>(bad, {}, &c);
        }
    }
    std::cout << "[          ] " << g_checked << " messages checked, " << g_accepted << " accepted\n";
}

TEST(Malformed, RootHeader) {
    auto b = account_bytes();
    fastwire::limits small;
    small.max_message_size = 251;
    EXPECT_EQ(check<proto::Account>(b, small), errc::too_large);
    auto big = b;
    put32(big, 0, 253);
    EXPECT_EQ(check<proto::Account>(big), errc::truncated);
    auto tiny = b;
    put32(tiny, 0, 15);
    EXPECT_EQ(check<proto::Account>(tiny), errc::bad_size);
    auto self = b;
    put32(self, 4, 4);  // the root offset points at itself
    EXPECT_EQ(check<proto::Account>(self), errc::bad_offset);
    auto zero = b;
    put32(zero, 4, 0);
    EXPECT_EQ(check<proto::Account>(zero), errc::bad_offset);
    auto wrong_type = b;
    put32(wrong_type, 12, 2);
    EXPECT_EQ(check<proto::Account>(wrong_type), errc::bad_type);
    auto small_struct = b;
    put32(small_struct, 8, 7);
    EXPECT_EQ(check<proto::Account>(small_struct), errc::bad_size);
    auto huge_struct = b;
    put32(huge_struct, 8, 246);  // body reaching past the message
    EXPECT_EQ(check<proto::Account>(huge_struct), errc::truncated);
    EXPECT_EQ(check<proto::Account>({}), errc::truncated);
}

TEST(Malformed, OffsetsPointingBackwards) {
    // Account body at 8: uid 16, name 20, state 24, wallet 25, asset 29, orders 34.
    auto b = account_bytes();
    auto name_into_body = b;
    put32(name_into_body, 20, 4);  // -> 12, inside the struct, before the slot
    EXPECT_EQ(check<proto::Account>(name_into_body), errc::bad_offset);
    auto wallet_to_base = b;
    put32(wallet_to_base, 25, 0);  // struct offset 0
    EXPECT_EQ(check<proto::Account>(wallet_to_base), errc::bad_offset);
    auto orders_to_self = b;
    put32(orders_to_self, 34, 26);  // -> 34, the slot itself
    EXPECT_EQ(check<proto::Account>(orders_to_self), errc::bad_offset);
    auto order_to_account = b;
    put32(order_to_account, 108, 0);  // first order element -> the Account body
    EXPECT_EQ(check<proto::Account>(order_to_account), errc::bad_offset);
}

TEST(Malformed, Optionals) {
    auto b = account_bytes();
    auto set_zero = b;  // asset: flag 1, offset 0
    put32(set_zero, 30, 0);
    EXPECT_EQ(check<proto::Account>(set_zero), errc::bad_offset);
    auto null_garbage = b;  // asset: flag 0, offset garbage (the reference leaves it uninitialised)
    null_garbage[29] = 0;
    put32(null_garbage, 30, 0xDEADBEEF);
    EXPECT_EQ(check<proto::Account>(null_garbage), errc::ok);
    auto flag_two = b;  // any nonzero flag means present
    flag_two[29] = 2;
    EXPECT_EQ(check<proto::Account>(flag_two), errc::ok);
    auto name_zero = b;  // string offset 0 reads as empty
    put32(name_zero, 20, 0);
    EXPECT_EQ(check<proto::Account>(name_zero), errc::ok);
}

TEST(Malformed, DecimalScale) {
    t::Scalars s;
    s.f_decimal = fastwire::decimal(1, 28);
    auto b = serialized(s);
    EXPECT_EQ(check<t::Scalars>(b), errc::ok);
    constexpr std::size_t at = 8 + fastwire::versioned::layout<t::Scalars>::offsets[13] + 14;
    ASSERT_EQ(b[at], 28);
    b[at] = 29;
    EXPECT_EQ(check<t::Scalars>(b), errc::bad_value);
}

// The reference's verify loops 4.3 billion times on this; here it is one comparison.
TEST(Malformed, FourBillionElements) {
    // Bag { vector<Point?> items }: [24][8][body 12, type 14][items -> 20][count FFFFFFFF]
    const auto b = testutil::parse_hex("18000000 08000000 0c000000 0e000000 0c000000 ffffffff");
    std::size_t allocated;
    {
        Counting counting;
        EXPECT_EQ(check<t::Bag>(b), errc::truncated);
        allocated = counting.bytes();
    }
    EXPECT_LE(allocated, 64u * 1024);
    EXPECT_LT(best_ms([&] { check<t::Bag>(b); }), 1.0);

    auto acct = account_bytes();
    put32(acct, 104, 0xFFFFFFFFu);  // the orders count
    Counting counting;
    EXPECT_EQ(check<proto::Account>(acct), errc::truncated);
    EXPECT_LE(counting.bytes(), 64u * 1024);
}

TEST(Malformed, DeepNesting) {
    t::Tree root;
    t::Tree* leaf = &root;
    for (int i = 0; i < 100; ++i) {
        leaf->children.resize(1);
        leaf = &leaf->children[0];
        leaf->value = i;
    }
    const auto b = serialized(root);  // 101 nested structs
    {
        Counting counting;
        EXPECT_EQ(check<t::Tree>(b), errc::too_deep);
        EXPECT_LE(counting.bytes(), 64u * 1024);
    }
    EXPECT_LT(best_ms([&] { check<t::Tree>(b); }), 1.0);
    fastwire::limits deep;
    deep.max_depth = 101;
    EXPECT_EQ(check<t::Tree>(b, deep), errc::ok);
    deep.max_depth = 100;
    EXPECT_EQ(check<t::Tree>(b, deep), errc::too_deep);
}

// Every element slot pointing at the same struct: accepted, deserializing would build
// count copies from one body. The visit budget (= message size) rejects it.
TEST(Malformed, SharedBlocksAreOverBudget) {
    constexpr std::uint32_t n = 10000;
    std::vector<std::uint8_t> b(8 + 16 + 4 + 4 * n + 16 + 4);
    const std::uint32_t child = 8 + 16 + 4 + 4 * n;
    put32(b, 0, static_cast<std::uint32_t>(b.size()));
    put32(b, 4, 8);
    put32(b, 8, 16);  // root Tree body
    put32(b, 12, 18);
    put32(b, 16, 1);
    put32(b, 20, 24 - 8);  // children -> block at 24
    put32(b, 24, n);
    for (std::uint32_t i = 0; i < n; ++i) put32(b, 28 + 4 * i, child - 8);  // all -> one body
    put32(b, child, 16);
    put32(b, child + 4, 18);
    put32(b, child + 8, 2);
    put32(b, child + 12, 16);  // its children -> empty block right after it
    put32(b, child + 16, 0);
    {
        Counting counting;
        EXPECT_EQ(check<t::Tree>(b), errc::over_budget);
        // Only the vector of n Trees is allocated before the second visit is refused: a
        // small multiple of the message size.
        EXPECT_LE(counting.bytes(), 16 * b.size());
    }
    EXPECT_LT(best_ms([&] { check<t::Tree>(b); }), 5.0);

    // With one element the same layout is a valid message.
    put32(b, 24, 1);
    put32(b, 28, child - 8);
    EXPECT_EQ(check<t::Tree>(b), errc::ok);
}

// ---- the canonical read (versioned.h) ---------------------------------------------------------

namespace {

everything::Optionals filled_optionals() {
    everything::Optionals o;
    o.f_bool = true;
    o.f_struct = everything::Primitives{};
    o.f_order = proto::Order(7, "X", proto::OrderSide::sell, proto::OrderType::stop, 2.5, 3.0);
    o.f_reset = -1;
    return o;
}

// Every truncation (as cut, and with a consistent size word) and every single-byte change
// (four kinds per byte: the golden vectors get seven in test_adversarial.cpp) of one
// message, through check().
template <class S>
void mutate_all(const std::vector<std::uint8_t>& good, const S& value) {
    ASSERT_EQ(check<S>(good, {}, &value), errc::ok);
    for (std::size_t k = 0; k < good.size(); ++k) {
        std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(k));
        EXPECT_NE(check<S>(cut, {}, &value), errc::ok) << k;
        if (k >= 4) {
            put32(cut, 0, static_cast<std::uint32_t>(k));
            EXPECT_NE(check<S>(cut, {}, &value), errc::ok) << k;
        }
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (int change : {0x01, 0x80, -1, -2}) {
            auto bad = good;
            bad[i] = change == -1 ? 0x00 : change == -2 ? 0xFF : static_cast<std::uint8_t>(bad[i] ^ change);
            if (bad != good) check<S>(bad, {}, &value);
        }
    }
}

}  // namespace

// What this writer and the reference's write is read by the canonical read, for every kind
// of field; check() then compares deserialize() with the general walk.
TEST(Canonical, WritersOutputIsCanonical) {
    const auto order_bytes = testutil::load_hex("order.fbe.hex");
    const auto balance_bytes = testutil::load_hex("balance.fbe.hex");
    const auto account_golden = account_bytes();
    fastwire::model<proto::Order> order;
    fastwire::model<proto::Balance> balance;
    fastwire::model<proto::Account> account;
    order.attach(order_bytes);
    balance.attach(balance_bytes);
    account.attach(account_golden);
    proto::Order o;
    proto::Balance b;
    proto::Account golden;
    EXPECT_TRUE(order.deserialize_canonical(o));
    EXPECT_TRUE(balance.deserialize_canonical(b));
    EXPECT_TRUE(account.deserialize_canonical(golden));
    EXPECT_EQ(testutil::str(golden), testutil::str(testutil::seed_account()));
    proto::Account a;
    fastwire::model<proto::Account> seed;
    seed.serialize(testutil::seed_account());
    ASSERT_TRUE(seed.deserialize_canonical(a));
    EXPECT_EQ(testutil::str(a), testutil::str(testutil::seed_account()));

    // Every kind of field (schemas/everything.fbe; the hand-written test types have no
    // schema depth, so like recursive types they take the general walk).
    const auto c = filled_collections();
    const auto bytes = serialized(c);
    fastwire::model<everything::Collections> m;
    m.attach(bytes.data(), bytes.size());
    for (const everything::Collections& start : {everything::Collections{}, c}) {  // fresh and reused
        everything::Collections back = start;
        ASSERT_TRUE(m.deserialize_canonical(back));
        EXPECT_EQ(testutil::str(back), testutil::str(c));
    }
    t::Collections tc;
    fastwire::model<t::Collections> mt;
    mt.serialize(tc);
    EXPECT_FALSE(mt.deserialize_canonical(tc));

    everything::Optionals opt;
    fastwire::model<everything::Optionals> mo;
    mo.serialize(filled_optionals());
    EXPECT_TRUE(mo.deserialize_canonical(opt));
    everything::MoreDerived d;
    fastwire::model<everything::MoreDerived> md;
    md.serialize(everything::MoreDerived{});
    EXPECT_TRUE(md.deserialize_canonical(d));
    everything::ExAccount x;
    fastwire::model<everything::ExAccount> mx;
    everything::ExAccount ex;
    ex.name = "ex";
    ex.orders.resize(2);
    mx.serialize(ex);
    EXPECT_TRUE(mx.deserialize_canonical(x));
}

// Every truncation and single-byte change of messages with every kind of field: check()
// compares deserialize() with the general walk on each.
TEST(Canonical, EverythingMutations) {
    const auto c = filled_collections();
    const auto o = filled_optionals();
    mutate_all(serialized(c), c);
    mutate_all(serialized(o), o);
    everything::ExAccount ex;
    ex.name = "ex";
    ex.orders.resize(2);
    mutate_all(serialized(ex), ex);
}

// Messages the general walk accepts but no writer of this version lays out: deserialize()
// reads them by the general walk, with the same values.
TEST(Canonical, OtherLayoutsFallBackToTheGeneralWalk) {
    const proto::Balance want{"USD", 1000.0};
    auto balance = testutil::load_hex("balance.fbe.hex");  // [full][8][body 20: currency -> 28][USD]
    ASSERT_EQ(fastwire::load_le<std::uint32_t>(&balance[16]), 20u);
    // Four bytes of padding before the currency block.
    auto gap = balance;
    gap.insert(gap.begin() + 28, 4, 0xAA);
    put32(gap, 0, static_cast<std::uint32_t>(gap.size()));
    put32(gap, 16, 24);
    // A body one byte longer than this version's (a newer writer's extra field).
    auto longer = balance;
    longer.insert(longer.begin() + 28, 1, 0x00);
    put32(longer, 0, static_cast<std::uint32_t>(longer.size()));
    put32(longer, 8, 21);
    put32(longer, 16, 21);
    for (const auto* b : {&gap, &longer}) {
        fastwire::model<proto::Balance> m;
        m.attach(b->data(), b->size());
        proto::Balance got;
        EXPECT_FALSE(m.deserialize_canonical(got));
        got = proto::Balance{"EURO", 1.0};  // a dirty target
        ASSERT_TRUE(m.deserialize(got));
        EXPECT_EQ(got.currency, want.currency);
        EXPECT_EQ(got.amount, want.amount);
        EXPECT_EQ(check<proto::Balance>(*b), errc::ok);
    }
    // A string at offset 0 (read as empty) and a null optional with a garbage offset.
    auto acct = account_bytes();
    put32(acct, 20, 0);
    fastwire::model<proto::Account> m;
    m.attach(acct.data(), acct.size());
    proto::Account a;
    EXPECT_FALSE(m.deserialize_canonical(a));
    a = testutil::seed_account();
    ASSERT_TRUE(m.deserialize(a));
    EXPECT_EQ(a.name, "");
    EXPECT_EQ(a.orders.size(), 3u);

    // Recursive types and limits below the schema's depth never take the canonical read.
    t::Tree tree;
    tree.children.resize(2);
    const auto tb = serialized(tree);
    fastwire::model<t::Tree> mt;
    mt.attach(tb.data(), tb.size());
    t::Tree tback;
    EXPECT_FALSE(mt.deserialize_canonical(tback));
    EXPECT_TRUE(mt.deserialize(tback));
    fastwire::limits shallow;
    shallow.max_depth = 1;
    fastwire::model<proto::Account> ms(shallow);
    const auto good = account_bytes();
    ms.attach(good.data(), good.size());
    EXPECT_FALSE(ms.deserialize_canonical(a));
    EXPECT_EQ(ms.deserialize(a), errc::too_deep);
}
