// transport_bench.cpp - request/response over loopback TCP: fastwire::net against the same
// bytes on bare sockets and against Cap'n Proto RPC (docs/transport.md, "Throughput and
// latency").
//
//   fastwire_transport_bench [--quick] [--runs R] [--warmup N] [--latency N] [--throughput N]
//                            [--window W] [--rows fastwire,fastwire-final,raw,capnp]
//
// Every row carries the seed Order (uid, "EURUSD", buy, market, 1.23456, 1000.0) from a
// client to a server on 127.0.0.1 and back, one connection, and measures:
// - latency: N requests one at a time after a warm-up; p50 and p99 of the round trips;
// - throughput: requests and responses with W (64) requests in flight (a new request as
//   soon as an answer arrives); answers per second, and the process's CPU time (client and
//   server, user + system) per answer.
// Rows:
// - fastwire: net::server answering OrderRequest with OrderAck (schemas/service.fbe), and
//   net::client::request() (a std::future per request); one I/O thread per side.
// - raw: blocking POSIX sockets (TCP_NODELAY) carrying the same bytes a fastwire client and
//   server send (pre-serialized OrderRequest and OrderAck frames), never decoded: the
//   server counts whole requests and writes as many acks. The cost of the network stack.
// - capnp: an OrderService.place() call (transport_bench.capnp) on capnp::EzRpcServer and
//   EzRpcClient, each on its own kj event loop (thread).
// The rows run interleaved, R times (5); the table gives each figure's median over the runs.
// --quick: one short run of each row; exits non-zero when an answer is wrong (make test).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fastwire/net.h>

#include "service_final_protocol.h"
#include "service_protocol.h"

#ifdef FASTWIRE_BENCH_CAPNP
#include <capnp/ez-rpc.h>
#include <kj/async.h>

#include "transport_bench.capnp.h"
#endif

namespace {

using steady = std::chrono::steady_clock;

struct settings {
    long warmup = 2000;
    long latency = 20000;
    long throughput = 100000;
    long window = 64;
    int runs = 5;
    bool quick = false;
    std::vector<std::string> rows = {"fastwire", "fastwire-final", "raw", "capnp"};
};

// One run of one row.
struct result {
    double per_second = 0;  // answers per second, `window` requests in flight
    double p50_us = 0;      // one request at a time
    double p99_us = 0;
    double serial_per_second = 0;  // one request at a time
    double cpu_us = 0;             // CPU time (both sides, user + system) per answer, in flight
};

// CPU time (user + system) of the whole process so far: client and server both.
double cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

// Times the in-flight phase: answers per second and CPU per answer.
struct throughput_timer {
    steady::time_point start = steady::now();
    double cpu = cpu_seconds();
    void stop(long answers, result& r) const {
        const double n = static_cast<double>(answers);
        r.per_second = n / std::chrono::duration<double>(steady::now() - start).count();
        r.cpu_us = (cpu_seconds() - cpu) * 1e6 / n;
    }
};

// Counts wrong answers; any makes the run fail.
struct checker {
    long wrong = 0;
    void expect(bool ok) { wrong += ok ? 0 : 1; }
};

proto::Order seed_order(std::int32_t uid) {
    return proto::Order(uid, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
}

// Runs f when the scope ends, however it ends.
class at_exit {
public:
    explicit at_exit(std::function<void()> f) : f_(std::move(f)) {}
    at_exit(const at_exit&) = delete;
    at_exit& operator=(const at_exit&) = delete;
    ~at_exit() { f_(); }

private:
    std::function<void()> f_;
};

double seconds_since(steady::time_point t) { return std::chrono::duration<double>(steady::now() - t).count(); }

// The latency samples (ns) of one run, and the time they took, into `r`.
void summarize(std::vector<std::int64_t> ns, double seconds, result& r) {
    std::sort(ns.begin(), ns.end());
    auto rank = [&](double p) {  // nearest rank
        const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(ns.size())));
        return static_cast<double>(ns[std::max<std::size_t>(k, 1) - 1]) / 1000.0;
    };
    r.p50_us = rank(0.50);
    r.p99_us = rank(0.99);
    r.serial_per_second = static_cast<double>(ns.size()) / seconds;
}

