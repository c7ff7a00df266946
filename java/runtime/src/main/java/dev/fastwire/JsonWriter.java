package dev.fastwire;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Base64;
import java.util.UUID;

/**
 * Writes JSON text by the rules every fastwire language follows (docs/wire-format.md#json):
 * compact, doubles in their shortest form laid out as RapidJSON does, NaN and the
 * infinities as strings, exact 64-bit integers and decimals, control characters escaped
 * as RapidJSON escapes them.
 */
public final class JsonWriter {
    public final StringBuilder sb;

    public JsonWriter() {
        this(new StringBuilder(256));
    }

    public JsonWriter(StringBuilder sb) {
        this.sb = sb;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    public JsonWriter raw(String s) {
        sb.append(s);
        return this;
    }

    public JsonWriter raw(char c) {
        sb.append(c);
        return this;
    }

    /** A key and its colon, from a pre-escaped text (generated code passes "\"name\":"). */
    public void key(String quotedWithColon) {
        sb.append(quotedWithColon);
    }

    public void bool(boolean v) {
        sb.append(v ? "true" : "false");
    }

    public void integer(long v) {
        sb.append(v);
    }

    public void unsigned(long v) {
        if (v >= 0) {
            sb.append(v);
        } else {
            sb.append(Long.toUnsignedString(v));
        }
    }

    public void number(double v) {
        if (Double.isNaN(v)) {
            sb.append("\"NaN\"");
        } else if (Double.isInfinite(v)) {
            sb.append(v > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        } else {
            doubleText(sb, v);
        }
    }

    public void decimal(BigDecimal v) {
        sb.append('"').append(Decimals.text(v)).append('"');
    }

    public void uuid(UUID v) {
        sb.append('"').append(v.toString()).append('"');
    }

    public void bytes(byte[] v) {
        sb.append('"').append(Base64.getEncoder().encodeToString(v)).append('"');
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();
    private static final char[] HEX_LOWER = "0123456789abcdef".toCharArray();

    public void string(String s) {
        string(sb, s);
    }

    /** s as a JSON string: UTF-8 as is; only ", \, and the control characters escaped. */
    public static void string(StringBuilder sb, String s) {
        sb.append('"');
        int n = s.length();
        int from = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && (c < 0xD800 || c > 0xDFFF)) {
                continue;
            }
            if (c >= 0xD800 && c <= 0xDFFF) {
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                    continue;  // a pair: one character, written as is
                }
            }
            sb.append(s, from, i);
            from = i + 1;
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        sb.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 15]);
                    } else {  // a lone surrogate (a byte that was not UTF-8), lower-case as Python
                        sb.append("\\u").append(HEX_LOWER[c >> 12]).append(HEX_LOWER[(c >> 8) & 15])
                          .append(HEX_LOWER[(c >> 4) & 15]).append(HEX_LOWER[c & 15]);
                    }
            }
        }
        sb.append(s, from, n);
        sb.append('"');
    }

    /** A finite double's text: shortest digits, RapidJSON's layout. */
    public static void doubleText(StringBuilder sb, double v) {
        if (v == 0) {
            sb.append(1 / v < 0 ? "-0.0" : "0.0");
            return;
        }
        if (v < 0) {
            sb.append('-');
            v = -v;
        }
        // Fast path: integers below 2^53 are their own shortest digits.
        if (v < 9007199254740992.0 && v == Math.rint(v)) {
            long l = (long) v;
            String d = Long.toString(l);
            int k = 0;
            int len = d.length();
            while (len > 1 && d.charAt(len - 1) == '0') {
                len--;
                k++;
            }
            layout(sb, d.substring(0, len), k);
            return;
        }
        // JDK 17's Double.toString gives digits that read back, but not always the fewest:
        // drop digits while the shorter text still reads back to v (one check usually).
        String t = Double.toString(v);
        int e = t.indexOf('E');
        int exp = e < 0 ? 0 : Integer.parseInt(t.substring(e + 1));
        String mant = e < 0 ? t : t.substring(0, e);
        int dot = mant.indexOf('.');
        StringBuilder digits = new StringBuilder(mant.length());
        digits.append(mant, 0, dot).append(mant, dot + 1, mant.length());
        int k = exp - (mant.length() - dot - 1);
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') lead++;
        String d = digits.substring(lead);
        int z = d.length();
        while (z > 1 && d.charAt(z - 1) == '0') z--;
        k += d.length() - z;
        d = d.substring(0, z);
        while (d.length() > 1) {
            char last = d.charAt(d.length() - 1);
            if (last == '5') {
                shortestSlow(sb, v);
                return;
            }
            String shorter = d.substring(0, d.length() - 1);
            if (last > '5') shorter = increment(shorter);
            int k2 = k + 1;
            if (shorter.length() > d.length() - 1) {  // 99.. rounded up to 100..
                shorter = shorter.substring(0, shorter.length() - 1);
                k2++;
            }
            if (Double.parseDouble(shorter + "E" + k2) != v) break;
            int zz = shorter.length();
            while (zz > 1 && shorter.charAt(zz - 1) == '0') zz--;
            d = shorter.substring(0, zz);
            k = k2 + (shorter.length() - zz);
        }
        layout(sb, d, k);
    }

    private static String increment(String digits) {
        char[] c = digits.toCharArray();
        int i = c.length - 1;
        while (i >= 0 && c[i] == '9') c[i--] = '0';
        if (i < 0) return "1" + new String(c);
        c[i]++;
        return new String(c);
    }

    /** The shortest digits by exact rounding (the slow, always right way). */
    private static void shortestSlow(StringBuilder sb, double v) {
        BigDecimal exact = new BigDecimal(v);
        BigDecimal best = null;
        for (int p = 1; p <= 17; p++) {
            BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (Double.parseDouble(r.toString()) == v) {
                best = r;
                break;
            }
            BigDecimal other = exact.round(new MathContext(p, RoundingMode.UP));
            if (other.compareTo(r) == 0) {
                other = exact.round(new MathContext(p, RoundingMode.DOWN));
            }
            if (Double.parseDouble(other.toString()) == v) {
                best = other;
                break;
            }
        }
        if (best == null) {
            best = exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
        }
        best = best.stripTrailingZeros();
        String d = best.unscaledValue().toString();
        layout(sb, d, -best.scale());
    }

    /** digits x 10^k laid out as RapidJSON's Writer does. */
    private static void layout(StringBuilder sb, String d, int k) {
        int len = d.length();
        int n = len + k;
        if (k >= 0 && n <= 21) {
            sb.append(d);
            for (int i = 0; i < k; i++) sb.append('0');
            sb.append(".0");
        } else if (0 < n && n <= 21) {
            sb.append(d, 0, n).append('.').append(d, n, len);
        } else if (-6 < n && n <= 0) {
            sb.append("0.");
            for (int i = 0; i < -n; i++) sb.append('0');
            sb.append(d);
        } else {
            sb.append(d.charAt(0));
            if (len > 1) sb.append('.').append(d, 1, len);
            sb.append('e').append(n - 1);
        }
    }

    /** A double's text for a map key: as above, NaN and the infinities without quotes. */
    public static String doubleKey(double v) {
        if (Double.isNaN(v)) return "NaN";
        if (Double.isInfinite(v)) return v > 0 ? "Infinity" : "-Infinity";
        StringBuilder sb = new StringBuilder();
        doubleText(sb, v);
        return sb.toString();
    }
}
