package dev.fastwire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A String's own bytes, for writing ASCII text without reading it char by char.
 *
 * <p>JDK 9 and later keep a string that is all Latin-1 as one byte per char in a private
 * {@code byte[] value} with {@code coder == 0} ("compact strings"). Where the JDK lets us
 * ({@code sun.misc.Unsafe} of the module jdk.unsupported, and the fields found by name),
 * {@link #latin1} returns that array, which the serializer only reads: through the
 * bounds-checked byte-array views or {@code System.arraycopy}, never past its length, or
 * (an array of 1 to 8 bytes, {@link #ascii8}) as the one 8-byte word its object holds at
 * its base, never past the object, so the access is memory-safe; it never writes to it. Anything else (a UTF-16 string, a
 * JDK without these fields, {@code -XX:-CompactStrings}, {@code -Dfastwire.unsafe=false}, or
 * JDK 24 and later unless {@code -Dfastwire.unsafe=true}) takes the char-by-char path
 * ({@link Utf8}), which writes the same bytes.
 */
public final class StringBytes {
    private StringBytes() {
    }

    static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH = 0x8080808080808080L;

    private static final sun.misc.Unsafe U;
    private static final long VALUE;
    private static final long CODER;
    /** Whether {@link #latin1} can see strings' bytes (else it always returns null). */
    public static final boolean ENABLED;
    /**
     * Whether {@link #ascii8} reads a short array's bytes as one 8-byte load at its base:
     * with Unsafe, a little-endian machine and a byte[] base offset that is a multiple of 8.
     * The JVM aligns every object to (a multiple of) 8 bytes, so an array of 1 to 8 bytes
     * whose data starts 8-aligned occupies the whole 8-byte word there: the load stays
     * inside the array's own object (the bytes past its length are its padding, masked off).
     */
    public static final boolean WORD;
    private static final long BASE;

    static {
        sun.misc.Unsafe u = null;
        long value = -1;
        long coder = -1;
        boolean on = false;
        if (wanted(System.getProperty("fastwire.unsafe"), Runtime.version().feature())) {
            try {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                u = (sun.misc.Unsafe) f.get(null);
                Field v = String.class.getDeclaredField("value");
                Field c = String.class.getDeclaredField("coder");
                if (v.getType() == byte[].class && c.getType() == byte.class) {
                    value = u.objectFieldOffset(v);
                    coder = u.objectFieldOffset(c);
                    on = check(u, value, coder);
                }
            } catch (Throwable e) {  // no Unsafe, no such fields, a security manager: the fallback
                on = false;
            }
        }
        U = on ? u : null;
        VALUE = value;
        CODER = coder;
        ENABLED = on;
        long base = on ? u.arrayBaseOffset(byte[].class) : -1;
        WORD = on && base % 8 == 0 && u.arrayIndexScale(byte[].class) == 1
            && ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        BASE = base;
    }

    /**
     * Whether to try: -Dfastwire.unsafe=false never, =true always, unset before JDK 24 (JDK 24
     * and later warn at the first use of Unsafe's memory-access methods, JEP 498).
     */
    static boolean wanted(String property, int feature) {
        return property == null ? feature < 24 : !"false".equals(property);
    }

    /** The layout is what we expect: a Latin-1 string's array holds its chars, a UTF-16 one is not Latin-1. */
    private static boolean check(sun.misc.Unsafe u, long value, long coder) {
        String a = new String(new char[] {'f', 'a', 's', 't', '\u00e9'});
        String b = new String(new char[] {'w', '\u0100'});
        Object av = u.getObject(a, value);
        return u.getByte(a, coder) == 0 && av instanceof byte[]
            && Arrays.equals((byte[]) av, "fast\u00e9".getBytes(StandardCharsets.ISO_8859_1))
            && u.getByte(b, coder) != 0;
    }

    /** s's own Latin-1 bytes (one per char; to be read only), or null: s is not Latin-1, or
     * the bytes cannot be seen (or s is null). */
    public static byte[] latin1(String s) {
        if (!ENABLED || s == null || U.getByte(s, CODER) != 0) {  // null: the caller's s.length() throws
            return null;
        }
        return (byte[]) U.getObject(s, VALUE);
    }

    /**
     * s's bytes as {@link #ascii8}'s word (its first n bytes, little-endian, the rest 0) when
     * s is a Latin-1 string of n chars, else -1; only with {@link #WORD} and 1 <= n <= 8. A
     * reader compares it with the 8 bytes it is reading to keep an equal string it reuses.
     */
    static long word(String s, int n) {
        if (s == null || U.getByte(s, CODER) != 0) {
            return -1L;
        }
        byte[] a = (byte[]) U.getObject(s, VALUE);
        return a.length == n ? U.getLong(a, BASE) & (-1L >>> (64 - (n << 3))) : -1L;
    }

    /**
     * The chars of s (n of them, at most 8) as the bytes of a little-endian long when they
     * are all ASCII, else -1: two overlapping loads of its bytes when they can be seen,
     * else char by char.
     */
    public static long pack8(String s, int n) {
        byte[] a = latin1(s);
        if (a == null) {
            return Utf8.pack8(s, n);
        }
        return ascii8(a, a.length);
    }

    /**
     * a[0, m) (m at most 8, the array's length) as the bytes of a little-endian long when all
     * ASCII, else -1: one load of the array's first word where it can ({@link #WORD}; an
     * empty array has no word: 0), else two overlapping loads. Branch-free for 1 to 8 bytes,
     * which matters: the lengths of a message's strings vary from one to the next.
     */
    static long ascii8(byte[] a, int m) {
        long x;
        if (WORD) {
            if (m == 0) {
                return 0L;
            }
            x = U.getLong(a, BASE) & (-1L >>> (64 - (m << 3)));
        } else if (m >= 4) {
            x = ((int) I32.get(a, 0) & 0xFFFFFFFFL) | ((int) I32.get(a, m - 4) & 0xFFFFFFFFL) << ((m - 4) << 3);
        } else if (m >= 2) {
            x = ((short) I16.get(a, 0) & 0xFFFFL) | ((short) I16.get(a, m - 2) & 0xFFFFL) << ((m - 2) << 3);
        } else {
            x = m == 1 ? a[0] & 0xFFL : 0L;
        }
        return (x & HIGH) == 0 ? x : -1L;
    }

    /** Whether a[0, n) is all ASCII (a word at a time). */
    public static boolean ascii(byte[] a, int n) {
        int i = 0;
        long acc = 0;
        for (; i + 8 <= n; i += 8) {
            acc |= (long) I64.get(a, i);
        }
        for (; i < n; i++) {
            acc |= a[i];
        }
        return (acc & HIGH) == 0;
    }
}
