// fastwire/tcp.h - a minimal POSIX TCP transport for the protocol (protocol.h).
//
// Enough to run Senders and Receivers over real sockets: blocking connect/send on the
// client side, and a single-threaded poll() server that gives every connection its own
// receiver and closes a connection (with a logged reason) as soon as its receiver reports
// an error, while the other connections carry on.
//
//   fastwire::tcp::server<MyReceiver> srv(0);          // port 0: any free loopback port
//   std::thread t([&] { srv.run(); });                 // until srv.stop()
//   fastwire::tcp::socket c = fastwire::tcp::connect_loopback(srv.port());
//   fastwire::tcp::send_all(c.fd(), data, size);
//
// MyReceiver derives from a generated Receiver; the server calls receive() with what it
// reads and closes the connection when receive() returns false or errors() grows.
#pragma once

#include <fastwire/version.h>  // first: the C++17 check

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace fastwire {
namespace tcp {

// An owned file descriptor.
class socket {
public:
    socket() noexcept = default;
    explicit socket(int fd) noexcept : fd_(fd) {}
    socket(socket&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    socket& operator=(socket&& o) noexcept {
        if (this != &o) {
            close();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    socket(const socket&) = delete;
    socket& operator=(const socket&) = delete;
    ~socket() { close(); }

    int fd() const noexcept { return fd_; }
    bool valid() const noexcept { return fd_ >= 0; }
    void close() noexcept {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
    }
    // Stops sending (the peer reads end of stream) but keeps reading.
    void shutdown_send() noexcept {
        if (fd_ >= 0) ::shutdown(fd_, SHUT_WR);
    }

private:
    int fd_ = -1;
};

[[noreturn]] inline void throw_errno(const char* what) {
    throw std::system_error(errno, std::generic_category(), what);
}

inline sockaddr_in loopback(std::uint16_t port) noexcept {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

// A listening socket on 127.0.0.1:port (0: any free port; see local_port()).
inline socket listen_loopback(std::uint16_t port, int backlog = 64) {
    socket s(::socket(AF_INET, SOCK_STREAM, 0));
    if (!s.valid()) throw_errno("socket");
    int one = 1;
    ::setsockopt(s.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a = loopback(port);
    if (::bind(s.fd(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw_errno("bind");
    if (::listen(s.fd(), backlog) != 0) throw_errno("listen");
    return s;
}

inline std::uint16_t local_port(int fd) {
    sockaddr_in a{};
    socklen_t n = sizeof a;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n) != 0) throw_errno("getsockname");
    return ntohs(a.sin_port);
}

inline socket connect_loopback(std::uint16_t port) {
    socket s(::socket(AF_INET, SOCK_STREAM, 0));
    if (!s.valid()) throw_errno("socket");
    sockaddr_in a = loopback(port);
    if (::connect(s.fd(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) throw_errno("connect");
    int one = 1;
    ::setsockopt(s.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return s;
}

// Writes all bytes (blocking). Returns false when the peer is gone.
inline bool send_all(int fd, const void* data, std::size_t size) noexcept {
    const auto* p = static_cast<const char*>(data);
    while (size != 0) {
        const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += n;
        size -= static_cast<std::size_t>(n);
    }
    return true;
}

// A poll() server on loopback: one Receiver per connection (default-constructed), closed
// on the first error it reports. Receiver needs receive(const void*, size_t) -> bool and
// errors() -> count.
template <class Receiver>
class server {
public:
    using log_function = std::function<void(const std::string&)>;
    // Called with each new connection's receiver (e.g. to wire it to shared state).
    using accept_function = std::function<void(Receiver&, int id)>;

    explicit server(std::uint16_t port = 0) : listener_(listen_loopback(port)) {
        port_ = local_port(listener_.fd());
        int fds[2];
        if (::pipe(fds) != 0) throw_errno("pipe");
        wake_read_ = socket(fds[0]);
        wake_write_ = socket(fds[1]);
    }

    std::uint16_t port() const noexcept { return port_; }
    void on_log(log_function f) { log_ = std::move(f); }
    void on_accept(accept_function f) { accept_ = std::move(f); }

    // Serves until stop(); returns when stopped.
    void run() {
        std::vector<char> buf(1 << 16);
        while (!stopped_.load()) {
            std::vector<pollfd> fds;
            fds.push_back({listener_.fd(), POLLIN, 0});
            fds.push_back({wake_read_.fd(), POLLIN, 0});
            for (auto& c : conns_) fds.push_back({c.sock.fd(), POLLIN, 0});
            if (::poll(fds.data(), fds.size(), 1000) < 0) {
                if (errno == EINTR) continue;
                throw_errno("poll");
            }
            if (fds[0].revents & POLLIN) accept_one();
            for (std::size_t i = 2; i < fds.size(); ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                connection& c = conns_[i - 2];
                const ssize_t n = ::recv(c.sock.fd(), buf.data(), buf.size(), 0);
                if (n == 0) {
                    const std::size_t pending = c.receiver->pending();
                    close(c, pending == 0 ? std::string("peer closed the connection")
                                          : "peer closed the connection in the middle of a message (" +
                                                std::to_string(pending) + " bytes pending)");
                } else if (n < 0) {
                    if (errno != EINTR && errno != EAGAIN) close(c, std::string("recv: ") + std::strerror(errno));
                } else {
                    const std::uint64_t before = c.receiver->errors();
                    const bool framed = c.receiver->receive(buf.data(), static_cast<std::size_t>(n));
                    if (!framed || c.receiver->errors() != before)
                        close(c, "protocol error: " + c.receiver->last_error());
                }
            }
            std::vector<connection> open;
            for (auto& c : conns_)
                if (c.sock.valid()) open.push_back(std::move(c));
            conns_.swap(open);
        }
    }

    void stop() {
        stopped_.store(true);
        const char b = 0;
        (void)!::write(wake_write_.fd(), &b, 1);
    }

    std::size_t connections() const noexcept { return conns_.size(); }

private:
    struct connection {
        int id = 0;
        socket sock;
        std::unique_ptr<Receiver> receiver;
    };

    void accept_one() {
        socket s(::accept(listener_.fd(), nullptr, nullptr));
        if (!s.valid()) return;
        connection c;
        c.id = ++next_id_;
        c.sock = std::move(s);
        c.receiver = std::make_unique<Receiver>();
        if (accept_) accept_(*c.receiver, c.id);
        if (log_) log_("connection " + std::to_string(c.id) + " accepted");
        conns_.push_back(std::move(c));
    }

    void close(connection& c, const std::string& reason) {
        if (log_) log_("connection " + std::to_string(c.id) + " closed: " + reason);
        c.sock.close();
    }

    socket listener_;
    socket wake_read_, wake_write_;
    std::uint16_t port_ = 0;
    std::vector<connection> conns_;
    int next_id_ = 0;
    std::atomic<bool> stopped_{false};
    log_function log_;
    accept_function accept_;
};

}  // namespace tcp
}  // namespace fastwire
