// A client of the service server (examples/cpp/server, schemas/service.fbe): sends the
// seed's order, balance and account and prints the echoes, places an order and prints
// the OrderAck, places one with volume 0 and prints the OrderReject.
//
//   client HOST PORT [--final] [--tls CA] [--requests N]
//
// --requests N then places N more orders and prints the rate. Exit status 0 when every
// answer was the expected one.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>

#include <fastwire/net.h>
#include <fastwire/net_tls.h>

#include "service_final_protocol.h"
#include "service_protocol.h"

namespace {

std::atomic<int> echoes{0};

template <class Base>
class Printer : public Base {
public:
    using Base::onReceive;

protected:
    void onReceive(const service::OrderMessage& m) override { print(m); }
    void onReceive(const service::BalanceMessage& m) override { print(m); }
    void onReceive(const service::AccountMessage& m) override { print(m); }

private:
    template <class T>
    void print(const T& m) {
        std::cout << "echo: " << m << std::endl;
        ++echoes;
    }
};

template <class Client>
int talk(Client& client, const std::string& host, std::uint16_t port, long requests) {
    client.connect(host, port);
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    client.send(service::OrderMessage(account.orders[0]));
    client.send(service::BalanceMessage(account.wallet));
    client.send(service::AccountMessage(account));

    int failures = 0;
    service::OrderRequest good;
    good.order = account.orders[1];
    const service::OrderAck ack = client.request(good).get();
    std::cout << "ack: " << ack << std::endl;
    failures += ack.id == good.id && ack.order.uid == 2 ? 0 : 1;

    service::OrderRequest bad;
    bad.order = account.orders[2];
    bad.order.volume = 0;
    try {
        client.request(bad).get();
        ++failures;
    } catch (const fastwire::protocol::request_error& e) {
        std::cout << "reject: " << e.what() << std::endl;
        failures += e.kind() == fastwire::protocol::request_error::rejected ? 0 : 1;
    }

    if (requests > 0) {
        const auto start = std::chrono::steady_clock::now();
        for (long i = 0; i < requests; ++i) {
            service::OrderRequest q;
            q.order = account.orders[0];
            q.order.uid = static_cast<std::int32_t>(i);
            if (client.request(q).get().order.uid != q.order.uid) ++failures;
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << requests << " requests in " << s << " s (" << static_cast<long>(requests / s) << "/s)"
                  << std::endl;
    }
    client.close();  // flushes, and waits for the server to close its side
    if (echoes.load() != 3) ++failures;
    std::cout << (failures == 0 ? "ok" : "FAILED") << std::endl;
    return failures == 0 ? 0 : 1;
}

template <class Base>
int run(const std::string& host, std::uint16_t port, const std::string& ca, long requests) {
    fastwire::net::context io;
    if (!ca.empty()) {
        asio::ssl::context tls = fastwire::net::tls_client_context(ca);
        fastwire::net::tls_client<Printer<Base>> client(io, {}, fastwire::net::tls{&tls});
        return talk(client, host, port, requests);
    }
    fastwire::net::client<Printer<Base>> client(io);
    return talk(client, host, port, requests);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: client HOST PORT [--final] [--tls CA] [--requests N]\n";
        return 2;
    }
    const std::string host = argv[1];
    const auto port = static_cast<std::uint16_t>(std::strtoul(argv[2], nullptr, 10));
    bool final = false;
    std::string ca;
    long requests = 0;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--final")
            final = true;
        else if (a == "--tls" && i + 1 < argc)
            ca = argv[++i];
        else if (a == "--requests" && i + 1 < argc)
            requests = std::strtol(argv[++i], nullptr, 10);
    }
    try {
        return final ? run<service::FinalClient>(host, port, ca, requests)
                     : run<service::Client>(host, port, ca, requests);
    } catch (const std::exception& e) {
        std::cerr << "client: " << e.what() << std::endl;
        return 1;
    }
}
