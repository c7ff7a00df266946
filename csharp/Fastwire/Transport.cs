// fastwire C# runtime: the protocol over TCP (docs/transport.md, "The contract"), on
// System.Net.Sockets. A connection reads with one outstanding receive at a time (so its
// messages are handled in order, one at a time), writes from a bounded queue, and checks
// its timeouts on its owner's timer (a quarter of the shortest timeout, 5..250 ms).
// With Options.Tls the same bytes go through an SslStream (TLS 1.2), the handshake within
// ConnectTimeout.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;

namespace Fastwire.Net
{
    public enum Overflow { Disconnect, Fail, Block }

    /// <summary>
    /// TLS for a server (its certificate, with the private key) or a client (whom it
    /// trusts). TLS 1.2 (what netstandard2.0 names; the platform may negotiate newer).
    /// </summary>
    public sealed class Tls
    {
        /// <summary>Server: its certificate with its private key, e.g. new X509Certificate2("server.p12", password).</summary>
        public X509Certificate2 Certificate;
        /// <summary>Client: a CA (or self-signed) certificate trusted besides the system's; null: the system's only.</summary>
        public X509Certificate2 TrustedCa;
        /// <summary>Client: the name the server's certificate must carry (null: the host given to Connect).</summary>
        public string ServerName;
        public SslProtocols Protocols = SslProtocols.Tls12;

        public static Tls ForServer(X509Certificate2 certificate) { return new Tls { Certificate = certificate }; }
        public static Tls ForClient(X509Certificate2 trustedCa = null) { return new Tls { TrustedCa = trustedCa }; }

        // The client's check: the system's verdict, or (for an unknown root only) a chain that
        // ends at TrustedCa and a certificate that names the host (checked here: Mono reports
        // no name mismatch once the chain has failed). Anything else is refused.
        internal bool Validate(string host, X509Certificate cert, SslPolicyErrors errors)
        {
            if (errors == SslPolicyErrors.None) return true;
            if (errors != SslPolicyErrors.RemoteCertificateChainErrors || TrustedCa == null || cert == null) return false;
            var c2 = new X509Certificate2(cert);
            using (var ch = new X509Chain())
            {
                ch.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
                ch.ChainPolicy.VerificationFlags = X509VerificationFlags.AllowUnknownCertificateAuthority;
                ch.ChainPolicy.ExtraStore.Add(TrustedCa);
                if (!ch.Build(c2)) return false;
                var root = ch.ChainElements[ch.ChainElements.Count - 1].Certificate;
                if (root.Thumbprint != TrustedCa.Thumbprint) return false;
            }
            return Names(c2, host);
        }

        // RFC 6125: the subjectAltName's DNS names (one leading "*." label) and IP addresses;
        // the subject's CN only when there is no subjectAltName.
        internal static bool Names(X509Certificate2 cert, string host)
        {
            IPAddress ip;
            bool isIp = IPAddress.TryParse(host, out ip);
            foreach (var ext in cert.Extensions)
            {
                if (ext.Oid == null || ext.Oid.Value != "2.5.29.17") continue;
                byte[] d = ext.RawData;
                int p = 0, end;
                if (!Der(d, ref p, out end) || d[0] != 0x30) return false;
                while (p < end)
                {
                    byte tag = d[p];
                    int vend;
                    if (!Der(d, ref p, out vend)) return false;
                    if (tag == 0x82 && !isIp)
                    {
                        string name = System.Text.Encoding.ASCII.GetString(d, p, vend - p);
                        if (DnsMatch(name, host)) return true;
                    }
                    else if (tag == 0x87 && isIp)
                    {
                        var raw = new byte[vend - p];
                        Buffer.BlockCopy(d, p, raw, 0, raw.Length);
                        if (raw.Length == 4 || raw.Length == 16)
                        {
                            var a = new IPAddress(raw);
                            if (a.Equals(ip) || (ip.IsIPv4MappedToIPv6 && a.Equals(ip.MapToIPv4()))) return true;
                        }
                    }
                    p = vend;
                }
                return false;
            }
            return !isIp && DnsMatch(cert.GetNameInfo(X509NameType.SimpleName, false) ?? "", host);
        }

