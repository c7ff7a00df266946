package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.ProtoProxy;
import com.chronoxor.proto.ProtoReceiver;
import com.chronoxor.proto.ProtoSender;
import dev.fastwire.DecodeException;
import dev.fastwire.Model;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The generated Proxy: each message is verified and handed on as bytes to the onProxy
 * overload of its type, without being deserialized; a message that does not verify goes
 * to onReceiveError; forwarding the bytes gives the receiver the same values.
 */
class ProxyTest {
    /** Forwards every message it is given into `out`, and notes the types and errors. */
    static final class Forward extends ProtoProxy {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final List<String> seen = new ArrayList<>();
        final List<DecodeException> errors = new ArrayList<>();

        Forward(boolean finalFormat) {
            super(finalFormat);
        }

        private void forward(String what, int type, byte[] buf, int off, int len) {
            seen.add(what + ":" + type);
            out.write(buf, off, len);
        }

        @Override protected void onProxy(Order.Codec c, int type, byte[] buf, int off, int len) { forward("Order", type, buf, off, len); }

        @Override protected void onProxy(Balance.Codec c, int type, byte[] buf, int off, int len) { forward("Balance", type, buf, off, len); }

        @Override protected void onProxy(Account.Codec c, int type, byte[] buf, int off, int len) { forward("Account", type, buf, off, len); }

        @Override protected void onReceiveError(DecodeException e) { errors.add(e); }
    }

    static final class Collect extends ProtoReceiver {
        final List<Object> values = new ArrayList<>();

        Collect(boolean finalFormat) {
            super(finalFormat);
        }

        @Override protected void onReceive(Order v) { values.add(v.toString()); }

        @Override protected void onReceive(Balance v) { values.add(v.toString()); }

        @Override protected void onReceive(Account v) { values.add(v.toString()); }
    }

    static Account seed() {
        return new Model<>(Account.CODEC).deserialize(Vectors.hex("account.fbe.hex"));
    }

    @Test
    void forwardsVerifiedBytesInBothFormats() {
        for (boolean fin : new boolean[] {false, true}) {
            ProtoSender sender = new ProtoSender(fin);
            Account account = seed();
            sender.send(account);
            sender.send(account.wallet);
            sender.send(account.orders.get(1));
            byte[] stream = sender.buffer.toByteArray();
            Forward proxy = new Forward(fin);
            for (int i = 0; i < stream.length; i += 7) {  // in chunks that split messages
                proxy.receive(stream, i, Math.min(7, stream.length - i));
            }
            assertEquals(List.of("Account:3", "Balance:2", "Order:1"), proxy.seen);
            assertTrue(proxy.errors.isEmpty());
            assertArrayEquals(stream, proxy.out.toByteArray());
            Collect receiver = new Collect(fin);
            receiver.receive(proxy.out.toByteArray());
            assertEquals(List.of(account.toString(), account.wallet.toString(), account.orders.get(1).toString()),
                receiver.values);
        }
    }

    @Test
    void aMessageThatDoesNotVerifyIsNotPassedOn() {
        for (boolean fin : new boolean[] {false, true}) {
            ProtoSender sender = new ProtoSender(fin);
            sender.send(seed());
            byte[] bad = sender.buffer.toByteArray();
            // the first order's symbol: its length word (versioned: its offset) made too large
            int at = indexOf(bad, "EURUSD".getBytes()) - 4;
            bad[at + 3] = 0x7F;
            Forward proxy = new Forward(fin);
            proxy.receive(bad);
            assertEquals(List.of(), proxy.seen);
            assertEquals(1, proxy.errors.size());
            assertEquals("truncated", proxy.errors.get(0).code());
            sender.reset();
            sender.send(seed().wallet);
            proxy.receive(sender.buffer.toByteArray());  // the next message still gets through
            assertEquals(List.of("Balance:2"), proxy.seen);
        }
    }

    static int indexOf(byte[] hay, byte[] needle) {
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) return i;
        }
        throw new AssertionError("not found");
    }
}
