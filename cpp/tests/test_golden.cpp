// Byte-exact agreement with the FBE reference: the golden vectors were produced by the
// reference's generated C++ (spec §7), not by fastwire.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>

#include "test_util.h"

using testutil::load_hex;
using testutil::seed_account;
using testutil::str;

namespace {

// Full-value comparison (operator== compares [key] fields only): the printed form covers
// every field of the proto types.
template <class T>
void expect_same(const T& a, const T& b) {
    EXPECT_EQ(str(a), str(b));
}

const char* const seed_text =
    "Account(uid=1,name=\"Test\",state=initialized|calculated|good,wallet=Balance(currency=\"USD\",amount=1000),"
    "asset=Balance(currency=\"EUR\",amount=100),orders=[3][Order(uid=1,symbol=\"EURUSD\",side=buy,type=market,"
    "price=1.23456,volume=1000),Order(uid=2,symbol=\"EURUSD\",side=sell,type=limit,price=1,volume=100),"
    "Order(uid=3,symbol=\"EURUSD\",side=buy,type=stop,price=1.5,volume=10)])";

}  // namespace

TEST(Golden, AccountSerializesToReferenceBytes) {
    proto::AccountModel writer;
    const std::size_t n = writer.serialize(seed_account());
    EXPECT_EQ(n, 252u);
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("account.fbe.hex"));
    EXPECT_TRUE(writer.verify());
    EXPECT_EQ(writer.verify().size(), 252u);
}

TEST(Golden, OrderSerializesToReferenceBytes) {
    proto::OrderModel writer;
    writer.serialize(proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0));
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("order.fbe.hex"));
    EXPECT_TRUE(writer.verify());
}

TEST(Golden, BalanceSerializesToReferenceBytes) {
    proto::BalanceModel writer;
    writer.serialize(proto::Balance("USD", 1000.0));
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("balance.fbe.hex"));
    EXPECT_TRUE(writer.verify());
}

TEST(Golden, ReferenceBytesDeserialize) {
    {
        const auto bytes = load_hex("account.fbe.hex");
        proto::AccountModel reader;
        reader.attach(bytes);
        ASSERT_TRUE(reader.verify());
        proto::Account a;
        const fastwire::status s = reader.deserialize(a);
        ASSERT_TRUE(s) << s.message();
        EXPECT_EQ(s.size(), 252u);
        expect_same(a, seed_account());
        EXPECT_EQ(str(a), seed_text);
    }
    {
        const auto bytes = load_hex("order.fbe.hex");
        proto::OrderModel reader;
        reader.attach(bytes.data(), bytes.size());
        ASSERT_TRUE(reader.verify());
        proto::Order o;
        ASSERT_TRUE(reader.deserialize(o));
        expect_same(o, proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0));
    }
    {
        const auto bytes = load_hex("balance.fbe.hex");
        proto::BalanceModel reader;
        reader.attach(bytes);
        ASSERT_TRUE(reader.verify());
        proto::Balance b;
        ASSERT_TRUE(reader.deserialize(b));
        expect_same(b, proto::Balance("USD", 1000.0));
    }
}

// The seed's C++ example, as it is written there.
TEST(Golden, SeedUsage) {
    proto::Account account = {
        1, "Test", proto::State::good, {"USD", 1000.0}, std::make_optional<proto::Balance>({"EUR", 100.0}), {}};
    account.orders.emplace_back(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0);
    account.orders.emplace_back(2, "EURUSD", proto::OrderSide::sell, proto::OrderType::limit, 1.0, 100.0);
    account.orders.emplace_back(3, "EURUSD", proto::OrderSide::buy, proto::OrderType::stop, 1.5, 10.0);

    proto::AccountModel writer;
    writer.serialize(account);
    ASSERT_TRUE(writer.verify());
    std::ostringstream out;
    out << "FBE size: " << writer.buffer().size() << std::endl;

    proto::AccountModel reader;
    reader.attach(writer.buffer());
    ASSERT_TRUE(reader.verify());
    proto::Account read;
    ASSERT_TRUE(reader.deserialize(read));
    out << std::endl << read;
    EXPECT_EQ(out.str(), std::string("FBE size: 252\n\n") + seed_text);
}

