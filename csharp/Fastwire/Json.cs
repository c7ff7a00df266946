// fastwire C# runtime: JSON by the rules every language writes and reads by
// (docs/wire-format.md#json): compact text, exact integers and decimals, shortest doubles,
// and a reader whose work is bounded by the text (depth, length, zero-size elements).
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Numerics;
using System.Text;

namespace Fastwire
{
    public enum JsonKind { Null, True, False, Number, String, Array, Object }

    public struct JsonMember
    {
        public string Key;
        public bool KeyHasLoneSurrogate;
        public JsonNode Value;
    }

    /// <summary>A parsed JSON value; numbers keep their text so integers and decimals stay exact.</summary>
    public sealed class JsonNode
    {
        public JsonKind Kind;
        public string Text; // a number's text, a string's value
        public bool HasLoneSurrogate; // a string holding "\ud800" alone: not writable as UTF-8
        public List<JsonNode> Items;
        public List<JsonMember> Members;

        public string Describe()
        {
            switch (Kind)
            {
                case JsonKind.Null: return "null";
                case JsonKind.True: return "true";
                case JsonKind.False: return "false";
                case JsonKind.Number: return Decimals.Short(Text);
                case JsonKind.String: return "\"" + Decimals.Short(Text) + "\"";
                case JsonKind.Array: return "an array";
                default: return "an object";
            }
        }
    }

    /// <summary>The state of one JSON read: the zero-size element allowance.</summary>
    public sealed class JsonState
    {
        public long ZeroLeft;
        public JsonState(Limits limits) { ZeroLeft = limits.MaxZeroSizeElements; }

        public void ChargeZeroSize(int n)
        {
            ZeroLeft -= n;
            if (ZeroLeft < 0) throw new FastwireException(ErrorCode.OverBudget, "elements of zero size beyond max_zero_size_elements");
        }
    }

    /// <summary>A strict JSON parser (RFC 8259) with a nesting limit.</summary>
    public sealed class JsonParser
    {
        readonly string s;
        int i;
        readonly int maxDepth;
        static readonly UTF8Encoding Strict = new UTF8Encoding(false, true);

        JsonParser(string text, int maxDepth) { s = text; this.maxDepth = maxDepth; }

        public static JsonNode Parse(byte[] utf8, int offset, int count, Limits limits)
        {
            if (count > limits.MaxMessageSize) throw new FastwireException(ErrorCode.TooLarge, "JSON text longer than max_message_size");
            string text;
            try { text = Strict.GetString(utf8, offset, count); }
            catch (ArgumentException) { throw new FastwireException(ErrorCode.InvalidArgument, "JSON text is not UTF-8"); }
            return Parse(text, limits);
        }

        public static JsonNode Parse(string text, Limits limits)
        {
            if (text.Length > limits.MaxMessageSize) throw new FastwireException(ErrorCode.TooLarge, "JSON text longer than max_message_size");
            var p = new JsonParser(text, limits.Depth);
            p.Ws();
            JsonNode v = p.Value(0);
            p.Ws();
            if (p.i != p.s.Length) throw p.Bad("extra data");
            return v;
        }

        FastwireException Bad(string what)
        {
            return new FastwireException(ErrorCode.InvalidArgument, what + " at character " + i);
        }

        void Ws()
        {
            while (i < s.Length)
            {
                char c = s[i];
                if (c == ' ' || c == '\t' || c == '\n' || c == '\r') i++;
                else break;
            }
        }

        JsonNode Value(int depth)
        {
            if (i >= s.Length) throw Bad("unexpected end");
            char c = s[i];
            switch (c)
            {
                case '{': return Obj(depth + 1);
                case '[': return Arr(depth + 1);
                case '"':
                    {
                        bool lone;
                        string t = Str(out lone);
                        return new JsonNode { Kind = JsonKind.String, Text = t, HasLoneSurrogate = lone };
                    }
                case 't': Word("true"); return new JsonNode { Kind = JsonKind.True };
                case 'f': Word("false"); return new JsonNode { Kind = JsonKind.False };
                case 'n': Word("null"); return new JsonNode { Kind = JsonKind.Null };
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return Num();
                    throw Bad("unexpected character");
            }
        }

