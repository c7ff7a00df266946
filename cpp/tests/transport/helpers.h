// Shared by the transport tests: the service handler (as examples/cpp/server answers, plus
// two test hooks), a log collector, raw sockets for misbehaving peers, a self-made
// certificate.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fastwire/net.h>

#include "service_final_protocol.h"
#include "service_protocol.h"

namespace transport_test {

using namespace std::chrono_literals;
using fastwire::net::milliseconds;

// Answers as examples/cpp/server does; an order with uid -1 gets no answer, -2 closes
// the connection.
template <class Receiver, class Sender>
class Service : public Receiver {
public:
    using Receiver::onReceive;
    explicit Service(fastwire::net::peer<Sender>& p) : peer_(p) {}

protected:
    void onReceive(const service::OrderRequest& q) override {
        if (q.order.uid == -1) return;
        if (q.order.uid == -2) return peer_.close("asked to");
        if (q.order.volume > 0)
            peer_.send(service::OrderAck(q.id, ++accepted_, q.order));
        else
            peer_.send(service::OrderReject(q.id, "volume must be positive"));
    }
    void onReceive(const service::OrderMessage& m) override { peer_.send(m); }
    void onReceive(const service::BalanceMessage& m) override { peer_.send(m); }
    void onReceive(const service::AccountMessage& m) override { peer_.send(m); }

private:
    fastwire::net::peer<Sender>& peer_;
    std::int64_t accepted_ = 0;
};

using VService = Service<service::Receiver, service::Sender>;
using FService = Service<service::FinalReceiver, service::FinalSender>;

// Counts what a client receives outside of its requests.
template <class Client>
class Counting : public Client {
public:
    using Client::onReceive;
    std::atomic<std::uint64_t> orders{0}, balances{0}, accounts{0};
    std::atomic<std::int64_t> last_uid{-1};
    std::atomic<std::uint64_t> out_of_order{0};

protected:
    void onReceive(const service::OrderMessage& m) override {
        if (m.body.uid != last_uid.load() + 1) ++out_of_order;
        last_uid = m.body.uid;
        ++orders;
    }
    void onReceive(const service::BalanceMessage&) override { ++balances; }
    void onReceive(const service::AccountMessage&) override { ++accounts; }
};

class Log {
public:
    fastwire::net::log_function sink() {
        return [this](const std::string& line) {
            std::lock_guard<std::mutex> lock(mutex_);
            lines_.push_back(line);
        };
    }
    bool has(const std::string& a, const std::string& b = {}) const {
        std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& l : lines_)
            if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
        return false;
    }
    // Waits (bounded) for a line holding both parts.
    bool wait(const std::string& a, const std::string& b = {}, milliseconds limit = 10000ms) const {
        const auto end = std::chrono::steady_clock::now() + limit;
        while (std::chrono::steady_clock::now() < end) {
            if (has(a, b)) return true;
            std::this_thread::sleep_for(5ms);
        }
        return false;
    }
    std::string text() const {
        std::lock_guard<std::mutex> lock(mutex_);
        std::string t;
        for (const auto& l : lines_) t += "  " + l + "\n";
        return t;
    }

private:
    mutable std::mutex mutex_;
    std::vector<std::string> lines_;
};

inline proto::Order order(std::int32_t uid, double volume = 10.0) {
    return proto::Order(uid, "EURUSD", proto::OrderSide::buy, proto::OrderType::limit, 1.25, volume);
}

inline service::OrderRequest order_request(std::int32_t uid, double volume = 10.0) {
    service::OrderRequest q;
    q.order = order(uid, volume);
    return q;
}

inline proto::Account big_account(std::size_t orders) {
    proto::Account a;
    a.uid = 7;
    a.name = "big";
    a.wallet = proto::Balance("USD", 1.0);
    for (std::size_t i = 0; i < orders; ++i) a.orders.push_back(order(static_cast<std::int32_t>(i)));
    return a;
}

// The bytes of one message, in the versioned format.
template <class T>
std::vector<std::uint8_t> bytes_of(const T& value) {
    struct capture : service::Sender {
        std::vector<std::uint8_t> out;
        std::size_t onSend(const void* d, std::size_t n) override {
            const auto* p = static_cast<const std::uint8_t*>(d);
            out.insert(out.end(), p, p + n);
            return n;
        }
    } c;
    c.send(value);
    return c.out;
}

// A blocking socket for peers that misbehave.
struct raw_peer {
    asio::io_context io;
    asio::ip::tcp::socket s{io};
    explicit raw_peer(std::uint16_t port) { s.connect({asio::ip::make_address("127.0.0.1"), port}); }
    bool write(const void* d, std::size_t n) {
        asio::error_code ec;
        asio::write(s, asio::buffer(d, n), ec);
        return !ec;
    }
    // Reads until the server closes the connection (true) or `limit` passes (false).
    bool wait_closed(milliseconds limit = 10000ms) {
        const auto end = std::chrono::steady_clock::now() + limit;
        s.non_blocking(true);
        std::vector<char> buf(65536);
        while (std::chrono::steady_clock::now() < end) {
            asio::error_code ec;
            s.read_some(asio::buffer(buf), ec);
            if (ec == asio::error::would_block) {
                std::this_thread::sleep_for(5ms);
                continue;
            }
            if (ec) return true;
        }
        return false;
    }
};

// A self-signed certificate for localhost and 127.0.0.1 (openssl command line), made once
// per test run in a temporary folder.
struct certificate {
    std::string dir, cert, key;
    certificate() {
        char tmpl[] = "/tmp/fastwire-tls-XXXXXX";
        dir = mkdtemp(tmpl);
        cert = dir + "/cert.pem";
        key = dir + "/key.pem";
        const std::string cmd =
            "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
            "-subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout " +
            key + " -out " + cert + " 2>/dev/null";
        if (std::system(cmd.c_str()) != 0) cert.clear();
    }
    ~certificate() { (void)std::system(("rm -rf " + dir).c_str()); }
};

}  // namespace transport_test
