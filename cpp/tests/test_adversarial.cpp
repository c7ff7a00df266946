// Hostile input in both formats (docs/security.md): every truncation and every single-byte
// change of every golden vector, and the crafted attacks the reference falls for - a
// 20-byte message declaring 4 294 967 295 elements, offsets pointing back into their own
// struct, deeply nested optionals, floods of zero-size elements. For each: verify() and
// deserialize() give the same verdict; an accepted message deserializes, re-serializes and
// verifies again (under ASan+UBSan in the sanitizer build, so any stray access fails the
// test); a rejected attack is refused in well under a millisecond and allocates (counting
// operator new, test_alloc.h) no more than 64 KiB.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "test_alloc.h"
#include "test_canonical.h"
#include "test_types.h"
#include "test_util.h"

// Types for the attacks: recursion through optionals, nested zero-size elements.
namespace adv {
struct Chain {  // type 40: an optional chain, recursive through a vector
    std::int32_t value = 0;
    std::vector<std::optional<Chain>> next;
};
}  // namespace adv

namespace t {
inline bool operator<(const Empty&, const Empty&) { return false; }  // for a map keyed by Empty
}  // namespace t

namespace adv {
struct Empties {  // type 41: zero-size elements inside non-zero-size ones
    std::vector<std::vector<t::Empty>> vv;
    std::map<t::Empty, t::Empty> m;
};
}  // namespace adv

namespace fastwire {
template <>
struct struct_schema<adv::Chain> {
    static constexpr std::uint32_t type = 40;
    using fields = fastwire::fields<&adv::Chain::value, &adv::Chain::next>;
};
template <>
struct struct_schema<adv::Empties> {
    static constexpr std::uint32_t type = 41;
    using fields = fastwire::fields<&adv::Empties::vv, &adv::Empties::m>;
};
}  // namespace fastwire

namespace {

using fastwire::errc;
using testutil::parse_hex;

template <template <class> class M>
struct format_name;
template <>
struct format_name<fastwire::versioned::model> {
    static constexpr const char* value = "versioned";
};
template <>
struct format_name<fastwire::final::model> {
    static constexpr const char* value = "final";
};

struct tally {
    std::size_t accepted = 0, rejected = 0;
};

// One candidate message of type S in format M, in an exact-size heap block (so ASan sees
// any read past its end): verify and deserialize agree; an accepted message reads into a
// value that re-serializes, verifies and reads back. Versioned: deserialize() gives what the
// general walk alone gives (test_canonical.h), also into a copy of `reused` when given.
template <template <class> class M, class S>
errc check(const std::vector<std::uint8_t>& bytes, tally* t = nullptr, const fastwire::limits& lim = {},
           const S* reused = nullptr) {
    std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.empty() ? 1 : bytes.size()]);
    if (!bytes.empty()) std::memcpy(exact.get(), bytes.data(), bytes.size());
    M<S> m(lim);
    m.attach(exact.get(), bytes.size());
    const fastwire::status v = m.verify();
    S value{};
    const fastwire::status d = m.deserialize(value);
    EXPECT_EQ(v.code(), d.code()) << format_name<M>::value << ": verify and deserialize disagree";
    if constexpr (std::is_same_v<M<S>, fastwire::versioned::model<S>>) testcanon::expect_same_as_general(m, reused);
    if (v) {
        EXPECT_EQ(v.size(), d.size());
        M<S> again(lim);
        const std::size_t n = again.serialize(value);
        EXPECT_TRUE(again.verify());
        S back{};
        EXPECT_TRUE(again.deserialize(back));
        EXPECT_EQ(M<S>().serialize(back), n);
    }
    if (t) (v ? t->accepted : t->rejected)++;
    return v.code();
}

void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
    fastwire::store_le<std::uint32_t>(&b[at], v);
}

