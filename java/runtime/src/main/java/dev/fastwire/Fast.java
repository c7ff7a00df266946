package dev.fastwire;

import java.lang.invoke.VarHandle;

/**
 * Little-endian loads for the generated fast walks of verify (vfast0, ffast0):
 * the walks prove every position in bounds of the message before they load from it.
 */
public final class Fast {
    private static final VarHandle I32 = Writer.I32;

    private Fast() {
    }

    public static int i32(byte[] d, int p) {
        return (int) I32.get(d, p);
    }

    public static int u8(byte[] d, int p) {
        return d[p] & 0xFF;
    }

    // Stores for the generated straight-line serialize (vw0, fw0): the caller has made
    // room (Writer.room) for every byte it stores.
    public static void w8(byte[] b, int p, int v) {
        b[p] = (byte) v;
    }

    public static void w16(byte[] b, int p, short v) {
        Writer.I16.set(b, p, v);
    }

    public static void w32(byte[] b, int p, int v) {
        I32.set(b, p, v);
    }

    public static void w64(byte[] b, int p, long v) {
        Writer.I64.set(b, p, v);
    }

    public static void wf32(byte[] b, int p, float v) {
        I32.set(b, p, Float.floatToRawIntBits(v));
    }

    public static void wf64(byte[] b, int p, double v) {
        Writer.I64.set(b, p, Double.doubleToRawLongBits(v));
    }

    /**
     * A string field of the straight-line serialize: its block at p (the end), its offset at
     * slot; returns the new end (the buffer may have grown: read w.buf). Text of at most 8
     * ASCII chars is one 8-byte store of its bytes, seen in the String itself where the JDK
     * lets us (StringBytes) else packed from its chars; anything else goes by the general
     * path. Small, so the JIT inlines it; StringBytes.ENABLED is a constant to it.
     */
    public static int vputString(Writer w, byte[] b, int p, int slot, int base, String s) {
        int n;
        long x;
        if (StringBytes.ENABLED) {
            byte[] a = StringBytes.latin1(s);
            if (a != null && (n = a.length) <= 8 && p + 12 <= b.length && (x = StringBytes.ascii8(a, n)) != -1L) {
                Writer.I64.set(b, p + 4, x);  // the bytes past n are past the end: the next field overwrites them
                I32.set(b, p, n);
                I32.set(b, slot, p - base);
                return p + 4 + n;
            }
        } else if ((n = s.length()) <= 8 && p + 12 <= b.length && (x = Utf8.pack8(s, n)) != -1L) {
            Writer.I64.set(b, p + 4, x);
            I32.set(b, p, n);
            I32.set(b, slot, p - base);
            return p + 4 + n;
        }
        w.size = p;
        Direct.vputString(w, slot, base, s);
        return w.size;
    }

    /** A string field of the final format at p (the end), as {@link #vputString}. */
    public static int fputString(Writer w, byte[] b, int p, String s) {
        int n;
        long x;
        if (StringBytes.ENABLED) {
            byte[] a = StringBytes.latin1(s);
            if (a != null && (n = a.length) <= 8 && p + 12 <= b.length && (x = StringBytes.ascii8(a, n)) != -1L) {
                Writer.I64.set(b, p + 4, x);
                I32.set(b, p, n);
                return p + 4 + n;
            }
        } else if ((n = s.length()) <= 8 && p + 12 <= b.length && (x = Utf8.pack8(s, n)) != -1L) {
            Writer.I64.set(b, p + 4, x);
            I32.set(b, p, n);
            return p + 4 + n;
        }
        w.size = p;
        Direct.fputString(w, s);
        return w.size;
    }

    /** The first n (at most 8) chars of s packed little-endian when all ASCII, else -1. */
    public static long pack8(String s, int n) {
        return StringBytes.pack8(s, n);
    }
}
