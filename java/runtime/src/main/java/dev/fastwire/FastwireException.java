package dev.fastwire;

/** The base of the runtime's exceptions: {@link DecodeException} and {@link EncodeException}. */
public class FastwireException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FastwireException(String message) {
        super(message);
    }
}
