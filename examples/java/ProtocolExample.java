package examples;

import com.chronoxor.proto.Account;
import com.chronoxor.protocol.AccountMessage;
import com.chronoxor.protocol.BalanceMessage;
import com.chronoxor.protocol.OrderMessage;
import com.chronoxor.protocol.ProtocolReceiver;
import com.chronoxor.protocol.ProtocolSender;
import dev.fastwire.Writer;

/** The seed's messages through a Sender into a Receiver, chunk by chunk (the C++ example's lines). */
public final class ProtocolExample {
    public static void main(String[] args) {
        Account account = AccountExample.seed();
        ProtocolReceiver receiver = new ProtocolReceiver() {
            @Override protected void onReceive(OrderMessage m) { System.out.println("onReceive: " + m.body); }
            @Override protected void onReceive(BalanceMessage m) { System.out.println("onReceive: " + m.body); }
            @Override protected void onReceive(AccountMessage m) { System.out.println("onReceive: " + m.body); }
        };
        ProtocolSender sender = new ProtocolSender();  // keeps the stream in sender.buffer
        OrderMessage om = new OrderMessage();
        om.body = account.orders.get(0);
        BalanceMessage bm = new BalanceMessage();
        bm.body = account.wallet;
        AccountMessage am = new AccountMessage();
        am.body = account;
        System.out.println("onSend: " + om.body);
        System.out.println("onSend: " + bm.body);
        System.out.println("onSend: " + am.body);
        sender.send(om);
        sender.send(bm);
        sender.send(am);
        Writer stream = sender.buffer;
        for (int i = 0; i < stream.size; i += 7) {  // any chunking: messages are reassembled
            receiver.receive(stream.buf, i, Math.min(7, stream.size - i));
        }
    }
}