// ---- fastwire ------------------------------------------------------------------------------

template <class Receiver, class Sender>
class Handler : public Receiver {
public:
    using Receiver::onReceive;
    explicit Handler(fastwire::net::peer<Sender>& peer) : peer_(peer) {}

protected:
    void onReceive(const service::OrderRequest& q) override {
        peer_.send(service::OrderAck(q.id, ++accepted_, q.order));
    }

private:
    fastwire::net::peer<Sender>& peer_;
    std::int64_t accepted_ = 0;
};

template <class Receiver, class Sender, class Client>
result run_fastwire(const settings& s, checker& check) {
    fastwire::net::context server_io(1);
    fastwire::net::context client_io(1);
    fastwire::net::server<Handler<Receiver, Sender>, Sender> server(server_io, "127.0.0.1", 0);
    server.start();
    fastwire::net::client<Client> client(client_io);
    client.connect("127.0.0.1", server.port());

    auto request = [](long i) {
        service::OrderRequest q;
        q.order = seed_order(static_cast<std::int32_t>(i));
        return q;
    };
    result r;
    std::vector<std::int64_t> ns;
    ns.reserve(static_cast<std::size_t>(s.latency));
    for (long i = 0; i < s.warmup; ++i) check.expect(client.request(request(i)).get().order.uid == i);
    const auto start = steady::now();
    for (long i = 0; i < s.latency; ++i) {
        const auto t = steady::now();
        const service::OrderAck ack = client.request(request(i)).get();
        ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now() - t).count());
        check.expect(ack.order.uid == i && ack.order.symbol == "EURUSD");
    }
    summarize(std::move(ns), seconds_since(start), r);

    std::deque<std::future<service::OrderAck>> in_flight;
    long sent = 0, answered = 0;
    const throughput_timer timer;
    while (answered < s.throughput) {
        while (sent < s.throughput && static_cast<long>(in_flight.size()) < s.window)
            in_flight.push_back(client.request(request(sent++)));
        check.expect(in_flight.front().get().order.uid == answered++);
        in_flight.pop_front();
    }
    timer.stop(s.throughput, r);
    client.close();
    server.stop();
    return r;
}

// ---- raw: the same bytes on bare sockets ---------------------------------------------------

// The bytes a Sender writes for one message.
template <class Sender, class T>
std::vector<std::uint8_t> frame_of(const T& message) {
    struct capture : Sender {
        std::vector<std::uint8_t> bytes;
        std::size_t onSend(const void* data, std::size_t size) override {
            const auto* p = static_cast<const std::uint8_t*>(data);
            bytes.insert(bytes.end(), p, p + size);
            return size;
        }
    } c;
    c.send(message);
    return c.bytes;
}

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

void write_all(int fd, const std::uint8_t* p, std::size_t n) {
    while (n > 0) {
        const ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) fail("send");
        p += k;
        n -= static_cast<std::size_t>(k);
    }
}

// Reads what is there (at least one byte); 0 at end of stream.
std::size_t read_some(int fd, std::uint8_t* p, std::size_t n) {
    for (;;) {
        const ssize_t k = ::recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) fail("recv");
        return static_cast<std::size_t>(k);
    }
}

void no_delay(int fd) {
    const int one = 1;
    if (::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0) fail("TCP_NODELAY");
}

// Repeats `frame` n times.
std::vector<std::uint8_t> frames(const std::vector<std::uint8_t>& frame, long n) {
    std::vector<std::uint8_t> out;
    for (long i = 0; i < n; ++i) out.insert(out.end(), frame.begin(), frame.end());
    return out;
}