// Every truncation (as cut, and with the size word made consistent with the cut) and
// every single-byte change (seven kinds per byte) of one golden vector.
template <template <class> class M, class S>
void mutate_all(const char* vector_name) {
    const auto good = testutil::load_hex(vector_name);
    ASSERT_EQ((check<M, S>(good)), errc::ok) << vector_name;
    S golden{};  // the reused target of the versioned comparison
    {
        M<S> m;
        m.attach(good.data(), good.size());
        ASSERT_TRUE(m.deserialize(golden));
    }
    tally cuts, changes;
    for (std::size_t k = 0; k < good.size(); ++k) {
        std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<long>(k));
        EXPECT_NE((check<M, S>(cut, &cuts, {}, &golden)), errc::ok) << vector_name << " cut at " << k;
        if (k >= 4) {
            put32(cut, 0, static_cast<std::uint32_t>(k));
            EXPECT_NE((check<M, S>(cut, &cuts, {}, &golden)), errc::ok)
                << vector_name << " cut at " << k << ", size fixed";
        }
    }
    for (std::size_t i = 0; i < good.size(); ++i) {
        for (int change : {0x01, 0x02, 0x10, 0x80, 0xFF, -1, -2}) {
            auto bad = good;
            bad[i] = change == -1 ? 0x00 : change == -2 ? 0xFF : static_cast<std::uint8_t>(bad[i] ^ change);
            if (bad != good) check<M, S>(bad, &changes, {}, &golden);
        }
    }
    EXPECT_EQ(cuts.accepted, 0u) << vector_name;
    EXPECT_GT(changes.rejected, 0u) << vector_name;
    std::cout << "[          ] " << vector_name << ": " << cuts.rejected << " truncations rejected; "
              << changes.accepted << " byte changes accepted (values), " << changes.rejected << " rejected\n";
}

constexpr double kGenerousMs = 5.0;  // well under a millisecond in practice; slack for a busy machine
constexpr std::size_t kMaxAlloc = 64 * 1024;

// The attack is rejected by verify() and by deserialize() with `expected`; the pair of
// calls allocates at most max_alloc bytes (counted) and takes less than kGenerousMs (the
// fastest of five runs, so that a preemption by another process does not count).
template <template <class> class M, class S>
void expect_cheap_rejection(const char* what, const std::vector<std::uint8_t>& bytes, errc expected,
                            const fastwire::limits& lim = {}, std::size_t max_alloc = kMaxAlloc,
                            double max_ms = kGenerousMs) {
    EXPECT_EQ((check<M, S>(bytes, nullptr, lim)), expected) << what;
    std::unique_ptr<std::uint8_t[]> exact(new std::uint8_t[bytes.size()]);
    std::memcpy(exact.get(), bytes.data(), bytes.size());
    auto once = [&] {
        M<S> m(lim);
        m.attach(exact.get(), bytes.size());
        const fastwire::status v = m.verify();
        S value{};
        const fastwire::status d = m.deserialize(value);
        return v.code() == expected && d.code() == expected;
    };
    std::size_t allocated = 0;
    {
        Counting counting;
        EXPECT_TRUE(once()) << what;
        allocated = counting.bytes();
    }
    double best = 1e9;
    for (int i = 0; i < 5; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        once();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    EXPECT_LT(best, max_ms) << what;
    EXPECT_LE(allocated, max_alloc) << what;
    std::cout << "[          ] " << what << " (" << bytes.size() << " bytes): rejected in " << best * 1000.0 << " us, "
              << allocated << " bytes allocated\n";
}

}  // namespace

// ---- every golden vector, both formats -------------------------------------------------------

TEST(Adversarial, VersionedGoldenMutations) {
    mutate_all<fastwire::versioned::model, proto::Account>("account.fbe.hex");
    mutate_all<fastwire::versioned::model, proto::Order>("order.fbe.hex");
    mutate_all<fastwire::versioned::model, proto::Balance>("balance.fbe.hex");
}

TEST(Adversarial, FinalGoldenMutations) {
    mutate_all<fastwire::final::model, proto::Account>("account.final.hex");
    mutate_all<fastwire::final::model, proto::Order>("order.final.hex");
    mutate_all<fastwire::final::model, proto::Balance>("balance.final.hex");
}

