package dev.fastwire;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.UUID;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * The codecs of the primitive types and the factories of composite ones. Java types:
 * bool Boolean, byte Byte (unsigned: its 8 bits), char Character (0..255), wchar Integer
 * (its 32 bits, unsigned), int8 Byte, uint8 Short, int16 Short, uint16 Integer, int32
 * Integer, uint32 Long, int64 Long, uint64 Long (its 64 bits, unsigned), float Float,
 * double Double, decimal BigDecimal, timestamp Long (nanoseconds, unsigned), uuid UUID,
 * string String, bytes byte[].
 */
public final class Codecs {
    private Codecs() {
    }

    /** A fixed-size value kept in its slot. */
    public abstract static class Fixed<T> extends Codec<T> {
        protected Fixed(String name, int size) {
            super(name, size, size);
        }

        public abstract T get(Reader r, int p);

        public abstract void put(byte[] buf, int p, T v);

        /** Checks the value at p (decimals: the scale). */
        public void check(Reader r, int p) {
        }

        @Override
        public void vput(Writer w, int pos, int base, T v) {
            put(w.buf, pos, v);
        }

        @Override
        public T vget(Reader r, int pos, int base, int depth, T reuse) {
            return get(r, pos);
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            check(r, pos);
        }

        @Override
        public void fput(Writer w, T v) {
            int at = w.allocRaw(slot);
            put(w.buf, at, v);
        }

        @Override
        public T fget(Reader r, int depth, T reuse) {
            return get(r, r.take(slot));
        }

        @Override
        public void fcheck(Reader r, int depth) {
            check(r, r.take(slot));
        }
    }

    /** An integer type held in a Java box T, through its long value. */
    public static class Int<T> extends Fixed<T> {
        public final Scalar kind;
        private final LongFunction<T> box;
        private final ToLongFunction<T> unbox;
        private final T zero;

        public Int(Scalar kind, LongFunction<T> box, ToLongFunction<T> unbox) {
            super(kind.schemaName, kind.size);
            this.kind = kind;
            this.box = box;
            this.unbox = unbox;
            this.zero = box.apply(0);
        }

        @Override
        public T zero() {
            return zero;
        }

        @Override
        public T get(Reader r, int p) {
            return box.apply(kind.read(r, p));
        }

        @Override
        public void put(byte[] buf, int p, T v) {
            kind.write(buf, p, unbox.applyAsLong(v));
        }

        @Override
        public void jput(JsonWriter w, T v) {
            kind.json(w, unbox.applyAsLong(v));
        }

        @Override
        public T jget(JsonReader r) {
            return box.apply(kind.parse(r));
        }

        @Override
        public String keyText(T v) {
            return kind.text(unbox.applyAsLong(v));
        }

        @Override
        public T keyParse(String s, Limits limits) {
            return box.apply(kind.parseKey(s));
        }

        @Override
        public Comparator<T> comparator() {
            return (a, b) -> kind.compare(unbox.applyAsLong(a), unbox.applyAsLong(b));
        }

        @Override
        public String text(T v) {
            return kind.text(unbox.applyAsLong(v));
        }
    }

    /** An enum or flags type: a generated class over its raw long value. */
    public static <T> Int<T> enumOf(Scalar base, LongFunction<T> of, ToLongFunction<T> raw) {
        return new Int<>(base, of, raw) {
            @Override
            public String text(T v) {
                return String.valueOf(v);
            }
        };
    }

    public static final Fixed<Boolean> BOOL = new Fixed<>("bool", 1) {
        @Override public Boolean zero() { return Boolean.FALSE; }
        @Override public Boolean get(Reader r, int p) { return r.buf[p] != 0; }
        @Override public void put(byte[] buf, int p, Boolean v) { buf[p] = (byte) (v ? 1 : 0); }
        @Override public void jput(JsonWriter w, Boolean v) { w.bool(v); }
        @Override public Boolean jget(JsonReader r) { return r.readBool(); }
        @Override public String keyText(Boolean v) { return v ? "true" : "false"; }
        @Override public Comparator<Boolean> comparator() { return Boolean::compare; }
    };