result run_raw(const settings& s, checker& check) {
    const service::OrderRequest q(fastwire::uuid::v1(), seed_order(1));
    const std::vector<std::uint8_t> request = frame_of<service::Sender>(q);
    const std::vector<std::uint8_t> ack = frame_of<service::Sender>(service::OrderAck(q.id, 1, q.order));
    const std::vector<std::uint8_t> requests = frames(request, s.window);
    const std::vector<std::uint8_t> acks = frames(ack, s.window);

    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) fail("socket");
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(listener, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(listener, 1) != 0 ||
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        fail("listen");

    // The server: reads what arrives, counts whole requests, answers each with the ack.
    std::thread server([&] {
        const int fd = ::accept(listener, nullptr, nullptr);
        if (fd < 0) return;
        std::vector<std::uint8_t> in(65536);
        std::size_t partial = 0;
        try {
            no_delay(fd);
            for (;;) {
                const std::size_t n = read_some(fd, in.data(), in.size());
                if (n == 0) break;
                partial += n;
                auto whole = static_cast<long>(partial / request.size());
                partial %= request.size();
                for (; whole > 0; whole -= s.window)
                    write_all(fd, acks.data(), static_cast<std::size_t>(std::min(whole, s.window)) * ack.size());
            }
        } catch (const std::exception& e) {
            std::cerr << "raw server: " << e.what() << "\n";
        }
        ::close(fd);
    });

    int fd = -1;
    const at_exit cleanup([&] {
        if (fd >= 0) ::close(fd);         // the server sees the end of the stream
        ::shutdown(listener, SHUT_RDWR);  // or, not connected, its accept() fails
        server.join();
        ::close(listener);
    });
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) fail("connect");
    no_delay(fd);
    std::vector<std::uint8_t> in(65536);
    // One request, then its whole answer.
    auto round_trip = [&] {
        write_all(fd, request.data(), request.size());
        std::size_t got = 0;
        while (got < ack.size()) {
            const std::size_t n = read_some(fd, in.data() + got, ack.size() - got);
            if (n == 0) throw std::runtime_error("raw: the server closed");
            got += n;
        }
        check.expect(std::equal(ack.begin(), ack.end(), in.begin()));
    };
    result r;
    std::vector<std::int64_t> ns;
    ns.reserve(static_cast<std::size_t>(s.latency));
    for (long i = 0; i < s.warmup; ++i) round_trip();
    const auto start = steady::now();
    for (long i = 0; i < s.latency; ++i) {
        const auto t = steady::now();
        round_trip();
        ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now() - t).count());
    }
    summarize(std::move(ns), seconds_since(start), r);

    // `window` requests in flight: as many new requests as answers came in, in one write.
    const throughput_timer timer;
    long sent = std::min(s.window, s.throughput), answered = 0;
    std::size_t partial = 0;
    write_all(fd, requests.data(), static_cast<std::size_t>(sent) * request.size());
    while (answered < s.throughput) {
        const std::size_t n = read_some(fd, in.data(), in.size());
        if (n == 0) throw std::runtime_error("raw: the server closed");
        partial += n;
        const auto whole = static_cast<long>(partial / ack.size());
        partial %= ack.size();
        answered += whole;
        const long more = std::min(whole, s.throughput - sent);
        if (more > 0) write_all(fd, requests.data(), static_cast<std::size_t>(more) * request.size());
        sent += more;
    }
    timer.stop(s.throughput, r);
    check.expect(answered == s.throughput && partial == 0);
    ::shutdown(fd, SHUT_WR);
    while (read_some(fd, in.data(), in.size()) > 0) {}
    return r;
}

// ---- Cap'n Proto RPC -----------------------------------------------------------------------

#ifdef FASTWIRE_BENCH_CAPNP
using capnp_bench::OrderService;

class OrderServiceImpl final : public OrderService::Server {
protected:
    kj::Promise<void> place(PlaceContext context) override {
        const auto params = context.getParams();
        auto results = context.getResults();
        results.setId(params.getId());
        results.setSeq(++accepted_);
        results.setOrder(params.getOrder());
        return kj::READY_NOW;
    }

private:
    std::int64_t accepted_ = 0;
};