// ---- the reference's failures -------------------------------------------------------------------

// 20 bytes that declare 4 294 967 295 elements. The reference's verify loops 4.3 billion
// times on the versioned one and its deserialize then dies; here it is one comparison,
// before anything is allocated.
TEST(Adversarial, FourBillionElements) {
    // Versioned: the smallest carrier is 24 bytes, Bag {vector<Point?> items}:
    // [full 24][root 8][body 12][type 14][items -> 12][count 2^32 - 1].
    expect_cheap_rejection<fastwire::versioned::model, t::Bag>(
        "versioned, 4294967295 optional structs", parse_hex("18000000 08000000 0c000000 0e000000 0c000000 ffffffff"),
        errc::truncated);
    // Final Texts {string s, bytes b, byte[] v}: [20][12][s: 0][b: 0][v: count 2^32 - 1].
    expect_cheap_rejection<fastwire::final::model, t::Texts>("final, 4294967295 bytes in a byte[]",
                                                             parse_hex("14000000 0c000000 00000000 00000000 ffffffff"),
                                                             errc::truncated);
    expect_cheap_rejection<fastwire::final::model, t::Bag>("final, 4294967295 optional structs",
                                                           parse_hex("0c000000 0e000000 ffffffff"), errc::truncated);
    // The seed account with its orders count set to 2^32 - 1, in both formats.
    auto acct = testutil::load_hex("account.fbe.hex");
    put32(acct, 104, 0xFFFFFFFFu);
    expect_cheap_rejection<fastwire::versioned::model, proto::Account>("versioned account, orders count 2^32 - 1", acct,
                                                                       errc::truncated);
    auto fin = testutil::load_hex("account.final.hex");
    // header 8, id 4, name 4+4, state 1, wallet 4+3+8, asset 1+4+3+8: the count is at 52.
    ASSERT_EQ(fastwire::load_le<std::uint32_t>(&fin[52]), 3u);
    put32(fin, 52, 0xFFFFFFFFu);
    expect_cheap_rejection<fastwire::final::model, proto::Account>("final account, orders count 2^32 - 1", fin,
                                                                   errc::truncated);
}

// Empty structs take no bytes in the final format, so the bytes cannot bound their
// count: the reference loops over all 2^32 - 1 of them. A per-message allowance
// (limits::max_zero_size_elements, 65 536) caps them, summed over the whole message so
// that nesting cannot multiply it.
TEST(Adversarial, ZeroSizeElements) {
    // Holder {Point p; Empty e; Empty? oe; Empty[] ve; Tree tree}: [size][20][p 8][oe 0][ve count]...
    auto b = parse_hex("21000000 14000000 01000000 02000000 00 ffffffff 00000000 00000000");
    put32(b, 0, static_cast<std::uint32_t>(b.size()));
    expect_cheap_rejection<fastwire::final::model, t::Holder>("final, 2^32 - 1 empty structs", b, errc::over_budget);
    // At the allowance exactly: accepted, and reading allocates one byte per element.
    put32(b, 17, 65536);
    {
        Counting counting;
        EXPECT_EQ((check<fastwire::final::model, t::Holder>(b)), errc::ok);
        EXPECT_LE(counting.bytes(), 4 * 65536 + 4096u);  // read + re-serialize + read back
    }
    put32(b, 17, 65537);
    EXPECT_EQ((check<fastwire::final::model, t::Holder>(b)), errc::over_budget);

    // 1000 vectors of 65 536 empties each would be 65 million elements from 4 KB: the
    // allowance is per message, so the second vector already exceeds it.
    std::vector<std::uint8_t> nest = parse_hex("00000000 29000000 e8030000");
    for (int i = 0; i < 1000; ++i) {
        const auto one = parse_hex("00000100");
        nest.insert(nest.end(), one.begin(), one.end());
    }
    const auto empty_map = parse_hex("00000000");
    nest.insert(nest.end(), empty_map.begin(), empty_map.end());
    put32(nest, 0, static_cast<std::uint32_t>(nest.size()));
    // Reading allocates the 1000 inner vectors (24 KB, 6 x their 4 KB of wire) and
    // constructs the first 65 536 empties (the whole allowance: ~1 us in a release build,
    // ~2 ms under ASan in a debug build) before the second vector is refused.
    expect_cheap_rejection<fastwire::final::model, adv::Empties>(
        "final, 1000 x 65536 nested empty structs", nest, errc::over_budget, {}, kMaxAlloc + 8 * nest.size(), 50.0);
    // A map of empty keys and values is zero-size too.
    auto map = parse_hex("10000000 29000000 00000000 ffffffff");
    expect_cheap_rejection<fastwire::final::model, adv::Empties>("final, map of 2^32 - 1 empty pairs", map,
                                                                 errc::over_budget);
    fastwire::limits none;
    none.max_zero_size_elements = 0;
    auto one = parse_hex("10000000 29000000 00000000 01000000");
    EXPECT_EQ((check<fastwire::final::model, adv::Empties>(one, nullptr, none)), errc::over_budget);
    EXPECT_EQ((check<fastwire::final::model, adv::Empties>(one)), errc::ok);
}

