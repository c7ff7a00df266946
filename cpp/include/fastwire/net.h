// fastwire/net.h - the protocol (protocol.h) over TCP, on standalone Asio.
//
// The behaviour (timeouts, back-pressure, shutdown, what is logged) is the contract in
// docs/transport.md, shared by every language's transport; this is the C++ API.
//
//   fastwire::net::context io;                                   // one I/O thread
//   class Handler : public service::Receiver {                   // one per connection
//   public:
//       explicit Handler(fastwire::net::peer<service::Sender>& p) : peer_(p) {}
//   protected:
//       void onReceive(const service::OrderRequest& q) override { peer_.send(service::OrderAck(q.id, 1, q.order)); }
//   private:
//       fastwire::net::peer<service::Sender>& peer_;
//   };
//   fastwire::net::server<Handler, service::Sender> srv(io, "0.0.0.0", 0);   // port 0: ephemeral
//   srv.start();
//
//   fastwire::net::client<service::Client> cli(io);
//   cli.connect("127.0.0.1", srv.port());                       // throws net::error on timeout
//   service::OrderAck ack = cli.request(service::OrderRequest(...)).get();   // times out by itself
//
// Threads: every callback of one connection (its Handler's onReceive, the log, the hooks)
// runs on that connection's strand, one at a time. send() may be called from any thread.
// connect() and close() block: never call them from a callback.
// TLS: fastwire/net_tls.h (the same classes over asio::ssl).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include <fastwire/limits.h>
#include <fastwire/protocol.h>
#include <fastwire/timestamp.h>

namespace fastwire {
namespace net {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// What happens when a send would take a connection's queue above options::max_queued_bytes.
enum class overflow_policy : std::uint8_t {
    disconnect,  // the connection is closed (logged "send queue full"); send() returns false
    fail,        // the message is not queued; send() returns false, the connection stays
    block,       // send() waits for room up to write_timeout, then fails; on the connection's
                 // own I/O thread (in a handler) it fails at once
};

// Every bound and timeout of a connection (docs/transport.md, "Policies"). 0 ms: off.
struct options {
    std::size_t max_queued_bytes = std::size_t{8} << 20;  // per connection, bytes not yet written
    overflow_policy overflow = overflow_policy::disconnect;
    milliseconds write_timeout{10000};       // a write that makes no progress this long: drop
    milliseconds message_timeout{10000};     // a message begun must be whole within this: drop
    milliseconds idle_timeout{0};            // nothing received this long: close
    milliseconds shutdown_timeout{5000};     // close()/stop(): longest wait for the flush
    milliseconds connect_timeout{5000};      // TCP connect + TLS handshake
    milliseconds request_timeout{10000};     // client requests without their own timeout
    milliseconds reconnect_delay{0};         // client: first retry after a drop (0: no reconnect)
    milliseconds reconnect_max_delay{5000};  // doubling up to this
    std::size_t max_connections = 10000;     // server: above, new connections are closed at once
    std::size_t read_buffer_size = 16384;    // bytes read per socket read
    limits receive_limits;                   // max_message_size bounds a peer's buffered message
};

// A connection, bind or connect failure (connect() throws it).
class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

using log_function = std::function<void(const std::string&)>;

// The I/O threads every server and client of a program share.
class context {
public:
    explicit context(std::size_t threads = 1) : work_(asio::make_work_guard(io_)) {
        for (std::size_t i = 0; i < (threads == 0 ? 1 : threads); ++i) threads_.emplace_back([this] { io_.run(); });
    }
    context(const context&) = delete;
    context& operator=(const context&) = delete;
    ~context() { stop(); }
    asio::io_context& io() noexcept { return io_; }
    // Stops the threads (after the servers and clients were stopped and closed).
    void stop() {
        work_.reset();
        io_.stop();
        for (auto& t : threads_)
            if (t.joinable()) t.join();
        threads_.clear();
    }

private:
    asio::io_context io_;
    asio::executor_work_guard<asio::io_context::executor_type> work_;
    std::vector<std::thread> threads_;
};

// Plain TCP (TLS: net_tls.h). A transport makes a stream of an accepted or connected
// socket and does the handshake.
struct tcp {
    using stream_type = asio::ip::tcp::socket;
    static constexpr const char* name = "tcp";
    stream_type make(asio::ip::tcp::socket s) const { return s; }
    static asio::ip::tcp::socket& socket(stream_type& s) noexcept { return s; }
    template <class Handler>
    void handshake(stream_type&, bool, const std::string&, Handler&& h) const {
        h(asio::error_code());
    }
};

inline std::string to_string(const asio::ip::tcp::endpoint& e) {
    const auto a = e.address();
    return (a.is_v6() ? "[" + a.to_string() + "]" : a.to_string()) + ":" + std::to_string(e.port());
}

namespace internal {

// The side of a connection that senders see.
class link_base {
public:
    virtual ~link_base() = default;
    // Queues bytes for writing (thread-safe); false when not queued (closed, or full:
    // then the overflow policy applied).
    virtual bool write(const void* data, std::size_t size) = 0;
    // Flushes what is queued, then closes (thread-safe, returns at once).
    virtual void close(const std::string& reason) = 0;
    virtual std::size_t queued() const = 0;
};

// One connection: the read loop, the bounded write queue, the timers. Subclasses decode
// what arrives. Everything below runs on strand_ except write(), close() and queued().
template <class Transport>
class link : public link_base, public std::enable_shared_from_this<link<Transport>> {
public:
    using stream_type = typename Transport::stream_type;

