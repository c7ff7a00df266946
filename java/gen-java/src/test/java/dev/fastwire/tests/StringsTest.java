package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.fastwire.Reader;
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
