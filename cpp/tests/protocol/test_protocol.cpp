// Sender / Receiver / Proxy / Client: golden protocol streams, every split of them, the
// error hooks and their recovery, logging, and request/response on everything.fbe.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "everything_protocol.h"
#include "proto_protocol.h"
#include "protocol_final_protocol.h"  // both families in one translation unit
#include "protocol_protocol.h"

namespace {

std::vector<std::uint8_t> hex_vector(const std::string& name) {
    std::ifstream f(std::string(FASTWIRE_VECTORS_DIR) + "/" + name);
    std::vector<std::uint8_t> out;
    std::string tok;
    while (f >> tok) out.push_back(static_cast<std::uint8_t>(std::stoul(tok, nullptr, 16)));
    return out;
}

proto::Account seed_account() {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);
    return account;
}
proto::Order seed_order() {
    return proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
}
proto::Balance seed_balance() { return proto::Balance("USD", 1000.0); }

template <class Base>
class RecordingSender : public Base {
public:
    std::size_t take = SIZE_MAX;  // bytes onSend accepts per call
    std::vector<std::uint8_t> wire;
    std::vector<std::string> log;

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        const std::size_t n = std::min(size, take);
        const auto* p = static_cast<const std::uint8_t*>(data);
        wire.insert(wire.end(), p, p + n);
        return n;
    }
    void onSendLog(const std::string& message) const override {
        const_cast<RecordingSender*>(this)->log.push_back(message);
    }
};

template <class Base>
class RecordingReceiver : public Base {
public:
    std::vector<std::string> got;  // the text of each message, in order
    std::vector<std::string> log;
    std::vector<std::uint32_t> unknown;
    std::vector<fastwire::protocol::receive_error> errors;

protected:
    void onReceive(const protocol::OrderMessage& v) override { got.push_back(fastwire::protocol::text_of(v)); }
    void onReceive(const protocol::BalanceMessage& v) override { got.push_back(fastwire::protocol::text_of(v)); }
    void onReceive(const protocol::AccountMessage& v) override { got.push_back(fastwire::protocol::text_of(v)); }
    void onReceiveUnknown(std::uint32_t type, const void*, std::size_t) override { unknown.push_back(type); }
    void onReceiveError(const fastwire::protocol::receive_error& e) override { errors.push_back(e); }
    void onReceiveLog(const std::string& message) const override {
        const_cast<RecordingReceiver*>(this)->log.push_back(message);
    }
};

std::vector<std::string> expected_texts() {
    return {fastwire::protocol::text_of(protocol::OrderMessage(seed_order())),
            fastwire::protocol::text_of(protocol::BalanceMessage(seed_balance())),
            fastwire::protocol::text_of(protocol::AccountMessage(seed_account()))};
}

template <class SenderBase>
std::vector<std::uint8_t> send_seed_messages(RecordingSender<SenderBase>& s) {
    s.send(protocol::OrderMessage(seed_order()));
    s.send(protocol::BalanceMessage(seed_balance()));
    s.send(protocol::AccountMessage(seed_account()));
    return s.wire;
}

// Feeds `stream` split at i and j (three chunks) and checks three messages arrive.
template <class ReceiverBase>
void check_every_split(const std::vector<std::uint8_t>& stream) {
    const auto expected = expected_texts();
    RecordingReceiver<ReceiverBase> r;
    const std::size_t n = stream.size();
    for (std::size_t i = 0; i <= n; ++i) {
        for (std::size_t j = i; j <= n; ++j) {
            r.got.clear();
            r.receive(stream.data(), i);
            r.receive(stream.data() + i, j - i);
            r.receive(stream.data() + j, n - j);
            ASSERT_EQ(r.got, expected) << "split at " << i << ", " << j;
            ASSERT_EQ(r.pending(), 0u);
        }
    }
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.unknown.empty());
}

}  // namespace

TEST(Protocol, SchemaNumbersTheMessagesOneTwoThree) {
    EXPECT_EQ(fastwire::struct_schema<protocol::OrderMessage>::type, 1u);
    EXPECT_EQ(fastwire::struct_schema<protocol::BalanceMessage>::type, 2u);
    EXPECT_EQ(fastwire::struct_schema<protocol::AccountMessage>::type, 3u);
}

TEST(Protocol, SenderIsByteExactWithTheGoldenStream) {
    RecordingSender<protocol::Sender> s;
    EXPECT_EQ(send_seed_messages(s), hex_vector("protocol.hex"));
    EXPECT_EQ(s.wire.size(), 375u);
    EXPECT_EQ(s.buffer().size(), 0u);
}