// serialize() writes every byte itself (the buffer is never zero-filled): reusing a buffer
// full of earlier, different bytes must still give the golden bytes.
TEST(Golden, ReusedDirtyBufferGivesSameBytes) {
    proto::AccountModel writer;
    proto::Account big = seed_account();
    big.name.assign(4000, 'x');
    big.asset.reset();
    for (int i = 0; i < 50; ++i)
        big.orders.emplace_back(i, std::string(50, 'y'), proto::OrderSide::sell, proto::OrderType::stop, -1, -2);
    writer.serialize(big);
    std::memset(writer.buffer().data(), 0xA5, writer.buffer().size());
    writer.reset();
    writer.serialize(seed_account());
    EXPECT_EQ(testutil::bytes_of(writer.buffer()), load_hex("account.fbe.hex"));
}

// A null optional writes flag 0 and a zero offset.
TEST(Golden, NullOptionalWritesZeroOffset) {
    proto::Account a = seed_account();
    a.asset.reset();
    proto::AccountModel writer;
    writer.serialize(a);
    const std::uint8_t* p = writer.buffer().data();
    // asset slot: body at 8, uid 4 + name 4 + state 1 + wallet 4 -> offset 8 + 8 + 13 = 29
    for (int i = 0; i < 5; ++i) EXPECT_EQ(p[29 + i], 0) << i;
    ASSERT_TRUE(writer.verify());
    proto::Account back;
    ASSERT_TRUE(writer.deserialize(back));
    EXPECT_FALSE(back.asset.has_value());
}

// Several root models back to back, stepped through with next().
TEST(Golden, ConcatenatedModels) {
    proto::AccountModel writer;
    const std::size_t a = writer.serialize(seed_account());
    proto::Account second = seed_account();
    second.uid = 2;
    const std::size_t b = writer.serialize(second);
    EXPECT_EQ(writer.buffer().size(), a + b);

    proto::AccountModel reader;
    reader.attach(writer.buffer());
    proto::Account x;
    auto s = reader.deserialize(x);
    ASSERT_TRUE(s);
    EXPECT_EQ(x.uid, 1);
    EXPECT_EQ(reader.size(), a);
    reader.next(s.size());
    s = reader.deserialize(x);
    ASSERT_TRUE(s);
    EXPECT_EQ(x.uid, 2);
    reader.next(s.size());
    EXPECT_EQ(reader.size(), 0u);
    EXPECT_EQ(reader.verify(), fastwire::errc::truncated);
}

// ---- protocol.hex: three `message XMessage { X body; }` root models in one stream ----------

namespace msg {
struct OrderMessage {
    proto::Order body;
};
struct BalanceMessage {
    proto::Balance body;
};
struct AccountMessage {
    proto::Account body;
};
}  // namespace msg

template <>
struct fastwire::struct_schema<msg::OrderMessage> {
    static constexpr std::uint32_t type = 1;
    using fields = fastwire::fields<&msg::OrderMessage::body>;
};
template <>
struct fastwire::struct_schema<msg::BalanceMessage> {
    static constexpr std::uint32_t type = 2;
    using fields = fastwire::fields<&msg::BalanceMessage::body>;
};
template <>
struct fastwire::struct_schema<msg::AccountMessage> {
    static constexpr std::uint32_t type = 3;
    using fields = fastwire::fields<&msg::AccountMessage::body>;
};

