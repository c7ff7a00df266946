// Every codec: exact bytes computed by hand from spec §2 (so a bug shared by writer and
// reader cannot pass), then round trips with extremes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "test_types.h"
#include "test_util.h"

using testutil::parse_hex;

namespace {

template <class S>
std::vector<std::uint8_t> serialize(const S& v) {
    fastwire::model<S> m;
    m.serialize(v);
    return m.buffer().to_vector();
}

// Serialize, verify, read into a fresh object and into a reused "dirty" one; both must
// equal the input and re-serialize to the same bytes.
// (Hash maps iterate in an unspecified order, so with them only the size is compared.)
template <class S>
S round_trip(const S& v, const S& dirty = S{}, bool stable_bytes = true) {
    fastwire::model<S> w;
    const std::size_t n = w.serialize(v);
    EXPECT_EQ(n, w.buffer().size());
    const auto vs = w.verify();
    EXPECT_TRUE(vs) << vs.message();
    EXPECT_EQ(vs.size(), n);

    fastwire::model<S> r;
    r.attach(w.buffer());
    S fresh{};
    const auto st = r.deserialize(fresh);
    EXPECT_TRUE(st) << st.message();
    EXPECT_EQ(st.size(), n);
    S reused = dirty;
    EXPECT_TRUE(r.deserialize(reused));
    EXPECT_TRUE(reused == fresh);
    if (stable_bytes)
        EXPECT_EQ(serialize(fresh), w.buffer().to_vector());
    else
        EXPECT_EQ(serialize(fresh).size(), w.buffer().size());
    return fresh;
}

}  // namespace

// ---- layouts computed by hand ------------------------------------------------------------

TEST(Layout, SlotSizesAndBodies) {
    using namespace fastwire::versioned;
    static_assert(codec<bool>::slot == 1 && codec<char>::slot == 1 && codec<wchar_t>::slot == 4, "");
    static_assert(codec<std::int8_t>::slot == 1 && codec<std::uint16_t>::slot == 2 && codec<float>::slot == 4, "");
    static_assert(codec<double>::slot == 8 && codec<fastwire::decimal>::slot == 16 && codec<fastwire::uuid>::slot == 16,
                  "");
    static_assert(codec<t::Color>::slot == 2 && codec<t::Letter>::slot == 1 && codec<t::Wide>::slot == 4, "");
    static_assert(codec<std::string>::slot == 4 && codec<fastwire::bytes>::slot == 4, "");
    static_assert(codec<std::optional<double>>::slot == 5 && codec<std::optional<t::Point>>::slot == 5, "");
    static_assert(codec<std::array<std::int16_t, 3>>::slot == 6, "");
    static_assert(codec<std::array<std::optional<std::string>, 2>>::slot == 10, "");
    static_assert(codec<std::vector<t::Point>>::slot == 4 && codec<std::map<int, int>>::slot == 4, "");
    static_assert(layout<proto::Order>::body == 34 && layout<proto::Balance>::body == 20, "");
    static_assert(layout<proto::Account>::body == 30, "");
    static_assert(layout<t::Empty>::body == 8, "");
    static_assert(layout<t::Derived>::body == 8 + 4 + 4 + 4 + 5, "base fields inline first");
    static_assert(layout<t::MoreDerived>::body == 8 + 4 + 4 + 4 + 5 + 8, "");
    static_assert(layout<t::Derived>::offsets[0] == 8 && layout<t::Derived>::offsets[2] == 16, "");
    static_assert(layout<t::Scalars>::body ==
                      8 + 1 + 1 + 4 + 1 + 1 + 2 + 2 + 4 + 4 + 8 + 8 + 4 + 8 + 16 + 16 + 8 + 2 + 4 + 1 + 4 + 8,
                  "");
}

TEST(Layout, RootStruct) {
    EXPECT_EQ(serialize(t::Point{1, 2}), parse_hex("18000000 08000000 10000000 0a000000 01000000 02000000"));
    EXPECT_EQ(serialize(t::Empty{}), parse_hex("10000000 08000000 08000000 13000000"));
}