    link(asio::io_context& io, const Transport& t, asio::ip::tcp::socket s, const options& o, std::string name,
         bool server, std::string host = {})
        : strand_(asio::make_strand(io)),
          transport_(t),
          stream_(transport_.make(std::move(s))),
          timer_(io),
          options_(o),
          name_(std::move(name)),
          host_(std::move(host)),
          server_(server),
          created_(clock::now()) {
        rbuf_.resize(o.read_buffer_size == 0 ? 16384 : o.read_buffer_size);
        tick_ = milliseconds(250);
        for (milliseconds t2 : {o.write_timeout, o.message_timeout, o.idle_timeout, o.connect_timeout})
            if (t2.count() > 0 && t2 / 4 < tick_) tick_ = t2 / 4;
        if (tick_ < milliseconds(5)) tick_ = milliseconds(5);
    }
    ~link() override = default;

    const std::string& name() const noexcept { return name_; }
    const options& opts() const noexcept { return options_; }
    bool is_open() const noexcept { return state_.load() == open_state; }
    bool is_closed() const noexcept { return state_.load() == closed_state; }

    // Handshake, then reading. Hooks: opened() after the handshake, closed() once.
    void start() {
        asio::post(strand_, [self = this->shared_from_this()] { self->begin(); });
    }

    bool write(const void* data, std::size_t size) override {
        bool overflow = false;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            if (state_.load() != open_state) return false;
            if (queued_ + size > options_.max_queued_bytes && options_.overflow == overflow_policy::block &&
                !strand_.running_in_this_thread() && size <= options_.max_queued_bytes)
                room_.wait_for(
                    lock, options_.write_timeout.count() > 0 ? options_.write_timeout : milliseconds(1000),
                    [&] { return state_.load() != open_state || queued_ + size <= options_.max_queued_bytes; });
            if (state_.load() != open_state) return false;
            if (queued_ + size > options_.max_queued_bytes) {
                overflow = true;
            } else {
                const auto* p = static_cast<const std::uint8_t*>(data);
                next_.insert(next_.end(), p, p + size);
                queued_ += size;
                if (!write_posted_) {
                    write_posted_ = true;
                    asio::post(strand_, [self = this->shared_from_this()] { self->do_write(); });
                }
            }
        }
        if (overflow) {
            ++overflows_;
            if (options_.overflow == overflow_policy::disconnect) {
                const std::string why = "send queue full (" + std::to_string(queued()) + " bytes queued, " +
                                        std::to_string(size) + " more, limit " +
                                        std::to_string(options_.max_queued_bytes) + ")";
                asio::post(strand_, [self = this->shared_from_this(), why] { self->abort(why); });
            }
            return false;
        }
        return true;
    }

    void close(const std::string& reason) override { close_with(reason, true); }
    // Graceful close; keep_reading: incoming messages are still handled until the peer
    // closes (a client's close); otherwise they are discarded (a server's stop).
    void close_with(const std::string& reason, bool keep_reading) {
        asio::post(strand_, [self = this->shared_from_this(), reason, keep_reading] {
            self->begin_close(reason, keep_reading);
        });
    }
    // Closes at once, dropping what is queued.
    void abort_async(const std::string& reason) {
        asio::post(strand_, [self = this->shared_from_this(), reason] { self->abort(reason); });
    }

