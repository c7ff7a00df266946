// fastwire/decimal.h - the schema's `decimal`: an exact 96-bit integer, a scale and a sign.
//
// value = (-1)^sign * integer / 10^scale, with integer < 2^96 and scale in 0..28. This is
// the .NET System.Decimal value space and exactly what the 16 wire bytes hold (FBE spec
// §2.3: lo, mid, hi, flags). The FBE reference keeps a double and loses digits; fastwire
// keeps every digit.
//
//   fastwire::decimal d;
//   fastwire::decimal::parse("123456.123456", d);   // errc::ok; integer 123456123456, scale 6
//   d.to_string();                                 // "123456.123456"
//   fastwire::decimal(150, 2) == fastwire::decimal(15, 1);   // true: 1.50 == 1.5
//   fastwire::decimal::from_double(0.1);           // 1 / 10^1, as the reference converts
//
// Choices:
// - Text keeps the scale it is written with: "1.50" parses as 150 / 10^2 and prints back
//   as "1.50". Nothing is normalised implicitly; equality and ordering are by value, so
//   1.50 == 1.5, and std::hash agrees with ==. normalized() strips trailing zeros.
// - Negative zero is kept (the wire has a sign bit): it prints as "-0" and equals 0.
// - from_double() reproduces the reference's conversion (a port of .NET VarDecFromR8):
//   15 significant digits, trailing zeros stripped (at most 14), zero for |x| >= 2^96,
//   NaN, infinities and values that round to zero. to_double() is correctly rounded.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <fastwire/internal/wide.h>
#include <fastwire/status.h>

namespace fastwire {

class decimal {
public:
    static constexpr unsigned max_scale = 28;

    // Zero.
    constexpr decimal() noexcept = default;

    // An integer, exactly (scale 0).
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    constexpr decimal(I value) noexcept {  // NOLINT: implicit, integers convert exactly
        if constexpr (std::is_signed_v<I>) {
            if (value < 0) {
                negative_ = true;
                low_ = std::uint64_t{0} - static_cast<std::uint64_t>(value);
                return;
            }
        }
        low_ = static_cast<std::uint64_t>(value);
    }

    // integer / 10^scale, e.g. decimal(150, 2) is 1.50. Throws std::out_of_range when
    // scale > 28 (a compile-time error in a constant expression).
    template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    constexpr decimal(I integer, unsigned scale) : decimal(integer) {
        if (scale > max_scale) throw std::out_of_range("fastwire::decimal: scale above 28");
        scale_ = static_cast<std::uint8_t>(scale);
    }

    // The full value space: a 96-bit integer given as its low 64 and high 32 bits.
    static constexpr decimal from_parts(std::uint64_t low64, std::uint32_t high32, unsigned scale, bool negative) {
        if (scale > max_scale) throw std::out_of_range("fastwire::decimal: scale above 28");
        decimal d;
        d.low_ = low64;
        d.high_ = high32;
        d.scale_ = static_cast<std::uint8_t>(scale);
        d.negative_ = negative;
        return d;
    }

    // From the four wire words (lo, mid, hi, flags). Fails with bad_value when the scale
    // byte is above 28. The other flag bits are ignored, as .NET ignores them on read.
    static constexpr errc from_bits(std::uint32_t lo, std::uint32_t mid, std::uint32_t hi, std::uint32_t flags,
                                    decimal& out) noexcept {
        const std::uint32_t scale = (flags >> 16) & 0xFFu;
        if (scale > max_scale) return errc::bad_value;
        out.low_ = (std::uint64_t{mid} << 32) | lo;
        out.high_ = hi;
        out.scale_ = static_cast<std::uint8_t>(scale);
        out.negative_ = (flags >> 31) != 0;
        return errc::ok;
    }

