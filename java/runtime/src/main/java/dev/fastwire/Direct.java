package dev.fastwire;

import java.util.ArrayList;
import java.util.List;

/**
 * Static helpers that generated code calls for the fields it writes and reads in line
 * (strings, bytes, the lists of structs the fast paths fill): direct calls the JIT always
 * binds and inlines, where the composed {@link Codec}s need a virtual call per value. The
 * checks are the ones the codecs make (see {@link Reader}).
 */
public final class Direct {
    private Direct() {
    }

    // ---- string and bytes -------------------------------------------------------------

    public static void vputString(Writer w, int pos, int base, String v) {
        int at = Utf8.put(w, v);
        Writer.I32.set(w.buf, pos, at - base);
    }

    public static String vgetString(Reader r, int pos, int base, String reuse) {
        long off = r.u32(pos);
        if (off == 0) return "";
        int p = r.block(base, off, pos + 4);
        return r.text(p, r.len, reuse);
    }

    /** Checks a string's or bytes' block. */
    public static void vcheckText(Reader r, int pos, int base) {
        long off = r.u32(pos);
        if (off != 0) r.block(base, off, pos + 4);
    }

    public static void fputString(Writer w, String v) {
        Utf8.put(w, v);
    }

    public static String fgetString(Reader r, String reuse) {
        int n = textLength(r);
        int p = r.take(n);
        return r.text(p, n, reuse);
    }

    public static void fcheckText(Reader r) {
        r.take(textLength(r));
    }

    private static int textLength(Reader r) {
        long n = r.u32(r.take(4));
        if (n > r.end - r.pos) throw Reader.fail("truncated");
        return (int) n;
    }

    public static void vputBytes(Writer w, int pos, int base, byte[] v) {
        Codecs.BYTES.vput(w, pos, base, v);
    }

    public static byte[] vgetBytes(Reader r, int pos, int base) {
        long off = r.u32(pos);
        if (off == 0) return new byte[0];
        int p = r.block(base, off, pos + 4);
        return java.util.Arrays.copyOfRange(r.buf, p, p + r.len);
    }

    public static void fputBytes(Writer w, byte[] v) {
        Codecs.BYTES.fput(w, v);
    }

    public static byte[] fgetBytes(Reader r) {
        int n = textLength(r);
        int p = r.take(n);
        return java.util.Arrays.copyOfRange(r.buf, p, p + n);
    }

    // ---- T[] and T(): the fast paths' lists of structs ------------------------------

    /** The list to fill: `reuse` when given, else a new one. */
    public static <T> List<T> list(List<T> reuse) {
        return reuse != null ? reuse : new ArrayList<>();
    }

    /** Sets or appends element i of a list being refilled. */
    public static <T> void set(List<T> out, int i, int old, T x) {
        if (i < old) {
            out.set(i, x);
        } else {
            out.add(x);
        }
    }

    /** Drops the elements after the first n of a refilled list. */
    public static <T> void trim(List<T> out, int n) {
        int old = out.size();
        if (old > n) out.subList(n, old).clear();
    }
}
