// fastwire C# runtime: the value types of the wire (timestamp, uuid, decimal) and strings.
using System;
using System.Collections.Generic;
using System.Numerics;
using System.Text;

namespace Fastwire
{
    /// <summary>
    /// An FBE timestamp: nanoseconds since 1970-01-01 UTC, exact (DateTime has 100 ns ticks,
    /// so it is a conversion, not the stored form).
    /// </summary>
    public struct Timestamp : IEquatable<Timestamp>, IComparable<Timestamp>, IComparable
    {
        public readonly ulong Nanoseconds;
        static readonly DateTime Epoch = new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc);

        public Timestamp(ulong nanoseconds) { Nanoseconds = nanoseconds; }

        /// <summary>The current time (the `utc` default).</summary>
        public static Timestamp Now
        {
            get { return FromDateTime(DateTime.UtcNow); }
        }

        public static Timestamp FromDateTime(DateTime t)
        {
            return new Timestamp((ulong)(t.ToUniversalTime() - Epoch).Ticks * 100UL);
        }

        /// <summary>As a DateTime (UTC), rounded down to its 100 ns ticks.</summary>
        public DateTime ToDateTime() { return Epoch.AddTicks((long)(Nanoseconds / 100)); }

        public bool Equals(Timestamp o) { return Nanoseconds == o.Nanoseconds; }
        public override bool Equals(object o) { return o is Timestamp && ((Timestamp)o).Nanoseconds == Nanoseconds; }
        public override int GetHashCode() { return Nanoseconds.GetHashCode(); }
        public int CompareTo(Timestamp o) { return Nanoseconds.CompareTo(o.Nanoseconds); }
        public int CompareTo(object o) { return CompareTo((Timestamp)o); }
        public static bool operator ==(Timestamp a, Timestamp b) { return a.Nanoseconds == b.Nanoseconds; }
        public static bool operator !=(Timestamp a, Timestamp b) { return a.Nanoseconds != b.Nanoseconds; }
        public override string ToString() { return Nanoseconds.ToString(); }
    }

    /// <summary>
    /// Uuids on the wire: 16 bytes in the order of the canonical text (RFC 4122 big-endian
    /// fields), which is not Guid.ToByteArray()'s order (its first three fields are
    /// little-endian).
    /// </summary>
    public static class Uuid
    {
        public static Guid Read(byte[] b, int p)
        {
            int a = b[p] << 24 | b[p + 1] << 16 | b[p + 2] << 8 | b[p + 3];
            short c1 = (short)(b[p + 4] << 8 | b[p + 5]);
            short c2 = (short)(b[p + 6] << 8 | b[p + 7]);
            return new Guid(a, c1, c2, b[p + 8], b[p + 9], b[p + 10], b[p + 11], b[p + 12], b[p + 13], b[p + 14], b[p + 15]);
        }

        public static void Write(byte[] b, int p, Guid g)
        {
            byte[] x = g.ToByteArray();
            b[p] = x[3]; b[p + 1] = x[2]; b[p + 2] = x[1]; b[p + 3] = x[0];
            b[p + 4] = x[5]; b[p + 5] = x[4]; b[p + 6] = x[7]; b[p + 7] = x[6];
            Buffer.BlockCopy(x, 8, b, p + 8, 8);
        }

        /// <summary>The 16 bytes in wire (canonical text) order.</summary>
        public static byte[] ToBytes(Guid g) { var b = new byte[16]; Write(b, 0, g); return b; }

        public static Guid FromBytes(byte[] b) { return Read(b, 0); }

        /// <summary>Canonical lower-case text.</summary>
        public static string Text(Guid g) { return g.ToString("D"); }

        /// <summary>Orders uuids as their wire bytes (as C++ compares them).</summary>
        public static int Compare(Guid a, Guid b)
        {
            byte[] x = ToBytes(a), y = ToBytes(b);
            for (int i = 0; i < 16; i++)
                if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
            return 0;
        }

        /// <summary>A version-1 (time-based) uuid, for the `uuid1` default.</summary>
        public static Guid NewTimeBased()
        {
            // 100 ns intervals since 1582-10-15, a random clock sequence and node.
            long ticks = DateTime.UtcNow.Ticks - new DateTime(1582, 10, 15, 0, 0, 0, DateTimeKind.Utc).Ticks;
            byte[] rnd = Guid.NewGuid().ToByteArray();
            var b = new byte[16];
            uint low = (uint)ticks;
            ushort mid = (ushort)(ticks >> 32);
            ushort hi = (ushort)((ticks >> 48) & 0x0FFF | 0x1000);
            b[0] = (byte)(low >> 24); b[1] = (byte)(low >> 16); b[2] = (byte)(low >> 8); b[3] = (byte)low;
            b[4] = (byte)(mid >> 8); b[5] = (byte)mid; b[6] = (byte)(hi >> 8); b[7] = (byte)hi;
            b[8] = (byte)(rnd[8] & 0x3F | 0x80); b[9] = rnd[9];
            for (int i = 10; i < 16; i++) b[i] = rnd[i];
            b[10] |= 1; // multicast bit: a random node
            return Read(b, 0);
        }
    }

    /// <summary>
    /// System.Decimal is FBE's decimal bit for bit: a 96-bit integer, a scale 0..28 and a
    /// sign (negative zero and trailing zeros kept).
    /// </summary>
    public static class Decimals
    {
        /// <summary>The decimal in 16 wire bytes; bad_value for a scale above 28.</summary>
        public static decimal Read(byte[] b, int p)
        {
            int lo = Le.I32(b, p), mid = Le.I32(b, p + 4), hi = Le.I32(b, p + 8);
            byte scale = b[p + 14];
            if (scale > 28) throw new FastwireException(ErrorCode.BadValue, "decimal scale " + scale);
            return new decimal(lo, mid, hi, (b[p + 15] & 0x80) != 0, scale);
        }

        public static void Check(byte[] b, int p)
        {
            if (b[p + 14] > 28) throw new FastwireException(ErrorCode.BadValue, "decimal scale " + b[p + 14]);
        }

        public static void Write(byte[] b, int p, decimal v)
        {
            int[] bits = decimal.GetBits(v);
            Le.Put(b, p, (uint)bits[0]);
            Le.Put(b, p + 4, (uint)bits[1]);
            Le.Put(b, p + 8, (uint)bits[2]);
            Le.Put(b, p + 12, (uint)bits[3] & 0x80FF0000u);
        }

        /// <summary>The exact text with the scale kept, never an exponent: "1.50", "-0.00".</summary>
        public static string Text(decimal v)
        {
            int[] bits = decimal.GetBits(v);
            int scale = (bits[3] >> 16) & 0xFF;
            bool neg = bits[3] < 0;
            var n = new BigInteger((uint)bits[0]) | new BigInteger((uint)bits[1]) << 32 | new BigInteger((uint)bits[2]) << 64;
            string digits = n.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (digits.Length <= scale) digits = new string('0', scale - digits.Length + 1) + digits;
            var sb = new StringBuilder(digits.Length + 2);
            if (neg) sb.Append('-');
            if (scale == 0) sb.Append(digits);
            else sb.Append(digits, 0, digits.Length - scale).Append('.').Append(digits, digits.Length - scale, scale);
            return sb.ToString();
        }

        static readonly BigInteger Max96 = (BigInteger.One << 96) - 1;

        /// <summary>
        /// Reads decimal text by the rule every language follows (docs/wire-format.md#json):
        /// [+|-]digits[.digits][(e|E)[+|-]digits]; the digits as written must fit 96 bits, the
        /// scale (fraction digits minus the exponent) 0..28 after a negative one multiplies the
        /// digits. Work bounded by the text's length.
        /// </summary>
        public static decimal Parse(string s)
        {
            int i = 0, n = s.Length;
            bool neg = false;
            if (i < n && (s[i] == '+' || s[i] == '-')) { neg = s[i] == '-'; i++; }
            var digits = new StringBuilder();
            int intDigits = 0, fracDigits = 0;
            while (i < n && s[i] >= '0' && s[i] <= '9') { digits.Append(s[i]); i++; intDigits++; }
            if (i < n && s[i] == '.')
            {
                i++;
                while (i < n && s[i] >= '0' && s[i] <= '9') { digits.Append(s[i]); i++; fracDigits++; }
            }
            if (intDigits + fracDigits == 0) throw Bad(s);
            long exp = 0;
            if (i < n && (s[i] == 'e' || s[i] == 'E'))
            {
                i++;
                bool eneg = false;
                if (i < n && (s[i] == '+' || s[i] == '-')) { eneg = s[i] == '-'; i++; }
                int start = i;
                while (i < n && s[i] >= '0' && s[i] <= '9')
                {
                    if (exp < 1000000000000L) exp = exp * 10 + (s[i] - '0');
                    i++;
                }
                if (i == start) throw Bad(s);
                if (eneg) exp = -exp;
            }
            if (i != n) throw Bad(s);
            string d = digits.ToString().TrimStart('0');
            if (d.Length > 29) throw new FastwireException(ErrorCode.OutOfRange, "decimal " + Short(s) + " needs more than 96 bits");
            BigInteger value = d.Length == 0 ? BigInteger.Zero : BigInteger.Parse(d, System.Globalization.CultureInfo.InvariantCulture);
            long scale = fracDigits - exp;
            if (scale < 0)
            {
                if (!value.IsZero)
                {
                    if (d.Length - scale > 29) throw new FastwireException(ErrorCode.OutOfRange, "decimal " + Short(s) + " needs more than 96 bits");
                    value *= BigInteger.Pow(10, (int)-scale);
                }
                scale = 0;
            }
            if (value > Max96) throw new FastwireException(ErrorCode.OutOfRange, "decimal " + Short(s) + " needs more than 96 bits");
            if (scale > 28) throw new FastwireException(ErrorCode.OutOfRange, "decimal " + Short(s) + " has more than 28 decimal places");
            var bytes = value.ToByteArray();
            var w = new byte[12];
            Array.Copy(bytes, w, Math.Min(12, bytes.Length));
            return new decimal(Le.I32(w, 0), Le.I32(w, 4), Le.I32(w, 8), neg, (byte)scale);
        }

        static FastwireException Bad(string s)
        {
            return new FastwireException(ErrorCode.InvalidArgument, "'" + Short(s) + "' is not a decimal");
        }

        internal static string Short(string s)
        {
            return s.Length <= 60 ? s : s.Substring(0, 40) + "... (" + s.Length + " characters)";
        }
    }

    /// <summary>
    /// UTF-8 without loss: strings are bytes on the wire (UTF-8 is not validated, docs/
    /// security.md), so a byte that is not part of valid UTF-8 is kept as the lone surrogate
    /// U+DC80..U+DCFF (as Python's surrogateescape) and written back as that byte.
    /// </summary>
    public static class Utf8
    {
        /// <summary>
        /// Short strings (up to 32 bytes) read from messages are pooled: a read that finds the
        /// same bytes as a recent one returns that (immutable) string instead of allocating a
        /// new one. Symbols, currencies and names repeat in most data. Set false to turn it off.
        /// </summary>
        public static bool Pooling = true;

        sealed class Pooled
        {
            public readonly byte[] Bytes;
            public readonly string Text;
            public Pooled(byte[] bytes, string text) { Bytes = bytes; Text = text; }
        }

        static readonly Pooled[] Pool = new Pooled[1024];

        public static string Decode(byte[] b, int p, int n)
        {
            if (n == 0) return "";
            if (n > 32 || !Pooling) return DecodeNew(b, p, n);
            // The slot from the length and the first and last four bytes (a miss only costs
            // an allocation: the bytes are compared in full below).
            uint h;
            if (n >= 4)
            {
                int q = p + n - 4;
                h = (uint)(b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24) * 0x9E3779B1u
                    ^ (uint)(b[q] | b[q + 1] << 8 | b[q + 2] << 16 | b[q + 3] << 24) * 0x85EBCA77u ^ (uint)n;
            }
            else
            {
                h = (uint)n;
                for (int i = 0; i < n; i++) h = h << 8 | b[p + i];
                h *= 0x9E3779B1u;
            }
            int slot = (int)(h >> 22);
            Pooled e = Pool[slot];
            if (e != null && e.Bytes.Length == n)
            {
                byte[] k = e.Bytes;
                int i = 0;
                while (i < n && k[i] == b[p + i]) i++;
                if (i == n) return e.Text;
            }
            string text = DecodeNew(b, p, n);
            var key = new byte[n];
            Buffer.BlockCopy(b, p, key, 0, n);
            Pool[slot] = new Pooled(key, text);
            return text;
        }

        /// <summary>Decode for the readers: the message is pinned at r.P (a model's read) and
        /// [p, p+n) has been checked inside it. The pool's hash and comparison load through
        /// the pointer, four bytes at a time, instead of a bounds-checked load per byte.</summary>
        internal static unsafe string DecodeAt(Reader r, int p, int n)
        {
            if (n == 0) return "";
            if (n > 32 || !Pooling || r.P == null) return Decode(r.B, p, n);
            byte* s = r.P + p;
            uint h;
            if (n >= 4)
                h = Reader.Load32(s) * 0x9E3779B1u ^ Reader.Load32(s + n - 4) * 0x85EBCA77u ^ (uint)n;
            else
            {
                h = (uint)n;
                for (int i = 0; i < n; i++) h = h << 8 | s[i];
                h *= 0x9E3779B1u;
            }
            int slot = (int)(h >> 22);
            Pooled e = Pool[slot];
            if (e != null && e.Bytes.Length == n)
            {
                bool same = true;
                fixed (byte* k = e.Bytes)
                {
                    int i = 0;
                    for (; i <= n - 4 && same; i += 4) same = *(uint*)(k + i) == *(uint*)(s + i);
                    for (; i < n && same; i++) same = k[i] == s[i];
                }
                if (same) return e.Text;
            }
            string text = DecodeNew(r.B, p, n);
            var key = new byte[n];
            Buffer.BlockCopy(r.B, p, key, 0, n);
            Pool[slot] = new Pooled(key, text);
            return text;
        }

        static string DecodeNew(byte[] b, int p, int n)
        {
            int end = p + n;
            int i = p;
            while (i < end && b[i] < 0x80) i++;
            if (i == end) return Encoding.ASCII.GetString(b, p, n);
            var sb = new StringBuilder(n);
            for (int k = p; k < i; k++) sb.Append((char)b[k]);
            while (i < end)
            {
                int c = b[i];
                if (c < 0x80) { sb.Append((char)c); i++; continue; }
                int need, cp, min;
                if (c >= 0xC2 && c <= 0xDF) { need = 1; cp = c & 0x1F; min = 0x80; }
                else if (c >= 0xE0 && c <= 0xEF) { need = 2; cp = c & 0x0F; min = 0x800; }
                else if (c >= 0xF0 && c <= 0xF4) { need = 3; cp = c & 0x07; min = 0x10000; }
                else { sb.Append((char)(0xDC00 | c)); i++; continue; }
                bool ok = true;
                {
                    for (int j = 1; j <= need; j++)
                    {
                        if (i + j >= end || (b[i + j] & 0xC0) != 0x80) { ok = false; break; }
                        cp = cp << 6 | (b[i + j] & 0x3F);
                    }
                }
                if (ok && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
                if (!ok) { sb.Append((char)(0xDC00 | c)); i++; continue; }
                if (cp >= 0x10000)
                {
                    cp -= 0x10000;
                    sb.Append((char)(0xD800 + (cp >> 10))).Append((char)(0xDC00 + (cp & 0x3FF)));
                }
                else sb.Append((char)cp);
                i += need + 1;
            }
            return sb.ToString();
        }

        /// <summary>Bytes the string takes.</summary>
        public static int Count(string s)
        {
            int n = 0;
            for (int i = 0; i < s.Length; i++)
            {
                char c = s[i];
                if (c < 0x80) n++;
                else if (c < 0x800) n += 2;
                else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.Length && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) { n += 4; i++; }
                else if (c >= 0xDC80 && c <= 0xDCFF) n += 1; // a kept byte
                else n += 3;
            }
            return n;
        }

        /// <summary>Writes the string's bytes at p (Count(s) of them).</summary>
        public static void Encode(string s, byte[] b, int p)
        {
            for (int i = 0; i < s.Length; i++)
            {
                int c = s[i];
                if (c < 0x80) b[p++] = (byte)c;
                else if (c < 0x800) { b[p++] = (byte)(0xC0 | c >> 6); b[p++] = (byte)(0x80 | c & 0x3F); }
                else if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.Length && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
                {
                    int cp = 0x10000 + ((c - 0xD800) << 10) + (s[i + 1] - 0xDC00);
                    i++;
                    b[p++] = (byte)(0xF0 | cp >> 18); b[p++] = (byte)(0x80 | cp >> 12 & 0x3F);
                    b[p++] = (byte)(0x80 | cp >> 6 & 0x3F); b[p++] = (byte)(0x80 | cp & 0x3F);
                }
                else if (c >= 0xDC80 && c <= 0xDCFF) b[p++] = (byte)c;
                else { b[p++] = (byte)(0xE0 | c >> 12); b[p++] = (byte)(0x80 | c >> 6 & 0x3F); b[p++] = (byte)(0x80 | c & 0x3F); }
            }
        }

        public static byte[] GetBytes(string s)
        {
            var b = new byte[Count(s)];
            Encode(s, b, 0);
            return b;
        }

        /// <summary>Orders strings as their UTF-8 bytes (code point order), as C++ does.</summary>
        public static int Compare(string a, string b)
        {
            int n = Math.Min(a.Length, b.Length);
            for (int i = 0; i < n; i++)
            {
                char x = a[i], y = b[i];
                if (x == y) continue;
                // UTF-16 order differs from code point order only for surrogates vs U+E000..U+FFFF.
                if (x >= 0xD800 && y >= 0xD800) { x = Fix(x); y = Fix(y); }
                return x < y ? -1 : 1;
            }
            return a.Length.CompareTo(b.Length);
        }

        static char Fix(char c) { return c >= 0xE000 ? (char)(c - 0x800) : (char)(c + 0x2000); }
    }

    /// <summary>Comparers that order as the wire (and C++) does.</summary>
    public sealed class StringOrder : IComparer<string>
    {
        public static readonly StringOrder Instance = new StringOrder();
        public int Compare(string a, string b) { return Utf8.Compare(a, b); }
    }

    public sealed class UuidOrder : IComparer<Guid>
    {
        public static readonly UuidOrder Instance = new UuidOrder();
        public int Compare(Guid a, Guid b) { return Uuid.Compare(a, b); }
    }
}
