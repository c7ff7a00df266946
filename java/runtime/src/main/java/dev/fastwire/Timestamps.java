package dev.fastwire;

import java.time.Instant;

/**
 * timestamp is a long: nanoseconds since 1970-01-01 UTC, exact (unsigned on the wire;
 * every instant up to the year 2554 is a positive long).
 */
public final class Timestamps {
    private Timestamps() {
    }

    /** Now, in nanoseconds since the epoch (the `utc` default). */
    public static long utc() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    public static Instant toInstant(long nanos) {
        return Instant.ofEpochSecond(Long.divideUnsigned(nanos, 1_000_000_000L), Long.remainderUnsigned(nanos, 1_000_000_000L));
    }

    public static long of(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
