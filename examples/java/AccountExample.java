package examples;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import com.chronoxor.proto.State;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;

/** The seed account: built, serialized in both formats and JSON, read back. */
public final class AccountExample {
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

    public static Account seed() {
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

    public static void main(String[] args) {
        Account account = seed();
        Model<Account> model = new Model<>(Account.CODEC);
        byte[] bytes = model.serialize(account);           // 252 bytes, as the reference writes
        model.verify(bytes);                                // throws DecodeException when malformed
        Account copy = model.deserialize(bytes);            // checked: safe without verify
        FinalModel<Account> fin = new FinalModel<>(Account.CODEC);
        byte[] compact = fin.serialize(copy);               // 152 bytes
        System.out.println("FBE size: " + bytes.length);
        System.out.println("FBE final size: " + compact.length);
        System.out.println(fin.deserialize(compact));
        System.out.println(Account.CODEC.toJson(copy));
    }
}
