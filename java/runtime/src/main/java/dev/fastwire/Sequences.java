package dev.fastwire;

import java.util.Collection;
import java.util.Iterator;
import java.util.List;

/** Equality, hashing and printing of collections through their elements' codecs. */
public final class Sequences {
    private Sequences() {
    }

    public static <T> boolean equal(Codec<T> elem, List<T> a, List<T> b) {
        if (a == b) return true;
        if (a == null || b == null || a.size() != b.size()) return false;
        Iterator<T> i = a.iterator();
        Iterator<T> j = b.iterator();
        while (i.hasNext()) {
            if (!elem.equal(i.next(), j.next())) return false;
        }
        return true;
    }

    public static <T> int hash(Codec<T> elem, List<T> v) {
        int h = 1;
        for (T x : v) h = 31 * h + elem.hash(x);
        return h;
    }

    public static <T> String text(Codec<T> elem, Collection<T> v, String open, String close) {
        StringBuilder sb = new StringBuilder(open);
        boolean first = true;
        for (T x : v) {
            if (!first) sb.append(',');
            first = false;
            sb.append(elem.text(x));
        }
        return sb.append(close).toString();
    }
}