TEST(Layout, OptionalsMoveTheBase) {
    t::Optionals o;
    o.o_i32 = 5;
    o.o_string = "hi";
    // body 8 + 9 x 5 = 53 bytes at 8; heap from 61.
    std::string hex =
        "4b000000 08000000 35000000 0d000000"  // full 75, root at 8, body size 53, type 13
        "00 00000000"                          // o_bool: null, offset 0
        "01 35000000"                          // o_i32 -> 8 + 53 = 61
        "01 39000000"                          // o_string -> 8 + 57 = 65 (a 4-byte slot)
        "00 00000000 00 00000000 00 00000000 00 00000000 00 00000000 00 00000000"
        "05000000"        // 61: the int
        "04000000"        // 65: offset relative to 65 -> 69
        "02000000 6869";  // 69: "hi"
    EXPECT_EQ(serialize(o), parse_hex(hex));

    // An optional struct: the 4-byte slot holds the body offset relative to the slot.
    t::Optionals p;
    p.o_point = t::Point{7, 8};
    hex =
        "51000000 08000000 35000000 0d000000"
        "00 00000000 00 00000000 00 00000000 00 00000000 00 00000000 00 00000000 00 00000000"
        "01 35000000"  // o_point -> 61
        "00 00000000"
        "04000000"  // 61: body at 61 + 4 = 65
        "10000000 0a000000 07000000 08000000";
    EXPECT_EQ(serialize(p), parse_hex(hex));
}

TEST(Layout, MapsAndVectorsDoNotMoveTheBase) {
    t::Collections c;
    c.m = {{1, "a"}, {2, "bc"}};
    const auto bytes = serialize(c);
    // Find the m slot: field 13 (0-based) of Collections.
    constexpr std::size_t body = 8;
    constexpr std::size_t slot = body + fastwire::versioned::layout<t::Collections>::offsets[13];
    const std::size_t blk = body + fastwire::load_le<std::uint32_t>(bytes.data() + slot);
    ASSERT_LT(blk + 20, bytes.size());
    EXPECT_EQ(fastwire::load_le<std::uint32_t>(bytes.data() + blk), 2u);                     // count
    EXPECT_EQ(fastwire::load_le<std::int32_t>(bytes.data() + blk + 4), 1);                   // key 1
    const std::size_t s1 = body + fastwire::load_le<std::uint32_t>(bytes.data() + blk + 8);  // relative to the body
    EXPECT_EQ(s1, blk + 20);  // allocated right after the block
    EXPECT_EQ(fastwire::load_le<std::uint32_t>(bytes.data() + s1), 1u);
    EXPECT_EQ(bytes[s1 + 4], 'a');
    EXPECT_EQ(fastwire::load_le<std::int32_t>(bytes.data() + blk + 12), 2);  // key 2
    const std::size_t s2 = body + fastwire::load_le<std::uint32_t>(bytes.data() + blk + 16);
    EXPECT_EQ(s2, s1 + 5);
    EXPECT_EQ(std::string(bytes.begin() + static_cast<long>(s2) + 4, bytes.begin() + static_cast<long>(s2) + 6), "bc");
}

TEST(Layout, EmptyCollectionsStillGetBlocks) {
    t::Texts x;
    // body 8 + 12 = 20 at 8; three blocks of [u32 0] at 28, 32, 36.
    EXPECT_EQ(serialize(x), parse_hex("28000000 08000000 14000000 0c000000 14000000 18000000 1c000000"
                                      "00000000 00000000 00000000"));
    x.s = "ab";
    x.b = fastwire::bytes{1, 2, 3};
    x.v = {9};
    EXPECT_EQ(serialize(x), parse_hex("2e000000 08000000 14000000 0c000000 14000000 1a000000 21000000"
                                      "02000000 6162 03000000 010203 01000000 09"));
}

TEST(Layout, InheritedFieldsComeFirst) {
    t::Derived d;
    d.x = 1;
    d.y = 2;
    d.label = "L";
    // body 8 + 4 + 4 + 4 + 5 = 25 at 8 (type 16); label at 33.
    EXPECT_EQ(serialize(d), parse_hex("26000000 08000000 19000000 10000000 01000000 02000000 19000000"
                                      "00 00000000 01000000 4c"));
}