TEST(Golden, ProtocolStream) {
    const auto stream = load_hex("protocol.hex");
    ASSERT_EQ(stream.size(), 375u);

    fastwire::model<msg::OrderMessage> om;
    om.attach(stream);
    msg::OrderMessage o;
    auto s = om.deserialize(o);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(s.size(), 64u);
    expect_same(o.body, proto::Order(1, "EURUSD", proto::OrderSide::buy, proto::OrderType::market, 1.23456, 1000.0));

    fastwire::model<msg::BalanceMessage> bm;
    bm.attach(stream);
    bm.next(64);
    msg::BalanceMessage b;
    s = bm.deserialize(b);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(s.size(), 47u);
    expect_same(b.body, proto::Balance("USD", 1000.0));

    fastwire::model<msg::AccountMessage> am;
    am.attach(stream);
    am.next(64 + 47);
    msg::AccountMessage a;
    s = am.deserialize(a);
    ASSERT_TRUE(s) << s.message();
    EXPECT_EQ(s.size(), 264u);
    expect_same(a.body, seed_account());

    // And back: the three messages serialize to the same stream.
    fastwire::model<msg::OrderMessage> w1;
    fastwire::model<msg::BalanceMessage> w2;
    fastwire::model<msg::AccountMessage> w3;
    w1.serialize(o);
    w2.serialize(b);
    w3.serialize(a);
    std::vector<std::uint8_t> all = testutil::bytes_of(w1.buffer());
    for (auto* buf : {&w2.buffer(), &w3.buffer()}) all.insert(all.end(), buf->begin(), buf->end());
    EXPECT_EQ(all, stream);

    // A message type is checked: an OrderMessage model rejects the BalanceMessage.
    fastwire::model<msg::OrderMessage> wrong;
    wrong.attach(stream);
    wrong.next(64);
    EXPECT_EQ(wrong.verify(), fastwire::errc::bad_type);
}

// ---- the model API -----------------------------------------------------------------------

namespace {
template <class M>
auto attaches_rvalue(int) -> decltype(std::declval<M&>().attach(std::vector<std::uint8_t>{}), std::true_type{});
template <class M>
std::false_type attaches_rvalue(...);
}  // namespace

TEST(ModelApi, ViewsLimitsAndTypes) {
    static_assert(proto::AccountModel::type() == 3, "type number");
    static_assert(!decltype(attaches_rvalue<proto::AccountModel>(0))::value, "a temporary cannot be attached");

    proto::AccountModel m;
    EXPECT_EQ(m.size(), 0u);
    EXPECT_EQ(m.verify(), fastwire::errc::truncated);
    m.serialize(seed_account());
    EXPECT_EQ(m.size(), 252u);
    EXPECT_EQ(m.bytes().size(), 252u);

    proto::AccountModel r;
    r.attach(fastwire::buffer_view(m.buffer()));
    EXPECT_TRUE(r.verify());
    fastwire::limits lim;
    lim.max_depth = 1;  // Account -> wallet is two levels
    r.set_limits(lim);
    EXPECT_EQ(r.get_limits().max_depth, 1u);
    EXPECT_EQ(r.verify(), fastwire::errc::too_deep);
    proto::Account a;
    EXPECT_EQ(r.deserialize(a).code(), fastwire::errc::too_deep);
    lim.max_depth = 2;
    r.set_limits(lim);
    EXPECT_TRUE(r.verify());

    // A model attached elsewhere goes back to its own buffer on serialize.
    const auto golden = load_hex("balance.fbe.hex");
    proto::BalanceModel b;
    b.attach(golden);
    EXPECT_EQ(b.size(), golden.size());
    b.serialize(proto::Balance("USD", 1000.0));
    EXPECT_EQ(b.bytes().size(), golden.size());
    EXPECT_EQ(testutil::bytes_of(b.buffer()), golden);
    b.reset();
    EXPECT_EQ(b.buffer().size(), 0u);
    EXPECT_EQ(b.bytes().size(), 0u);
    b.next(100);  // clamped at the end
    EXPECT_EQ(b.size(), 0u);
}
