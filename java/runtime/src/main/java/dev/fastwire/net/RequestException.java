package dev.fastwire.net;

/**
 * A request that did not get its response: {@link Kind#REJECTED} (the reject message is
 * {@link #rejection}), TIMEOUT, DISCONNECTED or OVERFLOW (docs/transport.md, "Requests").
 */
public final class RequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public enum Kind { REJECTED, TIMEOUT, DISCONNECTED, OVERFLOW }

    public final Kind kind;
    public final transient Object rejection;

    public RequestException(Kind kind, String message, Object rejection) {
        super(kind.name().toLowerCase() + ": " + message);
        this.kind = kind;
        this.rejection = rejection;
    }
}
