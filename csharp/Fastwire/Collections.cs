// fastwire C# runtime: optionals, arrays, vectors, lists, sets, maps and hashes.
using System;
using System.Collections.Generic;
using System.Text;

namespace Fastwire
{
    /// <summary>T? of a value type: versioned [u8 flag][u32 offset] to a block of one slot; final [u8 flag][value].</summary>
    public sealed class OptionalValueCodec<T> : Codec<T?> where T : struct
    {
        readonly Codec<T> inner;
        public OptionalValueCodec(Codec<T> inner) : base(5, 1, false) { this.inner = inner; }
        public override T? Zero() { return null; }
        public override void VPut(WriteBuffer w, int slot, int bas, T? v)
        {
            if (!v.HasValue) { w.Data[slot] = 0; Le.Put(w.Data, slot + 1, 0u); return; }
            int block = w.Append(inner.Slot);
            w.Data[slot] = 1;
            Le.Put(w.Data, slot + 1, (uint)(block - bas));
            inner.VPut(w, block, block, v.Value);
        }
        public override T? VGet(Reader r, int slot, int bas, int d)
        {
            if (r.B[slot] == 0) return null;
            int pos = r.Optional(bas, Le.U32(r.B, slot + 1), slot + 5, inner.Slot);
            return inner.VGet(r, pos, pos, d);
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            if (r.B[slot] == 0) return;
            int pos = r.Optional(bas, Le.U32(r.B, slot + 1), slot + 5, inner.Slot);
            inner.VCheck(r, pos, pos, d);
        }
        public override void FPut(WriteBuffer w, T? v)
        {
            int at = w.Reserve(1);
            w.Data[at] = v.HasValue ? (byte)1 : (byte)0;
            if (v.HasValue) inner.FPut(w, v.Value);
        }
        public override T? FGet(Reader r, ref int p, int d)
        {
            r.Need(p, 1);
            if (r.B[p++] == 0) return null;
            return inner.FGet(r, ref p, d);
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            r.Need(p, 1);
            if (r.B[p++] != 0) inner.FCheck(r, ref p, d);
        }
        public override void JPut(StringBuilder sb, T? v)
        {
            if (v.HasValue) inner.JPut(sb, v.Value); else sb.Append("null");
        }
        public override T? JGet(JsonNode j, JsonState s)
        {
            if (j.Kind == JsonKind.Null) return null;
            return inner.JGet(j, s);
        }
        public override void Text(StringBuilder sb, T? v)
        {
            if (v.HasValue) inner.Text(sb, v.Value); else sb.Append("null");
        }
    }

    /// <summary>T? of a reference type (string, bytes, structs): null or the value.</summary>
    public sealed class OptionalRefCodec<T> : Codec<T> where T : class
    {
        readonly Codec<T> inner;
        public OptionalRefCodec(Codec<T> inner) : base(5, 1, false) { this.inner = inner; }
        public override T Zero() { return null; }
        public override void VPut(WriteBuffer w, int slot, int bas, T v)
        {
            if (v == null) { w.Data[slot] = 0; Le.Put(w.Data, slot + 1, 0u); return; }
            int block = w.Append(inner.Slot);
            w.Data[slot] = 1;
            Le.Put(w.Data, slot + 1, (uint)(block - bas));
            inner.VPut(w, block, block, v);
        }
        public override T VGet(Reader r, int slot, int bas, int d)
        {
            if (r.B[slot] == 0) return null;
            int pos = r.Optional(bas, Le.U32(r.B, slot + 1), slot + 5, inner.Slot);
            return inner.VGet(r, pos, pos, d);
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            if (r.B[slot] == 0) return;
            int pos = r.Optional(bas, Le.U32(r.B, slot + 1), slot + 5, inner.Slot);
            inner.VCheck(r, pos, pos, d);
        }
        public override void FPut(WriteBuffer w, T v)
        {
            int at = w.Reserve(1);
            w.Data[at] = v != null ? (byte)1 : (byte)0;
            if (v != null) inner.FPut(w, v);
        }
        public override T FGet(Reader r, ref int p, int d)
        {
            r.Need(p, 1);
            if (r.B[p++] == 0) return null;
            return inner.FGet(r, ref p, d);
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            r.Need(p, 1);
            if (r.B[p++] != 0) inner.FCheck(r, ref p, d);
        }
        public override void JPut(StringBuilder sb, T v)
        {
            if (v != null) inner.JPut(sb, v); else sb.Append("null");
        }
        public override T JGet(JsonNode j, JsonState s)
        {
            if (j.Kind == JsonKind.Null) return null;
            return inner.JGet(j, s);
        }
        public override void Text(StringBuilder sb, T v)
        {
            if (v != null) inner.Text(sb, v); else sb.Append("null");
        }
        public override IEqualityComparer<T> Equality { get { return inner.Equality; } }
    }

