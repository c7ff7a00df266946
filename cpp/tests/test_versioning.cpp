// Versioning (spec §2.5): proto <-> protoex in all four directions, with the types the
// generator makes from schemas/proto.fbe and schemas/protoex.fbe: Order gains tp/sl,
// Balance(base) derives from proto.Balance and gains `locked`, enums and flags gain values.
#include <gtest/gtest.h>

#include "protoex_models.h"
#include "test_util.h"

namespace {

protoex::Account new_account() {
    protoex::Account a;
    a.uid = 1;
    a.name = "Test";
    a.state = protoex::State::good;
    a.wallet.currency = "USD";
    a.wallet.amount = 1000.0;
    a.wallet.locked = 10.0;
    protoex::Balance asset;
    asset.currency = "EUR";
    asset.amount = 100.0;
    asset.locked = 20.0;
    a.asset = asset;
    a.orders.push_back({1, "EURUSD", protoex::OrderSide::buy, protoex::OrderType::market, 1.23456, 1000.0, 0, 0});
    a.orders.push_back({2, "EURUSD", protoex::OrderSide::sell, protoex::OrderType::limit, 1.0, 100.0, 0.1, -0.1});
    a.orders.push_back({3, "EURUSD", protoex::OrderSide::tell, protoex::OrderType::stoplimit, 1.5, 10.0, 1.1, -1.1});
    return a;
}

}  // namespace

TEST(Versioning, OldToOld) {
    const auto bytes = testutil::load_hex("account.fbe.hex");
    proto::AccountModel m;
    m.attach(bytes);
    proto::Account a;
    ASSERT_TRUE(m.deserialize(a));
    EXPECT_EQ(testutil::str(a), testutil::str(testutil::seed_account()));
}

TEST(Versioning, OldToNewGetsDefaults) {
    const auto bytes = testutil::load_hex("account.fbe.hex");
    fastwire::model<protoex::Account> m;
    m.attach(bytes);
    ASSERT_TRUE(m.verify());
    // Read into a dirty object: fields missing from the old data must get the schema
    // defaults, not keep what the object held.
    protoex::Account a = new_account();
    for (auto& o : a.orders) o.tp = o.sl = 99;
    a.wallet.locked = a.asset->locked = 99;
    ASSERT_TRUE(m.deserialize(a));
    EXPECT_EQ(a.uid, 1);
    EXPECT_EQ(a.name, "Test");
    EXPECT_EQ(a.state, protoex::State::initialized | protoex::State::calculated);
    EXPECT_EQ(a.wallet.currency, "USD");
    EXPECT_EQ(a.wallet.amount, 1000.0);
    EXPECT_EQ(a.wallet.locked, 0.0);
    ASSERT_TRUE(a.asset.has_value());
    EXPECT_EQ(a.asset->currency, "EUR");
    EXPECT_EQ(a.asset->locked, 0.0);
    ASSERT_EQ(a.orders.size(), 3u);
    EXPECT_EQ(a.orders[0].symbol, "EURUSD");
    EXPECT_EQ(a.orders[2].type, protoex::OrderType::stop);
    for (const auto& o : a.orders) {
        EXPECT_EQ(o.tp, 10.0);
        EXPECT_EQ(o.sl, -10.0);
    }
}

TEST(Versioning, NewToOldDropsNewFields) {
    fastwire::model<protoex::Account> w;
    EXPECT_EQ(w.serialize(new_account()), 316u);  // spec §9: the protoex account is 316 bytes
    proto::AccountModel r;
    r.attach(w.buffer());
    ASSERT_TRUE(r.verify());
    proto::Account a;
    ASSERT_TRUE(r.deserialize(a));
    EXPECT_EQ(a.uid, 1);
    EXPECT_EQ(static_cast<int>(a.state), 0x16);  // unknown bits kept as they are
    EXPECT_EQ(testutil::str(a.state), "initialized|calculated|good");
    EXPECT_EQ(a.wallet.currency, "USD");
    EXPECT_EQ(a.asset->amount, 100.0);
    ASSERT_EQ(a.orders.size(), 3u);
    // An enum value the old reader does not know is kept as the raw number.
    EXPECT_EQ(static_cast<int>(a.orders[2].side), 2);
    EXPECT_EQ(static_cast<int>(a.orders[2].type), 3);
    EXPECT_EQ(testutil::str(a.orders[2]),
              "Order(uid=3,symbol=\"EURUSD\",side=<unknown>,type=<unknown>,price=1.5,volume=10)");
    // Re-serialized by the old model, the raw values survive.
    proto::AccountModel again;
    again.serialize(a);
    fastwire::model<protoex::Account> back;
    back.attach(again.buffer());
    protoex::Account b;
    ASSERT_TRUE(back.deserialize(b));
    EXPECT_EQ(b.orders[2].side, protoex::OrderSide::tell);
    EXPECT_EQ(b.orders[2].type, protoex::OrderType::stoplimit);
    EXPECT_EQ(b.orders[2].tp, 10.0);  // dropped by the old model, so the default again
}

TEST(Versioning, NewToNew) {
    fastwire::model<protoex::Account> w;
    w.serialize(new_account());
    ASSERT_TRUE(w.verify());
    protoex::Account a;
    ASSERT_TRUE(w.deserialize(a));
    EXPECT_EQ(a.wallet.locked, 10.0);
    EXPECT_EQ(a.asset->locked, 20.0);
    EXPECT_EQ(a.orders[1].tp, 0.1);
    EXPECT_EQ(a.orders[1].sl, -0.1);
    EXPECT_EQ(a.state, protoex::State::good);
    fastwire::model<protoex::Account> w2;
    w2.serialize(a);
    EXPECT_EQ(w2.buffer(), w.buffer());
}

TEST(Versioning, ProtoexBalanceKeepsTheBaseTypeNumber) {
    // Balance(base) : proto.Balance -> the old model reads the new Balance and vice versa.
    protoex::Balance nb;
    nb.currency = "JPY";
    nb.amount = 5;
    nb.locked = 1;
    fastwire::model<protoex::Balance> w;
    w.serialize(nb);
    proto::BalanceModel r;
    r.attach(w.buffer());
    proto::Balance ob;
    ASSERT_TRUE(r.deserialize(ob));
    EXPECT_EQ(ob.currency, "JPY");
    EXPECT_EQ(ob.amount, 5.0);
}

// Another version's bodies (shorter or longer) are never read by the canonical read
// (versioned.h): deserialize() reads them by the general walk.
TEST(Versioning, OtherVersionsAreNotCanonical) {
    const auto old_bytes = testutil::load_hex("account.fbe.hex");
    fastwire::model<protoex::Account> as_new;
    as_new.attach(old_bytes);
    protoex::Account a;
    EXPECT_FALSE(as_new.deserialize_canonical(a));
    EXPECT_TRUE(as_new.deserialize(a));

    fastwire::model<protoex::Account> writer;
    writer.serialize(new_account());
    protoex::Account same;
    EXPECT_TRUE(writer.deserialize_canonical(same));
    fastwire::model<proto::Account> as_old;
    as_old.attach(writer.buffer());
    proto::Account o;
    EXPECT_FALSE(as_old.deserialize_canonical(o));
    EXPECT_TRUE(as_old.deserialize(o));
}
