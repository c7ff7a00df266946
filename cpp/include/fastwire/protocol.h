// fastwire/protocol.h - the Sender / Receiver / Proxy / Client protocol (spec §5).
//
// A stream is root models back to back, with no extra framing: each message's first u32
// is its whole size. Generated <package>_protocol.h headers derive named classes
// (Sender, Receiver, Proxy, Client; with --final also FinalSender, …) from the templates
// here, listing the package's messages (or all its structs when it declares none).
//
//   class MySender : public protocol::Sender {
//       std::size_t onSend(const void* data, std::size_t size) override {
//           return ::send(fd, data, size, 0);      // bytes taken; the rest stays queued
//       }
//   };
//   class MyReceiver : public protocol::Receiver {
//       void onReceive(const protocol::OrderMessage& m) override { … }
//       void onReceiveError(const fastwire::protocol::receive_error& e) override { … }
//   };
//   sender.send(protocol::OrderMessage{…});
//   receiver.receive(chunk, n);                      // any chunking
//
// Receiver rules:
// - Chunks of any size are reassembled; complete messages in a chunk are decoded in
//   place, only an incomplete tail is copied.
// - A message whose size is below the format's minimum (16 versioned, 8 final) or above
//   limits::max_message_size cannot be framed: onReceiveError(kind = bad_size) is called,
//   and the receiver DROPS the rest of that chunk and anything buffered, and starts again
//   with the next chunk as a new message. Framing is lost at that point, so a transport
//   should close the connection: receive() returns false to say so.
// - A message of a type the package does not know is skipped (framing is intact) and
//   reported to onReceiveUnknown(type, data, size) (and the log).
// - A known message that fails to decode (verify error) is skipped and reported to
//   onReceiveError(kind = bad_message); the stream continues with the next message.
// Logging: logging(true) makes send() call onSendLog("Order(uid=1,…)") and the receiver
// onReceiveLog(…) with each value's text.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fastwire/buffer.h>
#include <fastwire/endian.h>
#include <fastwire/final_model.h>
#include <fastwire/limits.h>
#include <fastwire/model.h>
#include <fastwire/schema.h>
#include <fastwire/status.h>
#include <fastwire/timestamp.h>
#include <fastwire/uuid.h>
#include <fastwire/versioned.h>

namespace fastwire {
namespace protocol {

template <class... Ts>
struct type_list {};

// Generated for messages (specialise in namespace fastwire::protocol):
//   message_traits<Q> for a [request] message Q:
//     static constexpr auto id = &Q::id;        // its [id] uuid field
//     using response = R;                        // or void without [response]
//     using rejects = type_list<X, …>;           // [reject(…)] types (global ones too)
//   message_traits<R> for every other message with an [id] field:
//     static constexpr auto id = &R::id;
template <class T>
struct message_traits {};

template <class T, class = void>
struct has_id : std::false_type {};
template <class T>
struct has_id<T, std::void_t<decltype(message_traits<T>::id)>> : std::true_type {};

template <class T, class = void>
struct is_request : std::false_type {};
template <class T>
struct is_request<T, std::void_t<typename message_traits<T>::response>> : std::true_type {};

template <class T, class List>
struct contains;
template <class T, class... Ts>
struct contains<T, type_list<Ts...>> : std::bool_constant<(std::is_same_v<T, Ts> || ...)> {};

// ---- formats ----------------------------------------------------------------------------------

// The versioned format: [u32 full_size][u32 root offset][u32 struct size][u32 type]…
struct versioned_format {
    static constexpr const char* name = "versioned";
    static constexpr std::size_t min_size = 16;

    template <class S>
    using model = ::fastwire::versioned::model<S>;

    // Appends `value` as one message to `out`; returns its size.
    template <class S>
    static std::size_t serialize(::fastwire::buffer& out, const S& value) {
        const std::size_t n = ::fastwire::versioned::model_size(value);
        ::fastwire::versioned::write_root(out.append(n), n, value);
        return n;
    }