    /// <summary>T[N]: N slots inline (versioned), N values inline (final).</summary>
    public sealed class ArrayCodec<T> : Codec<T[]>
    {
        readonly Codec<T> e;
        readonly int n;
        public ArrayCodec(Codec<T> elem, int n) : base(elem.Slot * n, elem.FMin * n, elem.Trivial) { e = elem; this.n = n; }
        public override T[] Zero()
        {
            var a = new T[n];
            for (int i = 0; i < n; i++) a[i] = e.Zero();
            return a;
        }
        T[] Check(T[] v)
        {
            if (v == null || v.Length != n)
                throw new FastwireException(ErrorCode.WrongLength, "an array of " + n + " needs exactly " + n + " elements, got " + (v == null ? 0 : v.Length));
            return v;
        }
        public override void VPut(WriteBuffer w, int slot, int bas, T[] v)
        {
            Check(v);
            for (int i = 0; i < n; i++) e.VPut(w, slot + i * e.Slot, bas, v[i]);
        }
        public override T[] VGet(Reader r, int slot, int bas, int d)
        {
            var a = new T[n];
            for (int i = 0; i < n; i++) a[i] = e.VGet(r, slot + i * e.Slot, bas, d);
            return a;
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            if (Trivial) return;
            for (int i = 0; i < n; i++) e.VCheck(r, slot + i * e.Slot, bas, d);
        }
        public override void FPut(WriteBuffer w, T[] v)
        {
            Check(v);
            for (int i = 0; i < n; i++) e.FPut(w, v[i]);
        }
        public override T[] FGet(Reader r, ref int p, int d)
        {
            var a = new T[n];
            for (int i = 0; i < n; i++) a[i] = e.FGet(r, ref p, d);
            return a;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            for (int i = 0; i < n; i++) e.FCheck(r, ref p, d);
        }
        public override void JPut(StringBuilder sb, T[] v)
        {
            sb.Append('[');
            for (int i = 0; i < v.Length; i++) { if (i > 0) sb.Append(','); e.JPut(sb, v[i]); }
            sb.Append(']');
        }
        public override void Text(StringBuilder sb, T[] v)
        {
            sb.Append('[').Append(v.Length).Append("][");
            for (int i = 0; i < v.Length; i++) { if (i > 0) sb.Append(','); e.Text(sb, v[i]); }
            sb.Append(']');
        }
        public override T[] JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.Array) throw WrongJson("an array", j);
            if (j.Items.Count != n) throw new FastwireException(ErrorCode.BadValue, "an array of " + n + " elements expected, got " + j.Items.Count);
            if (e.FMin == 0) s.ChargeZeroSize(n);
            var a = new T[n];
            for (int i = 0; i < n; i++) a[i] = e.JGet(j.Items[i], s);
            return a;
        }
    }

    /// <summary>Vector T[] and list T(): List&lt;T&gt;; an offset to [u32 count][count x slot] / [u32 count][values].</summary>
    public sealed class ListCodec<T> : Codec<List<T>>
    {
        readonly Codec<T> e;
        readonly bool list;
        /// <summary>list: a T() (printed with &lt; &gt;), else a vector T[].</summary>
        public ListCodec(Codec<T> elem, bool list = false) : base(4, 4, false) { e = elem; this.list = list; }
        public override void Text(StringBuilder sb, List<T> v)
        {
            sb.Append('[').Append(v.Count).Append(']').Append(list ? '<' : '[');
            for (int i = 0; i < v.Count; i++) { if (i > 0) sb.Append(','); e.Text(sb, v[i]); }
            sb.Append(list ? '>' : ']');
        }
        public override List<T> Zero() { return new List<T>(); }
        public override void VPut(WriteBuffer w, int slot, int bas, List<T> v)
        {
            int n = v.Count, es = e.Slot;
            int block = w.Append(4 + n * es);
            Le.Put(w.Data, block, (uint)n);
            for (int i = 0; i < n; i++) e.VPut(w, block + 4 + i * es, bas, v[i]);
            Le.Put(w.Data, slot, (uint)(block - bas));
        }
        public override List<T> VGet(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return new List<T>();
            int n, es = e.Slot;
            int p = r.Count(bas, off, slot + 4, es, out n);
            var v = new List<T>(n);
            for (int i = 0; i < n; i++) v.Add(e.VGet(r, p + i * es, bas, d));
            return v;
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return;
            int n, es = e.Slot;
            int p = r.Count(bas, off, slot + 4, es, out n);
            if (e.Trivial) return;
            for (int i = 0; i < n; i++) e.VCheck(r, p + i * es, bas, d);
        }
        public override void FPut(WriteBuffer w, List<T> v)
        {
            int at = w.Reserve(4);
            Le.Put(w.Data, at, (uint)v.Count);
            for (int i = 0; i < v.Count; i++) e.FPut(w, v[i]);
        }
        public override List<T> FGet(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, e.FMin);
            p += 4;
            var v = new List<T>(e.FMin > 0 ? n : Math.Min(n, 1024));
            for (int i = 0; i < n; i++) v.Add(e.FGet(r, ref p, d));
            return v;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, e.FMin);
            p += 4;
            for (int i = 0; i < n; i++) e.FCheck(r, ref p, d);
        }
        public override void JPut(StringBuilder sb, List<T> v)
        {
            sb.Append('[');
            for (int i = 0; i < v.Count; i++) { if (i > 0) sb.Append(','); e.JPut(sb, v[i]); }
            sb.Append(']');
        }
        public override List<T> JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.Array) throw WrongJson("an array", j);
            if (e.FMin == 0) s.ChargeZeroSize(j.Items.Count);
            var v = new List<T>(j.Items.Count);
            foreach (var x in j.Items) v.Add(e.JGet(x, s));
            return v;
        }
    }

    /// <summary>Set T!: SortedSet&lt;T&gt;, written in ascending order; reading keeps the first of equal elements.</summary>
    public sealed class SetCodec<T> : Codec<SortedSet<T>>
    {
        readonly Codec<T> e;
        public SetCodec(Codec<T> elem) : base(4, 4, false) { e = elem; }
        public override void Text(StringBuilder sb, SortedSet<T> v)
        {
            sb.Append('[').Append(v.Count).Append("]{");
            bool first = true;
            foreach (T x in v) { if (!first) sb.Append(','); first = false; e.Text(sb, x); }
            sb.Append('}');
        }
        public override SortedSet<T> Zero() { return new SortedSet<T>(e.Order); }
        public override void VPut(WriteBuffer w, int slot, int bas, SortedSet<T> v)
        {
            int n = v.Count, es = e.Slot;
            int block = w.Append(4 + n * es);
            Le.Put(w.Data, block, (uint)n);
            int at = block + 4;
            foreach (T x in v) { e.VPut(w, at, bas, x); at += es; }
            Le.Put(w.Data, slot, (uint)(block - bas));
        }
        public override SortedSet<T> VGet(Reader r, int slot, int bas, int d)
        {
            var v = Zero();
            uint off = Le.U32(r.B, slot);
            if (off == 0) return v;
            int n, es = e.Slot;
            int p = r.Count(bas, off, slot + 4, es, out n);
            for (int i = 0; i < n; i++) v.Add(e.VGet(r, p + i * es, bas, d));
            return v;
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return;
            int n, es = e.Slot;
            int p = r.Count(bas, off, slot + 4, es, out n);
            if (e.Trivial) return;
            for (int i = 0; i < n; i++) e.VCheck(r, p + i * es, bas, d);
        }
        public override void FPut(WriteBuffer w, SortedSet<T> v)
        {
            int at = w.Reserve(4);
            Le.Put(w.Data, at, (uint)v.Count);
            foreach (T x in v) e.FPut(w, x);
        }
        public override SortedSet<T> FGet(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, e.FMin);
            p += 4;
            var v = Zero();
            for (int i = 0; i < n; i++) v.Add(e.FGet(r, ref p, d));
            return v;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, e.FMin);
            p += 4;
            for (int i = 0; i < n; i++) e.FCheck(r, ref p, d);
        }
        public override void JPut(StringBuilder sb, SortedSet<T> v)
        {
            sb.Append('[');
            bool first = true;
            foreach (T x in v) { if (!first) sb.Append(','); first = false; e.JPut(sb, x); }
            sb.Append(']');
        }
        public override SortedSet<T> JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.Array) throw WrongJson("an array", j);
            if (e.FMin == 0) s.ChargeZeroSize(j.Items.Count);
            var v = Zero();
            foreach (var x in j.Items) v.Add(e.JGet(x, s));
            return v;
        }
    }

    /// <summary>
    /// Map V&lt;K&gt; (SortedDictionary, written in key order) and hash V{K} (Dictionary, in its
    /// order): an offset to [u32 count][count x (slot(K) slot(V))] / [u32 count][k v k v...].
    /// Reading keeps the first of equal keys. JSON: an object keyed by the key's text, or an
    /// array of [key, value] pairs when the key is a struct.
    /// </summary>
    public abstract class DictCodec<TD, K, V> : Codec<TD> where TD : IDictionary<K, V>
    {
        protected readonly Codec<K> k;
        protected readonly Codec<V> v;
        readonly bool pairs;
        protected DictCodec(Codec<K> key, Codec<V> value, bool structKey) : base(4, 4, false) { k = key; v = value; pairs = structKey; }

        protected abstract bool Sorted { get; }

        public override void Text(StringBuilder sb, TD m)
        {
            sb.Append('[').Append(m.Count).Append(']').Append(Sorted ? '<' : '[');
            bool first = true;
            foreach (var kv in m)
            {
                if (!first) sb.Append(',');
                first = false;
                sb.Append('{');
                k.Text(sb, kv.Key);
                sb.Append("->");
                v.Text(sb, kv.Value);
                sb.Append('}');
            }
            sb.Append(Sorted ? '>' : ']');
        }

        static void Add(TD d, K key, V value)
        {
            if (!d.ContainsKey(key)) d.Add(key, value);
        }

        public override void VPut(WriteBuffer w, int slot, int bas, TD m)
        {
            int n = m.Count, ks = k.Slot, step = k.Slot + v.Slot;
            int block = w.Append(4 + n * step);
            Le.Put(w.Data, block, (uint)n);
            int at = block + 4;
            foreach (var kv in m)
            {
                k.VPut(w, at, bas, kv.Key);
                v.VPut(w, at + ks, bas, kv.Value);
                at += step;
            }
            Le.Put(w.Data, slot, (uint)(block - bas));
        }
        public override TD VGet(Reader r, int slot, int bas, int d)
        {
            TD m = Zero();
            uint off = Le.U32(r.B, slot);
            if (off == 0) return m;
            int n, ks = k.Slot, step = k.Slot + v.Slot;
            int p = r.Count(bas, off, slot + 4, step, out n);
            for (int i = 0; i < n; i++, p += step)
            {
                K key = k.VGet(r, p, bas, d);
                V value = v.VGet(r, p + ks, bas, d);
                Add(m, key, value);
            }
            return m;
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return;
            int n, ks = k.Slot, step = k.Slot + v.Slot;
            int p = r.Count(bas, off, slot + 4, step, out n);
            if (k.Trivial && v.Trivial) return;
            for (int i = 0; i < n; i++, p += step)
            {
                k.VCheck(r, p, bas, d);
                v.VCheck(r, p + ks, bas, d);
            }
        }
        public override void FPut(WriteBuffer w, TD m)
        {
            int at = w.Reserve(4);
            Le.Put(w.Data, at, (uint)m.Count);
            foreach (var kv in m) { k.FPut(w, kv.Key); v.FPut(w, kv.Value); }
        }
        public override TD FGet(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, k.FMin + v.FMin);
            p += 4;
            TD m = Zero();
            for (int i = 0; i < n; i++)
            {
                K key = k.FGet(r, ref p, d);
                V value = v.FGet(r, ref p, d);
                Add(m, key, value);
            }
            return m;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            int n = r.FinalCount(p, k.FMin + v.FMin);
            p += 4;
            for (int i = 0; i < n; i++) { k.FCheck(r, ref p, d); v.FCheck(r, ref p, d); }
        }
        public override void JPut(StringBuilder sb, TD m)
        {
            bool first = true;
            if (pairs)
            {
                sb.Append('[');
                foreach (var kv in m)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    sb.Append('[');
                    k.JPut(sb, kv.Key);
                    sb.Append(',');
                    v.JPut(sb, kv.Value);
                    sb.Append(']');
                }
                sb.Append(']');
                return;
            }
            sb.Append('{');
            foreach (var kv in m)
            {
                if (!first) sb.Append(',');
                first = false;
                JsonText.String(sb, k.KeyText(kv.Key));
                sb.Append(':');
                v.JPut(sb, kv.Value);
            }
            sb.Append('}');
        }
        public override TD JGet(JsonNode j, JsonState s)
        {
            TD m = Zero();
            if (pairs)
            {
                if (j.Kind != JsonKind.Array) throw WrongJson("an array of [key, value] pairs", j);
                if (k.FMin + v.FMin == 0) s.ChargeZeroSize(j.Items.Count);
                foreach (var pair in j.Items)
                {
                    if (pair.Kind != JsonKind.Array || pair.Items.Count != 2) throw WrongJson("a [key, value] pair", pair);
                    K key = k.JGet(pair.Items[0], s);
                    V value = v.JGet(pair.Items[1], s);
                    Add(m, key, value);
                }
                return m;
            }
            if (j.Kind != JsonKind.Object) throw WrongJson("an object", j);
            foreach (var member in j.Members)
            {
                K key = k.KeyParse(member.Key, member.KeyHasLoneSurrogate);
                V value = v.JGet(member.Value, s);
                Add(m, key, value);
            }
            return m;
        }
    }

    public sealed class MapCodec<K, V> : DictCodec<SortedDictionary<K, V>, K, V>
    {
        public MapCodec(Codec<K> key, Codec<V> value, bool structKey = false) : base(key, value, structKey) { }
        public override SortedDictionary<K, V> Zero() { return new SortedDictionary<K, V>(k.Order); }
        protected override bool Sorted { get { return true; } }
    }

    public sealed class HashCodec<K, V> : DictCodec<Dictionary<K, V>, K, V>
    {
        public HashCodec(Codec<K> key, Codec<V> value, bool structKey = false) : base(key, value, structKey) { }
        public override Dictionary<K, V> Zero() { return new Dictionary<K, V>(k.Equality); }
        protected override bool Sorted { get { return false; } }
    }
}
