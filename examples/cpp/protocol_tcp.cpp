// Sender and Receiver over TCP on loopback (fastwire/tcp.h, POSIX sockets): a client sends
// 100 000 orders, balances and accounts; the server decodes each one on its connection's
// receiver. Halfway through, a second client sends garbage: the server closes that
// connection with the reason and keeps serving the first.
//
//   build/examples/cpp/protocol_tcp [messages]
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <thread>

#include <fastwire/tcp.h>

#include "protocol_protocol.h"

namespace {

std::atomic<std::uint64_t> received{0};

class CountingReceiver : public protocol::Receiver {
protected:
    void onReceive(const protocol::OrderMessage&) override { ++received; }
    void onReceive(const protocol::BalanceMessage&) override { ++received; }
    void onReceive(const protocol::AccountMessage&) override { ++received; }
};

// Hands the queued bytes to the socket once 64 KiB have accumulated (or when flushed).
class SocketSender : public protocol::Sender {
public:
    explicit SocketSender(int fd) : fd_(fd) {}
    bool force = false;

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        if (size < (1u << 16) && !force) return 0;
        return fastwire::tcp::send_all(fd_, data, size) ? size : 0;
    }

private:
    int fd_;
};

}  // namespace

int main(int argc, char** argv) {
    const std::uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
    std::mutex out;
    fastwire::tcp::server<CountingReceiver> server;
    server.on_log([&](const std::string& line) {
        std::lock_guard<std::mutex> lock(out);
        std::cout << "server: " << line << std::endl;
    });
    std::thread server_thread([&] { server.run(); });

    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    const auto start = std::chrono::steady_clock::now();
    fastwire::tcp::socket client = fastwire::tcp::connect_loopback(server.port());
    SocketSender sender(client.fd());
    for (std::uint64_t i = 0; i < count; ++i) {
        if (i % 3 == 0) sender.send(protocol::OrderMessage(account.orders[0]));
        if (i % 3 == 1) sender.send(protocol::BalanceMessage(account.wallet));
        if (i % 3 == 2) sender.send(protocol::AccountMessage(account));
        if (i == count / 2) {
            fastwire::tcp::socket bad = fastwire::tcp::connect_loopback(server.port());
            const char garbage[] = "GET / HTTP/1.1\r\nHost: example\r\n\r\n";
            fastwire::tcp::send_all(bad.fd(), garbage, sizeof garbage - 1);
            bad.shutdown_send();
            char c;
            while (::recv(bad.fd(), &c, 1, 0) > 0) {}  // until the server hangs up
        }
    }
    sender.force = true;
    sender.flush();
    while (received.load() < count) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    client.close();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    server.stop();
    server_thread.join();
    std::cout << "received " << received.load() << " of " << count << " messages in " << seconds << " s" << std::endl;
    return received.load() == count ? 0 : 1;
}