    // The type number of a whole message of `size` (>= min_size) bytes; false when the
    // root offset does not lead to a struct header inside the message.
    static bool type_of(const std::uint8_t* msg, std::size_t size, std::uint32_t& type) noexcept {
        const std::uint32_t root = load_le<std::uint32_t>(msg + 4);
        if (root < 8 || root > size - 8) return false;
        type = load_le<std::uint32_t>(msg + root + 4);
        return true;
    }

    template <class S>
    static status deserialize(const std::uint8_t* msg, std::size_t size, S& out, const limits& lim) {
        model<S> m(lim);
        m.attach(msg, size);
        return m.deserialize(out);
    }
};

// The final format: [u32 size][u32 type][fields…].
struct final_format {
    static constexpr const char* name = "final";
    static constexpr std::size_t min_size = 8;

    template <class S>
    using model = ::fastwire::final_model<S>;

    // Appends `value` as one message to `out`; returns its size.
    template <class S>
    static std::size_t serialize(::fastwire::buffer& out, const S& value) {
        const std::size_t n = ::fastwire::final::model_size(value);
        ::fastwire::final::write_root(out.append(n), n, value);
        return n;
    }

    static bool type_of(const std::uint8_t* msg, std::size_t, std::uint32_t& type) noexcept {
        type = load_le<std::uint32_t>(msg + 4);
        return true;
    }

    template <class S>
    static status deserialize(const std::uint8_t* msg, std::size_t size, S& out, const limits& lim) {
        model<S> m(lim);
        m.attach(msg, size);
        return m.deserialize(out);
    }
};

// ---- sender ---------------------------------------------------------------------------------------

template <class T>
std::string text_of(const T& value) {
    std::ostringstream os;
    os << value;
    return os.str();
}

// Serializes messages into a queue and offers the queued bytes to onSend().
template <class Format, class Messages>
class sender;

template <class Format, class... Ts>
class sender<Format, type_list<Ts...>> {
public:
    using format = Format;
    using messages = type_list<Ts...>;

    sender() = default;
    sender(const sender&) = delete;
    sender& operator=(const sender&) = delete;
    virtual ~sender() = default;

    // Serializes `value` at the end of the queue, then offers the whole queue to
    // onSend(); returns the message's size.
    template <class T, std::enable_if_t<contains<T, messages>::value, int> = 0>
    std::size_t send(const T& value) {
        const std::size_t n = Format::serialize(queue_, value);
        ++sent_;
        if (logging_) onSendLog(text_of(value));
        flush();
        return n;
    }

    // Offers the queued bytes to onSend() again (after it took fewer than offered);
    // returns how many it took.
    std::size_t flush() {
        const std::size_t pending = queue_.size() - head_;
        if (pending == 0) return 0;
        std::size_t taken = onSend(queue_.data() + head_, pending);
        if (taken > pending) taken = pending;
        head_ += taken;
        if (head_ == queue_.size()) {
            queue_.clear();
            head_ = 0;
        } else if (head_ >= 4096 && head_ > queue_.size() / 2) {
            const std::size_t rest = queue_.size() - head_;
            std::memmove(queue_.data(), queue_.data() + head_, rest);
            queue_.resize(rest);
            head_ = 0;
        }
        return taken;
    }

    // The bytes serialized and not yet taken by onSend().
    buffer_view buffer() const noexcept { return buffer_view(queue_.data() + head_, queue_.size() - head_); }
    // Drops the queued bytes.
    void reset() noexcept {
        queue_.clear();
        head_ = 0;
    }