    constexpr std::uint32_t lo32() const noexcept { return static_cast<std::uint32_t>(low_); }
    constexpr std::uint32_t mid32() const noexcept { return static_cast<std::uint32_t>(low_ >> 32); }
    constexpr std::uint32_t hi32() const noexcept { return high_; }
    constexpr std::uint32_t flags() const noexcept {
        return (std::uint32_t{scale_} << 16) | (negative_ ? 0x80000000u : 0u);
    }
    constexpr std::uint64_t low64() const noexcept { return low_; }
    constexpr unsigned scale() const noexcept { return scale_; }
    constexpr bool negative() const noexcept { return negative_; }
    constexpr bool is_zero() const noexcept { return low_ == 0 && high_ == 0; }

    // The reference's double -> decimal conversion (see the banner).
    static decimal from_double(double value) noexcept;

    // The nearest double (correctly rounded).
    double to_double() const;
    explicit operator double() const { return to_double(); }

    // Parses [+|-] digits [. digits] [(e|E) [+|-] digits], or the same starting with ".".
    // The scale is the number of fractional digits minus the exponent. Returns
    // invalid_argument for bad syntax, out_of_range when the integer needs more than 96
    // bits or the scale would exceed 28. `out` is untouched on error.
    static errc parse(std::string_view text, decimal& out) noexcept;
    static std::optional<decimal> from_string(std::string_view text) noexcept {
        decimal d;
        if (parse(text, d) != errc::ok) return std::nullopt;
        return d;
    }

    // Exact text with exactly scale() fractional digits: "1.50", "-0.001", "0".
    std::string to_string() const;

    // The same value with the smallest scale (trailing fractional zeros removed) and a
    // positive sign for zero.
    decimal normalized() const noexcept;

    // Compares by value: -1, 0 or 1.
    static int compare(const decimal& a, const decimal& b) noexcept;

    friend bool operator==(const decimal& a, const decimal& b) noexcept { return compare(a, b) == 0; }
    friend bool operator!=(const decimal& a, const decimal& b) noexcept { return compare(a, b) != 0; }
    friend bool operator<(const decimal& a, const decimal& b) noexcept { return compare(a, b) < 0; }
    friend bool operator<=(const decimal& a, const decimal& b) noexcept { return compare(a, b) <= 0; }
    friend bool operator>(const decimal& a, const decimal& b) noexcept { return compare(a, b) > 0; }
    friend bool operator>=(const decimal& a, const decimal& b) noexcept { return compare(a, b) >= 0; }

    // True when both have the same integer, scale and sign (1.5 and 1.50 are not identical).
    bool identical(const decimal& o) const noexcept {
        return low_ == o.low_ && high_ == o.high_ && scale_ == o.scale_ && negative_ == o.negative_;
    }

    friend std::ostream& operator<<(std::ostream& os, const decimal& d) { return os << d.to_string(); }

private:
    internal::wide<3> magnitude() const noexcept {
        internal::wide<3> w;
        w.limb[0] = lo32();
        w.limb[1] = mid32();
        w.limb[2] = high_;
        return w;
    }
    void set_magnitude(const internal::wide<3>& w) noexcept {
        low_ = (std::uint64_t{w.limb[1]} << 32) | w.limb[0];
        high_ = w.limb[2];
    }
    // Writes the digits of the magnitude (no sign, no point) into buf[0..29); returns count.
    std::size_t digits(char* buf) const noexcept;

    std::uint64_t low_ = 0;
    std::uint32_t high_ = 0;
    std::uint8_t scale_ = 0;
    bool negative_ = false;
};

// ---- implementation --------------------------------------------------------------------

namespace internal {

// 10^0 .. 10^28 as doubles (literals: the nearest double to each power).
inline constexpr double decimal_pow10[29] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,
                                             1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
                                             1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28};

// floor(a / b) for b > 0, without relying on the rounding of >> on negative numbers.
constexpr int floor_div(int a, int b) noexcept { return a >= 0 ? a / b : -((-a + b - 1) / b); }

}  // namespace internal

