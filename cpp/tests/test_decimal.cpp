// decimal: the reference's double conversion (every line of decimal_samples.txt), exact
// text, extremes, value comparison, and the 16-byte wire form.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <unordered_set>

#include "test_util.h"

using fastwire::decimal;
using fastwire::errc;

namespace {

std::array<std::uint8_t, 16> wire(const decimal& d) {
    std::array<std::uint8_t, 16> b{};
    fastwire::versioned::writer w{nullptr};
    fastwire::versioned::codec<decimal>::write(w, b.data(), b.data(), d);
    return b;
}

decimal parse(const char* s) {
    decimal d;
    EXPECT_EQ(decimal::parse(s, d), errc::ok) << s;
    return d;
}

struct Sample {
    std::string input;
    std::vector<std::uint8_t> bytes;
    std::string reads_back;
};

std::vector<Sample> load_samples() {
    std::istringstream in(testutil::read_text("decimal_samples.txt"));
    std::vector<Sample> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto arrow = line.find(" -> ");
        const auto paren = line.find("  (reads back as ");
        const auto semi = line.find(';', paren);
        if (arrow == std::string::npos || paren == std::string::npos || semi == std::string::npos) {
            ADD_FAILURE() << "unparsed sample line: " << line;
            continue;
        }
        Sample s;
        s.input = line.substr(0, arrow);
        s.bytes = testutil::parse_hex(line.substr(arrow + 4, paren - arrow - 4));
        const auto rb = paren + std::string("  (reads back as ").size();
        s.reads_back = line.substr(rb, semi - rb);
        out.push_back(s);
    }
    return out;
}

}  // namespace

TEST(Decimal, EveryReferenceSampleFromDouble) {
    const auto samples = load_samples();
    ASSERT_GE(samples.size(), 18u);
    for (const auto& s : samples) {
        SCOPED_TRACE(s.input);
        ASSERT_EQ(s.bytes.size(), 16u);
        const double x = std::strtod(s.input.c_str(), nullptr);
        const decimal d = decimal::from_double(x);
        const auto b = wire(d);
        EXPECT_EQ(std::vector<std::uint8_t>(b.begin(), b.end()), s.bytes);
        // Reading the bytes back gives the value the reference reads back.
        EXPECT_EQ(d.to_double(), std::strtod(s.reads_back.c_str(), nullptr));
    }
}

TEST(Decimal, FromDoubleEdgeCases) {
    // Negative zero, NaN, infinities, subnormals, 2^96 and above: all zero, positive.
    for (double x : {-0.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::denorm_min(), 0x1p96,
                     -0x1p100, 1e-29}) {
        const decimal d = decimal::from_double(x);
        EXPECT_TRUE(d.is_zero()) << x;
        EXPECT_FALSE(d.negative()) << x;
        EXPECT_EQ(d.flags(), 0u) << x;
    }
    // 15 significant digits, minimal scale.
    EXPECT_EQ(decimal::from_double(0.1).to_string(), "0.1");
    EXPECT_EQ(decimal::from_double(1.0 / 3.0).to_string(), "0.333333333333333");
    EXPECT_EQ(decimal::from_double(-2.5).to_string(), "-2.5");
    EXPECT_EQ(decimal::from_double(123456789012345678.0).to_string(), "123456789012346000");
    EXPECT_EQ(decimal::from_double(1e-28).to_string(), "0.0000000000000000000000000001");
    EXPECT_EQ(decimal::from_double(0x1p95).to_string(), "39614081257132200000000000000");
}

TEST(Decimal, TextRoundTrips) {
    struct Case {
        const char* in;
        const char* out;
        unsigned scale;
    };
    const Case cases[] = {
        {"123456.123456", "123456.123456", 6},
        {"-0.001", "-0.001", 3},
        {"1.50", "1.50", 2},  // the scale as written is kept
        {"0", "0", 0},
        {"-0", "-0", 0},
        {"0.000", "0.000", 3},
        {"+7", "7", 0},
        {".5", "0.5", 1},
        {"5.", "5", 0},
        {"007.10", "7.10", 2},
        {"1e3", "1000", 0},
        {"1.5E-3", "0.0015", 4},
        {"12.5e+1", "125", 0},
        {"79228162514264337593543950335", "79228162514264337593543950335", 0},
        {"-7.9228162514264337593543950335", "-7.9228162514264337593543950335", 28},
        {"0.0000000000000000000000000001", "0.0000000000000000000000000001", 28},
        {"0.0000000000000000000000000000e1", "0.000000000000000000000000000", 27},
    };
    for (const auto& c : cases) {
        const decimal d = parse(c.in);
        EXPECT_EQ(d.to_string(), c.out) << c.in;
        EXPECT_EQ(d.scale(), c.scale) << c.in;
        // The printed text parses back to identical bits.
        EXPECT_TRUE(parse(d.to_string().c_str()).identical(d)) << c.in;
    }
}

TEST(Decimal, RejectsBadText) {
    const decimal sentinel(42);
    for (const char* bad : {"", "-", "+", ".", "-.", "1.2.3", " 1", "1 ", "1e", "1e+", "abc", "1,5", "--1", "0x10",
                            "1.5f", "e5", "∞", "NaN"}) {
        decimal d = sentinel;
        EXPECT_EQ(decimal::parse(bad, d), errc::invalid_argument) << bad;
        EXPECT_TRUE(d.identical(sentinel)) << "output changed for " << bad;
        EXPECT_FALSE(decimal::from_string(bad).has_value());
    }
    for (const char* big : {"79228162514264337593543950336",    // 2^96
                            "100000000000000000000000000000",   // 10^29
                            "0.00000000000000000000000000001",  // 29 fractional digits
                            "1.00000000000000000000000000000",  // 29 fractional digits, even zeros
                            "1e29", "1e-29", "1e99999999999", "7.9228162514264337593543950336e28"}) {
        decimal d = sentinel;
        EXPECT_EQ(decimal::parse(big, d), errc::out_of_range) << big;
        EXPECT_TRUE(d.identical(sentinel)) << big;
    }
}

