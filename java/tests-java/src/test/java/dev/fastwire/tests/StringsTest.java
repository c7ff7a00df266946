package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.chronoxor.proto.Account;
import dev.fastwire.Fast;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.Reader;
import dev.fastwire.StringBytes;
import dev.fastwire.Utf8;
import dev.fastwire.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The string fast paths (Utf8.put's 8-byte store for short ASCII text, Reader.text's
 * remembered short strings) against the plain definitions: every length around 8, ASCII,
 * Latin-1, other BMP text and supplementary characters, at the start, middle and very end
 * of a buffer, written after garbage and read with and without a string to reuse.
 * Surefire runs this class twice: with a String's own bytes seen (StringBytes) and with
 * -Dfastwire.unsafe=false (the char-by-char path).
 */
class StringsTest {
    static List<String> samples() {
        List<String> out = new ArrayList<>();
        String[] alphabets = {"abcdefghijklmnopqrstuvwxyz", "é", "Ł", "€", "\uD83D\uDE00", "\u007F", "\u0080", "\u0000"};
        for (int n = 0; n <= 18; n++) {
            for (String a : alphabets) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) sb.append(i == n / 2 ? a : String.valueOf((char) ('a' + (i % 26))));
                out.add(sb.toString());
            }
        }
        for (int n : new int[] {31, 32, 33, 64, 100, 1000}) {
            for (String a : alphabets) {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < n; i++) sb.append((char) ('A' + (i % 26)));
                out.add(sb.toString());
                sb.insert(n - 1, a);  // the odd char in the tail, past the last full word
                out.add(sb.toString());
                sb.insert(3, a);
                out.add(sb.toString());
            }
        }
        // Strings made other ways: substrings, from chars, concatenation.
        out.add("xyzEURUSDxyz".substring(3, 9));
        out.add(new String(new char[] {'E', 'U', 'R'}));
        out.add("\u0100abc".substring(1));
        out.add("ab" + out.size());
        return out;
    }

    @Test
    void putWritesUtf8AndReadingGivesItBack() {
        for (String s : samples()) {
            byte[] want = s.getBytes(StandardCharsets.UTF_8);
            for (int pad = 0; pad < 12; pad++) {
                Writer w = new Writer(16);
                Arrays.fill(w.buf, (byte) 0x7A);
                w.allocRaw(pad);
                int at = Utf8.put(w, s);
                assertEquals(pad, at);
                assertEquals(pad + 4 + want.length, w.size, s);
                byte[] got = Arrays.copyOfRange(w.buf, at + 4, w.size);
                assertArrayEquals(want, got, s);
                // Read back from an array that ends right after the string, and from one with
                // garbage after it, with each kind of string to reuse.
                byte[] exact = Arrays.copyOf(w.buf, w.size);
                byte[] longer = Arrays.copyOf(w.buf, w.size + 16);
                Arrays.fill(longer, w.size, longer.length, (byte) 0x41);
                for (byte[] buf : new byte[][] {exact, longer}) {
                    for (String reuse : new String[] {null, s, s + "x", "", "abc"}) {
                        Reader r = new Reader().reset(buf, 0, buf.length, 1 << 20, 1 << 20);
                        assertEquals(s, r.text(at + 4, want.length, reuse), s);
                        assertEquals(s, r.text(at + 4, want.length, reuse), s);  // remembered
                    }
                }
            }
        }
    }

    @Test
    void stringBytesIsOnUnlessTurnedOff() {
        // The JDK 17 this runs on has compact strings, Unsafe and String's fields.
        String on = System.getProperty("fastwire.unsafe");
        assertEquals(on == null ? Runtime.version().feature() < 24 : !"false".equals(on), StringBytes.ENABLED);
        if (!StringBytes.ENABLED) {
            assertNull(StringBytes.latin1("abc"));
        } else {
            assertArrayEquals("abc\u00e9".getBytes(StandardCharsets.ISO_8859_1), StringBytes.latin1("abc\u00e9"));
            assertNull(StringBytes.latin1("\u20ac"));
            assertNull(StringBytes.latin1("\uD83D\uDE00"));
        }
    }

    @Test
    void pack8IsTheCharsAsBytesWhenAscii() {
        for (String s : samples()) {
            int n = s.length();
            if (n > 8) continue;
            long want = 0;
            boolean ascii = true;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                ascii &= c < 0x80;
                want |= (long) c << (8 * i);
            }
            assertEquals(ascii ? want : -1L, Fast.pack8(s, n), s);
            assertEquals(ascii ? want : -1L, StringBytes.pack8(s, n), s);
        }
    }

    @Test
    void pack8SeesEveryLengthAndEveryNonAsciiChar() {
        // StringBytes.ascii8 loads a short array's whole first word (WORD): the bytes past
        // the length must not count, and a Latin-1 char at any position must.
        for (int n = 0; n <= 8; n++) {
            char[] c = new char[n];
            long want = 0;
            for (int i = 0; i < n; i++) {
                c[i] = (char) ('a' + i);
                want |= (long) c[i] << (8 * i);
            }
            String s = new String(c);
            assertEquals(want, StringBytes.pack8(s, n), s);
            for (int i = 0; i < n; i++) {
                for (char bad : new char[] {'\u0080', '\u00e9', '\u00ff'}) {
                    char[] d = c.clone();
                    d[i] = bad;
                    assertEquals(-1L, StringBytes.pack8(new String(d), n), n + " " + i);
                }
            }
        }
    }

    @Test
    void asciiChecksEveryByte() {
        for (int n = 0; n <= 40; n++) {
            byte[] a = new byte[n + 3];
            Arrays.fill(a, (byte) 'a');
            assertEquals(true, StringBytes.ascii(a, n));
            for (int i = 0; i < n; i++) {
                for (byte bad : new byte[] {(byte) 0x80, (byte) 0xE9, (byte) 0xFF}) {
                    a[i] = bad;
                    assertEquals(false, StringBytes.ascii(a, n), n + " " + i);
                    a[i] = 'a';
                }
            }
            a[n] = (byte) 0x80;  // past n: not looked at
            assertEquals(true, StringBytes.ascii(a, n));
        }
    }

    @Test
    void generatedSerializeWritesEveryKindOfString() {
        Model<Account> model = new Model<>(Account.CODEC);
        FinalModel<Account> fin = new FinalModel<>(Account.CODEC);
        int base = model.serialize(GoldenTest.seed()).length;
        int fbase = fin.serialize(GoldenTest.seed()).length;
        for (String s : samples()) {
            Account a = GoldenTest.seed();
            a.name = s;
            a.wallet.currency = s;
            a.asset.currency = s;
            a.orders.get(1).symbol = s;
            int grow = 4 * s.getBytes(StandardCharsets.UTF_8).length - "Test".length() - 2 * "USD".length()
                - "EURUSD".length();
            byte[] v = model.serialize(a);
            byte[] f = fin.serialize(a);
            assertEquals(base + grow, v.length, s);
            assertEquals(fbase + grow, f.length, s);
            assertEquals(a.toString(), model.deserialize(v).toString(), s);  // equals compares the key only
            assertEquals(a.toString(), fin.deserialize(f).toString(), s);
        }
    }

    @Test
    void aNullStringIsAnExceptionNotACrash() {
        Account a = GoldenTest.seed();
        a.orders.get(2).symbol = null;
        assertThrows(NullPointerException.class, () -> new Model<>(Account.CODEC).serialize(a));
        assertThrows(NullPointerException.class, () -> new FinalModel<>(Account.CODEC).serialize(a));
        assertNull(StringBytes.latin1(null));
    }

    @Test
    void readingKeepsAnEqualReusedStringAndOnlyThat() {
        byte[] buf = "EURUSD\u00e9\0\0\0\0\0\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        Reader r = new Reader().reset(buf, 0, buf.length, 1 << 20, 1 << 20);
        String reuse = new String("EURUSD".toCharArray());
        assertEquals(reuse, r.text(0, 6, reuse));
        if (StringBytes.WORD) assertSame(reuse, r.text(0, 6, reuse));  // else the remembered one
        if (java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN) assertEquals(StringBytes.ENABLED, StringBytes.WORD);
        assertEquals("EURUS", r.text(0, 5, reuse));
        assertEquals("URUSD", r.text(1, 5, "EURUS"));
        assertNotSame(reuse, r.text(0, 5, "EURUSD".substring(0, 5) + "\u00e9"));
        // the raw byte 0xE9 is not UTF-8 for a Latin-1 string's 'é' (C3 A9): never equal to it
        assertNotEquals("\u00e9", r.text(6, 1, "\u00e9"));
    }

    @Test
    void rememberedStringsAreKeptApartByLengthAndContent() {
        byte[] buf = "ab\0\0\0\0\0\0\0\0cd\0\0\0\0\0\0\0\0".getBytes(StandardCharsets.ISO_8859_1);
        Reader r = new Reader().reset(buf, 0, buf.length, 1 << 20, 1 << 20);
        for (int k = 0; k < 3; k++) {
            for (int n = 1; n <= 8; n++) {
                assertEquals(new String(buf, 0, n, StandardCharsets.ISO_8859_1), r.text(0, n, null));
                assertEquals(new String(buf, 10, n, StandardCharsets.ISO_8859_1), r.text(10, n, "cd"));
            }
        }
    }
}
