// fastwire C# runtime: the protocol's Sender and Receiver bases (docs/transport.md,
// docs/wire-format.md "Streams"): a stream is root models one after another.
using System;
using System.Collections.Generic;

namespace Fastwire
{
    /// <summary>Where a Sender's bytes go (a socket, a buffer, a test).</summary>
    public interface ISink
    {
        void Write(byte[] data, int offset, int count);
    }

    /// <summary>A sink that collects everything in memory.</summary>
    public sealed class MemorySink : ISink
    {
        public readonly WriteBuffer Buffer = new WriteBuffer();
        public void Write(byte[] data, int offset, int count) { Buffer.Append(data, offset, count); }
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

        /// <summary>Serializes the value as one message and writes it to the sink; returns its size.</summary>
        protected int SendValue<T>(StructCodec<T> codec, T value) where T : class
        {
            lock (buffer)
            {
                int n = Final ? codec.FinalModel.Serialize(value, buffer) : codec.Model.Serialize(value, buffer);
                sink.Write(buffer.Data, 0, n);
                return n;
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

        /// <summary>Reads one message with this receiver's limits.</summary>
        protected T Read<T>(StructCodec<T> codec, byte[] buffer, int offset, int size) where T : class
        {
            return Final ? new FinalModel<T>(codec, Limits).Deserialize(buffer, offset, size)
                         : new Model<T>(codec, Limits).Deserialize(buffer, offset, size);
        }

        protected abstract bool Dispatch(uint type, byte[] buffer, int offset, int size);

        /// <summary>A message of a type this package does not send; ignored by default.</summary>
        protected virtual void OnUnknown(uint type, byte[] buffer, int offset, int size) { }
    }
}