// A request with the fields of service::OrderRequest: a version 1 uuid and the seed order.
capnp::Request<OrderService::PlaceParams, OrderService::PlaceResults> place_request(OrderService::Client& service,
                                                                                    long i) {
    auto request = service.placeRequest();
    const fastwire::uuid id = fastwire::uuid::v1();
    request.setId(kj::arrayPtr(id.data(), 16));
    auto order = request.initOrder();
    order.setUid(static_cast<std::int32_t>(i));
    order.setSymbol("EURUSD");
    order.setSide(capnp_bench::OrderSide::BUY);
    order.setType(capnp_bench::OrderType::MARKET);
    order.setPrice(1.23456);
    order.setVolume(1000.0);
    return request;
}

bool right(OrderService::PlaceResults::Reader ack, long i) {
    return ack.getOrder().getUid() == i && ack.getOrder().getSymbol() == "EURUSD" && ack.getId().size() == 16;
}

// Keeps one request of the window going: sends the next one when the answer comes.
kj::Promise<void> keep_sending(OrderService::Client& service, long& sent, long total, checker& check) {
    if (sent >= total) return kj::READY_NOW;
    const long i = sent++;
    return place_request(service, i).send().then([&service, &sent, total, &check, i](auto&& ack) {
        check.expect(right(ack, i));
        return keep_sending(service, sent, total, check);
    });
}

result run_capnp(const settings& s, checker& check) {
    std::promise<std::pair<unsigned, kj::Own<kj::CrossThreadPromiseFulfiller<void>>>> ready;
    auto ready_future = ready.get_future();
    std::thread server([&ready] {
        bool started = false;
        try {
            capnp::EzRpcServer rpc(kj::heap<OrderServiceImpl>(), "127.0.0.1", 0);
            auto& wait = rpc.getWaitScope();
            const unsigned port = rpc.getPort().wait(wait);
            auto stop = kj::newPromiseAndCrossThreadFulfiller<void>();
            ready.set_value({port, kj::mv(stop.fulfiller)});
            started = true;
            stop.promise.wait(wait);
        } catch (...) {
            if (!started) ready.set_exception(std::current_exception());
        }
    });
    std::pair<unsigned, kj::Own<kj::CrossThreadPromiseFulfiller<void>>> running;  // port, stop
    try {
        running = ready_future.get();
    } catch (...) {
        server.join();
        throw;
    }
    const unsigned port = running.first;
    const at_exit cleanup([&] {
        running.second->fulfill();
        server.join();
    });

    result r;
    {
        capnp::EzRpcClient rpc("127.0.0.1", port);
        auto& wait = rpc.getWaitScope();
        OrderService::Client service = rpc.getMain<OrderService>();
        std::vector<std::int64_t> ns;
        ns.reserve(static_cast<std::size_t>(s.latency));
        for (long i = 0; i < s.warmup; ++i) check.expect(right(place_request(service, i).send().wait(wait), i));
        const auto start = steady::now();
        for (long i = 0; i < s.latency; ++i) {
            const auto t = steady::now();
            auto ack = place_request(service, i).send().wait(wait);
            ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now() - t).count());
            check.expect(right(ack, i));
        }
        summarize(std::move(ns), seconds_since(start), r);

        long sent = 0;
        const throughput_timer timer;
        kj::Vector<kj::Promise<void>> window;
        for (long w = 0; w < s.window; ++w) window.add(keep_sending(service, sent, s.throughput, check));
        kj::joinPromises(window.releaseAsArray()).wait(wait);
        timer.stop(s.throughput, r);
    }
    return r;
}
#endif

// ---- the table -----------------------------------------------------------------------------

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string load_average() {
    std::ifstream f("/proc/loadavg");
    std::string one, five, fifteen;
    f >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

std::string fixed(double v, int decimals) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(decimals);
    o << v;
    return o.str();
}

std::string thousands(double v) {
    std::string digits = std::to_string(std::llround(v));
    for (auto i = static_cast<long>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<std::size_t>(i), ",");
    return digits;
}

long number(const char* text) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (*end != 0 || v <= 0) throw std::invalid_argument(std::string("not a positive number: ") + text);
    return v;
}

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
}

}  // namespace

