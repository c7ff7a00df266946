//! The tokio transport (`fastwire::net_tokio`, feature `tokio`; docs/transport.md) over
//! real loopback sockets: against the C++ example server (every message type,
//! request/response, reject, both formats), and Rust to Rust (mixed messages in order, a
//! garbage peer beside a served client, timeouts, overflow, max connections, graceful
//! close and stop with queued messages).
#![cfg(feature = "tokio")]

use fastwire::net_tokio::{self as net, Client, Handler, Options, Overflow, Peer, RequestError, Server};
use fastwire::protocol::Format;
use fastwire::Uuid;
use fastwire_testee::gen::{proto, service};
use service::Message;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

fn order(uid: i32, volume: f64) -> proto::Order {
    proto::Order {
        uid,
        symbol: "EURUSD".into(),
        price: 1.23456,
        volume,
        ..Default::default()
    }
}

fn account() -> proto::Account {
    proto::Account {
        uid: 1,
        name: "Test".into(),
        state: proto::State::GOOD,
        wallet: proto::Balance {
            currency: "USD".into(),
            amount: 1000.0,
        },
        asset: Some(proto::Balance {
            currency: "EUR".into(),
            amount: 100.0,
        }),
        orders: vec![order(1, 1000.0), order(2, 100.0)],
    }
}

fn bytes(m: &Message, format: Format) -> Vec<u8> {
    let mut v = Vec::new();
    fastwire::protocol::Protocol::serialize(m, format, &mut v).unwrap();
    v
}

/// Runs a test on a two-thread runtime.
fn run(test: impl std::future::Future<Output = ()>) {
    tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap().block_on(test)
}

/// A log that keeps its lines.
fn keep() -> (net::Log, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l = lines.clone();
    (Arc::new(move |s: &str| l.lock().unwrap().push(s.to_string())), lines)
}

/// Waits (up to 5 s) for a log line containing `text`.
async fn logged(lines: &Arc<Mutex<Vec<String>>>, text: &str) {
    let start = Instant::now();
    while !lines.lock().unwrap().iter().any(|l| l.contains(text)) {
        assert!(start.elapsed() < Duration::from_secs(5), "no {text:?} in {:?}", lines.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A channel the client's `on_message` feeds.
fn inbox() -> (impl FnMut(Message) + Send + 'static, mpsc::UnboundedReceiver<Message>) {
    let (tx, rx) = mpsc::unbounded_channel();
    (
        move |m| {
            let _ = tx.send(m);
        },
        rx,
    )
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Message>) -> Message {
    tokio::time::timeout(Duration::from_secs(20), rx.recv()).await.expect("a message in time").expect("open")
}

fn request(uid: i32, volume: f64) -> service::OrderRequest {
    service::OrderRequest {
        id: Uuid::new_v1(),
        order: order(uid, volume),
    }
}

struct CppServer(Child, u16);

impl CppServer {
    fn start(final_format: bool) -> CppServer {
        let path = std::env::var("FASTWIRE_CPP_SERVER").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../build/release/examples/cpp/server").to_string()
        });
        assert!(
            std::path::Path::new(&path).exists(),
            "the C++ example server is missing at {path}: build it (make build) or set FASTWIRE_CPP_SERVER"
        );
        let mut cmd = Command::new(&path);
        cmd.args(["127.0.0.1", "0"]);
        if final_format {
            cmd.arg("--final");
        }
        let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("start the C++ server");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
        let port = line.split_whitespace().nth(2).and_then(|p| p.parse().ok()).expect("listening HOST PORT");
        CppServer(child, port)
    }
}

impl Drop for CppServer {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.0.id().to_string()).status();
        let _ = self.0.wait();
    }
}

