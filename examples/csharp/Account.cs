// The seed account round trip (the FBE README's example, as examples/cpp/account.cpp):
// build the account, serialize it in both formats and JSON, read each back, compare.
//   python3 csharp/build.py examples
using System;
using Fastwire;
using proto = com.chronoxor.proto;

static class AccountExample
{
    static int Main()
    {
        var account = new proto.Account { uid = 1, name = "Test", state = proto.State.initialized | proto.State.calculated };
        account.wallet = new proto.Balance { currency = "USD", amount = 1000.0 };
        account.asset = new proto.Balance { currency = "EUR", amount = 100.0 };
        account.orders.Add(new proto.Order { uid = 1, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.market, price = 1.23456, volume = 1000.0 });
        account.orders.Add(new proto.Order { uid = 2, symbol = "EURUSD", side = proto.OrderSide.sell, type = proto.OrderType.limit, price = 1.0, volume = 100.0 });
        account.orders.Add(new proto.Order { uid = 3, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.stop, price = 1.5, volume = 10.0 });

        var codec = proto.Fbe.Account.Instance;          // the struct's codec: models and JSON
        var buffer = new WriteBuffer();                    // reused across messages
        int size = codec.Model.Serialize(account, buffer);
        Console.WriteLine("FBE size: " + size);
        byte[] data = buffer.ToArray();
        if (!codec.Model.Verify(data)) return 1;           // untrusted input: verify (or just deserialize: it checks too)
        proto.Account copy = codec.Model.Deserialize(data);

        int finalSize = codec.FinalModel.Serialize(account, buffer);
        Console.WriteLine("FBE final size: " + finalSize);
        proto.Account copy2 = codec.FinalModel.Deserialize(buffer.ToArray());

        string json = account.ToJson();
        Console.WriteLine("JSON: " + json);
        proto.Account copy3 = proto.Account.FromJson(json);

        bool same = copy.ToJson() == json && copy2.ToJson() == json && copy3.ToJson() == json;
        Console.WriteLine(same ? "round trip: equal" : "round trip: DIFFERENT");
        return same ? 0 : 1;
    }
}
