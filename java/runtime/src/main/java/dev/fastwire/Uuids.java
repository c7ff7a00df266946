package dev.fastwire;

import java.util.UUID;

/** uuid is java.util.UUID: 16 bytes in the order of the canonical text. */
public final class Uuids {
    private Uuids() {
    }

    public static final UUID NIL = new UUID(0, 0);

    private static final java.lang.invoke.VarHandle BE = java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

    public static UUID get(byte[] b, int p) {
        return new UUID((long) BE.get(b, p), (long) BE.get(b, p + 8));
    }

    public static void write(byte[] b, int p, UUID v) {
        BE.set(b, p, v.getMostSignificantBits());
        BE.set(b, p + 8, v.getLeastSignificantBits());
    }

    /** Byte order (as C++ compares uuids), unlike UUID.compareTo's signed halves. */
    public static int compare(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    /** The canonical text (any case), 8-4-4-4-12 hexadecimal digits. */
    public static UUID parse(String s) {
        if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-' || s.charAt(23) != '-') {
            throw new DecodeException("invalid_argument", "'" + Decimals.shortText(s) + "' is not a uuid");
        }
        long hi = 0;
        long lo = 0;
        int k = 0;
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            if (c == '-' && (i == 8 || i == 13 || i == 18 || i == 23)) continue;
            int h = Character.digit(c, 16);
            if (h < 0 || c > 0x7F) throw new DecodeException("invalid_argument", "'" + s + "' is not a uuid");
            if (k < 16) hi = (hi << 4) | h; else lo = (lo << 4) | h;
            k++;
        }
        return new UUID(hi, lo);
    }

    /** uuid1: time-based; uuid4: random (the `uuid1` and `uuid4` defaults). */
    public static UUID uuid1() {
        long ts = System.currentTimeMillis() * 10000 + 0x01B21DD213814000L + (System.nanoTime() / 100) % 10000;
        long hi = ((ts & 0xFFFFFFFFL) << 32) | (((ts >>> 32) & 0xFFFF) << 16) | 0x1000 | ((ts >>> 48) & 0x0FFF);
        long lo = (java.util.concurrent.ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(hi, lo);
    }

    public static UUID uuid4() {
        return UUID.randomUUID();
    }
}
