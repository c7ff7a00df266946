package dev.fastwire.net;

import dev.fastwire.Limits;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The transport's policies (docs/transport.md, "Policies"), with its defaults. Mutable;
 * set before starting a server or connecting a client.
 */
public final class Options {
    /** What a send does when the connection's queue would exceed maxQueuedBytes. */
    public enum Overflow { DISCONNECT, FAIL, BLOCK }

    public boolean finalFormat = false;
    public long maxQueuedBytes = 8L << 20;
    public Overflow overflow = Overflow.DISCONNECT;
    public Duration writeTimeout = Duration.ofSeconds(10);
    public Duration messageTimeout = Duration.ofSeconds(10);
    /** Zero: off. */
    public Duration idleTimeout = Duration.ZERO;
    public Limits receiveLimits = Limits.DEFAULT;
    public int maxConnections = 10000;
    public Duration connectTimeout = Duration.ofSeconds(5);
    public Duration requestTimeout = Duration.ofSeconds(10);
    public Duration shutdownTimeout = Duration.ofSeconds(5);
    /** TLS (null: plain TCP): a context from {@link Tls#serverContext} or {@link Tls#clientContext}. */
    public javax.net.ssl.SSLContext tls = null;
    /** Client: the name the server's certificate must carry (null: the host connected to). */
    public String tlsServerName = null;
    /** One line per connection accepted and closed, with the reason. */
    public Consumer<String> log = line -> System.err.println(line);

    /** The timer's tick: a quarter of the shortest timeout, between 5 and 250 ms. */
    long tickMillis() {
        long shortest = Math.min(Math.min(writeTimeout.toMillis(), messageTimeout.toMillis()),
            Math.min(requestTimeout.toMillis(), shortestNonZero(idleTimeout)));
        return Math.max(5, Math.min(250, shortest / 4));
    }

    private static long shortestNonZero(Duration d) {
        return d.isZero() ? Long.MAX_VALUE : d.toMillis();
    }
}