        void Word(string w)
        {
            if (string.CompareOrdinal(s, i, w, 0, w.Length) != 0) throw Bad("unexpected word");
            i += w.Length;
        }

        JsonNode Num()
        {
            int start = i;
            if (s[i] == '-') i++;
            if (i >= s.Length) throw Bad("bad number");
            if (s[i] == '0') i++;
            else if (s[i] >= '1' && s[i] <= '9') { while (i < s.Length && s[i] >= '0' && s[i] <= '9') i++; }
            else throw Bad("bad number");
            if (i < s.Length && s[i] == '.')
            {
                i++;
                int f = i;
                while (i < s.Length && s[i] >= '0' && s[i] <= '9') i++;
                if (i == f) throw Bad("bad number");
            }
            if (i < s.Length && (s[i] == 'e' || s[i] == 'E'))
            {
                i++;
                if (i < s.Length && (s[i] == '+' || s[i] == '-')) i++;
                int f = i;
                while (i < s.Length && s[i] >= '0' && s[i] <= '9') i++;
                if (i == f) throw Bad("bad number");
            }
            return new JsonNode { Kind = JsonKind.Number, Text = s.Substring(start, i - start) };
        }

        string Str(out bool lone)
        {
            lone = false;
            i++; // "
            int start = i;
            while (i < s.Length && s[i] != '"' && s[i] != '\\' && s[i] >= 0x20) i++;
            if (i < s.Length && s[i] == '"') { string t = s.Substring(start, i - start); i++; return t; }
            var sb = new StringBuilder();
            sb.Append(s, start, i - start);
            while (true)
            {
                if (i >= s.Length) throw Bad("unterminated string");
                char c = s[i];
                if (c == '"') { i++; break; }
                if (c < 0x20) throw Bad("control character in string");
                if (c != '\\') { sb.Append(c); i++; continue; }
                i++;
                if (i >= s.Length) throw Bad("unterminated string");
                char e = s[i++];
                switch (e)
                {
                    case '"': sb.Append('"'); break;
                    case '\\': sb.Append('\\'); break;
                    case '/': sb.Append('/'); break;
                    case 'b': sb.Append('\b'); break;
                    case 'f': sb.Append('\f'); break;
                    case 'n': sb.Append('\n'); break;
                    case 'r': sb.Append('\r'); break;
                    case 't': sb.Append('\t'); break;
                    case 'u':
                        {
                            int u = Hex4();
                            if (u >= 0xD800 && u <= 0xDBFF && i + 1 < s.Length && s[i] == '\\' && s[i + 1] == 'u')
                            {
                                int save = i;
                                i += 2;
                                int u2 = Hex4();
                                if (u2 >= 0xDC00 && u2 <= 0xDFFF) { sb.Append((char)u).Append((char)u2); break; }
                                i = save;
                            }
                            // Strings must be Unicode wherever they are (unknown keys' values
                            // too): a lone surrogate is rejected here, so `lone` stays false.
                            if (u >= 0xD800 && u <= 0xDFFF) throw Bad("lone surrogate in a string");
                            sb.Append((char)u);
                            break;
                        }
                    default: throw Bad("bad escape");
                }
            }
            return sb.ToString();
        }

        int Hex4()
        {
            if (i + 4 > s.Length) throw Bad("bad \\u escape");
            int v = 0;
            for (int k = 0; k < 4; k++)
            {
                char c = s[i++];
                int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
                if (d < 0) throw Bad("bad \\u escape");
                v = v << 4 | d;
            }
            return v;
        }

