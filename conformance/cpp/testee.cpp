// The C++ conformance testee: answers the runner's requests on stdin/stdout.
//
//   build/conformance-cpp/fastwire-conformance-testee
//
// The protocol is in conformance/README.md: each request names a type ("package.Struct"),
// an input format, a payload and an output format; the answer is the payload converted,
// or the stage that rejected it. Binary input is verified first (verify()), then read
// with the checked reader (deserialize()), then written in the output format. Versioned
// input that passed verify() is also read through the generated view (fastwire/view.h),
// which must show the values deserialize() gave (else an internal error).
//
// Built with FASTWIRE_CONFORMANCE_PMR (the "cpp-pmr" testee), the types are the
// allocator-aware ones `fastwire compile --pmr` generates, and each request reads into a
// value made on a fastwire::pmr::arena (fastwire/pmr.h).
//
// The versioned format (fastwire/model.h) is always built in. The final format
// (fastwire/final_model.h) and JSON (fastwire/json.h for writing, fastwire/json_reader.h
// with simdjson for reading) are compiled in when the runtime has them; otherwise a
// request that needs them is answered with status 4, unsupported.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include <fastwire/internal/view_check.h>
#include <fastwire/model.h>

#if __has_include(<fastwire/final_model.h>)
#include <fastwire/final_model.h>
#define FASTWIRE_CONFORMANCE_FINAL 1
#endif
#if __has_include(<fastwire/json.h>)
#include <fastwire/json.h>
#define FASTWIRE_CONFORMANCE_JSON_WRITER 1
#endif
#if defined(FASTWIRE_CONFORMANCE_JSON_READER) && __has_include(<fastwire/json_reader.h>)
#include <fastwire/json_reader.h>
#else
#undef FASTWIRE_CONFORMANCE_JSON_READER
#endif

#ifdef FASTWIRE_CONFORMANCE_PMR
#include <memory_resource>
#include <optional>

#include <fastwire/pmr.h>
#endif

#include "conformance_types.h"  // generated: the models headers, FASTWIRE_CONFORMANCE_TYPES