        // A DER tag and length at p: moves p to the value, sets its end.
        static bool Der(byte[] d, ref int p, out int end)
        {
            end = 0;
            if (p + 2 > d.Length) return false;
            int len = d[p + 1];
            p += 2;
            if (len >= 0x80)
            {
                int k = len & 0x7F;
                if (k == 0 || k > 3 || p + k > d.Length) return false;
                len = 0;
                for (int i = 0; i < k; i++) len = len << 8 | d[p++];
            }
            end = p + len;
            return end <= d.Length;
        }

        static bool DnsMatch(string pattern, string host)
        {
            pattern = pattern.TrimEnd('.').ToLowerInvariant();
            host = host.TrimEnd('.').ToLowerInvariant();
            if (pattern == host) return true;
            if (!pattern.StartsWith("*.", StringComparison.Ordinal)) return false;
            int dot = host.IndexOf('.');
            return dot > 0 && host.Substring(dot) == pattern.Substring(1);
        }
    }

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
        /// <summary>Null: plain TCP.</summary>
        public Tls Tls;
        /// <summary>Client: after a drop, reconnect after this delay, doubling up to ReconnectMaxDelay. Zero: off.</summary>
        public TimeSpan ReconnectDelay = TimeSpan.Zero;
        public TimeSpan ReconnectMaxDelay = TimeSpan.FromSeconds(5);

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
        readonly Stream stream; // the SslStream over the socket with TLS; null: the socket itself
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

        internal Connection(Socket socket, Stream stream, long id, string name, Options o, Action<string> log, Action<Connection, string> onClosed)
        {
            this.socket = socket; this.stream = stream; Id = id; Name = name; this.o = o; this.log = log; this.onClosed = onClosed;
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
            Monitor.PulseAll(gate); // the queue is empty again: senders waiting for room (block) go on
            WriteFrom(0);
        }

        void WriteFrom(int at)
        {
            try
            {
                // ReadAsync/WriteAsync: SslStream overrides them to run a read and a write at
                // once; its Begin/End forms (Stream's defaults on Mono) serialize them.
                if (stream != null) stream.WriteAsync(spare.Data, at, spare.Size - at).ContinueWith(WrittenStream, at);
                else socket.BeginSend(spare.Data, at, spare.Size - at, SocketFlags.None, Written, at);
            }
            catch (Exception e) { ThreadPool.QueueUserWorkItem(_ => Abort("write failed: " + e.Message)); }
        }

        void WrittenStream(System.Threading.Tasks.Task t, object state)
        {
            if (t.IsFaulted || t.IsCanceled) { Abort("write failed: " + (t.Exception != null ? Server.Innermost(t.Exception) : "canceled")); return; }
            int at = (int)state, n;
            lock (gate) n = spare.Size - at; // a stream writes all it was given
            Wrote(at, n);
        }

        void Written(IAsyncResult ar)
        {
            int n;
            try { n = socket.EndSend(ar); }
            catch (Exception e) { Abort("write failed: " + e.Message); return; }
            Wrote((int)ar.AsyncState, n);
        }