// Versioned offsets that point back into the struct that holds them (or at their own
// slot) would make a walk revisit bytes, or loop: every offset must point forward.
TEST(Adversarial, OffsetsIntoTheirOwnStruct) {
    // Account body at 8: uid 16, name 20, state 24, wallet 25, asset 29, orders 34.
    const auto good = testutil::load_hex("account.fbe.hex");
    struct attack {
        const char* what;
        std::size_t at;
        std::uint32_t value;
    };
    for (const attack& a : {attack{"name -> its own struct body", 20, 4}, attack{"wallet -> its own slot", 25, 17},
                            attack{"wallet -> the enclosing body", 25, 0}, attack{"orders -> its own slot", 34, 26},
                            attack{"asset -> its own slot", 30, 21}, attack{"root -> itself", 4, 4},
                            attack{"first order -> the Account body", 108, 0}}) {
        auto bad = good;
        put32(bad, a.at, a.value);
        expect_cheap_rejection<fastwire::versioned::model, proto::Account>(a.what, bad, errc::bad_offset);
    }
    // A self-referencing Tree: its children vector's only element points at the Tree.
    auto tree = parse_hex("20000000 08000000 10000000 12000000 01000000 10000000 01000000 00000000");
    //                     size      root      body 16   type 18   value     children->24  count 1  -> body (8 + 0)
    expect_cheap_rejection<fastwire::versioned::model, t::Tree>("a Tree whose child is itself", tree, errc::bad_offset);
}

// Optionals nested far beyond limits::max_depth (64): rejected at level 65 without
// recursing further, in both formats; a deeper limit accepts them.
TEST(Adversarial, DeeplyNestedOptionals) {
    constexpr int levels = 10000;
    // Final Chain: [value][count 1][flag 1][value][count 1][flag 1]…[value][count 0]
    std::vector<std::uint8_t> fin(8);
    for (int i = 0; i < levels; ++i) {
        const auto step = parse_hex("07000000 01000000 01");
        fin.insert(fin.end(), step.begin(), step.end());
    }
    const auto last = parse_hex("07000000 00000000");
    fin.insert(fin.end(), last.begin(), last.end());
    put32(fin, 0, static_cast<std::uint32_t>(fin.size()));
    put32(fin, 4, 40);
    expect_cheap_rejection<fastwire::final::model, adv::Chain>("final, 10000 nested optional structs", fin,
                                                               errc::too_deep);

    // The versioned form of a shorter chain (the writer has no depth limit), deeper than 64.
    adv::Chain root;
    adv::Chain* at = &root;
    for (int i = 0; i < 200; ++i) {
        at->next.emplace_back(adv::Chain{});
        at = &*at->next.back();
        at->value = i;
    }
    fastwire::model<adv::Chain> w;
    w.serialize(root);
    const auto ver = w.buffer().to_vector();
    expect_cheap_rejection<fastwire::versioned::model, adv::Chain>("versioned, 200 nested optional structs", ver,
                                                                   errc::too_deep);
    fastwire::final_model<adv::Chain> fw;
    fw.serialize(root);
    const auto fin200 = fw.buffer().to_vector();
    expect_cheap_rejection<fastwire::final::model, adv::Chain>("final, 200 nested optional structs", fin200,
                                                               errc::too_deep);
    fastwire::limits deep;
    deep.max_depth = 201;
    EXPECT_EQ((check<fastwire::versioned::model, adv::Chain>(ver, nullptr, deep)), errc::ok);
    EXPECT_EQ((check<fastwire::final::model, adv::Chain>(fin200, nullptr, deep)), errc::ok);
    deep.max_depth = 200;
    EXPECT_EQ((check<fastwire::final::model, adv::Chain>(fin200, nullptr, deep)), errc::too_deep);
}