    void logging(bool on) noexcept { logging_ = on; }
    bool logging() const noexcept { return logging_; }
    std::uint64_t messages_sent() const noexcept { return sent_; }

protected:
    // Takes up to `size` bytes for sending; returns how many it took (the rest stays
    // queued for the next send() or flush()).
    virtual std::size_t onSend(const void* data, std::size_t size) = 0;
    virtual void onSendLog(const std::string& message) const { (void)message; }

private:
    ::fastwire::buffer queue_;
    std::size_t head_ = 0;
    std::uint64_t sent_ = 0;
    bool logging_ = false;
};

// ---- receiver -------------------------------------------------------------------------------------

// What went wrong with a received message.
struct receive_error {
    enum kind_type : std::uint8_t {
        bad_size,     // the size field is below the minimum or above limits::max_message_size:
                      // framing is lost; the chunk's rest and the buffered bytes were dropped
        bad_message,  // a known type that does not decode; the message was skipped
    };
    kind_type kind;
    std::uint32_t type = 0;    // bad_message: the message's type
    std::uint64_t size = 0;    // the message's size field
    std::uint64_t offset = 0;  // stream position of the message (bad_size: of its size field), counting
                               // every byte received, dropped ones included
    errc code = errc::ok;      // bad_message: why it does not decode
    std::string message() const {
        std::string m = kind == bad_size ? "bad message size " : "undecodable message of type ";
        m += std::to_string(kind == bad_size ? size : type);
        m += " at stream offset " + std::to_string(offset);
        if (kind == bad_message) {
            m += ": ";
            m += fastwire::message(code);
        }
        return m;
    }
};

// Reassembles messages from chunks and hands each whole one to dispatch().
template <class Format>
class basic_receiver {
public:
    basic_receiver() = default;
    explicit basic_receiver(const limits& lim) : limits_(lim) {}
    basic_receiver(const basic_receiver&) = delete;
    basic_receiver& operator=(const basic_receiver&) = delete;
    virtual ~basic_receiver() = default;

    // Feeds received bytes. Returns false when a framing error occurred in this chunk
    // (see onReceiveError: the rest of the chunk was dropped).
    bool receive(const void* data, std::size_t size) {
        const auto* p = static_cast<const std::uint8_t*>(data);
        const std::uint8_t* const begin = p;
        const std::uint8_t* const end = p + size;
        const std::uint64_t base = stream_;  // stream position of this chunk
        stream_ += size;
        if (!partial_.empty()) {
            // Complete the size field, then the message.
            if (partial_.size() < 4) {
                const std::size_t take = std::min<std::size_t>(4 - partial_.size(), static_cast<std::size_t>(end - p));
                partial_.append(p, take);
                p += take;
                if (partial_.size() < 4) return true;
                if (!check_size(load_le<std::uint32_t>(partial_.data())))
                    return drop(load_le<std::uint32_t>(partial_.data()), partial_at_);
            }
            const std::size_t need = load_le<std::uint32_t>(partial_.data());
            const std::size_t take = std::min(need - partial_.size(), static_cast<std::size_t>(end - p));
            partial_.append(p, take);
            p += take;
            if (partial_.size() < need) return true;
            deliver(partial_.data(), need, partial_at_);
            partial_.clear();
        }
        while (end - p >= 4) {
            const std::uint32_t n = load_le<std::uint32_t>(p);
            if (!check_size(n)) return drop(n, base + static_cast<std::uint64_t>(p - begin));
            if (static_cast<std::size_t>(end - p) < n) break;
            deliver(p, n, base + static_cast<std::uint64_t>(p - begin));
            p += n;
        }
        if (p != end) {
            partial_at_ = base + static_cast<std::uint64_t>(p - begin);
            partial_.append(p, static_cast<std::size_t>(end - p));
        }
        return true;
    }

    // Forgets a partly received message (e.g. after a reconnect).
    void reset() noexcept {
        partial_.clear();
        stream_ = 0;
    }

    void logging(bool on) noexcept { logging_ = on; }
    bool logging() const noexcept { return logging_; }
    const limits& get_limits() const noexcept { return limits_; }
    void set_limits(const limits& lim) noexcept { limits_ = lim; }
    std::uint64_t messages_received() const noexcept { return received_; }
    // Messages that were reported to onReceiveError or onReceiveUnknown, and the text of
    // the last such report.
    std::uint64_t errors() const noexcept { return errors_; }
    const std::string& last_error() const noexcept { return last_error_; }
    // Bytes of a message still incomplete.
    std::size_t pending() const noexcept { return partial_.size(); }

protected:
    // Decodes and handles one whole message; returns false when the type is not one of
    // the package's (generated classes implement this).
    virtual bool dispatch(std::uint32_t type, const std::uint8_t* data, std::size_t size) = 0;

