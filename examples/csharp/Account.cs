// The seed account round trip (the FBE README's example, as examples/cpp/account.cpp):
// build the account, serialize it, read it back and print it; its output is
// examples/cpp/expected_account.txt, byte for byte. It also checks the final format and
// JSON round trips.   python3 csharp/build.py examples
using System;
using System.Collections.Generic;
using System.Text;
using Fastwire;
using proto = com.chronoxor.proto;

static class AccountExample
{
    // The README's layout of the printout: the root struct's fields one a line, and the
    // elements of a collection directly inside it.
    static string ReadmeLayout(string text)
    {
        var sb = new StringBuilder();
        var broken = new List<bool>();
        bool quoted = false;
        for (int i = 0; i < text.Length; i++)
        {
            char c = text[i], prev = i > 0 ? text[i - 1] : '\0';
            if (quoted || c == '"') { if (c == '"') quoted = !quoted; sb.Append(c); }
            else if (c == '(' || c == '[' || c == '{' || c == '<')
            {
                bool split = broken.Count == 0 || (broken.Count == 1 && c == '[' && prev == ']');
                broken.Add(split);
                sb.Append(c);
                if (split) sb.Append('\n');
            }
            else if ((c == ')' || c == ']' || c == '}' || c == '>') && !(c == '>' && prev == '-') && broken.Count > 0)
            {
                if (broken[broken.Count - 1]) sb.Append('\n');
                broken.RemoveAt(broken.Count - 1);
                sb.Append(c);
            }
            else if (c == ',' && broken.Count > 0 && broken[broken.Count - 1]) sb.Append(",\n");
            else sb.Append(c);
        }
        return sb.ToString();
    }

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
        if (!codec.Model.Verify(data)) return 1;           // untrusted input: verify (deserialize checks too)
        proto.Account copy = codec.Model.Deserialize(data);
        Console.WriteLine();
        Console.WriteLine(ReadmeLayout(copy.ToString()));

        // The final format and JSON read back to the same value.
        codec.FinalModel.Serialize(account, buffer);
        proto.Account viaFinal = codec.FinalModel.Deserialize(buffer.ToArray());
        proto.Account viaJson = proto.Account.FromJson(account.ToJson());
        string json = account.ToJson();
        return viaFinal.ToJson() == json && viaJson.ToJson() == json && copy.ToJson() == json ? 0 : 1;
    }
}