    std::size_t queued() const override {
        std::lock_guard<std::mutex> lock(mutex_);
        return queued_;
    }
    std::uint64_t overflows() const noexcept { return overflows_.load(); }

protected:
    // Decodes received bytes; false closes the connection with `why`.
    virtual bool deliver(const std::uint8_t* data, std::size_t size, std::string& why) = 0;
    // Bytes of an incomplete message held by the decoder.
    virtual std::size_t partial() const = 0;
    virtual void opened() {}
    virtual void closed(const std::string& reason) = 0;
    virtual void ticked() {}

private:
    enum : int { handshake_state, open_state, closing_state, closed_state };

    void begin() {
        arm_timer();
        transport_.handshake(
            stream_, server_, host_,
            asio::bind_executor(strand_, [self = this->shared_from_this()](const asio::error_code& ec) {
                if (self->state_.load() == closed_state) return;
                if (ec) return self->abort("handshake failed: " + ec.message());
                self->state_.store(open_state);
                self->last_read_ = clock::now();
                self->opened();
                self->do_read();
            }));
    }

    void arm_timer() {
        timer_.expires_after(tick_);
        timer_.async_wait(asio::bind_executor(strand_, [self = this->shared_from_this()](const asio::error_code& ec) {
            if (ec || self->state_.load() == closed_state) return;
            self->on_tick();
            if (self->state_.load() != closed_state) self->arm_timer();
        }));
    }

    static std::string ms(clock::duration d) {
        return std::to_string(std::chrono::duration_cast<milliseconds>(d).count()) + " ms";
    }

    void on_tick() {
        const auto now = clock::now();
        const int st = state_.load();
        if (st == handshake_state && options_.connect_timeout.count() > 0 && now - created_ > options_.connect_timeout)
            return abort("handshake timed out after " + ms(now - created_));
        if (partial_since_ && options_.message_timeout.count() > 0 && now - *partial_since_ > options_.message_timeout)
            return abort("message incomplete after " + ms(now - *partial_since_) + " (" + std::to_string(partial()) +
                         " bytes received)");
        if (writing_ && options_.write_timeout.count() > 0 && now - write_progress_ > options_.write_timeout)
            return abort("peer not reading: no write progress for " + ms(now - write_progress_) + " (" +
                         std::to_string(queued()) + " bytes queued)");
        if (st == open_state && options_.idle_timeout.count() > 0 && now - last_read_ > options_.idle_timeout)
            return begin_close("idle for " + ms(now - last_read_), false);
        if (st == closing_state && now > close_deadline_)
            return abort(close_reason_ + "; shutdown timed out with " + std::to_string(queued()) + " bytes unsent");
        if (st == open_state || st == closing_state) ticked();
    }

    void do_read() {
        stream_.async_read_some(
            asio::buffer(rbuf_),
            asio::bind_executor(strand_, [self = this->shared_from_this()](const asio::error_code& ec, std::size_t n) {
                self->on_read(ec, n);
            }));
    }

    void on_read(const asio::error_code& ec, std::size_t n) {
        if (state_.load() == closed_state) return;
        if (ec) {
            peer_eof_ = true;
            const std::size_t held = discard_ ? 0 : partial();
            if (held != 0)
                return abort("peer closed the connection in the middle of a message (" + std::to_string(held) +
                             " bytes received)");
            const bool eof = ec == asio::error::eof || ec.category() != asio::error::get_system_category();
            const std::string why = eof ? "peer closed the connection" : "read failed: " + ec.message();
            if (state_.load() == closing_state) return finish_if_flushed();
            if (!eof) return abort(why);
            return begin_close(why, true);
        }
        last_read_ = clock::now();
        if (!discard_) {
            std::string why;
            if (!deliver(rbuf_.data(), n, why)) return abort(why);
            if (state_.load() == closed_state) return;
            if (partial() == 0)
                partial_since_.reset();
            else if (!partial_since_)
                partial_since_ = last_read_;
        }
        do_read();
    }

    void do_write() {
        if (writing_ || state_.load() == closed_state) return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            write_posted_ = false;
            if (next_.empty()) return finish_if_flushed_locked();
            current_.swap(next_);
        }
        written_ = 0;
        writing_ = true;
        write_progress_ = clock::now();
        write_some();
    }

