package dev.fastwire;

import java.nio.charset.StandardCharsets;

/**
 * The short ASCII strings a {@link Reader} decoded recently, by content: 32 entries indexed
 * by a hash of the (at most 8) bytes. Reading such a string again returns the remembered
 * {@link String} (equal, immutable) instead of decoding or comparing it character by
 * character: one 8-byte load, a multiply and a compare. Currency codes, symbols and the
 * fields of a reused object are read without allocating and without a per-character loop.
 * A {@link Reader} makes one on its first string (about 400 bytes).
 */
final class ShortStrings {
    private final long[] packed = new long[32];
    private final String[] strings = new String[32];

    /**
     * The string in buf[p, p + n), ASCII, whose bytes are x (little-endian, the rest 0);
     * 1 <= n <= 8.
     */
    String get(byte[] buf, int p, int n, long x) {
        // The key: the bytes with the last one's high bit set, which no ASCII byte has, so
        // it holds the length too ("ab" and "ab\0" differ) and is never the empty slot's 0.
        long key = x | (0x80L << ((n - 1) << 3));
        int i = (int) ((key * 0x9E3779B97F4A7C15L) >>> 59);
        if (packed[i] == key) return strings[i];
        String s = new String(buf, p, n, StandardCharsets.ISO_8859_1);
        strings[i] = s;
        packed[i] = key;
        return s;
    }
}
