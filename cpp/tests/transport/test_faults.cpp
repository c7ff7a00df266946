// Misbehaving peers (docs/transport.md, "Faults"): each is dropped per the policy, with
// one log line, while a well-behaved client keeps being answered on time. Then the
// receiver fuzzer's corpus, sent over real sockets.
#include <dirent.h>

#include <random>

#include "helpers.h"

using namespace transport_test;

namespace {

// A client doing request/response in a loop; records the slowest answer.
struct steady_client {
    fastwire::net::client<service::Client> cli;
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> worst_us{0};
    std::atomic<std::uint64_t> answered{0}, failed{0};
    std::thread t;
    steady_client(fastwire::net::context& io, std::uint16_t port) : cli(io) {
        cli.connect("127.0.0.1", port);
        t = std::thread([this] {
            for (std::int32_t i = 0; !stop.load() && i < 1000000; ++i) {
                const auto start = std::chrono::steady_clock::now();
                try {
                    if (cli.request(order_request(i)).get().order.uid == i) ++answered;
                } catch (const std::exception&) {
                    ++failed;
                }
                const auto us =
                    std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                        .count();
                if (us > worst_us.load()) worst_us = us;
                std::this_thread::sleep_for(1ms);
            }
        });
    }
    ~steady_client() {
        stop = true;
        t.join();
    }
};

fastwire::net::options fault_options() {
    fastwire::net::options o;
    o.message_timeout = 500ms;
    o.write_timeout = 500ms;
    o.max_queued_bytes = 256 * 1024;
    return o;
}

}  // namespace

TEST(Faults, EachMisbehavingPeerIsDroppedWhileOthersAreServed) {
    fastwire::net::context io;
    Log log;
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0, fault_options());
    srv.on_log(log.sink());
    srv.start();
    steady_client good(io, srv.port());  // connection 1

    {  // 2: garbage
        raw_peer p(srv.port());
        std::mt19937 rng(7);
        std::vector<std::uint8_t> junk(4096);
        for (auto& b : junk) b = static_cast<std::uint8_t>(rng() | 0x80);
        p.write(junk.data(), junk.size());
        EXPECT_TRUE(p.wait_closed());
        EXPECT_TRUE(log.wait("connection 2 ", "closed: protocol error: bad message size")) << log.text();
    }
    {  // 3: a 0xFFFFFFFF (4 GiB) size prefix: refused at the prefix, nothing allocated
        raw_peer p(srv.port());
        const std::uint8_t prefix[4] = {0xFF, 0xFF, 0xFF, 0xFF};
        p.write(prefix, 4);
        EXPECT_TRUE(p.wait_closed());
        EXPECT_TRUE(log.wait("connection 3 ", "closed: protocol error: bad message size 4294967295")) << log.text();
    }
    {  // 4: one byte at a time, too slowly: dropped after message_timeout
        raw_peer p(srv.port());
        const auto msg = bytes_of(service::OrderMessage(order(1)));
        const auto start = std::chrono::steady_clock::now();
        bool closed = false;
        for (std::size_t i = 0; i < msg.size() && !closed; ++i) {
            closed = !p.write(&msg[i], 1);
            std::this_thread::sleep_for(100ms);
            if (log.has("connection 4 ", "closed")) closed = true;
        }
        EXPECT_TRUE(p.wait_closed());
        EXPECT_TRUE(log.wait("connection 4 ", "closed: message incomplete after")) << log.text();
        EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
    }
    {  // 5: sends requests and never reads the answers: the queue fills, dropped
        raw_peer p(srv.port());
        std::vector<std::uint8_t> burst;
        for (int i = 0; i < 200; ++i) {
            const auto m = bytes_of(service::AccountMessage(big_account(200)));  // echoed: ~12 KB each
            burst.insert(burst.end(), m.begin(), m.end());
        }
        for (int i = 0; i < 20 && !log.has("connection 5 ", "closed"); ++i) p.write(burst.data(), burst.size());
        EXPECT_TRUE(log.wait("connection 5 ", "closed: ")) << log.text();
        EXPECT_TRUE(log.has("connection 5 ", "send queue full") || log.has("connection 5 ", "peer not reading"))
            << log.text();
    }
    {  // 6: disconnects in the middle of a message
        raw_peer p(srv.port());
        const auto msg = bytes_of(service::OrderMessage(order(1)));
        p.write(msg.data(), msg.size() / 2);
        p.s.close();
        EXPECT_TRUE(log.wait("connection 6 ", "closed: peer closed the connection in the middle of a message"))
            << log.text();
    }
    std::this_thread::sleep_for(200ms);
    EXPECT_GT(good.answered.load(), 10u);
    EXPECT_EQ(good.failed.load(), 0u);
    EXPECT_LT(good.worst_us.load(), 1000000) << "the good client waited " << good.worst_us.load() << " us";
    EXPECT_FALSE(log.has("connection 1 ", "closed")) << log.text();
    std::cout << "  good client: " << good.answered.load() << " answers, slowest " << good.worst_us.load() << " us\n"
              << log.text();
    srv.stop();
}

