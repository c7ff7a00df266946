// The service server (schemas/service.fbe) on fastwire::net: the peer every language's
// transport test talks to. docs/transport.md ("The example server") is its contract.
//
//   server HOST PORT [--final] [--tls CERT KEY] [--threads N] [--max-queued BYTES]
//                    [--message-timeout MS] [--write-timeout MS]
//
// - Listens on HOST:PORT (IPv4 or IPv6; PORT 0 takes a free port) and prints one line
//   to stdout: "listening HOST PORT" (the port it got).
// - Answers each OrderRequest with an OrderAck (same id, the connection's count of
//   accepted orders, the order) or, when the order's volume is not positive, with an
//   OrderReject (same id, "volume must be positive"). Echoes every OrderMessage,
//   BalanceMessage and AccountMessage back to its sender.
// - Logs one line per connection accepted and closed (with the reason) to stderr.
// - SIGINT or SIGTERM: stops accepting, flushes every connection, closes, prints
//   "stopped: C connections, M messages" to stdout and exits 0.
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>
#include <string>

#include <fastwire/net.h>
#include <fastwire/net_tls.h>

#include "service_final_protocol.h"
#include "service_protocol.h"

namespace {

std::atomic<std::uint64_t> handled{0};
std::mutex out;

template <class Receiver, class Sender>
class Handler : public Receiver {
public:
    using Receiver::onReceive;
    explicit Handler(fastwire::net::peer<Sender>& peer) : peer_(peer) {}

protected:
    void onReceive(const service::OrderRequest& q) override {
        ++handled;
        if (q.order.volume > 0)
            peer_.send(service::OrderAck(q.id, ++accepted_, q.order));
        else
            peer_.send(service::OrderReject(q.id, "volume must be positive"));
    }
    void onReceive(const service::OrderMessage& m) override { echo(m); }
    void onReceive(const service::BalanceMessage& m) override { echo(m); }
    void onReceive(const service::AccountMessage& m) override { echo(m); }

private:
    template <class T>
    void echo(const T& m) {
        ++handled;
        peer_.send(m);
    }
    fastwire::net::peer<Sender>& peer_;
    std::int64_t accepted_ = 0;
};

struct settings {
    std::string host;
    std::uint16_t port = 0;
    bool final = false;
    std::string cert, key;
    std::size_t threads = 1;
    fastwire::net::options options;
};

int wait_for_signal() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int sig = 0;
    sigwait(&set, &sig);
    return sig;
}

template <class Server>
int serve(Server& server, fastwire::net::context& io) {
    server.on_log([](const std::string& line) {
        std::lock_guard<std::mutex> lock(out);
        std::cerr << "server: " << line << std::endl;
    });
    server.start();
    {
        std::lock_guard<std::mutex> lock(out);
        const std::string a = server.address();
        std::cout << "listening " << a.substr(0, a.rfind(':')) << " " << server.port() << std::endl;
    }
    wait_for_signal();
    server.stop();
    io.stop();
    std::cout << "stopped: " << server.accepted() << " connections, " << handled.load() << " messages" << std::endl;
    return 0;
}

template <class Receiver, class Sender>
int run(const settings& s) {
    using H = Handler<Receiver, Sender>;
    fastwire::net::context io(s.threads);
    try {
        if (!s.cert.empty()) {
            asio::ssl::context tls = fastwire::net::tls_server_context(s.cert, s.key);
            fastwire::net::tls_server<H, Sender> server(io, s.host, s.port, s.options, fastwire::net::tls{&tls});
            return serve(server, io);
        }
        fastwire::net::server<H, Sender> server(io, s.host, s.port, s.options);
        return serve(server, io);
    } catch (const std::exception& e) {
        std::cerr << "server: " << e.what() << std::endl;
        return 1;
    }
}

int usage() {
    std::cerr << "usage: server HOST PORT [--final] [--tls CERT KEY] [--threads N] [--max-queued BYTES]\n"
                 "                        [--message-timeout MS] [--write-timeout MS]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    settings s;
    s.host = argv[1];
    s.port = static_cast<std::uint16_t>(std::strtoul(argv[2], nullptr, 10));
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--final")
            s.final = true;
        else if (a == "--tls" && i + 2 < argc) {
            s.cert = argv[++i];
            s.key = argv[++i];
        } else if (a == "--threads" && more)
            s.threads = std::strtoul(argv[++i], nullptr, 10);
        else if (a == "--max-queued" && more)
            s.options.max_queued_bytes = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--message-timeout" && more)
            s.options.message_timeout = std::chrono::milliseconds(std::strtoll(argv[++i], nullptr, 10));
        else if (a == "--write-timeout" && more)
            s.options.write_timeout = std::chrono::milliseconds(std::strtoll(argv[++i], nullptr, 10));
        else
            return usage();
    }
    // SIGINT and SIGTERM are taken by wait_for_signal(), in this thread only: block them
    // before the I/O threads start (they inherit the mask).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    return s.final ? run<service::FinalReceiver, service::FinalSender>(s) : run<service::Receiver, service::Sender>(s);
}