    void write_some() {
        stream_.async_write_some(
            asio::buffer(current_.data() + written_, current_.size() - written_),
            asio::bind_executor(strand_, [self = this->shared_from_this()](const asio::error_code& ec, std::size_t n) {
                self->on_written(ec, n);
            }));
    }

    void on_written(const asio::error_code& ec, std::size_t n) {
        if (state_.load() == closed_state) return;
        if (ec) return abort("write failed: " + ec.message());
        written_ += n;
        write_progress_ = clock::now();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            queued_ -= n;
        }
        room_.notify_all();
        if (written_ < current_.size()) return write_some();
        writing_ = false;
        current_.clear();
        if (current_.capacity() > options_.max_queued_bytes / 4 + 65536) std::vector<std::uint8_t>().swap(current_);
        do_write();
    }

    void begin_close(const std::string& reason, bool keep_reading) {
        const int st = state_.load();
        if (st == closed_state || st == closing_state) return;
        if (st == handshake_state) return abort(reason);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            state_.store(closing_state);
        }
        room_.notify_all();
        discard_ = !keep_reading;
        close_reason_ = reason;
        close_deadline_ = clock::now() + options_.shutdown_timeout;
        if (!writing_) do_write();
    }

    void finish_if_flushed() {
        if (writing_) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (!next_.empty()) return;
        finish_if_flushed_locked();
    }

    // (mutex_ held) Everything queued is written: half-close, then close once the peer
    // has closed too (or at the deadline).
    void finish_if_flushed_locked() {
        if (state_.load() != closing_state) return;
        if (!half_closed_) {
            half_closed_ = true;
            asio::error_code ignored;
            Transport::socket(stream_).shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
        }
        if (peer_eof_) asio::post(strand_, [self = this->shared_from_this()] { self->abort(self->close_reason_); });
    }

    void abort(const std::string& reason) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (state_.load() == closed_state) return;
            state_.store(closed_state);
            queued_ = 0;
            next_.clear();
        }
        room_.notify_all();
        asio::error_code ignored;
        timer_.cancel();
        Transport::socket(stream_).close(ignored);
        closed(reason);
    }

    asio::strand<asio::io_context::executor_type> strand_;
    Transport transport_;
    stream_type stream_;
    asio::steady_timer timer_;
    options options_;
    std::string name_, host_;
    bool server_;
    clock::time_point created_;
    milliseconds tick_{250};
    std::vector<std::uint8_t> rbuf_;

    mutable std::mutex mutex_;      // guards next_, queued_, write_posted_ and state_ changes
    std::condition_variable room_;  // overflow_policy::block waits here
    std::vector<std::uint8_t> next_, current_;
    std::size_t queued_ = 0;
    bool write_posted_ = false;
    std::atomic<int> state_{handshake_state};
    std::atomic<std::uint64_t> overflows_{0};

    bool writing_ = false, discard_ = false, peer_eof_ = false, half_closed_ = false;
    std::size_t written_ = 0;
    clock::time_point write_progress_, last_read_, close_deadline_;
    std::optional<clock::time_point> partial_since_;
    std::string close_reason_;
};

// Wraps a receiver to notice undecodable messages (closing the connection) while the
// user's own hooks still run.
template <class Receiver>
class guarded : public Receiver {
public:
    using Receiver::Receiver;
    bool failed = false;
    std::string why;

protected:
    void onReceiveError(const ::fastwire::protocol::receive_error& e) override {
        if (!failed) why = "protocol error: " + e.message();
        failed = true;
        Receiver::onReceiveError(e);
    }
};

}  // namespace internal

// The sending side of one server connection: a generated Sender whose bytes go to the
// connection's bounded queue. Handlers keep a reference; it is valid until the
// connection's on_disconnect hook returns.
template <class Sender>
class peer : public Sender {
public:
    peer(std::uint64_t id, std::string remote) : id_(id), remote_(std::move(remote)) {}

    // Queues one message (thread-safe). false: not queued (closed, or the queue is full
    // and the overflow policy applied).
    template <class T>
    bool send(const T& value) {
        std::lock_guard<std::mutex> lock(mutex_);
        ok_ = false;
        Sender::send(value);
        return ok_;
    }
    // Flushes what is queued, then closes.
    void close(const std::string& reason = "closed by the server") {
        if (auto l = link_.lock()) l->close(reason);
    }
    std::uint64_t id() const noexcept { return id_; }
    const std::string& remote() const noexcept { return remote_; }
    std::size_t queued() const {
        auto l = link_.lock();
        return l ? l->queued() : 0;
    }