    public static final Int<Byte> BYTE = new Int<>(Scalar.BYTE, v -> (byte) v, v -> v & 0xFF);
    public static final Int<Character> CHAR = new Int<>(Scalar.CHAR, v -> (char) v, v -> v & 0xFF);
    public static final Int<Integer> WCHAR = new Int<>(Scalar.WCHAR, v -> (int) v, v -> v & 0xFFFFFFFFL);
    public static final Int<Byte> INT8 = new Int<>(Scalar.INT8, v -> (byte) v, v -> v);
    public static final Int<Short> UINT8 = new Int<>(Scalar.UINT8, v -> (short) v, v -> v & 0xFF);
    public static final Int<Short> INT16 = new Int<>(Scalar.INT16, v -> (short) v, v -> v);
    public static final Int<Integer> UINT16 = new Int<>(Scalar.UINT16, v -> (int) v, v -> v & 0xFFFF);
    public static final Int<Integer> INT32 = new Int<>(Scalar.INT32, v -> (int) v, v -> v);
    public static final Int<Long> UINT32 = new Int<>(Scalar.UINT32, v -> v, v -> v & 0xFFFFFFFFL);
    public static final Int<Long> INT64 = new Int<>(Scalar.INT64, v -> v, v -> v);
    public static final Int<Long> UINT64 = new Int<>(Scalar.UINT64, v -> v, v -> v);
    public static final Int<Long> TIMESTAMP = new Int<>(Scalar.UINT64, v -> v, v -> v);

    public static final Fixed<Float> FLOAT = new Fixed<>("float", 4) {
        @Override public Float zero() { return 0f; }
        @Override public Float get(Reader r, int p) { return r.f32(p); }
        @Override public void put(byte[] buf, int p, Float v) { Writer.I32.set(buf, p, Float.floatToRawIntBits(v)); }
        @Override public void jput(JsonWriter w, Float v) { w.number(v.doubleValue()); }
        @Override public Float jget(JsonReader r) { return r.readFloat("float"); }
        @Override public String keyText(Float v) { return JsonWriter.doubleKey(v.doubleValue()); }
        @Override public Float keyParse(String s, Limits l) { return (float) floatKey(s, true); }
        @Override public Comparator<Float> comparator() { return Float::compare; }
        @Override public String text(Float v) { return printG(v); }
        @Override public boolean equal(Float a, Float b) { return Float.floatToRawIntBits(a) == Float.floatToRawIntBits(b) || a.floatValue() == b.floatValue(); }
    };

    public static final Fixed<Double> DOUBLE = new Fixed<>("double", 8) {
        @Override public Double zero() { return 0.0; }
        @Override public Double get(Reader r, int p) { return r.f64(p); }
        @Override public void put(byte[] buf, int p, Double v) { Writer.I64.set(buf, p, Double.doubleToRawLongBits(v)); }
        @Override public void jput(JsonWriter w, Double v) { w.number(v); }
        @Override public Double jget(JsonReader r) { return r.readDouble("double"); }
        @Override public String keyText(Double v) { return JsonWriter.doubleKey(v); }
        @Override public Double keyParse(String s, Limits l) { return floatKey(s, false); }
        @Override public Comparator<Double> comparator() { return Double::compare; }
        @Override public String text(Double v) { return printG(v); }
    };

    /** A double as C++'s {@code std::ostream << double} prints it (printf %g). */
    public static String printG(double x) {
        if (Double.isNaN(x)) return "nan";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        if (x == 0) return 1 / x < 0 ? "-0" : "0";
        java.math.BigDecimal d = new java.math.BigDecimal(x).round(new java.math.MathContext(6, java.math.RoundingMode.HALF_EVEN));
        int exp = d.precision() - d.scale() - 1;
        if (exp < -4 || exp >= 6) {
            java.math.BigDecimal m = d.movePointLeft(exp).stripTrailingZeros();
            String e = String.format("%02d", Math.abs(exp));
            return m.toPlainString() + "e" + (exp < 0 ? "-" : "+") + e;
        }
        String t = d.toPlainString();
        if (t.indexOf('.') >= 0) {
            t = t.replaceAll("0+$", "");
            if (t.endsWith(".")) t = t.substring(0, t.length() - 1);
        }
        return t;
    }