inline decimal decimal::from_double(double value) noexcept {
    // The algorithm of .NET's VarDecFromR8, which the FBE reference ports: scale the double
    // so that it has 15 integer digits, round half to even, then remove trailing zeros.
    std::uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    // frexp-style exponent: |value| = m * 2^exp with m in [0.5, 1).
    const int exp = static_cast<int>((bits >> 52) & 0x7FF) - 1022;
    if (exp < -94) return decimal();  // below 0.5e-28 (also zero and subnormals): rounds to 0
    if (exp > 96) return decimal();   // >= 2^96, infinities and NaN: the reference writes 0
    const bool negative = (bits >> 63) != 0;
    double dbl = negative ? -value : value;

    // log10(2) * 2^16 ~= 19728: the most decimal digits the value can have, minus one.
    int power = 14 - internal::floor_div(exp * 19728, 65536);
    if (power >= 0) {
        if (power > static_cast<int>(max_scale)) power = static_cast<int>(max_scale);
        dbl *= internal::decimal_pow10[power];
    } else if (power != -1 || dbl >= 1e15) {
        dbl /= internal::decimal_pow10[-power];
    } else {
        power = 0;
    }
    if (dbl < 1e14 && power < static_cast<int>(max_scale)) {
        dbl *= 10;
        ++power;
    }

    // dbl < 1e15 here: truncate, then round half to even.
    std::uint64_t mant = static_cast<std::uint64_t>(dbl);
    const double rest = dbl - static_cast<double>(mant);
    if (rest > 0.5 || (rest == 0.5 && (mant & 1) != 0)) ++mant;
    if (mant == 0) return decimal();

    decimal d;
    d.negative_ = negative;
    if (power < 0) {
        // A large value: the integer is mant * 10^-power (at most 14 zeros), scale 0.
        internal::wide<3> w;
        w.limb[0] = static_cast<std::uint32_t>(mant);
        w.limb[1] = static_cast<std::uint32_t>(mant >> 32);
        if (!w.mul_pow10(static_cast<unsigned>(-power))) return decimal();
        d.set_magnitude(w);
        return d;
    }
    // Strip trailing zeros, but at most min(power, 14) of them.
    int strip = power < 14 ? power : 14;
    while (strip > 0 && mant % 10 == 0) {
        mant /= 10;
        --power;
        --strip;
    }
    d.low_ = mant;
    d.scale_ = static_cast<std::uint8_t>(power);
    return d;
}

inline std::size_t decimal::digits(char* buf) const noexcept {
    internal::wide<3> w = magnitude();
    char rev[32];
    std::size_t n = 0;
    do {
        rev[n++] = static_cast<char>('0' + w.div_small(10));
    } while (!w.is_zero());
    for (std::size_t i = 0; i < n; ++i) buf[i] = rev[n - 1 - i];
    return n;
}

inline std::string decimal::to_string() const {
    char dig[32];
    const std::size_t n = digits(dig);
    const std::size_t scale = scale_;
    std::string s;
    s.reserve(n + scale + 3);
    if (negative_) s.push_back('-');
    if (scale == 0) {
        s.append(dig, n);
    } else if (n > scale) {
        s.append(dig, n - scale);
        s.push_back('.');
        s.append(dig + (n - scale), scale);
    } else {
        s.append("0.");
        s.append(scale - n, '0');
        s.append(dig, n);
    }
    return s;
}

inline double decimal::to_double() const {
    if (high_ == 0 && low_ <= (std::uint64_t{1} << 53) && scale_ <= 22) {
        // Both operands are exact doubles, so one IEEE division is correctly rounded.
        const double m = static_cast<double>(low_);
        const double r = scale_ == 0 ? m : m / internal::decimal_pow10[scale_];
        return negative_ ? -r : r;
    }
    const std::string s = to_string();
    double r = 0;
    std::from_chars(s.data(), s.data() + s.size(), r);  // exact text -> correctly rounded
    return r;
}

