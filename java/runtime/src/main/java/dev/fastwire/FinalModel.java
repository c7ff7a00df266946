package dev.fastwire;

/**
 * A root struct in the final (compact) format: [u32 size][u32 type][fields]. The fields
 * must end exactly at the declared size. Not thread-safe; use one per thread.
 */
public final class FinalModel<T> {
    public final StructCodec<T> codec;
    private Limits limits;
    private final Reader reader = new Reader();
    private final Writer writer = new Writer();

    public FinalModel(StructCodec<T> codec) {
        this(codec, Limits.DEFAULT);
    }

    public FinalModel(StructCodec<T> codec, Limits limits) {
        this.codec = codec;
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    public void setLimits(Limits limits) {
        this.limits = limits;
    }

    public int serialize(Writer w, T v) {
        return write(w, codec, v);
    }

    /** Appends v as a final root model of `codec` to w; returns its size. */
    public static <T> int write(Writer w, StructCodec<T> codec, T v) {
        int start = w.allocRaw(8);
        codec.fput(w, v);
        int size = w.size - start;
        w.i32(start, size);
        w.i32(start + 4, codec.type);
        return size;
    }

    public byte[] serialize(T v) {
        writer.clear();
        serialize(writer, v);
        return writer.toByteArray();
    }

    public Writer writer() {
        return writer;
    }

    /** Reads one final root model of `codec` at buf[off..] with a reader and limits. */
    public static <T> T read(Reader reader, Limits limits, StructCodec<T> codec, byte[] buf, int off, int len, T reuse) {
        Reader r = root(reader, limits, codec, buf, off, len);
        T v = codec.fget(r, limits.maxDepth, reuse);
        end(r);
        return v;
    }

    private Reader root(byte[] buf, int off, int len) {
        return root(reader, limits, codec, buf, off, len);
    }

    private static <T> Reader root(Reader reader, Limits limits, StructCodec<T> codec, byte[] buf, int off, int len) {
        if (len < 8 || off < 0 || len > buf.length - off) throw Reader.fail("truncated");
        long size = ((int) Writer.I32.get(buf, off)) & 0xFFFFFFFFL;
        if (size > limits.maxMessageSize) throw new DecodeException("too_large", size + " bytes");
        if (size > len) throw Reader.fail("truncated");
        if (size < 8) throw Reader.fail("bad_size");
        int found = (int) Writer.I32.get(buf, off + 4);
        if (found != codec.type) throw new DecodeException("bad_type", (found & 0xFFFFFFFFL) + " where " + codec.type + " was expected");
        return reader.reset(buf, off + 8, off + (int) size, 0, limits.maxZeroSizeElements);
    }

    private static void end(Reader r) {
        if (r.pos != r.end) throw Reader.fail(r.pos > r.end ? "truncated" : "bad_size");
    }

    public int verify(byte[] buf, int off, int len) {
        return check(reader, limits, codec, buf, off, len);
    }

    /** verify() with a given reader and limits. */
    public static <T> int check(Reader reader, Limits limits, StructCodec<T> codec, byte[] buf, int off, int len) {
        // The usual message by the struct's fast walk (see Model.check).
        if (len >= 8 && off >= 0 && len <= buf.length - off) {
            long size = ((int) Writer.I32.get(buf, off)) & 0xFFFFFFFFL;
            if (size >= 8 && size <= len && size <= limits.maxMessageSize
                    && (int) Writer.I32.get(buf, off + 4) == codec.type
                    && codec.ffast(buf, off + 8, off + (int) size, limits.maxDepth) == off + (int) size) {
                return (int) size;
            }
        }
        Reader r = root(reader, limits, codec, buf, off, len);
        codec.fcheck(r, limits.maxDepth);
        end(r);
        return r.end - off;
    }

    public int verify(byte[] buf) {
        return verify(buf, 0, buf.length);
    }

    public boolean isValid(byte[] buf, int off, int len) {
        try {
            verify(buf, off, len);
            return true;
        } catch (DecodeException e) {
            return false;
        }
    }

    public T deserialize(byte[] buf, int off, int len, T reuse) {
        Reader r = root(buf, off, len);
        T v = codec.fget(r, limits.maxDepth, reuse);
        end(r);
        return v;
    }

    public T deserialize(byte[] buf) {
        return deserialize(buf, 0, buf.length, null);
    }
}