TEST(Protocol, UnsentBytesStayQueued) {
    RecordingSender<protocol::Sender> s;
    s.take = 0;  // the seed's "send nothing"
    send_seed_messages(s);
    const auto golden = hex_vector("protocol.hex");
    ASSERT_EQ(s.buffer().size(), golden.size());
    EXPECT_TRUE(std::equal(golden.begin(), golden.end(), s.buffer().data()));
    s.take = 7;  // a slow socket: 7 bytes per call
    while (s.buffer().size() != 0) ASSERT_GT(s.flush(), 0u);
    EXPECT_EQ(s.wire, golden);
}

TEST(Protocol, ReceiverEverySplitVersioned) { check_every_split<protocol::Receiver>(hex_vector("protocol.hex")); }

TEST(Protocol, FinalSenderIsByteExact) {
    RecordingSender<protocol::FinalSender> s;
    EXPECT_EQ(send_seed_messages(s), hex_vector("protocol.final.hex"));
}
TEST(Protocol, ReceiverEverySplitFinal) {
    check_every_split<protocol::FinalReceiver>(hex_vector("protocol.final.hex"));
}

TEST(Protocol, LoggingPrintsEachValue) {
    RecordingSender<protocol::Sender> s;
    s.logging(true);
    const auto stream = send_seed_messages(s);
    RecordingReceiver<protocol::Receiver> r;
    r.logging(true);
    r.receive(stream.data(), stream.size());
    EXPECT_EQ(s.log, expected_texts());
    EXPECT_EQ(r.log, expected_texts());
    EXPECT_EQ(s.log[0],
              "OrderMessage(body=Order(uid=1,symbol=\"EURUSD\",side=buy,type=market,price=1.23456,volume=1000))");
}

TEST(Protocol, StructsAreSentWhenThePackageHasNoMessage) {
    // proto declares no message: its Sender sends Order, Balance and Account (the seed).
    RecordingSender<proto::Sender> s;
    s.send(seed_order());
    s.send(seed_balance());
    s.send(seed_account());
    EXPECT_EQ(s.wire.size(), 52u + 35u + 252u);
}

TEST(Protocol, UnknownTypeIsSkippedAndReported) {
    auto stream = hex_vector("protocol.hex");
    // The balance message (bytes 64..111) gets type 77: its root body's type field.
    stream[64 + 12] = 77;
    RecordingReceiver<protocol::Receiver> r;
    r.logging(true);
    EXPECT_TRUE(r.receive(stream.data(), stream.size()));
    ASSERT_EQ(r.unknown, std::vector<std::uint32_t>{77});
    EXPECT_EQ(r.got.size(), 2u);
    EXPECT_EQ(r.got[1], expected_texts()[2]);
    EXPECT_NE(r.log[1].find("unknown message type 77"), std::string::npos) << r.log[1];
}

TEST(Protocol, UndecodableMessageIsSkippedAndReported) {
    auto stream = hex_vector("protocol.hex");
    // The order's symbol offset points far beyond the message.
    stream[16 + 4] = 0xF0;
    RecordingReceiver<protocol::Receiver> r;
    EXPECT_TRUE(r.receive(stream.data(), stream.size()));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].kind, fastwire::protocol::receive_error::bad_message);
    EXPECT_EQ(r.errors[0].type, 1u);
    EXPECT_EQ(r.got.size(), 2u);  // the other two still arrive
}

TEST(Protocol, BadSizeGoesToTheErrorHookAndTheNextChunkStartsAfresh) {
    const auto stream = hex_vector("protocol.hex");
    for (std::uint32_t bad : {0u, 4u, 15u, 64u * 1024 * 1024 + 1}) {
        RecordingReceiver<protocol::Receiver> r;
        std::vector<std::uint8_t> chunk(stream.begin(), stream.begin() + 64);  // a whole order
        for (int i = 0; i < 4; ++i) chunk.push_back(static_cast<std::uint8_t>(bad >> (8 * i)));
        chunk.insert(chunk.end(), stream.begin() + 64, stream.end());  // dropped with the chunk
        EXPECT_FALSE(r.receive(chunk.data(), chunk.size()));
        ASSERT_EQ(r.errors.size(), 1u);
        EXPECT_EQ(r.errors[0].kind, fastwire::protocol::receive_error::bad_size);
        EXPECT_EQ(r.errors[0].size, bad);
        EXPECT_EQ(r.errors[0].offset, 64u);
        EXPECT_EQ(r.got.size(), 1u);
        // Recovery: the next chunk is read as a new message.
        EXPECT_TRUE(r.receive(stream.data(), stream.size()));
        EXPECT_EQ(r.got.size(), 4u);
    }
    // A bad size split across chunks is caught once its 4 bytes are complete.
    RecordingReceiver<protocol::Receiver> r;
    const std::uint8_t bad[4] = {3, 0, 0, 0};
    EXPECT_TRUE(r.receive(bad, 2));
    EXPECT_FALSE(r.receive(bad + 2, 2));
    EXPECT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.pending(), 0u);
}

