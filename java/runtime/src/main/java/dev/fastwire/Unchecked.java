package dev.fastwire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.nio.ByteOrder;

/**
 * Little-endian loads for the generated fast walks of verify and deserialize (vfast0,
 * ffast0, vgetFast0, fgetFast0) without the JVM's own array bounds check: every call site
 * has proved {@code 0 <= p} and {@code p + width <= limit <= d.length} by the walk's own
 * checks before it loads, so the JVM's check on each load only repeats them (SBE/Agrona's
 * UnsafeBuffer reads the same way).
 *
 * <p>The loads go through {@code sun.misc.Unsafe} (module jdk.unsupported) when it is
 * available, the platform is little-endian and {@code -Dfastwire.unsafe=false} is not set;
 * otherwise through the bounds-checked byte-array views (VarHandles), which throw
 * IndexOutOfBoundsException where Unsafe would read past the array. Every accessor
 * asserts its bound: the tests run with assertions on (Surefire's -ea, the Jazzer target,
 * the mutation sweep over every truncation and byte change), so a walk that loaded
 * without proving the bound fails there in both modes.
 */
public final class Unchecked {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Whether the loads skip the JVM's bounds check (Unsafe in use). */
    public static final boolean ENABLED;
    private static final sun.misc.Unsafe U;
    private static final long BASE;

    static {
        sun.misc.Unsafe u = null;
        long base = 0;
        // The same rule as StringBytes: -Dfastwire.unsafe=false never, =true always, unset
        // before JDK 24 (which warns at the first use of Unsafe's memory access, JEP 498).
        if (StringBytes.wanted(System.getProperty("fastwire.unsafe"), Runtime.version().feature())
                && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
            try {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                u = (sun.misc.Unsafe) f.get(null);
                base = u.arrayBaseOffset(byte[].class);
                if (u.arrayIndexScale(byte[].class) != 1) u = null;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                u = null;
            }
        }
        U = u;
        BASE = base;
        ENABLED = u != null;
    }

    private Unchecked() {
    }

    public static int u8(byte[] d, int p, int limit) {
        assert in(d, p, 1, limit) : where(d, p, 1, limit);
        return (ENABLED ? U.getByte(d, BASE + p) : d[p]) & 0xFF;
    }

    public static byte i8(byte[] d, int p, int limit) {
        assert in(d, p, 1, limit) : where(d, p, 1, limit);
        return ENABLED ? U.getByte(d, BASE + p) : d[p];
    }

    public static short i16(byte[] d, int p, int limit) {
        assert in(d, p, 2, limit) : where(d, p, 2, limit);
        return ENABLED ? U.getShort(d, BASE + p) : (short) I16.get(d, p);
    }

    public static int i32(byte[] d, int p, int limit) {
        assert in(d, p, 4, limit) : where(d, p, 4, limit);
        return ENABLED ? U.getInt(d, BASE + p) : (int) I32.get(d, p);
    }

    public static long u32(byte[] d, int p, int limit) {
        return i32(d, p, limit) & 0xFFFFFFFFL;
    }

    public static long i64(byte[] d, int p, int limit) {
        assert in(d, p, 8, limit) : where(d, p, 8, limit);
        return ENABLED ? U.getLong(d, BASE + p) : (long) I64.get(d, p);
    }

    public static float f32(byte[] d, int p, int limit) {
        return Float.intBitsToFloat(i32(d, p, limit));
    }

    public static double f64(byte[] d, int p, int limit) {
        return Double.longBitsToDouble(i64(d, p, limit));
    }

    // The assertions' range check and message, for int and long positions alike.
    private static boolean in(byte[] d, long p, int width, long limit) {
        return p >= 0 && limit <= d.length && p <= limit - width;
    }

    private static String where(byte[] d, long p, int width, long limit) {
        return width + " bytes at " + p + ", limit " + limit + ", array " + d.length;
    }

    // The same loads at a long position (the generated walks keep positions in longs: an
    // offset zero-extended from its u32 and added to a position cannot wrap, and the JIT
    // folds a constant added to a long position into the load's address).

    public static int u8(byte[] d, long p, long limit) {
        assert in(d, p, 1, limit) : where(d, p, 1, limit);
        return (ENABLED ? U.getByte(d, BASE + p) : d[(int) p]) & 0xFF;
    }

    public static byte i8(byte[] d, long p, long limit) {
        assert in(d, p, 1, limit) : where(d, p, 1, limit);
        return ENABLED ? U.getByte(d, BASE + p) : d[(int) p];
    }

    public static short i16(byte[] d, long p, long limit) {
        assert in(d, p, 2, limit) : where(d, p, 2, limit);
        return ENABLED ? U.getShort(d, BASE + p) : (short) I16.get(d, (int) p);
    }

    public static int i32(byte[] d, long p, long limit) {
        assert in(d, p, 4, limit) : where(d, p, 4, limit);
        return ENABLED ? U.getInt(d, BASE + p) : (int) I32.get(d, (int) p);
    }

    /** The u32 at p, zero-extended (one 32-bit load on x86-64: no sign extension). */
    public static long u32(byte[] d, long p, long limit) {
        return i32(d, p, limit) & 0xFFFFFFFFL;
    }

    public static long i64(byte[] d, long p, long limit) {
        assert in(d, p, 8, limit) : where(d, p, 8, limit);
        return ENABLED ? U.getLong(d, BASE + p) : (long) I64.get(d, (int) p);
    }

    public static float f32(byte[] d, long p, long limit) {
        return Float.intBitsToFloat(i32(d, p, limit));
    }

    public static double f64(byte[] d, long p, long limit) {
        return Double.longBitsToDouble(i64(d, p, limit));
    }
}
