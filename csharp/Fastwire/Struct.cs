// fastwire C# runtime: the base of generated struct codecs, root models and equality helpers.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Text;

namespace Fastwire
{
    /// <summary>What every generated struct codec offers without its type (testees, tools).</summary>
    public abstract class StructInfo
    {
        /// <summary>"package.Struct"</summary>
        public abstract string Name { get; }
        public abstract uint TypeNumber { get; }
        public abstract object NewObject();
        public abstract byte[] SerializeObject(object value, bool final);
        public abstract object DeserializeObject(byte[] data, bool final, Limits limits);
        public abstract void VerifyBytes(byte[] data, bool final, Limits limits);
        public abstract string ObjectToJson(object value);
        public abstract string ObjectToText(object value);
        public abstract object ObjectFromJson(byte[] utf8, Limits limits);
    }

    /// <summary>
    /// A generated struct's codec. The generated subclass writes and reads the fields;
    /// this base enters the body (versioned) and keeps the depth (both formats).
    /// </summary>
    public abstract class StructCodec<T> : Codec<T> where T : class
    {
        public readonly uint Type;
        public readonly int Body;
        readonly string name;
        Model<T> model;
        FinalModel<T> finalModel;

        protected StructCodec(string name, uint type, int body, int fmin) : base(4, fmin, false)
        {
            this.name = name; Type = type; Body = body;
        }

        public string Name { get { return name; } }

        /// <summary>A new value with the schema's defaults.</summary>
        public abstract T New();

        /// <summary>The fast path of a root model's versioned verify (generated for the
        /// structs it can spell out): true when the usual message at slot 4 is valid (the
        /// budget charged), false with nothing recorded when the general walk must decide.</summary>
        public virtual bool VFast(Reader r, int d) { return false; }

        /// <summary>The same for a root final model: where the usual message's fields end
        /// (from 8), or -1 with nothing recorded when the general walk must decide.</summary>
        public virtual int FFast(Reader r, int d) { return -1; }
        public override T Zero() { return New(); }

        protected abstract void JPutFields(StringBuilder sb, T v);
        protected abstract void TextFields(StringBuilder sb, T v);

        public override void Text(StringBuilder sb, T v)
        {
            if (v == null) sb.Append("null"); else TextFields(sb, v);
        }

        /// <summary>The printout: Name(field=value,...), as the C++ runtime prints.</summary>
        public string Print(T v)
        {
            var sb = new StringBuilder(128);
            Text(sb, v);
            return sb.ToString();
        }
        /// <summary>Sets the field named `key` from j; false for a key not in the schema.</summary>
        protected abstract bool JGetField(string key, JsonNode j, JsonState s, T v);

        public override void JPut(StringBuilder sb, T v)
        {
            if (v == null) throw new FastwireException(ErrorCode.WrongType, name + " is null");
            JPutFields(sb, v);
        }

