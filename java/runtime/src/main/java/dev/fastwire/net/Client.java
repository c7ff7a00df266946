package dev.fastwire.net;

import dev.fastwire.Receiver;
import dev.fastwire.StructCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP client: one connection, its receiver, and requests that time out by themselves
 * (a timer thread checks them every tick; no watchdog call). {@link #close()} is graceful:
 * no more sends, the queue flushed, the output half-closed, answers to requests in flight
 * still read until the server closes its side (or shutdownTimeout).
 * The generated {@code <Package>Client} wraps it with typed sends and requests.
 */
public final class Client implements AutoCloseable {
    private final Options options;
    private final Receiver receiver;
    private final Map<UUID, Pending> pending = new ConcurrentHashMap<>();
    private volatile Connection connection;
    private Thread timer;
    private volatile boolean stopped;
    private String target = "?";

    private static final class Pending {
        final CompletableFuture<Object> future = new CompletableFuture<>();
        final long deadline;

        Pending(long deadline) {
            this.deadline = deadline;
        }
    }

    public Client(Options options, Receiver receiver) {
        this.options = options;
        this.receiver = receiver;
    }

    public Options options() {
        return options;
    }

    /** Connects (within connectTimeout). */
    public void connect(String host, int port) throws IOException {
        long deadline = System.nanoTime() + options.connectTimeout.toNanos();
        Socket s = new Socket();
        try {
            s.connect(new InetSocketAddress(host, port), (int) options.connectTimeout.toMillis());
            s.setTcpNoDelay(true);
            if (options.tls != null) {  // the handshake within what is left of connectTimeout
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0) throw new java.net.SocketTimeoutException("connect timed out");
                s = Tls.handshake(options.tls, s, host, port, true, options.tlsServerName, left);
            }
        } catch (IOException e) {
            s.close();
            throw e;
        }
        target = host + ":" + port;
        Connection c = new Connection(s, options, "connection to " + target, this::disconnected);
        connection = c;
        c.start(receiver);
        timer = new Thread(this::tickLoop, "fastwire client timer " + target);
        timer.setDaemon(true);
        timer.start();
    }

    public boolean isConnected() {
        Connection c = connection;
        return c != null && c.isOpen();
    }

    /** The connection (null before connect). */
    public Connection connection() {
        return connection;
    }

    /** Queues a message; false when refused (not connected, closing, queue full). */
    public <T> boolean send(StructCodec<T> codec, T value) {
        Connection c = connection;
        return c != null && c.send(codec, value);
    }

    /**
     * Sends a request whose response (or reject) carries `id`; the future fails with a
     * RequestException: rejected, timeout (requestTimeout or `timeoutMillis` &gt; 0),
     * disconnected, overflow.
     */
    public <T> CompletableFuture<Object> request(UUID id, StructCodec<T> codec, T value, long timeoutMillis) {
        long t = timeoutMillis > 0 ? timeoutMillis : options.requestTimeout.toMillis();
        Pending p = new Pending(System.nanoTime() + t * 1_000_000);
        if (!isConnected()) {
            p.future.completeExceptionally(new RequestException(RequestException.Kind.DISCONNECTED, "not connected", null));
            return p.future;
        }
        pending.put(id, p);
        if (!connection.send(codec, value)) {
            pending.remove(id);
            RequestException.Kind kind = isConnected() ? RequestException.Kind.OVERFLOW : RequestException.Kind.DISCONNECTED;
            p.future.completeExceptionally(new RequestException(kind, "could not queue the request", null));
        }
        return p.future;
    }

    /** A response arrived: completes the request with that id (false: none pending). */
    public boolean resolve(UUID id, Object response) {
        Pending p = pending.remove(id);
        return p != null && p.future.complete(response);
    }

    /** A reject arrived for `id`. */
    public boolean reject(UUID id, Object rejection) {
        Pending p = pending.remove(id);
        return p != null && p.future.completeExceptionally(
            new RequestException(RequestException.Kind.REJECTED, String.valueOf(rejection), rejection));
    }

    public int pendingRequests() {
        return pending.size();
    }

    private void disconnected() {
        for (UUID id : pending.keySet()) {
            Pending p = pending.remove(id);
            if (p != null) {
                p.future.completeExceptionally(new RequestException(RequestException.Kind.DISCONNECTED, "connection closed", null));
            }
        }
    }

    private void tickLoop() {
        long tick = options.tickMillis();
        while (!stopped) {
            long now = System.nanoTime();
            Connection c = connection;
            if (c != null) c.tick(now);
            for (Map.Entry<UUID, Pending> e : pending.entrySet()) {
                if (now - e.getValue().deadline > 0 && pending.remove(e.getKey(), e.getValue())) {
                    e.getValue().future.completeExceptionally(new RequestException(RequestException.Kind.TIMEOUT,
                        "no answer within the request timeout", null));
                }
            }
            if (c != null && !c.isOpen() && pending.isEmpty()) return;
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Graceful close; returns once the connection closed (or shutdownTimeout passed). */
    @Override
    public void close() {
        Connection c = connection;
        if (c == null) return;
        c.close("closed by the client");
        try {
            if (!c.await(options.shutdownTimeout.toMillis() + 1000)) c.abort("closed by the client");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stopped = true;
    }
}
