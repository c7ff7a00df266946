package dev.fastwire.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.chronoxor.proto.Balance;
import com.chronoxor.proto.Order;
import com.chronoxor.proto.OrderSide;
import com.chronoxor.proto.OrderType;
import com.fastwire.service.AccountMessage;
import com.fastwire.service.BalanceMessage;
import com.fastwire.service.OrderAck;
import com.fastwire.service.OrderMessage;
import com.fastwire.service.OrderReject;
import com.fastwire.service.OrderRequest;
import com.fastwire.service.ServiceClient;
import com.fastwire.service.ServiceReceiver;
import dev.fastwire.net.Options;
import dev.fastwire.net.RequestException;
import dev.fastwire.net.Server;
import dev.fastwire.net.Tls;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The transport over real loopback sockets (docs/transport.md): against the C++ example
 * server (FASTWIRE_CPP_SERVER), and Java against Java: a million mixed messages in order,
 * a garbage peer dropped with a logged reason, request timeouts, and a graceful stop that
 * loses no queued reply.
 */
class TransportTest {
    static Order order(int uid, double volume) {
        Order o = new Order();
        o.uid = uid;
        o.symbol = "EURUSD";
        o.side = uid % 2 == 0 ? OrderSide.buy : OrderSide.sell;
        o.type = OrderType.limit;
        o.price = 1.5 + uid;
        o.volume = volume;
        return o;
    }

    /** Records what a client receives (messages that are not answers). */
    static final class Recorder extends ServiceClient {
        final LinkedBlockingQueue<Object> got = new LinkedBlockingQueue<>();

        Recorder(Options o) {
            super(o);
        }

        @Override protected void onReceive(OrderMessage v) { got.add(v); }
        @Override protected void onReceive(BalanceMessage v) { got.add(v); }
        @Override protected void onReceive(AccountMessage v) { got.add(v); }
    }

    static Options quiet(List<String> log) {
        Options o = new Options();
        o.log = log::add;
        return o;
    }

    void exchangeWithCpp(boolean finalFormat) throws Exception {
        exchangeWithCpp(finalFormat, null);
    }