namespace {
// A final Chain `levels` structs deep, built by hand (no recursion needed to write it).
std::vector<std::uint8_t> final_chain(int levels) {
    std::vector<std::uint8_t> fin(8);
    for (int i = 1; i < levels; ++i) {
        const auto step = parse_hex("07000000 01000000 01");
        fin.insert(fin.end(), step.begin(), step.end());
    }
    const auto last = parse_hex("07000000 00000000");
    fin.insert(fin.end(), last.begin(), last.end());
    put32(fin, 0, static_cast<std::uint32_t>(fin.size()));
    put32(fin, 4, 40);
    return fin;
}

adv::Chain chain_of(int levels) {
    adv::Chain root;
    adv::Chain* at = &root;
    for (int i = 1; i < levels; ++i) {
        at->next.emplace_back(adv::Chain{});
        at = &*at->next.back();
    }
    return root;
}
}  // namespace

// A raised max_depth never turns deep input into a stack overflow: readers walk at most
// max_depth_cap levels (once, a 100,000-deep message with max_depth 200,000 crashed),
// and data nested exactly that deep is read, in both formats (under ASan too: the stack
// holds the cap).
TEST(Adversarial, RaisedDepthLimitIsCappedAtWhatTheStackHolds) {
    fastwire::limits huge;
    huge.max_depth = 200000;
    EXPECT_EQ(fastwire::depth_limit(huge), fastwire::max_depth_cap);
    EXPECT_EQ((check<fastwire::final::model, adv::Chain>(final_chain(100000), nullptr, huge)), errc::too_deep);
    const int cap = static_cast<int>(fastwire::max_depth_cap);
    EXPECT_EQ((check<fastwire::final::model, adv::Chain>(final_chain(cap), nullptr, huge)), errc::ok);
    EXPECT_EQ((check<fastwire::final::model, adv::Chain>(final_chain(cap + 1), nullptr, huge)), errc::too_deep);
    for (int levels : {cap, cap + 1}) {
        const adv::Chain root = chain_of(levels);
        fastwire::model<adv::Chain> w;
        w.serialize(root);
        EXPECT_EQ((check<fastwire::versioned::model, adv::Chain>(w.buffer().to_vector(), nullptr, huge)),
                  levels == cap ? errc::ok : errc::too_deep);
    }
}

// The final root: its size must match its fields exactly, and the limits apply.
TEST(Adversarial, FinalRootHeader) {
    const auto good = testutil::load_hex("account.final.hex");
    auto longer = good;
    longer.push_back(0);
    put32(longer, 0, static_cast<std::uint32_t>(longer.size()));  // a trailing byte inside the size
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(longer)), errc::bad_size);
    auto type = good;
    put32(type, 4, 2);
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(type)), errc::bad_type);
    auto zero = good;
    put32(zero, 0, 0);
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(zero)), errc::bad_size);
    fastwire::limits small;
    small.max_message_size = 151;
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(good, nullptr, small)), errc::too_large);
    EXPECT_EQ((check<fastwire::final::model, proto::Account>({})), errc::truncated);
    // A string whose length runs into the fields after it: the room check, not the end of
    // the message, stops it (name = 4 bytes; claim 140, which fits in the message).
    auto name = good;
    put32(name, 12, 140);
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(name)), errc::truncated);
    // Decimal scale above 28.
    t::Scalars s;
    s.f_decimal = fastwire::decimal(1, 28);
    fastwire::final_model<t::Scalars> w;
    w.serialize(s);
    auto dec = w.buffer().to_vector();
    // header 8 + bool 1 char 1 wchar 4 i8 1 u8 1 i16 2 u16 2 i32 4 u32 4 i64 8 u64 8 float 4 double 8 = 56
    ASSERT_EQ(dec[56 + 14], 28);
    EXPECT_EQ((check<fastwire::final::model, t::Scalars>(dec)), errc::ok);
    dec[56 + 14] = 29;
    EXPECT_EQ((check<fastwire::final::model, t::Scalars>(dec)), errc::bad_value);
}

