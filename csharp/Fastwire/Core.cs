// fastwire C# runtime: errors, limits, the write buffer and the checked reader.
// Everything is little-endian, unaligned and unpadded (docs/wire-format.md).
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace Fastwire
{
    /// <summary>What a read, verify or write rejected (docs/security.md, "Error codes").</summary>
    public enum ErrorCode
    {
        Truncated, BadOffset, BadSize, BadType, BadValue, TooDeep, TooLarge, OverBudget,
        InvalidArgument, OutOfRange, WrongType, WrongLength,
    }

    /// <summary>
    /// The one exception type of fastwire: malformed input (binary or JSON) and values that
    /// cannot be written. Readers never throw anything else on bad input (no
    /// IndexOutOfRangeException, no OutOfMemoryException from a declared count).
    /// </summary>
    public sealed class FastwireException : Exception
    {
        public ErrorCode Code { get; private set; }

        public FastwireException(ErrorCode code, string message = null)
            : base(message == null ? CodeName(code) : CodeName(code) + ": " + message)
        {
            Code = code;
        }

        public static string CodeName(ErrorCode code)
        {
            switch (code)
            {
                case ErrorCode.Truncated: return "truncated";
                case ErrorCode.BadOffset: return "bad_offset";
                case ErrorCode.BadSize: return "bad_size";
                case ErrorCode.BadType: return "bad_type";
                case ErrorCode.BadValue: return "bad_value";
                case ErrorCode.TooDeep: return "too_deep";
                case ErrorCode.TooLarge: return "too_large";
                case ErrorCode.OverBudget: return "over_budget";
                case ErrorCode.InvalidArgument: return "invalid_argument";
                case ErrorCode.OutOfRange: return "out_of_range";
                case ErrorCode.WrongType: return "wrong_type";
                default: return "wrong_length";
            }
        }

        internal static FastwireException Truncated() { return new FastwireException(ErrorCode.Truncated); }
    }

    /// <summary>The limits of docs/security.md, per model or receiver.</summary>
    public sealed class Limits
    {
        public const int MaxDepthCap = 4096;
        public int MaxDepth = 64;
        public long MaxMessageSize = 64L << 20;
        public long MaxZeroSizeElements = 65536;
        public static readonly Limits Default = new Limits();

        internal int Depth { [MethodImpl(MethodImplOptions.AggressiveInlining)] get { return Math.Max(0, Math.Min(MaxDepth, MaxDepthCap)); } }
    }

    /// <summary>Little-endian loads and stores.</summary>
    public static class Le
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static uint U32(byte[] b, int p) { return (uint)(b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static int I32(byte[] b, int p) { return b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24; }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static ushort U16(byte[] b, int p) { return (ushort)(b[p] | b[p + 1] << 8); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static ulong U64(byte[] b, int p) { return U32(b, p) | (ulong)U32(b, p + 4) << 32; }
        static readonly bool Little = BitConverter.IsLittleEndian;

        // Stores: one range test and one or two stores through the pinned array (Mono
        // tests every byte[] index it stores at); out of range or on a big-endian host,
        // the bytes one at a time (the array's own exception).
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static unsafe void Put(byte[] b, int p, uint v)
        {
            if ((uint)p > (uint)(b.Length - 4) || !Little) { PutBytes(b, p, v); return; }
            fixed (byte* q = b) *(uint*)(q + p) = v;
        }
        [MethodImpl(MethodImplOptions.NoInlining)]
        internal static void PutBytes(byte[] b, int p, uint v)
        {
            b[p] = (byte)v; b[p + 1] = (byte)(v >> 8); b[p + 2] = (byte)(v >> 16); b[p + 3] = (byte)(v >> 24);
        }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void Put(byte[] b, int p, ushort v) { b[p] = (byte)v; b[p + 1] = (byte)(v >> 8); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static unsafe void Put(byte[] b, int p, ulong v)
        {
            if ((uint)p > (uint)(b.Length - 8) || !Little) { PutBytes(b, p, (uint)v); PutBytes(b, p + 4, (uint)(v >> 32)); return; }
            fixed (byte* q = b)
            {
                *(uint*)(q + p) = (uint)v; // two 32-bit stores (unaligned 64-bit stores fault on 32-bit ARM)
                *(uint*)(q + p + 4) = (uint)(v >> 32);
            }
        }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static double F64(byte[] b, int p) { return BitConverter.Int64BitsToDouble((long)U64(b, p)); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void PutF64(byte[] b, int p, double v) { Put(b, p, (ulong)BitConverter.DoubleToInt64Bits(v)); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static float F32(byte[] b, int p) { var u = new FloatBits { U = U32(b, p) }; return u.F; }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void PutF32(byte[] b, int p, float v) { var u = new FloatBits { F = v }; Put(b, p, u.U); }

        [System.Runtime.InteropServices.StructLayout(System.Runtime.InteropServices.LayoutKind.Explicit)]
        struct FloatBits
        {
            [System.Runtime.InteropServices.FieldOffset(0)] public float F;
            [System.Runtime.InteropServices.FieldOffset(0)] public uint U;
        }
    }

    /// <summary>
    /// A growable byte buffer that serializers write into; reuse one across messages
    /// (Reset) to serialize without allocating. The bytes past Size are kept zero (Reset
    /// and Truncate clear what they drop), so Append hands out zeroed bytes without clearing
    /// them one piece at a time; write into Data only below Size.
    /// </summary>
    public sealed unsafe class WriteBuffer
    {
        byte[] data;
        int size;
        // Data stays pinned while it is the buffer's (a GCHandle, freed when it grows and by
        // the finalizer), so that PutU32/PutU64 store through ptr after one range test
        // against cap (Mono tests every byte[] index, and a `fixed` per store costs more).
        GCHandle pin;
        byte* ptr;
        int cap;

        /// <summary>The bytes; the message is Data[0..Size). The array changes when the buffer grows.</summary>
        public byte[] Data { get { return data; } }

        void Take(byte[] d)
        {
            if (pin.IsAllocated) pin.Free();
            data = d;
            pin = GCHandle.Alloc(d, GCHandleType.Pinned);
            ptr = (byte*)pin.AddrOfPinnedObject();
            cap = d.Length;
        }

        ~WriteBuffer() { if (pin.IsAllocated) pin.Free(); }

        /// <summary>Stores v little-endian at p (0 &lt;= p &lt;= Data.Length - 4; else IndexOutOfRangeException).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutU32(int p, uint v)
        {
            if ((uint)p > (uint)(cap - 4) || !Little) { Le.PutBytes(data, p, v); return; }
            *(uint*)(ptr + p) = v;
        }

        /// <summary>Stores v little-endian at p, as two 32-bit stores (unaligned 64-bit
        /// stores fault on 32-bit ARM).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutU64(int p, ulong v)
        {
            if ((uint)p > (uint)(cap - 8) || !Little) { Le.PutBytes(data, p, (uint)v); Le.PutBytes(data, p + 4, (uint)(v >> 32)); return; }
            *(uint*)(ptr + p) = (uint)v;
            *(uint*)(ptr + p + 4) = (uint)(v >> 32);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void PutF64(int p, double v) { PutU64(p, (ulong)BitConverter.DoubleToInt64Bits(v)); }

        /// <summary>Bytes written; shrink it with Truncate or Reset.</summary>
        public int Size { get { return size; } }

        public WriteBuffer(int capacity = 256) { Take(new byte[Math.Max(capacity, 16)]); }

        /// <summary>Empties the buffer (its bytes are cleared, the capacity kept).</summary>
        public void Reset() { Truncate(0); }

        /// <summary>Drops the bytes from n on (cleared).</summary>
        public void Truncate(int n)
        {
            if (n < 0 || n > size) throw new ArgumentOutOfRangeException("n");
            if (size > n) Array.Clear(Data, n, size - n);
            size = n;
        }

        /// <summary>Appends n zero bytes; returns where they start.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Append(int n)
        {
            int at = size;
            if (n > Data.Length - at) return GrowFor(n);
            size = at + n;
            return at;
        }

        /// <summary>Generated code: a final optional's presence byte; returns has.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public bool FOptional(bool has)
        {
            int at = Reserve(1);
            data[at] = has ? (byte)1 : (byte)0;
            return has;
        }

        /// <summary>Generated code: a final vector's count.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void FCount(int n) { PutU32(Reserve(4), (uint)n); }

        /// <summary>Appends n bytes whose content the caller writes at once (not zeroed).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Reserve(int n)
        {
            int at = size;
            if (n > Data.Length - at) return GrowFor(n);
            size = at + n;
            return at;
        }

        int GrowFor(int n)
        {
            int at = size;
            long need = (long)at + n;
            Grow(need);
            size = (int)need;
            return at;
        }

        void Grow(long need)
        {
            if (need > 0xFFFFFFFFL || need > int.MaxValue - 64)
                throw new FastwireException(ErrorCode.TooLarge, "a message larger than 4 GiB - 1");
            long grown = Math.Max(need, Math.Min((long)data.Length * 2, int.MaxValue - 64));
            var d = new byte[grown];
            Buffer.BlockCopy(data, 0, d, 0, size);
            Take(d);
        }

        static readonly bool Little = BitConverter.IsLittleEndian;

        /// <summary>Appends [u32 length][bytes] of an ASCII string (the usual case of
        /// strings) and returns where it starts; -1, with nothing appended, when v is null,
        /// not ASCII or does not fit the capacity (the caller's general path then handles
        /// it). Four characters per step through pointers: one range test per string
        /// instead of two per character.</summary>
        public unsafe int PutAscii(string v)
        {
            if (v == null || !Little) return -1;
            int len = v.Length;
            int at = size;
            if (len > cap - at - 4) return -1;
            byte* b = ptr;
            fixed (char* s = v)
            {
                byte* q = b + at + 4;
                int i = 0;
                for (; i <= len - 4; i += 4)
                {
                    uint x0 = *(uint*)(s + i), x1 = *(uint*)(s + i + 2); // chars i, i+1 and i+2, i+3
                    if (((x0 | x1) & 0xFF80FF80u) != 0) return NotAscii(at, i);
                    *(uint*)(q + i) = (x0 & 0xFFu) | (x0 >> 8 & 0xFF00u) | (x1 & 0xFFu) << 16 | (x1 << 8 & 0xFF000000u);
                }
                for (; i < len; i++)
                {
                    char c = s[i];
                    if (c >= 0x80) return NotAscii(at, i);
                    q[i] = (byte)c;
                }
                *(uint*)(b + at) = (uint)len;
            }
            size = at + 4 + len;
            return at;
        }

        // Clears the characters PutAscii wrote before it found one that is not ASCII (the
        // bytes past Size stay zero).
        int NotAscii(int at, int written)
        {
            if (written > 0) Array.Clear(Data, at + 4, written);
            return -1;
        }

        public void Append(byte[] src, int offset, int count)
        {
            int at = Reserve(count);
            Buffer.BlockCopy(src, offset, Data, at, count);
        }

        public byte[] ToArray()
        {
            var r = new byte[size];
            Buffer.BlockCopy(Data, 0, r, 0, size);
            return r;
        }
    }

    /// <summary>
    /// One message being read or verified: its bytes, where it ends, the visit budget
    /// (versioned: bytes the walk may still visit) and the zero-size element allowance
    /// (final). Positions are absolute indexes into B.
    /// </summary>
    public sealed unsafe class Reader
    {
        public byte[] B;
        public int End;
        public long Budget;
        public long ZeroLeft;
        /// <summary>Where the last generated final reader (FGetAt) stopped.</summary>
        public int Pos;

        // B pinned: the models set it inside a `fixed` block around the whole read, so the
        // checks below read the lengths, offsets and sizes they check with one load each and
        // no array bounds check (Mono checks every byte[] access). Each read is at a position
        // these checks have just proven inside [0, End) (End <= B.Length).
        internal byte* P;
        static readonly bool Little = BitConverter.IsLittleEndian;

        public Reader(byte[] b, int end, long budget, long zeroLeft)
        {
            B = b; End = end; Budget = budget; ZeroLeft = zeroLeft;
        }

        // One reader per thread, reused by the models (a read calls no application code, so
        // it is never in use twice on a thread); a read that throws leaves it out, and the
        // next read makes a new one.
        [ThreadStatic] static Reader free;

        internal static Reader Rent(byte[] b, int end, long budget, long zeroLeft)
        {
            Reader r = free;
            if (r == null) return new Reader(b, end, budget, zeroLeft);
            free = null;
            r.B = b; r.End = end; r.Budget = budget; r.ZeroLeft = zeroLeft; r.Pos = 0; r.Stored = 0;
            return r;
        }

        /// <summary>Rent with B already pinned at p (the root checks of the models).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static Reader Rent(byte[] b, byte* p, int end, long budget, long zeroLeft)
        {
            Reader r = free ?? Fresh();
            free = null;
            r.B = b; r.End = end; r.Budget = budget; r.ZeroLeft = zeroLeft; r.Pos = 0; r.Stored = 0;
            r.P = p;
            return r;
        }

        [MethodImpl(MethodImplOptions.NoInlining)]
        static Reader Fresh() { return new Reader(null, 0, 0, 0); }

        /// <summary>A little-endian u32 at q (the root headers, read before a reader exists).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal static uint Load32(byte* q)
        {
            return Little ? *(uint*)q : (uint)(q[0] | q[1] << 8 | q[2] << 16 | q[3] << 24);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal void Release()
        {
            B = null; // keeps no message alive
            P = null;
            free = this;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        internal uint At32(int p)
        {
            byte* q = P + p;
            return Little ? *(uint*)q : (uint)(q[0] | q[1] << 8 | q[2] << 16 | q[3] << 24);
        }

        // Loads for generated code, at positions it has checked (Enter, Block, Count,
        // Optional, Need) and only while a model's read runs (P set). Not for other use: they
        // check nothing. 64-bit values are read as two 32-bit loads (unaligned 64-bit loads
        // fault on 32-bit ARM).
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public byte U8(int p) { return P[p]; }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public ushort U16(int p) { byte* q = P + p; return (ushort)(q[0] | q[1] << 8); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public uint U32(int p) { return At32(p); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int I32(int p) { return (int)At32(p); }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public ulong U64(int p) { return At32(p) | (ulong)At32(p + 4) << 32; }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public float F32(int p) { uint u = At32(p); return *(float*)&u; }
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public double F64(int p) { ulong u = At32(p) | (ulong)At32(p + 4) << 32; return *(double*)&u; }

        // ---- versioned ---------------------------------------------------------------

        /// <summary>Block without `out`: the length goes to Stored.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Block(int bas, uint off, int slotEnd)
        {
            uint pos = (uint)bas + off; // see Enter
            uint end = (uint)End;
            if (pos >= (uint)slotEnd && (ulong)pos + 4 <= end)
            {
                uint len = Load32(P + pos);
                long budget = Budget - 4 - len;
                if (len <= end - pos - 4 && budget >= 0)
                {
                    Budget = budget;
                    Stored = (int)len;
                    return (int)pos + 4;
                }
            }
            return BlockError(bas, off, slotEnd);
        }

        /// <summary>Checks a [u32 length][bytes] block at base+off (a string or bytes field's).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void CheckBlock(int bas, uint off, int slotEnd)
        {
            uint pos = (uint)bas + off; // see Enter
            uint end = (uint)End;
            if (pos >= (uint)slotEnd && (ulong)pos + 4 <= end)
            {
                uint len = Load32(P + pos);
                long budget = Budget - 4 - len;
                if (len <= end - pos - 4 && budget >= 0)
                {
                    Budget = budget;
                    return;
                }
            }
            BlockError(bas, off, slotEnd);
        }

        /// <summary>A [u32 length][bytes] block at base+off; returns the payload position.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Block(int bas, uint off, int slotEnd, out int n)
        {
            int end = End;
            if (off <= (uint)(end - bas))
            {
                int pos = bas + (int)off;
                if (pos >= slotEnd && pos <= end - 4)
                {
                    uint len = At32(pos);
                    long budget = Budget - 4 - len;
                    if (len <= (uint)(end - pos - 4) && budget >= 0)
                    {
                        Budget = budget;
                        n = (int)len;
                        return pos + 4;
                    }
                }
            }
            n = 0;
            return BlockError(bas, off, slotEnd);
        }

        int BlockError(int bas, uint off, int slotEnd)
        {
            long pos = (long)bas + off;
            if (pos > End) throw FastwireException.Truncated();
            if (pos < slotEnd) throw new FastwireException(ErrorCode.BadOffset);
            if (pos + 4 > End) throw FastwireException.Truncated();
            uint len = Le.U32(B, (int)pos);
            if (len > End - pos - 4) throw FastwireException.Truncated();
            throw new FastwireException(ErrorCode.OverBudget);
        }

        /// <summary>Generated code: where the optional struct at slot (from bas) has its
        /// 4-byte block, or -1 when it has none.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int VOptional(int bas, int slot)
        {
            if (U8(slot) == 0) return -1;
            return Optional(bas, U32(slot + 1), slot + 5, 4);
        }

        /// <summary>Generated code: the first element's slot of the vector of 4-byte slots at
        /// slot (from bas), its count in Stored (0 for offset 0).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int VList(int bas, int slot)
        {
            uint off = U32(slot);
            if (off != 0) return Count(bas, off, slot + 4, 4);
            Stored = 0;
            return 0;
        }

        /// <summary>Generated code: a final optional's presence byte at p.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public bool FOptional(int p)
        {
            Need(p, 1);
            return U8(p) != 0;
        }

        /// <summary>The body size the last Enter (without `out`) found.</summary>
        public int Stored;

        /// <summary>Enter for generated code: the body size goes to Stored (Mono keeps an
        /// `out` local in memory, and everything around it).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Enter(int bas, uint off, int slotEnd, uint type, int d)
        {
            // off == 0 fails pos >= slotEnd (slotEnd > bas); EnterError tells which check failed.
            // uint arithmetic (Mono sign-extends every int it compares with a long): a sum
            // that wraps is below bas, so below slotEnd (> bas), and fails the first test.
            uint pos = (uint)bas + off;
            uint end = (uint)End;
            if (pos >= (uint)slotEnd && (ulong)pos + 8 <= end)
            {
                byte* q = P + pos;
                uint size = Load32(q);
                long budget = Budget - size;
                if (size >= 8 && size <= end - pos && Load32(q + 4) == type && d > 0 && budget >= 0)
                {
                    Budget = budget;
                    Stored = (int)size;
                    return (int)pos;
                }
            }
            return EnterError(bas, off, slotEnd, type, d);
        }

        /// <summary>Count for generated code: the count goes to Stored.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Count(int bas, uint off, int slotEnd, int elemSlot)
        {
            uint pos = (uint)bas + off; // see Enter
            uint end = (uint)End;
            if (pos >= (uint)slotEnd && (ulong)pos + 4 <= end)
            {
                uint count = Load32(P + pos);
                long size = 4 + (long)count * elemSlot;
                long budget = Budget - size;
                if (size <= end - pos && budget >= 0)
                {
                    Budget = budget;
                    Stored = (int)count;
                    return (int)pos + 4;
                }
            }
            return CountError(bas, off, slotEnd, elemSlot);
        }

        /// <summary>A struct body at base+off: forward, inside, size &gt;= 8, the type, the depth.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Enter(int bas, uint off, int slotEnd, uint type, int d, out int stored)
        {
            int end = End;
            // The usual case in one condition (positions fit an int: the message is an array).
            if (off != 0 && off <= (uint)(end - bas))
            {
                int pos = bas + (int)off;
                if (pos >= slotEnd && pos <= end - 8)
                {
                    uint size = At32(pos);
                    uint found = At32(pos + 4);
                    long budget = Budget - size;
                    if (size >= 8 && size <= (uint)(end - pos) && found == type && d > 0 && budget >= 0)
                    {
                        Budget = budget;
                        stored = (int)size;
                        return pos;
                    }
                }
            }
            stored = 0;
            return EnterError(bas, off, slotEnd, type, d);
        }

        // The precise error of Enter, in the C++ runtime's order.
        int EnterError(int bas, uint off, int slotEnd, uint type, int d)
        {
            if (off == 0) throw new FastwireException(ErrorCode.BadOffset, "struct at offset 0");
            long pos = (long)bas + off;
            if (pos > End) throw FastwireException.Truncated();
            if (pos < slotEnd) throw new FastwireException(ErrorCode.BadOffset);
            if (pos + 8 > End) throw FastwireException.Truncated();
            uint size = Le.U32(B, (int)pos);
            if (size < 8) throw new FastwireException(ErrorCode.BadSize);
            if (size > End - pos) throw FastwireException.Truncated();
            uint found = Le.U32(B, (int)pos + 4);
            if (found != type) throw new FastwireException(ErrorCode.BadType, found + " where " + type + " was expected");
            if (d < 1) throw new FastwireException(ErrorCode.TooDeep);
            throw new FastwireException(ErrorCode.OverBudget);
        }

        /// <summary>A [u32 count][count x elemSlot] block; returns the first element's position.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Count(int bas, uint off, int slotEnd, int elemSlot, out int n)
        {
            int end = End;
            if (off <= (uint)(end - bas))
            {
                int pos = bas + (int)off;
                if (pos >= slotEnd && pos <= end - 4)
                {
                    uint count = At32(pos);
                    if (count <= (uint)(end - pos - 4) / (uint)elemSlot)
                    {
                        long budget = Budget - 4 - (long)count * elemSlot;
                        if (budget >= 0)
                        {
                            Budget = budget;
                            n = (int)count;
                            return pos + 4;
                        }
                    }
                }
            }
            n = 0;
            return CountError(bas, off, slotEnd, elemSlot);
        }

        int CountError(int bas, uint off, int slotEnd, int elemSlot)
        {
            long pos = (long)bas + off;
            if (pos > End) throw FastwireException.Truncated();
            if (pos < slotEnd) throw new FastwireException(ErrorCode.BadOffset);
            if (pos + 4 > End) throw FastwireException.Truncated();
            uint count = Le.U32(B, (int)pos);
            if (count > (End - pos - 4) / elemSlot) throw FastwireException.Truncated();
            throw new FastwireException(ErrorCode.OverBudget);
        }

        /// <summary>A set optional's value block of `need` bytes.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int Optional(int bas, uint off, int slotEnd, int need)
        {
            // off == 0 fails pos >= slotEnd (slotEnd > bas); OptionalError tells which check failed.
            uint pos = (uint)bas + off; // see Enter
            long budget = Budget - need;
            if (pos >= (uint)slotEnd && (ulong)pos + (uint)need <= (uint)End && budget >= 0)
            {
                Budget = budget;
                return (int)pos;
            }
            return OptionalError(bas, off, slotEnd, need);
        }

        int OptionalError(int bas, uint off, int slotEnd, int need)
        {
            if (off == 0) throw new FastwireException(ErrorCode.BadOffset, "a set optional with offset 0");
            long pos = (long)bas + off;
            if (pos > End) throw FastwireException.Truncated();
            if (pos < slotEnd) throw new FastwireException(ErrorCode.BadOffset);
            if (pos + need > End) throw FastwireException.Truncated();
            throw new FastwireException(ErrorCode.OverBudget);
        }

        // ---- final -------------------------------------------------------------------

        /// <summary>Checks that n bytes are left at p.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public void Need(int p, int n)
        {
            if (p > End - n) throw FastwireException.Truncated();
        }

        /// <summary>A final count at p, checked against the bytes left (or the zero-size allowance).</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public int FinalCount(int p, int elemMin)
        {
            int end = End;
            if (p <= end - 4)
            {
                uint n = At32(p);
                if (elemMin > 0)
                {
                    if (n <= (uint)(end - p - 4) / (uint)elemMin) return (int)n;
                }
                else
                {
                    long left = ZeroLeft - n;
                    if (left >= 0) { ZeroLeft = left; return (int)n; }
                }
            }
            return FinalCountError(p, elemMin);
        }

        int FinalCountError(int p, int elemMin)
        {
            if ((long)p + 4 > End) throw FastwireException.Truncated();
            uint n = At32(p);
            if (elemMin > 0) throw FastwireException.Truncated();
            ZeroLeft -= n;
            throw new FastwireException(ErrorCode.OverBudget, n + " elements of zero size");
        }
    }
}
