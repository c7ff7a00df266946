// fastwire C# runtime: the protocol's Sender and Receiver bases (docs/transport.md,
// docs/wire-format.md "Streams"): a stream is root models one after another.
using System;
using System.Runtime.CompilerServices;
using System.Collections.Generic;

namespace Fastwire
{
    /// <summary>Where a Sender's bytes go (a socket, a buffer, a test).</summary>
    public interface ISink
    {
        /// <summary>Takes one whole message, or refuses it (false: e.g. a full send queue).</summary>
        bool Write(byte[] data, int offset, int count);
    }

    /// <summary>A sink that collects everything in memory.</summary>
    public sealed class MemorySink : ISink
    {
        public readonly WriteBuffer Buffer = new WriteBuffer();
        public bool Write(byte[] data, int offset, int count) { Buffer.Append(data, offset, count); return true; }
    }

    public static class Arrays
    {
        public static T[] New<T>(int n, Func<T> make)
        {
            var a = new T[n];
            for (int i = 0; i < n; i++) a[i] = make();
            return a;
        }
    }

    public abstract class SenderBase
    {
        readonly ISink sink;
        readonly WriteBuffer buffer = new WriteBuffer(1024);
        public readonly bool Final;

        protected SenderBase(ISink sink, bool final) { this.sink = sink; Final = final; }

        /// <summary>Serializes the value as one message and hands it to the sink; false when the sink refused it.</summary>
        protected bool SendValue<T>(StructCodec<T> codec, T value) where T : class
        {
            lock (buffer)
            {
                int n = Final ? codec.FinalModel.Serialize(value, buffer) : codec.Model.Serialize(value, buffer);
                return sink.Write(buffer.Data, 0, n);
            }
        }
    }

    /// <summary>
    /// Reassembles messages from any chunking (Receive) and hands each complete one to
    /// Dispatch. Bounded memory: a message may declare at most Limits.MaxMessageSize bytes.
    /// </summary>
    public abstract class ReceiverBase
    {
        public readonly bool Final;
        public readonly Limits Limits;
        byte[] pending = new byte[0];
        int pendingSize;

        protected ReceiverBase(bool final, Limits limits) { Final = final; Limits = limits ?? Limits.Default; }

        /// <summary>Bytes received but not yet a whole message.</summary>
        public int Pending { get { return pendingSize; } }

        /// <summary>Drops a partial message (a new stream starts: the client reconnected).</summary>
        public void Reset() { pendingSize = 0; }

        /// <summary>Feeds bytes; dispatches every message completed. Throws FastwireException on malformed input.</summary>
        public void Receive(byte[] data, int offset, int count)
        {
            if (pendingSize == 0)
            {
                int used = Consume(data, offset, count);
                offset += used;
                count -= used;
                if (count == 0) return;
            }
            Keep(data, offset, count);
            int done = Consume(pending, 0, pendingSize);
            if (done > 0)
            {
                Buffer.BlockCopy(pending, done, pending, 0, pendingSize - done);
                pendingSize -= done;
            }
        }

        void Keep(byte[] data, int offset, int count)
        {
            if (pendingSize + count > pending.Length)
            {
                var n = new byte[Math.Max(pendingSize + count, Math.Min(pending.Length * 2 + 64, (int)Math.Min(Limits.MaxMessageSize + 8, int.MaxValue - 64)))];
                Buffer.BlockCopy(pending, 0, n, 0, pendingSize);
                pending = n;
            }
            Buffer.BlockCopy(data, offset, pending, pendingSize, count);
            pendingSize += count;
        }

        // Dispatches the whole messages at the start of data; returns the bytes they took.
        int Consume(byte[] data, int offset, int count)
        {
            int start = offset;
            while (count >= 8)
            {
                uint size = Le.U32(data, offset);
                if (size > Limits.MaxMessageSize) throw new FastwireException(ErrorCode.TooLarge, "a message of " + size + " bytes");
                if (size < 8) throw new FastwireException(ErrorCode.BadSize, "a message of " + size + " bytes");
                if (size > count) break;
                uint type;
                if (Final) type = Le.U32(data, offset + 4);
                else
                {
                    uint root = Le.U32(data, offset + 4);
                    if (size < 16 || root < 8 || root > size - 8) throw new FastwireException(ErrorCode.BadOffset, "a message's root body outside it");
                    type = Le.U32(data, offset + (int)root + 4);
                }
                if (!Dispatch(type, data, offset, (int)size)) OnUnknown(type, data, offset, (int)size);
                offset += (int)size;
                count -= (int)size;
            }
            return offset - start;
        }

        /// <summary>
        /// Sees every decoded message before its OnReceive hook; true when it took the message
        /// (a generated Client completes its requests here).
        /// </summary>
        protected virtual bool Intercept(object message) { return false; }

        /// <summary>Reads one message with this receiver's limits.</summary>
        protected T Read<T>(StructCodec<T> codec, byte[] buffer, int offset, int size) where T : class
        {
            return Final ? new FinalModel<T>(codec, Limits).Deserialize(buffer, offset, size)
                         : new Model<T>(codec, Limits).Deserialize(buffer, offset, size);
        }

