// The C# transport's checks over real loopback sockets (csharp/build.py transport):
//   transport.exe loopback N       a C# server and client: N mixed messages echoed, each once,
//                                  in order, equal; requests, rejects, timeouts; a garbage
//                                  peer dropped with its reason logged; a client's close
//                                  loses nothing queued; a server's stop answers what it got
//   transport.exe cpp HOST PORT [--final] [--tls CA.pem]   against examples/cpp/server:
//                                  each message type echoed, an accepted and a rejected order
//   transport.exe tls CERT.p12 PASSWORD CA.pem   TLS over loopback: a C# server and client,
//                                  a client that does not trust the server refused, a peer
//                                  that never completes the handshake dropped in time
//   transport.exe reconnect        a client with ReconnectDelay: its server stopped and
//                                  started again on the same port; the delays double
//   transport.exe block            the block overflow policy: a slow reader makes the sender
//                                  wait (nothing lost, the queue within its bound); a reader
//                                  that stops makes a send give up after WriteTimeout
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net.Sockets;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using Fastwire;
using Fastwire.Net;
using proto = com.chronoxor.proto;
using service = com.fastwire.service;

static class TransportCheck
{
    static void Check(bool ok, string what)
    {
        if (!ok) throw new Exception("check failed: " + what);
    }

    public static proto.Account SeedAccount()
    {
        var a = new proto.Account { uid = 1, name = "Test", state = proto.State.initialized | proto.State.calculated };
        a.wallet = new proto.Balance { currency = "USD", amount = 1000.0 };
        a.asset = new proto.Balance { currency = "EUR", amount = 100.0 };
        a.orders.Add(SeedOrder());
        a.orders.Add(new proto.Order { uid = 2, symbol = "EURUSD", side = proto.OrderSide.sell, type = proto.OrderType.limit, price = 1.0, volume = 100.0 });
        a.orders.Add(new proto.Order { uid = 3, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.stop, price = 1.5, volume = 10.0 });
        return a;
    }

    public static proto.Order SeedOrder()
    {
        return new proto.Order { uid = 1, symbol = "EURUSD", side = proto.OrderSide.buy, type = proto.OrderType.market, price = 1.23456, volume = 1000.0 };
    }

    // Collects what arrives (echoes) in order.
    sealed class Collector : service.Fbe.Client
    {
        public readonly List<object> Got = new List<object>();
        public readonly SemaphoreSlim Arrived = new SemaphoreSlim(0);
        public Collector(bool final) : base(final) { }
        void Add(object m) { lock (Got) Got.Add(m); Arrived.Release(); }
        protected override void OnReceive(service.OrderMessage v) { Add(v); }
        protected override void OnReceive(service.BalanceMessage v) { Add(v); }
        protected override void OnReceive(service.AccountMessage v) { Add(v); }
    }

    static object[] Seeds()
    {
        return new object[] {
            new service.OrderMessage { body = SeedOrder() },
            new service.BalanceMessage { body = new proto.Balance { currency = "USD", amount = 1000.0 } },
            new service.AccountMessage { body = SeedAccount() },
        };
    }

    static bool Send(service.Fbe.Sender s, object m)
    {
        if (m is service.OrderMessage) return s.Send((service.OrderMessage)m);
        if (m is service.BalanceMessage) return s.Send((service.BalanceMessage)m);
        return s.Send((service.AccountMessage)m);
    }

    static bool SameMessage(object a, object b)
    {
        var x = a as service.OrderMessage;
        if (x != null) { var y = b as service.OrderMessage; return y != null && x.body.ToJson() == y.body.ToJson(); }
        var bx = a as service.BalanceMessage;
        if (bx != null) { var by = b as service.BalanceMessage; return by != null && bx.body.ToJson() == by.body.ToJson(); }
        var ax = (service.AccountMessage)a;
        var ay = b as service.AccountMessage;
        return ay != null && ax.body.ToJson() == ay.body.ToJson();
    }