    virtual void onReceiveUnknown(std::uint32_t type, const void* data, std::size_t size) {
        (void)type, (void)data, (void)size;
    }
    virtual void onReceiveError(const receive_error& error) { (void)error; }
    virtual void onReceiveLog(const std::string& message) const { (void)message; }

    // Reports a message that is skipped (counted in errors()).
    void report_error(const receive_error& e) { report(e); }

    // For dispatch(): decodes a message of type T into `slot`, reporting failures.
    template <class T>
    bool decode(const std::uint8_t* data, std::size_t size, T& slot) {
        const status s = Format::deserialize(data, size, slot, limits_);
        if (!s) {
            receive_error e{receive_error::bad_message};
            e.type = struct_schema<T>::type;
            e.size = size;
            e.offset = current_;
            e.code = s.code();
            report(e);
            return false;
        }
        ++received_;
        if (logging_) onReceiveLog(text_of(slot));
        return true;
    }

private:
    void report(const receive_error& e) {
        ++errors_;
        last_error_ = e.message();
        if (logging_) onReceiveLog("error: " + last_error_);
        onReceiveError(e);
    }

    bool check_size(std::uint32_t n) const noexcept { return n >= Format::min_size && n <= limits_.max_message_size; }

    bool drop(std::uint32_t size, std::uint64_t at) {
        receive_error e{receive_error::bad_size};
        e.size = size;
        e.offset = at;
        partial_.clear();
        report(e);
        return false;
    }

    void deliver(const std::uint8_t* msg, std::size_t n, std::uint64_t at) {
        current_ = at;
        std::uint32_t type = 0;
        if (!Format::type_of(msg, n, type)) {
            receive_error e{receive_error::bad_message};
            e.size = n;
            e.offset = current_;
            e.code = errc::bad_offset;
            report(e);
            return;
        }
        if (!dispatch(type, msg, n)) {
            ++errors_;
            last_error_ = "unknown message type " + std::to_string(type) + " (" + std::to_string(n) +
                          " bytes) at stream offset " + std::to_string(current_) + " skipped";
            if (logging_) onReceiveLog(last_error_);
            onReceiveUnknown(type, msg, n);
        }
    }

    ::fastwire::buffer partial_;
    limits limits_;
    std::uint64_t stream_ = 0;      // bytes received so far, dropped ones included
    std::uint64_t partial_at_ = 0;  // stream offset of partial_'s first byte
    std::uint64_t current_ = 0;     // stream offset of the message being dispatched
    std::uint64_t received_ = 0;
    std::uint64_t errors_ = 0;
    std::string last_error_;
    bool logging_ = false;
};

// One onReceive(const T&) hook per message type.
template <class T>
class receive_handler {
public:
    virtual ~receive_handler() = default;
    virtual void onReceive(const T& value) { (void)value; }
};

template <class Format, class Messages>
class receiver;

template <class Format, class... Ts>
class receiver<Format, type_list<Ts...>> : public basic_receiver<Format>, public receive_handler<Ts>... {
public:
    using format = Format;
    using messages = type_list<Ts...>;
    using basic_receiver<Format>::basic_receiver;
    using receive_handler<Ts>::onReceive...;

protected:
    bool dispatch(std::uint32_t type, const std::uint8_t* data, std::size_t size) override {
        bool known = false;
        (void)((type == struct_schema<Ts>::type ? (known = true, handle<Ts>(data, size), true) : false) || ...);
        return known;
    }

    // Called with each decoded message before onReceive(); the Client intercepts
    // responses and rejects here. Returns true when the message was consumed.
    virtual bool intercept(std::uint32_t type, const void* value) {
        (void)type, (void)value;
        return false;
    }

private:
    template <class T>
    void handle(const std::uint8_t* data, std::size_t size) {
        T& slot = std::get<T>(values_);
        if (!this->decode(data, size, slot)) return;
        if (intercept(struct_schema<T>::type, &slot)) return;
        static_cast<receive_handler<T>&>(*this).onReceive(slot);
    }