    static double floatKey(String s, boolean single) {
        switch (s) {
            case "NaN": return Double.NaN;
            case "Infinity": return Double.POSITIVE_INFINITY;
            case "-Infinity": return Double.NEGATIVE_INFINITY;
            default:
        }
        if (!s.matches("-?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?")) {
            throw new DecodeException("invalid_argument", "map key '" + Decimals.shortText(s) + "' is not a number");
        }
        double x = Double.parseDouble(s);
        if (Double.isInfinite(x) || (single && Float.isInfinite((float) x))) {
            throw new DecodeException("out_of_range", Decimals.shortText(s) + " does not fit " + (single ? "float" : "double"));
        }
        return x;
    }

    public static final Fixed<BigDecimal> DECIMAL = new Fixed<>("decimal", 16) {
        @Override public BigDecimal zero() { return BigDecimal.ZERO; }
        @Override public BigDecimal get(Reader r, int p) { return Decimals.read(r, p); }
        @Override public void put(byte[] buf, int p, BigDecimal v) { Decimals.write(buf, p, v); }
        @Override public void check(Reader r, int p) { Reader.checkScale(r.u8(p + 14)); }
        @Override public void jput(JsonWriter w, BigDecimal v) { w.decimal(v); }
        @Override public BigDecimal jget(JsonReader r) { return r.readDecimal(); }
        @Override public String keyText(BigDecimal v) { return Decimals.text(v); }
        @Override public BigDecimal keyParse(String s, Limits l) { return Decimals.parse(s); }
        @Override public boolean equal(BigDecimal a, BigDecimal b) { return a == b || (a != null && b != null && a.compareTo(b) == 0 && Decimals.isNegativeZero(a) == Decimals.isNegativeZero(b)); }
        @Override public int hash(BigDecimal v) { return v.signum() == 0 ? 0 : v.stripTrailingZeros().hashCode(); }
        @Override public String text(BigDecimal v) { return Decimals.text(v); }
    };

    public static final Fixed<UUID> UUID_ = new Fixed<>("uuid", 16) {
        @Override public UUID zero() { return Uuids.NIL; }
        @Override public UUID get(Reader r, int p) { return Uuids.get(r.buf, p); }
        @Override public void put(byte[] buf, int p, UUID v) { Uuids.write(buf, p, v); }
        @Override public void jput(JsonWriter w, UUID v) { w.uuid(v); }
        @Override public UUID jget(JsonReader r) { return Uuids.parse(r.readString("uuid")); }
        @Override public String keyText(UUID v) { return v.toString(); }
        @Override public UUID keyParse(String s, Limits l) { return Uuids.parse(s); }
        @Override public Comparator<UUID> comparator() { return Uuids::compare; }
        @Override public String text(UUID v) { return "\"" + v + "\""; }
    };

    /** string and bytes: an offset to [u32 length][bytes]; final [u32 length][bytes]. */
    public abstract static class Text<T> extends Codec<T> {
        Text(String name) {
            super(name, 4, 4);
        }

        abstract T of(byte[] buf, int p, int n);

        /** The value in buf[p, p + n), or `reuse` when it holds exactly those bytes. */
        T of(byte[] buf, int p, int n, T reuse) {
            return of(buf, p, n);
        }

        @Override
        public T vget(Reader r, int pos, int base, int depth, T reuse) {
            long off = r.u32(pos);
            if (off == 0) return zero();
            int p = r.block(base, off, pos + 4);
            return of(r.buf, p, r.len, reuse);
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            long off = r.u32(pos);
            if (off != 0) r.block(base, off, pos + 4);
        }