        /// <summary>Verifies one message with this receiver's limits (a Proxy's check); throws FastwireException.</summary>
        protected void Verify<T>(StructCodec<T> codec, byte[] buffer, int offset, int size) where T : class
        {
            if (Final) new FinalModel<T>(codec, Limits).Validate(buffer, offset, size);
            else new Model<T>(codec, Limits).Validate(buffer, offset, size);
        }

        protected abstract bool Dispatch(uint type, byte[] buffer, int offset, int size);

        /// <summary>A message of a type this package does not send; ignored by default.</summary>
        protected virtual void OnUnknown(uint type, byte[] buffer, int offset, int size) { }
    }

    public enum RequestErrorKind { Rejected, Timeout, Disconnected, Overflow }

    /// <summary>Why a request failed; Reject holds the [reject] message when it was rejected.</summary>
    public sealed class RequestException : Exception
    {
        public RequestErrorKind Kind { get; private set; }
        public object Reject { get; private set; }
        public RequestException(RequestErrorKind kind, string message, object reject = null) : base(message)
        {
            Kind = kind; Reject = reject;
        }
    }

    /// <summary>A generated Client: its requests, and where it sends.</summary>
    public interface IRequester
    {
        RequestTracker Requests { get; }
        void Attach(ISink sink);
    }

    /// <summary>
    /// Requests waiting for their response, matched on the [id] uuid. Timeouts are checked
    /// by Tick, which the transport calls on its timer (no application watchdog).
    /// </summary>
    public sealed class RequestTracker
    {
        sealed class Entry
        {
            public Action<object> Done;
            public Action<Exception> Fail;
            public Type Response;
            public Type[] Rejects;
            public long Deadline; // Stopwatch ticks
        }

        readonly Dictionary<Guid, Entry> pending = new Dictionary<Guid, Entry>();
        static readonly System.Diagnostics.Stopwatch Clock = System.Diagnostics.Stopwatch.StartNew();
        /// <summary>The timeout of a request made without one.</summary>
        public TimeSpan DefaultTimeout = TimeSpan.FromSeconds(10);

        public int Count { get { lock (pending) return pending.Count; } }

        /// <summary>Registers a request, then sends it with `send`; the task completes with the response.</summary>
        public System.Threading.Tasks.Task<T> Start<T>(Guid id, Type[] rejects, Func<bool> send, TimeSpan? timeout) where T : class
        {
            var tcs = new System.Threading.Tasks.TaskCompletionSource<T>(System.Threading.Tasks.TaskCreationOptions.RunContinuationsAsynchronously);
            var e = new Entry
            {
                Done = m => tcs.TrySetResult((T)m),
                Fail = x => tcs.TrySetException(x),
                Response = typeof(T),
                Rejects = rejects,
                Deadline = Clock.ElapsedTicks + (long)((timeout ?? DefaultTimeout).TotalSeconds * System.Diagnostics.Stopwatch.Frequency),
            };
            lock (pending)
            {
                if (pending.ContainsKey(id)) { tcs.TrySetException(new InvalidOperationException("a request with this id is pending")); return tcs.Task; }
                pending[id] = e;
            }
            bool sent;
            try { sent = send(); }
            catch (RequestException x) { Remove(id); tcs.TrySetException(x); return tcs.Task; }
            if (!sent)
            {
                Remove(id);
                tcs.TrySetException(new RequestException(RequestErrorKind.Overflow, "the request could not be queued"));
            }
            return tcs.Task;
        }

        void Remove(Guid id) { lock (pending) pending.Remove(id); }

        /// <summary>A response or a reject with this id: completes its request (true), else false.</summary>
        public bool Complete(Guid id, object message)
        {
            Entry e;
            lock (pending)
            {
                if (!pending.TryGetValue(id, out e)) return false;
                Type t = message.GetType();
                bool reject = Array.IndexOf(e.Rejects, t) >= 0;
                if (t != e.Response && !reject) return false;
                pending.Remove(id);
                if (reject)
                {
                    e.Fail(new RequestException(RequestErrorKind.Rejected, "rejected: " + t.Name, message));
                    return true;
                }
            }
            e.Done(message);
            return true;
        }

        /// <summary>Fails the requests whose time is up.</summary>
        public void Tick()
        {
            long now = Clock.ElapsedTicks;
            List<Entry> late = null;
            lock (pending)
            {
                foreach (var kv in pending)
                    if (kv.Value.Deadline <= now) (late ?? (late = new List<Entry>())).Add(kv.Value);
                if (late == null) return;
                var ids = new List<Guid>();
                foreach (var kv in pending) if (kv.Value.Deadline <= now) ids.Add(kv.Key);
                foreach (var id in ids) pending.Remove(id);
            }
            foreach (var e in late) e.Fail(new RequestException(RequestErrorKind.Timeout, "timeout"));
        }