    void bind(std::weak_ptr<internal::link_base> l) { link_ = std::move(l); }

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        auto l = link_.lock();
        ok_ = l && l->write(data, size);
        return size;  // queued or dropped: never kept in the Sender
    }

private:
    std::mutex mutex_;
    bool ok_ = false;
    std::uint64_t id_;
    std::string remote_;
    std::weak_ptr<internal::link_base> link_;
};

// A server: accepts on host:port (IPv4 or IPv6; port 0 takes an ephemeral port) and
// gives each connection a peer<Sender> and a Handler, made as Handler(peer<Sender>&) (or
// Handler() when it has no such constructor). Handler derives from a generated Receiver
// or Proxy.
template <class Handler, class Sender, class Transport = tcp>
class basic_server {
public:
    using peer_type = peer<Sender>;
    using connect_function = std::function<void(peer_type&, Handler&)>;
    using disconnect_function = std::function<void(peer_type&, Handler&, const std::string& reason)>;

    basic_server(context& ctx, const std::string& host, std::uint16_t port, options o = {}, Transport t = {})
        : io_(ctx.io()),
          acceptor_(ctx.io()),
          strand_(asio::make_strand(ctx.io())),
          options_(o),
          transport_(std::move(t)) {
        asio::error_code ec;
        const auto address = asio::ip::make_address(host, ec);
        if (ec) throw error("fastwire::net: bad address '" + host + "': " + ec.message());
        const asio::ip::tcp::endpoint ep(address, port);
        acceptor_.open(ep.protocol(), ec);
        if (!ec) acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
        if (!ec && address.is_v6()) acceptor_.set_option(asio::ip::v6_only(false), ec);
        if (!ec) acceptor_.bind(ep, ec);
        if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
        if (ec) throw error("fastwire::net: cannot listen on " + to_string(ep) + ": " + ec.message());
        local_ = acceptor_.local_endpoint();
    }
    basic_server(const basic_server&) = delete;
    basic_server& operator=(const basic_server&) = delete;
    ~basic_server() {
        if (!io_.stopped()) stop();
    }

    std::uint16_t port() const noexcept { return local_.port(); }
    std::string address() const { return to_string(local_); }

    // Set before start(). The log gets one line per accepted and per closed connection.
    void on_log(log_function f) { log_ = std::move(f); }
    void on_connect(connect_function f) { on_connect_ = std::move(f); }
    void on_disconnect(disconnect_function f) { on_disconnect_ = std::move(f); }

    void start() {
        asio::post(strand_, [this] { accept(); });
    }

    // Stops accepting, stops handling input, flushes every connection's queue, closes;
    // waits until every connection is closed (at most options::shutdown_timeout + a tick).
    void stop() {
        if (stopped_.exchange(true)) return;
        std::promise<void> done;
        asio::post(strand_, [this, &done] {
            asio::error_code ignored;
            acceptor_.close(ignored);
            done.set_value();
        });
        done.get_future().wait();
        std::unique_lock<std::mutex> lock(mutex_);
        for (auto& s : sessions_) s->close_with("server stopping", false);
        const auto deadline = clock::now() + options_.shutdown_timeout + milliseconds(1000);
        closed_.wait_until(lock, deadline, [this] { return sessions_.empty(); });
        for (auto& s : sessions_) s->abort_async("server stopped");
        closed_.wait_until(lock, deadline + milliseconds(1000), [this] { return sessions_.empty(); });
    }

    std::size_t connections() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return sessions_.size();
    }
    std::uint64_t accepted() const noexcept { return accepted_.load(); }