    static void Wait(Collector c, int n, int seconds)
    {
        var deadline = DateTime.UtcNow.AddSeconds(seconds);
        while (true)
        {
            lock (c.Got) if (c.Got.Count >= n) return;
            if (DateTime.UtcNow > deadline) throw new Exception("timed out waiting for " + n + " messages, got " + c.Got.Count);
            c.Arrived.Wait(100);
        }
    }

    static int Cpp(string host, int port, bool final, string ca)
    {
        var c = new Collector(final);
        var opts = new Options();
        if (ca != null) opts.Tls = Tls.ForClient(new X509Certificate2(ca));
        var client = new Client(c, opts, line => Console.Error.WriteLine("client: " + line));
        client.Connect(host, port);
        if (ca != null) Console.WriteLine("TLS handshake done");
        var seeds = Seeds();
        foreach (var m in seeds) Check(Send(c.Sender, m), "queued");
        Wait(c, seeds.Length, 10);
        for (int i = 0; i < seeds.Length; i++) Check(SameMessage(seeds[i], c.Got[i]), "echo " + i + " equal");
        Console.WriteLine("echoes: order, balance, account");
        var ack = c.Request(new service.OrderRequest { order = SeedOrder() }).Result;
        Check(ack.seq == 1 && ack.order.ToJson() == SeedOrder().ToJson(), "ack");
        Console.WriteLine("accepted: seq " + ack.seq);
        var bad = SeedOrder();
        bad.volume = 0;
        try
        {
            c.Request(new service.OrderRequest { order = bad }).Wait();
            Check(false, "a zero-volume order is rejected");
        }
        catch (AggregateException e)
        {
            var r = e.InnerException as RequestException;
            Check(r != null && r.Kind == RequestErrorKind.Rejected, "rejected");
            Console.WriteLine("rejected: " + ((service.OrderReject)r.Reject).reason);
        }
        client.Close();
        Console.WriteLine("ok");
        return 0;
    }

    // The loopback server's handler: echoes messages, answers orders, ignores uid 999 (timeouts).
    sealed class Echo : service.Fbe.Receiver
    {
        readonly service.Fbe.Sender reply;
        long seq;
        public static long Refused;
        readonly long[] received; // per server: [0] messages received by its connections
        public Echo(Connection c, bool final, long[] received = null) : base(final)
        {
            reply = new service.Fbe.Sender(c, final);
            this.received = received ?? new long[1];
        }
        protected override void OnReceive(service.OrderMessage v) { Interlocked.Increment(ref received[0]); reply.Send(v); }
        protected override void OnReceive(service.BalanceMessage v) { Interlocked.Increment(ref received[0]); reply.Send(v); }
        protected override void OnReceive(service.AccountMessage v) { Interlocked.Increment(ref received[0]); if (!reply.Send(v)) Interlocked.Increment(ref Refused); }
        protected override void OnReceive(service.OrderRequest q)
        {
            if (q.order.uid == 999) return;
            if (q.order.volume <= 0) reply.Send(new service.OrderReject { id = q.id, reason = "volume must be positive" });
            else reply.Send(new service.OrderAck { id = q.id, seq = ++seq, order = q.order });
        }
    }