    std::tuple<Ts...> values_;  // reused: decoding keeps strings' and vectors' capacity
};

// ---- proxy ----------------------------------------------------------------------------------------

// One onProxy hook per message type: the message's model, attached to the received bytes
// and verified, without deserializing.
template <class Format, class T>
class proxy_handler {
public:
    virtual ~proxy_handler() = default;
    virtual void onProxy(const typename Format::template model<T>& model, std::uint32_t type, const void* data,
                         std::size_t size) {
        (void)model, (void)type, (void)data, (void)size;
    }
};

template <class Format, class Messages>
class proxy;

template <class Format, class... Ts>
class proxy<Format, type_list<Ts...>> : public basic_receiver<Format>, public proxy_handler<Format, Ts>... {
public:
    using format = Format;
    using messages = type_list<Ts...>;
    using basic_receiver<Format>::basic_receiver;
    using proxy_handler<Format, Ts>::onProxy...;

protected:
    bool dispatch(std::uint32_t type, const std::uint8_t* data, std::size_t size) override {
        bool known = false;
        (void)((type == struct_schema<Ts>::type ? (known = true, handle<Ts>(type, data, size), true) : false) || ...);
        return known;
    }

private:
    template <class T>
    void handle(std::uint32_t type, const std::uint8_t* data, std::size_t size) {
        typename Format::template model<T> m(this->get_limits());
        m.attach(data, size);
        const status s = m.verify();
        if (!s) {
            receive_error e{receive_error::bad_message};
            e.type = type;
            e.size = size;
            e.code = s.code();
            this->report_error(e);
            return;
        }
        static_cast<proxy_handler<Format, T>&>(*this).onProxy(m, type, data, size);
    }
};

// ---- client ---------------------------------------------------------------------------------------

// A request failed: rejected by the peer (type = the reject message's type), timed out
// (watchdog), canceled (reset) or failed by a transport (disconnected: the connection
// dropped or was never up; overflow: the send queue was full).
class request_error : public std::runtime_error {
public:
    enum kind_type : std::uint8_t { rejected, timeout, canceled, disconnected, overflow };
    request_error(kind_type k, std::uint32_t type, const std::string& what)
        : std::runtime_error(what), kind_(k), type_(type) {}
    kind_type kind() const noexcept { return kind_; }
    std::uint32_t type() const noexcept { return type_; }

private:
    kind_type kind_;
    std::uint32_t type_;
};

namespace internal {
template <class R>
struct response_of {
    using type = R;
};
template <class Q, class = void>
struct rejects_of {
    using type = type_list<>;
};
template <class Q>
struct rejects_of<Q, std::void_t<typename message_traits<Q>::rejects>> {
    using type = typename message_traits<Q>::rejects;
};
}  // namespace internal

// Sender + Receiver with requests: request(q) sends q and returns a future fulfilled by
// the response whose [id] equals q's, or failed by a matching reject, by watchdog(now)
// after the timeout, or by reset().
template <class Format, class Messages>
class client;

template <class Format, class... Ts>
class client<Format, type_list<Ts...>> : public sender<Format, type_list<Ts...>>,
                                         public receiver<Format, type_list<Ts...>> {
    using sender_base = sender<Format, type_list<Ts...>>;
    using receiver_base = receiver<Format, type_list<Ts...>>;

public:
    using format = Format;
    using messages = type_list<Ts...>;
    using receiver_base::onReceive;
    using sender_base::send;

    // Sends the [request] message q. timeout_ms 0 waits forever (until reset()).
    template <class Q, std::enable_if_t<is_request<Q>::value && contains<Q, messages>::value, int> = 0>
    auto request(const Q& q, std::uint64_t timeout_ms = 0) {
        using R = typename message_traits<Q>::response;
        if constexpr (std::is_void_v<R>) {
            (void)timeout_ms;
            std::promise<void> done;
            this->send(q);
            done.set_value();
            return done.get_future();
        } else {
            auto promise = std::make_shared<std::promise<R>>();
            auto future = promise->get_future();
            pending_request p;
            p.sent_ns = utc();
            p.timeout_ns = timeout_ms * 1000000u;
            p.response_type = struct_schema<R>::type;
            p.accepts = [](std::uint32_t type) {
                return accepts_reject(type, typename internal::rejects_of<Q>::type{});
            };
            p.resolve = [promise](const void* value) { promise->set_value(*static_cast<const R*>(value)); };
            p.fail = [promise](std::exception_ptr e) { promise->set_exception(std::move(e)); };
            {
                std::lock_guard<std::mutex> lock(mutex_);
                pending_[q.*(message_traits<Q>::id)] = std::move(p);
            }
            this->send(q);
            return future;
        }
    }

    // Fails every request older than its timeout at time `now_ns` (ns since the epoch);
    // returns how many.
    std::size_t watchdog(std::uint64_t now_ns) {
        std::map<uuid, pending_request> expired;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (auto it = pending_.begin(); it != pending_.end();) {
                const auto& p = it->second;
                if (p.timeout_ns != 0 && now_ns >= p.sent_ns && now_ns - p.sent_ns >= p.timeout_ns) {
                    expired.insert(std::move(*it));
                    it = pending_.erase(it);
                } else {
                    ++it;
                }
            }
        }
        for (auto& [id, p] : expired)
            p.fail(std::make_exception_ptr(
                request_error(request_error::timeout, 0, "request " + id.to_string() + " timed out")));
        return expired.size();
    }