        @Override
        public T fget(Reader r, int depth, T reuse) {
            int n = length(r);
            return of(r.buf, r.take(n), n, reuse);
        }

        @Override
        public void fcheck(Reader r, int depth) {
            r.take(length(r));
        }

        static int length(Reader r) {
            long n = r.u32(r.take(4));
            if (n > r.end - r.pos) throw Reader.fail("truncated");
            return (int) n;
        }
    }

    public static final Text<String> STRING = new Text<>("string") {
        @Override public String zero() { return ""; }
        @Override String of(byte[] buf, int p, int n) { return Utf8.decode(buf, p, n); }
        @Override String of(byte[] buf, int p, int n, String reuse) {
            return reuse != null && Utf8.sameAscii(reuse, buf, p, n) ? reuse : Utf8.decode(buf, p, n);
        }
        @Override public void vput(Writer w, int pos, int base, String v) {
            int at = Utf8.put(w, v);
            Writer.I32.set(w.buf, pos, at - base);
        }
        @Override public void fput(Writer w, String v) {
            Utf8.put(w, v);
        }
        @Override public void jput(JsonWriter w, String v) { w.string(v); }
        @Override public String jget(JsonReader r) { return r.readString("string"); }
        @Override public String keyText(String v) { return v; }
        @Override public String keyParse(String s, Limits l) { return s; }
        @Override public String text(String v) { return "\"" + v + "\""; }
    };

    public static final Text<byte[]> BYTES = new Text<>("bytes") {
        @Override public byte[] zero() { return new byte[0]; }
        @Override byte[] of(byte[] buf, int p, int n) { return Arrays.copyOfRange(buf, p, p + n); }
        @Override public void vput(Writer w, int pos, int base, byte[] v) {
            int at = w.allocRaw(4 + v.length);
            Writer.I32.set(w.buf, at, v.length);
            System.arraycopy(v, 0, w.buf, at + 4, v.length);
            Writer.I32.set(w.buf, pos, at - base);
        }
        @Override public void fput(Writer w, byte[] v) {
            int at = w.allocRaw(4 + v.length);
            Writer.I32.set(w.buf, at, v.length);
            System.arraycopy(v, 0, w.buf, at + 4, v.length);
        }
        @Override public void jput(JsonWriter w, byte[] v) { w.bytes(v); }
        @Override public byte[] jget(JsonReader r) {
            String s = r.readString("bytes");
            if (s.length() % 4 != 0) throw new DecodeException("invalid_argument", "malformed base64");
            try {
                return Base64.getDecoder().decode(s);
            } catch (IllegalArgumentException e) {
                throw new DecodeException("invalid_argument", "malformed base64");
            }
        }
        @Override public boolean equal(byte[] a, byte[] b) { return Arrays.equals(a, b); }
        @Override public int hash(byte[] v) { return Arrays.hashCode(v); }
        @Override public String text(byte[] v) { return "bytes[" + v.length + "]"; }
    };

    public static <T> Codec<T> optional(Codec<T> inner) {
        return new Composite.OptionalCodec<>(inner);
    }

    public static <T> Codec<java.util.List<T>> array(Codec<T> elem, int n) {
        return new Composite.ArrayCodec<>(elem, n);
    }

    public static <T> Codec<java.util.List<T>> vector(Codec<T> elem) {
        return new Composite.SequenceCodec<>(elem, "vector");
    }

    public static <T> Codec<java.util.List<T>> list(Codec<T> elem) {
        return new Composite.SequenceCodec<>(elem, "list");
    }

    public static <T> Codec<java.util.TreeSet<T>> set(Codec<T> elem) {
        return new Composite.SetCodec<>(elem);
    }

    public static <K, V> Codec<java.util.TreeMap<K, V>> map(Codec<K> key, Codec<V> value) {
        return new Composite.MapCodec<>(key, value, true);
    }

    public static <K, V> Codec<java.util.HashMap<K, V>> hash(Codec<K> key, Codec<V> value) {
        return new Composite.MapCodec<>(key, value, false);
    }
}
