// streams.h — std::streambuf adapters for stream-based serializers (Cereal, Boost).
//
// Their archives write to a std::ostream / std::streambuf. std::stringstream would add a
// copy and an allocation per message; these write into a reused byte vector and read
// straight from the input bytes, the way a performance-aware user would wire them.
#pragma once

#include <cstdint>
#include <cstring>
#include <streambuf>
#include <vector>

namespace fwb {

// Appends to a reused std::vector<uint8_t>; reset() empties it and keeps the capacity.
class VectorOutBuf final : public std::streambuf {
public:
    void reset() { out_.clear(); }
    const std::vector<uint8_t>& bytes() const { return out_; }

protected:
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        out_.insert(out_.end(), reinterpret_cast<const uint8_t*>(s), reinterpret_cast<const uint8_t*>(s) + n);
        return n;
    }
    int_type overflow(int_type ch) override {
        if (!traits_type::eq_int_type(ch, traits_type::eof())) out_.push_back(static_cast<uint8_t>(ch));
        return traits_type::not_eof(ch);
    }

private:
    std::vector<uint8_t> out_;
};

// Reads a byte range in place.
class SpanInBuf final : public std::streambuf {
public:
    void reset(const uint8_t* data, size_t size) {
        char* p = const_cast<char*>(reinterpret_cast<const char*>(data));
        setg(p, p, p + size);
    }
};

}  // namespace fwb