    // Fails every pending request, drops queued output and any partial input.
    void reset() {
        fail_pending(request_error::canceled, "canceled");
        sender_base::reset();
        receiver_base::reset();
    }

    // For transports: fails every pending request ("request <id> <why>"); returns how many.
    std::size_t fail_pending(request_error::kind_type kind, const std::string& why) {
        std::map<uuid, pending_request> all;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            all.swap(pending_);
        }
        for (auto& [id, p] : all)
            p.fail(std::make_exception_ptr(request_error(kind, 0, "request " + id.to_string() + " " + why)));
        return all.size();
    }

    // For transports: fails the pending request `id` (e.g. its bytes could not be queued);
    // false when it is not pending.
    bool fail_request(const uuid& id, request_error::kind_type kind, const std::string& why) {
        pending_request p;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = pending_.find(id);
            if (it == pending_.end()) return false;
            p = std::move(it->second);
            pending_.erase(it);
        }
        p.fail(std::make_exception_ptr(request_error(kind, 0, "request " + id.to_string() + " " + why)));
        return true;
    }

    void logging(bool on) noexcept {
        sender_base::logging(on);
        receiver_base::logging(on);
    }

    std::size_t pending_requests() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return pending_.size();
    }

protected:
    bool intercept(std::uint32_t type, const void* value) override {
        bool done = false;
        (void)((type == struct_schema<Ts>::type ? (done = match<Ts>(type, value), true) : false) || ...);
        return done;
    }

private:
    struct pending_request {
        std::uint64_t sent_ns = 0;
        std::uint64_t timeout_ns = 0;
        std::uint32_t response_type = 0;
        bool (*accepts)(std::uint32_t) = nullptr;
        std::function<void(const void*)> resolve;
        std::function<void(std::exception_ptr)> fail;
    };

    template <class... Xs>
    static bool accepts_reject(std::uint32_t type, type_list<Xs...>) {
        return ((type == struct_schema<Xs>::type) || ...);
    }

    template <class T>
    bool match(std::uint32_t type, const void* value) {
        if constexpr (!has_id<T>::value) {
            (void)type, (void)value;
            return false;
        } else {
            const T& v = *static_cast<const T*>(value);
            pending_request p;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                auto it = pending_.find(v.*(message_traits<T>::id));
                if (it == pending_.end()) return false;
                const bool response = it->second.response_type == type;
                if (!response && !it->second.accepts(type)) return false;
                p = std::move(it->second);
                pending_.erase(it);
            }
            if (p.response_type == type)
                p.resolve(value);
            else
                p.fail(std::make_exception_ptr(request_error(request_error::rejected, type, text_of(v))));
            return true;
        }
    }

    mutable std::mutex mutex_;
    std::map<uuid, pending_request> pending_;
};

}  // namespace protocol
}  // namespace fastwire
