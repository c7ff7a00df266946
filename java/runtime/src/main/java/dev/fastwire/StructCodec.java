package dev.fastwire;

import java.util.Comparator;

/**
 * A generated struct's codec: the generated subclass reads and writes the fields of both
 * formats and JSON; this class frames them (a versioned body's header, the depth, the
 * reuse of a previous object) and makes the struct usable in optionals and collections.
 */
public abstract class StructCodec<T> extends Codec<T> {
    public final Class<T> cls;
    /** The type number. */
    public final int type;
    /** The versioned body's size: header and slots. */
    public final int bodySize;

    protected StructCodec(Class<T> cls, String name, int type, int bodySize, int finalMin) {
        super(name, 4, finalMin);
        this.cls = cls;
        this.type = type;
        this.bodySize = bodySize;
    }

    /** A new value with the schema's defaults. */
    public abstract T create();

    /** Writes the fields of v into the body at `body` (its header already written). */
    protected abstract void vfields(Writer w, int body, T v);

    /** Reads the fields of a body of `size` bytes at `body` into v (depth already taken). */
    protected abstract void vread(Reader r, int body, int size, int depth, T v);

    protected abstract void vverify(Reader r, int body, int size, int depth);

    protected abstract void ffields(Writer w, T v);

    protected abstract void fread(Reader r, int depth, T v);

    protected abstract void fverify(Reader r, int depth);

    /** Writes "key":value for every field, separated by commas. */
    protected abstract void jfields(JsonWriter w, T v);

    /** Reads the value of the field named r.key into v; false for an unknown key. */
    protected abstract boolean jfield(JsonReader r, T v);

    @Override
    public T zero() {
        return create();
    }

    private T fill(T reuse) {
        return reuse != null && reuse.getClass() == cls ? reuse : create();
    }

    /** Appends v's body (and its heap blocks); returns the body's position. */
    public int vbody(Writer w, T v) {
        if (v == null) throw new EncodeException(name + " is null (not an optional)");
        int body = w.allocRaw(bodySize);  // every slot is written by vfields
        w.i32(body, bodySize);
        w.i32(body + 4, type);
        vfields(w, body, v);
        return body;
    }

    @Override
    public void vput(Writer w, int pos, int base, T v) {
        int body = vbody(w, v);
        w.i32(pos, body - base);
    }

    @Override
    public T vget(Reader r, int pos, int base, int depth, T reuse) {
        int body = r.enter(base, r.u32(pos), pos + 4, type, depth);
        T v = fill(reuse);
        vread(r, body, r.len, depth - 1, v);
        return v;
    }

    /**
     * verify's fast walk of a root (generated for non-recursive structs): the budget left
     * after the body the slot leads to, or a negative number when the general walk must
     * decide (anything unusual, or fewer than the struct's nesting levels left).
     */
    public long vfast(byte[] d, int slot, int base, int size, long left, int depth) {
        return -1;
    }

    /** The final format's fast walk: the position after the struct at p, or -1. */
    public int ffast(byte[] d, int p, int end, int depth) {
        return -1;
    }

    @Override
    public void vcheck(Reader r, int pos, int base, int depth) {
        int body = r.enter(base, r.u32(pos), pos + 4, type, depth);
        vverify(r, body, r.len, depth - 1);
    }

    @Override
    public void fput(Writer w, T v) {
        if (v == null) throw new EncodeException(name + " is null (not an optional)");
        ffields(w, v);
    }

    @Override
    public T fget(Reader r, int depth, T reuse) {
        if (depth < 1) throw Reader.fail("too_deep");
        T v = fill(reuse);
        fread(r, depth - 1, v);
        return v;
    }

    @Override
    public void fcheck(Reader r, int depth) {
        if (depth < 1) throw Reader.fail("too_deep");
        fverify(r, depth - 1);
    }

    @Override
    public void jput(JsonWriter w, T v) {
        w.raw('{');
        jfields(w, v);
        w.raw('}');
    }

    @Override
    public T jget(JsonReader r) {
        r.beginObject(name);
        T v = create();
        while (r.nextKey()) {
            if (!jfield(r, v)) r.skipValue();
        }
        return v;
    }

    @Override
    public boolean pairKey() {
        return true;
    }

    @SuppressWarnings("unchecked")
    @Override
    public Comparator<T> comparator() {
        return (a, b) -> ((Comparable<T>) a).compareTo(b);
    }

    /** The value as JSON text. */
    public String toJson(T v) {
        JsonWriter w = new JsonWriter();
        jput(w, v);
        return w.toString();
    }

    /** A value from JSON text: missing fields keep their defaults, unknown keys are skipped. */
    public T fromJson(String text) {
        return fromJson(text, Limits.DEFAULT);
    }

    public T fromJson(String text, Limits limits) {
        JsonReader r = JsonReader.of(text, limits);
        T v = jget(r);
        r.finish();
        return v;
    }

    public T fromJson(byte[] utf8, Limits limits) {
        JsonReader r = JsonReader.of(utf8, 0, utf8.length, limits);
        T v = jget(r);
        r.finish();
        return v;
    }
}
