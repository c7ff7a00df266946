// fastwire C# runtime: the protocol over TCP (docs/transport.md, "The contract"), on
// System.Net.Sockets. A connection reads with one outstanding receive at a time (so its
// messages are handled in order, one at a time), writes from a bounded queue, and checks
// its timeouts on its owner's timer (a quarter of the shortest timeout, 5..250 ms).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace Fastwire.Net
{
    public enum Overflow { Disconnect, Fail, Block }

    /// <summary>The policies of docs/transport.md, with its defaults.</summary>
    public sealed class Options
    {
        public long MaxQueuedBytes = 8L << 20;
        public Overflow Overflow = Overflow.Disconnect;
        public TimeSpan WriteTimeout = TimeSpan.FromSeconds(10);
        public TimeSpan MessageTimeout = TimeSpan.FromSeconds(10);
        /// <summary>Zero: off.</summary>
        public TimeSpan IdleTimeout = TimeSpan.Zero;
        public Limits ReceiveLimits = Limits.Default;
        public int MaxConnections = 10000;
        public TimeSpan ConnectTimeout = TimeSpan.FromSeconds(5);
        public TimeSpan RequestTimeout = TimeSpan.FromSeconds(10);
        public TimeSpan ShutdownTimeout = TimeSpan.FromSeconds(5);

        internal int TickMs
        {
            get
            {
                double shortest = Math.Min(Math.Min(WriteTimeout.TotalMilliseconds, MessageTimeout.TotalMilliseconds),
                                           Math.Min(RequestTimeout.TotalMilliseconds, ShutdownTimeout.TotalMilliseconds));
                if (IdleTimeout > TimeSpan.Zero) shortest = Math.Min(shortest, IdleTimeout.TotalMilliseconds);
                return (int)Math.Max(5, Math.Min(250, shortest / 4));
            }
        }
    }

    /// <summary>
    /// One connection: a receiver for what arrives, and (as an ISink) the send queue of
    /// what its Sender writes. Send from any thread.
    /// </summary>
    public sealed class Connection : ISink
    {
        static readonly Stopwatch Clock = Stopwatch.StartNew();
        readonly Socket socket;
        readonly Options o;
        readonly Action<string> log;
        readonly Action<Connection, string> onClosed;
        ReceiverBase receiver;
        readonly byte[] readBuffer = new byte[16384];
        readonly object gate = new object();
        WriteBuffer queue = new WriteBuffer(4096), spare = new WriteBuffer(4096);
        bool writing, shuttingDown, sentFin, inputStopped, closed, peerClosed;
        long lastProgress, messageStart, lastReceive, shutdownDeadline;
        long received;

        [ThreadStatic] static Connection receiving; // the connection whose receive callback this thread runs

        public readonly long Id;
        public readonly string Remote;
        public string Name { get; private set; }

        internal Connection(Socket socket, long id, string name, Options o, Action<string> log, Action<Connection, string> onClosed)
        {
            this.socket = socket; Id = id; Name = name; this.o = o; this.log = log; this.onClosed = onClosed;
            socket.NoDelay = true;
            Remote = socket.RemoteEndPoint == null ? "?" : socket.RemoteEndPoint.ToString();
            lastProgress = lastReceive = Now;
        }

        static long Now { get { return Clock.ElapsedMilliseconds; } }

        internal void Start(ReceiverBase r)
        {
            receiver = r;
            Receive();
        }

        public bool IsClosed { get { lock (gate) return closed; } }

        /// <summary>Bytes queued and not yet written to the socket.</summary>
        public long Queued { get { lock (gate) return queue.Size; } }

        /// <summary>Queues one whole message (ISink); false when it was not queued (see Options.Overflow).</summary>
        public bool Write(byte[] data, int offset, int count)
        {
            lock (gate)
            {
                if (closed || shuttingDown) return false;
                if (queue.Size + count > o.MaxQueuedBytes)
                {
                    if (o.Overflow == Overflow.Fail) return false;
                    if (o.Overflow == Overflow.Disconnect)
                    {
                        string why = "send queue full (" + queue.Size + " bytes queued, " + count + " more, limit " + o.MaxQueuedBytes + ")";
                        ThreadPool.QueueUserWorkItem(_ => Abort(why));
                        return false;
                    }
                    if (receiving == this) return false; // blocking here would stop this connection's reads: fail at once
                    long until = Now + (long)o.WriteTimeout.TotalMilliseconds;
                    while (queue.Size + count > o.MaxQueuedBytes && !closed)
                    {
                        long left = until - Now;
                        if (left <= 0) return false;
                        Monitor.Wait(gate, (int)Math.Min(left, 100));
                    }
                    if (closed) return false;
                }
                queue.Append(data, offset, count);
                if (!writing) StartWrite();
                return true;
            }
        }

        // Under gate: writes everything queued at once.
        void StartWrite()
        {
            var b = queue;
            queue = spare;
            queue.Reset();
            spare = b;
            writing = true;
            WriteFrom(0);
        }

        void WriteFrom(int at)
        {
            try { socket.BeginSend(spare.Data, at, spare.Size - at, SocketFlags.None, Written, at); }
            catch (Exception e) { ThreadPool.QueueUserWorkItem(_ => Abort("write failed: " + e.Message)); }
        }

        void Written(IAsyncResult ar)
        {
            int n;
            try { n = socket.EndSend(ar); }
            catch (Exception e) { Abort("write failed: " + e.Message); return; }
            lock (gate)
            {
                lastProgress = Now;
                int at = (int)ar.AsyncState + n;
                if (at < spare.Size) { WriteFrom(at); return; }
                spare.Reset();
                if (queue.Size > 0 && !closed) { StartWrite(); return; }
                writing = false;
                Monitor.PulseAll(gate);
                if (shuttingDown && !sentFin) Fin();
            }
        }

        // Under gate: the queue is flushed; half-close.
        void Fin()
        {
            sentFin = true;
            try { socket.Shutdown(SocketShutdown.Send); }
            catch (Exception) { }
            if (peerClosed)
            {
                string why = ClosingReason;
                ThreadPool.QueueUserWorkItem(_ => Abort(why));
            }
        }

        void Receive()
        {
            try { socket.BeginReceive(readBuffer, 0, readBuffer.Length, SocketFlags.None, Received, null); }
            catch (Exception e) { Abort("read failed: " + e.Message); }
        }

        void Received(IAsyncResult ar)
        {
            int n;
            try { n = socket.EndReceive(ar); }
            catch (ObjectDisposedException) { return; }
            catch (Exception e) { Abort("read failed: " + e.Message); return; }
            if (n == 0)
            {
                int pending = receiver.Pending;
                string why = pending > 0
                    ? "peer closed the connection in the middle of a message (" + pending + " bytes received)"
                    : "peer closed the connection";
                bool fin;
                lock (gate) fin = sentFin;
                if (fin || pending > 0) { Abort(fin && pending == 0 ? ClosingReason ?? why : why); return; }
                lock (gate) peerClosed = true;
                Shutdown(why, false); // flush what is queued for it, then close
                return;
            }
            lock (gate)
            {
                lastReceive = Now;
                received += n;
                if (inputStopped || closed) { if (!closed) Receive(); return; }
            }
            receiving = this;
            try { receiver.Receive(readBuffer, 0, n); }
            catch (FastwireException e) { Abort("protocol error: " + e.Message + " at stream offset " + received); return; }
            catch (Exception e) { Abort("handler failed: " + e.GetType().Name + ": " + e.Message); return; }
            finally { receiving = null; }
            lock (gate)
            {
                if (receiver.Pending == 0) messageStart = 0;
                else if (messageStart == 0) messageStart = Now;
            }
            Receive();
        }

        internal string ClosingReason;

        /// <summary>
        /// Graceful close: no more sends, flush the queue, half-close, and close when the peer
        /// closes its side (or at ShutdownTimeout). stopInput: discard what arrives meanwhile.
        /// </summary>
        public void Shutdown(string reason, bool stopInput)
        {
            lock (gate)
            {
                if (closed) return;
                if (stopInput) inputStopped = true;
                if (shuttingDown) return;
                shuttingDown = true;
                ClosingReason = reason;
                shutdownDeadline = Now + (long)o.ShutdownTimeout.TotalMilliseconds;
                if (!writing) Fin();
            }
        }

        /// <summary>Closes at once (what is queued is dropped).</summary>
        public void Abort(string reason)
        {
            lock (gate)
            {
                if (closed) return;
                closed = true;
                Monitor.PulseAll(gate);
            }
            try { socket.Close(); } catch (Exception) { }
            if (log != null) log(Name + " closed: " + reason);
            onClosed(this, reason);
        }

        /// <summary>The owner's timer: timeouts of this connection.</summary>
        internal void Tick()
        {
            string why = null;
            lock (gate)
            {
                if (closed) return;
                long now = Now;
                if (messageStart != 0 && now - messageStart > o.MessageTimeout.TotalMilliseconds)
                    why = "message incomplete after " + (long)o.MessageTimeout.TotalMilliseconds + " ms (" + receiver.Pending + " bytes received)";
                else if (writing && now - lastProgress > o.WriteTimeout.TotalMilliseconds)
                    why = "peer not reading: " + (queue.Size + spare.Size) + " bytes unsent for " + (long)o.WriteTimeout.TotalMilliseconds + " ms";
                else if (shuttingDown && now > shutdownDeadline)
                    why = "shutdown timed out with " + (queue.Size + spare.Size) + " bytes unsent";
                else if (o.IdleTimeout > TimeSpan.Zero && !shuttingDown && now - lastReceive > o.IdleTimeout.TotalMilliseconds)
                {
                    ThreadPool.QueueUserWorkItem(_ => Shutdown("idle for " + (long)o.IdleTimeout.TotalMilliseconds + " ms", false));
                    return;
                }
            }
            if (why != null) Abort(why);
        }
    }

    static class Addresses
    {
        public static IPAddress Resolve(string host)
        {
            IPAddress a;
            if (IPAddress.TryParse(host, out a)) return a;
            foreach (var x in Dns.GetHostAddresses(host)) return x;
            throw new SocketException((int)SocketError.HostNotFound);
        }
    }

    /// <summary>
    /// A server: listens on one address (0.0.0.0 or :: for all), makes one handler (a
    /// generated Receiver subclass) per connection with the connection to reply on, and
    /// stops gracefully (every reply queued before Stop reaches its client).
    /// </summary>
    public sealed class Server
    {
        readonly Func<Connection, ReceiverBase> factory;
        readonly Options o;
        readonly Action<string> log;
        readonly IPAddress address;
        readonly int requestedPort;
        Socket listener;
        Timer timer;
        readonly Dictionary<long, Connection> live = new Dictionary<long, Connection>();
        long ids, accepted;
        bool stopping;

        public Server(Func<Connection, ReceiverBase> factory, string host, int port, Options options = null, Action<string> log = null)
        {
            this.factory = factory; o = options ?? new Options(); this.log = log;
            address = Addresses.Resolve(host);
            requestedPort = port;
        }

        public int Port { get; private set; }
        public long Accepted { get { return Interlocked.Read(ref accepted); } }
        public int Connections { get { lock (live) return live.Count; } }

        public void Start()
        {
            listener = new Socket(address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
            if (address.Equals(IPAddress.IPv6Any)) { try { listener.DualMode = true; } catch (Exception) { } }
            listener.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
            listener.Bind(new IPEndPoint(address, requestedPort));
            listener.Listen(1024);
            Port = ((IPEndPoint)listener.LocalEndPoint).Port;
            timer = new Timer(_ => Tick(), null, o.TickMs, o.TickMs);
            Accept();
        }

        void Accept()
        {
            try { listener.BeginAccept(Accepted_, null); }
            catch (ObjectDisposedException) { }
        }

        void Accepted_(IAsyncResult ar)
        {
            Socket s;
            try { s = listener.EndAccept(ar); }
            catch (ObjectDisposedException) { return; }
            catch (SocketException) { Accept(); return; }
            Accept();
            long id = Interlocked.Increment(ref ids);
            string name = "connection " + id + " " + s.RemoteEndPoint;
            lock (live)
            {
                if (stopping || live.Count >= o.MaxConnections)
                {
                    if (log != null) log(name + " refused");
                    try { s.Close(); } catch (Exception) { }
                    return;
                }
            }
            var c = new Connection(s, id, name, o, log, Closed);
            ReceiverBase handler;
            try { handler = factory(c); }
            catch (Exception e) { c.Abort("handler failed: " + e.Message); return; }
            lock (live) live[id] = c;
            Interlocked.Increment(ref accepted);
            if (log != null) log(name + " accepted");
            c.Start(handler);
        }

        void Closed(Connection c, string reason)
        {
            lock (live) { live.Remove(c.Id); Monitor.PulseAll(live); }
        }

        void Tick()
        {
            Connection[] all;
            lock (live) { all = new Connection[live.Count]; live.Values.CopyTo(all, 0); }
            foreach (var c in all) c.Tick();
        }

        /// <summary>Stop accepting, discard further input, flush every queue, close; waits (at most ShutdownTimeout + a tick).</summary>
        public void Stop()
        {
            Connection[] all;
            lock (live)
            {
                stopping = true;
                all = new Connection[live.Count];
                live.Values.CopyTo(all, 0);
            }
            try { listener.Close(); } catch (Exception) { }
            foreach (var c in all) c.Shutdown("server stopping", true);
            long until = Environment.TickCount + (long)o.ShutdownTimeout.TotalMilliseconds + 1000;
            lock (live)
                while (live.Count > 0 && Environment.TickCount < until) Monitor.Wait(live, 50);
            if (timer != null) timer.Dispose();
        }
    }

    /// <summary>
    /// A client: one connection; its handler is a generated Client (requests with their own
    /// timeouts, failing with `disconnected` on a drop) or any Receiver; send through the
    /// handler's Sender, or through a Sender made on this client (an ISink).
    /// </summary>
    public sealed class Client : ISink
    {
        readonly ReceiverBase handler;
        readonly Options o;
        readonly Action<string> log;
        Connection conn;
        Timer timer;
        readonly ManualResetEvent down = new ManualResetEvent(false);

        public Client(ReceiverBase handler, Options options = null, Action<string> log = null)
        {
            this.handler = handler; o = options ?? new Options(); this.log = log;
            var r = handler as IRequester;
            if (r != null) r.Requests.DefaultTimeout = o.RequestTimeout;
        }

        public bool Connected { get { var c = conn; return c != null && !c.IsClosed; } }

        public void Connect(string host, int port)
        {
            IPAddress a = Addresses.Resolve(host);
            var s = new Socket(a.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
            var ar = s.BeginConnect(new IPEndPoint(a, port), null, null);
            if (!ar.AsyncWaitHandle.WaitOne(o.ConnectTimeout))
            {
                s.Close();
                throw new SocketException((int)SocketError.TimedOut);
            }
            s.EndConnect(ar);
            down.Reset();
            conn = new Connection(s, 1, "connection to " + host + ":" + port, o, log, Closed);
            var r = handler as IRequester;
            if (r != null) r.Attach(this);
            timer = new Timer(_ => Tick(), null, o.TickMs, o.TickMs);
            conn.Start(handler);
        }

        void Tick()
        {
            var c = conn;
            if (c != null) c.Tick();
            var r = handler as IRequester;
            if (r != null) r.Requests.Tick();
        }

        void Closed(Connection c, string reason)
        {
            var r = handler as IRequester;
            if (r != null) r.Requests.FailAll(RequestErrorKind.Disconnected, "disconnected: " + reason);
            down.Set();
        }

        public bool Write(byte[] data, int offset, int count)
        {
            var c = conn;
            if (c == null || c.IsClosed) throw new RequestException(RequestErrorKind.Disconnected, "not connected");
            return c.Write(data, offset, count);
        }

        public long Queued { get { var c = conn; return c == null ? 0 : c.Queued; } }

        /// <summary>Flush what is queued, half-close, keep reading until the server closes (or ShutdownTimeout).</summary>
        public void Close()
        {
            var c = conn;
            if (c == null) return;
            c.Shutdown("closed by the client", false);
            down.WaitOne(o.ShutdownTimeout + TimeSpan.FromSeconds(1));
            if (timer != null) timer.Dispose();
        }
    }
}
