// fastwire::net behaviour (docs/transport.md): replies, both formats, IPv4 and IPv6,
// request timeouts, failures on a dropped connection, reconnect, the overflow policies,
// a clean shutdown that loses nothing, TLS with a certificate made here.
#include <fastwire/net_tls.h>

#include "helpers.h"

using namespace transport_test;
using fastwire::net::overflow_policy;
using fastwire::protocol::request_error;

namespace {

template <class Future>
request_error::kind_type failure_of(Future&& f) {
    try {
        f.get();
    } catch (const request_error& e) {
        return e.kind();
    }
    ADD_FAILURE() << "the request did not fail";
    return request_error::canceled;
}

template <class Client>
void request_response(Client& cli) {
    std::vector<decltype(cli.request(order_request(0)))> futures;
    std::vector<service::OrderRequest> sent;
    for (int i = 0; i < 100; ++i) {
        sent.push_back(order_request(i));
        futures.push_back(cli.request(sent.back()));
    }
    for (int i = 0; i < 100; ++i) {
        const service::OrderAck ack = futures[static_cast<std::size_t>(i)].get();
        EXPECT_EQ(ack.id, sent[static_cast<std::size_t>(i)].id);
        EXPECT_EQ(ack.seq, i + 1);  // the server's count: nothing lost, doubled or reordered
        EXPECT_EQ(ack.order.uid, i);
    }
    EXPECT_EQ(failure_of(cli.request(order_request(5, 0.0))), request_error::rejected);
}

}  // namespace

TEST(Net, RequestResponseEchoVersionedIPv4) {
    fastwire::net::context io;
    Log log;
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0);
    srv.on_log(log.sink());
    srv.start();
    ASSERT_NE(srv.port(), 0);
    fastwire::net::client<Counting<service::Client>> cli(io);
    cli.connect("127.0.0.1", srv.port());
    request_response(cli);
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(cli.send(service::OrderMessage(order(i))));
    ASSERT_TRUE(cli.send(service::AccountMessage(big_account(3))));
    cli.close();  // the echoes still arrive: the server flushes before it closes
    EXPECT_EQ(cli.handler().orders.load(), 1000u);
    EXPECT_EQ(cli.handler().out_of_order.load(), 0u);
    EXPECT_EQ(cli.handler().accounts.load(), 1u);
    EXPECT_TRUE(log.wait("connection 1 ", "closed: peer closed the connection")) << log.text();
    srv.stop();
}

TEST(Net, RequestResponseFinalIPv6) {
    fastwire::net::context io;
    fastwire::net::server<FService, service::FinalSender> srv(io, "::1", 0);
    srv.start();
    fastwire::net::client<Counting<service::FinalClient>> cli(io);
    cli.connect("::1", srv.port());
    request_response(cli);
    cli.close();
    srv.stop();
}

TEST(Net, AnyAddressServesBothFamilies) {
    fastwire::net::context io;
    fastwire::net::server<VService, service::Sender> srv(io, "::", 0);
    srv.start();
    for (const char* host : {"127.0.0.1", "::1"}) {
        fastwire::net::client<service::Client> cli(io);
        cli.connect(host, srv.port());
        EXPECT_EQ(cli.request(order_request(1)).get().order.uid, 1) << host;
    }
    srv.stop();
}

TEST(Net, ManyClientsAnswerEachTheirOwn) {
    fastwire::net::context io(2);
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0);
    srv.start();
    std::vector<std::unique_ptr<fastwire::net::client<service::Client>>> clients;
    for (int c = 0; c < 50; ++c) {
        clients.push_back(std::make_unique<fastwire::net::client<service::Client>>(io));
        clients.back()->connect("127.0.0.1", srv.port());
    }
    // A client's connect returns when TCP has connected; the server may not have accepted
    // the last ones yet (seen on a loaded machine): give it up to 5 s.
    for (int i = 0; i < 500 && srv.connections() < 50u; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(srv.connections(), 50u);
    for (int round = 0; round < 20; ++round) {
        std::vector<std::future<service::OrderAck>> f;
        for (int c = 0; c < 50; ++c)
            f.push_back(clients[static_cast<std::size_t>(c)]->request(order_request(c * 1000 + round)));
        for (int c = 0; c < 50; ++c) {
            const auto ack = f[static_cast<std::size_t>(c)].get();
            EXPECT_EQ(ack.order.uid, c * 1000 + round);
            EXPECT_EQ(ack.seq, round + 1);
        }
    }
    for (auto& c : clients) c->close();
    srv.stop();
}

TEST(Net, RequestsTimeOutByThemselves) {
    fastwire::net::context io;
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0);
    srv.start();
    fastwire::net::options o;
    o.request_timeout = 200ms;
    fastwire::net::client<service::Client> cli(io, o);
    cli.connect("127.0.0.1", srv.port());
    const auto start = std::chrono::steady_clock::now();
    auto unanswered = cli.request(order_request(-1));     // the default timeout
    auto shorter = cli.request(order_request(-1), 50ms);  // its own
    EXPECT_EQ(failure_of(shorter), request_error::timeout);
    EXPECT_EQ(failure_of(unanswered), request_error::timeout);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_GE(took, 200ms);
    EXPECT_LT(took, 1500ms);
    EXPECT_EQ(cli.request(order_request(3)).get().order.uid, 3);  // the connection is fine
    cli.close();
    srv.stop();
}