int main(int argc, char** argv) try {
    settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool has_value = i + 1 < argc;
        if (a == "--quick") {
            s.quick = true;
            s.runs = 1;
            s.warmup = 200;
            s.latency = 1000;
            s.throughput = 5000;
        } else if (a == "--runs" && has_value) {
            s.runs = static_cast<int>(number(argv[++i]));
        } else if (a == "--warmup" && has_value) {
            s.warmup = number(argv[++i]);
        } else if (a == "--latency" && has_value) {
            s.latency = number(argv[++i]);
        } else if (a == "--throughput" && has_value) {
            s.throughput = number(argv[++i]);
        } else if (a == "--window" && has_value) {
            s.window = number(argv[++i]);
        } else if (a == "--rows" && has_value) {
            s.rows = split(argv[++i]);
        } else {
            std::cerr << "usage: fastwire_transport_bench [--quick] [--runs R] [--warmup N] [--latency N]\n"
                         "                                [--throughput N] [--window W] [--rows "
                         "fastwire,fastwire-final,raw,capnp]\n";
            return 2;
        }
    }
    const std::map<std::string, std::function<result(const settings&, checker&)>> rows = {
        {"fastwire", run_fastwire<service::Receiver, service::Sender, service::Client>},
        {"fastwire-final", run_fastwire<service::FinalReceiver, service::FinalSender, service::FinalClient>},
        {"raw", run_raw},
#ifdef FASTWIRE_BENCH_CAPNP
        {"capnp", run_capnp},
#endif
    };
    std::vector<std::string> chosen;
    for (const auto& name : s.rows) {
        if (rows.count(name))
            chosen.push_back(name);
        else if (name == "capnp")
            std::cerr << "capnp: not built (Cap'n Proto was not found); row skipped\n";
        else
            throw std::invalid_argument("unknown row " + name);
    }

    const std::string load_before = load_average();
    std::map<std::string, std::vector<result>> results;
    checker check;
    for (int run = 0; run < s.runs; ++run)
        for (const auto& name : chosen) results[name].push_back(rows.at(name)(s, check));
    const std::string load_after = load_average();

    const service::OrderRequest q(fastwire::uuid::v1(), seed_order(1));
    const std::size_t request_size = frame_of<service::Sender>(q).size();
    const std::size_t ack_size = frame_of<service::Sender>(service::OrderAck(q.id, 1, q.order)).size();
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M", std::localtime(&now));
    std::cout << "loopback request/response, seed Order; " << date << "; " << std::thread::hardware_concurrency()
              << " CPUs; load average " << load_before << " before, " << load_after << " after\n"
              << "median of " << s.runs << " runs; latency: " << s.latency << " requests one at a time after "
              << s.warmup << "; throughput: " << s.throughput << " requests, " << s.window << " in flight\n"
              << "messages (versioned format): OrderRequest " << request_size << " bytes, OrderAck " << ack_size
              << " bytes\n\n"
              << "| row | msgs/s (" << s.window
              << " in flight) | CPU µs/msg | p50 µs | p99 µs | msgs/s (1 at a time) |\n"
              << "|---|---:|---:|---:|---:|---:|\n";
    for (const auto& name : chosen) {
        std::vector<double> rate, cpu, p50, p99, serial;
        for (const result& r : results[name]) {
            rate.push_back(r.per_second);
            p50.push_back(r.p50_us);
            p99.push_back(r.p99_us);
            serial.push_back(r.serial_per_second);
            cpu.push_back(r.cpu_us);
        }
        std::cout << "| " << name << " | " << thousands(median(rate)) << " | " << fixed(median(cpu), 1) << " | "
                  << fixed(median(p50), 1) << " | " << fixed(median(p99), 1) << " | " << thousands(median(serial))
                  << " |\n";
    }
    if (check.wrong > 0) {
        std::cerr << check.wrong << " wrong answers\n";
        return 1;
    }
    return 0;
} catch (const std::exception& e) {
    std::cerr << "fastwire_transport_bench: " << e.what() << "\n";
    return 1;
}