#[test]
fn exchanges_with_the_cpp_server_in_both_formats() {
    run(async {
        for (final_format, format) in [(false, Format::Versioned), (true, Format::Final)] {
            let server = CppServer::start(final_format);
            let (on_message, mut rx) = inbox();
            let options = Options {
                format,
                ..Options::default()
            };
            let client = Client::<Message>::connect("127.0.0.1", server.1, options, on_message, net::no_log())
                .await
                .expect("connect");
            let sent = [
                Message::from(service::OrderMessage {
                    body: order(1, 1000.0),
                }),
                Message::from(service::BalanceMessage {
                    body: proto::Balance {
                        currency: "USD".into(),
                        amount: 1000.0,
                    },
                }),
                Message::from(service::AccountMessage {
                    body: account(),
                }),
            ];
            for m in &sent {
                assert!(client.send(m));
            }
            for m in &sent {
                let echo = next(&mut rx).await;
                assert_eq!(bytes(&echo, format), bytes(m, format), "echoed unchanged");
            }
            // Requests in flight together, each answered on its own.
            let (a, b) = (request(7, 10.0), request(8, 0.0));
            let (answer_a, answer_b) =
                (client.request_with(a.clone().into(), None), client.request_with(b.clone().into(), None));
            match answer_a.await {
                Ok(Message::OrderAck(ack)) => assert_eq!((ack.id, ack.seq, ack.order.uid), (a.id, 1, 7)),
                other => panic!("expected an ack, got {other:?}"),
            }
            match answer_b.await {
                Err(RequestError::Rejected(Message::OrderReject(r))) => {
                    assert_eq!(r.id, b.id);
                    assert_eq!(r.reason, "volume must be positive");
                }
                other => panic!("expected a reject, got {other:?}"),
            }
            let c = request(9, 5.0);
            match client.request(c.clone().into()).await {
                Ok(Message::OrderAck(ack)) => assert_eq!((ack.id, ack.seq, ack.order.uid), (c.id, 2, 9)),
                other => panic!("expected an ack, got {other:?}"),
            }
            client.close().await;
        }
    });
}

/// Echoes every message; answers OrderRequest like the example server.
struct Echo {
    seq: i64,
}

impl Handler<Message> for Echo {
    fn on_message(&mut self, peer: &Peer, m: Message) -> Result<(), String> {
        match m {
            Message::OrderRequest(q) if q.order.volume > 0.0 => {
                self.seq += 1;
                peer.send(&Message::from(service::OrderAck {
                    id: q.id,
                    seq: self.seq,
                    order: q.order,
                }));
            }
            Message::OrderRequest(q) => {
                peer.send(&Message::from(service::OrderReject {
                    id: q.id,
                    reason: "volume must be positive".into(),
                }));
            }
            other => {
                peer.send(&other);
            }
        }
        Ok(())
    }
}

async fn echo_server(host: &str, options: Options, log: net::Log) -> Server {
    Server::start(
        host,
        0,
        options,
        |_: &Peer| Echo {
            seq: 0,
        },
        log,
    )
    .await
    .unwrap()
}

fn mixed(i: usize) -> Message {
    match i % 3 {
        0 => service::OrderMessage {
            body: order(i as i32, 1.0),
        }
        .into(),
        1 => service::BalanceMessage {
            body: proto::Balance {
                currency: "EUR".into(),
                amount: i as f64,
            },
        }
        .into(),
        _ => service::AccountMessage {
            body: proto::Account {
                uid: i as i32,
                ..Default::default()
            },
        }
        .into(),
    }
}

/// Mixed messages, each received once, in order, equal: 100,000 (make soak-rust: a
/// million; FASTWIRE_RUST_TOKIO_MESSAGES sets another count).
#[test]
fn mixed_messages_arrive_once_in_order_and_equal() {
    run(async {
        let n: usize =
            std::env::var("FASTWIRE_RUST_TOKIO_MESSAGES").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
        let server = echo_server("127.0.0.1", Options::default(), net::no_log()).await;
        let (on_message, mut rx) = inbox();
        let options = Options {
            overflow: Overflow::Block,
            ..Options::default()
        };
        let client =
            Client::<Message>::connect("127.0.0.1", server.port(), options, on_message, net::no_log()).await.unwrap();
        // The server's reply queue keeps the default policy (disconnect at 8 MiB), so the
        // client reads as it sends: at most WINDOW echoes outstanding.
        const WINDOW: usize = 20_000;
        let received = Arc::new(AtomicUsize::new(0));
        let got = received.clone();
        let reader = tokio::spawn(async move {
            for i in 0..n {
                let m = next(&mut rx).await;
                assert_eq!(bytes(&m, Format::Versioned), bytes(&mixed(i), Format::Versioned), "message {i}");
                got.store(i + 1, Ordering::Release);
            }
            assert!(tokio::time::timeout(Duration::from_millis(50), rx.recv()).await.is_err(), "nothing doubled");
        });
        for i in 0..n {
            while i - received.load(Ordering::Acquire) >= WINDOW {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            assert!(client.send_wait(&mixed(i)).await, "send {i}");
        }
        reader.await.unwrap();
        assert_eq!(server.messages(), n as u64);
        client.close().await;
        server.stop().await;
    });
}

#[test]
fn a_garbage_peer_is_dropped_with_a_logged_reason_while_another_client_is_served() {
    run(async {
        let (log, lines) = keep();
        // Bound to every address; reached on loopback.
        let server = echo_server("0.0.0.0", Options::default(), log).await;
        let good = Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), |_| {}, net::no_log())
            .await
            .unwrap();
        let mut bad = tokio::net::TcpStream::connect(("127.0.0.1", server.port())).await.unwrap();
        bad.write_all(&[0xFF; 64]).await.unwrap();
        let mut sink = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), bad.read_to_end(&mut sink))
            .await
            .expect("closed by the server");
        logged(&lines, "protocol error: bad message size 4294967295 at stream offset 0").await;
        // The well-behaved client is untouched.
        for uid in 0..10 {
            assert!(matches!(good.request(request(uid, 1.0).into()).await, Ok(Message::OrderAck(_))));
        }
        assert!(good.connected());
        good.close().await;
        server.stop().await;
        let lines = lines.lock().unwrap();
        assert!(
            lines.iter().any(|l| l.starts_with("connection 2 127.0.0.1:") && l.ends_with(" accepted")),
            "{lines:?}"
        );
    });
}

