package dev.fastwire.net;

import dev.fastwire.DecodeException;
import dev.fastwire.FinalModel;
import dev.fastwire.Model;
import dev.fastwire.Receiver;
import dev.fastwire.StructCodec;
import dev.fastwire.Writer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One TCP connection: a reader thread feeding the receiver (messages handled in order,
 * one at a time) and a writer thread draining a bounded send queue, in order. Closing is
 * graceful unless the peer misbehaves: the queue is flushed, the output half-closed, and
 * the socket closed once the peer closes its side or at shutdownTimeout.
 */
public final class Connection {
    private final Socket socket;
    private final Options options;
    private final String name;
    private Receiver receiver;
    private final Runnable onClosed;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private final Writer scratch = new Writer(256);
    private long queued;
    private boolean closing;
    private boolean inputStopped;
    private volatile boolean closed;
    private volatile String reason;
    private volatile long writeStarted;
    private volatile long lastReceived = System.nanoTime();
    private volatile long partialSince;
    private final CountDownLatch done = new CountDownLatch(2);
    private Thread readerThread;
    private Thread writerThread;

    Connection(Socket socket, Options options, String name, Runnable onClosed) {
        this.socket = socket;
        this.options = options;
        this.name = name;
        this.onClosed = onClosed;
    }

    void start(Receiver receiver) {
        this.receiver = receiver;
        receiver.setLimits(options.receiveLimits);
        readerThread = new Thread(this::readLoop, name + " reader");
        writerThread = new Thread(this::writeLoop, name + " writer");
        readerThread.setDaemon(true);
        writerThread.setDaemon(true);
        readerThread.start();
        writerThread.start();
    }

    public String name() {
        return name;
    }

    public boolean isOpen() {
        return !closed;
    }