        JsonNode Arr(int depth)
        {
            if (depth > maxDepth) throw new FastwireException(ErrorCode.TooDeep, "arrays and objects nested beyond " + maxDepth);
            i++;
            var items = new List<JsonNode>();
            Ws();
            if (i < s.Length && s[i] == ']') { i++; return new JsonNode { Kind = JsonKind.Array, Items = items }; }
            while (true)
            {
                Ws();
                items.Add(Value(depth));
                Ws();
                if (i >= s.Length) throw Bad("unterminated array");
                if (s[i] == ',') { i++; continue; }
                if (s[i] == ']') { i++; break; }
                throw Bad("expected , or ]");
            }
            return new JsonNode { Kind = JsonKind.Array, Items = items };
        }

        JsonNode Obj(int depth)
        {
            if (depth > maxDepth) throw new FastwireException(ErrorCode.TooDeep, "arrays and objects nested beyond " + maxDepth);
            i++;
            var members = new List<JsonMember>();
            Ws();
            if (i < s.Length && s[i] == '}') { i++; return new JsonNode { Kind = JsonKind.Object, Members = members }; }
            while (true)
            {
                Ws();
                if (i >= s.Length || s[i] != '"') throw Bad("expected a key");
                bool lone;
                string key = Str(out lone);
                Ws();
                if (i >= s.Length || s[i] != ':') throw Bad("expected :");
                i++;
                Ws();
                JsonNode v = Value(depth);
                members.Add(new JsonMember { Key = key, KeyHasLoneSurrogate = lone, Value = v });
                Ws();
                if (i >= s.Length) throw Bad("unterminated object");
                if (s[i] == ',') { i++; continue; }
                if (s[i] == '}') { i++; break; }
                throw Bad("expected , or }");
            }
            return new JsonNode { Kind = JsonKind.Object, Members = members };
        }
    }

    /// <summary>Text forms shared by the writers.</summary>
    public static class JsonText
    {
        static readonly string[] Escapes = MakeEscapes();

        static string[] MakeEscapes()
        {
            var e = new string[0x20];
            for (int c = 0; c < 0x20; c++) e[c] = "\\u" + c.ToString("X4", CultureInfo.InvariantCulture);
            e['\b'] = "\\b"; e['\f'] = "\\f"; e['\n'] = "\\n"; e['\r'] = "\\r"; e['\t'] = "\\t";
            return e;
        }

        /// <summary>A string literal as RapidJSON writes it: only " \ and control characters escaped.</summary>
        public static void String(StringBuilder sb, string v)
        {
            sb.Append('"');
            int start = 0;
            for (int k = 0; k < v.Length; k++)
            {
                char c = v[k];
                string esc;
                if (c == '"') esc = "\\\"";
                else if (c == '\\') esc = "\\\\";
                else if (c < 0x20) esc = Escapes[c];
                else if (c >= 0xD800 && c <= 0xDFFF)
                {
                    if (c <= 0xDBFF && k + 1 < v.Length && v[k + 1] >= 0xDC00 && v[k + 1] <= 0xDFFF) { k++; continue; }
                    esc = "\\u" + ((int)c).ToString("x4", CultureInfo.InvariantCulture); // a kept byte
                }
                else continue;
                sb.Append(v, start, k - start).Append(esc);
                start = k + 1;
            }
            sb.Append(v, start, v.Length - start).Append('"');
        }

        public static void Double(StringBuilder sb, double x)
        {
            if (double.IsNaN(x)) { sb.Append("\"NaN\""); return; }
            if (double.IsInfinity(x)) { sb.Append(x > 0 ? "\"Infinity\"" : "\"-Infinity\""); return; }
            sb.Append(DoubleText(x));
        }

        /// <summary>A map key's text of a double: as a value, without the quotes of NaN and the infinities.</summary>
        public static string DoubleKey(double x)
        {
            if (double.IsNaN(x)) return "NaN";
            if (double.IsInfinity(x)) return x > 0 ? "Infinity" : "-Infinity";
            return DoubleText(x);
        }

