// endian, buffer, buffer_view, bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include <fastwire/fastwire.h>

TEST(Endian, UnalignedLittleEndian) {
    alignas(8) std::uint8_t raw[24] = {};
    for (std::size_t off = 0; off < 8; ++off) {
        std::uint8_t* p = raw + off;
        fastwire::store_le<std::uint32_t>(p, 0x11223344u);
        EXPECT_EQ(p[0], 0x44);
        EXPECT_EQ(p[3], 0x11);
        EXPECT_EQ(fastwire::load_le<std::uint32_t>(p), 0x11223344u);
        fastwire::store_le<std::int64_t>(p, -2);
        EXPECT_EQ(p[0], 0xFE);
        EXPECT_EQ(p[7], 0xFF);
        EXPECT_EQ(fastwire::load_le<std::int64_t>(p), -2);
        fastwire::store_le<double>(p, 1000.0);
        EXPECT_EQ(p[6], 0x8f);
        EXPECT_EQ(p[7], 0x40);
        EXPECT_EQ(fastwire::load_le<double>(p), 1000.0);
        fastwire::store_le<std::int16_t>(p, -32768);
        EXPECT_EQ(fastwire::load_le<std::int16_t>(p), -32768);
    }
    // NaN payloads move as bits.
    const std::uint32_t snan_bits = 0x7F800001u;
    float snan;
    std::memcpy(&snan, &snan_bits, 4);
    fastwire::store_le<float>(raw, snan);
    const float back = fastwire::load_le<float>(raw);
    std::uint32_t back_bits;
    std::memcpy(&back_bits, &back, 4);
    EXPECT_EQ(back_bits, snan_bits);
    static_assert(fastwire::internal::byteswap<std::uint32_t>(0x11223344u) == 0x44332211u, "byteswap");
}

TEST(Buffer, GrowsWithoutLosingBytes) {
    fastwire::buffer b;
    EXPECT_TRUE(b.empty());
    for (int i = 0; i < 1000; ++i) {
        const auto v = static_cast<std::uint8_t>(i);
        b.append(&v, 1);
    }
    ASSERT_EQ(b.size(), 1000u);
    for (int i = 0; i < 1000; ++i) EXPECT_EQ(b[static_cast<std::size_t>(i)], static_cast<std::uint8_t>(i));
    const std::size_t cap = b.capacity();
    b.clear();
    EXPECT_EQ(b.size(), 0u);
    EXPECT_EQ(b.capacity(), cap);  // clear keeps the memory
    std::uint8_t* p = b.append(3);
    p[0] = 1;
    p[1] = 2;
    p[2] = 3;
    b.resize(6);
    EXPECT_EQ(b.to_vector(), (std::vector<std::uint8_t>{1, 2, 3, 0, 0, 0}));
    b.resize(2);
    EXPECT_EQ(b.to_vector(), (std::vector<std::uint8_t>{1, 2}));

    fastwire::buffer copy = b;
    EXPECT_EQ(copy, b);
    fastwire::buffer moved = std::move(copy);
    EXPECT_EQ(moved, b);
    EXPECT_EQ(copy.size(), 0u);  // NOLINT: moved-from state is specified: empty
    moved.append("x", 1);
    EXPECT_NE(moved, b);
    moved = b;
    EXPECT_EQ(moved, b);
    moved.shrink_to_fit();
    EXPECT_EQ(moved.capacity(), moved.size());
    EXPECT_EQ(moved, b);

    fastwire::buffer_view v(b);
    EXPECT_EQ(v.size(), 2u);
    EXPECT_EQ(v[1], 2);
    EXPECT_EQ(v.subview(1).size(), 1u);
    EXPECT_EQ(v.subview(5).size(), 0u);
}

TEST(Bytes, DistinctVectorLikeType) {
    static_assert(!std::is_same_v<fastwire::bytes, std::vector<std::uint8_t>>, "bytes is its own type");
    fastwire::bytes b{1, 2};
    b.append("xyz", 3);
    EXPECT_EQ(b.size(), 5u);
    EXPECT_EQ(b[2], 'x');
    fastwire::bytes c(b.data(), b.size());
    EXPECT_EQ(b, c);
    c.push_back(0);
    EXPECT_LT(b, c);
    EXPECT_NE(std::hash<fastwire::bytes>()(b), std::hash<fastwire::bytes>()(c));
    b.clear();
    EXPECT_TRUE(b.empty());
    EXPECT_EQ(fastwire::bytes(std::string_view("ab")).size(), 2u);
}

TEST(Status, Basics) {
    fastwire::status ok(fastwire::errc::ok, 12);
    EXPECT_TRUE(ok);
    EXPECT_EQ(ok.size(), 12u);
    fastwire::status bad = fastwire::errc::truncated;
    EXPECT_FALSE(bad);
    EXPECT_EQ(bad, fastwire::errc::truncated);
    EXPECT_STREQ(bad.message(), fastwire::message(fastwire::errc::truncated));
}
