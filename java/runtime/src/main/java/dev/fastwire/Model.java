package dev.fastwire;

/**
 * A root struct as a self-contained message in the versioned format:
 * [u32 full size][u32 offset of the root body][body][heap blocks].
 *
 * <pre>
 * Model&lt;Account&gt; model = new Model&lt;&gt;(Account.CODEC);
 * byte[] bytes = model.serialize(account);
 * model.verify(bytes, 0, bytes.length);           // throws DecodeException when malformed
 * Account a = model.deserialize(bytes, 0, bytes.length, reuse);  // checked: verify not needed
 * </pre>
 * Not thread-safe (it keeps a reader and a writer to reuse); use one per thread.
 */
public final class Model<T> {
    public final StructCodec<T> codec;
    private Limits limits;
    private final Reader reader = new Reader();
    private final Writer writer = new Writer();

    public Model(StructCodec<T> codec) {
        this(codec, Limits.DEFAULT);
    }

    public Model(StructCodec<T> codec, Limits limits) {
        this.codec = codec;
        this.limits = limits;
    }

    public Limits limits() {
        return limits;
    }

    public void setLimits(Limits limits) {
        this.limits = limits;
    }

    /** Appends v as a root model to w; returns its size. */
    public int serialize(Writer w, T v) {
        return write(w, codec, v);
    }

    /** Appends v as a versioned root model of `codec` to w; returns its size. */
    public static <T> int write(Writer w, StructCodec<T> codec, T v) {
        int start = w.allocRaw(8);
        codec.vput(w, start + 4, start, v);
        int size = w.size - start;
        w.i32(start, size);
        return size;
    }

    /** v as a new byte array. */
    public byte[] serialize(T v) {
        writer.clear();
        serialize(writer, v);
        return writer.toByteArray();
    }

    /** The writer this model serialized into last (valid until the next call). */
    public Writer writer() {
        return writer;
    }

    /** Reads one versioned root model of `codec` at buf[off..] with a reader and limits. */
    public static <T> T read(Reader reader, Limits limits, StructCodec<T> codec, byte[] buf, int off, int len, T reuse) {
        Reader r = root(reader, limits, buf, off, len);
        return codec.vget(r, off + 4, off, limits.maxDepth, reuse);
    }

    private Reader root(byte[] buf, int off, int len) {
        return root(reader, limits, buf, off, len);
    }

    private static Reader root(Reader reader, Limits limits, byte[] buf, int off, int len) {
        if (len < 8 || off < 0 || len > buf.length - off) throw Reader.fail("truncated");
        long full = ((int) Writer.I32.get(buf, off)) & 0xFFFFFFFFL;
        if (full > limits.maxMessageSize) throw new DecodeException("too_large", full + " bytes");
        if (full > len) throw Reader.fail("truncated");
        if (full < 16) throw Reader.fail("bad_size");
        return reader.reset(buf, off, off + (int) full, full - 8, limits.maxZeroSizeElements);
    }

    /** Checks the model at buf[off..]; returns its size or throws DecodeException. */
    public int verify(byte[] buf, int off, int len) {
        return check(reader, limits, codec, buf, off, len);
    }

    /** verify() with a given reader and limits. */
    public static <T> int check(Reader reader, Limits limits, StructCodec<T> codec, byte[] buf, int off, int len) {
        // The usual message by the struct's fast walk, without setting up the reader; the
        // general walk below decides anything else (and says why).
        if (len >= 16 && off >= 0 && len <= buf.length - off) {
            long full = ((int) Writer.I32.get(buf, off)) & 0xFFFFFFFFL;
            if (full >= 16 && full <= len && full <= limits.maxMessageSize
                    && codec.vfast(buf, off + 4, off, off + (int) full, full - 8, limits.maxDepth) >= 0) {
                return (int) full;
            }
        }
        Reader r = root(reader, limits, buf, off, len);
        codec.vcheck(r, off + 4, off, limits.maxDepth);
        return r.end - off;
    }

    public int verify(byte[] buf) {
        return verify(buf, 0, buf.length);
    }

    /** True when verify() accepts the bytes. */
    public boolean isValid(byte[] buf, int off, int len) {
        try {
            verify(buf, off, len);
            return true;
        } catch (DecodeException e) {
            return false;
        }
    }

    /** Reads the model at buf[off..], filling `reuse` when given; checked as it reads. */
    public T deserialize(byte[] buf, int off, int len, T reuse) {
        Reader r = root(buf, off, len);
        return codec.vget(r, off + 4, off, limits.maxDepth, reuse);
    }

    public T deserialize(byte[] buf) {
        return deserialize(buf, 0, buf.length, null);
    }
}