        /// <summary>The shortest digits that read back to x, laid out as RapidJSON does.</summary>
        public static string DoubleText(double x)
        {
            long bits = BitConverter.DoubleToInt64Bits(x);
            bool neg = bits < 0;
            if (x == 0) return neg ? "-0.0" : "0.0";
            double a = Math.Abs(x);
            string digits;
            int k;
            if (a < 9007199254740992.0 && a == Math.Floor(a))
            {
                digits = ((long)a).ToString(CultureInfo.InvariantCulture);
                k = 0;
            }
            else if (!Fast15(a, out digits, out k)) Shortest(bits & long.MaxValue, out digits, out k);
            int z = digits.Length;
            while (z > 1 && digits[z - 1] == '0') z--;
            k += digits.Length - z;
            digits = digits.Substring(0, z);
            return Layout(neg, digits, k);
        }

        // The 15-digit form, when it reads back to x: then it is the shortest (any shorter
        // form would be these digits with trailing zeros). Checked with the exact reader.
        static bool Fast15(double a, out string digits, out int k)
        {
            digits = null;
            k = 0;
            if (a < 2.2250738585072014e-308) return false; // subnormal: fewer bits, the argument fails
            string t = a.ToString("G15", CultureInfo.InvariantCulture);
            int e = t.IndexOfAny(new[] { 'E', 'e' });
            string mant = e < 0 ? t : t.Substring(0, e);
            int exp = e < 0 ? 0 : int.Parse(t.Substring(e + 1), NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture);
            int dot = mant.IndexOf('.');
            int frac = dot < 0 ? 0 : mant.Length - dot - 1;
            string d = (dot < 0 ? mant : mant.Remove(dot, 1)).TrimStart('0');
            if (d.Length == 0) return false;
            try
            {
                if (ParseDouble(t) != a) return false;
            }
            catch (FastwireException) { return false; }
            digits = d;
            k = exp - frac;
            return true;
        }

        static string Layout(bool neg, string d, int k)
        {
            var sb = new StringBuilder(32);
            if (neg) sb.Append('-');
            int n = d.Length + k;
            if (k >= 0 && n <= 21) sb.Append(d).Append('0', k).Append(".0");
            else if (n > 0 && n <= 21) sb.Append(d, 0, n).Append('.').Append(d, n, d.Length - n);
            else if (n > -6 && n <= 0) sb.Append("0.").Append('0', -n).Append(d);
            else
            {
                sb.Append(d[0]);
                if (d.Length > 1) sb.Append('.').Append(d, 1, d.Length - 1);
                sb.Append('e').Append((n - 1).ToString(CultureInfo.InvariantCulture));
            }
            return sb.ToString();
        }

        static readonly BigInteger Ten = new BigInteger(10);

        static BigInteger Pow10(int n) { return BigInteger.Pow(Ten, n); }

        // Exact shortest round-trip digits: for p = 1..17 the correctly rounded p digits, kept
        // when they lie inside x's rounding interval (boundaries included for an even mantissa).
        static void Shortest(long bits, out string digits, out int k)
        {
            int be = (int)(bits >> 52);
            long frac = bits & 0xFFFFFFFFFFFFFL;
            long m = be == 0 ? frac : frac | (1L << 52);
            int e = be == 0 ? -1074 : be - 1075;
            bool lowerCloser = be > 1 && frac == 0;
            bool even = (m & 1) == 0;
            // x = N / D exactly
            BigInteger N = new BigInteger(m), D = BigInteger.One;
            if (e >= 0) N <<= e; else D <<= -e;
            int k10 = (int)Math.Floor(Math.Log10((double)m) + e * 0.30102999566398119521);
            while (CmpPow(N, D, k10) < 0) k10--;
            while (CmpPow(N, D, k10 + 1) >= 0) k10++;
            for (int p = 1; p <= 17; p++)
            {
                int s = k10 - p + 1;
                // q = round(x / 10^s)
                BigInteger num = N, den = D;
                if (s >= 0) den *= Pow10(s); else num *= Pow10(-s);
                BigInteger rem;
                BigInteger q = BigInteger.DivRem(num, den, out rem);
                int c = (rem * 2).CompareTo(den);
                if (c > 0 || (c == 0 && !q.IsEven)) q += 1;
                // inside the interval? scale everything to integers by S = 10^max(0,-s) * 2^max(0,2-e)
                int sh = Math.Max(0, 2 - e);
                BigInteger ten = s < 0 ? Pow10(-s) : BigInteger.One;
                BigInteger X = (new BigInteger(m) << (e + sh)) * ten;
                BigInteger Dv = (q * (s > 0 ? Pow10(s) : BigInteger.One)) << sh;
                BigInteger hUp = (BigInteger.One << (e - 1 + sh)) * ten;
                BigInteger hDown = lowerCloser ? hUp >> 1 : hUp;
                bool ok;
                if (Dv >= X) { int cc = (Dv - X).CompareTo(hUp); ok = cc < 0 || (cc == 0 && even); }
                else { int cc = (X - Dv).CompareTo(hDown); ok = cc < 0 || (cc == 0 && even); }
                if (ok)
                {
                    digits = q.ToString(CultureInfo.InvariantCulture);
                    k = s;
                    return;
                }
            }
            digits = x17(bits, out k);
        }

