package dev.fastwire;

import java.nio.charset.StandardCharsets;

/**
 * Strings on the wire are bytes: UTF-8 is not validated. Reading keeps every byte: valid
 * UTF-8 becomes its characters, each byte of an invalid sequence becomes a lone surrogate
 * U+DC80..U+DCFF (as Python's surrogateescape), which writing turns back into that byte.
 * So any string read from the wire is written back byte for byte.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** The string in buf[p, p + n). */
    public static String decode(byte[] buf, int p, int n) {
        int end = p + n;
        for (int i = p; i < end; i++) {
            if (buf[i] < 0) {
                return decodeSlow(buf, p, end);
            }
        }
        return new String(buf, p, n, StandardCharsets.ISO_8859_1);
    }

    private static String decodeSlow(byte[] b, int p, int end) {
        StringBuilder sb = new StringBuilder(end - p);
        int i = p;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                sb.append((char) c);
                i++;
                continue;
            }
            int need;
            int cp;
            int min;
            if (c >= 0xC2 && c <= 0xDF) {
                need = 1; cp = c & 0x1F; min = 0x80;
            } else if (c >= 0xE0 && c <= 0xEF) {
                need = 2; cp = c & 0x0F; min = 0x800;
            } else if (c >= 0xF0 && c <= 0xF4) {
                need = 3; cp = c & 0x07; min = 0x10000;
            } else {
                sb.append((char) (0xDC00 | c));
                i++;
                continue;
            }
            boolean ok = i + need < end;
            if (ok) {
                for (int k = 1; k <= need; k++) {
                    int cc = b[i + k] & 0xFF;
                    if ((cc & 0xC0) != 0x80) {
                        ok = false;
                        break;
                    }
                    cp = (cp << 6) | (cc & 0x3F);
                }
            }
            if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) {
                ok = false;
            }
            if (!ok) {
                sb.append((char) (0xDC00 | c));
                i++;
                continue;
            }
            sb.appendCodePoint(cp);
            i += need + 1;
        }
        return sb.toString();
    }

    /** True when s is ASCII text equal to buf[p, p + n) (a reused string can be kept). */
    public static boolean sameAscii(String s, byte[] buf, int p, int n) {
        if (s.length() != n) return false;
        for (int i = 0; i < n; i++) {
            if (s.charAt(i) != buf[p + i]) return false;  // bytes >= 0x80 are negative: never equal
        }
        return true;
    }

    /**
     * The first n (at most 8) chars of s as bytes of a little-endian long when they are all
     * ASCII, else -1. Straight-line code: for the short strings of most messages a loop's
     * set-up costs more than the characters.
     */
    @SuppressWarnings("fallthrough") // each case adds one char and falls to the next
    static long pack8(String s, int n) {
        long x = 0;
        int c;
        int acc = 0;
        switch (n) {
            case 8: c = s.charAt(7); acc |= c; x |= (long) c << 56;  // fall through
            case 7: c = s.charAt(6); acc |= c; x |= (long) c << 48;  // fall through
            case 6: c = s.charAt(5); acc |= c; x |= (long) c << 40;  // fall through
            case 5: c = s.charAt(4); acc |= c; x |= (long) c << 32;  // fall through
            case 4: c = s.charAt(3); acc |= c; x |= (long) c << 24;  // fall through
            case 3: c = s.charAt(2); acc |= c; x |= (long) c << 16;  // fall through
            case 2: c = s.charAt(1); acc |= c; x |= (long) c << 8;   // fall through
            case 1: c = s.charAt(0); acc |= c; x |= c;               // fall through
            default:
        }
        return acc < 0x80 ? x : -1L;
    }

    /** The UTF-8 length of s (a lone surrogate U+DC80..U+DCFF counts one byte). */
    public static int length(String s) {
        int n = s.length();
        int len = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return lengthSlow(s, i, len);
            }
        }
        return len;
    }

    private static int lengthSlow(String s, int i, int len) {
        int n = s.length();
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                len += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                len += 2;  // 4 bytes for two chars
                i++;
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                len += 0;  // an escaped byte
            } else if (Character.isSurrogate(c)) {
                len += 2;  // written as U+FFFD
            } else {
                len += 2;
            }
        }
        return len;
    }

    /** Writes s's bytes at buf[p]; the caller reserved length(s) bytes. */
    public static void encode(String s, byte[] buf, int p) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf[p++] = (byte) c;
            } else if (c < 0x800) {
                buf[p++] = (byte) (0xC0 | (c >> 6));
                buf[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[p++] = (byte) (0xF0 | (cp >> 18));
                buf[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buf[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buf[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                buf[p++] = (byte) (c & 0xFF);
            } else {
                char x = Character.isSurrogate(c) ? '\uFFFD' : c;
                buf[p++] = (byte) (0xE0 | (x >> 12));
                buf[p++] = (byte) (0x80 | ((x >> 6) & 0x3F));
                buf[p++] = (byte) (0x80 | (x & 0x3F));
            }
        }
    }

    /**
     * Appends [u32 length][s as UTF-8] to w; returns the block's position. ASCII text of at
     * most 8 chars (the usual case) is one 8-byte store, longer ASCII text one pass, other
     * text two.
     */
    public static int put(Writer w, String s) {
        int n = s.length();
        int at = w.allocRaw(4 + n);
        byte[] b = w.buf;
        if (n <= 8 && at + 12 <= b.length) {
            long x = StringBytes.pack8(s, n);
            if (x != -1L) {
                // The bytes past n are inside the buffer and past size: the next alloc
                // overwrites or clears them.
                Writer.I64.set(b, at + 4, x);
                Writer.I32.set(b, at, n);
                return at;
            }
        }
        return putLong(w, s, at);
    }

    private static int putLong(Writer w, String s, int at) {
        int n = s.length();
        byte[] b = w.buf;
        byte[] a = StringBytes.latin1(s);
        if (a != null && StringBytes.ascii(a, n)) {
            System.arraycopy(a, 0, b, at + 4, n);
            Writer.I32.set(b, at, n);
            return at;
        }
        int p = at + 4;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                w.size = at;
                int len = length(s);
                at = w.allocRaw(4 + len);
                Writer.I32.set(w.buf, at, len);
                encode(s, w.buf, at + 4);
                return at;
            }
            b[p + i] = (byte) c;
        }
        Writer.I32.set(b, at, n);
        return at;
    }

    /** s as UTF-8 bytes (lone escaped bytes restored). */
    public static byte[] bytes(String s) {
        byte[] out = new byte[length(s)];
        encode(s, out, 0);
        return out;
    }
}
