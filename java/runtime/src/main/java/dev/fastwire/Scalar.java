package dev.fastwire;

/**
 * The integer wire types, as a kind for enums and flags: size, signedness and JSON range.
 * Values are held as a long: signed types sign-extended, unsigned ones zero-extended,
 * uint64 as its bits.
 */
public enum Scalar {
    BOOL(1, false, 0, 1), BYTE(1, false, 0, 0xFF), CHAR(1, false, 0, 0xFF), WCHAR(4, false, 0, 0xFFFFFFFFL),
    INT8(1, true, Byte.MIN_VALUE, Byte.MAX_VALUE), UINT8(1, false, 0, 0xFF),
    INT16(2, true, Short.MIN_VALUE, Short.MAX_VALUE), UINT16(2, false, 0, 0xFFFF),
    INT32(4, true, Integer.MIN_VALUE, Integer.MAX_VALUE), UINT32(4, false, 0, 0xFFFFFFFFL),
    INT64(8, true, Long.MIN_VALUE, Long.MAX_VALUE), UINT64(8, false, 0, -1L);

    public final int size;
    public final boolean signed;
    public final long lo;
    public final long hi;
    public final String schemaName;

    Scalar(int size, boolean signed, long lo, long hi) {
        this.size = size;
        this.signed = signed;
        this.lo = lo;
        this.hi = hi;
        this.schemaName = name().toLowerCase();
    }

    public long read(Reader r, int p) {
        switch (size) {
            case 1: return signed ? r.i8(p) : r.u8(p);
            case 2: return signed ? r.i16(p) : r.i16(p) & 0xFFFF;
            case 4: return signed ? r.i32(p) : r.u32(p);
            default: return r.i64(p);
        }
    }

    public void write(byte[] buf, int p, long v) {
        switch (size) {
            case 1: buf[p] = (byte) v; break;
            case 2: Writer.I16.set(buf, p, (short) v); break;
            case 4: Writer.I32.set(buf, p, (int) v); break;
            default: Writer.I64.set(buf, p, v);
        }
    }

    public void json(JsonWriter w, long v) {
        if (this == UINT64) {
            w.unsigned(v);
        } else {
            w.integer(v);
        }
    }

    public String text(long v) {
        return this == UINT64 ? Long.toUnsignedString(v) : Long.toString(v);
    }

    public long parse(JsonReader r) {
        if (this == UINT64) return r.readUnsigned64(schemaName);
        return r.readInteger(schemaName, lo, hi);
    }

    /** A map key's text: an optional '-' and digits; leading zeros are not digits of the value. */
    public long parseKey(String s) {
        boolean neg = s.startsWith("-");
        String t = neg ? s.substring(1) : s;
        if (t.isEmpty()) throw new DecodeException("invalid_argument", "map key '" + Decimals.shortText(s) + "' is not an integer");
        for (int k = 0; k < t.length(); k++) {
            char c = t.charAt(k);
            if (c < '0' || c > '9') throw new DecodeException("invalid_argument", "map key '" + Decimals.shortText(s) + "' is not an integer");
        }
        int lead = 0;
        while (lead < t.length() - 1 && t.charAt(lead) == '0') lead++;
        String d = t.substring(lead);
        if (d.length() > 20) throw new DecodeException("out_of_range", "map key '" + Decimals.shortText(s) + "' does not fit " + schemaName);
        String text = neg ? "-" + d : d;
        if (this == UINT64) return JsonReader.unsigned64(text, schemaName);
        return JsonReader.integer(text, schemaName, lo, hi);
    }

    public int compare(long a, long b) {
        return this == UINT64 ? Long.compareUnsigned(a, b) : Long.compare(a, b);
    }
}