        static string x17(long bits, out int k)
        {
            throw new InvalidOperationException("no 17-digit form"); // unreachable: 17 digits always round-trip
        }

        // Compares N/D with 10^k.
        static int CmpPow(BigInteger N, BigInteger D, int k)
        {
            if (k >= 0) return N.CompareTo(D * Pow10(k));
            return (N * Pow10(-k)).CompareTo(D);
        }

        static readonly double[] ExactPow10 = {
            1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
            1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

        /// <summary>
        /// A JSON number rounded to the nearest double (correctly, whatever the host's
        /// double.Parse does); OutOfRange beyond the double range. Work bounded by the text.
        /// </summary>
        public static double ParseDouble(string t)
        {
            int i = 0;
            bool neg = false;
            if (i < t.Length && (t[i] == '-' || t[i] == '+')) { neg = t[i] == '-'; i++; }
            var digits = new StringBuilder();
            int frac = 0;
            bool any = false;
            while (i < t.Length && t[i] >= '0' && t[i] <= '9') { digits.Append(t[i]); i++; any = true; }
            if (i < t.Length && t[i] == '.')
            {
                i++;
                while (i < t.Length && t[i] >= '0' && t[i] <= '9') { digits.Append(t[i]); i++; frac++; any = true; }
            }
            if (!any) throw new FastwireException(ErrorCode.InvalidArgument, "'" + Decimals.Short(t) + "' is not a number");
            long exp = 0;
            if (i < t.Length && (t[i] == 'e' || t[i] == 'E'))
            {
                i++;
                bool en = false;
                if (i < t.Length && (t[i] == '+' || t[i] == '-')) { en = t[i] == '-'; i++; }
                int st = i;
                while (i < t.Length && t[i] >= '0' && t[i] <= '9')
                {
                    if (exp < 1000000000000L) exp = exp * 10 + (t[i] - '0');
                    i++;
                }
                if (i == st) throw new FastwireException(ErrorCode.InvalidArgument, "'" + Decimals.Short(t) + "' is not a number");
                if (en) exp = -exp;
            }
            if (i != t.Length) throw new FastwireException(ErrorCode.InvalidArgument, "'" + Decimals.Short(t) + "' is not a number");
            string d = digits.ToString().TrimStart('0');
            double zero = neg ? -0.0 : 0.0;
            if (d.Length == 0) return zero;
            int tz = d.Length;
            while (tz > 1 && d[tz - 1] == '0') tz--;
            long dexp = exp - frac + (d.Length - tz);
            d = d.Substring(0, tz);
            long n10 = d.Length + dexp; // value in [10^(n10-1), 10^n10)
            if (d.Length > 800)
            {
                // 800 digits decide the rounding of any double; what follows only matters as
                // "more than nothing" (a sticky digit), so the work stays linear in the text.
                int cut = d.Length - 800;
                d = d.Substring(0, 800) + "1"; // the cut digits end in a nonzero one
                dexp += cut - 1;
            }
            if (n10 > 310) throw new FastwireException(ErrorCode.OutOfRange, Decimals.Short(t) + " does not fit a double");
            if (n10 < -330) return zero;
            double r;
            if (d.Length <= 15 && dexp >= -22 && dexp <= 22)
            {
                double v = long.Parse(d, CultureInfo.InvariantCulture);
                r = dexp >= 0 ? v * ExactPow10[dexp] : v / ExactPow10[-dexp];
            }
            else r = Exact(d, (int)dexp);
            if (double.IsInfinity(r)) throw new FastwireException(ErrorCode.OutOfRange, Decimals.Short(t) + " does not fit a double");
            return neg ? -r : r;
        }

        static double Exact(string d, int dexp)
        {
            BigInteger N = BigInteger.Parse(d, CultureInfo.InvariantCulture), D = BigInteger.One;
            if (dexp >= 0) N *= Pow10(dexp); else D = Pow10(-dexp);
            // q * 2^e2 with q of 53 bits (64 bits of room for the estimate)
            long e2 = (long)BitLength(N) - BitLength(D) - 53;
            if (e2 < -1074) e2 = -1074;
            BigInteger q, rem, den;
            while (true)
            {
                BigInteger num = N;
                den = D;
                if (e2 >= 0) den <<= (int)e2; else num <<= (int)-e2;
                q = BigInteger.DivRem(num, den, out rem);
                if (q >= (BigInteger.One << 53)) { e2++; continue; }
                if (q < (BigInteger.One << 52) && e2 > -1074) { e2--; continue; }
                break;
            }
            int c = (rem * 2).CompareTo(den);
            if (c > 0 || (c == 0 && !q.IsEven)) q += 1;
            if (q == (BigInteger.One << 53)) { q >>= 1; e2++; }
            long qv = (long)q;
            if (qv >= 1L << 52)
            {
                long biased = e2 + 1075;
                if (biased >= 2047) return double.PositiveInfinity;
                return BitConverter.Int64BitsToDouble(biased << 52 | (qv & 0xFFFFFFFFFFFFFL));
            }
            return BitConverter.Int64BitsToDouble(qv); // subnormal (e2 == -1074)
        }

        static int BitLength(BigInteger v)
        {
            byte[] b = v.ToByteArray();
            int n = b.Length - 1;
            while (n > 0 && b[n] == 0) n--;
            int bits = n * 8;
            int top = b[n];
            while (top > 0) { bits++; top >>= 1; }
            return bits;
        }

        public static void Base64(StringBuilder sb, byte[] v)
        {
            sb.Append('"').Append(Convert.ToBase64String(v)).Append('"');
        }

        /// <summary>Standard Base64 with padding, strictly (no whitespace, no missing '=').</summary>
        public static byte[] ParseBase64(string s)
        {
            if (s.Length % 4 != 0) throw new FastwireException(ErrorCode.InvalidArgument, "malformed base64");
            int pad = 0;
            for (int k = 0; k < s.Length; k++)
            {
                char c = s[k];
                bool alpha = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
                if (c == '=' && k >= s.Length - 2) { pad++; continue; }
                if (!alpha || pad > 0) throw new FastwireException(ErrorCode.InvalidArgument, "malformed base64");
            }
            try { return Convert.FromBase64String(s); }
            catch (FormatException) { throw new FastwireException(ErrorCode.InvalidArgument, "malformed base64"); }
        }
    }

    /// <summary>The printout's numbers, as C's printf("%g") writes them.</summary>
    public static class Print
    {
        public static string G(double x)
        {
            if (double.IsNaN(x)) return BitConverter.DoubleToInt64Bits(x) < 0 ? "-nan" : "nan";
            if (double.IsInfinity(x)) return x > 0 ? "inf" : "-inf";
            if (x == 0) return BitConverter.DoubleToInt64Bits(x) < 0 ? "-0" : "0";
            return x.ToString("G6", CultureInfo.InvariantCulture).Replace('E', 'e');
        }
    }
}
