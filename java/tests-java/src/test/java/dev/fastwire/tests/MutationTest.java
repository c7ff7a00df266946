package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.chronoxor.proto.Account;
import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import dev.fastwire.DecodeException;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.StructCodec;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every truncation and single-byte change (7 kinds per byte) of every golden vector, in both
 * formats: verify and deserialize agree (both accept, or both throw DecodeException with
 * the same code, and nothing else), and an accepted input deserializes, re-serializes and verifies again.
 */
class MutationTest {
    static final int[] CHANGES = {0x00, 0xFF, 0x01, 0x80, 0x7F};

    interface Codec3<T> {
        int verify(byte[] b);

        T read(byte[] b);

        T readInto(byte[] b, T reuse);

        /** A value to read into: the golden vector's, with every list one longer. */
        T reuse();

        byte[] write(T v);
    }

    static <T> void check(String what, byte[] input, Codec3<T> c) {
        String verifyError = null;
        try {
            c.verify(input);
        } catch (DecodeException e) {
            verifyError = e.code();
        } catch (RuntimeException | Error e) {
            fail(what + ": verify threw " + e);
        }
        T value = null;
        String readError = null;
        try {
            value = c.read(input);
        } catch (DecodeException e) {
            readError = e.code();
        } catch (RuntimeException | Error e) {
            fail(what + ": deserialize threw " + e);
        }
        // The same error, not only both failing: verify's fast walks give up on anything
        // unusual and the general walk (deserialize's checks) decides.
        if (!java.util.Objects.equals(verifyError, readError)) {
            fail(what + ": verify says " + verifyError + ", deserialize " + readError);
        }
        if (value != null) {
            // Read into a reused value (the fast read fills it in place; given up half-way,
            // the general read starts over on the same object): the same value.
            assertArrayEquals(c.write(value), c.write(c.readInto(input, c.reuse())), what + " (reused)");
            byte[] again = c.write(value);
            c.verify(again);
            assertArrayEquals(again, c.write(c.read(again)), what);
        }
    }

    static <T> void all(String name, StructCodec<T> codec) {
        Model<T> m = new Model<>(codec);
        FinalModel<T> f = new FinalModel<>(codec);
        byte[] golden = Vectors.hex(name + ".fbe.hex");
        Codec3<T> versioned = new Codec3<>() {
            public int verify(byte[] b) { return m.verify(b); }
            public T read(byte[] b) { return m.deserialize(b); }
            public T readInto(byte[] b, T reuse) { return m.deserialize(b, 0, b.length, reuse); }
            public T reuse() { return longer(m.deserialize(golden)); }
            public byte[] write(T v) { return m.serialize(v); }
        };
        Codec3<T> fin = new Codec3<>() {
            public int verify(byte[] b) { return f.verify(b); }
            public T read(byte[] b) { return f.deserialize(b); }
            public T readInto(byte[] b, T reuse) { return f.deserialize(b, 0, b.length, reuse); }
            public T reuse() { return longer(m.deserialize(golden)); }
            public byte[] write(T v) { return f.serialize(v); }
        };
        int cases = 0;
        for (Object[] fmt : new Object[][] {{".fbe.hex", versioned}, {".final.hex", fin}}) {
            byte[] v = Vectors.hex(name + fmt[0]);
            @SuppressWarnings("unchecked")
            Codec3<T> c = (Codec3<T>) fmt[1];
            for (int n = 0; n < v.length; n++) {
                byte[] cut = java.util.Arrays.copyOf(v, n);
                String what = name + fmt[0] + " cut at " + n;
                try {
                    c.verify(cut);
                    fail(what + ": accepted");
                } catch (DecodeException e) {
                    // expected
                }
                check(what, cut, c);
                cases++;
            }
            Function<Integer, Integer>[] kinds = kinds();
            for (int p = 0; p < v.length; p++) {
                for (Function<Integer, Integer> k : kinds) {
                    byte[] b = v.clone();
                    b[p] = (byte) (int) k.apply(v[p] & 0xFF);
                    check(name + fmt[0] + " byte " + p, b, c);
                    cases++;
                }
            }
        }
        assertEquals(true, cases > 0);
    }

    /** v with an extra element in the seed account's orders (lists to trim when reused). */
    static <T> T longer(T v) {
        if (v instanceof Account) {
            Account a = (Account) v;
            a.orders.add(new Order());
        }
        return v;
    }

    @SuppressWarnings({"unchecked", "rawtypes"}) // no generic array creation in Java
    static Function<Integer, Integer>[] kinds() {
        return new Function[] {x -> 0, x -> 0xFF, x -> (int) x ^ 1, x -> (int) x ^ 0x80, x -> ((int) x + 1) & 0xFF,
            x -> ((int) x - 1) & 0xFF, x -> 0x7F};
    }

    /** Surefire runs this class twice: with Unsafe loads, and with -Dfastwire.unsafe=false. */
    @Test
    void loadsAreUncheckedUnlessDisabled() {
        assertEquals(!"false".equals(System.getProperty("fastwire.unsafe")), dev.fastwire.Unchecked.ENABLED);
    }

    /** A range past the array's end whose off + len overflows an int: refused, not read. */
    @Test
    void rangeOverflowingIntIsTruncated() {
        byte[] v = Vectors.hex("account.fbe.hex");
        byte[] f = Vectors.hex("account.final.hex");
        byte[] big = java.util.Arrays.copyOf(v, v.length + 64);
        byte[] bigf = java.util.Arrays.copyOf(f, f.length + 64);
        Model<Account> m = new Model<>(Account.CODEC);
        FinalModel<Account> fm = new FinalModel<>(Account.CODEC);
        for (int off : new int[] {1, 32, 64}) {
            // the header at off claims a message larger than what is left of the array
            System.arraycopy(v, 0, big, off, v.length);
            System.arraycopy(f, 0, bigf, off, f.length);
            int[] lens = {Integer.MAX_VALUE, Integer.MAX_VALUE - off + 1, big.length - off + 1};
            for (int len : lens) {
                for (java.util.function.Supplier<Object> op : java.util.List.<java.util.function.Supplier<Object>>of(
                        () -> m.verify(big, off, len), () -> m.deserialize(big, off, len, null),
                        () -> fm.verify(bigf, off, len), () -> fm.deserialize(bigf, off, len, null))) {
                    try {
                        op.get();
                        fail("accepted a range past the array: off " + off + ", len " + len);
                    } catch (DecodeException e) {
                        assertEquals("truncated", e.code());
                    }
                }
            }
        }
    }

    @Test
    void account() {
        all("account", Account.CODEC);
    }

    @Test
    void order() {
        all("order", Order.CODEC);
    }

    @Test
    void balance() {
        all("balance", Balance.CODEC);
    }
}