inline errc decimal::parse(std::string_view text, decimal& out) noexcept {
    const char* p = text.data();
    const char* const end = p + text.size();
    bool negative = false;
    if (p != end && (*p == '+' || *p == '-')) negative = (*p++ == '-');

    internal::wide<3> w;
    bool any_digit = false;
    bool overflow = false;
    long frac_digits = 0;
    for (; p != end && *p >= '0' && *p <= '9'; ++p) {
        any_digit = true;
        if (w.mul_add(10, static_cast<std::uint32_t>(*p - '0')) != 0) overflow = true;
    }
    if (p != end && *p == '.') {
        ++p;
        for (; p != end && *p >= '0' && *p <= '9'; ++p) {
            any_digit = true;
            ++frac_digits;
            if (w.mul_add(10, static_cast<std::uint32_t>(*p - '0')) != 0) overflow = true;
        }
    }
    if (!any_digit) return errc::invalid_argument;

    long exponent = 0;
    if (p != end && (*p == 'e' || *p == 'E')) {
        ++p;
        bool exp_negative = false;
        if (p != end && (*p == '+' || *p == '-')) exp_negative = (*p++ == '-');
        if (p == end || *p < '0' || *p > '9') return errc::invalid_argument;
        for (; p != end && *p >= '0' && *p <= '9'; ++p) {
            if (exponent < 100000) exponent = exponent * 10 + (*p - '0');
        }
        if (exp_negative) exponent = -exponent;
    }
    if (p != end) return errc::invalid_argument;
    if (overflow) return errc::out_of_range;

    long scale = frac_digits - exponent;
    if (scale < 0) {
        if (!w.is_zero() && !w.mul_pow10(static_cast<unsigned>(-scale))) return errc::out_of_range;
        scale = 0;
    }
    if (scale > static_cast<long>(max_scale)) return errc::out_of_range;

    out.set_magnitude(w);
    out.scale_ = static_cast<std::uint8_t>(scale);
    out.negative_ = negative;
    return errc::ok;
}

inline decimal decimal::normalized() const noexcept {
    decimal d = *this;
    if (d.is_zero()) return decimal();
    internal::wide<3> w = magnitude();
    while (d.scale_ > 0 && w.mod_small(10) == 0) {
        w.div_small(10);
        --d.scale_;
    }
    d.set_magnitude(w);
    return d;
}

inline int decimal::compare(const decimal& a, const decimal& b) noexcept {
    const bool az = a.is_zero(), bz = b.is_zero();
    if (az && bz) return 0;
    const bool an = a.negative_ && !az, bn = b.negative_ && !bz;
    if (an != bn) return an ? -1 : 1;
    // Same sign: compare magnitudes at a common scale (96 + 94 bits fit in 7 limbs).
    internal::wide<7> x, y;
    const internal::wide<3> ma = a.magnitude(), mb = b.magnitude();
    for (int i = 0; i < 3; ++i) {
        x.limb[i] = ma.limb[i];
        y.limb[i] = mb.limb[i];
    }
    if (a.scale_ < b.scale_) x.mul_pow10(static_cast<unsigned>(b.scale_ - a.scale_));
    if (b.scale_ < a.scale_) y.mul_pow10(static_cast<unsigned>(a.scale_ - b.scale_));
    const int c = x.compare(y);
    return an ? -c : c;
}

}  // namespace fastwire

namespace std {
template <>
struct hash<fastwire::decimal> {
    std::size_t operator()(const fastwire::decimal& d) const noexcept {
        // Equal values hash equally: hash the normalised form.
        const fastwire::decimal n = d.normalized();
        std::size_t h = std::hash<std::uint64_t>()(n.low64());
        h ^= std::hash<std::uint64_t>()((std::uint64_t{n.hi32()} << 32) | n.flags()) + 0x9e3779b97f4a7c15ull +
             (h << 6) + (h >> 2);
        return h;
    }
};
}  // namespace std
