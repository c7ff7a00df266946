// fastwire C# runtime: one codec per schema type, composed by generated code for
// optionals, arrays and collections. Positions are absolute in the buffer; `bas` is the
// position offsets are relative to (a struct body or an optional's block); `d` is how many
// struct levels may still be entered.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace Fastwire
{
    public abstract class Codec<T>
    {
        /// <summary>Bytes of the versioned slot.</summary>
        public readonly int Slot;
        /// <summary>Fewest bytes in the final format.</summary>
        public readonly int FMin;
        /// <summary>Verifying a slot of this type checks nothing (plain numbers).</summary>
        public readonly bool Trivial;

        protected Codec(int slot, int fmin, bool trivial) { Slot = slot; FMin = fmin; Trivial = trivial; }

        /// <summary>A new value: the type's zero (empty, null).</summary>
        public abstract T Zero();

        /// <summary>Appends v's heap blocks and writes its slot at `slot`.</summary>
        public abstract void VPut(WriteBuffer w, int slot, int bas, T v);
        public abstract T VGet(Reader r, int slot, int bas, int d);
        public abstract void VCheck(Reader r, int slot, int bas, int d);

        public abstract void FPut(WriteBuffer w, T v);
        public abstract T FGet(Reader r, ref int p, int d);
        public abstract void FCheck(Reader r, ref int p, int d);

        public abstract void JPut(StringBuilder sb, T v);
        public abstract T JGet(JsonNode j, JsonState s);

        /// <summary>The printout (ToString of generated types), as the C++ runtime's operator&lt;&lt; prints.</summary>
        public virtual void Text(StringBuilder sb, T v) { JPut(sb, v); }

        /// <summary>A map key's text (JSON object keys are strings).</summary>
        public virtual string KeyText(T v) { throw new FastwireException(ErrorCode.WrongType, "not a map key"); }
        public virtual T KeyParse(string s, bool lone) { throw new FastwireException(ErrorCode.WrongType, "not a map key"); }

        /// <summary>The order of sets and maps (as C++ orders them).</summary>
        public virtual IComparer<T> Order { get { return Comparer<T>.Default; } }
        /// <summary>Equality of elements (structural for bytes).</summary>
        public virtual IEqualityComparer<T> Equality { get { return EqualityComparer<T>.Default; } }

        protected static FastwireException WrongJson(string expected, JsonNode j)
        {
            return new FastwireException(ErrorCode.BadValue, expected + " expected, got " + j.Describe());
        }
    }

    // ---- fixed-size values ----------------------------------------------------------------

    public abstract class ValueCodec<T> : Codec<T>
    {
        protected ValueCodec(int size, bool trivial = true) : base(size, size, trivial) { }
        public abstract T Read(byte[] b, int p);
        public abstract void Write(byte[] b, int p, T v);
        public virtual void Check(byte[] b, int p) { }
        public override T Zero() { return default(T); }
        public override void VPut(WriteBuffer w, int slot, int bas, T v) { Write(w.Data, slot, v); }
        public override T VGet(Reader r, int slot, int bas, int d) { return Read(r.B, slot); }
        public override void VCheck(Reader r, int slot, int bas, int d) { Check(r.B, slot); }
        public override void FPut(WriteBuffer w, T v) { int at = w.Reserve(Slot); Write(w.Data, at, v); }
        public override T FGet(Reader r, ref int p, int d)
        {
            if ((long)p + Slot > r.End) throw FastwireException.Truncated();
            T v = Read(r.B, p);
            p += Slot;
            return v;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            if ((long)p + Slot > r.End) throw FastwireException.Truncated();
            Check(r.B, p);
            p += Slot;
        }
        public override T KeyParse(string s, bool lone)
        {
            JsonNode j;
            try { j = JsonParser.Parse(s, Limits.Default); }
            catch (FastwireException) { throw new FastwireException(ErrorCode.InvalidArgument, "map key '" + Decimals.Short(s) + "'"); }
            return JGet(j, null);
        }
    }

    public sealed class BoolCodec : ValueCodec<bool>
    {
        public BoolCodec() : base(1) { }
        public override bool Read(byte[] b, int p) { return b[p] != 0; }
        public override void Write(byte[] b, int p, bool v) { b[p] = v ? (byte)1 : (byte)0; }
        public override void JPut(StringBuilder sb, bool v) { sb.Append(v ? "true" : "false"); }
        public override bool JGet(JsonNode j, JsonState s)
        {
            if (j.Kind == JsonKind.True) return true;
            if (j.Kind == JsonKind.False) return false;
            throw WrongJson("bool", j);
        }
        public override string KeyText(bool v) { return v ? "true" : "false"; }
    }

    /// <summary>Integers of every size (also char, wchar, timestamp and enums through IntCodec).</summary>
    public abstract class IntCodec<T> : ValueCodec<T>
    {
        readonly decimal lo, hi;
        readonly string name;
        protected IntCodec(string name, int size, decimal lo, decimal hi) : base(size) { this.name = name; this.lo = lo; this.hi = hi; }
        public abstract T FromInteger(decimal v);
        public abstract decimal ToInteger(T v);
        public abstract void Digits(StringBuilder sb, T v);
        public override void JPut(StringBuilder sb, T v) { Digits(sb, v); }
        public override T JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.Number) throw WrongJson(name, j);
            return Parse(j.Text, false);
        }
        T Parse(string t, bool key)
        {
            int i = 0;
            bool neg = false;
            if (t.Length > 0 && t[0] == '-') { neg = true; i = 1; }
            if (i >= t.Length) throw new FastwireException(ErrorCode.InvalidArgument, "'" + Decimals.Short(t) + "' is not an integer");
            for (int k = i; k < t.Length; k++)
                if (t[k] < '0' || t[k] > '9') throw new FastwireException(key ? ErrorCode.InvalidArgument : ErrorCode.BadValue, name + " expected, got " + Decimals.Short(t));
            while (i < t.Length - 1 && t[i] == '0') i++;
            if (t.Length - i > 20) throw new FastwireException(ErrorCode.OutOfRange, Decimals.Short(t) + " does not fit " + name);
            decimal v;
            if (t.Length - i <= 18)
            {
                long x = 0;
                for (int k = i; k < t.Length; k++) x = x * 10 + (t[k] - '0');
                v = x;
            }
            else v = decimal.Parse(t.Substring(i), NumberStyles.None, CultureInfo.InvariantCulture);
            if (neg) v = -v;
            if (v < lo || v > hi) throw new FastwireException(ErrorCode.OutOfRange, Decimals.Short(t) + " does not fit " + name);
            return FromInteger(v);
        }
        public override string KeyText(T v) { var sb = new StringBuilder(); Digits(sb, v); return sb.ToString(); }
        public override T KeyParse(string s, bool lone) { return Parse(s, true); }
    }

    public sealed class ByteCodec : IntCodec<byte>
    {
        public ByteCodec(string name = "byte") : base(name, 1, 0, 255) { }
        public override byte Read(byte[] b, int p) { return b[p]; }
        public override void Write(byte[] b, int p, byte v) { b[p] = v; }
        public override byte FromInteger(decimal v) { return (byte)v; }
        public override decimal ToInteger(byte v) { return v; }
        public override void Digits(StringBuilder sb, byte v) { sb.Append(v); }
    }

    public sealed class CharCodec : IntCodec<char>
    {
        public CharCodec() : base("char", 1, 0, 255) { }
        public override char Read(byte[] b, int p) { return (char)b[p]; }
        public override void Write(byte[] b, int p, char v) { b[p] = (byte)v; }
        public override char FromInteger(decimal v) { return (char)(int)v; }
        public override decimal ToInteger(char v) { return (byte)v; }
        public override void Digits(StringBuilder sb, char v) { sb.Append((int)(byte)v); }
        public override void Text(StringBuilder sb, char v) { sb.Append('\'').Append((char)(byte)v).Append('\''); }
    }

    public sealed class SByteCodec : IntCodec<sbyte>
    {
        public SByteCodec() : base("int8", 1, -128, 127) { }
        public override sbyte Read(byte[] b, int p) { return (sbyte)b[p]; }
        public override void Write(byte[] b, int p, sbyte v) { b[p] = (byte)v; }
        public override sbyte FromInteger(decimal v) { return (sbyte)v; }
        public override decimal ToInteger(sbyte v) { return v; }
        public override void Digits(StringBuilder sb, sbyte v) { sb.Append(v); }
    }

    public sealed class Int16Codec : IntCodec<short>
    {
        public Int16Codec() : base("int16", 2, short.MinValue, short.MaxValue) { }
        public override short Read(byte[] b, int p) { return (short)Le.U16(b, p); }
        public override void Write(byte[] b, int p, short v) { Le.Put(b, p, (ushort)v); }
        public override short FromInteger(decimal v) { return (short)v; }
        public override decimal ToInteger(short v) { return v; }
        public override void Digits(StringBuilder sb, short v) { sb.Append(v); }
    }

    public sealed class UInt16Codec : IntCodec<ushort>
    {
        public UInt16Codec() : base("uint16", 2, 0, ushort.MaxValue) { }
        public override ushort Read(byte[] b, int p) { return Le.U16(b, p); }
        public override void Write(byte[] b, int p, ushort v) { Le.Put(b, p, v); }
        public override ushort FromInteger(decimal v) { return (ushort)v; }
        public override decimal ToInteger(ushort v) { return v; }
        public override void Digits(StringBuilder sb, ushort v) { sb.Append(v); }
    }

    public sealed class Int32Codec : IntCodec<int>
    {
        public Int32Codec() : base("int32", 4, int.MinValue, int.MaxValue) { }
        public override int Read(byte[] b, int p) { return Le.I32(b, p); }
        public override void Write(byte[] b, int p, int v) { Le.Put(b, p, (uint)v); }
        public override int FromInteger(decimal v) { return (int)v; }
        public override decimal ToInteger(int v) { return v; }
        public override void Digits(StringBuilder sb, int v) { sb.Append(v); }
    }

    public sealed class UInt32Codec : IntCodec<uint>
    {
        readonly bool wchar;
        public UInt32Codec(string name = "uint32") : base(name, 4, 0, uint.MaxValue) { wchar = name == "wchar"; }
        public override void Text(StringBuilder sb, uint v)
        {
            if (!wchar) { sb.Append(v); return; }
            if (v >= 0x20 && v < 0x7F) sb.Append('\'').Append((char)v).Append('\'');
            else sb.Append("'U+").Append(v.ToString("X")).Append('\'');
        }
        public override uint Read(byte[] b, int p) { return Le.U32(b, p); }
        public override void Write(byte[] b, int p, uint v) { Le.Put(b, p, v); }
        public override uint FromInteger(decimal v) { return (uint)v; }
        public override decimal ToInteger(uint v) { return v; }
        public override void Digits(StringBuilder sb, uint v) { sb.Append(v); }
    }

    public sealed class Int64Codec : IntCodec<long>
    {
        public Int64Codec() : base("int64", 8, long.MinValue, long.MaxValue) { }
        public override long Read(byte[] b, int p) { return (long)Le.U64(b, p); }
        public override void Write(byte[] b, int p, long v) { Le.Put(b, p, (ulong)v); }
        public override long FromInteger(decimal v) { return (long)v; }
        public override decimal ToInteger(long v) { return v; }
        public override void Digits(StringBuilder sb, long v) { sb.Append(v); }
    }

    public sealed class UInt64Codec : IntCodec<ulong>
    {
        public UInt64Codec() : base("uint64", 8, 0, ulong.MaxValue) { }
        public override ulong Read(byte[] b, int p) { return Le.U64(b, p); }
        public override void Write(byte[] b, int p, ulong v) { Le.Put(b, p, v); }
        public override ulong FromInteger(decimal v) { return (ulong)v; }
        public override decimal ToInteger(ulong v) { return v; }
        public override void Digits(StringBuilder sb, ulong v) { sb.Append(v); }
    }

    public sealed class TimestampCodec : IntCodec<Timestamp>
    {
        public TimestampCodec() : base("timestamp", 8, 0, ulong.MaxValue) { }
        public override Timestamp Read(byte[] b, int p) { return new Timestamp(Le.U64(b, p)); }
        public override void Write(byte[] b, int p, Timestamp v) { Le.Put(b, p, v.Nanoseconds); }
        public override Timestamp FromInteger(decimal v) { return new Timestamp((ulong)v); }
        public override decimal ToInteger(Timestamp v) { return v.Nanoseconds; }
        public override void Digits(StringBuilder sb, Timestamp v) { sb.Append(v.Nanoseconds); }
    }

    /// <summary>An enum or flags type over its underlying integer; unknown values are kept.</summary>
    public sealed class EnumCodec<TEnum, TBase> : IntCodec<TEnum> where TEnum : struct
    {
        readonly IntCodec<TBase> inner;
        readonly Func<TBase, TEnum> of;
        readonly Func<TEnum, TBase> to;
        public EnumCodec(IntCodec<TBase> inner, Func<TBase, TEnum> of, Func<TEnum, TBase> to)
            : base(typeof(TEnum).Name, inner.Slot, -79228162514264337593543950335m, 79228162514264337593543950335m)
        {
            this.inner = inner; this.of = of; this.to = to;
        }
        public override TEnum Read(byte[] b, int p) { return of(inner.Read(b, p)); }
        public override void Write(byte[] b, int p, TEnum v) { inner.Write(b, p, to(v)); }
        public override TEnum FromInteger(decimal v) { return of(inner.FromInteger(v)); }
        public override decimal ToInteger(TEnum v) { return inner.ToInteger(to(v)); }
        public override void Digits(StringBuilder sb, TEnum v) { inner.Digits(sb, to(v)); }
        public override TEnum JGet(JsonNode j, JsonState s) { return of(inner.JGet(j, s)); }

        /// <summary>(value, name) in declaration order, aliases included, for the printout.</summary>
        public KeyValuePair<decimal, string>[] Names = new KeyValuePair<decimal, string>[0];
        public bool IsFlags;

        public override void Text(StringBuilder sb, TEnum v)
        {
            decimal x = ToInteger(v);
            if (!IsFlags)
            {
                foreach (var kv in Names) if (kv.Key == x) { sb.Append(kv.Value); return; }
                sb.Append("<unknown>");
                return;
            }
            ulong bits = unchecked((ulong)(long)(x < 0 ? x : 0) | (x >= 0 ? (ulong)x : 0));
            bool first = true;
            foreach (var kv in Names)
            {
                ulong f = kv.Key < 0 ? unchecked((ulong)(long)kv.Key) : (ulong)kv.Key;
                if (f != 0 && (bits & f) == f)
                {
                    if (!first) sb.Append('|');
                    first = false;
                    sb.Append(kv.Value);
                }
            }
        }
        public override TEnum KeyParse(string s, bool lone) { return of(inner.KeyParse(s, lone)); }
    }

    public sealed class FloatCodec : ValueCodec<float>
    {
        public FloatCodec() : base(4) { }
        public override float Read(byte[] b, int p) { return Le.F32(b, p); }
        public override void Write(byte[] b, int p, float v) { Le.PutF32(b, p, v); }
        public override void JPut(StringBuilder sb, float v) { JsonText.Double(sb, v); }
        public override void Text(StringBuilder sb, float v) { sb.Append(Print.G(v)); }
        public override float JGet(JsonNode j, JsonState s)
        {
            double x = DoubleCodec.Get(j, "float");
            float y = (float)x;
            if (float.IsInfinity(y) && !double.IsInfinity(x)) throw new FastwireException(ErrorCode.OutOfRange, j.Describe() + " does not fit float");
            return y;
        }
        public override string KeyText(float v) { return JsonText.DoubleKey(v); }
        public override float KeyParse(string s, bool lone)
        {
            double x = DoubleCodec.Key(s);
            float y = (float)x;
            if (float.IsInfinity(y) && !double.IsInfinity(x)) throw new FastwireException(ErrorCode.OutOfRange, s + " does not fit float");
            return y;
        }
    }

    public sealed class DoubleCodec : ValueCodec<double>
    {
        public DoubleCodec() : base(8) { }
        public override double Read(byte[] b, int p) { return BitConverter.Int64BitsToDouble((long)Le.U64(b, p)); }
        public override void Write(byte[] b, int p, double v) { Le.Put(b, p, (ulong)BitConverter.DoubleToInt64Bits(v)); }
        public override void JPut(StringBuilder sb, double v) { JsonText.Double(sb, v); }
        public override void Text(StringBuilder sb, double v) { sb.Append(Print.G(v)); }
        public override double JGet(JsonNode j, JsonState s) { return Get(j, "double"); }

        /// <summary>The NaN C++ reads "NaN" as: positive, quiet (double.NaN is negative on .NET).</summary>
        public static readonly double QuietNaN = BitConverter.Int64BitsToDouble(0x7FF8000000000000L);

        internal static double Get(JsonNode j, string name)
        {
            if (j.Kind == JsonKind.Number) return JsonText.ParseDouble(j.Text);
            if (j.Kind == JsonKind.String)
            {
                if (j.Text == "NaN") return QuietNaN;
                if (j.Text == "Infinity") return double.PositiveInfinity;
                if (j.Text == "-Infinity") return double.NegativeInfinity;
            }
            throw WrongJson(name, j);
        }

        internal static double Key(string s)
        {
            if (s == "NaN") return QuietNaN;
            if (s == "Infinity") return double.PositiveInfinity;
            if (s == "-Infinity") return double.NegativeInfinity;
            // -?(digits[.digits*] | .digits)(e[+-]digits)?
            int i = 0;
            if (i < s.Length && s[i] == '-') i++;
            int digits = 0;
            while (i < s.Length && char.IsDigit(s[i]) && s[i] < 128) { i++; digits++; }
            if (i < s.Length && s[i] == '.')
            {
                i++;
                while (i < s.Length && s[i] >= '0' && s[i] <= '9') { i++; digits++; }
            }
            if (digits == 0) throw new FastwireException(ErrorCode.InvalidArgument, "map key '" + Decimals.Short(s) + "' is not a number");
            if (i < s.Length && (s[i] == 'e' || s[i] == 'E'))
            {
                i++;
                if (i < s.Length && (s[i] == '+' || s[i] == '-')) i++;
                int st = i;
                while (i < s.Length && s[i] >= '0' && s[i] <= '9') i++;
                if (st == i) throw new FastwireException(ErrorCode.InvalidArgument, "map key '" + Decimals.Short(s) + "' is not a number");
            }
            if (i != s.Length) throw new FastwireException(ErrorCode.InvalidArgument, "map key '" + Decimals.Short(s) + "' is not a number");
            return JsonText.ParseDouble(s);
        }

        public override string KeyText(double v) { return JsonText.DoubleKey(v); }
        public override double KeyParse(string s, bool lone) { return Key(s); }
    }

    public sealed class DecimalCodec : ValueCodec<decimal>
    {
        public DecimalCodec() : base(16, false) { }
        public override decimal Read(byte[] b, int p) { return Decimals.Read(b, p); }
        public override void Write(byte[] b, int p, decimal v) { Decimals.Write(b, p, v); }
        public override void Check(byte[] b, int p) { Decimals.Check(b, p); }
        public override void JPut(StringBuilder sb, decimal v) { sb.Append('"').Append(Decimals.Text(v)).Append('"'); }
        public override void Text(StringBuilder sb, decimal v) { sb.Append(Decimals.Text(v)); }
        public override decimal JGet(JsonNode j, JsonState s)
        {
            if (j.Kind == JsonKind.String || j.Kind == JsonKind.Number) return Decimals.Parse(j.Text);
            throw WrongJson("decimal", j);
        }
        public override string KeyText(decimal v) { return Decimals.Text(v); }
        public override decimal KeyParse(string s, bool lone) { return Decimals.Parse(s); }
    }

    public sealed class UuidCodec : ValueCodec<Guid>
    {
        public UuidCodec() : base(16) { }
        public override Guid Read(byte[] b, int p) { return Uuid.Read(b, p); }
        public override void Write(byte[] b, int p, Guid v) { Uuid.Write(b, p, v); }
        public override void JPut(StringBuilder sb, Guid v) { sb.Append('"').Append(v.ToString("D")).Append('"'); }
        public override Guid JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.String) throw WrongJson("uuid", j);
            return Parse(j.Text);
        }
        internal static Guid Parse(string t)
        {
            Guid g;
            string x = t;
            if (x.Length == 32) x = x.Substring(0, 8) + "-" + x.Substring(8, 4) + "-" + x.Substring(12, 4) + "-" + x.Substring(16, 4) + "-" + x.Substring(20);
            if (x.Length != 36 || !Guid.TryParseExact(x, "D", out g))
                throw new FastwireException(ErrorCode.InvalidArgument, "'" + Decimals.Short(t) + "' is not a uuid");
            return g;
        }
        public override string KeyText(Guid v) { return v.ToString("D"); }
        public override Guid KeyParse(string s, bool lone) { return Parse(s); }
        public override IComparer<Guid> Order { get { return UuidOrder.Instance; } }
    }

    // ---- strings and bytes ----------------------------------------------------------------

    public sealed class StringCodec : Codec<string>
    {
        public StringCodec() : base(4, 4, false) { }
        public override string Zero() { return ""; }
        public override void VPut(WriteBuffer w, int slot, int bas, string v)
        {
            int n = Utf8.Count(v);
            int at = w.Reserve(4 + n);
            Le.Put(w.Data, at, (uint)n);
            Utf8.Encode(v, w.Data, at + 4);
            Le.Put(w.Data, slot, (uint)(at - bas));
        }
        public override string VGet(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return "";
            int n;
            int p = r.Block(bas, off, slot + 4, out n);
            return Utf8.DecodeAt(r, p, n);
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return;
            int n;
            r.Block(bas, off, slot + 4, out n);
        }
        public override void FPut(WriteBuffer w, string v)
        {
            int n = Utf8.Count(v);
            int at = w.Reserve(4 + n);
            Le.Put(w.Data, at, (uint)n);
            Utf8.Encode(v, w.Data, at + 4);
        }
        public override string FGet(Reader r, ref int p, int d)
        {
            r.Need(p, 4);
            uint n = Le.U32(r.B, p);
            if (n > r.End - (long)p - 4) throw FastwireException.Truncated();
            string v = Utf8.DecodeAt(r, p + 4, (int)n);
            p += 4 + (int)n;
            return v;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            r.Need(p, 4);
            uint n = Le.U32(r.B, p);
            if (n > r.End - (long)p - 4) throw FastwireException.Truncated();
            p += 4 + (int)n;
        }
        public override void JPut(StringBuilder sb, string v) { JsonText.String(sb, v); }
        public override void Text(StringBuilder sb, string v) { sb.Append('"').Append(v).Append('"'); }
        public override string JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.String) throw WrongJson("string", j);
            if (j.HasLoneSurrogate) throw new FastwireException(ErrorCode.InvalidArgument, "string holds a lone surrogate (not valid UTF-8)");
            return j.Text;
        }
        public override string KeyText(string v) { return v; }
        public override string KeyParse(string s, bool lone)
        {
            if (lone) throw new FastwireException(ErrorCode.InvalidArgument, "map key holds a lone surrogate (not valid UTF-8)");
            return s;
        }
        public override IComparer<string> Order { get { return StringOrder.Instance; } }
    }

    public sealed class BytesCodec : Codec<byte[]>
    {
        public BytesCodec() : base(4, 4, false) { }
        public override byte[] Zero() { return new byte[0]; }
        public override void VPut(WriteBuffer w, int slot, int bas, byte[] v)
        {
            int at = w.Reserve(4 + v.Length);
            Le.Put(w.Data, at, (uint)v.Length);
            Buffer.BlockCopy(v, 0, w.Data, at + 4, v.Length);
            Le.Put(w.Data, slot, (uint)(at - bas));
        }
        public override byte[] VGet(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return new byte[0];
            int n;
            int p = r.Block(bas, off, slot + 4, out n);
            var v = new byte[n];
            Buffer.BlockCopy(r.B, p, v, 0, n);
            return v;
        }
        public override void VCheck(Reader r, int slot, int bas, int d)
        {
            uint off = Le.U32(r.B, slot);
            if (off == 0) return;
            int n;
            r.Block(bas, off, slot + 4, out n);
        }
        public override void FPut(WriteBuffer w, byte[] v)
        {
            int at = w.Reserve(4 + v.Length);
            Le.Put(w.Data, at, (uint)v.Length);
            Buffer.BlockCopy(v, 0, w.Data, at + 4, v.Length);
        }
        public override byte[] FGet(Reader r, ref int p, int d)
        {
            r.Need(p, 4);
            uint n = Le.U32(r.B, p);
            if (n > r.End - (long)p - 4) throw FastwireException.Truncated();
            var v = new byte[n];
            Buffer.BlockCopy(r.B, p + 4, v, 0, (int)n);
            p += 4 + (int)n;
            return v;
        }
        public override void FCheck(Reader r, ref int p, int d)
        {
            r.Need(p, 4);
            uint n = Le.U32(r.B, p);
            if (n > r.End - (long)p - 4) throw FastwireException.Truncated();
            p += 4 + (int)n;
        }
        public override void JPut(StringBuilder sb, byte[] v) { JsonText.Base64(sb, v); }
        public override void Text(StringBuilder sb, byte[] v) { sb.Append("bytes[").Append(v.Length).Append(']'); }
        public override byte[] JGet(JsonNode j, JsonState s)
        {
            if (j.Kind != JsonKind.String) throw WrongJson("base64 string", j);
            return JsonText.ParseBase64(j.Text);
        }
        public override IEqualityComparer<byte[]> Equality { get { return BytesEquality.Instance; } }
    }

    public sealed class BytesEquality : IEqualityComparer<byte[]>
    {
        public static readonly BytesEquality Instance = new BytesEquality();
        public bool Equals(byte[] a, byte[] b)
        {
            if (ReferenceEquals(a, b)) return true;
            if (a == null || b == null || a.Length != b.Length) return false;
            for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
            return true;
        }
        public int GetHashCode(byte[] a)
        {
            int h = 17;
            if (a != null) foreach (byte x in a) h = h * 31 + x;
            return h;
        }
    }

    /// <summary>The codecs of the primitives.</summary>
    public static class Codecs
    {
        public static readonly BoolCodec Bool = new BoolCodec();
        public static readonly ByteCodec Byte = new ByteCodec();
        public static readonly CharCodec Char = new CharCodec();
        public static readonly UInt32Codec WChar = new UInt32Codec("wchar");
        public static readonly SByteCodec Int8 = new SByteCodec();
        public static readonly ByteCodec UInt8 = new ByteCodec("uint8");
        public static readonly Int16Codec Int16 = new Int16Codec();
        public static readonly UInt16Codec UInt16 = new UInt16Codec();
        public static readonly Int32Codec Int32 = new Int32Codec();
        public static readonly UInt32Codec UInt32 = new UInt32Codec();
        public static readonly Int64Codec Int64 = new Int64Codec();
        public static readonly UInt64Codec UInt64 = new UInt64Codec();
        public static readonly FloatCodec Float = new FloatCodec();
        public static readonly DoubleCodec Double = new DoubleCodec();
        public static readonly DecimalCodec Decimal = new DecimalCodec();
        public static readonly TimestampCodec Timestamp = new TimestampCodec();
        public static readonly UuidCodec Uuid = new UuidCodec();
        public static readonly StringCodec String = new StringCodec();
        public static readonly BytesCodec Bytes = new BytesCodec();
    }
}