TEST(Net, PendingRequestsFailWhenTheConnectionDrops) {
    fastwire::net::context io;
    fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0);
    srv.start();
    fastwire::net::client<service::Client> cli(io);
    std::atomic<int> drops{0};
    cli.on_disconnect([&](const std::string&) { ++drops; });
    cli.connect("127.0.0.1", srv.port());
    auto waiting = cli.request(order_request(-1));  // never answered
    auto closing = cli.request(order_request(-2));  // the server closes the connection
    EXPECT_EQ(failure_of(waiting), request_error::disconnected);
    EXPECT_EQ(failure_of(closing), request_error::disconnected);
    EXPECT_EQ(drops.load(), 1);
    EXPECT_FALSE(cli.connected());
    EXPECT_EQ(failure_of(cli.request(order_request(1))), request_error::disconnected);  // at once
    EXPECT_FALSE(cli.send(service::OrderMessage(order(1))));
    srv.stop();
}

TEST(Net, ConnectFailsCleanly) {
    fastwire::net::context io;
    std::uint16_t port = 0;
    {
        fastwire::net::server<VService, service::Sender> srv(io, "127.0.0.1", 0);
        port = srv.port();
    }  // closed: nothing listens there now
    fastwire::net::client<service::Client> cli(io);
    try {
        cli.connect("127.0.0.1", port);
        ADD_FAILURE() << "connected to a closed port";
    } catch (const fastwire::net::error& e) {
        EXPECT_NE(std::string(e.what()).find("cannot connect to 127.0.0.1:"), std::string::npos) << e.what();
    }
    EXPECT_THROW((fastwire::net::server<VService, service::Sender>(io, "not-an-address", 0)), fastwire::net::error);
}