// After bytes were dropped, every report still names the true stream offset (it once
// counted only the messages delivered, so each bad_size after garbage read "offset 0").
TEST(Protocol, ErrorOffsetsCountEveryByteReceived) {
    const auto stream = hex_vector("protocol.hex");  // order (64 bytes), balance, account
    RecordingReceiver<protocol::Receiver> r;
    const std::uint8_t garbage[6] = {1, 0, 0, 0, 9, 9};  // size 1: framing lost at 0
    EXPECT_FALSE(r.receive(garbage, sizeof garbage));
    EXPECT_FALSE(r.receive(garbage, sizeof garbage));  // again at 6
    std::vector<std::uint8_t> chunk(stream.begin(), stream.begin() + 64);
    chunk.insert(chunk.end(), {2, 0, 0, 0});  // a bad size after a whole order: at 12 + 64
    EXPECT_FALSE(r.receive(chunk.data(), chunk.size()));
    // A bad size split over two chunks: reported at its first byte.
    EXPECT_TRUE(r.receive(garbage, 2));
    EXPECT_FALSE(r.receive(garbage + 2, 2));
    // An undecodable order after all that, delivered whole, then one split in three.
    auto bad = std::vector<std::uint8_t>(stream.begin(), stream.begin() + 64);
    bad[16 + 4] = 0xF0;
    EXPECT_TRUE(r.receive(bad.data(), bad.size()));
    EXPECT_TRUE(r.receive(bad.data(), 3));
    EXPECT_TRUE(r.receive(bad.data() + 3, 30));
    EXPECT_TRUE(r.receive(bad.data() + 33, bad.size() - 33));
    ASSERT_EQ(r.errors.size(), 6u);
    const std::uint64_t want[6] = {0, 6, 76, 80, 84, 148};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(r.errors[i].offset, want[i]) << i;
    EXPECT_EQ(r.errors[5].kind, fastwire::protocol::receive_error::bad_message);
    EXPECT_NE(r.last_error().find("at stream offset 148"), std::string::npos) << r.last_error();
    r.reset();
    EXPECT_FALSE(r.receive(garbage, sizeof garbage));
    EXPECT_EQ(r.errors.back().offset, 0u);
}

TEST(Protocol, LimitsBoundTheMessageSize) {
    RecordingReceiver<protocol::Receiver> r;
    fastwire::limits lim;
    lim.max_message_size = 100;
    r.set_limits(lim);
    const auto stream = hex_vector("protocol.hex");
    EXPECT_FALSE(r.receive(stream.data(), stream.size()));  // the account is 264 bytes
    EXPECT_EQ(r.got.size(), 2u);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].size, 264u);
}

namespace {
class CountingProxy : public protocol::Proxy {
public:
    using protocol::Proxy::onProxy;
    std::vector<std::uint32_t> types;
    std::vector<std::size_t> sizes;

protected:
    void onProxy(const fastwire::model<protocol::AccountMessage>& model, std::uint32_t type, const void*,
                 std::size_t size) override {
        types.push_back(type);
        sizes.push_back(size);
        protocol::AccountMessage m;
        EXPECT_TRUE(model.deserialize(m));
        EXPECT_EQ(m.body.orders.size(), 3u);
    }
    void onProxy(const fastwire::model<protocol::OrderMessage>&, std::uint32_t type, const void*,
                 std::size_t size) override {
        types.push_back(type);
        sizes.push_back(size);
    }
};
}  // namespace

