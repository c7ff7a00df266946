// The protocol example (as examples/cpp/protocol.cpp): a Sender writes the seed's order,
// balance and account as a stream; a Receiver reads the stream back (in chunks of any
// size) and dispatches them. Its output is examples/cpp/expected_protocol.txt, byte for
// byte.   python3 csharp/build.py examples
using System;
using Fastwire;
using proto = com.chronoxor.proto;
using protocol = com.chronoxor.protocol;

static class ProtocolExample
{
    sealed class Printer : protocol.Fbe.Receiver
    {
        protected override void OnReceive(protocol.OrderMessage m) { Console.WriteLine("onReceive: " + m.body); }
        protected override void OnReceive(protocol.BalanceMessage m) { Console.WriteLine("onReceive: " + m.body); }
        protected override void OnReceive(protocol.AccountMessage m) { Console.WriteLine("onReceive: " + m.body); }
    }

    static int Main()
    {
        var order = new proto.Order { uid = 1, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.market, price = 1.23456, volume = 1000.0 };
        var balance = new proto.Balance { currency = "USD", amount = 1000.0 };
        var account = new proto.Account { uid = 1, name = "Test", state = proto.State.initialized | proto.State.calculated, wallet = balance };
        account.asset = new proto.Balance { currency = "EUR", amount = 100.0 };
        account.orders.Add(order);
        account.orders.Add(new proto.Order { uid = 2, symbol = "EURUSD", side = proto.OrderSide.sell, type = proto.OrderType.limit, price = 1.0, volume = 100.0 });
        account.orders.Add(new proto.Order { uid = 3, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.stop, price = 1.5, volume = 10.0 });

        var sink = new MemorySink();                       // a socket in real life (Fastwire.Net)
        var sender = new protocol.Fbe.Sender(sink);
        sender.Send(new protocol.OrderMessage { body = order });
        Console.WriteLine("onSend: " + order);
        sender.Send(new protocol.BalanceMessage { body = balance });
        Console.WriteLine("onSend: " + balance);
        sender.Send(new protocol.AccountMessage { body = account });
        Console.WriteLine("onSend: " + account);

        byte[] stream = sink.Buffer.ToArray();
        var receiver = new Printer();
        for (int i = 0; i < stream.Length; i += 7)         // any chunking
            receiver.Receive(stream, i, Math.Min(7, stream.Length - i));
        return receiver.Pending == 0 ? 0 : 1;
    }
}