private:
    class session : public internal::link<Transport> {
    public:
        session(basic_server& srv, asio::ip::tcp::socket s, std::uint64_t id, const std::string& remote)
            : internal::link<Transport>(srv.io_, srv.transport_, std::move(s), srv.options_,
                                        "connection " + std::to_string(id) + " " + remote, true),
              server_(srv),
              peer_(id, remote),
              handler_(make_handler(peer_)) {
            handler_->set_limits(srv.options_.receive_limits);
        }
        void bind() { peer_.bind(this->weak_from_this()); }

    protected:
        bool deliver(const std::uint8_t* data, std::size_t size, std::string& why) override {
            const bool framed = handler_->receive(data, size);
            if (!framed || handler_->failed) {
                why = handler_->failed ? handler_->why : "protocol error: " + handler_->last_error();
                return false;
            }
            return true;
        }
        std::size_t partial() const override { return handler_->pending(); }
        void opened() override {
            if (server_.log_) server_.log_(this->name() + " accepted");
            if (server_.on_connect_) server_.on_connect_(peer_, *handler_);
        }
        void closed(const std::string& reason) override {
            if (server_.log_) server_.log_(this->name() + " closed: " + reason);
            if (server_.on_disconnect_) server_.on_disconnect_(peer_, *handler_, reason);
            server_.remove(this);
        }

    private:
        static std::unique_ptr<internal::guarded<Handler>> make_handler(peer_type& p) {
            if constexpr (std::is_constructible_v<internal::guarded<Handler>, peer_type&>)
                return std::make_unique<internal::guarded<Handler>>(p);
            else
                return std::make_unique<internal::guarded<Handler>>();
        }
        basic_server& server_;
        peer_type peer_;
        std::unique_ptr<internal::guarded<Handler>> handler_;
    };

    void accept() {
        acceptor_.async_accept(
            asio::bind_executor(strand_, [this](const asio::error_code& ec, asio::ip::tcp::socket s) {
                if (stopped_.load() || !acceptor_.is_open()) return;
                if (!ec) admit(std::move(s));
                accept();
            }));
    }

    void admit(asio::ip::tcp::socket s) {
        asio::error_code ec;
        const auto remote = s.remote_endpoint(ec);
        if (ec) return;
        s.set_option(asio::ip::tcp::no_delay(true), ec);
        const std::uint64_t id = ++accepted_;
        std::shared_ptr<session> conn;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (sessions_.size() >= options_.max_connections) {
                if (log_)
                    log_("connection " + std::to_string(id) + " " + to_string(remote) +
                         " refused: " + std::to_string(sessions_.size()) + " connections open (max_connections)");
                s.close(ec);
                return;
            }
            conn = std::make_shared<session>(*this, std::move(s), id, to_string(remote));
            conn->bind();
            sessions_.push_back(conn);
        }
        conn->start();
    }

    void remove(session* s) {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
            if (it->get() == s) {
                // The session may be running this very call: keep it alive until it returns.
                asio::post(io_, [keep = std::move(*it)] {});
                sessions_.erase(it);
                break;
            }
        if (sessions_.empty()) closed_.notify_all();
    }

    asio::io_context& io_;
    asio::ip::tcp::acceptor acceptor_;
    asio::strand<asio::io_context::executor_type> strand_;
    options options_;
    Transport transport_;
    asio::ip::tcp::endpoint local_;
    log_function log_;
    connect_function on_connect_;
    disconnect_function on_disconnect_;
    mutable std::mutex mutex_;
    std::condition_variable closed_;
    std::list<std::shared_ptr<session>> sessions_;
    std::atomic<std::uint64_t> accepted_{0};
    std::atomic<bool> stopped_{false};
};

template <class Handler, class Sender>
using server = basic_server<Handler, Sender, tcp>;

// A client: a generated Client (or a class derived from it, for its onReceive hooks)
// over one connection. Requests time out by themselves (options::request_timeout or
// their own), and fail with request_error::disconnected when the connection drops.
template <class Client, class Transport = tcp>
class basic_client {
    class bound;
    class connection;

public:
    using disconnect_function = std::function<void(const std::string& reason)>;