    static int Loopback(int n)
    {
        var logs = new List<string>();
        Action<string> log = line => { lock (logs) logs.Add(line); };
        foreach (bool final in new[] { false, true })
        {
            lock (logs) logs.Clear();
            var counted = new long[1];
            var server = new Server(conn => new Echo(conn, final, counted), "127.0.0.1", 0, new Options(), log);
            server.Start();
            var c = new Collector(final);
            var opts = new Options { RequestTimeout = TimeSpan.FromMilliseconds(300) };
            var client = new Client(c, opts, log);
            client.Connect("127.0.0.1", server.Port);
            var seeds = Seeds();
            var sw = Stopwatch.StartNew();
            int window = 2000;
            for (int i = 0; i < n; i++)
            {
                if (i >= window) Wait(c, i - window + 1, 30);
                Check(Send(c.Sender, seeds[i % 3]), "queued " + i);
            }
            Wait(c, n, 60);
            for (int i = 0; i < n; i++) Check(SameMessage(seeds[i % 3], c.Got[i]), "echo " + i);
            Check(c.Got.Count == n, "each once");
            Console.WriteLine((final ? "final" : "versioned") + ": " + n + " messages echoed in order in " + sw.ElapsedMilliseconds + " ms");
            // requests: accepted, rejected, timed out by the transport itself
            Check(c.Request(new service.OrderRequest { order = SeedOrder() }).Result.seq == 1, "ack");
            var bad = SeedOrder();
            bad.volume = -1;
            Check(Kind(c.Request(new service.OrderRequest { order = bad })) == RequestErrorKind.Rejected, "reject");
            var lost = SeedOrder();
            lost.uid = 999;
            var t0 = Stopwatch.StartNew();
            Check(Kind(c.Request(new service.OrderRequest { order = lost })) == RequestErrorKind.Timeout, "timeout");
            Check(t0.ElapsedMilliseconds < 300 + 500, "timeout on time: " + t0.ElapsedMilliseconds + " ms");
            Console.WriteLine("requests: accepted, rejected, timed out after " + t0.ElapsedMilliseconds + " ms");
            // many clients at once, each answered on its own connection (its own seq count)
            var clients = new List<Client>();
            var handlers = new List<Collector>();
            for (int k = 0; k < 50; k++)
            {
                var h = new Collector(final);
                var cl = new Client(h, new Options(), log);
                cl.Connect("127.0.0.1", server.Port);
                clients.Add(cl);
                handlers.Add(h);
            }
            var tasks = new List<System.Threading.Tasks.Task<service.OrderAck>>();
            for (int round = 0; round < 10; round++)
                foreach (var h in handlers) tasks.Add(h.Request(new service.OrderRequest { order = SeedOrder() }));
            System.Threading.Tasks.Task.WaitAll(tasks.ToArray());
            for (int k = 0; k < handlers.Count; k++)
                for (int round = 0; round < 10; round++)
                    Check(tasks[round * handlers.Count + k].Result.seq == round + 1, "client " + k + " round " + round);
            foreach (var cl in clients) cl.Close();
            Console.WriteLine("50 clients at once: 10 requests each, each answered on its own connection in order");
            // a garbage peer is dropped with its reason
            using (var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            {
                raw.Connect("127.0.0.1", server.Port);
                var junk = new byte[4096];
                new Random(1).NextBytes(junk);
                raw.Send(junk);
                var buf = new byte[16];
                raw.ReceiveTimeout = 5000;
                int got;
                try { got = raw.Receive(buf); } catch (SocketException) { got = 0; }
                Check(got == 0, "garbage peer closed");
            }
            Thread.Sleep(50);
            lock (logs) Check(logs.Any(l => l.Contains("closed: protocol error:")), "garbage logged: " + string.Join(" | ", logs));
            Console.WriteLine("garbage peer: " + logs.First(l => l.Contains("protocol error")));
            // back-pressure: a peer that sends but never reads fills its send queue and is dropped
            {
                var small = new Server(conn => new Echo(conn, final), "127.0.0.1", 0,
                                       new Options { MaxQueuedBytes = 64 * 1024 }, log);
                small.Start();
                var sink = new MemorySink();
                var flood = new service.Fbe.Sender(sink, final);
                for (int i = 0; i < 2000; i++) Send(flood, seeds[2]);
                byte[] bytes = sink.Buffer.ToArray();
                using (var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
                {
                    raw.ReceiveBufferSize = 4096; // before connecting: a window shrunk later stalls
                    raw.Connect("127.0.0.1", small.Port);
                    raw.SendTimeout = 10000;
                    var deadline = DateTime.UtcNow.AddSeconds(30);
                    bool dropped = false;
                    while (!dropped && DateTime.UtcNow < deadline)
                    {
                        try { raw.Send(bytes); }
                        catch (SocketException) { dropped = true; }
                        lock (logs) dropped |= logs.Any(l => l.Contains("send queue full"));
                    }
                    Check(dropped, "a peer that does not read is dropped");
                }
                // The send can fail (the server closed) before the server's log line is written:
                // wait for it, up to 5 s.
                for (int i = 0; i < 500; i++)
                {
                    lock (logs) if (logs.Any(l => l.Contains("send queue full"))) break;
                    Thread.Sleep(10);
                }
                lock (logs) Check(logs.Any(l => l.Contains("send queue full")), "overflow logged: " + string.Join(" | ", logs));
                lock (logs) Console.WriteLine("overflow: " + logs.First(l => l.Contains("send queue full")));
                small.Stop();
            }
            // the fail policy: the sends that do not fit are refused, the connection stays
            {
                var failing = new Server(conn => new Echo(conn, final), "127.0.0.1", 0,
                                         new Options { MaxQueuedBytes = 64 * 1024, Overflow = Overflow.Fail }, log);
                failing.Start();
                var sink = new MemorySink();
                var flood = new service.Fbe.Sender(sink, final);
                for (int i = 0; i < 2000; i++) Send(flood, seeds[2]);
                byte[] bytes = sink.Buffer.ToArray();
                long refusedBefore = Interlocked.Read(ref Echo.Refused);
                using (var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
                {
                    raw.ReceiveBufferSize = 4096;
                    raw.Connect("127.0.0.1", failing.Port);
                    var deadline = DateTime.UtcNow.AddSeconds(30);
                    while (Interlocked.Read(ref Echo.Refused) == refusedBefore && DateTime.UtcNow < deadline) raw.Send(bytes);
                    Check(Interlocked.Read(ref Echo.Refused) > refusedBefore, "sends refused");
                    Check(failing.Connections == 1, "the connection stays");
                }
                Console.WriteLine("fail policy: " + (Interlocked.Read(ref Echo.Refused) - refusedBefore) + " sends refused, the connection stayed");
                failing.Stop();
            }
            // a client's close loses nothing it queued
            long before = Interlocked.Read(ref counted[0]);
            var c2 = new Collector(final);
            var client2 = new Client(c2, new Options(), log);
            client2.Connect("127.0.0.1", server.Port);
            for (int i = 0; i < 5000; i++) Check(Send(c2.Sender, seeds[i % 3]), "queued");
            client2.Close();
            Check(Interlocked.Read(ref counted[0]) - before == 5000, "close flushed: " + (Interlocked.Read(ref counted[0]) - before));
            Check(c2.Got.Count == 5000, "echoes after close: " + c2.Got.Count);
            Console.WriteLine("client close: 5000 queued, 5000 received and echoed");
            // the server's stop: what the client is waiting for fails as disconnected, nothing hangs
            var pending = c.Request(new service.OrderRequest { order = lost }, TimeSpan.FromSeconds(30));
            server.Stop();
            Check(Kind(pending) == RequestErrorKind.Disconnected, "disconnected on stop");
            Check(!client.Connected, "client sees the close");
            Console.WriteLine("server stop: pending request failed as disconnected");
        }
        Console.WriteLine("ok");
        return 0;
    }

    static int TlsLoopback(string p12, string password, string caFile)
    {
        var logs = new List<string>();
        Action<string> log = line => { lock (logs) logs.Add(line); };
        var cert = new X509Certificate2(p12, password);
        var ca = new X509Certificate2(caFile);
        foreach (bool final in new[] { false, true })
        {
            var counted = new long[1];
            var server = new Server(conn => new Echo(conn, final, counted), "127.0.0.1", 0,
                                    new Options { Tls = Tls.ForServer(cert), ConnectTimeout = TimeSpan.FromMilliseconds(500) }, log);
            server.Start();
            foreach (string name in new[] { "localhost", "127.0.0.1" })
            {
                var c = new Collector(final);
                var client = new Client(c, new Options { Tls = new Tls { TrustedCa = ca, ServerName = name } }, log);
                client.Connect("127.0.0.1", server.Port);
                Check(c.Request(new service.OrderRequest { order = SeedOrder() }).Result.seq == 1, "ack over TLS");
                var seeds = Seeds();
                for (int i = 0; i < 3000; i++) Check(Send(c.Sender, seeds[i % 3]), "queued");
                client.Close(); // flushes, half-closes, waits for the server's close
                Check(c.Got.Count == 3000, "echoes over TLS after close: " + c.Got.Count);
                for (int i = 0; i < 3000; i++) Check(SameMessage(seeds[i % 3], c.Got[i]), "echo " + i);
            }
            Console.WriteLine((final ? "final" : "versioned") + ": TLS request and 3000 messages echoed in order (as localhost and 127.0.0.1), close flushed");
            // a client that does not trust the server's certificate, or expects another name, is refused
            foreach (var bad in new[] { new Tls(), new Tls { TrustedCa = ca, ServerName = "example.com" } })
            {
                var stranger = new Client(new Collector(final), new Options { Tls = bad }, log);
                bool refused = false;
                try { stranger.Connect("127.0.0.1", server.Port); }
                catch (Exception) { refused = true; }
                Check(refused, "an untrusted certificate or a wrong name is refused");
            }
            Console.WriteLine("untrusted certificate and wrong name: refused by the client");
            // a peer that connects and never starts the handshake is dropped at ConnectTimeout
            using (var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            {
                raw.Connect("127.0.0.1", server.Port);
                raw.ReceiveTimeout = 5000;
                var t0 = Stopwatch.StartNew();
                int got;
                try { got = raw.Receive(new byte[16]); } catch (SocketException) { got = 0; }
                Check(got == 0, "silent peer dropped");
                Check(t0.ElapsedMilliseconds < 3000, "dropped in time: " + t0.ElapsedMilliseconds + " ms");
            }
            for (int i = 0; i < 200; i++) { lock (logs) if (logs.Any(l => l.Contains("TLS handshake not done"))) break; Thread.Sleep(10); }
            lock (logs) Check(logs.Any(l => l.Contains("TLS handshake not done")), "handshake timeout logged: " + string.Join(" | ", logs));
            lock (logs) Console.WriteLine("silent peer: " + logs.First(l => l.Contains("TLS handshake not done")));
            server.Stop();
            lock (logs) logs.Clear();
        }
        Console.WriteLine("ok");
        return 0;
    }

    static int Reconnect()
    {
        var logs = new List<string>();
        Action<string> log = line => { lock (logs) logs.Add(line); };
        var server = new Server(conn => new Echo(conn, false), "127.0.0.1", 0, new Options(), log);
        server.Start();
        int port = server.Port;
        var c = new Collector(false);
        var client = new Client(c, new Options { ReconnectDelay = TimeSpan.FromMilliseconds(50), ReconnectMaxDelay = TimeSpan.FromMilliseconds(400) }, log);
        client.Connect("127.0.0.1", port);
        Check(c.Request(new service.OrderRequest { order = SeedOrder() }).Result.seq == 1, "ack before the stop");
        // the server goes away: a pending request fails as disconnected, the client retries
        var lost = SeedOrder();
        lost.uid = 999;
        var pending = c.Request(new service.OrderRequest { order = lost }, TimeSpan.FromSeconds(30));
        server.Stop();
        Check(Kind(pending) == RequestErrorKind.Disconnected, "pending request fails on the drop");
        Check(!client.Connected, "client sees the drop");
        string[] retries = new string[0];
        for (var until = DateTime.UtcNow.AddSeconds(10); retries.Length < 4 && DateTime.UtcNow < until; Thread.Sleep(20))
            lock (logs) retries = logs.Where(l => l.StartsWith("reconnect to")).ToArray(); // 50 + 100 + 200 + 400 ms of failed attempts
        Check(retries.Length >= 4, "retries: " + string.Join(" | ", retries));
        Check(retries[0].EndsWith("retrying in 100 ms") && retries[1].EndsWith("retrying in 200 ms")
              && retries[2].EndsWith("retrying in 400 ms") && retries[3].EndsWith("retrying in 400 ms"),
              "the delay doubles up to the maximum: " + string.Join(" | ", retries));
        Console.WriteLine("server stopped: pending request disconnected; " + retries.Length + " failed attempts (after 50 ms, then retrying in 100, 200, 400, 400 ms)");
        // the server is back on the same port: the client reconnects by itself
        var again = new Server(conn => new Echo(conn, false), "127.0.0.1", port, new Options(), log);
        again.Start();
        var deadline = DateTime.UtcNow.AddSeconds(5);
        while (!client.Connected && DateTime.UtcNow < deadline) Thread.Sleep(10);
        Check(client.Connected && client.Connects == 2, "reconnected (" + client.Connects + " connects)");
        Check(c.Request(new service.OrderRequest { order = SeedOrder() }).Result.seq == 1, "ack from the new server");
        var seeds = Seeds();
        int before;
        lock (c.Got) before = c.Got.Count;
        for (int i = 0; i < 300; i++) Check(Send(c.Sender, seeds[i % 3]), "queued after the reconnect");
        Wait(c, before + 300, 10);
        for (int i = 0; i < 300; i++) Check(SameMessage(seeds[i % 3], c.Got[before + i]), "echo " + i);
        lock (logs) Check(logs.Any(l => l == "reconnected to 127.0.0.1:" + port), "reconnect logged");
        Console.WriteLine("server started again: reconnected, request answered, 300 messages echoed in order");
        // a client's own close does not reconnect
        client.Close();
        Thread.Sleep(300);
        Check(!client.Connected && client.Connects == 2 && again.Connections == 0, "no reconnect after Close");
        Console.WriteLine("client close: no reconnect");
        again.Stop();
        Console.WriteLine("ok");
        return 0;
    }

    // Counts what a raw peer reads, checking each message is the next seed.
    sealed class Counter : service.Fbe.Receiver
    {
        public long Count, Wrong;
        readonly object[] seeds = Seeds();
        void Got(object m) { if (!SameMessage(seeds[Count % 3], m)) Wrong++; Count++; }
        protected override void OnReceive(service.OrderMessage v) { Got(v); }
        protected override void OnReceive(service.BalanceMessage v) { Got(v); }
        protected override void OnReceive(service.AccountMessage v) { Got(v); }
    }

    static int Block()
    {
        const int limit = 64 * 1024;
        const int n = 30000; // about 3.5 MB: far more than the queue (64 KB) holds
        var listener = new TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Server.ReceiveBufferSize = 16384; // before listen: a small window from the start
        listener.Start();
        int port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        var counter = new Counter();
        bool stopReading = false;
        var reader = new Thread(() =>
        {
            using (var peer = listener.AcceptSocket())
            {
                var buf = new byte[16384];
                for (int k = 0; counter.Count < n; k++)
                {
                    int got = peer.Receive(buf);
                    if (got == 0) return;
                    counter.Receive(buf, 0, got);
                    if (k % 8 == 7) Thread.Sleep(1); // a slow reader: it pauses every 128 KB at most
                }
                while (!Volatile.Read(ref stopReading)) Thread.Sleep(10);
            }
        }) { IsBackground = true };
        reader.Start();
        var logs = new List<string>();
        var opts = new Options { MaxQueuedBytes = limit, Overflow = Overflow.Block, WriteTimeout = TimeSpan.FromSeconds(10) };
        var c = new Collector(false);
        var client = new Client(c, opts, line => { lock (logs) logs.Add(line); });
        client.Connect("127.0.0.1", port);
        var seeds = Seeds();
        long maxQueued = 0, waited = 0;
        var sw = Stopwatch.StartNew();
        for (int i = 0; i < n; i++)
        {
            long t0 = sw.ElapsedTicks;
            Check(Send(c.Sender, seeds[i % 3]), "send " + i + " waited for room and was queued");
            if (sw.ElapsedTicks - t0 > Stopwatch.Frequency / 1000) waited++;
            maxQueued = Math.Max(maxQueued, client.Queued);
        }
        var deadline = DateTime.UtcNow.AddSeconds(60);
        while (Interlocked.Read(ref counter.Count) < n && DateTime.UtcNow < deadline) Thread.Sleep(10);
        Check(counter.Count == n && counter.Wrong == 0, "all " + n + " received in order and equal: " + counter.Count + ", " + counter.Wrong + " wrong");
        Check(maxQueued <= limit, "the queue stayed within its bound: " + maxQueued);
        Check(waited > 0, "the sender waited");
        Console.WriteLine("block: " + n + " messages to a slow reader in " + sw.ElapsedMilliseconds + " ms, all received in order; "
                          + waited + " sends waited for room; queue at most " + maxQueued + " of " + limit + " bytes");
        // the reader stops: a send waits WriteTimeout at most, then fails (or the stalled peer is dropped)
        var stalled = new Options { MaxQueuedBytes = limit, Overflow = Overflow.Block, WriteTimeout = TimeSpan.FromMilliseconds(500) };
        var listener2 = new TcpListener(System.Net.IPAddress.Loopback, 0);
        listener2.Server.ReceiveBufferSize = 16384;
        listener2.Start();
        Socket idle = null;
        var accept = new Thread(() => { idle = listener2.AcceptSocket(); }) { IsBackground = true };
        accept.Start();
        var c2 = new Collector(false);
        var client2 = new Client(c2, stalled, line => { lock (logs) logs.Add(line); });
        client2.Connect("127.0.0.1", ((System.Net.IPEndPoint)listener2.LocalEndpoint).Port);
        var t = Stopwatch.StartNew();
        bool refused = false;
        for (int i = 0; i < 1000000 && !refused; i++)
        {
            try { refused = !Send(c2.Sender, seeds[2]); }
            catch (RequestException) { refused = true; } // dropped as not reading: not connected
            Check(client2.Queued <= limit, "bounded while stalled");
        }
        Check(refused && t.ElapsedMilliseconds < 5000, "a send to a stalled reader gives up in time: " + t.ElapsedMilliseconds + " ms");
        Console.WriteLine("block: a reader that stopped: the send gave up after " + t.ElapsedMilliseconds + " ms (WriteTimeout 500 ms)");
        Volatile.Write(ref stopReading, true);
        client.Close();
        client2.Close();
        if (idle != null) idle.Close();
        listener.Stop();
        listener2.Stop();
        Console.WriteLine("ok");
        return 0;
    }

    static RequestErrorKind? Kind(System.Threading.Tasks.Task t)
    {
        try { t.Wait(); return null; }
        catch (AggregateException e)
        {
            var r = e.InnerException as RequestException;
            return r == null ? (RequestErrorKind?)null : r.Kind;
        }
    }

    static int Main(string[] args)
    {
        try
        {
            if (args.Length >= 2 && args[0] == "loopback") return Loopback(int.Parse(args[1]));
            if (args.Length >= 3 && args[0] == "cpp")
            {
                int t = Array.IndexOf(args, "--tls");
                return Cpp(args[1], int.Parse(args[2]), args.Contains("--final"), t > 0 && t + 1 < args.Length ? args[t + 1] : null);
            }
            if (args.Length >= 4 && args[0] == "tls") return TlsLoopback(args[1], args[2], args[3]);
            if (args.Length >= 1 && args[0] == "reconnect") return Reconnect();
            if (args.Length >= 1 && args[0] == "block") return Block();
            Console.Error.WriteLine("usage: transport.exe loopback N | cpp HOST PORT [--final] [--tls CA] | tls CERT.p12 PASSWORD CA.pem");
            return 2;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("FAILED: " + e);
            return 1;
        }
    }
}