TEST(Layout, VectorOfBoolAndArrays) {
    t::Collections c;
    c.v_bool = {true, false, true};
    c.a = {-1, 0, 2147483647};
    const auto bytes = serialize(c);
    EXPECT_EQ(fastwire::load_le<std::int32_t>(bytes.data() + 16), -1);  // arrays are inline
    EXPECT_EQ(fastwire::load_le<std::int32_t>(bytes.data() + 24), 2147483647);
    constexpr std::size_t slot = 8 + fastwire::versioned::layout<t::Collections>::offsets[3];
    const std::size_t blk = 8 + fastwire::load_le<std::uint32_t>(bytes.data() + slot);
    EXPECT_EQ(fastwire::load_le<std::uint32_t>(bytes.data() + blk), 3u);
    EXPECT_EQ(bytes[blk + 4], 1);
    EXPECT_EQ(bytes[blk + 5], 0);
    EXPECT_EQ(bytes[blk + 6], 1);
}

// ---- round trips ---------------------------------------------------------------------------

TEST(RoundTrip, ScalarLimits) {
    t::Scalars lo, hi;
    lo.f_bool = false;
    lo.f_char = std::numeric_limits<char>::min();
    lo.f_wchar = std::numeric_limits<wchar_t>::min();
    lo.f_i8 = std::numeric_limits<std::int8_t>::min();
    lo.f_i16 = std::numeric_limits<std::int16_t>::min();
    lo.f_i32 = std::numeric_limits<std::int32_t>::min();
    lo.f_i64 = std::numeric_limits<std::int64_t>::min();
    lo.f_float = -std::numeric_limits<float>::max();
    lo.f_double = std::numeric_limits<double>::lowest();
    lo.f_decimal = fastwire::decimal::from_parts(~0ull, ~0u, 28, true);
    lo.f_color = t::Color::red;
    hi.f_bool = true;
    hi.f_char = std::numeric_limits<char>::max();
    hi.f_wchar = std::numeric_limits<wchar_t>::max();
    hi.f_i8 = std::numeric_limits<std::int8_t>::max();
    hi.f_u8 = std::numeric_limits<std::uint8_t>::max();
    hi.f_i16 = std::numeric_limits<std::int16_t>::max();
    hi.f_u16 = std::numeric_limits<std::uint16_t>::max();
    hi.f_i32 = std::numeric_limits<std::int32_t>::max();
    hi.f_u32 = std::numeric_limits<std::uint32_t>::max();
    hi.f_i64 = std::numeric_limits<std::int64_t>::max();
    hi.f_u64 = std::numeric_limits<std::uint64_t>::max();
    hi.f_float = std::numeric_limits<float>::denorm_min();
    hi.f_double = std::numeric_limits<double>::infinity();
    hi.f_decimal = fastwire::decimal::from_parts(~0ull, ~0u, 0, false);
    hi.f_uuid = fastwire::uuid::literal("ffffffff-ffff-ffff-ffff-ffffffffffff");
    hi.f_timestamp = std::numeric_limits<std::uint64_t>::max();
    hi.f_color = t::Color::blue;
    hi.f_perm = t::Perm::r | t::Perm::x | t::Perm::top;
    hi.f_letter = t::Letter::z;
    hi.f_wide = t::Wide::smile;
    hi.f_big = t::Big::max;
    EXPECT_TRUE(round_trip(lo, hi) == lo);
    EXPECT_TRUE(round_trip(hi, lo) == hi);
}