TEST(Net, ReconnectsAfterADrop) {
    fastwire::net::context io;
    auto srv = std::make_unique<fastwire::net::server<VService, service::Sender>>(io, "127.0.0.1", 0);
    const std::uint16_t port = srv->port();
    srv->start();
    fastwire::net::options o;
    o.reconnect_delay = 20ms;
    fastwire::net::client<service::Client> cli(io, o);
    cli.connect("127.0.0.1", port);
    EXPECT_EQ(cli.request(order_request(1)).get().seq, 1);
    srv->stop();
    srv.reset();
    srv = std::make_unique<fastwire::net::server<VService, service::Sender>>(io, "127.0.0.1", port);
    srv->start();
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (cli.connects() < 2 && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
    while (!cli.connected() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(cli.connects(), 2u);
    EXPECT_EQ(cli.request(order_request(2)).get().seq, 1);  // a new connection, a new count
    cli.close();
    srv->stop();
}

// A listener that accepts and never reads: the client's queue fills up.
struct deaf_server {
    asio::io_context io;
    asio::ip::tcp::acceptor acceptor{io, {asio::ip::make_address("127.0.0.1"), 0}};
    asio::ip::tcp::socket peer{io};
    std::thread t{[this] { acceptor.accept(peer); }};
    std::uint16_t port() const { return acceptor.local_endpoint().port(); }
    ~deaf_server() {
        if (t.joinable()) t.join();
    }
};

template <class Client>
std::size_t fill(Client& cli, std::size_t limit) {
    const auto big = service::AccountMessage(big_account(200));
    std::size_t queued = 0;
    while (queued < limit && cli.send(big)) ++queued;
    return queued;
}

TEST(Net, OverflowFailKeepsTheConnection) {
    fastwire::net::context io;
    deaf_server deaf;
    fastwire::net::options o;
    o.max_queued_bytes = 64 * 1024;
    o.overflow = overflow_policy::fail;
    fastwire::net::client<service::Client> cli(io, o);
    cli.connect("127.0.0.1", deaf.port());
    const std::size_t n = fill(cli, 100000);
    EXPECT_LT(n, 100000u);  // the socket buffers take some, then the queue is full
    // To the last byte. A refused send means the queue is full, but the writer may still be
    // moving queued bytes into the socket buffers (slowly under a sanitizer on a busy
    // machine), which frees room again: fill until sends are refused twice in a row after a
    // pause, when the socket buffers are full (the peer never reads) and nothing drains.
    int i = 0;
    for (int refused = 0, round = 0; refused < 2 && round < 200; ++round) {
        int sent = 0;
        while (sent < 100000 && cli.send(service::OrderMessage(order(i++)))) ++sent;
        refused = sent == 0 ? refused + 1 : 0;
        std::this_thread::sleep_for(25ms);
    }
    EXPECT_FALSE(cli.send(service::OrderMessage(order(i))));
    EXPECT_LE(cli.queued(), o.max_queued_bytes);
    EXPECT_TRUE(cli.connected());
    EXPECT_EQ(failure_of(cli.request(order_request(1))), request_error::overflow);
}

TEST(Net, OverflowDisconnectDropsTheConnection) {
    fastwire::net::context io;
    deaf_server deaf;
    fastwire::net::options o;
    o.max_queued_bytes = 64 * 1024;
    o.overflow = overflow_policy::disconnect;
    Log log;
    fastwire::net::client<service::Client> cli(io, o);
    cli.on_log(log.sink());
    cli.connect("127.0.0.1", deaf.port());
    fill(cli, 100000);
    EXPECT_TRUE(log.wait("closed: send queue full")) << log.text();
    EXPECT_FALSE(cli.connected());
}

TEST(Net, OverflowBlockWaitsThenFails) {
    fastwire::net::context io;
    deaf_server deaf;
    fastwire::net::options o;
    o.max_queued_bytes = 64 * 1024;
    o.overflow = overflow_policy::block;
    o.write_timeout = 300ms;
    Log log;
    fastwire::net::client<service::Client> cli(io, o);
    cli.on_log(log.sink());
    cli.connect("127.0.0.1", deaf.port());
    const auto start = std::chrono::steady_clock::now();
    fill(cli, 100000);  // blocks until the write timeout drops the connection
    EXPECT_GE(std::chrono::steady_clock::now() - start, 300ms);
    EXPECT_TRUE(log.wait("closed: peer not reading")) << log.text();
}

TEST(Net, ShutdownFlushesEverythingQueued) {
    fastwire::net::context io(2);
    std::atomic<std::uint64_t> handled{0};
    using Server = fastwire::net::server<VService, service::Sender>;
    Server srv(io, "127.0.0.1", 0);
    srv.start();
    fastwire::net::client<Counting<service::Client>> cli(io);
    cli.connect("127.0.0.1", srv.port());
    // The client closes right after queuing: the server gets every message...
    constexpr std::uint64_t n = 20000;
    for (std::uint64_t i = 0; i < n; ++i)
        ASSERT_TRUE(cli.send(service::OrderMessage(order(static_cast<std::int32_t>(i)))));
    cli.close();
    // ... and echoed every one of them before it closed its side.
    EXPECT_EQ(cli.handler().orders.load(), n);
    EXPECT_EQ(cli.handler().out_of_order.load(), 0u);
    (void)handled;

    // The server stops while its queues hold megabytes of echoes: all of them arrive.
    fastwire::net::client<Counting<service::Client>> cli2(io);
    cli2.connect("127.0.0.1", srv.port());
    const auto big = service::AccountMessage(big_account(1000));  // ~60 KB each
    for (int i = 0; i < 100; ++i) ASSERT_TRUE(cli2.send(big));
    ASSERT_EQ(cli2.request(order_request(1)).get().seq, 1);  // every message before it was handled
    srv.stop();
    const auto end = std::chrono::steady_clock::now() + 10s;
    while (cli2.connected() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
    EXPECT_EQ(cli2.handler().accounts.load(), 100u);
}

TEST(Net, Tls) {
    certificate cert;
    ASSERT_FALSE(cert.cert.empty()) << "openssl could not make a certificate";
    fastwire::net::context io;
    asio::ssl::context sc = fastwire::net::tls_server_context(cert.cert, cert.key);
    Log log;
    fastwire::net::tls_server<VService, service::Sender> srv(io, "127.0.0.1", 0, {}, fastwire::net::tls{&sc});
    srv.on_log(log.sink());
    srv.start();
    asio::ssl::context cc = fastwire::net::tls_client_context(cert.cert);
    for (const char* host : {"localhost", "127.0.0.1"}) {
        fastwire::net::tls_client<Counting<service::Client>> cli(io, {}, fastwire::net::tls{&cc});
        cli.connect(host, srv.port());
        request_response(cli);
        for (int i = 0; i < 1000; ++i) ASSERT_TRUE(cli.send(service::OrderMessage(order(i))));
        cli.close();
        EXPECT_EQ(cli.handler().orders.load(), 1000u) << host;
    }
    // A client that does not trust the certificate cannot connect; a plain TCP client
    // is dropped by the handshake.
    asio::ssl::context untrusting = fastwire::net::tls_client_context();
    fastwire::net::tls_client<service::Client> stranger(io, {}, fastwire::net::tls{&untrusting});
    EXPECT_THROW(stranger.connect("localhost", srv.port()), fastwire::net::error);
    fastwire::net::options o;
    o.request_timeout = 2000ms;
    fastwire::net::client<service::Client> plain(io, o);
    plain.connect("127.0.0.1", srv.port());
    EXPECT_NE(failure_of(plain.request(order_request(1))), request_error::rejected);
    EXPECT_TRUE(log.wait("closed: handshake failed")) << log.text();
    srv.stop();
}
