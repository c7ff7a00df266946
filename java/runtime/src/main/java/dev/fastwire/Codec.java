package dev.fastwire;

import java.util.Comparator;
import java.util.Objects;

/**
 * How one schema type sits in the versioned format, the final format and JSON. Generated
 * code holds the structs' hot paths; codecs compose everything else (optionals,
 * collections, map keys).
 *
 * <p>Versioned: positions are absolute in the buffer; {@code base} is where offsets are
 * relative to; {@code depth} is how many struct levels may still be entered. {@code vput}
 * fills the slot at {@code pos} and appends the value's heap blocks; {@code vget} reads
 * the slot checking every offset and count; {@code vcheck} makes the same checks without
 * allocating. Final: {@code fput} appends, {@code fget}/{@code fcheck} read at the
 * reader's cursor. {@code reuse} is a previous value to fill (may be ignored).
 */
public abstract class Codec<T> {
    public final String name;
    /** Bytes of the slot in a versioned body or collection block. */
    public final int slot;
    /** The fewest bytes a value takes in the final format. */
    public final int finalMin;

    protected Codec(String name, int slot, int finalMin) {
        this.name = name;
        this.slot = slot;
        this.finalMin = finalMin;
    }

    public abstract T zero();

    public abstract void vput(Writer w, int pos, int base, T v);

    public abstract T vget(Reader r, int pos, int base, int depth, T reuse);

    public abstract void vcheck(Reader r, int pos, int base, int depth);

    public abstract void fput(Writer w, T v);

    public abstract T fget(Reader r, int depth, T reuse);

    public abstract void fcheck(Reader r, int depth);

    public abstract void jput(JsonWriter w, T v);

    public abstract T jget(JsonReader r);

    /** A map key's text (unquoted); JSON object keys. */
    public String keyText(T v) {
        JsonWriter w = new JsonWriter();
        jput(w, v);
        return w.toString();
    }

    /** A map key from its text. */
    public T keyParse(String s, Limits limits) {
        JsonReader r = JsonReader.of(s, limits);
        T v = jget(r);
        r.finish();
        return v;
    }

    /** Written as an array of [key, value] pairs when it is a map's key (structs). */
    public boolean pairKey() {
        return false;
    }

    /** The order of a set's elements and a map's keys. */
    @SuppressWarnings("unchecked")
    public Comparator<T> comparator() {
        return (Comparator<T>) Comparator.naturalOrder();
    }

    public boolean equal(T a, T b) {
        return Objects.equals(a, b);
    }

    public int hash(T v) {
        return Objects.hashCode(v);
    }

    /** The value as the C++ runtime prints it (toString of generated structs). */
    public String text(T v) {
        return String.valueOf(v);
    }

    @Override
    public String toString() {
        return "Codec(" + name + ")";
    }
}
