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

    /** The first n (at most 8) chars of s packed little-endian when all ASCII, else -1. */
    public static long pack8(String s, int n) {
        return StringBytes.pack8(s, n);
    }
}