namespace {

std::vector<std::vector<std::uint8_t>> corpus() {
    std::vector<std::vector<std::uint8_t>> out;
    const std::string vectors = std::string(FASTWIRE_REPO) + "/tests/vectors";
    if (DIR* d = opendir(vectors.c_str())) {
        while (dirent* e = readdir(d)) {
            const std::string name = e->d_name;
            if (name.size() < 5 || name.substr(name.size() - 4) != ".hex") continue;
            std::ifstream in(vectors + "/" + name);
            std::string hex, line;
            while (std::getline(in, line))
                for (char c : line)
                    if (std::isxdigit(static_cast<unsigned char>(c))) hex += c;
            std::vector<std::uint8_t> bytes;
            for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
                bytes.push_back(static_cast<std::uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
            out.push_back(bytes);
        }
        closedir(d);
    }
    return out;
}

}  // namespace

// Every corpus stream and deterministic mutations of it (bit flips, truncations, size
// fields changed), each on its own connection: the server never crashes, closes each bad
// connection in time, and keeps answering a well-behaved client.
TEST(Faults, ReceiverFuzzCorpusOverSockets) {
    fastwire::net::context io;
    Log log;
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0, fault_options());
    srv.on_log(log.sink());
    srv.start();
    steady_client good(io, srv.port());
    auto inputs = corpus();
    ASSERT_FALSE(inputs.empty());
    inputs.push_back(bytes_of(service::OrderRequest(order_request(9))));
    std::mt19937 rng(2024);
    const std::size_t seeds = inputs.size();
    for (std::size_t k = 0; k < 150; ++k) {
        auto m = inputs[k % seeds];
        if (m.empty()) continue;
        switch (k % 3) {
            case 0:
                for (int f = 0; f < 4; ++f) m[rng() % m.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
                break;
            case 1: m.resize(rng() % m.size()); break;
            default:
                if (m.size() >= 4) m[rng() % 4] = static_cast<std::uint8_t>(rng());
        }
        inputs.push_back(m);
    }
    std::size_t closed_by_server = 0;
    for (const auto& input : inputs) {
        raw_peer p(srv.port());
        p.write(input.data(), input.size());
        p.s.shutdown(asio::ip::tcp::socket::shutdown_send);
        EXPECT_TRUE(p.wait_closed(5000ms));
        ++closed_by_server;
    }
    const auto end = std::chrono::steady_clock::now() + 5s;
    while (srv.connections() > 1 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(srv.connections(), 1u);
    EXPECT_EQ(good.failed.load(), 0u);
    EXPECT_FALSE(log.has("connection 1 ", "closed")) << log.text();
    std::cout << "  " << inputs.size() << " corpus streams, " << closed_by_server << " connections closed; good client "
              << good.answered.load() << " answers, slowest " << good.worst_us.load() << " us\n";
    srv.stop();
}