    /** Bytes queued and not yet written to the socket. */
    public long queuedBytes() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues one message. False when it was refused: the connection is closing or closed,
     * or its queue is full (overflow FAIL; DISCONNECT also closes the connection; BLOCK
     * waits up to writeTimeout for room, not on this connection's own reader thread).
     */
    public <T> boolean send(StructCodec<T> codec, T value) {
        byte[] bytes;
        synchronized (scratch) {
            scratch.clear();
            if (options.finalFormat) FinalModel.write(scratch, codec, value); else Model.write(scratch, codec, value);
            bytes = scratch.toByteArray();
        }
        return sendBytes(bytes);
    }

    /** Queues bytes that are whole messages. */
    public boolean sendBytes(byte[] bytes) {
        lock.lock();
        try {
            if (closing || closed) return false;
            if (queued + bytes.length > options.maxQueuedBytes) {
                if (options.overflow == Options.Overflow.BLOCK && Thread.currentThread() != readerThread) {
                    long deadline = System.nanoTime() + options.writeTimeout.toNanos();
                    while (queued + bytes.length > options.maxQueuedBytes && !closing && !closed) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) return false;
                        try {
                            changed.awaitNanos(left);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return false;
                        }
                    }
                    if (closing || closed) return false;
                } else {
                    if (options.overflow == Options.Overflow.DISCONNECT) {
                        String why = "send queue full (" + queued + " bytes queued, " + bytes.length
                            + " more, limit " + options.maxQueuedBytes + ")";
                        lock.unlock();
                        try {
                            abort(why);
                        } finally {
                            lock.lock();
                        }
                    }
                    return false;
                }
            }
            queue.add(bytes);
            queued += bytes.length;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Graceful close: no more sends; flush the queue; half-close; close when the peer does. */
    public void close(String why) {
        lock.lock();
        try {
            if (closing || closed) return;
            closing = true;
            if (reason == null) reason = why;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Stops handling input: what arrives is discarded (server stop). */
    void stopInput() {
        lock.lock();
        try {
            inputStopped = true;
        } finally {
            lock.unlock();
        }
    }

    /** Closes at once, logging the reason (a misbehaving peer). */
    void abort(String why) {
        lock.lock();
        try {
            if (closed) return;
            if (reason == null || !closing) reason = why;
            closing = true;
            closed = true;
            queue.clear();
            queued = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Waits until both threads ended (at most `millis`). */
    boolean await(long millis) throws InterruptedException {
        return done.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Timer check: a write stuck longer than writeTimeout, an incomplete message, idleness. */
    void tick(long now) {
        long ws = writeStarted;
        if (ws != 0 && now - ws > options.writeTimeout.toNanos()) {
            abort("peer not reading: " + queuedBytes() + " bytes unsent for " + options.writeTimeout.toMillis() + " ms");
            return;
        }
        long ps = partialSince;
        if (ps != 0 && now - ps > options.messageTimeout.toNanos()) {
            abort("message incomplete after " + options.messageTimeout.toMillis() + " ms (" + receiver.pending() + " bytes received)");
            return;
        }
        if (!options.idleTimeout.isZero() && now - lastReceived > options.idleTimeout.toNanos()) {
            close("idle for " + options.idleTimeout.toMillis() + " ms");
        }
    }

    private void readLoop() {
        byte[] buf = new byte[16384];
        try {
            InputStream in = socket.getInputStream();
            while (true) {
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException e) {
                    continue;
                }
                if (n < 0) {
                    int pending = receiver.pending();
                    if (pending > 0) {
                        finish("peer closed the connection in the middle of a message (" + pending + " bytes received)");
                    } else {
                        finish("peer closed the connection");
                    }
                    return;
                }
                lastReceived = System.nanoTime();
                boolean discard;
                lock.lock();
                try {
                    discard = inputStopped || closed;
                } finally {
                    lock.unlock();
                }
                if (discard) continue;
                try {
                    receiver.receive(buf, 0, n);
                } catch (DecodeException e) {
                    abort("protocol error: " + e.getMessage());
                    return;
                } catch (RuntimeException e) {
                    abort("handler failed: " + e);
                    return;
                }
                partialSince = receiver.pending() > 0 ? (partialSince != 0 ? partialSince : System.nanoTime()) : 0;
            }
        } catch (IOException e) {
            if (!closed) abort("read failed: " + e.getMessage());
        } finally {
            done.countDown();
            lock.lock();
            try {
                closing = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** End of input: flush what is queued, then close. */
    private void finish(String why) {
        lock.lock();
        try {
            if (reason == null) reason = why;
            closing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void writeLoop() {
        try {
            OutputStream out = socket.getOutputStream();
            while (true) {
                byte[] next;
                lock.lock();
                try {
                    while (queue.isEmpty() && !closing && !closed) changed.await();
                    if (closed) return;
                    next = queue.poll();
                } finally {
                    lock.unlock();
                }
                if (next == null) break;  // closing and flushed
                writeStarted = System.nanoTime();
                out.write(next);
                writeStarted = 0;
                lock.lock();
                try {
                    queued -= next.length;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
            // Flushed: half-close, then wait for the peer to close its side.
            try {
                socket.shutdownOutput();  // TCP FIN; TLS (SSLSocket): close_notify
            } catch (IOException | UnsupportedOperationException ignored) {
                // the peer went away
            }
            long deadline = System.nanoTime() + options.shutdownTimeout.toNanos();
            while (readerThread.isAlive() && System.nanoTime() < deadline) {
                readerThread.join(Math.max(1, Math.min(50, (deadline - System.nanoTime()) / 1_000_000)));
            }
            if (readerThread.isAlive() && reason != null && !reason.startsWith("peer closed")) {
                reason = reason + "; shutdown timed out with " + queuedBytes() + " bytes unsent";
            }
        } catch (IOException e) {
            if (!closed) abort("write failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            done.countDown();
            boolean first;
            lock.lock();
            try {
                first = !closed;
                closed = true;
                closing = true;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
            try {
                socket.close();
            } catch (IOException ignored) {
                // closed
            }
            if (first || reason != null) {
                options.log.accept(name + " closed: " + (reason == null ? "closed" : reason));
            }
            onClosed.run();
        }
    }
}
