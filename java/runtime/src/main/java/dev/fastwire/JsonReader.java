package dev.fastwire;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A pull parser of JSON text for generated code, holding hostile text to the rules every
 * fastwire reader follows (docs/wire-format.md#json): text longer than maxMessageSize is
 * rejected, every array and object counts a level (the root included) up to maxDepth,
 * elements of zero final size are charged to maxZeroSizeElements, strings must be Unicode
 * (no lone surrogate escapes). Malformed text raises DecodeException(invalid_argument);
 * a value of the wrong JSON type, bad_value; a number that does not fit, out_of_range.
 */
public final class JsonReader {
    private final String s;
    private final int n;
    private int i;
    private int depth;
    private final int maxDepth;
    private long zeroLeft;
    /** The last key read by {@link #nextKey()}. */
    public String key;
    private final boolean[] first = new boolean[Limits.MAX_DEPTH_CAP + 2];

    public JsonReader(String text, Limits limits) {
        this.s = text;
        this.n = text.length();
        this.maxDepth = limits.maxDepth;
        this.zeroLeft = limits.maxZeroSizeElements;
    }

    /** A reader of UTF-8 text; text that is not UTF-8 or is too long is rejected. */
    public static JsonReader of(byte[] utf8, int off, int len, Limits limits) {
        if (len > limits.maxMessageSize) throw new DecodeException("too_large", "JSON text longer than maxMessageSize");
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(utf8, off, len)).toString();
        } catch (CharacterCodingException e) {
            throw new DecodeException("invalid_argument", "JSON text is not UTF-8");
        }
        return new JsonReader(text, limits);
    }

    public static JsonReader of(String text, Limits limits) {
        if (text.length() > limits.maxMessageSize || Utf8.length(text) > limits.maxMessageSize) {
            throw new DecodeException("too_large", "JSON text longer than maxMessageSize");
        }
        return new JsonReader(text, limits);
    }

    static DecodeException invalid(String what) {
        return new DecodeException("invalid_argument", what);
    }

    public static DecodeException wrongType(String expected) {
        return new DecodeException("bad_value", expected + " expected");
    }

    private void ws() {
        while (i < n) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                i++;
            } else {
                break;
            }
        }
    }

    /** The next value's first character (after whitespace), or -1 at the end. */
    public int peek() {
        ws();
        return i < n ? s.charAt(i) : -1;
    }

    /** Only whitespace may follow the root value. */
    public void finish() {
        ws();
        if (i != n) throw invalid("text after the JSON value");
    }

    private void enter() {
        if (++depth > maxDepth) throw new DecodeException("too_deep", "arrays and objects nested beyond " + maxDepth);
        first[depth] = true;
    }

    /** Reads '{' (bad_value when the next value is not an object). */
    public void beginObject(String what) {
        if (peek() != '{') {
            checkValue();
            throw wrongType(what);
        }
        i++;
        enter();
    }

    /** The next key of the current object, into {@link #key}; false at its end. */
    public boolean nextKey() {
        ws();
        if (i >= n) throw invalid("unterminated object");
        char c = s.charAt(i);
        if (c == '}') {
            i++;
            depth--;
            return false;
        }
        if (!first[depth]) {
            if (c != ',') throw invalid("',' or '}' expected");
            i++;
            ws();
        }
        first[depth] = false;
        if (i >= n || s.charAt(i) != '"') throw invalid("a key expected");
        key = string();
        ws();
        if (i >= n || s.charAt(i) != ':') throw invalid("':' expected");
        i++;
        return true;
    }

    /** Reads '[' (bad_value when the next value is not an array). */
    public void beginArray(String what) {
        if (peek() != '[') {
            checkValue();
            throw wrongType(what);
        }
        i++;
        enter();
    }

    /** True when another element of the current array follows; false at its end. */
    public boolean nextElement() {
        ws();
        if (i >= n) throw invalid("unterminated array");
        char c = s.charAt(i);
        if (c == ']') {
            i++;
            depth--;
            return false;
        }
        if (!first[depth]) {
            if (c != ',') throw invalid("',' or ']' expected");
            i++;
        }
        first[depth] = false;
        return true;
    }

    /** Consumes `null` when it comes next. */
    public boolean readNull() {
        if (peek() == 'n') {
            word("null");
            return true;
        }
        return false;
    }

    public boolean readBool() {
        int c = peek();
        if (c == 't') {
            word("true");
            return true;
        }
        if (c == 'f') {
            word("false");
            return false;
        }
        checkValue();
        throw wrongType("bool");
    }

    private void word(String w) {
        if (!s.startsWith(w, i)) throw invalid("not JSON");
        i += w.length();
    }

    /** True when the next value is a string. */
    public boolean isString() {
        return peek() == '"';
    }

    /** True when the next value is a number. */
    public boolean isNumber() {
        int c = peek();
        return c == '-' || (c >= '0' && c <= '9');
    }

    public String readString(String what) {
        if (peek() != '"') {
            checkValue();
            throw wrongType(what);
        }
        return string();
    }

    /** A number's text exactly as written (checked against JSON's grammar). */
    public String readNumber(String what) {
        if (!isNumber()) {
            checkValue();
            throw wrongType(what);
        }
        return number();
    }

    /** The next value must at least be JSON: a wrong type is reported only for JSON. */
    private void checkValue() {
        int save = i;
        int d = depth;
        skipValue();
        i = save;
        depth = d;
    }

    private String number() {
        int start = i;
        if (i < n && s.charAt(i) == '-') i++;
        if (i >= n) throw invalid("bad number");
        char c = s.charAt(i);
        if (c == '0') {
            i++;
        } else if (c >= '1' && c <= '9') {
            while (i < n && isDigit(s.charAt(i))) i++;
        } else {
            throw invalid("bad number");
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            int f = i;
            while (i < n && isDigit(s.charAt(i))) i++;
            if (i == f) throw invalid("bad number");
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int f = i;
            while (i < n && isDigit(s.charAt(i))) i++;
            if (i == f) throw invalid("bad number");
        }
        return s.substring(start, i);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private String string() {
        i++;  // the opening quote
        int start = i;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '"') {
                String out = s.substring(start, i);
                i++;
                return checkSurrogates(out);
            }
            if (c == '\\') break;
            if (c < 0x20) throw invalid("control character in a string");
            i++;
        }
        StringBuilder sb = new StringBuilder(s.substring(start, Math.min(i, n)));
        while (true) {
            if (i >= n) throw invalid("unterminated string");
            char c = s.charAt(i++);
            if (c == '"') break;
            if (c < 0x20) throw invalid("control character in a string");
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (i >= n) throw invalid("unterminated string");
            char e = s.charAt(i++);
            switch (e) {
                case '"': sb.append('"'); break;
                case '\\': sb.append('\\'); break;
                case '/': sb.append('/'); break;
                case 'b': sb.append('\b'); break;
                case 'f': sb.append('\f'); break;
                case 'n': sb.append('\n'); break;
                case 'r': sb.append('\r'); break;
                case 't': sb.append('\t'); break;
                case 'u':
                    if (i + 4 > n) throw invalid("bad \\u escape");
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int h = Character.digit(s.charAt(i + k), 16);
                        if (h < 0) throw invalid("bad \\u escape");
                        v = v * 16 + h;
                    }
                    i += 4;
                    sb.append((char) v);
                    break;
                default:
                    throw invalid("bad escape");
            }
        }
        return checkSurrogates(sb.toString());
    }

    private static String checkSurrogates(String t) {
        int len = t.length();
        for (int k = 0; k < len; k++) {
            char c = t.charAt(k);
            if (c >= 0xD800 && c <= 0xDFFF) {
                if (Character.isHighSurrogate(c) && k + 1 < len && Character.isLowSurrogate(t.charAt(k + 1))) {
                    k++;
                    continue;
                }
                throw invalid(String.format("string holds a lone surrogate U+%04X (not valid UTF-8)", (int) c));
            }
        }
        return t;
    }

    /** Skips one value of any type (nesting still counted). */
    public void skipValue() {
        int c = peek();
        switch (c) {
            case '{':
                i++;
                enter();
                while (nextKey()) skipValue();
                return;
            case '[':
                i++;
                enter();
                while (nextElement()) skipValue();
                return;
            case '"':
                string();
                return;
            case 't':
                word("true");
                return;
            case 'f':
                word("false");
                return;
            case 'n':
                word("null");
                return;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    number();
                    return;
                }
                throw invalid(c < 0 ? "unexpected end" : "not JSON");
        }
    }

    /** Charges n elements of zero final size (empty structs) to the text's allowance. */
    public void chargeZeroSize(long count) {
        zeroLeft -= count;
        if (zeroLeft < 0) throw new DecodeException("over_budget", "elements of zero size beyond maxZeroSizeElements");
    }

    // ---- numbers -------------------------------------------------------------------

    /** An integer in [lo, hi] (signed). */
    public long readInteger(String what, long lo, long hi) {
        String t = readNumber(what);
        return integer(t, what, lo, hi);
    }

    static long integer(String t, String what, long lo, long hi) {
        for (int k = 0; k < t.length(); k++) {
            char c = t.charAt(k);
            if (c == '.' || c == 'e' || c == 'E') throw wrongType(what);
        }
        boolean neg = t.startsWith("-");
        String digits = neg ? t.substring(1) : t;
        if (digits.length() > 19) throw new DecodeException("out_of_range", Decimals.shortText(t) + " does not fit " + what);
        long v;
        try {
            v = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new DecodeException("out_of_range", t + " does not fit " + what);
        }
        if (v < lo || v > hi) throw new DecodeException("out_of_range", t + " does not fit " + what);
        return v;
    }

    /** An unsigned 64-bit integer (its bits). */
    public long readUnsigned64(String what) {
        String t = readNumber(what);
        return unsigned64(t, what);
    }

    static long unsigned64(String t, String what) {
        for (int k = 0; k < t.length(); k++) {
            char c = t.charAt(k);
            if (c == '.' || c == 'e' || c == 'E') throw wrongType(what);
        }
        if (t.startsWith("-")) {
            if (t.equals("-0")) return 0;
            throw new DecodeException("out_of_range", Decimals.shortText(t) + " does not fit " + what);
        }
        if (t.length() > 20) throw new DecodeException("out_of_range", Decimals.shortText(t) + " does not fit " + what);
        try {
            return Long.parseUnsignedLong(t);
        } catch (NumberFormatException e) {
            throw new DecodeException("out_of_range", t + " does not fit " + what);
        }
    }

    public double readDouble(String what) {
        int c = peek();
        double x;
        if (c == '"') {
            String t = string();
            switch (t) {
                case "NaN": return Double.NaN;
                case "Infinity": return Double.POSITIVE_INFINITY;
                case "-Infinity": return Double.NEGATIVE_INFINITY;
                default: throw wrongType(what);
            }
        }
        String t = readNumber(what);
        x = Double.parseDouble(t);
        if (Double.isInfinite(x)) throw new DecodeException("out_of_range", Decimals.shortText(t) + " does not fit " + what);
        return x;
    }

    public float readFloat(String what) {
        int c = peek();
        if (c == '"') {
            return (float) readDouble(what);
        }
        double x = readDouble(what);
        float f = (float) x;
        if (Float.isInfinite(f)) throw new DecodeException("out_of_range", x + " does not fit float");
        return f;
    }

    /** A decimal: a string or a number, by the exact-text rule. */
    public java.math.BigDecimal readDecimal() {
        int c = peek();
        if (c == '"') return Decimals.parse(string());
        if (isNumber()) return Decimals.parse(number());
        checkValue();
        throw wrongType("decimal");
    }
}