        /// <summary>Fails every pending request (the connection dropped or closed).</summary>
        public void FailAll(RequestErrorKind kind, string reason)
        {
            List<Entry> all;
            lock (pending)
            {
                all = new List<Entry>(pending.Values);
                pending.Clear();
            }
            foreach (var e in all) e.Fail(new RequestException(kind, reason));
        }
    }
}

namespace Fastwire
{
    /// <summary>Selects a generated struct's constructor that sets no defaults (readers set every field).</summary>
    public sealed class Bare
    {
        public static readonly Bare Value = new Bare();
        Bare() { }
    }

    /// <summary>Strings and bytes in both formats, for generated code.</summary>
    public static class Wire
    {
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void VPutString(WriteBuffer w, int slot, int bas, string v)
        {
            int at = w.PutAscii(v);
            if (at < 0) { VPutStringSlow(w, slot, bas, v); return; }
            w.PutU32(slot, (uint)(at - bas));
        }

        static void VPutStringSlow(WriteBuffer w, int slot, int bas, string v)
        {
            if (v == null) throw new FastwireException(ErrorCode.WrongType, "a null string");
            int n = Utf8.Count(v);
            int at = w.Reserve(4 + n);
            byte[] b = w.Data;
            Le.Put(b, at, (uint)n);
            Utf8.Encode(v, b, at + 4);
            Le.Put(b, slot, (uint)(at - bas));
        }

        public static void VPutBytes(WriteBuffer w, int slot, int bas, byte[] v)
        {
            int at = w.Reserve(4 + v.Length);
            byte[] b = w.Data;
            Le.Put(b, at, (uint)v.Length);
            Buffer.BlockCopy(v, 0, b, at + 4, v.Length);
            Le.Put(b, slot, (uint)(at - bas));
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static string VGetString(Reader r, int slot, int bas)
        {
            uint off = r.At32(slot);
            if (off == 0) return "";
            int p = r.Block(bas, off, slot + 4);
            return Utf8.DecodeAt(r, p, r.Stored);
        }

        public static byte[] VGetBytes(Reader r, int slot, int bas)
        {
            uint off = r.At32(slot);
            if (off == 0) return new byte[0];
            int n;
            int p = r.Block(bas, off, slot + 4, out n);
            var v = new byte[n];
            Buffer.BlockCopy(r.B, p, v, 0, n);
            return v;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void VCheckText(Reader r, int slot, int bas)
        {
            uint off = r.At32(slot);
            if (off != 0) r.CheckBlock(bas, off, slot + 4);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void FPutString(WriteBuffer w, string v)
        {
            if (w.PutAscii(v) < 0) FPutStringSlow(w, v);
        }

        static void FPutStringSlow(WriteBuffer w, string v)
        {
            if (v == null) throw new FastwireException(ErrorCode.WrongType, "a null string");
            int n = Utf8.Count(v);
            int at = w.Reserve(4 + n);
            Le.Put(w.Data, at, (uint)n);
            Utf8.Encode(v, w.Data, at + 4);
        }

        public static void FPutBytes(WriteBuffer w, byte[] v)
        {
            int at = w.Reserve(4 + v.Length);
            Le.Put(w.Data, at, (uint)v.Length);
            Buffer.BlockCopy(v, 0, w.Data, at + 4, v.Length);
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        static int Length(Reader r, int p)
        {
            if ((long)p + 4 > r.End) throw FastwireException.Truncated();
            uint n = r.At32(p);
            if (n > r.End - (long)p - 4) throw FastwireException.Truncated();
            return (int)n;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static string FGetString(Reader r, ref int p)
        {
            int n = Length(r, p);
            string v = Utf8.DecodeAt(r, p + 4, n);
            p += 4 + n;
            return v;
        }

        /// <summary>FGetString for generated code: reads at p, leaves the position after it in r.Pos.</summary>
        public static string FGetStringAt(Reader r, int p)
        {
            int n = Length(r, p);
            r.Pos = p + 4 + n;
            return Utf8.DecodeAt(r, p + 4, n);
        }

        public static byte[] FGetBytesAt(Reader r, int p)
        {
            int n = Length(r, p);
            var v = new byte[n];
            Buffer.BlockCopy(r.B, p + 4, v, 0, n);
            r.Pos = p + 4 + n;
            return v;
        }

        public static byte[] FGetBytes(Reader r, ref int p)
        {
            int n = Length(r, p);
            var v = new byte[n];
            Buffer.BlockCopy(r.B, p + 4, v, 0, n);
            p += 4 + n;
            return v;
        }

        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void FCheckText(Reader r, ref int p)
        {
            p += 4 + Length(r, p);
        }

        /// <summary>Checks a final string or bytes at p; returns the position after it.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static int FSkipText(Reader r, int p)
        {
            int end = r.End;
            if (p <= end - 4)
            {
                uint n = r.At32(p);
                if (n <= (uint)(end - p - 4)) return p + 4 + (int)n;
            }
            throw FastwireException.Truncated();
        }
    }
}