/// A server that never answers.
struct Silent;
impl Handler<Message> for Silent {
    fn on_message(&mut self, _: &Peer, _: Message) -> Result<(), String> {
        Ok(())
    }
}

#[test]
fn requests_time_out_by_themselves_and_fail_on_disconnect() {
    run(async {
        let server = Server::start("127.0.0.1", 0, Options::default(), |_: &Peer| Silent, net::no_log()).await.unwrap();
        let options = Options {
            request_timeout: Duration::from_millis(100),
            ..Options::default()
        };
        let client =
            Client::<Message>::connect("127.0.0.1", server.port(), options, |_| {}, net::no_log()).await.unwrap();
        let start = Instant::now();
        assert!(matches!(client.request(request(1, 1.0).into()).await, Err(RequestError::Timeout)));
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(100) && took < Duration::from_millis(1000), "{took:?}");
        // Its own timeout, without the caller awaiting meanwhile.
        let start = Instant::now();
        let answer = client.request_with(request(2, 1.0).into(), Some(Duration::from_millis(30)));
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(matches!(answer.await, Err(RequestError::Timeout)));
        assert!(start.elapsed() < Duration::from_secs(1));
        let pending = client.request_with(request(3, 1.0).into(), Some(Duration::from_secs(30)));
        server.stop().await;
        assert!(matches!(pending.await, Err(RequestError::Disconnected)));
        assert!(!client.connected());
        assert!(matches!(client.request(request(4, 1.0).into()).await, Err(RequestError::Disconnected)));
        client.close().await;
    });
}

#[test]
fn connect_and_idle_timeouts() {
    run(async {
        // Nothing listens on the port: the connect fails at once.
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        assert!(Client::<Message>::connect("127.0.0.1", port, Options::default(), |_| {}, net::no_log())
            .await
            .is_err());
        // Idle: nothing received for 100 ms closes the connection.
        let (log, lines) = keep();
        let options = Options {
            idle_timeout: Some(Duration::from_millis(100)),
            ..Options::default()
        };
        let server = echo_server("127.0.0.1", options, log).await;
        let client = Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), |_| {}, net::no_log())
            .await
            .unwrap();
        logged(&lines, "closed: idle for 100 ms").await;
        client.close().await;
        server.stop().await;
    });
}

/// A listener that accepts one connection and never reads it (for 3 s).
fn deaf_peer() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(3));
        drop(s);
    });
    port
}