namespace {

enum format : std::uint8_t { versioned = 1, final = 2, json = 3 };
enum answer : std::uint8_t {
    ok = 0,
    parse_error = 1,
    verify_error = 2,
    serialize_error = 3,
    unsupported = 4,
    internal_error = 5,
};

struct response {
    std::uint8_t status = ok;
    std::string payload;
};

response reply(std::uint8_t status, std::string message) { return response{status, std::move(message)}; }

const char* format_name(std::uint8_t f) {
    switch (f) {
        case versioned: return "versioned";
        case final: return "final";
        case json: return "json";
        default: return nullptr;
    }
}

// Why a format is not in this build, or nullptr when it is.
const char* missing(std::uint8_t f, bool input) {
    switch (f) {
        case versioned: return nullptr;
        case final:
#ifdef FASTWIRE_CONFORMANCE_FINAL
            return nullptr;
#else
            return "the final format is not built in (no fastwire/final_model.h)";
#endif
        case json:
            if (input) {
#ifdef FASTWIRE_CONFORMANCE_JSON_READER
                return nullptr;
#else
                return "reading JSON is not built in (no fastwire/json_reader.h or simdjson)";
#endif
            }
#ifdef FASTWIRE_CONFORMANCE_JSON_WRITER
            return nullptr;
#else
            return "writing JSON is not built in (no fastwire/json.h)";
#endif
        default: return "unknown format";
    }
}

// Whether the views of a verified versioned model (the checked one and the trusted one)
// show `value` (the final format has no views: always true).
template <class S>
bool view_agrees(const fastwire::model<S>& model, const S& value) {
    return fastwire::internal::view_matches(value, model.view()) &&
           fastwire::internal::view_matches(value, model.trusted_view());
}
template <class M, class S>
bool view_agrees(const M&, const S&) {
    return true;
}

// Binary input: verify, then read with the checked reader (and through the view).
template <class M, class S>
response read_binary(M& model, const std::uint8_t* data, std::size_t size, S& value) {
    model.attach(data, size);
    const fastwire::status verdict = model.verify();
    if (!verdict) return reply(verify_error, std::string("verify: ") + verdict.message());
    const fastwire::status read = model.deserialize(value);
    if (!read) return reply(parse_error, std::string("deserialize failed after verify passed: ") + read.message());
    if (!view_agrees(model, value)) return reply(internal_error, "the view differs from what deserialize() read");
    return response{};
}

template <class M, class S>
response write_binary(M& model, const S& value) {
    model.reset();
    const std::size_t n = model.serialize(value);
    const auto* bytes = reinterpret_cast<const char*>(model.buffer().data());
    return response{ok, std::string(bytes, n)};
}

// One request for the struct S.
template <class S>
response convert(std::uint8_t in, std::uint8_t out, const std::uint8_t* data, std::size_t size) {
    if (const char* why = missing(in, true)) return reply(unsupported, why);
#ifdef FASTWIRE_CONFORMANCE_PMR
    // A value whose every byte is the arena's is made with arena.make<S>() and never
    // destroyed (released with the arena); any other with pmr::make, and destroyed.
    fastwire::pmr::arena arena;
    std::optional<S> owned;
    S& value = [&]() -> S& {
        if constexpr (fastwire::pmr::releasable_v<S>)
            return arena.make<S>();
        else
            return owned.emplace(fastwire::pmr::make<S>(&arena));
    }();
#else
    S value{};
#endif
    response r;
    if (in == versioned) {
        fastwire::model<S> reader;
        r = read_binary(reader, data, size, value);
    } else if (in == final) {
#ifdef FASTWIRE_CONFORMANCE_FINAL
        fastwire::final_model<S> reader;
        r = read_binary(reader, data, size, value);
#endif
    } else {
#ifdef FASTWIRE_CONFORMANCE_JSON_READER
        static fastwire::json::reader reader;  // one per type; keeps its parser and buffer
        const fastwire::json::result res =
            reader.read(std::string_view(reinterpret_cast<const char*>(data), size), value);
        if (!res) r = reply(parse_error, "json: " + std::string(res.message()));
#endif
    }
    if (r.status != ok) return r;

    if (const char* why = missing(out, false)) return reply(unsupported, why);
    try {
        if (out == versioned) {
            static fastwire::model<S> writer;  // reuses its buffer
            return write_binary(writer, value);
        }
        if (out == final) {
#ifdef FASTWIRE_CONFORMANCE_FINAL
            static fastwire::final_model<S> writer;
            return write_binary(writer, value);
#endif
        } else {
#ifdef FASTWIRE_CONFORMANCE_JSON_WRITER
            return response{ok, fastwire::json::to_json(value)};
#endif
        }
    } catch (const std::logic_error& e) {  // length_error (> 4 GiB), invalid_argument, ...
        return reply(serialize_error, e.what());
    }
    return reply(internal_error, "unreachable");
}

using handler = response (*)(std::uint8_t, std::uint8_t, const std::uint8_t*, std::size_t);

const std::unordered_map<std::string_view, handler>& registry() {
#define FASTWIRE_CONFORMANCE_ENTRY(package, name) {#package "." #name, &convert<::package::name>},
    static const std::unordered_map<std::string_view, handler> types{
        FASTWIRE_CONFORMANCE_TYPES(FASTWIRE_CONFORMANCE_ENTRY)};
#undef FASTWIRE_CONFORMANCE_ENTRY
    return types;
}

// request: u8 version, u8 input format, u8 output format, u16 name length, name, payload.
response handle(const std::uint8_t* request, std::size_t size) {
    if (size < 5) return reply(internal_error, "request shorter than its header");
    const std::uint8_t version = request[0], in = request[1], out = request[2];
    const std::size_t name_size = request[3] | static_cast<std::size_t>(request[4]) << 8;
    if (version != 1) return reply(unsupported, "protocol version " + std::to_string(version));
    if (5 + name_size > size) return reply(internal_error, "type name beyond the request");
    const std::string_view name(reinterpret_cast<const char*>(request + 5), name_size);
    for (std::uint8_t f : {in, out})
        if (!format_name(f)) return reply(unsupported, "format " + std::to_string(f));
    const auto& types = registry();
    const auto it = types.find(name);
    if (it == types.end()) return reply(unsupported, "unknown type " + std::string(name));
    return it->second(in, out, request + 5 + name_size, size - 5 - name_size);
}

bool read_exactly(void* to, std::size_t n) { return std::fread(to, 1, n, stdin) == n; }

bool write_response(const response& r) {
    const std::size_t n = 1 + r.payload.size();
    const std::uint8_t head[5] = {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8),
                                  static_cast<std::uint8_t>(n >> 16), static_cast<std::uint8_t>(n >> 24), r.status};
    return std::fwrite(head, 1, 5, stdout) == 5 &&
           std::fwrite(r.payload.data(), 1, r.payload.size(), stdout) == r.payload.size() && std::fflush(stdout) == 0;
}

}  // namespace

int main() {
    std::string request;
    for (;;) {
        std::uint8_t head[4];
        if (!read_exactly(head, 4)) return 0;  // the runner closed the pipe: done
        const std::size_t size = head[0] | static_cast<std::size_t>(head[1]) << 8 |
                                 static_cast<std::size_t>(head[2]) << 16 | static_cast<std::size_t>(head[3]) << 24;
        response r;
        try {
            request.resize(size);
            if (!read_exactly(request.data(), size)) return 1;
            r = handle(reinterpret_cast<const std::uint8_t*>(request.data()), size);
        } catch (const std::exception& e) {
            r = reply(internal_error, std::string("exception: ") + e.what());
        } catch (...) {
            r = reply(internal_error, "unknown exception");
        }
        if (r.status == internal_error) std::fprintf(stderr, "fastwire-conformance-testee: %s\n", r.payload.c_str());
        if (!write_response(r)) return 1;
    }
}
