package dev.fastwire;

/**
 * Bytes or JSON text that do not hold a valid value of the expected type. The only
 * exception that malformed input raises: never an IndexOutOfBoundsException or an
 * OutOfMemoryError. {@link #code()} names what was wrong, with the names of the C++
 * runtime's {@code errc} (truncated, bad_offset, bad_size, bad_type, bad_value, too_deep,
 * too_large, over_budget, invalid_argument, out_of_range).
 */
public final class DecodeException extends FastwireException {
    private static final long serialVersionUID = 1L;
    private final String code;

    public DecodeException(String code, String detail) {
        super(code + ": " + describe(code) + (detail == null || detail.isEmpty() ? "" : " (" + detail + ")"));
        this.code = code;
    }

    public DecodeException(String code) {
        this(code, null);
    }

    /** What was wrong: one of the C++ runtime's error names. */
    public String code() {
        return code;
    }

    static String describe(String code) {
        switch (code) {
            case "truncated": return "a size, offset or count reaches past the end";
            case "bad_offset": return "an offset is zero where a value is required, or points backwards";
            case "bad_size": return "a struct or model size is smaller than its header, or does not match";
            case "bad_type": return "unexpected struct type number";
            case "bad_value": return "a value outside its domain";
            case "too_deep": return "structs nested beyond Limits.maxDepth";
            case "too_large": return "message or element count exceeds its limit";
            case "over_budget": return "blocks shared or reached repeatedly";
            case "invalid_argument": return "malformed text";
            case "out_of_range": return "value does not fit its type";
            default: return code;
        }
    }
}