        public override T JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.Object) throw WrongJson(name + " (an object)", j);
            T v = New();
            foreach (var m in j.Members) JGetField(m.Key, m.Value, s, v);
            return v;
        }

        // ---- the root forms ---------------------------------------------------------------

        /// <summary>The versioned root model of this struct (shared, default limits).</summary>
        public Model<T> Model { get { return model ?? (model = new Model<T>(this)); } }
        public FinalModel<T> FinalModel { get { return finalModel ?? (finalModel = new FinalModel<T>(this)); } }

        public string ToJson(T v)
        {
            var sb = new StringBuilder(256);
            JPut(sb, v);
            return sb.ToString();
        }

        public T FromJson(string text, Limits limits = null)
        {
            limits = limits ?? Limits.Default;
            return JGet(JsonParser.Parse(text, limits), new JsonState(limits));
        }

        public T FromJson(byte[] utf8, Limits limits = null)
        {
            limits = limits ?? Limits.Default;
            return JGet(JsonParser.Parse(utf8, 0, utf8.Length, limits), new JsonState(limits));
        }

        public StructInfo Info { get { return new Info_(this); } }

        sealed class Info_ : StructInfo
        {
            readonly StructCodec<T> c;
            public Info_(StructCodec<T> c) { this.c = c; }
            public override string Name { get { return c.name; } }
            public override uint TypeNumber { get { return c.Type; } }
            public override object NewObject() { return c.New(); }
            public override byte[] SerializeObject(object value, bool final)
            {
                return final ? c.FinalModel.Serialize((T)value) : c.Model.Serialize((T)value);
            }
            public override object DeserializeObject(byte[] data, bool final, Limits limits)
            {
                return final ? new FinalModel<T>(c, limits).Deserialize(data) : new Model<T>(c, limits).Deserialize(data);
            }
            public override void VerifyBytes(byte[] data, bool final, Limits limits)
            {
                if (final) new FinalModel<T>(c, limits).Validate(data, 0, data.Length);
                else new Model<T>(c, limits).Validate(data, 0, data.Length);
            }
            public override string ObjectToJson(object value) { return c.ToJson((T)value); }
            public override string ObjectToText(object value) { return c.Print((T)value); }
            public override object ObjectFromJson(byte[] utf8, Limits limits) { return c.FromJson(utf8, limits); }
        }
    }

    /// <summary>
    /// A root struct in the versioned format: [u32 full size][u32 8][struct body][heap].
    /// Deserialize makes every check Verify makes; neither throws anything but FastwireException.
    /// </summary>
    public sealed class Model<T> where T : class
    {
        readonly StructCodec<T> codec;
        public readonly Limits Limits;
        readonly WriteBuffer own = new WriteBuffer();

        public Model(StructCodec<T> codec, Limits limits = null) { this.codec = codec; Limits = limits ?? Limits.Default; }

        /// <summary>Writes the value as one root model into `w` (reset first); returns its size.</summary>
        public int Serialize(T value, WriteBuffer w)
        {
            w.Reset();
            return SerializeAppend(value, w);
        }

        /// <summary>Appends the value as a root model to `w`; returns its size.</summary>
        public int SerializeAppend(T value, WriteBuffer w)
        {
            int start = w.Size;
            try
            {
                w.Append(8);
                codec.VPut(w, start + 4, start, value);
                int size = w.Size - start;
                Le.Put(w.Data, start, (uint)size);
                return size;
            }
            catch (FastwireException) { w.Truncate(start); throw; }
            catch (NullReferenceException e) { w.Truncate(start); throw new FastwireException(ErrorCode.WrongType, "a null where the schema has a value (" + e.Message + ")"); }
        }

        public byte[] Serialize(T value)
        {
            lock (own)
            {
                Serialize(value, own);
                return own.ToArray();
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        Reader Root(byte[] buf, int offset, int count, out uint root)
        {
            if (offset < 0 || count < 0 || (long)offset + count > buf.Length) throw new ArgumentOutOfRangeException("offset");
            if (count < 8) throw FastwireException.Truncated();
            uint full = Le.U32(buf, offset);
            if (full > Limits.MaxMessageSize) throw new FastwireException(ErrorCode.TooLarge, full + " bytes");
            if (full > count) throw FastwireException.Truncated();
            if (full < 16) throw new FastwireException(ErrorCode.BadSize);
            root = Le.U32(buf, offset + 4);
            byte[] b = buf;
            if (offset != 0)
            {
                b = new byte[full];
                Buffer.BlockCopy(buf, offset, b, 0, (int)full);
            }
            return Reader.Rent(b, (int)full, full - 8, Limits.MaxZeroSizeElements);
        }

        /// <summary>Checks the model at `offset`; returns its size or throws FastwireException.</summary>
        public unsafe int Validate(byte[] buf, int offset, int count)
        {
            // The usual case (the message at 0 of its own array) without Root's copy and
            // array-checked loads: the header is read through the pinned pointer; any other
            // case goes the general way.
            if (buf == null || offset != 0 || count < 16 || count > buf.Length) return ValidateAt(buf, offset, count);
            Limits limits = Limits;
            fixed (byte* p = buf)
            {
                uint full = Reader.Load32(p);
                if (full > count || full < 16 || full > limits.MaxMessageSize) return ValidateAt(buf, offset, count);
                Reader r = Reader.Rent(buf, p, (int)full, full - 8, limits.MaxZeroSizeElements);
                if (!codec.VFast(r, limits.Depth)) codec.VCheck(r, 4, 0, limits.Depth);
                r.Release();
                return (int)full;
            }
        }

        unsafe int ValidateAt(byte[] buf, int offset, int count)
        {
            uint root;
            Reader r = Root(buf, offset, count, out root);
            int end = r.End;
            fixed (byte* p = r.B)
            {
                r.P = p;
                if (!codec.VFast(r, Limits.Depth)) codec.VCheck(r, 4, 0, Limits.Depth);
            }
            r.Release();
            return end;
        }

        /// <summary>True when the model is valid: Deserialize will succeed.</summary>
        public bool Verify(byte[] buf)
        {
            try { Validate(buf, 0, buf.Length); return true; }
            catch (FastwireException) { return false; }
        }

        public bool Verify(byte[] buf, int offset, int count)
        {
            try { Validate(buf, offset, count); return true; }
            catch (FastwireException) { return false; }
        }

        public T Deserialize(byte[] buf) { return Deserialize(buf, 0, buf.Length); }

        public unsafe T Deserialize(byte[] buf, int offset, int count)
        {
            uint root;
            Reader r = Root(buf, offset, count, out root);
            T v;
            fixed (byte* p = r.B)
            {
                r.P = p;
                v = codec.VGet(r, 4, 0, Limits.Depth);
            }
            r.Release();
            return v;
        }
    }

    /// <summary>A root struct in the final format: [u32 size][u32 type][fields].</summary>
    public sealed class FinalModel<T> where T : class
    {
        readonly StructCodec<T> codec;
        public readonly Limits Limits;
        readonly WriteBuffer own = new WriteBuffer();

        public FinalModel(StructCodec<T> codec, Limits limits = null) { this.codec = codec; Limits = limits ?? Limits.Default; }

        public int Serialize(T value, WriteBuffer w)
        {
            w.Reset();
            return SerializeAppend(value, w);
        }

        public int SerializeAppend(T value, WriteBuffer w)
        {
            int start = w.Size;
            try
            {
                w.Append(8);
                codec.FPut(w, value);
                int size = w.Size - start;
                Le.Put(w.Data, start, (uint)size);
                Le.Put(w.Data, start + 4, codec.Type);
                return size;
            }
            catch (FastwireException) { w.Truncate(start); throw; }
            catch (NullReferenceException e) { w.Truncate(start); throw new FastwireException(ErrorCode.WrongType, "a null where the schema has a value (" + e.Message + ")"); }
        }

        public byte[] Serialize(T value)
        {
            lock (own)
            {
                Serialize(value, own);
                return own.ToArray();
            }
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        Reader Root(byte[] buf, int offset, int count)
        {
            if (offset < 0 || count < 0 || (long)offset + count > buf.Length) throw new ArgumentOutOfRangeException("offset");
            if (count < 8) throw FastwireException.Truncated();
            uint size = Le.U32(buf, offset);
            if (size > Limits.MaxMessageSize) throw new FastwireException(ErrorCode.TooLarge, size + " bytes");
            if (size > count) throw FastwireException.Truncated();
            if (size < 8) throw new FastwireException(ErrorCode.BadSize);
            uint found = Le.U32(buf, offset + 4);
            if (found != codec.Type) throw new FastwireException(ErrorCode.BadType, found + " where " + codec.Type + " was expected");
            byte[] b = buf;
            if (offset != 0)
            {
                b = new byte[size];
                Buffer.BlockCopy(buf, offset, b, 0, (int)size);
            }
            return Reader.Rent(b, (int)size, 0, Limits.MaxZeroSizeElements);
        }

        public unsafe int Validate(byte[] buf, int offset, int count)
        {
            // The usual case without Root's copy and array-checked loads (see Model.Validate).
            if (buf == null || offset != 0 || count < 8 || count > buf.Length) return ValidateAt(buf, offset, count);
            Limits limits = Limits;
            fixed (byte* q = buf)
            {
                uint size = Reader.Load32(q);
                if (size > count || size < 8 || size > limits.MaxMessageSize || Reader.Load32(q + 4) != codec.Type)
                    return ValidateAt(buf, offset, count);
                Reader r = Reader.Rent(buf, q, (int)size, 0, limits.MaxZeroSizeElements);
                int p = codec.FFast(r, limits.Depth);
                if (p < 0)
                {
                    p = 8;
                    codec.FCheck(r, ref p, limits.Depth);
                }
                r.Release();
                if (p != (int)size) throw new FastwireException(p > (int)size ? ErrorCode.Truncated : ErrorCode.BadSize);
                return p;
            }
        }

        unsafe int ValidateAt(byte[] buf, int offset, int count)
        {
            Reader r = Root(buf, offset, count);
            int p;
            fixed (byte* q = r.B)
            {
                r.P = q;
                p = codec.FFast(r, Limits.Depth);
                if (p < 0)
                {
                    p = 8;
                    codec.FCheck(r, ref p, Limits.Depth);
                }
            }
            int end = r.End;
            r.Release();
            if (p != end) throw new FastwireException(p > end ? ErrorCode.Truncated : ErrorCode.BadSize);
            return p;
        }

        public bool Verify(byte[] buf)
        {
            try { Validate(buf, 0, buf.Length); return true; }
            catch (FastwireException) { return false; }
        }

        public bool Verify(byte[] buf, int offset, int count)
        {
            try { Validate(buf, offset, count); return true; }
            catch (FastwireException) { return false; }
        }

        public T Deserialize(byte[] buf) { return Deserialize(buf, 0, buf.Length); }

        public unsafe T Deserialize(byte[] buf, int offset, int count)
        {
            Reader r = Root(buf, offset, count);
            int p = 8;
            T v;
            fixed (byte* q = r.B)
            {
                r.P = q;
                v = codec.FGet(r, ref p, Limits.Depth);
            }
            int end = r.End;
            r.Release();
            if (p != end) throw new FastwireException(p > end ? ErrorCode.Truncated : ErrorCode.BadSize);
            return v;
        }
    }

    /// <summary>Equality, ordering and hashing by the shared rule (docs/schema-language.md).</summary>
    public static class Eq
    {
        public static bool Equal<T>(T a, T b) { return EqualityComparer<T>.Default.Equals(a, b); }
        public static bool Equal(byte[] a, byte[] b) { return BytesEquality.Instance.Equals(a, b); }
        public static bool Equal(string a, string b) { return string.Equals(a, b); }

        public static bool Equal<T>(T[] a, T[] b) { return Seq(a, b); }
        public static bool Equal<T>(List<T> a, List<T> b) { return Seq(a, b); }
        public static bool Equal<T>(SortedSet<T> a, SortedSet<T> b) { return Seq(a, b); }

        static bool Seq<T>(ICollection<T> a, ICollection<T> b)
        {
            if (ReferenceEquals(a, b)) return true;
            if (a == null || b == null || a.Count != b.Count) return false;
            var cmp = Elements<T>();
            using (var x = a.GetEnumerator())
            using (var y = b.GetEnumerator())
                while (x.MoveNext() && y.MoveNext())
                    if (!cmp.Equals(x.Current, y.Current)) return false;
            return true;
        }

        public static bool Equal<K, V>(SortedDictionary<K, V> a, SortedDictionary<K, V> b) { return Dict(a, b); }
        public static bool Equal<K, V>(Dictionary<K, V> a, Dictionary<K, V> b) { return Dict(a, b); }

        static bool Dict<K, V>(IDictionary<K, V> a, IDictionary<K, V> b)
        {
            if (ReferenceEquals(a, b)) return true;
            if (a == null || b == null || a.Count != b.Count) return false;
            var cmp = Elements<V>();
            foreach (var kv in a)
            {
                V other;
                if (!b.TryGetValue(kv.Key, out other) || !cmp.Equals(kv.Value, other)) return false;
            }
            return true;
        }

        static IEqualityComparer<T> Elements<T>()
        {
            if (typeof(T) == typeof(byte[])) return (IEqualityComparer<T>)(object)BytesEquality.Instance;
            return EqualityComparer<T>.Default;
        }

        public static int Hash<T>(T v) { return EqualityComparer<T>.Default.GetHashCode(v); }
        public static int Hash(string v) { return v == null ? 0 : v.GetHashCode(); }

        public static int Compare<T>(T a, T b) { return Comparer<T>.Default.Compare(a, b); }
        public static int Compare(string a, string b) { return Utf8.Compare(a, b); }
        public static int Compare(Guid a, Guid b) { return Uuid.Compare(a, b); }
    }
}
