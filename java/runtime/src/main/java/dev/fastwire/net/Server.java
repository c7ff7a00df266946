package dev.fastwire.net;

import dev.fastwire.Receiver;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A TCP (or, with {@link Options#tls}, TLS) server: listens on one address (0.0.0.0 or :: for all), serves many clients at
 * once, each connection with its own receiver (made by the factory, given the connection
 * to answer on) and its own bounded send queue. {@link #stop()} is graceful: it stops
 * accepting and handling input, flushes every queue, half-closes, and closes each
 * connection once its peer has (or at shutdownTimeout): every reply queued before the
 * stop reaches its client.
 *
 * <pre>
 * Server server = new Server(options, conn -&gt; new ServiceReceiver() {
 *     protected void onReceive(OrderRequest q) { conn.send(OrderAck.CODEC, ack(q)); }
 * });
 * server.start("0.0.0.0", 0);   // server.port()
 * </pre>
 */
public final class Server implements AutoCloseable {
    private final Options options;
    private final Function<Connection, Receiver> factory;
    private final Set<Connection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong sequence = new AtomicLong();
    private ServerSocket listener;
    private Thread acceptor;
    private Thread timer;
    private volatile boolean stopping;

    public Server(Options options, Function<Connection, Receiver> factory) {
        this.options = options;
        this.factory = factory;
    }

    /** Binds and starts accepting; port 0 takes an ephemeral port ({@link #port()}). */
    public void start(String host, int port) throws IOException {
        listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getByName(host), port), 1024);
        acceptor = new Thread(this::acceptLoop, "fastwire server accept");
        acceptor.setDaemon(true);
        acceptor.start();
        timer = new Thread(this::tickLoop, "fastwire server timer");
        timer.setDaemon(true);
        timer.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    public int connectionCount() {
        return connections.size();
    }

    private void acceptLoop() {
        while (!stopping) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!stopping) options.log.accept("accept failed: " + e.getMessage());
                return;
            }
            String peer = s.getInetAddress().getHostAddress() + ":" + s.getPort();
            String name = "connection " + sequence.incrementAndGet() + " " + peer;
            if (stopping || connections.size() >= options.maxConnections) {
                options.log.accept(name + " refused");
                try {
                    s.close();
                } catch (IOException ignored) {
                    // refused anyway
                }
                continue;
            }
            try {
                s.setTcpNoDelay(true);
            } catch (IOException ignored) {
                // not essential
            }
            if (options.tls != null) {  // the handshake on its own thread, within connectTimeout
                Socket plain = s;
                Thread t = new Thread(() -> {
                    Socket secure;
                    try {
                        secure = Tls.handshake(options.tls, plain, null, plain.getPort(), false, null,
                            options.connectTimeout.toMillis());
                    } catch (IOException | RuntimeException e) {
                        options.log.accept(name + " closed: TLS handshake failed: " + e.getMessage());
                        try {
                            plain.close();
                        } catch (IOException ignored) {
                            // closed anyway
                        }
                        return;
                    }
                    open(secure, name);
                }, name + " handshake");
                t.setDaemon(true);
                t.start();
                continue;
            }
            open(s, name);
        }
    }

    private void open(Socket s, String name) {
        if (stopping) {
            options.log.accept(name + " refused");
            try {
                s.close();
            } catch (IOException ignored) {
                // refused anyway
            }
            return;
        }
        Connection[] holder = new Connection[1];
        Connection c = new Connection(s, options, name, () -> connections.remove(holder[0]));
        holder[0] = c;
        connections.add(c);
        options.log.accept(name + " accepted");
        Receiver r;
        try {
            r = factory.apply(c);
        } catch (RuntimeException e) {
            c.abort("handler failed: " + e);
            return;
        }
        c.start(r);
    }

    private void tickLoop() {
        long tick = options.tickMillis();
        while (!stopping || !connections.isEmpty()) {
            long now = System.nanoTime();
            for (Connection c : connections) c.tick(now);
            try {
                Thread.sleep(tick);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Graceful stop (see the class comment); returns when every connection closed. */
    public void stop() {
        stopping = true;
        try {
            if (listener != null) listener.close();
        } catch (IOException ignored) {
            // stopping anyway
        }
        List<Connection> all = new ArrayList<>(connections);
        for (Connection c : all) {
            c.stopInput();
            c.close("server stopping");
        }
        long deadline = System.currentTimeMillis() + options.shutdownTimeout.toMillis() + 1000;
        for (Connection c : all) {
            try {
                if (!c.await(Math.max(1, deadline - System.currentTimeMillis()))) c.abort("server stopping");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop();
    }
}