        void Wrote(int from, int n)
        {
            lock (gate)
            {
                lastProgress = Now;
                int at = from + n;
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
            try
            {
                if (stream != null) stream.ReadAsync(readBuffer, 0, readBuffer.Length).ContinueWith(ReceivedStream);
                else socket.BeginReceive(readBuffer, 0, readBuffer.Length, SocketFlags.None, Received, null);
            }
            catch (ObjectDisposedException) { }
            catch (Exception e) { Abort("read failed: " + e.Message); }
        }

        void ReceivedStream(System.Threading.Tasks.Task<int> t)
        {
            int n;
            try { n = t.Result; }
            catch (Exception e0)
            {
                Exception e = e0 is AggregateException && e0.InnerException != null ? e0.InnerException : e0;
                if (e is ObjectDisposedException) return;
                lock (gate) if (closed) return;
                // A TLS peer that closes the socket after its flush without a close_notify (as
                // the contract's shutdown does) ends the stream with an error here: at the end
                // of a message, that is the peer's close.
                if (receiver.Pending == 0 && IsEndOfStream(e)) n = 0;
                else { Abort("read failed: " + e.Message); return; }
            }
            OnRead(n);
        }

        static bool IsEndOfStream(Exception e)
        {
            for (var x = e; x != null; x = x.InnerException)
            {
                var se = x as SocketException;
                if (se != null) return se.SocketErrorCode == SocketError.ConnectionReset || se.SocketErrorCode == SocketError.Shutdown;
            }
            return e is IOException;
        }

        void Received(IAsyncResult ar)
        {
            int n;
            try { n = socket.EndReceive(ar); }
            catch (ObjectDisposedException) { return; }
            catch (Exception e) { Abort("read failed: " + e.Message); return; }
            OnRead(n);
        }

        void OnRead(int n)
        {
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
            if (stream != null) { try { stream.Dispose(); } catch (Exception) { } }
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
    /// The owners' periodic ticks, on one background thread of this runtime; each due tick
    /// runs on the thread pool. Not System.Threading.Timer: a process may exit with clients
    /// or servers still open, and Mono aborts its timer thread at exit; when that thread is
    /// re-sorting its live timers at that moment, the abort surfaces as an unhandled
    /// InvalidOperationException ("Failed to compare two elements") and the process fails.
    /// </summary>
    static class Ticks
    {
        sealed class Entry
        {
            public Action Tick;
            public long PeriodMs;
            public long Next;
        }

        static readonly List<Entry> live = new List<Entry>();
        static readonly Stopwatch clock = Stopwatch.StartNew();
        static Thread thread;

        public static object Start(Action tick, int periodMs)
        {
            var e = new Entry { Tick = tick, PeriodMs = Math.Max(1, periodMs) };
            lock (live)
            {
                e.Next = clock.ElapsedMilliseconds + e.PeriodMs;
                live.Add(e);
                if (thread == null)
                {
                    thread = new Thread(Run) { IsBackground = true, Name = "fastwire ticks" };
                    thread.Start();
                }
                Monitor.Pulse(live);
            }
            return e;
        }

        public static void Stop(object ticket)
        {
            lock (live) live.Remove((Entry)ticket);
        }

        static void Run()
        {
            var due = new List<Action>();
            while (true)
            {
                lock (live)
                {
                    long now = clock.ElapsedMilliseconds;
                    long wait = Timeout.Infinite;
                    foreach (var e in live)
                    {
                        if (e.Next <= now)
                        {
                            due.Add(e.Tick);
                            e.Next = now + e.PeriodMs;
                        }
                        long left = e.Next - now;
                        if (wait == Timeout.Infinite || left < wait) wait = left;
                    }
                    if (due.Count == 0)
                    {
                        Monitor.Wait(live, (int)wait);
                        continue;
                    }
                }
                foreach (var tick in due) ThreadPool.UnsafeQueueUserWorkItem(RunTick, tick);
                due.Clear();
            }
        }

        static void RunTick(object tick)
        {
            ((Action)tick)();
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
        object timer;
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
            timer = Ticks.Start(Tick, o.TickMs);
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
            if (o.Tls != null) { Handshake(s, id, name); return; }
            Admit(s, null, id, name);
        }

        // TLS: the handshake must be done within ConnectTimeout, or the connection is dropped.
        void Handshake(Socket s, long id, string name)
        {
            SslStream ssl;
            try { ssl = new SslStream(new NetworkStream(s, true), false); }
            catch (Exception e) { if (log != null) log(name + " closed: TLS: " + e.Message); s.Close(); return; }
            int done = 0;
            var watchdog = new Timer(_ =>
            {
                if (Interlocked.Exchange(ref done, 1) != 0) return;
                if (log != null) log(name + " closed: TLS handshake not done in " + (long)o.ConnectTimeout.TotalMilliseconds + " ms");
                try { s.Close(); } catch (Exception) { }
            }, null, (long)o.ConnectTimeout.TotalMilliseconds, Timeout.Infinite);
            AsyncCallback finished = ar =>
            {
                Exception failure = null;
                try { ssl.EndAuthenticateAsServer(ar); }
                catch (Exception e) { failure = e; }
                watchdog.Dispose();
                if (Interlocked.Exchange(ref done, 1) != 0) return; // timed out: already closed
                if (failure != null)
                {
                    if (log != null) log(name + " closed: TLS handshake failed: " + Innermost(failure));
                    try { s.Close(); } catch (Exception) { }
                    return;
                }
                Admit(s, ssl, id, name);
            };
            try { ssl.BeginAuthenticateAsServer(o.Tls.Certificate, false, o.Tls.Protocols, false, finished, null); }
            catch (Exception e)
            {
                watchdog.Dispose();
                if (log != null) log(name + " closed: TLS handshake failed: " + Innermost(e));
                try { s.Close(); } catch (Exception) { }
            }
        }

        internal static string Innermost(Exception e)
        {
            while (e.InnerException != null) e = e.InnerException;
            return e.Message;
        }

        void Admit(Socket s, Stream stream, long id, string name)
        {
            lock (live)
            {
                if (stopping)
                {
                    if (log != null) log(name + " refused");
                    try { s.Close(); } catch (Exception) { }
                    return;
                }
            }
            var c = new Connection(s, stream, id, name, o, log, Closed);
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
            if (timer != null) Ticks.Stop(timer);
        }
    }

    /// <summary>
    /// A client: one connection; its handler is a generated Client (requests with their own
    /// timeouts, failing with `disconnected` on a drop) or any Receiver; send through the
    /// handler's Sender, or through a Sender made on this client (an ISink). With
    /// Options.ReconnectDelay it reconnects after a drop (not after Close), the delay doubling
    /// up to ReconnectMaxDelay; requests pending at the drop fail and are not sent again.
    /// </summary>
    public sealed class Client : ISink
    {
        readonly ReceiverBase handler;
        readonly Options o;
        readonly Action<string> log;
        readonly object gate = new object();
        Connection conn;
        object timer;
        string host;
        int port;
        bool closing;
        Thread reconnecting;
        readonly ManualResetEvent down = new ManualResetEvent(false);
        readonly ManualResetEvent closeRequested = new ManualResetEvent(false);

        public Client(ReceiverBase handler, Options options = null, Action<string> log = null)
        {
            this.handler = handler; o = options ?? new Options(); this.log = log;
            var r = handler as IRequester;
            if (r != null) r.Requests.DefaultTimeout = o.RequestTimeout;
        }

        public bool Connected { get { var c = conn; return c != null && !c.IsClosed; } }

        /// <summary>Connections made (the first and every reconnect).</summary>
        public int Connects { get; private set; }

        /// <summary>Connects (TCP, then TLS with Options.Tls) within ConnectTimeout; throws on failure.</summary>
        public void Connect(string host, int port)
        {
            lock (gate)
            {
                this.host = host; this.port = port;
                closing = false;
                closeRequested.Reset();
            }
            Open();
            lock (gate)
                if (timer == null) timer = Ticks.Start(Tick, o.TickMs);
        }

        void Open()
        {
            var started = Stopwatch.StartNew();
            IPAddress a = Addresses.Resolve(host);
            var s = new Socket(a.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
            var ar = s.BeginConnect(new IPEndPoint(a, port), null, null);
            if (!ar.AsyncWaitHandle.WaitOne(o.ConnectTimeout))
            {
                s.Close();
                throw new SocketException((int)SocketError.TimedOut);
            }
            try { s.EndConnect(ar); }
            catch (Exception) { s.Close(); throw; }
            SslStream ssl = null;
            if (o.Tls != null)
            {
                // The handshake in what is left of ConnectTimeout; the server's certificate
                // must chain to a trusted root (the system's or Tls.TrustedCa) and name the host.
                string name = o.Tls.ServerName ?? host;
                var tls = o.Tls;
                ssl = new SslStream(new NetworkStream(s, true), false, (_, cert, chain, errors) => tls.Validate(name, cert, errors));
                var hs = ssl.BeginAuthenticateAsClient(name, null, tls.Protocols, false, null, null);
                TimeSpan left = o.ConnectTimeout - started.Elapsed;
                if (left < TimeSpan.Zero || !hs.AsyncWaitHandle.WaitOne(left))
                {
                    s.Close();
                    throw new SocketException((int)SocketError.TimedOut);
                }
                try { ssl.EndAuthenticateAsClient(hs); }
                catch (Exception) { s.Close(); throw; }
            }
            var c = new Connection(s, ssl, 1, "connection to " + host + ":" + port, o, log, Closed);
            lock (gate)
            {
                if (closing) { c.Abort("closed by the client"); return; }
                down.Reset();
                conn = c;
                Connects++;
                // This reconnect is done: a drop of the new connection starts another.
                if (reconnecting == Thread.CurrentThread) reconnecting = null;
            }
            handler.Reset(); // a new stream: nothing left of a message cut by the drop
            var r = handler as IRequester;
            if (r != null) r.Attach(this);
            c.Start(handler);
        }

        void Closed(Connection c, string reason)
        {
            var r = handler as IRequester;
            if (r != null) r.Requests.FailAll(RequestErrorKind.Disconnected, "disconnected: " + reason);
            lock (gate)
            {
                if (c != conn) return;
                down.Set();
                if (closing || o.ReconnectDelay <= TimeSpan.Zero || reconnecting != null) return;
                reconnecting = new Thread(Reconnect) { IsBackground = true, Name = "fastwire reconnect" };
                reconnecting.Start();
            }
        }

        // After a drop: wait, try, double the wait (up to ReconnectMaxDelay), until connected or closed.
        void Reconnect()
        {
            TimeSpan delay = o.ReconnectDelay;
            try
            {
                while (!closeRequested.WaitOne(delay))
                {
                    try
                    {
                        Open();
                        if (log != null) log("reconnected to " + host + ":" + port);
                        return;
                    }
                    catch (Exception e)
                    {
                        TimeSpan next = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, o.ReconnectMaxDelay.Ticks));
                        if (log != null) log("reconnect to " + host + ":" + port + " failed: " + Server.Innermost(e) + "; retrying in " + (long)next.TotalMilliseconds + " ms");
                        delay = next;
                    }
                }
            }
            finally { lock (gate) if (reconnecting == Thread.CurrentThread) reconnecting = null; }
        }

        void Tick()
        {
            var c = conn;
            if (c != null) c.Tick();
            var r = handler as IRequester;
            if (r != null) r.Requests.Tick();
        }

        public bool Write(byte[] data, int offset, int count)
        {
            var c = conn;
            if (c == null || c.IsClosed) throw new RequestException(RequestErrorKind.Disconnected, "not connected");
            return c.Write(data, offset, count);
        }

        public long Queued { get { var c = conn; return c == null ? 0 : c.Queued; } }

        /// <summary>Flush what is queued, half-close, keep reading until the server closes (or ShutdownTimeout); no reconnect.</summary>
        public void Close()
        {
            Connection c;
            Thread t;
            lock (gate)
            {
                closing = true;
                closeRequested.Set();
                c = conn;
                t = reconnecting;
            }
            if (t != null) t.Join(o.ConnectTimeout + TimeSpan.FromSeconds(1));
            if (c != null)
            {
                c.Shutdown("closed by the client", false);
                down.WaitOne(o.ShutdownTimeout + TimeSpan.FromSeconds(1));
            }
            lock (gate) { if (timer != null) Ticks.Stop(timer); timer = null; }
        }
    }
}
