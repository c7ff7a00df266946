package dev.fastwire;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Optionals and collections over their elements' codecs. */
final class Composite {
    private Composite() {
    }

    /**
     * T?: versioned [u8 flag][u32 offset] to a block of slot(T) bytes holding the value
     * (offsets inside it relative to the block); null is flag 0, offset 0. Final: [u8 flag]
     * then the value when set. Any nonzero flag is set; a null's offset is ignored.
     */
    static final class OptionalCodec<T> extends Codec<T> {
        final Codec<T> inner;

        OptionalCodec(Codec<T> inner) {
            super(inner.name + "?", 5, 1);
            this.inner = inner;
        }

        @Override
        public T zero() {
            return null;
        }

        @Override
        public void vput(Writer w, int pos, int base, T v) {
            if (v == null) {
                w.buf[pos] = 0;
                w.i32(pos + 1, 0);
                return;
            }
            int q = w.allocRaw(inner.slot);  // the value's slot is written next
            w.buf[pos] = 1;
            w.i32(pos + 1, q - base);
            inner.vput(w, q, q, v);
        }

        @Override
        public T vget(Reader r, int pos, int base, int depth, T reuse) {
            if (r.buf[pos] == 0) return null;
            int q = r.optional(base, r.u32(pos + 1), pos + 5, inner.slot);
            return inner.vget(r, q, q, depth, reuse);
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            if (r.buf[pos] == 0) return;
            int q = r.optional(base, r.u32(pos + 1), pos + 5, inner.slot);
            inner.vcheck(r, q, q, depth);
        }

        @Override
        public void fput(Writer w, T v) {
            if (v == null) {
                w.addU8(0);
            } else {
                w.addU8(1);
                inner.fput(w, v);
            }
        }

        @Override
        public T fget(Reader r, int depth, T reuse) {
            int p = r.take(1);
            return r.buf[p] != 0 ? inner.fget(r, depth, reuse) : null;
        }

        @Override
        public void fcheck(Reader r, int depth) {
            int p = r.take(1);
            if (r.buf[p] != 0) inner.fcheck(r, depth);
        }

        @Override
        public void jput(JsonWriter w, T v) {
            if (v == null) {
                w.raw("null");
            } else {
                inner.jput(w, v);
            }
        }

        @Override
        public T jget(JsonReader r) {
            return r.readNull() ? null : inner.jget(r);
        }

        @Override
        public boolean equal(T a, T b) {
            return a == b || (a != null && b != null && inner.equal(a, b));
        }

        @Override
        public int hash(T v) {
            return v == null ? 0 : inner.hash(v);
        }

        @Override
        public String text(T v) {
            return v == null ? "null" : inner.text(v);
        }
    }

    static <T> void checkCount(int n, Codec<T> elem, JsonReader r) {
        if (elem.finalMin == 0) r.chargeZeroSize(n);
    }

    /** Elements of a sequence in JSON, with zero-size ones charged as they come. */
    static <T> void jelements(JsonReader r, Codec<T> elem, Collection<T> out, String what) {
        r.beginArray(what);
        while (r.nextElement()) {
            if (elem.finalMin == 0) r.chargeZeroSize(1);
            out.add(elem.jget(r));
        }
    }

    /** T[N]: N slots inline (versioned), N values inline (final); a java.util.List of N. */
    static final class ArrayCodec<T> extends Codec<List<T>> {
        final Codec<T> elem;
        final int n;

        ArrayCodec(Codec<T> elem, int n) {
            super(elem.name + "[" + n + "]", elem.slot * n, elem.finalMin * n);
            this.elem = elem;
            this.n = n;
        }

        @Override
        public List<T> zero() {
            List<T> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) out.add(elem.zero());
            return out;
        }

        private void length(List<T> v) {
            if (v.size() != n) throw new EncodeException(name + " needs exactly " + n + " elements, got " + v.size());
        }

