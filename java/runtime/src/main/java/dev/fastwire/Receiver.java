package dev.fastwire;

/**
 * Reassembles messages from chunks of any size and dispatches them by type number (the
 * root body's type, versioned; the second word, final). A known type is deserialized with
 * every check and passed to the generated {@code onReceive} overload; an unknown type goes
 * to {@link #onReceiveUnknown}; a malformed message, or a size word that cannot start a
 * message (below the header or above maxMessageSize), to {@link #onReceiveError}, which
 * throws by default. A bad size cannot be resynchronised from: the bytes queued then are
 * dropped. Memory: at most one incomplete message (bounded by maxMessageSize). A generated
 * {@code Proxy} is a Receiver that verifies each message and passes its bytes on without
 * deserializing ({@link #verify}).
 */
public abstract class Receiver {
    protected final boolean finalFormat;
    protected Limits limits = Limits.DEFAULT;
    private final Reader reader = new Reader();
    private byte[] pending = new byte[1024];
    private int start;
    private int end;
    private long offset;

    protected Receiver(boolean finalFormat) {
        this.finalFormat = finalFormat;
    }

    public boolean isFinal() {
        return finalFormat;
    }

    public void setLimits(Limits limits) {
        this.limits = limits;
    }

    /** Bytes received that do not complete a message yet. */
    public int pending() {
        return end - start;
    }

    public void reset() {
        start = end = 0;
    }

    /** Dispatches a message of a known type to its hook; false for a type not sent here. */
    protected abstract boolean dispatch(int type, byte[] buf, int off, int len);

    /** A message of a type this protocol does not send (a newer peer's): skipped. */
    protected void onReceiveUnknown(int type, byte[] buf, int off, int len) {
    }

    /** A malformed message or stream: throws by default (a transport drops the peer). */
    protected void onReceiveError(DecodeException error) {
        throw error;
    }

    /** Reads a message of `codec` (checked as it reads). */
    protected <T> T read(StructCodec<T> codec, byte[] buf, int off, int len) {
        return finalFormat ? FinalModel.read(reader, limits, codec, buf, off, len, null)
            : Model.read(reader, limits, codec, buf, off, len, null);
    }

    /**
     * Verifies a message of `codec` without deserializing it (a Proxy's dispatch): throws
     * DecodeException, reported to onReceiveError, when it does not verify.
     */
    protected <T> void verify(StructCodec<T> codec, byte[] buf, int off, int len) {
        if (finalFormat) {
            FinalModel.check(reader, limits, codec, buf, off, len);
        } else {
            Model.check(reader, limits, codec, buf, off, len);
        }
    }

    public int receive(byte[] data) {
        return receive(data, 0, data.length);
    }

    /** Feeds received bytes; returns the number of complete messages handled. */
    public int receive(byte[] data, int off, int len) {
        int handled = 0;
        int min = finalFormat ? 8 : 16;
        if (end == start && len >= 4) {  // nothing queued: read complete messages in place
            while (len >= 4) {
                long size = ((int) Writer.I32.get(data, off)) & 0xFFFFFFFFL;
                if (size < min || size > limits.maxMessageSize) {
                    badSize(size);
                    return handled;
                }
                if (size > len) break;
                one(data, off, (int) size);
                offset += size;
                off += (int) size;
                len -= (int) size;
                handled++;
            }
        }
        append(data, off, len);
        while (end - start >= 4) {
            long size = ((int) Writer.I32.get(pending, start)) & 0xFFFFFFFFL;
            if (size < min || size > limits.maxMessageSize) {
                badSize(size);
                break;
            }
            if (end - start < size) break;
            int at = start;
            start += (int) size;
            offset += size;
            one(pending, at, (int) size);
            handled++;
        }
        if (start == end) start = end = 0;
        return handled;
    }

    private void badSize(long size) {
        long at = offset;
        start = end = 0;
        onReceiveError(new DecodeException(size < (finalFormat ? 8 : 16) ? "bad_size" : "too_large",
            "bad message size " + size + " at stream offset " + at));
    }

    private void append(byte[] data, int off, int len) {
        if (len == 0) return;
        if (end + len > pending.length) {
            int live = end - start;
            if (live + len <= pending.length && start > 0) {
                System.arraycopy(pending, start, pending, 0, live);
            } else {
                byte[] b = new byte[Math.max(pending.length * 2, live + len)];
                System.arraycopy(pending, start, b, 0, live);
                pending = b;
            }
            start = 0;
            end = live;
        }
        System.arraycopy(data, off, pending, end, len);
        end += len;
    }

    private void one(byte[] buf, int off, int len) {
        int type;
        if (finalFormat) {
            type = (int) Writer.I32.get(buf, off + 4);
        } else {
            long root = ((int) Writer.I32.get(buf, off + 4)) & 0xFFFFFFFFL;
            if (root > len - 8) {
                onReceiveError(new DecodeException("truncated", "root offset"));
                return;
            }
            type = (int) Writer.I32.get(buf, off + (int) root + 4);
        }
        boolean known;
        try {
            known = dispatch(type, buf, off, len);
        } catch (DecodeException e) {
            onReceiveError(e);
            return;
        }
        if (!known) onReceiveUnknown(type, buf, off, len);
    }
}
