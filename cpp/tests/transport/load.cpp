// The load test (docs/transport.md, "Load"): N clients against examples/cpp/server, each
// doing R rounds of request/response plus a one-way message that the server echoes.
// Every answer must be the one expected, in order (the server's per-connection count
// proves nothing was lost, doubled or reordered). Prints the figures, including the
// server's peak RSS; exits 1 on any mismatch or when the time limit passes.
//
//   fastwire_transport_load --server PATH [--clients 1000] [--rounds 20] [--threads 2]
//                           [--limit-seconds 120]
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fastwire/net.h>

#include "service_protocol.h"

namespace {

class Echoes : public service::Client {
public:
    using service::Client::onReceive;
    std::atomic<std::int64_t> next{0};
    std::atomic<std::uint64_t> wrong{0};

protected:
    void onReceive(const service::OrderMessage& m) override {
        if (m.body.uid != next.load()) ++wrong;
        ++next;
    }
};

std::string status_field(pid_t pid, const char* field) {
    std::ifstream in("/proc/" + (pid ? std::to_string(pid) : std::string("self")) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return line.substr(std::strlen(field) + 1);
    return "?";
}

}  // namespace

int main(int argc, char** argv) {
    std::string server;
    long clients = 1000, rounds = 20, threads = 2, limit_seconds = 120;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--server") server = argv[i + 1];
        if (a == "--clients") clients = std::strtol(argv[i + 1], nullptr, 10);
        if (a == "--rounds") rounds = std::strtol(argv[i + 1], nullptr, 10);
        if (a == "--threads") threads = std::strtol(argv[i + 1], nullptr, 10);
        if (a == "--limit-seconds") limit_seconds = std::strtol(argv[i + 1], nullptr, 10);
    }
    if (server.empty()) {
        std::cerr << "usage: fastwire_transport_load --server PATH [--clients N] [--rounds R]\n";
        return 2;
    }
    // The server, as a harness starts it: port 0, the port read from its first line.
    int out[2];
    if (pipe(out) != 0) return 1;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        const int null = open("/dev/null", O_WRONLY);  // one log line per connection: not here
        if (null >= 0) dup2(null, 2);
        close(out[0]);
        close(out[1]);
        execl(server.c_str(), server.c_str(), "127.0.0.1", "0", "--threads", "1", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(out[1]);
    FILE* server_out = fdopen(out[0], "r");
    char first[256] = {0};
    if (!std::fgets(first, sizeof first, server_out)) {
        std::cerr << "load: the server printed nothing\n";
        return 1;
    }
    const std::string line = first;
    const auto port = static_cast<std::uint16_t>(std::strtoul(line.substr(line.rfind(' ') + 1).c_str(), nullptr, 10));
    std::cout << "load: server pid " << pid << ": " << line;

    const auto start = std::chrono::steady_clock::now();
    const auto deadline = start + std::chrono::seconds(limit_seconds);
    std::uint64_t failures = 0, answered = 0, lost = 0, doubled_or_reordered = 0;
    double worst_ms = 0;
    {
        fastwire::net::context io(static_cast<std::size_t>(threads));
        fastwire::net::options o;
        o.request_timeout = std::chrono::milliseconds(30000);
        std::vector<std::unique_ptr<fastwire::net::client<Echoes>>> cs;
        for (long c = 0; c < clients; ++c) {
            cs.push_back(std::make_unique<fastwire::net::client<Echoes>>(io, o));
            cs.back()->connect("127.0.0.1", port);
        }
        const double connect_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "load: " << clients << " clients connected in " << connect_s << " s\n";
        for (long r = 0; r < rounds && std::chrono::steady_clock::now() < deadline; ++r) {
            const auto round_start = std::chrono::steady_clock::now();
            std::vector<std::future<service::OrderAck>> f;
            f.reserve(static_cast<std::size_t>(clients));
            for (long c = 0; c < clients; ++c) {
                auto& cl = *cs[static_cast<std::size_t>(c)];
                cl.send(service::OrderMessage(proto::Order(static_cast<std::int32_t>(r), "ECHO", proto::OrderSide::buy,
                                                           proto::OrderType::market, 1.0, 1.0)));
                service::OrderRequest q;
                q.order = proto::Order(static_cast<std::int32_t>(c * 100000 + r), "EURUSD", proto::OrderSide::sell,
                                       proto::OrderType::limit, 1.5, 10.0);
                f.push_back(cl.request(q));
            }
            for (long c = 0; c < clients; ++c) {
                try {
                    const auto ack = f[static_cast<std::size_t>(c)].get();
                    ++answered;
                    if (ack.order.uid != c * 100000 + r || ack.seq != r + 1) ++doubled_or_reordered;
                } catch (const std::exception& e) {
                    if (++failures < 5) std::cerr << "load: client " << c << ": " << e.what() << "\n";
                    ++lost;
                }
            }
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - round_start).count();
            if (ms > worst_ms) worst_ms = ms;
        }
        for (auto& c : cs) c->close();  // every echo arrives before close() returns
        for (long c = 0; c < clients; ++c) {
            const auto& h = cs[static_cast<std::size_t>(c)]->handler();
            if (h.next.load() != rounds) lost += static_cast<std::uint64_t>(std::abs(rounds - h.next.load()));
            doubled_or_reordered += h.wrong.load();
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string server_peak = status_field(pid, "VmHWM:");
    kill(pid, SIGTERM);
    char last[256] = {0};
    while (std::fgets(last, sizeof last, server_out)) std::cout << "load: server: " << last;
    int status = 0;
    waitpid(pid, &status, 0);
    const std::uint64_t expected = static_cast<std::uint64_t>(clients * rounds);
    std::cout << "load: clients " << clients << ", rounds " << rounds << ", requests " << expected << " answered "
              << answered << ", echoes " << expected << ", lost " << lost << ", doubled or reordered "
              << doubled_or_reordered << "\n"
              << "load: " << seconds << " s, " << static_cast<long>(2.0 * static_cast<double>(expected) / seconds)
              << " messages/s each way, slowest round " << worst_ms << " ms\n"
              << "load: server peak RSS " << server_peak << ", this process (1000 clients) "
              << status_field(0, "VmHWM:") << "\n";
    const bool ok =
        answered == expected && lost == 0 && doubled_or_reordered == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    std::cout << (ok ? "load: ok" : "load: FAILED") << std::endl;
    return ok ? 0 : 1;
}
