// prng.h — the data sets' deterministic pseudo-random source.
//
// SplitMix64 plus our own mappings to ranges. std::uniform_*_distribution is avoided on
// purpose: its output differs between standard libraries, and the data sets must be the
// same bytes on every machine.
//
//   fwb::Prng rng(42);
//   int64_t v = rng.range(-10, 10);      // inclusive bounds
//   std::string s = rng.alnum(12);
#pragma once

#include <cstdint>
#include <string>

namespace fwb {

class Prng {
public:
    explicit Prng(uint64_t seed) : state_(seed) {}

    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // A value in [0, n) (n > 0). Multiply-shift mapping; the tiny bias is irrelevant here
    // and the mapping is fully specified, which is what matters.
    uint64_t below(uint64_t n) { return static_cast<uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64); }

    // A value in [lo, hi], both inclusive.
    int64_t range(int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(below(static_cast<uint64_t>(hi - lo) + 1));
    }

    // A double in [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    // An int64 whose magnitude has a random bit length 0..63 and a random sign: small,
    // medium and huge values in one stream (cpp-serializers' "mixed magnitude").
    int64_t mixed_magnitude() {
        unsigned bits = static_cast<unsigned>(below(64));
        uint64_t mag = bits == 0 ? 0 : (next() >> (64 - bits));
        return (next() & 1) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
    }

    // ASCII letters and digits only (no JSON escapes; see bench/README.md).
    std::string alnum(size_t len) {
        static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        std::string s(len, ' ');
        for (auto& c : s) c = kChars[below(sizeof(kChars) - 1)];
        return s;
    }

private:
    uint64_t state_;
};

}  // namespace fwb