    /** A self-signed certificate for localhost and 127.0.0.1, made with openssl: [cert, key]. */
    static Path[] testCertificate() throws Exception {
        Path dir = Files.createTempDirectory("fastwire-tls-");
        dir.toFile().deleteOnExit();
        Path cert = dir.resolve("cert.pem");
        Path key = dir.resolve("key.pem");
        Process p = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key.toString(),
            "-out", cert.toString()).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "openssl could not make a certificate: " + said);
        cert.toFile().deleteOnExit();
        key.toFile().deleteOnExit();
        return new Path[] {cert, key};
    }

    /** The exchange with the C++ server; over TLS when tls = [cert, key]. */
    void exchangeWithCpp(boolean finalFormat, Path[] tls) throws Exception {
        String path = System.getenv("FASTWIRE_CPP_SERVER");
        if (path == null || !new File(path).canExecute()) {
            fail("FASTWIRE_CPP_SERVER must name the built examples/cpp/server (make build); got " + path);
        }
        List<String> args = new java.util.ArrayList<>(List.of(path, "127.0.0.1", "0"));
        if (finalFormat) args.add("--final");
        if (tls != null) args.addAll(List.of("--tls", tls[0].toString(), tls[1].toString()));
        ProcessBuilder pb = new ProcessBuilder(args);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process server = pb.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith("listening "), "server said " + line);
            int port = Integer.parseInt(line.split(" ")[2]);
            List<String> log = new CopyOnWriteArrayList<>();
            Options o = quiet(log);
            o.finalFormat = finalFormat;
            if (tls != null) o.tls = Tls.clientContext(tls[0]);
            try (Recorder c = new Recorder(o)) {
                c.connect("127.0.0.1", port);
                OrderMessage om = new OrderMessage();
                om.body = order(7, 10);
                BalanceMessage bm = new BalanceMessage();
                bm.body = new Balance();
                bm.body.currency = "EUR";
                bm.body.amount = 12.5;
                AccountMessage am = new AccountMessage();
                am.body = GoldenTest.seed();
                assertTrue(c.send(om) && c.send(bm) && c.send(am));
                OrderMessage om2 = (OrderMessage) c.got.poll(10, TimeUnit.SECONDS);
                BalanceMessage bm2 = (BalanceMessage) c.got.poll(10, TimeUnit.SECONDS);
                AccountMessage am2 = (AccountMessage) c.got.poll(10, TimeUnit.SECONDS);
                assertEquals(om.toString(), String.valueOf(om2));
                assertEquals(bm.toString(), String.valueOf(bm2));
                assertEquals(am.toString(), String.valueOf(am2));
                for (int i = 1; i <= 3; i++) {
                    OrderRequest q = new OrderRequest();
                    q.order = order(i, 100);
                    OrderAck ack = c.request(q).get(10, TimeUnit.SECONDS);
                    assertEquals(q.id, ack.id);
                    assertEquals(i, ack.seq);
                    assertEquals(q.order.toString(), ack.order.toString());
                }
                OrderRequest bad = new OrderRequest();
                bad.order = order(9, 0);
                try {
                    c.request(bad).get(10, TimeUnit.SECONDS);
                    fail("a zero volume is rejected");
                } catch (ExecutionException e) {
                    RequestException re = (RequestException) e.getCause();
                    assertEquals(RequestException.Kind.REJECTED, re.kind);
                    assertEquals("volume must be positive", ((OrderReject) re.rejection).reason);
                }
            }
        } finally {
            server.destroy();  // SIGTERM: the server exits 0
            assertEquals(0, server.waitFor());
        }
    }

    @Test
    void exchangesWithTheCppServerVersioned() throws Exception {
        exchangeWithCpp(false);
    }

    @Test
    void exchangesWithTheCppServerFinal() throws Exception {
        exchangeWithCpp(true);
    }

    @Test
    void exchangesWithTheCppServerOverTls() throws Exception {
        Path[] tls = testCertificate();
        exchangeWithCpp(false, tls);
        exchangeWithCpp(true, tls);
    }

    @Test
    @SuppressWarnings("try") // the raw socket is held open, never used
    void tlsBetweenJavaPeers() throws Exception {
        Path[] tls = testCertificate();
        List<String> log = new CopyOnWriteArrayList<>();
        Options so = quiet(log);
        so.tls = Tls.serverContext(tls[0], tls[1]);
        // Long enough for a cold JVM's first handshakes on a loaded machine; the silent peer
        // below is dropped after it.
        so.connectTimeout = Duration.ofMillis(2000);
        Server server = new Server(so, conn -> new ServiceReceiver() {
            @Override protected void onReceive(OrderRequest q) {
                OrderAck a = new OrderAck();
                a.id = q.id;
                a.seq = q.order.uid;
                a.order = q.order;
                conn.send(OrderAck.CODEC, a);
            }
            @Override protected void onReceive(OrderMessage m) { conn.send(OrderMessage.CODEC, m); }
        });
        server.start("127.0.0.1", 0);
        try {
            Options co = quiet(log);
            co.tls = Tls.clientContext(tls[0]);
            int n = 2000;
            try (Recorder c = new Recorder(co)) {
                c.connect("127.0.0.1", server.port());
                for (int i = 0; i < n; i++) {
                    OrderMessage m = new OrderMessage();
                    m.body = order(i, 1);
                    assertTrue(c.send(m));
                }
                OrderRequest q = new OrderRequest();
                q.order = order(42, 5);
                assertEquals(42, c.request(q).get(10, TimeUnit.SECONDS).seq);
                for (int i = 0; i < n; i++) {
                    OrderMessage m = (OrderMessage) c.got.poll(10, TimeUnit.SECONDS);
                    assertEquals(i, m.body.uid);
                }
            }
            // A client that does not trust the certificate fails its handshake.
            Options stranger = quiet(log);
            stranger.tls = javax.net.ssl.SSLContext.getDefault();
            try (Recorder c = new Recorder(stranger)) {
                c.connect("127.0.0.1", server.port());
                fail("an untrusted certificate was accepted");
            } catch (javax.net.ssl.SSLException expected) {
                // refused
            }
            // A peer that connects and never starts the handshake is dropped at connectTimeout.
            try (Socket raw = new Socket("127.0.0.1", server.port())) {
                long until = System.currentTimeMillis() + 8000;
                while (System.currentTimeMillis() < until
                       && log.stream().noneMatch(l -> l.contains("TLS handshake failed") && l.contains("timed out"))) {
                    Thread.sleep(20);
                }
                assertTrue(log.stream().anyMatch(l -> l.contains("TLS handshake failed") && l.contains("timed out")),
                    "log: " + log);
            }
        } finally {
            server.stop();
        }
    }

    @Test
    void aMillionMixedMessagesArriveOnceInOrder() throws Exception {
        int total = Integer.getInteger("fastwire.loopback.messages", 1_000_000);
        List<String> log = new CopyOnWriteArrayList<>();
        AtomicInteger next = new AtomicInteger();
        AtomicReference<String> wrong = new AtomicReference<>();
        CountDownLatch all = new CountDownLatch(1);
        Options so = quiet(log);
        Server server = new Server(so, conn -> new ServiceReceiver() {
            void check(Object got) {
                int i = next.getAndIncrement();
                String want = expected(i).toString();
                if (!want.equals(got.toString()) && wrong.get() == null) wrong.set(i + ": " + got + " != " + want);
                if (i + 1 == total) all.countDown();
            }

            @Override protected void onReceive(OrderMessage v) { check(v); }
            @Override protected void onReceive(BalanceMessage v) { check(v); }
            @Override protected void onReceive(AccountMessage v) { check(v); }
        });
        server.start("127.0.0.1", 0);
        Options co = quiet(log);
        co.overflow = Options.Overflow.BLOCK;
        try (ServiceClient c = new ServiceClient(co)) {
            c.connect("127.0.0.1", server.port());
            long t0 = System.nanoTime();
            for (int i = 0; i < total; i++) {
                Object m = expected(i);
                boolean ok = m instanceof OrderMessage ? c.send((OrderMessage) m)
                    : m instanceof BalanceMessage ? c.send((BalanceMessage) m) : c.send((AccountMessage) m);
                assertTrue(ok, "send " + i);
            }
            assertTrue(all.await(120, TimeUnit.SECONDS), "received " + next.get() + " of " + total);
            System.err.printf("loopback: %d messages in %.2f s%n", total, (System.nanoTime() - t0) / 1e9);
        } finally {
            server.stop();
        }
        assertEquals(null, wrong.get());
        assertEquals(total, next.get());
    }

    static Object expected(int i) {
        switch (i % 3) {
            case 0: {
                OrderMessage m = new OrderMessage();
                m.body = order(i, i);
                return m;
            }
            case 1: {
                BalanceMessage m = new BalanceMessage();
                m.body.currency = "C" + (i % 1000);
                m.body.amount = i;
                return m;
            }
            default: {
                AccountMessage m = new AccountMessage();
                m.body.uid = i;
                m.body.name = "account " + i;
                if (i % 7 == 0) m.body.orders.add(order(i, 1));
                return m;
            }
        }
    }

    @Test
    void aGarbagePeerIsDroppedWithALoggedReason() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        Server server = new Server(quiet(log), conn -> new ServiceReceiver());
        server.start("127.0.0.1", 0);
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            OutputStream out = s.getOutputStream();
            out.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1, 2, 3});
            out.flush();
            assertEquals(-1, s.getInputStream().read());  // the server closed it
        }
        server.stop();
        long deadline = System.currentTimeMillis() + 5000;
        while (log.stream().noneMatch(l -> l.contains("closed: protocol error")) && System.currentTimeMillis() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(log.stream().anyMatch(l -> l.matches("connection 1 127\\.0\\.0\\.1:\\d+ closed: protocol error: .*bad message size 4294967295 at stream offset 0.*")), log.toString());
        assertTrue(log.stream().anyMatch(l -> l.matches("connection 1 127\\.0\\.0\\.1:\\d+ accepted")), log.toString());
    }

    @Test
    void requestsTimeOutByThemselves() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        Server server = new Server(quiet(log), conn -> new ServiceReceiver());  // never answers
        server.start("127.0.0.1", 0);
        Options o = quiet(log);
        o.requestTimeout = Duration.ofMillis(200);
        try (ServiceClient c = new ServiceClient(o)) {
            c.connect("127.0.0.1", server.port());
            OrderRequest q = new OrderRequest();
            long t0 = System.nanoTime();
            try {
                c.request(q).get(10, TimeUnit.SECONDS);
                fail("no answer");
            } catch (ExecutionException e) {
                assertEquals(RequestException.Kind.TIMEOUT, ((RequestException) e.getCause()).kind);
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 190 && ms < 2000, ms + " ms");
        } finally {
            server.stop();
        }
    }

    @Test
    void stoppingTheServerLosesNoQueuedReply() throws Exception {
        int replies = 20000;
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch queued = new CountDownLatch(1);
        Server server = new Server(quiet(log), conn -> new ServiceReceiver() {
            @Override
            protected void onReceive(OrderMessage v) {
                for (int i = 0; i < replies; i++) {
                    OrderMessage m = new OrderMessage();
                    m.body = order(i, 1);
                    if (!conn.send(OrderMessage.CODEC, m)) throw new IllegalStateException("queue full at " + i);
                }
                queued.countDown();
            }
        });
        server.start("127.0.0.1", 0);
        Options o = quiet(log);
        AtomicInteger got = new AtomicInteger();
        AtomicReference<String> wrong = new AtomicReference<>();
        try (ServiceClient c = new ServiceClient(o) {
            @Override
            protected void onReceive(OrderMessage v) {
                int i = got.getAndIncrement();
                if (v.body.uid != i) wrong.compareAndSet(null, i + ": " + v);
            }
        }) {
            c.connect("127.0.0.1", server.port());
            OrderMessage m = new OrderMessage();
            c.send(m);
            assertTrue(queued.await(10, TimeUnit.SECONDS));
            server.stop();  // graceful: flushes the queue before closing
            long deadline = System.currentTimeMillis() + 10000;
            while (got.get() < replies && System.currentTimeMillis() < deadline) Thread.sleep(10);
        }
        assertEquals(replies, got.get());
        assertEquals(null, wrong.get());
    }
}