        @Override
        public void vput(Writer w, int pos, int base, List<T> v) {
            length(v);
            int s = elem.slot;
            for (int i = 0; i < n; i++) elem.vput(w, pos + i * s, base, v.get(i));
        }

        @Override
        public List<T> vget(Reader r, int pos, int base, int depth, List<T> reuse) {
            List<T> out = reuse != null && reuse.size() == n ? reuse : zero();
            int s = elem.slot;
            for (int i = 0; i < n; i++) out.set(i, elem.vget(r, pos + i * s, base, depth, out.get(i)));
            return out;
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            int s = elem.slot;
            for (int i = 0; i < n; i++) elem.vcheck(r, pos + i * s, base, depth);
        }

        @Override
        public void fput(Writer w, List<T> v) {
            length(v);
            for (int i = 0; i < n; i++) elem.fput(w, v.get(i));
        }

        @Override
        public List<T> fget(Reader r, int depth, List<T> reuse) {
            List<T> out = reuse != null && reuse.size() == n ? reuse : zero();
            for (int i = 0; i < n; i++) out.set(i, elem.fget(r, depth, out.get(i)));
            return out;
        }

        @Override
        public void fcheck(Reader r, int depth) {
            for (int i = 0; i < n; i++) elem.fcheck(r, depth);
        }

        @Override
        public void jput(JsonWriter w, List<T> v) {
            w.raw('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) w.raw(',');
                elem.jput(w, v.get(i));
            }
            w.raw(']');
        }

        @Override
        public List<T> jget(JsonReader r) {
            List<T> out = new ArrayList<>(n);
            jelements(r, elem, out, name);
            if (out.size() != n) throw new DecodeException("bad_value", name + " expects " + n + " elements, got " + out.size());
            return out;
        }

        @Override
        public boolean equal(List<T> a, List<T> b) {
            return Sequences.equal(elem, a, b);
        }

        @Override
        public int hash(List<T> v) {
            return Sequences.hash(elem, v);
        }

