// uuid: strict parsing, lowercase formatting, generators, ordering, hashing.
#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <unordered_set>

#include "test_util.h"

using fastwire::errc;
using fastwire::uuid;

TEST(Uuid, ParseAndFormat) {
    uuid u;
    ASSERT_EQ(uuid::parse("123e4567-e89b-12d3-a456-426655440000", u), errc::ok);
    const std::array<std::uint8_t, 16> expect = {0x12, 0x3e, 0x45, 0x67, 0xe8, 0x9b, 0x12, 0xd3,
                                                 0xa4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00};
    EXPECT_EQ(u.bytes(), expect);
    EXPECT_EQ(u.to_string(), "123e4567-e89b-12d3-a456-426655440000");
    EXPECT_EQ(u.version(), 1);

    ASSERT_EQ(uuid::parse("ABCDEF01-2345-6789-ABCD-EF0123456789", u), errc::ok);
    EXPECT_EQ(u.to_string(), "abcdef01-2345-6789-abcd-ef0123456789");
    EXPECT_EQ(testutil::str(u), "abcdef01-2345-6789-abcd-ef0123456789");

    constexpr uuid lit = uuid::literal("123e4567-e89b-12d3-a456-426655440000");
    static_assert(lit.bytes()[0] == 0x12 && lit.bytes()[15] == 0x00, "constexpr parse");
    EXPECT_THROW(uuid::literal("nope"), std::invalid_argument);
}

TEST(Uuid, RejectsAnythingElse) {
    const uuid sentinel = uuid::literal("11111111-2222-3333-4444-555555555555");
    for (const char* bad : {"", "123e4567-e89b-12d3-a456-42665544000",  // 35
                            "123e4567-e89b-12d3-a456-4266554400000",    // 37
                            "123e4567e89b12d3a456426655440000",         // no hyphens
                            "{123e4567-e89b-12d3-a456-426655440000}",   // braces
                            "123e4567-e89b-12d3-a456_426655440000",     // wrong separator
                            "123e456-7e89b-12d3-a456-426655440000",     // hyphen moved
                            "123e4567-e89b-12d3-a456-42665544000g",     // not hex
                            "123e4567-e89b-12d3-a456-4266554400 0",     // space
                            "123e4567-e89b-12d3-a456--26655440000"}) {  // extra hyphen
        uuid u = sentinel;
        EXPECT_EQ(uuid::parse(bad, u), errc::invalid_argument) << bad;
        EXPECT_EQ(u, sentinel) << "output changed for " << bad;
        EXPECT_FALSE(uuid::from_string(bad).has_value()) << bad;
    }
}

TEST(Uuid, Nil) {
    EXPECT_TRUE(uuid().is_nil());
    EXPECT_TRUE(uuid::nil().is_nil());
    EXPECT_EQ(uuid().to_string(), "00000000-0000-0000-0000-000000000000");
}

TEST(Uuid, V4) {
    std::unordered_set<uuid> seen;
    for (int i = 0; i < 2000; ++i) {
        const uuid u = uuid::v4();
        EXPECT_EQ(u.version(), 4);
        EXPECT_EQ(u.bytes()[8] & 0xC0, 0x80);  // RFC 4122 variant
        EXPECT_TRUE(seen.insert(u).second);
    }
    // A seeded generator is reproducible.
    fastwire::uuid_v4_generator a(7), b(7);
    EXPECT_EQ(a(), b());
}

TEST(Uuid, V1) {
    fastwire::uuid_v1_generator gen;
    std::set<uuid> seen;
    uuid prev = gen();
    for (int i = 0; i < 10000; ++i) {
        const uuid u = gen();
        EXPECT_EQ(u.version(), 1);
        EXPECT_EQ(u.bytes()[8] & 0xC0, 0x80);
        EXPECT_EQ(u.bytes()[10] & 0x01, 0x01);  // multicast bit: random node
        EXPECT_TRUE(seen.insert(u).second);
        // Node and clock sequence stay; the timestamp increases.
        for (std::size_t k = 8; k < 16; ++k) EXPECT_EQ(u.bytes()[k], prev.bytes()[k]);
        prev = u;
    }
    // The time fields hold 100 ns ticks since 1582-10-15: check it is near now.
    const auto& b = prev.bytes();
    const std::uint64_t t = (std::uint64_t(b[6] & 0x0F) << 56) | (std::uint64_t(b[7]) << 48) |
                            (std::uint64_t(b[4]) << 40) | (std::uint64_t(b[5]) << 32) | (std::uint64_t(b[0]) << 24) |
                            (std::uint64_t(b[1]) << 16) | (std::uint64_t(b[2]) << 8) | b[3];
    const std::uint64_t unix_ticks = t - 0x01B21DD213814000ull;
    const std::uint64_t now_ticks = fastwire::utc() / 100;
    const auto diff = static_cast<std::int64_t>(now_ticks - unix_ticks);
    EXPECT_LT(diff < 0 ? -diff : diff, 600ll * 10000000ll);  // within 10 minutes

    // The per-thread generators of uuid::v1() never collide across threads.
    std::vector<uuid> a, c;
    std::thread t1([&] {
        for (int i = 0; i < 1000; ++i) a.push_back(uuid::v1());
    });
    std::thread t2([&] {
        for (int i = 0; i < 1000; ++i) c.push_back(uuid::v1());
    });
    t1.join();
    t2.join();
    std::set<uuid> all(a.begin(), a.end());
    all.insert(c.begin(), c.end());
    EXPECT_EQ(all.size(), 2000u);
}

TEST(Uuid, OrderAndHash) {
    const uuid a = uuid::literal("00000000-0000-0000-0000-000000000001");
    const uuid b = uuid::literal("00000000-0000-0000-0000-000000000002");
    const uuid c = uuid::literal("10000000-0000-0000-0000-000000000000");
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    EXPECT_LE(a, a);
    EXPECT_GT(c, a);
    EXPECT_GE(c, c);
    EXPECT_NE(a, b);
    EXPECT_NE(std::hash<uuid>()(a), std::hash<uuid>()(b));
}

TEST(Timestamp, UtcAndEpoch) {
    static_assert(fastwire::epoch() == 0, "epoch");
    const std::uint64_t t = fastwire::utc();
    EXPECT_GT(t, 1600000000ull * 1000000000ull);  // after 2020
    EXPECT_LE(t, fastwire::utc());
}
