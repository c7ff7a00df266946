package dev.fastwire;

/**
 * Serializes messages into a stream (spec §5): root models back to back, in the versioned
 * or the final format, no other framing. {@link #send} appends to {@link #buffer} and calls
 * {@link #onSend}, which may take bytes from the front (a transport writes them); by
 * default nothing is taken, so the buffer holds the whole stream. The generated
 * {@code <Package>Sender} adds a typed send per message type.
 */
public class Sender {
    protected final boolean finalFormat;
    public final Writer buffer = new Writer(4096);

    public Sender() {
        this(false);
    }

    public Sender(boolean finalFormat) {
        this.finalFormat = finalFormat;
    }

    public boolean isFinal() {
        return finalFormat;
    }

    /** Sends one message; returns its serialized size. */
    public <T> int send(StructCodec<T> codec, T value) {
        int n = finalFormat ? FinalModel.write(buffer, codec, value) : Model.write(buffer, codec, value);
        onSend(buffer);
        return n;
    }

    /** Called after each send with every byte still queued (buf[0, size)). */
    protected void onSend(Writer queued) {
    }

    /** Drops the first n queued bytes. */
    public void consume(int n) {
        System.arraycopy(buffer.buf, n, buffer.buf, 0, buffer.size - n);
        buffer.size -= n;
    }

    public void reset() {
        buffer.clear();
    }
}
