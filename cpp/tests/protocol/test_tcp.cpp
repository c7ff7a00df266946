// A Sender and a Receiver over a real TCP connection on loopback (fastwire/net.h):
// 1 000 000 messages of mixed types arrive once each, in order, equal to what was sent;
// meanwhile a peer that sends garbage is disconnected with a logged reason and the good
// peer is still served.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fastwire/net.h>

#include "protocol_protocol.h"

namespace {

constexpr std::uint64_t kMessages = 1000000;

proto::Order make_order(std::uint64_t i) {
    return proto::Order(static_cast<std::int32_t>(i), i % 7 == 0 ? std::string() : "SYM" + std::to_string(i % 100),
                        static_cast<proto::OrderSide>(i % 2), static_cast<proto::OrderType>(i % 3),
                        static_cast<double>(i) * 0.25, static_cast<double>(i));
}
proto::Balance make_balance(std::uint64_t i) {
    return proto::Balance("C" + std::to_string(i % 1000), -static_cast<double>(i) * 0.5);
}
proto::Account make_account(std::uint64_t i) {
    proto::Account a;
    a.uid = static_cast<std::int32_t>(i);
    a.name = "account " + std::to_string(i);
    a.state = static_cast<proto::State>(i % 16);
    a.wallet = make_balance(i + 1);
    if (i % 2 == 0) a.asset = make_balance(i + 2);
    for (std::uint64_t k = 0; k < i % 4; ++k) a.orders.push_back(make_order(i + k));
    return a;
}

bool same(const proto::Order& a, const proto::Order& b) {
    return a.uid == b.uid && a.symbol == b.symbol && a.side == b.side && a.type == b.type && a.price == b.price &&
           a.volume == b.volume;
}
bool same(const proto::Balance& a, const proto::Balance& b) { return a.currency == b.currency && a.amount == b.amount; }
bool same(const proto::Account& a, const proto::Account& b) {
    if (a.uid != b.uid || a.name != b.name || a.state != b.state || !same(a.wallet, b.wallet)) return false;
    if (a.asset.has_value() != b.asset.has_value() || (a.asset && !same(*a.asset, *b.asset))) return false;
    if (a.orders.size() != b.orders.size()) return false;
    for (std::size_t k = 0; k < a.orders.size(); ++k)
        if (!same(a.orders[k], b.orders[k])) return false;
    return true;
}

// Checks that message n is the n-th one the client sent.
std::atomic<std::uint64_t> count{0}, mismatches{0};

class CheckingReceiver : public protocol::Receiver {
public:
    using protocol::Receiver::onReceive;

protected:
    void onReceive(const protocol::OrderMessage& m) override { check(0, same(m.body, make_order(next_))); }
    void onReceive(const protocol::BalanceMessage& m) override { check(1, same(m.body, make_balance(next_))); }
    void onReceive(const protocol::AccountMessage& m) override { check(2, same(m.body, make_account(next_))); }

private:
    void check(std::uint64_t kind, bool equal) {
        if (next_ % 3 != kind || !equal) mismatches.fetch_add(1);
        ++next_;
        count.fetch_add(1, std::memory_order_relaxed);
    }
    std::uint64_t next_ = 0;
};

}  // namespace

TEST(Tcp, MillionMixedMessagesAndAGarbagePeer) {
    fastwire::net::context io(2);
    fastwire::net::server<CheckingReceiver, protocol::Sender> srv(io, "127.0.0.1", 0);
    std::mutex log_mutex;
    std::vector<std::string> log;
    srv.on_log([&](const std::string& line) {
        std::lock_guard<std::mutex> lock(log_mutex);
        log.push_back(line);
    });
    srv.start();

    fastwire::net::options o;
    o.overflow = fastwire::net::overflow_policy::block;  // a bulk sender waits for room
    fastwire::net::client<protocol::Client> good(io, o);
    good.connect("127.0.0.1", srv.port());
    bool all_queued = true;
    for (std::uint64_t i = 0; i < kMessages; ++i) {
        if (i % 3 == 0) all_queued &= good.send(protocol::OrderMessage(make_order(i)));
        if (i % 3 == 1) all_queued &= good.send(protocol::BalanceMessage(make_balance(i)));
        if (i % 3 == 2) all_queued &= good.send(protocol::AccountMessage(make_account(i)));
        if (i == kMessages / 2) {
            // A second peer sends garbage in the middle of the stream; the server must drop
            // it (end of stream on its side) while it keeps serving the first.
            asio::io_context raw;
            asio::ip::tcp::socket bad(raw);
            bad.connect({asio::ip::make_address("127.0.0.1"), srv.port()});
            std::mt19937 rng(42);
            std::vector<std::uint8_t> junk(4096);
            for (auto& b : junk) b = static_cast<std::uint8_t>(rng());
            asio::write(bad, asio::buffer(junk));
            bad.shutdown(asio::ip::tcp::socket::shutdown_send);  // a plausible size cannot make it wait
            char c;
            asio::error_code ec;
            while (!ec) bad.read_some(asio::buffer(&c, 1), ec);  // until the server closes it
            EXPECT_EQ(ec, asio::error::eof);
        }
    }
    ASSERT_TRUE(all_queued);
    good.close();  // flushes everything queued first
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
    while (count.load() < kMessages && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    srv.stop();

    EXPECT_EQ(count.load(), kMessages);
    EXPECT_EQ(mismatches.load(), 0u);
    std::lock_guard<std::mutex> lock(log_mutex);
    bool garbage_closed = false;
    for (const auto& line : log)
        if (line.find("connection 2 ") == 0 && line.find("closed: protocol error: ") != std::string::npos)
            garbage_closed = true;
    EXPECT_TRUE(garbage_closed);
    for (const auto& line : log) {
        EXPECT_EQ(line.find("connection 1 closed: protocol"), std::string::npos) << line;
        std::cout << "  server: " << line << "\n";
    }
}
