package dev.fastwire;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * decimal is java.math.BigDecimal: on the wire a 96-bit unsigned integer, a scale 0..28
 * and a sign. BigDecimal has no negative zero; a negative zero read from the wire or JSON
 * is the instance {@link #negativeZero(int)} of its scale, which writes back with its sign
 * (compared by identity; arithmetic on it gives plain zeros).
 */
public final class Decimals {
    private Decimals() {
    }

    private static final BigDecimal[] NEGATIVE_ZERO = new BigDecimal[29];
    private static final BigDecimal[] ZERO = new BigDecimal[29];
    static final BigInteger MAX = BigInteger.ONE.shiftLeft(96).subtract(BigInteger.ONE);

    static {
        for (int i = 0; i <= 28; i++) {
            NEGATIVE_ZERO[i] = new BigDecimal(BigInteger.ZERO, i);
            ZERO[i] = BigDecimal.ZERO.setScale(i);
        }
    }

    /** The negative zero of a scale (0..28): a BigDecimal that writes as -0.00… */
    public static BigDecimal negativeZero(int scale) {
        return NEGATIVE_ZERO[scale];
    }

    public static boolean isNegativeZero(BigDecimal v) {
        int s = v.scale();
        return s >= 0 && s <= 28 && NEGATIVE_ZERO[s] == v;
    }

    /** Reads 16 wire bytes at p (the scale already checked). */
    public static BigDecimal read(Reader r, int p) {
        long lo = r.i64(p);
        int hi = r.i32(p + 8);
        int flags = r.i32(p + 12);
        int scale = (flags >>> 16) & 0xFF;
        if (scale > 28) throw new DecodeException("bad_value", "decimal scale " + scale);
        boolean negative = flags < 0;
        if (hi == 0 && lo >= 0) {
            if (lo == 0) {
                return negative ? NEGATIVE_ZERO[scale] : ZERO[scale];
            }
            return BigDecimal.valueOf(negative ? -lo : lo, scale);
        }
        byte[] mag = new byte[12];
        for (int i = 0; i < 4; i++) mag[i] = (byte) (hi >>> (24 - 8 * i));
        for (int i = 0; i < 8; i++) mag[4 + i] = (byte) (lo >>> (56 - 8 * i));
        BigInteger n = new BigInteger(1, mag);
        return new BigDecimal(negative ? n.negate() : n, scale);
    }

    /** Writes v's 16 wire bytes at buf[p]. */
    public static void write(byte[] buf, int p, BigDecimal v) {
        if (v == null) throw new EncodeException("decimal is null");
        int scale = v.scale();
        BigInteger n = v.unscaledValue();
        if (scale < 0) {
            n = n.multiply(BigInteger.TEN.pow(-scale));
            scale = 0;
        } else if (scale > 28) {
            BigDecimal s = v.stripTrailingZeros();
            if (s.scale() > 28) throw new EncodeException("decimal " + v + " has more than 28 decimal places");
            if (s.signum() == 0) {
                n = BigInteger.ZERO;
                scale = 28;
            } else {
                v = s.setScale(28);
                n = v.unscaledValue();
                scale = 28;
            }
        }
        boolean negative = n.signum() < 0 || isNegativeZero(v);
        BigInteger m = n.abs();
        if (m.bitLength() > 96) throw new EncodeException("decimal " + v + " needs more than 96 bits");
        long lo;
        int hi;
        if (m.bitLength() <= 63) {
            lo = m.longValue();
            hi = 0;
        } else {
            lo = m.longValue();
            hi = m.shiftRight(64).intValue();
        }
        Writer.I64.set(buf, p, lo);
        Writer.I32.set(buf, p + 8, hi);
        Writer.I32.set(buf, p + 12, (scale << 16) | (negative ? 0x80000000 : 0));
    }

    /** The exact text: "1.50", "-0.00", never an exponent. */
    public static String text(BigDecimal v) {
        String t = v.scale() < 0 ? v.setScale(0).toPlainString() : v.toPlainString();
        if (isNegativeZero(v)) t = "-" + t;
        return t;
    }

    /**
     * A decimal from its text, by the JSON rule (docs/wire-format.md#json): digits as
     * written, trailing zeros included, must fit 96 bits; the scale must be 0..28 after a
     * negative scale multiplies the digits. Work bounded by the text's length.
     */
    public static BigDecimal parse(String s) {
        int i = 0;
        int n = s.length();
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        StringBuilder digits = new StringBuilder();
        int intDigits = 0;
        int fracDigits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            digits.append(s.charAt(i++));
            intDigits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                digits.append(s.charAt(i++));
                fracDigits++;
            }
        }
        if (intDigits + fracDigits == 0) throw bad(s);
        long exponent = 0;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            boolean eneg = false;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                eneg = s.charAt(i) == '-';
                i++;
            }
            int start = i;
            while (i < n && isDigit(s.charAt(i))) {
                if (exponent < 1_000_000_000_000L) exponent = exponent * 10 + (s.charAt(i) - '0');
                i++;
            }
            if (i == start) throw bad(s);
            if (eneg) exponent = -exponent;
        }
        if (i != n) throw bad(s);
        // Leading zeros are not digits of the value (as Python's Decimal keeps them).
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') lead++;
        String d = digits.substring(lead);
        if (d.length() > 29) throw new DecodeException("out_of_range", "decimal " + shortText(s) + " needs more than 96 bits");
        BigInteger value = new BigInteger(d);
        long scale = fracDigits - exponent;
        if (scale < 0) {
            if (value.signum() != 0) {
                if (d.length() - scale > 29) throw new DecodeException("out_of_range", "decimal " + shortText(s) + " needs more than 96 bits");
                value = value.multiply(BigInteger.TEN.pow((int) -scale));
            }
            scale = 0;
        }
        if (value.compareTo(MAX) > 0) throw new DecodeException("out_of_range", "decimal " + shortText(s) + " needs more than 96 bits");
        if (scale > 28) throw new DecodeException("out_of_range", "decimal " + shortText(s) + " has more than 28 decimal places");
        if (value.signum() == 0) return negative ? NEGATIVE_ZERO[(int) scale] : ZERO[(int) scale];
        return new BigDecimal(negative ? value.negate() : value, (int) scale);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static DecodeException bad(String s) {
        return new DecodeException("invalid_argument", "'" + shortText(s) + "' is not a decimal");
    }

    static String shortText(String s) {
        return s.length() <= 60 ? s : s.substring(0, 40) + "... (" + s.length() + " characters)";
    }
}
