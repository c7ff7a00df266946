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
}