#[test]
fn a_full_queue_fails_blocks_or_disconnects_by_policy() {
    run(async {
        let big: Message = service::AccountMessage {
            body: proto::Account {
                name: "x".repeat(16 << 10).into(),
                ..Default::default()
            },
        }
        .into();
        // fail: refused, the connection stays, the queue stays bounded.
        let options = Options {
            max_queued_bytes: 64 << 10,
            overflow: Overflow::Fail,
            ..Options::default()
        };
        let client =
            Client::<Message>::connect("127.0.0.1", deaf_peer(), options, |_| {}, net::no_log()).await.unwrap();
        let refused = (0..2000).any(|_| !client.send(&big));
        assert!(refused, "the fail policy refuses a message beyond the bound");
        assert!(client.connected(), "and keeps the connection");
        assert!(client.queued() <= 64 << 10);
        while client.send(&mixed(0)) {} // full to the last small message
        assert!(matches!(client.request(request(1, 1.0).into()).await, Err(RequestError::Overflow)));
        drop(client);

        // block: send_wait waits up to write_timeout, then fails; plain send fails at once.
        let options = Options {
            max_queued_bytes: 64 << 10,
            overflow: Overflow::Block,
            write_timeout: Duration::from_millis(200),
            ..Options::default()
        };
        let client =
            Client::<Message>::connect("127.0.0.1", deaf_peer(), options, |_| {}, net::no_log()).await.unwrap();
        let mut n = 0;
        while client.send(&big) {
            n += 1;
            assert!(n < 2000);
        }
        // (the writer may still move bytes into the socket's buffer: wait until it is full)
        loop {
            let start = Instant::now();
            if !client.send_wait(&big).await {
                // It waited write_timeout for room, or the writer's own write_timeout (the
                // same 200 ms: the peer reads nothing) closed the connection first.
                assert!(start.elapsed() >= Duration::from_millis(150) || !client.connected(), "{:?}", start.elapsed());
                break;
            }
            n += 1;
            assert!(n < 5000);
        }
        assert!(client.queued() <= 64 << 10);
        drop(client);

        // disconnect: closed at once, logged.
        let (log, lines) = keep();
        let options = Options {
            max_queued_bytes: 64 << 10,
            ..Options::default()
        };
        let client = Client::<Message>::connect("127.0.0.1", deaf_peer(), options, |_| {}, log).await.unwrap();
        for _ in 0..2000 {
            if !client.send(&big) {
                break;
            }
        }
        assert!(!client.connected());
        logged(&lines, "send queue full (").await;
    });
}

#[test]
fn max_connections_refuses_the_one_beyond() {
    run(async {
        let (log, lines) = keep();
        let options = Options {
            max_connections: 2,
            ..Options::default()
        };
        let server = echo_server("127.0.0.1", options, log).await;
        let port = server.port();
        let a = Client::<Message>::connect("127.0.0.1", port, Options::default(), |_| {}, net::no_log()).await.unwrap();
        let b = Client::<Message>::connect("127.0.0.1", port, Options::default(), |_| {}, net::no_log()).await.unwrap();
        assert!(a.request(request(1, 1.0).into()).await.is_ok());
        assert!(b.request(request(1, 1.0).into()).await.is_ok());
        let c = Client::<Message>::connect("127.0.0.1", port, Options::default(), |_| {}, net::no_log()).await.unwrap();
        logged(&lines, "connection 3 127.0.0.1:").await;
        assert!(lines.lock().unwrap().iter().any(|l| l.starts_with("connection 3 ") && l.ends_with(" refused")));
        assert!(matches!(c.request(request(2, 1.0).into()).await, Err(RequestError::Disconnected)));
        assert_eq!(server.connections(), 2);
        for client in [a, b, c] {
            client.close().await;
        }
        server.stop().await;
    });
}

#[test]
fn graceful_close_and_stop_lose_nothing_queued() {
    run(async {
        struct Count(Arc<AtomicUsize>);
        impl Handler<Message> for Count {
            fn on_message(&mut self, peer: &Peer, m: Message) -> Result<(), String> {
                self.0.fetch_add(1, Ordering::AcqRel);
                peer.send(&m);
                Ok(())
            }
        }
        let n = 20_000;
        // Client close: everything queued before close() reaches the server, and every echo
        // queued before the server saw the end arrives.
        let count = Arc::new(AtomicUsize::new(0));
        let c = count.clone();
        let server = Server::start("127.0.0.1", 0, Options::default(), move |_: &Peer| Count(c.clone()), net::no_log())
            .await
            .unwrap();
        let (on_message, mut rx) = inbox();
        let client =
            Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), on_message, net::no_log())
                .await
                .unwrap();
        for i in 0..n {
            assert!(client.send(&mixed(i)));
        }
        client.close().await;
        assert_eq!(count.load(Ordering::Acquire), n, "the server got every queued message");
        let mut got = 0;
        while let Ok(m) = rx.try_recv() {
            assert_eq!(bytes(&m, Format::Versioned), bytes(&mixed(got), Format::Versioned));
            got += 1;
        }
        assert_eq!(got, n, "and every echo arrived, in order");

        // Server stop with replies still queued: every one reaches its client.
        let (on_message, mut rx) = inbox();
        let client =
            Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), on_message, net::no_log())
                .await
                .unwrap();
        count.store(0, Ordering::Release);
        for i in 0..n {
            assert!(client.send(&mixed(i)));
        }
        let start = Instant::now();
        while count.load(Ordering::Acquire) < n {
            assert!(start.elapsed() < Duration::from_secs(20));
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        server.stop().await;
        for i in 0..n {
            assert_eq!(bytes(&next(&mut rx).await, Format::Versioned), bytes(&mixed(i), Format::Versioned));
        }
        assert!(!client.connected(), "closed by the server after the flush");
        client.close().await;
    });
}
