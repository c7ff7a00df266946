package dev.fastwire;

import java.lang.invoke.VarHandle;

/**
 * One message being read or verified: its bytes, where it ends, the visit budget
 * (versioned: every block reached is charged, so shared blocks cannot multiply the work),
 * the zero-size element allowance (final) and the final format's cursor {@link #pos}.
 * Every read the runtime makes is bounds-checked against {@link #end} first; a failed
 * check throws {@link DecodeException}.
 */
public final class Reader {
    private static final VarHandle I16 = Writer.I16;
    private static final VarHandle I32 = Writer.I32;
    private static final VarHandle I64 = Writer.I64;

    public byte[] buf;
    public int end;
    public long budget;
    public long zeroLeft;
    public int pos;
    private ShortStrings shortStrings;

    public Reader() {
    }

    /**
     * Starts a message in buf[start, end); the range must lie inside the array (the fast
     * walks load without the JVM's bounds checks up to {@code end}, see {@link Unchecked}).
     */
    public Reader reset(byte[] buf, int start, int end, long budget, long zeroLeft) {
        java.util.Objects.checkFromToIndex(start, end, buf.length);
        this.buf = buf;
        this.pos = start;
        this.end = end;
        this.budget = budget;
        this.zeroLeft = zeroLeft;
        return this;
    }

    /**
     * The string in buf[p, p + n) (checked by the caller): for short ASCII text `reuse` when
     * it holds these bytes (one compare of 8 bytes, where StringBytes sees them) or a
     * remembered one; else `reuse` when it is equal ASCII text, else a new one.
     */
    public String text(int p, int n, String reuse) {
        byte[] b = buf;
        if (n <= 8 && n > 0 && p + 8 <= b.length) {
            long x = (long) I64.get(b, p) & (-1L >>> (64 - (n << 3)));
            if ((x & 0x8080808080808080L) == 0) {
                // ASCII: reuse when it holds these bytes, else the remembered string
                if (StringBytes.WORD && StringBytes.word(reuse, n) == x) return reuse;
                ShortStrings c = shortStrings;
                if (c == null) c = shortStrings = new ShortStrings();
                return c.get(b, p, n, x);
            }
        }
        return reuse != null && Utf8.sameAscii(reuse, b, p, n) ? reuse : Utf8.decode(b, p, n);
    }

    public static DecodeException fail(String code) {
        return new DecodeException(code);
    }

    // Unchecked reads at a position the caller proved in bounds (a struct body, a block).
    public int u8(int p) {
        return buf[p] & 0xFF;
    }

    public byte i8(int p) {
        return buf[p];
    }

    public short i16(int p) {
        return (short) I16.get(buf, p);
    }

    public int i32(int p) {
        return (int) I32.get(buf, p);
    }

    public long u32(int p) {
        return ((int) I32.get(buf, p)) & 0xFFFFFFFFL;
    }

    public long i64(int p) {
        return (long) I64.get(buf, p);
    }

    public float f32(int p) {
        return Float.intBitsToFloat((int) I32.get(buf, p));
    }

    public double f64(int p) {
        return Double.longBitsToDouble((long) I64.get(buf, p));
    }

    // ---- versioned: finding blocks --------------------------------------------------

    /**
     * A [u32 length][bytes] block at base + off (off != 0); returns the payload's position,
     * the length in {@link #len}.
     */
    public int block(int base, long off, int slotEnd) {
        long p = base + off;
        if (p > end) throw fail("truncated");
        if (p < slotEnd) throw fail("bad_offset");
        if (p + 4 > end) throw fail("truncated");
        int q = (int) p;
        long n = u32(q);
        if (n > end - q - 4) throw fail("truncated");
        long b = budget - 4 - n;
        if (b < 0) throw fail("over_budget");
        budget = b;
        len = (int) n;
        return q + 4;
    }

    /** The length of the last block or count found. */
    public int len;

    /**
     * A [u32 count][count x slot] block at base + off (off != 0); returns the first
     * element's position, the count in {@link #len}.
     */
    public int counted(int base, long off, int slotEnd, int slot) {
        long p = base + off;
        if (p > end) throw fail("truncated");
        if (p < slotEnd) throw fail("bad_offset");
        if (p + 4 > end) throw fail("truncated");
        int q = (int) p;
        long n = u32(q);
        if (n > (end - q - 4) / slot) throw fail("truncated");
        long b = budget - 4 - n * slot;
        if (b < 0) throw fail("over_budget");
        budget = b;
        len = (int) n;
        return q + 4;
    }

    /**
     * A struct body at base + off: forward, inside the message, size >= 8, the expected
     * type, within the depth; charged to the budget. Returns its position; its stored size
     * in {@link #len}.
     */
    public int enter(int base, long off, int slotEnd, int type, int depth) {
        if (off == 0) throw fail("bad_offset");
        long p = base + off;
        if (p > end) throw fail("truncated");
        if (p < slotEnd) throw fail("bad_offset");
        if (p + 8 > end) throw fail("truncated");
        int q = (int) p;
        long stored = u32(q);
        if (stored < 8) throw fail("bad_size");
        if (stored > end - q) throw fail("truncated");
        if (i32(q + 4) != type) throw new DecodeException("bad_type", u32(q + 4) + " where " + (type & 0xFFFFFFFFL) + " was expected");
        if (depth < 1) throw fail("too_deep");
        long b = budget - stored;
        if (b < 0) throw fail("over_budget");
        budget = b;
        len = (int) stored;
        return q;
    }

    /** An optional's value block of `need` bytes at base + off; returns its position. */
    public int optional(int base, long off, int slotEnd, int need) {
        if (off == 0) throw new DecodeException("bad_offset", "a set optional with offset 0");
        long p = base + off;
        if (p > end) throw fail("truncated");
        if (p < slotEnd) throw fail("bad_offset");
        if (p + need > end) throw fail("truncated");
        long b = budget - need;
        if (b < 0) throw fail("over_budget");
        budget = b;
        return (int) p;
    }

    // ---- final: the cursor ------------------------------------------------------------

    /** Checks that n bytes remain at the cursor; returns the cursor and moves it past them. */
    public int take(int n) {
        int p = pos;
        if (n > end - p) throw fail("truncated");
        pos = p + n;
        return p;
    }

    /** A final-format count of elements of at least elemMin bytes each, checked. */
    public int count(int elemMin) {
        int p = take(4);
        long n = u32(p);
        if (elemMin > 0) {
            if (n * elemMin > end - pos) throw fail("truncated");
        } else {
            if (n > zeroLeft) throw new DecodeException("over_budget", n + " elements of zero size");
            zeroLeft -= n;
        }
        return (int) n;
    }

    public static void checkScale(int scaleByte) {
        if (scaleByte > 28) throw new DecodeException("bad_value", "decimal scale " + scaleByte);
    }
}