// A struct of fixed-size fields has its root header checked in one compare (size and
// type as one 8-byte word, final_model.h quick_root()): every header error is still
// found and named, a declared size other than the fields' is bad_size, and the depth and
// size limits apply.
TEST(Adversarial, FinalFixedRootHeader) {
    static_assert(fastwire::final::is_fixed<t::Point>());
    fastwire::final_model<t::Point> w;
    w.serialize(t::Point{3, 4});
    const auto good = w.buffer().to_vector();
    ASSERT_EQ(good.size(), 16u);
    EXPECT_EQ((check<fastwire::final::model, t::Point>(good)), errc::ok);
    auto longer = good;
    longer.push_back(0);
    put32(longer, 0, 17);
    EXPECT_EQ((check<fastwire::final::model, t::Point>(longer)), errc::bad_size);
    auto shorter = good;
    put32(shorter, 0, 15);
    EXPECT_EQ((check<fastwire::final::model, t::Point>(shorter)), errc::truncated);
    auto tiny = good;
    put32(tiny, 0, 7);
    EXPECT_EQ((check<fastwire::final::model, t::Point>(tiny)), errc::bad_size);
    auto beyond = good;
    put32(beyond, 0, 17);  // more than the bytes given
    EXPECT_EQ((check<fastwire::final::model, t::Point>(beyond)), errc::truncated);
    auto type = good;
    put32(type, 4, 11);
    EXPECT_EQ((check<fastwire::final::model, t::Point>(type)), errc::bad_type);
    put32(type, 4, 10 + (1u << 16));
    EXPECT_EQ((check<fastwire::final::model, t::Point>(type)), errc::bad_type);
    for (std::size_t n = 0; n < good.size(); ++n) {
        const std::vector<std::uint8_t> cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_EQ((check<fastwire::final::model, t::Point>(cut)), errc::truncated) << n;
    }
    fastwire::limits small;
    small.max_message_size = 15;
    EXPECT_EQ((check<fastwire::final::model, t::Point>(good, nullptr, small)), errc::too_large);
    small.max_message_size = 16;
    EXPECT_EQ((check<fastwire::final::model, t::Point>(good, nullptr, small)), errc::ok);
    fastwire::limits flat;
    flat.max_depth = 0;
    EXPECT_EQ((check<fastwire::final::model, t::Point>(good, nullptr, flat)), errc::too_deep);
    // A non-fixed root (proto::Account): the one-compare check of size and type against
    // the bytes given, at its edges.
    const auto account = testutil::load_hex("account.final.hex");
    for (std::uint32_t size : {0u, 7u, 8u, 151u, 153u, 0xFFFFFFFFu}) {
        auto b = account;
        put32(b, 0, size);
        EXPECT_NE((check<fastwire::final::model, proto::Account>(b)), errc::ok) << size;
    }
    fastwire::limits exact;
    exact.max_message_size = account.size();
    EXPECT_EQ((check<fastwire::final::model, proto::Account>(account, nullptr, exact)), errc::ok);
}