    template <class... Args>
    explicit basic_client(context& ctx, options o = {}, Transport t = {}, Args&&... args)
        : io_(ctx.io()), options_(o), transport_(std::move(t)), client_(std::forward<Args>(args)...) {
        client_.set_limits(options_.receive_limits);
        client_.owner_ = this;
    }
    basic_client(const basic_client&) = delete;
    basic_client& operator=(const basic_client&) = delete;
    ~basic_client() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
        }
        if (io_.stopped()) return;
        if (reconnect_timer_) {
            std::promise<void> done;
            asio::post(io_, [this, &done] {
                reconnect_timer_->cancel();
                done.set_value();
            });
            done.get_future().wait();
        }
        close();
    }

    // Connects (blocking, at most options::connect_timeout); throws net::error.
    void connect(const std::string& host, std::uint16_t port) {
        host_ = host;
        port_ = port;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = false;
        }
        auto result = std::make_shared<std::promise<std::string>>();
        auto future = result->get_future();
        start_connect([result](const std::string& failure) { result->set_value(failure); });
        const std::string failure = future.get();
        if (!failure.empty()) throw error(failure);
    }

    // Sends one message (thread-safe); false when not queued (not connected, or the
    // queue is full and the overflow policy applied).
    template <class T>
    bool send(const T& value) {
        std::lock_guard<std::mutex> lock(send_mutex_);
        client_.ok_ = false;
        client_.send(value);
        return client_.ok_;
    }

    // Sends the [request] q; the future gets the response, or a request_error: rejected,
    // timeout (after `timeout`, default options::request_timeout), disconnected, overflow.
    template <class Q>
    auto request(const Q& q, milliseconds timeout = milliseconds(0)) {
        if (timeout.count() <= 0) timeout = options_.request_timeout;
        std::lock_guard<std::mutex> lock(send_mutex_);
        client_.ok_ = false;
        client_.why_.clear();
        auto future = client_.request(q, static_cast<std::uint64_t>(timeout.count()));
        if (!client_.ok_)
            client_.fail_request(q.*(::fastwire::protocol::message_traits<Q>::id),
                                 client_.why_.empty() ? ::fastwire::protocol::request_error::disconnected
                                                      : ::fastwire::protocol::request_error::overflow,
                                 client_.why_.empty() ? "failed: not connected" : client_.why_);
        return future;
    }

    // Flushes what is queued, waits for the server to close its side (answers to requests
    // in flight still arrive), then closes; no reconnect. Blocks up to shutdown_timeout.
    void close() {
        std::shared_ptr<connection> c;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            closing_ = true;
            c = conn_;
        }
        if (!c) return;
        c->close_with("closed by the client", true);
        std::unique_lock<std::mutex> lock(mutex_);
        closed_cv_.wait_until(lock, clock::now() + options_.shutdown_timeout + milliseconds(1000),
                              [&] { return conn_ != c; });
    }

    bool connected() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return conn_ && conn_->is_open();
    }
    std::size_t queued() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return conn_ ? conn_->queued() : 0;
    }
    std::uint64_t connects() const noexcept { return connects_.load(); }
    // The Client: its hooks run on the I/O thread; its counters are readable.
    Client& handler() noexcept { return client_; }

    void on_log(log_function f) { log_ = std::move(f); }
    // Runs on the I/O thread when the connection drops, before its pending requests fail.
    void on_disconnect(disconnect_function f) { on_disconnect_ = std::move(f); }

