package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import com.chronoxor.proto.State;
import dev.fastwire.DecodeException;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.StructCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The reference's vectors in both formats and JSON, and the seed account built by hand. */
class GoldenTest {
    static Account seed() {
        Account a = new Account();
        a.uid = 1;
        a.name = "Test";
        a.state = State.initialized.or(State.calculated);
        a.wallet.currency = "USD";
        a.wallet.amount = 1000.0;
        a.asset = new Balance();
        a.asset.currency = "EUR";
        a.asset.amount = 100.0;
        a.orders.add(order(1, OrderSide.buy, OrderType.market, 1.23456, 1000.0));
        a.orders.add(order(2, OrderSide.sell, OrderType.limit, 1.0, 100.0));
        a.orders.add(order(3, OrderSide.buy, OrderType.stop, 1.5, 10.0));
        return a;
    }

    static Order order(int uid, OrderSide side, OrderType type, double price, double volume) {
        Order o = new Order();
        o.uid = uid;
        o.symbol = "EURUSD";
        o.side = side;
        o.type = type;
        o.price = price;
        o.volume = volume;
        return o;
    }

    @Test
    void seedAccountMatchesTheVectorsByteForByte() {
        Account a = seed();
        assertArrayEquals(Vectors.hex("account.fbe.hex"), new Model<>(Account.CODEC).serialize(a));
        assertArrayEquals(Vectors.hex("account.final.hex"), new FinalModel<>(Account.CODEC).serialize(a));
        assertEquals(Vectors.text("account.json"), Account.CODEC.toJson(a));
    }

    <T> void roundTrip(StructCodec<T> codec, String name) {
        byte[] v = Vectors.hex(name + ".fbe.hex");
        byte[] f = Vectors.hex(name + ".final.hex");
        String json = Vectors.text(name + ".json");
        Model<T> model = new Model<>(codec);
        FinalModel<T> fin = new FinalModel<>(codec);
        assertEquals(v.length, model.verify(v));
        assertEquals(f.length, fin.verify(f));
        T a = model.deserialize(v);
        T b = fin.deserialize(f);
        T c = codec.fromJson(json);
        for (T x : List.of(a, b, c)) {
            assertArrayEquals(v, model.serialize(x));
            assertArrayEquals(f, fin.serialize(x));
            assertEquals(json, codec.toJson(x));
        }
        assertEquals(a.toString(), c.toString());
    }

    @Test
    void vectorsRoundTripInEveryFormat() {
        roundTrip(Account.CODEC, "account");
        roundTrip(Order.CODEC, "order");
        roundTrip(Balance.CODEC, "balance");
    }

    @Test
    void deserializeFillsTheObjectItIsGiven() {
        byte[] v = Vectors.hex("account.fbe.hex");
        Model<Account> model = new Model<>(Account.CODEC);
        Account reuse = new Account();
        Account a = model.deserialize(v, 0, v.length, reuse);
        assertSame(reuse, a);
        Order first = a.orders.get(0);
        Account b = model.deserialize(v, 0, v.length, a);
        assertSame(first, b.orders.get(0));
        assertEquals(seed().toString(), b.toString());
        assertNotSame(reuse, model.deserialize(v));
    }

    @Test
    void printsAsTheCppRuntime() {
        String line = Vectors.text("../../examples/cpp/expected_protocol.txt").lines()
            .filter(l -> l.startsWith("onSend: Account(")).findFirst().orElseThrow();
        assertEquals(line.substring("onSend: ".length()), seed().toString());
    }

    @Test
    void equalityIsByKeys() {
        Account a = seed();
        Account b = new Account();
        b.uid = 1;
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(0, a.compareTo(b));
        b.uid = 2;
        assertTrue(a.compareTo(b) < 0);
    }

    @Test
    void enumsKeepUnknownValues() {
        byte[] v = Vectors.hex("order.final.hex").clone();
        FinalModel<Order> fin = new FinalModel<>(Order.CODEC);
        int sidePos = 8 + 4 + 4 + 6;  // header, uid, symbol length, "EURUSD"
        v[sidePos] = 9;
        Order o = fin.deserialize(v);
        assertEquals(9, o.side.value);
        assertEquals("<unknown>", o.side.toString());
        assertArrayEquals(v, fin.serialize(o));
    }

    @Test
    void malformedInputRaisesDecodeException() {
        Model<Account> model = new Model<>(Account.CODEC);
        byte[] attack = new byte[20];
        attack[0] = 20;
        attack[4] = 8;
        DecodeException e = assertThrows(DecodeException.class, () -> model.deserialize(attack));
        assertTrue(e.code().length() > 0);
        assertThrows(DecodeException.class, () -> Account.CODEC.fromJson("{\"uid\":1e999}"));
        assertThrows(DecodeException.class, () -> Account.CODEC.fromJson("[".repeat(100)));
        List<Integer> unused = new ArrayList<>();
        assertTrue(unused.isEmpty());
    }
}