        @Override
        public String text(List<T> v) {
            return Sequences.text(elem, v, "[" + v.size() + "][", "]");
        }
    }

    /** Versioned [u32 count][count x slot] block writing, shared by sequences and sets. */
    static <T> int vblock(Writer w, int n, int slot) {
        long size = 4 + (long) n * slot;
        if (size > Integer.MAX_VALUE) throw new EncodeException("collection too large");
        int at = w.allocRaw((int) size);  // every element's slot is written by the caller
        w.i32(at, n);
        return at + 4;
    }

    /** vector T[] and list T(): a java.util.List (ArrayList when read). */
    static final class SequenceCodec<T> extends Codec<List<T>> {
        final Codec<T> elem;

        SequenceCodec(Codec<T> elem, String kind) {
            super(elem.name + (kind.equals("vector") ? "[]" : "()"), 4, 4);
            this.elem = elem;
        }

        @Override
        public List<T> zero() {
            return new ArrayList<>();
        }

        @Override
        public void vput(Writer w, int pos, int base, List<T> v) {
            int n = v.size();
            int s = elem.slot;
            int at = vblock(w, n, s);
            w.i32(pos, at - 4 - base);
            for (int i = 0; i < n; i++) elem.vput(w, at + i * s, base, v.get(i));
        }

        @Override
        public List<T> vget(Reader r, int pos, int base, int depth, List<T> reuse) {
            List<T> out = reuse != null ? reuse : new ArrayList<>();
            long off = r.u32(pos);
            if (off == 0) {
                out.clear();
                return out;
            }
            int s = elem.slot;
            int at = r.counted(base, off, pos + 4, s);
            int n = r.len;
            int old = out.size();
            for (int i = 0; i < n; i++) {
                if (i < old) {
                    out.set(i, elem.vget(r, at + i * s, base, depth, out.get(i)));
                } else {
                    out.add(elem.vget(r, at + i * s, base, depth, null));
                }
            }
            if (old > n) out.subList(n, old).clear();
            return out;
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            long off = r.u32(pos);
            if (off == 0) return;
            int s = elem.slot;
            int at = r.counted(base, off, pos + 4, s);
            int n = r.len;
            for (int i = 0; i < n; i++) elem.vcheck(r, at + i * s, base, depth);
        }

        @Override
        public void fput(Writer w, List<T> v) {
            int n = v.size();
            w.addI32(n);
            for (int i = 0; i < n; i++) elem.fput(w, v.get(i));
        }

        @Override
        public List<T> fget(Reader r, int depth, List<T> reuse) {
            List<T> out = reuse != null ? reuse : new ArrayList<>();
            int n = r.count(elem.finalMin);
            int old = out.size();
            for (int i = 0; i < n; i++) {
                if (i < old) {
                    out.set(i, elem.fget(r, depth, out.get(i)));
                } else {
                    out.add(elem.fget(r, depth, null));
                }
            }
            if (old > n) out.subList(n, old).clear();
            return out;
        }

        @Override
        public void fcheck(Reader r, int depth) {
            int n = r.count(elem.finalMin);
            for (int i = 0; i < n; i++) elem.fcheck(r, depth);
        }

        @Override
        public void jput(JsonWriter w, List<T> v) {
            w.raw('[');
            for (int i = 0; i < v.size(); i++) {
                if (i > 0) w.raw(',');
                elem.jput(w, v.get(i));
            }
            w.raw(']');
        }

        @Override
        public List<T> jget(JsonReader r) {
            List<T> out = new ArrayList<>();
            jelements(r, elem, out, name);
            return out;
        }

        @Override
        public boolean equal(List<T> a, List<T> b) {
            return Sequences.equal(elem, a, b);
        }

        @Override
        public int hash(List<T> v) {
            return Sequences.hash(elem, v);
        }

        @Override
        public String text(List<T> v) {
            return Sequences.text(elem, v, "[" + v.size() + "][", "]");
        }
    }

    /** set T!: a TreeSet in the element codec's order (written ascending). */
    static final class SetCodec<T> extends Codec<TreeSet<T>> {
        final Codec<T> elem;
        final Comparator<T> order;

        SetCodec(Codec<T> elem) {
            super(elem.name + "!", 4, 4);
            this.elem = elem;
            this.order = elem.comparator();
        }

        @Override
        public TreeSet<T> zero() {
            return new TreeSet<>(order);
        }

        private Collection<T> ordered(Collection<T> v) {
            if (v instanceof TreeSet && ((TreeSet<T>) v).comparator() == order) return v;
            TreeSet<T> s = new TreeSet<>(order);
            s.addAll(v);
            return s;
        }

        @Override
        public void vput(Writer w, int pos, int base, TreeSet<T> v) {
            Collection<T> items = ordered(v);
            int s = elem.slot;
            int at = vblock(w, items.size(), s);
            w.i32(pos, at - 4 - base);
            for (T x : items) {
                elem.vput(w, at, base, x);
                at += s;
            }
        }

        @Override
        public TreeSet<T> vget(Reader r, int pos, int base, int depth, TreeSet<T> reuse) {
            TreeSet<T> out = reuse != null && reuse.comparator() == order ? reuse : zero();
            out.clear();
            long off = r.u32(pos);
            if (off == 0) return out;
            int s = elem.slot;
            int at = r.counted(base, off, pos + 4, s);
            int n = r.len;
            for (int i = 0; i < n; i++) out.add(elem.vget(r, at + i * s, base, depth, null));
            return out;
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            long off = r.u32(pos);
            if (off == 0) return;
            int s = elem.slot;
            int at = r.counted(base, off, pos + 4, s);
            int n = r.len;
            for (int i = 0; i < n; i++) elem.vcheck(r, at + i * s, base, depth);
        }

        @Override
        public void fput(Writer w, TreeSet<T> v) {
            Collection<T> items = ordered(v);
            w.addI32(items.size());
            for (T x : items) elem.fput(w, x);
        }

        @Override
        public TreeSet<T> fget(Reader r, int depth, TreeSet<T> reuse) {
            TreeSet<T> out = reuse != null && reuse.comparator() == order ? reuse : zero();
            out.clear();
            int n = r.count(elem.finalMin);
            for (int i = 0; i < n; i++) out.add(elem.fget(r, depth, null));
            return out;
        }

        @Override
        public void fcheck(Reader r, int depth) {
            int n = r.count(elem.finalMin);
            for (int i = 0; i < n; i++) elem.fcheck(r, depth);
        }

        @Override
        public void jput(JsonWriter w, TreeSet<T> v) {
            w.raw('[');
            boolean first = true;
            for (T x : ordered(v)) {
                if (!first) w.raw(',');
                first = false;
                elem.jput(w, x);
            }
            w.raw(']');
        }

        @Override
        public TreeSet<T> jget(JsonReader r) {
            TreeSet<T> out = zero();
            jelements(r, elem, out, name);
            return out;
        }

        @Override
        public String text(TreeSet<T> v) {
            return Sequences.text(elem, ordered(v), "[" + v.size() + "]{", "}");
        }
    }

    /**
     * map V&lt;K&gt; (TreeMap, written in key order) and hash V{K} (HashMap, its order):
     * [u32 count][count x (slot(K) slot(V))]. Reading keeps the first of equal keys. JSON:
     * an object keyed by the key's text, or [[key, value], ...] for struct keys.
     */
    static final class MapCodec<K, V, M extends Map<K, V>> extends Codec<M> {
        final Codec<K> key;
        final Codec<V> value;
        final boolean sorted;
        final Comparator<K> order;
        final int pair;

        MapCodec(Codec<K> key, Codec<V> value, boolean sorted) {
            super(sorted ? value.name + "<" + key.name + ">" : value.name + "{" + key.name + "}", 4, 4);
            this.key = key;
            this.value = value;
            this.sorted = sorted;
            this.order = sorted ? key.comparator() : null;
            this.pair = key.slot + value.slot;
        }

        @SuppressWarnings("unchecked")
        @Override
        public M zero() {
            return (M) (sorted ? new TreeMap<K, V>(order) : new HashMap<K, V>());
        }

        private Map<K, V> ordered(Map<K, V> v) {
            if (!sorted || (v instanceof TreeMap && ((TreeMap<K, V>) v).comparator() == order)) return v;
            TreeMap<K, V> m = new TreeMap<>(order);
            for (Map.Entry<K, V> e : v.entrySet()) m.putIfAbsent(e.getKey(), e.getValue());
            return m;
        }

        /** Adds k -> x unless k is there, also holding null: of equal keys the first entry stays. */
        private static <A, B> void putFirst(Map<A, B> m, A k, B x) {
            int n = m.size();
            if (m.putIfAbsent(k, x) == null && m.size() == n) m.put(k, null);  // putIfAbsent replaced a null
        }

        private M fresh(M reuse) {
            if (reuse != null && (!sorted || ((TreeMap<?, ?>) reuse).comparator() == order)) {
                reuse.clear();
                return reuse;
            }
            return zero();
        }

        @Override
        public void vput(Writer w, int pos, int base, M v) {
            Map<K, V> items = ordered(v);
            int at = vblock(w, items.size(), pair);
            w.i32(pos, at - 4 - base);
            for (Map.Entry<K, V> e : items.entrySet()) {
                key.vput(w, at, base, e.getKey());
                value.vput(w, at + key.slot, base, e.getValue());
                at += pair;
            }
        }

        @Override
        public M vget(Reader r, int pos, int base, int depth, M reuse) {
            M out = fresh(reuse);
            long off = r.u32(pos);
            if (off == 0) return out;
            int at = r.counted(base, off, pos + 4, pair);
            int n = r.len;
            for (int i = 0; i < n; i++) {
                K k = key.vget(r, at, base, depth, null);
                V x = value.vget(r, at + key.slot, base, depth, null);
                putFirst(out, k, x);
                at += pair;
            }
            return out;
        }

        @Override
        public void vcheck(Reader r, int pos, int base, int depth) {
            long off = r.u32(pos);
            if (off == 0) return;
            int at = r.counted(base, off, pos + 4, pair);
            int n = r.len;
            for (int i = 0; i < n; i++) {
                key.vcheck(r, at, base, depth);
                value.vcheck(r, at + key.slot, base, depth);
                at += pair;
            }
        }

        @Override
        public void fput(Writer w, M v) {
            Map<K, V> items = ordered(v);
            w.addI32(items.size());
            for (Map.Entry<K, V> e : items.entrySet()) {
                key.fput(w, e.getKey());
                value.fput(w, e.getValue());
            }
        }

        @Override
        public M fget(Reader r, int depth, M reuse) {
            M out = fresh(reuse);
            int n = r.count(key.finalMin + value.finalMin);
            for (int i = 0; i < n; i++) {
                K k = key.fget(r, depth, null);
                V x = value.fget(r, depth, null);
                putFirst(out, k, x);
            }
            return out;
        }

        @Override
        public void fcheck(Reader r, int depth) {
            int n = r.count(key.finalMin + value.finalMin);
            for (int i = 0; i < n; i++) {
                key.fcheck(r, depth);
                value.fcheck(r, depth);
            }
        }

        @Override
        public void jput(JsonWriter w, M v) {
            Map<K, V> items = ordered(v);
            boolean first = true;
            if (key.pairKey()) {
                w.raw('[');
                for (Map.Entry<K, V> e : items.entrySet()) {
                    if (!first) w.raw(',');
                    first = false;
                    w.raw('[');
                    key.jput(w, e.getKey());
                    w.raw(',');
                    value.jput(w, e.getValue());
                    w.raw(']');
                }
                w.raw(']');
                return;
            }
            w.raw('{');
            for (Map.Entry<K, V> e : items.entrySet()) {
                if (!first) w.raw(',');
                first = false;
                w.string(key.keyText(e.getKey()));
                w.raw(':');
                value.jput(w, e.getValue());
            }
            w.raw('}');
        }

        @Override
        public M jget(JsonReader r) {
            M out = zero();
            boolean zero = key.finalMin + value.finalMin == 0;
            if (key.pairKey()) {
                r.beginArray(name + " as [key, value] pairs");
                while (r.nextElement()) {
                    if (zero) r.chargeZeroSize(1);
                    r.beginArray("[key, value]");
                    if (!r.nextElement()) throw new DecodeException("bad_value", name + " expects [key, value] pairs");
                    K k = key.jget(r);
                    if (!r.nextElement()) throw new DecodeException("bad_value", name + " expects [key, value] pairs");
                    V x = value.jget(r);
                    if (r.nextElement()) throw new DecodeException("bad_value", name + " expects [key, value] pairs");
                    putFirst(out, k, x);
                }
                return out;
            }
            r.beginObject(name);
            while (r.nextKey()) {
                if (zero) r.chargeZeroSize(1);
                K k = key.keyParse(r.key, Limits.DEFAULT);
                V x = value.jget(r);
                putFirst(out, k, x);
            }
            return out;
        }

        @Override
        public String text(M v) {
            StringBuilder sb = new StringBuilder();
            Map<K, V> items = ordered(v);
            sb.append('[').append(items.size()).append(']').append(sorted ? '<' : '[');
            boolean first = true;
            for (Map.Entry<K, V> e : items.entrySet()) {
                if (!first) sb.append(',');
                first = false;
                sb.append('{').append(key.text(e.getKey())).append("->").append(value.text(e.getValue())).append('}');
            }
            return sb.append(sorted ? '>' : ']').toString();
        }
    }
}
