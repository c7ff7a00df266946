package dev.fastwire;

/**
 * Bounds applied to untrusted input, with the C++ runtime's defaults: maxDepth (structs
 * nested in each other, the root counting as one; at most {@link #MAX_DEPTH_CAP} takes
 * effect), maxMessageSize (what a root model or protocol message may declare), and
 * maxZeroSizeElements (elements of zero final size, summed over a message).
 */
public final class Limits {
    public static final int MAX_DEPTH_CAP = 4096;
    public static final Limits DEFAULT = new Limits(64, 64 << 20, 1 << 16);

    public final int maxDepth;
    public final int maxMessageSize;
    public final int maxZeroSizeElements;

    public Limits(int maxDepth, int maxMessageSize, int maxZeroSizeElements) {
        this.maxDepth = Math.max(0, Math.min(maxDepth, MAX_DEPTH_CAP));
        this.maxMessageSize = maxMessageSize;
        this.maxZeroSizeElements = maxZeroSizeElements;
    }

    public Limits withMaxDepth(int v) {
        return new Limits(v, maxMessageSize, maxZeroSizeElements);
    }

    public Limits withMaxMessageSize(int v) {
        return new Limits(maxDepth, v, maxZeroSizeElements);
    }

    public Limits withMaxZeroSizeElements(int v) {
        return new Limits(maxDepth, maxMessageSize, v);
    }
}