TEST(Decimal, Extremes) {
    const decimal max = decimal::from_parts(~std::uint64_t{0}, ~std::uint32_t{0}, 0, false);
    EXPECT_EQ(max.to_string(), "79228162514264337593543950335");
    EXPECT_DOUBLE_EQ(max.to_double(), 79228162514264337593543950335.0);
    const decimal min = decimal::from_parts(~std::uint64_t{0}, ~std::uint32_t{0}, 28, true);
    EXPECT_EQ(min.to_string(), "-7.9228162514264337593543950335");
    EXPECT_EQ(min.to_double(), -7.9228162514264337593543950335);
    const auto b = wire(min);
    for (int i = 0; i < 12; ++i) EXPECT_EQ(b[static_cast<std::size_t>(i)], 0xFF);
    EXPECT_EQ(b[12], 0);
    EXPECT_EQ(b[13], 0);
    EXPECT_EQ(b[14], 28);
    EXPECT_EQ(b[15], 0x80);

    const decimal neg_zero = parse("-0.00");
    EXPECT_TRUE(neg_zero.negative());
    EXPECT_EQ(neg_zero, decimal(0));
    EXPECT_EQ(std::hash<decimal>()(neg_zero), std::hash<decimal>()(decimal(0)));
    EXPECT_TRUE(std::signbit(neg_zero.to_double()));
    EXPECT_EQ(wire(neg_zero)[15], 0x80);  // the sign bit is kept on the wire
    EXPECT_EQ(wire(neg_zero)[14], 2);

    EXPECT_EQ(decimal(std::numeric_limits<std::int64_t>::min()).to_string(), "-9223372036854775808");
    EXPECT_EQ(decimal(std::numeric_limits<std::uint64_t>::max()).to_string(), "18446744073709551615");
    EXPECT_EQ(decimal(-5).to_string(), "-5");
    EXPECT_EQ(decimal(150, 2).to_string(), "1.50");
    EXPECT_THROW(decimal(1, 29), std::out_of_range);
    constexpr decimal compile_time = decimal::from_parts(123456123456, 0, 6, false);
    EXPECT_EQ(compile_time.to_string(), "123456.123456");
}

TEST(Decimal, ValueComparisonAndHash) {
    EXPECT_EQ(parse("1.5"), parse("1.50"));
    EXPECT_EQ(parse("1.5"), parse("1.5000000000000000000000000000"));
    EXPECT_FALSE(parse("1.5").identical(parse("1.50")));
    EXPECT_EQ(parse("100"), parse("1e2"));
    EXPECT_NE(parse("1.5"), parse("1.51"));
    EXPECT_LT(parse("-1"), parse("-0.5"));
    EXPECT_LT(parse("-0.5"), parse("0"));
    EXPECT_LT(parse("0"), parse("0.0000000000000000000000000001"));
    EXPECT_LT(parse("0.001"), parse("1"));
    EXPECT_LT(parse("7.9228162514264337593543950334"), parse("7.9228162514264337593543950335"));
    EXPECT_GT(parse("79228162514264337593543950335"), parse("7.9228162514264337593543950335"));
    EXPECT_LE(parse("2.0"), parse("2"));
    EXPECT_GE(parse("2.0"), parse("2"));
    EXPECT_EQ(std::hash<decimal>()(parse("1.5")), std::hash<decimal>()(parse("1.500")));
    std::unordered_set<decimal> set{parse("1.5"), parse("1.50"), parse("-0"), parse("0.0")};
    EXPECT_EQ(set.size(), 2u);
    EXPECT_EQ(parse("12.3400").normalized().to_string(), "12.34");
    EXPECT_EQ(parse("-0.000").normalized().to_string(), "0");
}

TEST(Decimal, ToDouble) {
    EXPECT_EQ(parse("0.1").to_double(), 0.1);
    EXPECT_EQ(parse("-123456.123456").to_double(), -123456.123456);
    EXPECT_EQ(parse("1.2345678901234567890123456789").to_double(), 1.2345678901234567890123456789);
    EXPECT_EQ(parse("9007199254740993").to_double(), 9007199254740992.0);  // 2^53 + 1: ties to even
    EXPECT_EQ(static_cast<double>(parse("2.5")), 2.5);
}

TEST(Decimal, WireBits) {
    decimal d;
    EXPECT_EQ(decimal::from_bits(1, 0, 0, 0x80030000u, d), errc::ok);
    EXPECT_EQ(d.to_string(), "-0.001");
    EXPECT_EQ(decimal::from_bits(1, 0, 0, 29u << 16, d), errc::bad_value);
    EXPECT_EQ(d.to_string(), "-0.001");  // untouched on error
    // Reserved flag bits are ignored, as .NET ignores them.
    EXPECT_EQ(decimal::from_bits(5, 0, 0, (1u << 16) | 0x1234u, d), errc::ok);
    EXPECT_EQ(d.to_string(), "0.5");
    EXPECT_EQ(testutil::str(d), "0.5");
}