// Memory of a deserialize is bounded by a constant x the message size: count x
// min_size(element) <= bytes, and sizeof(element) / min_size(element) is a property of
// the schema. The worst case of the seed's schema, vector<Order>: 26 wire bytes -> 64.
TEST(Adversarial, DeserializeMemoryIsLinear) {
    proto::Account a;
    a.orders.resize(10000);
    fastwire::final_model<proto::Account> w;
    const std::size_t n = w.serialize(a);
    proto::Account back;
    Counting counting;
    fastwire::final_model<proto::Account> r;
    r.attach(w.buffer());
    ASSERT_TRUE(r.deserialize(back));
    EXPECT_LE(counting.bytes(), 3 * n);
    std::cout << "[          ] 10000 orders: " << n << " bytes read into " << counting.bytes() << " bytes of memory\n";
}

// A reused map or set recycles its nodes (kinds.h, refill): reading the
// same shape again allocates nothing, and reading a message with fewer, more or other keys
// gives exactly that message's contents, in both formats.
template <class M>
void check_recycled_nodes() {
    auto make = [](int n, int salt) {
        t::Collections c;
        for (int i = 0; i < n; ++i) {
            c.m[i * salt] = "value number " + std::to_string(i);  // beyond the SSO buffer
            c.s_string.insert("element number " + std::to_string(i * salt));
            c.m_bags["bag" + std::to_string(i + salt)].items = {t::Point{i, salt}, std::nullopt};
        }
        return c;
    };
    const t::Collections big = make(40, 3), small = make(7, 5), other = make(40, 7);
    std::vector<std::vector<std::uint8_t>> bytes;
    for (const auto* c : {&big, &small, &other, &big}) {
        M w;
        w.serialize(*c);
        bytes.push_back(w.buffer().to_vector());
    }
    t::Collections target;
    M r;
    const t::Collections* expected[] = {&big, &small, &other, &big};
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        r.attach(bytes[i]);
        ASSERT_TRUE(r.deserialize(target));
        EXPECT_TRUE(target == *expected[i]) << i;
    }
    r.attach(bytes[0]);  // the target holds `big`: the same shape again
    Counting counting;
    ASSERT_TRUE(r.deserialize(target));
    EXPECT_EQ(counting.bytes(), 0u);
    EXPECT_TRUE(target == big);
}

// A map whose wire entries repeat a key: the first entry wins (as emplace keeps the first),
// whether the target is fresh (each value read into its new node) or reused (recycled
// nodes), and the entry after the duplicate is still read from the right place.
template <class M>
void check_duplicate_map_keys() {
    t::Collections c;
    c.m = {{0x11111111, "first value, beyond SSO"}, {0x22222222, "second"}, {0x33333333, "third"}};
    M w;
    w.serialize(c);
    std::vector<std::uint8_t> bytes = w.buffer().to_vector();
    const std::uint8_t key2[] = {0x22, 0x22, 0x22, 0x22};
    auto at = std::search(bytes.begin(), bytes.end(), std::begin(key2), std::end(key2));
    ASSERT_NE(at, bytes.end());
    std::fill(at, at + 4, std::uint8_t{0x11});  // the second key now repeats the first
    ASSERT_EQ(std::search(at + 4, bytes.end(), std::begin(key2), std::end(key2)), bytes.end());
    const std::map<std::int32_t, std::string> want = {{0x11111111, "first value, beyond SSO"}, {0x33333333, "third"}};
    M r;
    r.attach(bytes);
    t::Collections fresh;
    ASSERT_TRUE(r.deserialize(fresh));
    EXPECT_EQ(fresh.m, want);
    t::Collections reused = c;
    ASSERT_TRUE(r.deserialize(reused));
    EXPECT_EQ(reused.m, want);
}

TEST(Adversarial, DuplicateMapKeysKeepTheFirst) {
    check_duplicate_map_keys<fastwire::model<t::Collections>>();
    check_duplicate_map_keys<fastwire::final_model<t::Collections>>();
}

TEST(Adversarial, ReusedMapsAndSetsRecycleTheirNodes) {
    check_recycled_nodes<fastwire::model<t::Collections>>();
    check_recycled_nodes<fastwire::final_model<t::Collections>>();
}