private:
    class bound : public internal::guarded<Client> {
    public:
        using internal::guarded<Client>::guarded;
        basic_client* owner_ = nullptr;
        bool ok_ = false;
        std::string why_;

    protected:
        std::size_t onSend(const void* data, std::size_t size) override {
            std::shared_ptr<connection> c;
            {
                std::lock_guard<std::mutex> lock(owner_->mutex_);
                c = owner_->conn_;
            }
            ok_ = c && c->write(data, size);
            if (c && !ok_ && c->is_open()) why_ = "failed: send queue full";
            return size;
        }
    };

    class connection : public internal::link<Transport> {
    public:
        connection(basic_client& cl, asio::ip::tcp::socket s, std::string name)
            : internal::link<Transport>(cl.io_, cl.transport_, std::move(s), cl.options_, std::move(name), false,
                                        cl.host_),
              client_(cl) {}
        std::function<void(const std::string&)> on_open;

    protected:
        bool deliver(const std::uint8_t* data, std::size_t size, std::string& why) override {
            auto& h = client_.client_;
            const bool framed = h.receive(data, size);
            if (!framed || h.failed) {
                why = h.failed ? h.why : "protocol error: " + h.last_error();
                h.failed = false;
                return false;
            }
            return true;
        }
        std::size_t partial() const override { return client_.client_.pending(); }
        void opened() override {
            if (on_open) std::exchange(on_open, nullptr)(std::string());
        }
        void ticked() override { client_.client_.watchdog(utc()); }
        void closed(const std::string& reason) override {
            if (on_open) std::exchange(on_open, nullptr)(this->name() + ": " + reason);
            client_.dropped(this, reason);
        }

    private:
        basic_client& client_;
    };

    // Connects asynchronously; done("") once open, done(why) on failure.
    void start_connect(std::function<void(const std::string&)> done) {
        const std::string target = host_ + ":" + std::to_string(port_);
        asio::error_code ec;
        asio::ip::tcp::resolver resolver(io_);
        const auto endpoints = resolver.resolve(host_, std::to_string(port_), ec);
        if (ec) return done("fastwire::net: cannot resolve " + target + ": " + ec.message());
        struct attempt {
            asio::ip::tcp::socket socket;
            asio::steady_timer timer;
            bool finished = false;
            attempt(asio::io_context& io) : socket(io), timer(io) {}
        };
        auto strand = asio::make_strand(io_);
        auto a = std::make_shared<attempt>(io_);
        a->timer.expires_after(options_.connect_timeout);
        a->timer.async_wait(asio::bind_executor(strand, [a](const asio::error_code& e) {
            if (!e && !a->finished) {
                asio::error_code ignored;
                a->socket.close(ignored);
            }
        }));
        asio::async_connect(
            a->socket, endpoints,
            asio::bind_executor(
                strand, [this, a, target, done](const asio::error_code& e, const asio::ip::tcp::endpoint&) {
                    a->finished = true;
                    a->timer.cancel();
                    if (e) {
                        const bool timed_out = !a->socket.is_open() || e == asio::error::operation_aborted;
                        return done("fastwire::net: cannot connect to " + target + ": " +
                                    (timed_out
                                         ? "timed out after " + std::to_string(options_.connect_timeout.count()) + " ms"
                                         : e.message()));
                    }
                    asio::error_code ignored;
                    a->socket.set_option(asio::ip::tcp::no_delay(true), ignored);
                    auto c = std::make_shared<connection>(*this, std::move(a->socket), "connection to " + target);
                    c->on_open = done;
                    {
                        std::lock_guard<std::mutex> lock(mutex_);
                        if (conn_ && !conn_->is_closed()) conn_->abort_async("replaced by a new connection");
                        conn_ = c;
                    }
                    {
                        std::lock_guard<std::mutex> lock(send_mutex_);
                        client_.reset_input();
                    }
                    ++connects_;
                    c->start();
                }));
    }

    void dropped(connection* c, const std::string& reason) {
        bool reconnect = false;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (conn_.get() != c) return;
            asio::post(io_, [keep = std::move(conn_)] {});
            conn_.reset();
            reconnect = !closing_ && options_.reconnect_delay.count() > 0;
        }
        if (log_) log_(c->name() + " closed: " + reason);
        // The hook first: a caller woken by a failed request sees the drop fully handled.
        if (on_disconnect_) on_disconnect_(reason);
        client_.fail_pending(::fastwire::protocol::request_error::disconnected,
                             "failed: connection closed (" + reason + ")");
        closed_cv_.notify_all();
        if (reconnect) schedule_reconnect(options_.reconnect_delay);
    }

    void schedule_reconnect(milliseconds delay) {
        if (!reconnect_timer_) reconnect_timer_ = std::make_unique<asio::steady_timer>(io_);
        reconnect_timer_->expires_after(delay);
        reconnect_timer_->async_wait([this, delay](const asio::error_code& ec) {
            if (ec) return;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (closing_) return;
            }
            start_connect([this, delay](const std::string& failure) {
                if (failure.empty()) {
                    if (log_) log_("reconnected to " + host_ + ":" + std::to_string(port_));
                    return;
                }
                if (log_) log_(failure + "; retrying");
                const milliseconds next = std::min(delay * 2, options_.reconnect_max_delay);
                asio::post(io_, [this, next] { schedule_reconnect(next); });
            });
        });
    }

    asio::io_context& io_;
    options options_;
    Transport transport_;
    std::string host_;
    std::uint16_t port_ = 0;
    log_function log_;
    disconnect_function on_disconnect_;
    mutable std::mutex mutex_;  // conn_, closing_
    std::mutex send_mutex_;     // the Client's sender side
    std::condition_variable closed_cv_;
    std::shared_ptr<connection> conn_;
    bool closing_ = false;
    std::unique_ptr<asio::steady_timer> reconnect_timer_;
    std::atomic<std::uint64_t> connects_{0};

    struct client_holder : bound {
        using bound::bound;
        void reset_input() {
            static_cast<::fastwire::protocol::basic_receiver<typename Client::format>&>(*this).reset();
        }
    };
    client_holder client_;
};

template <class Client>
using client = basic_client<Client, tcp>;

}  // namespace net
}  // namespace fastwire