TEST(RoundTrip, NanPayloadsAndUnknownEnums) {
    t::Scalars s;
    const std::uint32_t fbits = 0x7F800001u;            // signalling NaN, payload 1
    const std::uint64_t dbits = 0xFFF8000000001234ull;  // negative quiet NaN with a payload
    std::memcpy(&s.f_float, &fbits, 4);
    std::memcpy(&s.f_double, &dbits, 8);
    s.f_color = static_cast<t::Color>(1234);  // not a named value: kept as the raw number
    s.f_perm = static_cast<t::Perm>(0x7FFFFFF0u);
    s.f_decimal = fastwire::decimal(150, 2);  // the scale survives, not just the value
    const t::Scalars back = round_trip(s);
    std::uint32_t fb;
    std::uint64_t db;
    std::memcpy(&fb, &back.f_float, 4);
    std::memcpy(&db, &back.f_double, 8);
    EXPECT_EQ(fb, fbits);
    EXPECT_EQ(db, dbits);
    EXPECT_EQ(static_cast<int>(back.f_color), 1234);
    EXPECT_EQ(static_cast<std::uint32_t>(back.f_perm), 0x7FFFFFF0u);
    EXPECT_EQ(back.f_decimal.to_string(), "1.50");
}

TEST(RoundTrip, Strings) {
    t::Texts empty;
    EXPECT_TRUE(round_trip(empty) == empty);
    t::Texts big;
    big.s.assign(1 << 20, 'x');
    for (std::size_t i = 0; i < big.s.size(); i += 997) big.s[i] = static_cast<char>(i);
    big.b = fastwire::bytes(std::size_t{1} << 20, 0xAB);
    big.v.assign(1 << 20, 0xCD);
    EXPECT_TRUE(round_trip(big) == big);
    EXPECT_TRUE(round_trip(empty, big) == empty);  // reading shrinks
    t::Texts odd;
    odd.s = std::string("\0\x01\xff\n", 4);  // embedded NUL, high bytes: strings are bytes
    EXPECT_TRUE(round_trip(odd) == odd);
    for (std::size_t n : {1u, 2u, 3u, 4u, 7u, 8u, 9u, 15u, 16u, 17u, 31u}) {
        odd.s.assign(n, 'q');
        EXPECT_TRUE(round_trip(odd, big) == odd) << n;
    }
}

// Every short length into a fresh string, one of another short length (in the object) and
// one with a heap buffer (the in-object path of internal/wire.h and the append paths), with
// distinct bytes so that a misplaced move shows.
TEST(RoundTrip, ShortStringsIntoEveryKindOfTarget) {
    for (std::size_t n = 0; n <= 20; ++n) {
        t::Texts v;
        for (std::size_t i = 0; i < n; ++i) v.s.push_back(static_cast<char>('a' + i));
        t::Texts shorter, longer, heap;
        shorter.s.assign(n == 0 ? 1 : n - 1, 'x');
        longer.s.assign(n + 1, 'y');
        heap.s.assign(40, 'z');  // round_trip reads into a copy: 40 chars on the heap
        const t::Texts fresh = round_trip(v);
        EXPECT_TRUE(fresh == v) << n;
        EXPECT_EQ(fresh.s.c_str()[n], '\0') << n;
        EXPECT_TRUE(round_trip(v, shorter) == v) << n;
        EXPECT_TRUE(round_trip(v, longer) == v) << n;
        EXPECT_TRUE(round_trip(v, heap) == v) << n;
    }
}

TEST(RoundTrip, Optionals) {
    t::Optionals none;
    EXPECT_TRUE(round_trip(none) == none);
    t::Optionals all;
    all.o_bool = false;  // present but false
    all.o_i32 = std::numeric_limits<std::int32_t>::min();
    all.o_string = "";
    all.o_bytes = fastwire::bytes{0};
    all.o_decimal = fastwire::decimal(-1, 3);
    all.o_uuid = fastwire::uuid::v4();
    all.o_color = t::Color::red;
    all.o_point = t::Point{-1, 1};
    all.o_double = -0.0;
    EXPECT_TRUE(round_trip(all) == all);
    EXPECT_TRUE(round_trip(none, all) == none);  // reading resets present optionals
    EXPECT_TRUE(round_trip(all, none) == all);
}

