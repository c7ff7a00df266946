// operator<< of generated types, through the runtime's print helpers.
#include <gtest/gtest.h>

#include "test_types.h"
#include "test_util.h"

using testutil::str;

TEST(Print, SeedAccount) {
    EXPECT_EQ(str(testutil::seed_account()),
              "Account(uid=1,name=\"Test\",state=initialized|calculated|good,wallet=Balance(currency=\"USD\","
              "amount=1000),asset=Balance(currency=\"EUR\",amount=100),orders=[3][Order(uid=1,symbol=\"EURUSD\","
              "side=buy,type=market,price=1.23456,volume=1000),Order(uid=2,symbol=\"EURUSD\",side=sell,type=limit,"
              "price=1,volume=100),Order(uid=3,symbol=\"EURUSD\",side=buy,type=stop,price=1.5,volume=10)])");
}

TEST(Print, DefaultAccountAndNull) {
    EXPECT_EQ(str(proto::Account()),
              "Account(uid=0,name=\"\",state=invalid|initialized|broken|bad,wallet=Balance(currency=\"\",amount=0),"
              "asset=null,"
              "orders=[0][])");
}

TEST(Print, EnumsAndFlags) {
    EXPECT_EQ(str(proto::OrderSide::sell), "sell");
    EXPECT_EQ(str(static_cast<proto::OrderSide>(9)), "<unknown>");
    EXPECT_EQ(str(proto::State::unknown), "");  // zero never matches a named value
    EXPECT_EQ(str(proto::State::bad), "invalid|broken|bad");
    EXPECT_EQ(str(proto::State::good | proto::State::broken), "initialized|calculated|broken|good");
    EXPECT_EQ(str(static_cast<proto::State>(0x40)), "");
    EXPECT_TRUE(fastwire::has_all(proto::State::good, proto::State::calculated));
    EXPECT_FALSE(fastwire::has_all(proto::State::good, proto::State::bad));
    EXPECT_TRUE(fastwire::has_any(proto::State::good, proto::State::bad | proto::State::calculated));
    proto::State s = proto::State::invalid;
    s |= proto::State::broken;
    EXPECT_EQ(s, proto::State::invalid | proto::State::broken);
    s &= ~proto::State::invalid;
    EXPECT_EQ(s, proto::State::broken);
    s ^= proto::State::broken;
    EXPECT_EQ(s, proto::State::unknown);
    EXPECT_EQ(str(t::Perm::r | t::Perm::w | t::Perm::top), "r|w|rw|top");
}

TEST(Print, EveryForm) {
    t::Collections c;
    c.a = {1, 2, 3};
    c.a_opt = {std::nullopt, std::string("x")};
    c.l_string = {"a", "b"};
    c.s_i64 = {3, 1};
    c.m = {{1, "one"}};
    c.h_opt["k"] = std::nullopt;
    std::ostringstream os;
    fastwire::struct_printer(os, "C")
        .field("a", c.a)
        .field("a_opt", c.a_opt)
        .field("l", c.l_string)
        .field("s", c.s_i64)
        .field("m", c.m)
        .field("h", c.h_opt)
        .field("b", true)
        .field("c", 'c')
        .field("w", L'A')
        .field("w2", static_cast<wchar_t>(0x444))
        .field("u8", std::uint8_t{200})
        .field("i8", std::int8_t{-5})
        .field("d", fastwire::decimal(-15, 1))
        .field("u", fastwire::uuid())
        .field("bytes", fastwire::bytes{1, 2, 3})
        .field("f", 0.5f)
        .field("ts", std::uint64_t{1000})
        .hidden("password")
        .end();
    EXPECT_EQ(os.str(),
              "C(a=[3][1,2,3],a_opt=[2][null,\"x\"],l=[2]<\"a\",\"b\">,s=[2]{1,3},m=[1]<{1->\"one\"}>,"
              "h=[1][{\"k\"->null}],b=true,c='c',w='A',w2='U+444',u8=200,i8=-5,d=-1.5,"
              "u=\"00000000-0000-0000-0000-000000000000\",bytes=bytes[3],f=0.5,ts=1000,password=***)");

    t::Derived d;
    d.x = 1;
    d.label = "L";
    std::ostringstream os2;
    fastwire::struct_printer(os2, "Derived")
        .base(static_cast<const t::Point&>(d))
        .field("label", d.label)
        .field("other", d.other)
        .end();
    EXPECT_EQ(os2.str(), "Derived(Point(x=1,y=0),label=\"L\",other=null)");
}