TEST(Protocol, ProxyHandsTheModelOn) {
    const auto stream = hex_vector("protocol.hex");
    CountingProxy p;
    p.receive(stream.data(), stream.size());
    EXPECT_EQ(p.types, (std::vector<std::uint32_t>{1, 3}));  // no onProxy for the balance
    EXPECT_EQ(p.sizes, (std::vector<std::size_t>{64, 264}));
}

// ---- client ------------------------------------------------------------------------------------

namespace {

// A client whose output goes straight into a peer's receive().
class LoopClient : public everything::Client {
public:
    using everything::Client::onReceive;
    fastwire::protocol::basic_receiver<fastwire::protocol::versioned_format>* peer = nullptr;
    std::vector<std::string> notified;

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        if (peer) peer->receive(data, size);
        return size;
    }
    void onReceive(const everything::Pong& v) override { notified.push_back("Pong " + v.id.to_string()); }
    void onReceive(const everything::Notify& v) override { notified.push_back("Notify " + v.text); }
};

// The server side: answers each PingRequest according to its note.
class Server : public everything::Client {
public:
    using everything::Client::onReceive;
    fastwire::protocol::basic_receiver<fastwire::protocol::versioned_format>* peer = nullptr;
    int requests = 0;

protected:
    std::size_t onSend(const void* data, std::size_t size) override {
        if (peer) peer->receive(data, size);
        return size;
    }
    void onReceive(const everything::PingRequest& q) override {
        ++requests;
        if (q.note == "pong") send(everything::Pong(q.id, 99));
        if (q.note == "refuse") send(everything::Refused(q.id, "busy"));
        if (q.note == "fail") send(everything::Failure(q.id, "broken"));
        if (q.note == "stranger") send(everything::Pong(fastwire::uuid::v4(), 1));
        // "silent": no answer
    }
};

}  // namespace

TEST(Client, RequestResponseRejectTimeoutReset) {
    LoopClient c;
    Server s;
    c.peer = &s;
    s.peer = &c;

    everything::PingRequest q;
    q.note = "pong";
    auto f = c.request(q);
    ASSERT_EQ(f.wait_for(std::chrono::seconds(0)), std::future_status::ready);
    const everything::Pong pong = f.get();
    EXPECT_EQ(pong.id, q.id);
    EXPECT_EQ(pong.received, 99u);
    EXPECT_TRUE(c.notified.empty());  // a matched response is not a notification

    q.id = fastwire::uuid::v4();
    q.note = "refuse";
    auto refused = c.request(q);
    try {
        refused.get();
        FAIL() << "expected a reject";
    } catch (const fastwire::protocol::request_error& e) {
        EXPECT_EQ(e.kind(), fastwire::protocol::request_error::rejected);
        EXPECT_EQ(e.type(), fastwire::struct_schema<everything::Refused>::type);
        EXPECT_NE(std::string(e.what()).find("busy"), std::string::npos) << e.what();
    }

    q.id = fastwire::uuid::v4();
    q.note = "fail";  // the global reject *Failure
    EXPECT_THROW(c.request(q).get(), fastwire::protocol::request_error);

    q.id = fastwire::uuid::v4();
    q.note = "stranger";  // an unmatched Pong is a notification; the request stays pending
    auto stranger = c.request(q, 1000);
    EXPECT_EQ(c.notified.size(), 1u);
    EXPECT_EQ(c.pending_requests(), 1u);
    EXPECT_EQ(c.watchdog(fastwire::utc()), 0u);                  // not yet
    EXPECT_EQ(c.watchdog(fastwire::utc() + 2000000000ull), 1u);  // 2 s later
    try {
        stranger.get();
        FAIL();
    } catch (const fastwire::protocol::request_error& e) {
        EXPECT_EQ(e.kind(), fastwire::protocol::request_error::timeout);
    }

    q.id = fastwire::uuid::v4();
    q.note = "silent";
    auto silent = c.request(q);  // no timeout: only reset() ends it
    EXPECT_EQ(c.watchdog(fastwire::utc() + 3600000000000ull), 0u);
    c.reset();
    try {
        silent.get();
        FAIL();
    } catch (const fastwire::protocol::request_error& e) {
        EXPECT_EQ(e.kind(), fastwire::protocol::request_error::canceled);
    }
    EXPECT_EQ(c.pending_requests(), 0u);

    // [request] without [response]: fire and forget.
    everything::Notify n;
    n.text = "hello";
    auto done = c.request(n);
    EXPECT_EQ(done.wait_for(std::chrono::seconds(0)), std::future_status::ready);
    EXPECT_EQ(s.requests, 5);
}
