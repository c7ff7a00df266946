// The allocator-aware types of `fastwire compile --pmr` (fastwire/pmr.h): values read into
// a std::pmr::monotonic_buffer_resource take their strings and vectors from its blocks, in
// both binary formats and JSON; they give the bytes and JSON the golden vectors hold; the
// allocator reaches every nested member; copies and container growth keep it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory_resource>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fastwire/internal/scalar.h>
#include <fastwire/internal/view_check.h>
#include <fastwire/json_reader.h>
#include <fastwire/pmr.h>

#include "everything_json.h"
#include "everything_models.h"
#include "proto_json.h"
#include "proto_models.h"
#include "protocol_protocol.h"

namespace {

// Counts what is allocated through it (then passes it on to new/delete).
class counting_resource : public std::pmr::memory_resource {
public:
    std::size_t allocations = 0;
    std::size_t deallocations = 0;
    std::size_t last_bytes = 0;  // the size of the last allocation

private:
    void* do_allocate(std::size_t bytes, std::size_t align) override {
        ++allocations;
        last_bytes = bytes;
        return std::pmr::new_delete_resource()->allocate(bytes, align);
    }
    void do_deallocate(void* p, std::size_t bytes, std::size_t align) override {
        ++deallocations;
        std::pmr::new_delete_resource()->deallocate(p, bytes, align);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

// While alive: std::pmr's default resource counts (what did not come from the arena).
class counting_default {
public:
    counting_default() : previous_(std::pmr::set_default_resource(&counter_)) {}
    ~counting_default() { std::pmr::set_default_resource(previous_); }
    counting_default(const counting_default&) = delete;
    counting_default& operator=(const counting_default&) = delete;
    std::size_t allocations() const { return counter_.allocations; }

private:
    counting_resource counter_;
    std::pmr::memory_resource* previous_;
};

std::string read_text(const std::string& name) {
    std::ifstream in(std::string(FASTWIRE_VECTORS_DIR) + "/" + name, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::vector<std::uint8_t> load_hex(const std::string& name) {
    std::vector<std::uint8_t> out;
    int hi = -1;
    for (char c : read_text(name)) {
        int v = -1;
        if (c >= '0' && c <= '9') v = c - '0';
        if (c >= 'a' && c <= 'f') v = c - 'a' + 10;
        if (v < 0) continue;
        if (hi < 0) {
            hi = v;
        } else {
            out.push_back(static_cast<std::uint8_t>(hi * 16 + v));
            hi = -1;
        }
    }
    return out;
}

template <class M, class S>
std::vector<std::uint8_t> bytes_of(const S& value) {
    M m;
    const std::size_t n = m.serialize(value);
    return std::vector<std::uint8_t>(m.buffer().data(), m.buffer().data() + n);
}

// An account with no asset (a set optional's value comes from the default resource) and
// `orders` orders whose symbols are too long for the small-string buffer.
proto::Account big_account(int orders) {
    proto::Account a;
    a.uid = 7;
    a.name = "an account name longer than any small-string buffer";
    a.wallet.currency = "a currency name longer than any small-string buffer";
    for (int i = 0; i < orders; ++i)
        a.orders.emplace_back(i, std::pmr::string("symbol number " + std::to_string(i) + " of the account's orders"),
                              proto::OrderSide::sell, proto::OrderType::limit, 1.5 * i, 2.0);
    return a;
}

}  // namespace

TEST(Pmr, GoldenVectorsReadIntoAnArena) {
    for (const char* format : {"fbe", "final"}) {
        SCOPED_TRACE(format);
        const auto bytes = load_hex(std::string("account.") + format + ".hex");
        std::pmr::monotonic_buffer_resource arena;
        proto::Account account(&arena);
        fastwire::status read;
        std::vector<std::uint8_t> again;
        if (std::string(format) == "fbe") {
            proto::AccountModel m;
            m.attach(bytes.data(), bytes.size());
            ASSERT_TRUE(m.verify());
            read = m.deserialize(account);
            EXPECT_TRUE(fastwire::internal::view_matches(account, m.view()));
            again = bytes_of<proto::AccountModel>(account);
        } else {
            proto::AccountFinalModel m;
            m.attach(bytes.data(), bytes.size());
            read = m.deserialize(account);
            again = bytes_of<proto::AccountFinalModel>(account);
        }
        ASSERT_TRUE(read) << read.message();
        EXPECT_EQ(again, bytes);
        EXPECT_EQ(fastwire::json::to_json(account), read_text("account.json"));
        EXPECT_EQ(account.orders[2].symbol.get_allocator().resource(), &arena);
        EXPECT_EQ(account.wallet.currency.get_allocator().resource(), &arena);
    }
}

TEST(Pmr, FreshReadAllocatesOneBlockAndNothingElse) {
    const proto::Account source = big_account(40);
    const auto versioned = bytes_of<proto::AccountModel>(source);
    const auto final_bytes = bytes_of<proto::AccountFinalModel>(source);
    const std::string json = fastwire::json::to_json(source);
    for (int format = 0; format < 3; ++format) {
        SCOPED_TRACE(format);
        counting_resource upstream;
        counting_default others;
        {
            std::pmr::monotonic_buffer_resource arena(64 * 1024, &upstream);
            auto account = fastwire::pmr::make<proto::Account>(&arena);
            if (format == 0) {
                proto::AccountModel m;
                m.attach(versioned.data(), versioned.size());
                ASSERT_TRUE(m.deserialize(account));
            } else if (format == 1) {
                proto::AccountFinalModel m;
                m.attach(final_bytes.data(), final_bytes.size());
                ASSERT_TRUE(m.deserialize(account));
            } else {
                thread_local fastwire::json::reader reader;  // made before counting: its buffers
                ASSERT_TRUE(reader.read(json, account));
            }
            EXPECT_EQ(fastwire::json::to_json(account), json);
            EXPECT_EQ(upstream.allocations, 1u);  // the arena's one block
        }
        if (format < 2) {
            EXPECT_EQ(others.allocations(), 0u);  // nothing from the default resource
        }
    }
}

// A fresh (empty) std::pmr::string takes the bytes in place with its length set directly
// (fastwire::internal::fill_empty), and a fresh vector of bytes, floats or int64 (std::pmr
// or std::allocator) gets exactly its storage and the elements copied in
// (internal::fill_fresh): every length from 0 to past the inline buffer gives the value,
// the terminating NUL, the arena's memory, a vector that still grows, and nothing from the
// default resource.
TEST(Pmr, FreshStringsAndBulkVectorsOfEveryLength) {
    std::vector<std::uint8_t> wire(300);
    for (std::size_t i = 0; i < wire.size(); ++i) wire[i] = static_cast<std::uint8_t>('a' + i % 26);
    counting_resource upstream;
    counting_default others;
    fastwire::pmr::arena arena(4096, &upstream);
    for (std::size_t n = 0; n <= 200; ++n) {
        SCOPED_TRACE(n);
        std::pmr::string s(&arena);
        fastwire::internal::load_text(s, wire.data(), n);
        EXPECT_EQ(std::string_view(s), std::string_view(reinterpret_cast<const char*>(wire.data()), n));
        EXPECT_EQ(s.size(), n);
        EXPECT_EQ(s.c_str()[n], '\0');
        EXPECT_EQ(s.get_allocator().resource(), &arena);
        s += 'x';  // still a working string
        EXPECT_EQ(s.size(), n + 1);

        std::pmr::vector<std::uint8_t> b(&arena);
        fastwire::internal::load_bulk(wire.data(), n, b);
        EXPECT_TRUE(std::equal(b.begin(), b.end(), wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(n)));
        EXPECT_EQ(b.size(), n);

        EXPECT_EQ(b.capacity(), n);
        EXPECT_EQ(b.get_allocator().resource(), &arena);
        b.push_back(7);  // grows from the arena, keeping the elements
        ASSERT_EQ(b.size(), n + 1);
        EXPECT_TRUE(std::equal(b.begin(), b.end() - 1, wire.begin()));
        EXPECT_EQ(b.back(), 7);

        std::pmr::vector<float> f(&arena);
        fastwire::internal::load_bulk(wire.data(), n / 4, f);
        ASSERT_EQ(f.size(), n / 4);
        EXPECT_EQ(f.capacity(), n / 4);
        if (!f.empty()) {
            EXPECT_EQ(std::memcmp(f.data(), wire.data(), f.size() * sizeof(float)), 0);
        }
    }
    EXPECT_EQ(others.allocations(), 0u);
    // std::allocator: a fresh vector of int64 takes the same path, and a reused one (storage
    // of its own) keeps it.
    for (std::size_t n = 0; n <= 37; ++n) {
        SCOPED_TRACE(n);
        std::vector<std::int64_t> v;
        fastwire::internal::load_bulk(wire.data(), n, v);
        ASSERT_EQ(v.size(), n);
        EXPECT_EQ(v.capacity(), n);
        if (n != 0) {
            EXPECT_EQ(std::memcmp(v.data(), wire.data(), n * sizeof(std::int64_t)), 0);
        }
        const std::int64_t* storage = v.data();
        fastwire::internal::load_bulk(wire.data() + 1, n, v);
        EXPECT_EQ(v.data(), storage);  // read again: same storage
        ASSERT_EQ(v.size(), n);
        if (n != 0) {
            EXPECT_EQ(std::memcmp(v.data(), wire.data() + 1, n * sizeof(std::int64_t)), 0);
        }
        v.push_back(-1);
        EXPECT_EQ(v.back(), -1);
    }
}

// Untrusted input into fresh values on an arena (the path where a fresh vector's storage
// is taken before its elements are copied): every truncation of a message with byte,
// int and struct vectors fails cleanly, and a count word overwritten with 0xFFFFFFFF
// anywhere is refused or read without the arena asking for a large block.
TEST(Pmr, FreshReadsOfBrokenMessagesFailCleanly) {
    everything::Collections all;
    all.f_vector.assign(40, 7);
    all.f_list = {"a string longer than the small-string buffer", "bc"};
    all.f_vector_struct.emplace_back(1, "a symbol longer than the small-string buffer", proto::OrderSide::buy,
                                     proto::OrderType::stop, 1.0, 2.0);
    const auto versioned = bytes_of<everything::CollectionsModel>(all);
    const auto final_bytes = bytes_of<everything::CollectionsFinalModel>(all);
    auto read_fresh = [](const std::vector<std::uint8_t>& bytes, std::size_t size, bool final_format) {
        counting_resource upstream;
        std::size_t largest = 0;
        bool ok = false;
        {
            fastwire::pmr::arena arena(4096, &upstream);
            auto value = fastwire::pmr::make<everything::Collections>(&arena);
            if (final_format) {
                everything::CollectionsFinalModel m;
                m.attach(bytes.data(), size);
                ok = static_cast<bool>(m.deserialize(value));
            } else {
                everything::CollectionsModel m;
                m.attach(bytes.data(), size);
                ok = static_cast<bool>(m.deserialize(value));
            }
            largest = upstream.last_bytes;
        }
        EXPECT_LE(largest, 64u * 1024u);
        return ok;
    };
    for (const bool final_format : {false, true}) {
        SCOPED_TRACE(final_format ? "final" : "versioned");
        const auto& bytes = final_format ? final_bytes : versioned;
        ASSERT_TRUE(read_fresh(bytes, bytes.size(), final_format));
        for (std::size_t n = 0; n < bytes.size(); ++n) {
            SCOPED_TRACE(n);
            EXPECT_FALSE(read_fresh(bytes, n, final_format));
        }
        for (std::size_t at = 0; at + 4 <= bytes.size(); ++at) {
            SCOPED_TRACE(at);
            auto broken = bytes;
            std::memset(broken.data() + at, 0xFF, 4);
            read_fresh(broken, broken.size(), final_format);  // refused or read: either is clean
        }
    }
}

TEST(Pmr, EveryKindOfMemberUsesTheArena) {
    everything::Collections all;
    all.f_vector = {1, 2, 3};
    all.f_list = {"a string longer than the small-string buffer", "bc"};
    all.f_set = {3, 1, 2};
    all.f_set_struct.insert(proto::Balance("a currency longer than the small-string buffer", 1.0));
    all.f_map[1] = "one: a value longer than the small-string buffer";
    all.f_map_optional["k"] = 1.5;
    all.f_map_optional["n"] = std::nullopt;
    all.f_array_optional[1] = "seven";
    all.f_vector_struct.emplace_back(1, "a symbol longer than the small-string buffer", proto::OrderSide::buy,
                                     proto::OrderType::stop, 1.0, 2.0);
    all.f_hash[fastwire::uuid::v4()] = fastwire::bytes{1, 2, 3};
    const auto bytes = bytes_of<everything::CollectionsModel>(all);

    std::pmr::monotonic_buffer_resource arena;
    everything::Collections read(&arena);
    everything::CollectionsModel m;
    m.attach(bytes.data(), bytes.size());
    ASSERT_TRUE(m.deserialize(read));
    EXPECT_EQ(fastwire::json::to_json(read), fastwire::json::to_json(all));
    EXPECT_EQ(bytes_of<everything::CollectionsModel>(read), bytes);
    EXPECT_TRUE(fastwire::internal::view_matches(read, m.view()));
    EXPECT_EQ(read.f_list.back().get_allocator().resource(), &arena);
    EXPECT_EQ(read.f_set_struct.begin()->currency.get_allocator().resource(), &arena);
    EXPECT_EQ(read.f_map.at(1).get_allocator().resource(), &arena);
    EXPECT_EQ(read.f_vector_struct[0].symbol.get_allocator().resource(), &arena);
    EXPECT_EQ(read.f_array_struct[1].f_string.get_allocator().resource(), &arena);
    EXPECT_EQ(read.f_hash_struct_key.get_allocator().resource(), &arena);

    // JSON reads into the arena as well.
    std::pmr::monotonic_buffer_resource arena2;
    everything::Collections from_json(&arena2);
    fastwire::json::reader reader;
    ASSERT_TRUE(reader.read(fastwire::json::to_json(all), from_json));
    EXPECT_EQ(bytes_of<everything::CollectionsModel>(from_json), bytes);
    EXPECT_EQ(from_json.f_list.front().get_allocator().resource(), &arena2);
}

TEST(Pmr, CopiesAndGrowthKeepTheAllocator) {
    std::pmr::monotonic_buffer_resource arena;
    const proto::Account source = big_account(3);
    // The allocator-extended copy: into the arena.
    proto::Account copy(source, &arena);
    EXPECT_EQ(fastwire::json::to_json(copy), fastwire::json::to_json(source));
    EXPECT_EQ(copy.orders[1].symbol.get_allocator().resource(), &arena);
    // Assignment keeps the target's allocator; growth moves elements within it.
    proto::Account target(&arena);
    target = source;
    for (int i = 0; i < 100; ++i) target.orders.emplace_back(source.orders[0]);
    EXPECT_EQ(target.orders.back().symbol.get_allocator().resource(), &arena);
    EXPECT_EQ(target.orders.front().symbol.get_allocator().resource(), &arena);
    EXPECT_EQ(target.orders.front().symbol, source.orders[0].symbol);
    // A derived struct passes the allocator to its base.
    everything::MoreDerived derived(&arena);
    EXPECT_EQ(derived.name.get_allocator().resource(), &arena);
    // Defaults made with the allocator.
    everything::Optionals optionals(&arena);
    ASSERT_TRUE(optionals.f_string.has_value());
    EXPECT_EQ(*optionals.f_string, "maybe");
    EXPECT_EQ(optionals.f_string->get_allocator().resource(), &arena);
    // Printing.
    std::ostringstream os;
    os << copy.orders[0];
    EXPECT_EQ(os.str().rfind("Order(uid=0,symbol=\"symbol number 0", 0), 0u) << os.str();
}

// releasable_v: what arena::make may leave undestroyed.
static_assert(fastwire::pmr::releasable_v<int>);
static_assert(fastwire::pmr::releasable_v<std::pmr::string>);
static_assert(fastwire::pmr::releasable_v<std::pmr::vector<std::pmr::string>>);
static_assert(fastwire::pmr::releasable_v<proto::Order>);
static_assert(fastwire::pmr::releasable_v<std::pmr::vector<proto::Order>>);
static_assert(fastwire::pmr::releasable_v<everything::MoreDerived>);  // through its bases
static_assert(!fastwire::pmr::releasable_v<std::string>);             // std::allocator
static_assert(!fastwire::pmr::releasable_v<std::pmr::vector<std::string>>);
static_assert(!fastwire::pmr::releasable_v<fastwire::bytes>);
static_assert(!fastwire::pmr::releasable_v<std::optional<std::pmr::string>>);  // no allocator
static_assert(!fastwire::pmr::releasable_v<proto::Account>);                   // Balance? asset
static_assert(!fastwire::pmr::releasable_v<everything::Collections>);          // bytes, optionals

TEST(Pmr, ArenaBumpsThroughTheCallersBufferThenBlocks) {
    counting_resource upstream;
    alignas(std::max_align_t) std::byte buffer[1024];
    {
        fastwire::pmr::arena arena(buffer, sizeof buffer, &upstream);
        EXPECT_EQ(arena.upstream_resource(), &upstream);
        std::vector<std::pair<std::byte*, std::size_t>> taken;
        for (std::size_t align : {1u, 2u, 8u, 16u, 64u, 4096u}) {
            for (std::size_t size : {0u, 1u, 7u, 100u, 1000u, 5000u}) {
                auto* p = static_cast<std::byte*>(arena.allocate(size, align));
                ASSERT_NE(p, nullptr);
                EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % align, 0u);
                std::memset(p, 0xAB, size);  // ASan: all of it is ours
                taken.emplace_back(p, size);
            }
        }
        EXPECT_EQ(taken.front().first, buffer);  // the caller's buffer first
        // No two overlap.
        std::sort(taken.begin(), taken.end());
        for (std::size_t i = 1; i < taken.size(); ++i)
            EXPECT_LE(taken[i - 1].first + taken[i - 1].second, taken[i].first);
        const std::size_t blocks = upstream.allocations;
        EXPECT_GT(blocks, 0u);
        arena.deallocate(taken.back().first, taken.back().second);  // a no-op
        arena.release();
        EXPECT_EQ(upstream.deallocations, blocks);
        // After release(): the caller's buffer again, no block while it has room.
        EXPECT_EQ(arena.allocate(16, 16), static_cast<void*>(buffer));
        EXPECT_EQ(upstream.allocations, blocks);
        fastwire::pmr::arena other;
        EXPECT_TRUE(arena.is_equal(arena));
        EXPECT_FALSE(arena.is_equal(other));
        EXPECT_NE(other.allocate(10), nullptr);  // from its inline bytes
        (void)arena.allocate(4000);              // a block
    }
    EXPECT_EQ(upstream.deallocations, upstream.allocations);  // ~arena frees its blocks

    // Without a buffer: the arena's own inline bytes first, then blocks.
    counting_resource blocks;
    fastwire::pmr::arena small(1024, &blocks);
    for (int i = 0; i < 16; ++i) std::memset(small.allocate(fastwire::pmr::arena::inline_size / 16, 16), 1, 8);
    EXPECT_EQ(blocks.allocations, 0u);
    std::memset(small.allocate(100), 1, 100);
    EXPECT_EQ(blocks.allocations, 1u);
    small.release();
    EXPECT_EQ(blocks.deallocations, 1u);
    std::memset(small.allocate(fastwire::pmr::arena::inline_size), 1, fastwire::pmr::arena::inline_size);
    EXPECT_EQ(blocks.allocations, 1u);  // the inline bytes again
}

TEST(Pmr, ArenaGivesALargeRequestABlockWithRoomForWhatFollows) {
    counting_resource upstream;
    fastwire::pmr::arena arena(4096, &upstream);
    std::memset(arena.allocate(fastwire::pmr::arena::inline_size), 1, fastwire::pmr::arena::inline_size);
    ASSERT_EQ(upstream.allocations, 0u);  // the inline bytes
    // 10,000 bytes (a vector of 50 structs of 200 bytes) do not fit the next 4 KiB: their
    // block takes twice as much, so the 10,000 bytes that follow (the structs' strings
    // and vectors) need no second block.
    std::memset(arena.allocate(10000), 1, 10000);
    EXPECT_EQ(upstream.allocations, 1u);
    EXPECT_GE(upstream.last_bytes, 20000u);
    EXPECT_LE(upstream.last_bytes, 32768u);  // the block sizes still double from 4 KiB
    for (int i = 0; i < 100; ++i) std::memset(arena.allocate(100), 1, 100);
    EXPECT_EQ(upstream.allocations, 1u);
    // Above 1 MiB a request takes a block of about its own size (the doubling's round-up).
    const std::size_t big = (std::size_t{3} << 20) / 2;  // 1.5 MiB
    (void)arena.allocate(big);
    EXPECT_EQ(upstream.allocations, 2u);
    EXPECT_GE(upstream.last_bytes, big);
    EXPECT_LT(upstream.last_bytes, 2 * big);
    // A request no block can be sized for fails cleanly, taking nothing.
    EXPECT_THROW((void)arena.allocate(SIZE_MAX / 2), std::bad_alloc);
    EXPECT_THROW((void)arena.allocate(SIZE_MAX / 4 + 1), std::bad_alloc);
    EXPECT_EQ(upstream.allocations, 2u);
}

TEST(Pmr, ArenaMakeLeavesNothingBehind) {
    // Values made with arena.make<T>() are never destroyed: everything they hold must come
    // from the arena (ASan's leak check fails this test otherwise).
    everything::MoreDerived source;
    source.name = "a name longer than any small-string buffer";
    source.serial = 7;
    source.last = true;
    const auto bytes = bytes_of<everything::MoreDerivedFinalModel>(source);
    counting_resource upstream;
    counting_default others;
    {
        fastwire::pmr::arena arena(512, &upstream);
        for (int round = 0; round < 3; ++round) {
            {
                auto& read = arena.make<everything::MoreDerived>();
                everything::MoreDerivedFinalModel m;
                m.attach(bytes.data(), bytes.size());
                ASSERT_TRUE(m.deserialize(read));
                EXPECT_EQ(read, source);
                EXPECT_EQ(read.name.get_allocator().resource(), &arena);

                auto& orders = arena.make<std::pmr::vector<proto::Order>>();
                for (int i = 0; i < 100; ++i) {  // growth and long strings: all on the arena
                    const std::string symbol = std::string(40, 'x') + std::to_string(i);
                    orders.emplace_back().symbol.assign(symbol.data(), symbol.size());
                }
                EXPECT_EQ(orders.back().symbol.get_allocator().resource(), &arena);
                EXPECT_EQ(std::string_view(orders[99].symbol), std::string(40, 'x') + "99");
                const auto copy = proto::Order(orders[5], &arena);  // assignment keeps the arena
                orders[6] = copy;
                EXPECT_EQ(orders[6].symbol.get_allocator().resource(), &arena);
            }
            arena.release();
        }
        EXPECT_EQ(upstream.deallocations, upstream.allocations);
    }
    EXPECT_EQ(others.allocations(), 0u);  // nothing from the default resource
    EXPECT_EQ(upstream.deallocations, upstream.allocations);
}

namespace {

class Capture : public protocol::Sender {
public:
    std::vector<std::uint8_t> wire;

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        const auto* p = static_cast<const std::uint8_t*>(data);
        wire.insert(wire.end(), p, p + size);
        return size;
    }
};

// Sends on whatever it receives.
class Echo : public protocol::Receiver {
public:
    explicit Echo(Capture& out) : out_(out) {}

protected:
    void onReceive(const protocol::OrderMessage& v) override { out_.send(v); }
    void onReceive(const protocol::BalanceMessage& v) override { out_.send(v); }
    void onReceive(const protocol::AccountMessage& v) override { out_.send(v); }

private:
    Capture& out_;
};

}  // namespace

TEST(Pmr, ProtocolReceivesAndSendsTheGoldenStream) {
    const auto golden = load_hex("protocol.hex");
    Capture capture;
    Echo echo(capture);
    echo.receive(golden.data(), golden.size());
    EXPECT_EQ(capture.wire, golden);
}
