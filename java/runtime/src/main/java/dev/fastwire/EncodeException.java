package dev.fastwire;

/**
 * A value that cannot be serialized: an array of the wrong length, a decimal that needs
 * more than 96 bits or 28 decimal places, a message above 4 GiB - 1, a null where the
 * schema has no optional.
 */
public final class EncodeException extends FastwireException {
    private static final long serialVersionUID = 1L;

    public EncodeException(String message) {
        super(message);
    }
}
