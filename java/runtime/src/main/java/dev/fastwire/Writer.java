package dev.fastwire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable byte buffer that serializers write into; reuse one to serialize without
 * allocating ({@link #clear()}). Little-endian, unaligned.
 */
public final class Writer {
    static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle F32 = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle F64 = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int MAX = Integer.MAX_VALUE - 16;

    /** The bytes; valid up to {@link #size}. Replaced when it grows. */
    public byte[] buf;
    /** Bytes written. */
    public int size;

    public Writer() {
        this(256);
    }

    public Writer(int capacity) {
        buf = new byte[Math.max(capacity, 16)];
    }

    public void clear() {
        size = 0;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    /** Reserves n bytes at the end, zero-filled; returns their position. */
    public int alloc(int n) {
        int at = size;
        long end = (long) at + n;
        if (end > buf.length) {
            grow(end);
        } else {
            Arrays.fill(buf, at, (int) end, (byte) 0);
        }
        size = (int) end;
        return at;
    }

    /** Reserves n bytes at the end without clearing them (the caller writes every one). */
    public int allocRaw(int n) {
        int at = size;
        long end = (long) at + n;
        if (end > buf.length) {
            grow(end);
        }
        size = (int) end;
        return at;
    }

    /**
     * Makes room for n bytes at p (p at or past the bytes written) and returns the buffer:
     * the generated straight-line serialize keeps the end in a local and sets
     * {@link #size} once.
     */
    public byte[] room(int p, long n) {
        long end = p + n;
        if (end > buf.length) {
            grow(end);
        }
        return buf;
    }

    private void grow(long end) {
        if (end > MAX || end > 0xFFFFFFFFL) {
            throw new EncodeException("message above the 4 GiB - 1 the format's 32-bit sizes allow");
        }
        long cap = Math.max(end, Math.min((long) buf.length * 2, MAX));
        buf = Arrays.copyOf(buf, (int) cap);  // zero-filled beyond the old bytes
    }

    public void putBytes(byte[] b, int off, int len) {
        int at = allocRaw(len);
        System.arraycopy(b, off, buf, at, len);
    }

    public void u8(int pos, int v) {
        buf[pos] = (byte) v;
    }

    public void i16(int pos, short v) {
        I16.set(buf, pos, v);
    }

    public void i32(int pos, int v) {
        I32.set(buf, pos, v);
    }

    public void i64(int pos, long v) {
        I64.set(buf, pos, v);
    }

    public void f32(int pos, float v) {
        I32.set(buf, pos, Float.floatToRawIntBits(v));
    }

    public void f64(int pos, double v) {
        I64.set(buf, pos, Double.doubleToRawLongBits(v));
    }

    // Appending forms, for the final format.
    public void addU8(int v) {
        int at = allocRaw(1);
        buf[at] = (byte) v;
    }

    public void addI16(short v) {
        int at = allocRaw(2);
        I16.set(buf, at, v);
    }

    public void addI32(int v) {
        int at = allocRaw(4);
        I32.set(buf, at, v);
    }

    public void addI64(long v) {
        int at = allocRaw(8);
        I64.set(buf, at, v);
    }

    public void addF32(float v) {
        addI32(Float.floatToRawIntBits(v));
    }

    public void addF64(double v) {
        addI64(Double.doubleToRawLongBits(v));
    }
}