TEST(RoundTrip, CollectionSizes) {
    for (std::size_t n : {0u, 1u, 10000u}) {
        t::Collections c;
        c.a = {1, 2, 3};
        c.a_opt = {std::nullopt, std::string(n % 7, 'a')};
        c.a_struct = {t::Point{1, 2}, t::Point{3, 4}};
        for (std::size_t i = 0; i < n; ++i) {
            const auto k = static_cast<std::int32_t>(i);
            c.v_bool.push_back(i % 3 == 0);
            c.v_double.push_back(static_cast<double>(i) / 3);
            c.v_opt.push_back(i % 2 ? std::optional<t::Color>(t::Color::blue) : std::nullopt);
            c.v_struct.push_back(t::Point{k, -k});
            c.v_string.push_back(std::to_string(i));
            c.l_string.push_back(std::string(i % 5, 'l'));
            c.l_opt.push_back(i % 2 ? std::optional<t::Point>(t::Point{k, k}) : std::nullopt);
            c.s_i64.insert(static_cast<std::int64_t>(i) * 1000003 - 5000000000ll);
            c.s_string.insert("s" + std::to_string(i));
            c.s_struct.insert(t::Point{k % 17, k});
            c.m[k] = std::to_string(i * 2);
            c.m_opt["k" + std::to_string(i)] = i % 2 ? std::optional<double>(static_cast<double>(i)) : std::nullopt;
            c.h[fastwire::uuid::v4()] = fastwire::bytes(i % 4, static_cast<std::uint8_t>(i));
            c.h_opt[std::to_string(i)] = i % 3 ? std::optional<t::Point>(t::Point{k, 0}) : std::nullopt;
        }
        // Optional structs inside vectors inside maps.
        for (std::size_t i = 0; i < std::min<std::size_t>(n, 100); ++i) {
            t::Bag bag;
            for (std::size_t j = 0; j < i % 4; ++j)
                bag.items.push_back(j % 2 ? std::optional<t::Point>() : t::Point{static_cast<int>(j), 1});
            c.m_bags["bag" + std::to_string(i)] = bag;
        }
        if (n) {
            t::Optionals o;
            o.o_point = t::Point{5, 5};
            c.m_enum_key[t::Color::red] = o;
            c.m_enum_key[static_cast<t::Color>(99)] = t::Optionals{};
        }
        t::Collections dirty;
        dirty.v_struct.resize(5);
        dirty.m[77] = "gone";
        dirty.s_i64 = {1, 2, 3};
        dirty.h_opt["x"] = t::Point{};
        EXPECT_TRUE(round_trip(c, dirty, n <= 1) == c) << n;
    }
}

TEST(RoundTrip, InheritanceRecursionEmpty) {
    t::MoreDerived m;
    m.x = 3;
    m.y = 4;
    m.label = "more";
    m.other = t::Point{5, 6};
    m.weight = -1.5;
    const t::MoreDerived back = round_trip(m);
    EXPECT_TRUE(static_cast<const t::Derived&>(back) == m);
    EXPECT_EQ(back.weight, -1.5);

    t::Holder h;
    h.p = {1, 1};
    h.oe = t::Empty{};
    h.ve.resize(3);
    h.tree.value = 1;
    h.tree.children = {t::Tree{2, {}}, t::Tree{3, {t::Tree{4, {}}}}};
    EXPECT_TRUE(round_trip(h) == h);
}

TEST(RoundTrip, DefaultsOfProtoTypes) {
    const proto::Account a;  // schema defaults
    EXPECT_EQ(a.state, proto::State::initialized | proto::State::bad);
    EXPECT_EQ(static_cast<int>(a.state), 11);
    const proto::Account back = round_trip(a);
    EXPECT_EQ(testutil::str(back), testutil::str(a));
    // [key] comparisons and hash use uid only.
    proto::Account b = a;
    b.name = "other";
    EXPECT_TRUE(a == b);
    EXPECT_EQ(std::hash<proto::Account>()(a), std::hash<proto::Account>()(b));
    b.uid = 5;
    EXPECT_TRUE(a < b);
    EXPECT_TRUE(a != b);
    EXPECT_TRUE(b > a && a <= b && b >= a);
}
