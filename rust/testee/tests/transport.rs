//! The std::net transport (docs/transport.md) over real loopback sockets: against the C++
//! example server (every message type, request/response, reject), and Rust to Rust
//! (mixed messages in order, garbage peers, timeouts, overflow, graceful shutdown).

use fastwire::net::{self, Client, Handler, Options, Overflow, Peer, RequestError, Server};
use fastwire::protocol::Format;
use fastwire::Uuid;
use fastwire_testee::gen::{proto, service};
use service::Message;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

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

/// A log that keeps its lines.
fn keep() -> (net::Log, Arc<Mutex<Vec<String>>>) {
    let lines = Arc::new(Mutex::new(Vec::new()));
    let l = lines.clone();
    (Arc::new(move |s: &str| l.lock().unwrap().push(s.to_string())), lines)
}

struct CppServer(Child, u16);

impl CppServer {
    fn start(final_format: bool) -> CppServer {
        CppServer::start_with(final_format, &[])
    }

    fn start_with(final_format: bool, args: &[&str]) -> CppServer {
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
        cmd.args(args);
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
    for (final_format, format) in [(false, Format::Versioned), (true, Format::Final)] {
        let server = CppServer::start(final_format);
        let options = Options {
            format,
            ..Options::default()
        };
        exchange(server.1, options);
    }
}

/// Every message type echoed unchanged, an ack and a reject, from a server that answers
/// as the example server does.
fn exchange(port: u16, options: Options) {
    let format = options.format;
    {
        let (tx, rx) = mpsc::channel();
        let client =
            Client::<Message>::connect("127.0.0.1", port, options, move |m| tx.send(m).unwrap(), net::no_log())
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
            let echo = rx.recv_timeout(Duration::from_secs(5)).expect("echo");
            assert_eq!(bytes(&echo, format), bytes(m, format), "echoed unchanged");
        }
        let q = service::OrderRequest {
            id: Uuid::new_v1(),
            order: order(7, 10.0),
        };
        match client.request(q.clone().into()) {
            Ok(Message::OrderAck(ack)) => {
                assert_eq!((ack.id, ack.seq, ack.order.uid), (q.id, 1, 7));
            }
            other => panic!("expected an ack, got {other:?}"),
        }
        let q = service::OrderRequest {
            id: Uuid::new_v1(),
            order: order(8, 0.0),
        };
        match client.request(q.clone().into()) {
            Err(RequestError::Rejected(Message::OrderReject(r))) => {
                assert_eq!(r.id, q.id);
                assert_eq!(r.reason, "volume must be positive");
            }
            other => panic!("expected a reject, got {other:?}"),
        }
        client.close();
    }
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

fn echo_server(options: Options, log: net::Log) -> Server {
    Server::start(
        "127.0.0.1",
        0,
        options,
        |_: &Peer| Echo {
            seq: 0,
        },
        log,
    )
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

fn key(m: &Message) -> (u32, i64) {
    match m {
        Message::OrderMessage(o) => (1, o.body.uid as i64),
        Message::BalanceMessage(b) => (2, b.body.amount as i64),
        Message::AccountMessage(a) => (3, a.body.uid as i64),
        _ => (0, 0),
    }
}

/// Mixed messages, each received once, in order, equal: a million (FASTWIRE_RUST_MESSAGES
/// sets another count).
#[test]
fn mixed_messages_arrive_once_in_order_and_equal() {
    let n: usize = std::env::var("FASTWIRE_RUST_MESSAGES").ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let server = echo_server(Options::default(), net::no_log());
    let (tx, rx) = mpsc::channel();
    let options = Options {
        overflow: Overflow::Block,
        ..Options::default()
    };
    let client =
        Client::<Message>::connect("127.0.0.1", server.port(), options, move |m| tx.send(m).unwrap(), net::no_log())
            .unwrap();
    let reader = std::thread::spawn(move || {
        for i in 0..n {
            let m = rx.recv_timeout(Duration::from_secs(20)).expect("message");
            let want = mixed(i);
            assert_eq!(key(&m), key(&want), "message {i}");
            assert_eq!(bytes(&m, Format::Versioned), bytes(&want, Format::Versioned));
        }
        assert!(rx.recv_timeout(Duration::from_millis(50)).is_err(), "nothing doubled");
    });
    for i in 0..n {
        assert!(client.send(&mixed(i)), "send {i}");
    }
    reader.join().unwrap();
    client.close();
    server.stop();
}

#[test]
fn a_garbage_peer_is_dropped_with_a_logged_reason() {
    let (log, lines) = keep();
    let server = echo_server(Options::default(), log);
    let good =
        Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), |_| {}, net::no_log()).unwrap();
    let mut bad = std::net::TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    bad.write_all(&[0xFF; 64]).unwrap();
    let mut sink = Vec::new();
    let _ = bad.read_to_end(&mut sink); // the server closes it
    let start = Instant::now();
    while !lines.lock().unwrap().iter().any(|l| l.contains("protocol error: bad message size 4294967295")) {
        assert!(start.elapsed() < Duration::from_secs(5), "{:?}", lines.lock().unwrap());
        std::thread::sleep(Duration::from_millis(5));
    }
    // The well-behaved client is untouched.
    let q = service::OrderRequest {
        id: Uuid::new_v1(),
        order: order(1, 1.0),
    };
    assert!(matches!(good.request(q.into()), Ok(Message::OrderAck(_))));
    good.close();
    server.stop();
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
    let server = Server::start("127.0.0.1", 0, Options::default(), |_: &Peer| Silent, net::no_log()).unwrap();
    let options = Options {
        request_timeout: Duration::from_millis(100),
        ..Options::default()
    };
    let client = Client::<Message>::connect("127.0.0.1", server.port(), options, |_| {}, net::no_log()).unwrap();
    let start = Instant::now();
    let q = service::OrderRequest {
        id: Uuid::new_v1(),
        order: order(1, 1.0),
    };
    assert!(matches!(client.request(q.into()), Err(RequestError::Timeout)));
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(100) && took < Duration::from_millis(1000), "{took:?}");
    let q = service::OrderRequest {
        id: Uuid::new_v1(),
        order: order(2, 1.0),
    };
    let pending = client.request_async(q.into(), Some(Duration::from_secs(30)));
    server.stop();
    assert!(matches!(pending.wait(), Err(RequestError::Disconnected)));
    client.close();
}

#[test]
fn a_full_queue_disconnects_or_fails_by_policy() {
    // A peer that never reads: its queue fills.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let _hold = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(3));
        drop(s);
    });
    let options = Options {
        max_queued_bytes: 64 << 10,
        overflow: Overflow::Fail,
        ..Options::default()
    };
    let client = Client::<Message>::connect("127.0.0.1", port, options, |_| {}, net::no_log()).unwrap();
    let big: Message = service::AccountMessage {
        body: proto::Account {
            name: "x".repeat(16 << 10).into(),
            ..Default::default()
        },
    }
    .into();
    let mut refused = false;
    for _ in 0..2000 {
        if !client.send(&big) {
            refused = true;
            break;
        }
    }
    assert!(refused, "the fail policy refuses a message beyond the bound");
    assert!(client.connected(), "and keeps the connection");
    assert!(client.queued() <= 64 << 10);
    drop(client);

    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let _hold = std::thread::spawn(move || {
        let (s, _) = listener.accept().unwrap();
        std::thread::sleep(Duration::from_secs(3));
        drop(s);
    });
    let (log, lines) = keep();
    let options = Options {
        max_queued_bytes: 64 << 10,
        shutdown_timeout: Duration::from_millis(100),
        ..Options::default()
    };
    let client = Client::<Message>::connect("127.0.0.1", port, options, |_| {}, log).unwrap();
    for _ in 0..2000 {
        if !client.send(&big) {
            break;
        }
    }
    assert!(!client.connected());
    assert!(lines.lock().unwrap().iter().any(|l| l.contains("send queue full")), "{:?}", lines.lock().unwrap());
}

#[test]
fn graceful_close_and_stop_lose_nothing_queued() {
    let count = Arc::new(Mutex::new(0usize));
    struct Count(Arc<Mutex<usize>>);
    impl Handler<Message> for Count {
        fn on_message(&mut self, peer: &Peer, m: Message) -> Result<(), String> {
            *self.0.lock().unwrap() += 1;
            peer.send(&m);
            Ok(())
        }
    }
    let c = count.clone();
    let server =
        Server::start("127.0.0.1", 0, Options::default(), move |_: &Peer| Count(c.clone()), net::no_log()).unwrap();
    let (tx, rx) = mpsc::channel();
    let client = Client::<Message>::connect(
        "127.0.0.1",
        server.port(),
        Options::default(),
        move |m| tx.send(m).unwrap(),
        net::no_log(),
    )
    .unwrap();
    let n = 20_000;
    for i in 0..n {
        assert!(client.send(&mixed(i)));
    }
    client.close(); // flushes everything queued, then waits for the server's close
    assert_eq!(*count.lock().unwrap(), n, "the server got every queued message");
    assert_eq!(rx.try_iter().count(), n, "and every echo queued before the close arrived");
    server.stop();
}

#[test]
fn the_cpp_client_talks_to_a_rust_server_in_both_formats() {
    let server_path = std::env::var("FASTWIRE_CPP_SERVER").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../build/release/examples/cpp/server").to_string()
    });
    let client_path = std::path::Path::new(&server_path).with_file_name("client");
    assert!(client_path.exists(), "the C++ example client is missing at {}", client_path.display());
    for (flag, format) in [(None, Format::Versioned), (Some("--final"), Format::Final)] {
        let server = echo_server(
            Options {
                format,
                ..Options::default()
            },
            net::no_log(),
        );
        let mut cmd = Command::new(&client_path);
        cmd.args(["127.0.0.1", &server.port().to_string()]);
        if let Some(f) = flag {
            cmd.arg(f);
        }
        let out = cmd.output().expect("run the C++ client");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.trim_end().ends_with("ok"),
            "{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        server.stop();
    }
}

/// A proxy server's handler: forwards each verified message's bytes to an upstream server
/// on a connection of its own, and what comes back to its client.
struct Forward {
    upstream: Client<Message>,
}

impl net::ProxyHandler for Forward {
    fn on_message(&mut self, _peer: &Peer, _type_number: u32, message: &[u8]) -> Result<(), String> {
        if self.upstream.send_bytes(message) {
            Ok(())
        } else {
            Err("upstream refused the message".into())
        }
    }
}

fn proxy_server(upstream: u16, format: Format, log: net::Log) -> Server {
    let options = Options {
        format,
        ..Options::default()
    };
    let o = options.clone();
    Server::start_proxy::<Message, _, _>(
        "127.0.0.1",
        0,
        options,
        move |peer: &Peer| {
            let back = peer.clone();
            Forward {
                upstream: Client::<Message>::connect(
                    "127.0.0.1",
                    upstream,
                    o.clone(),
                    move |m| {
                        back.send(&m);
                    },
                    net::no_log(),
                )
                .expect("upstream"),
            }
        },
        log,
    )
    .unwrap()
}

#[test]
fn a_proxy_server_forwards_verified_bytes_and_drops_a_stream_that_fails_verification() {
    for format in [Format::Versioned, Format::Final] {
        let options = Options {
            format,
            ..Options::default()
        };
        let upstream = echo_server(options.clone(), net::no_log());
        let (log, lines) = keep();
        let proxy = proxy_server(upstream.port(), format, log);

        // Messages through the proxy to the echo server and back: each once, in order,
        // equal; a request answered through both hops.
        let (tx, rx) = mpsc::channel();
        let client = Client::<Message>::connect(
            "127.0.0.1",
            proxy.port(),
            options.clone(),
            move |m| tx.send(m).unwrap(),
            net::no_log(),
        )
        .unwrap();
        let n = 1000;
        for i in 0..n {
            assert!(client.send(&mixed(i)), "send {i}");
        }
        for i in 0..n {
            let m = rx.recv_timeout(Duration::from_secs(10)).expect("message back through the proxy");
            assert_eq!(bytes(&m, format), bytes(&mixed(i), format), "message {i}");
        }
        let q = service::OrderRequest {
            id: Uuid::new_v1(),
            order: order(1, 1.0),
        };
        let id = q.id;
        assert!(matches!(client.request(q.into()), Ok(Message::OrderAck(a)) if a.id == id));
        assert_eq!(proxy.messages(), n as u64 + 1);

        // A peer sending a message of a known type that fails verification (a whole
        // Order message cut short by a byte, its size word saying so) is dropped with the
        // reason logged; nothing of it reaches the upstream server.
        let mut m = bytes(&mixed(0), format);
        m.pop();
        let size = m.len() as u32;
        m[..4].copy_from_slice(&size.to_le_bytes());
        let before = upstream.messages();
        let mut bad = std::net::TcpStream::connect(("127.0.0.1", proxy.port())).unwrap();
        bad.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        bad.write_all(&m).unwrap();
        let mut sink = Vec::new();
        let _ = bad.read_to_end(&mut sink); // the proxy closes it
        let start = Instant::now();
        while !lines.lock().unwrap().iter().any(|l| l.contains("protocol error: message of type 1")) {
            assert!(start.elapsed() < Duration::from_secs(5), "{:?}", lines.lock().unwrap());
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(upstream.messages(), before, "nothing forwarded");
        client.close();
        proxy.stop();
        upstream.stop();
    }
}

/// Records every request id it gets; answers each except uid 99's (held).
struct Recorder(Arc<Mutex<Vec<Uuid>>>);
impl Handler<Message> for Recorder {
    fn on_message(&mut self, peer: &Peer, m: Message) -> Result<(), String> {
        if let Message::OrderRequest(q) = m {
            self.0.lock().unwrap().push(q.id);
            if q.order.uid != 99 {
                peer.send(&Message::from(service::OrderAck {
                    id: q.id,
                    seq: 1,
                    order: q.order,
                }));
            }
        }
        Ok(())
    }
}

#[test]
fn a_client_reconnects_after_the_server_restarts_and_sends_no_request_twice() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let start_server = |port: u16| {
        let seen = seen.clone();
        Server::start("127.0.0.1", port, Options::default(), move |_: &Peer| Recorder(seen.clone()), net::no_log())
            .unwrap()
    };
    let server = start_server(0);
    let port = server.port();
    let (log, lines) = keep();
    let options = Options {
        reconnect_delay: Some(Duration::from_millis(20)),
        reconnect_max_delay: Duration::from_millis(160),
        request_timeout: Duration::from_secs(30),
        ..Options::default()
    };
    let client = Client::<Message>::connect("127.0.0.1", port, options, |_| {}, log).unwrap();
    let request = |uid: i32| service::OrderRequest {
        id: Uuid::new_v1(),
        order: order(uid, 1.0),
    };
    assert!(matches!(client.request(request(1).into()), Ok(Message::OrderAck(_))));
    // A request pending when the server goes away fails, and is not sent again.
    let held = request(99);
    let pending = client.request_async(held.clone().into(), None);
    let t = Instant::now();
    while !seen.lock().unwrap().contains(&held.id) {
        assert!(t.elapsed() < Duration::from_secs(5), "the held request never arrived");
        std::thread::sleep(Duration::from_millis(2));
    }
    server.stop();
    let down = Instant::now();
    assert!(matches!(pending.wait(), Err(RequestError::Disconnected)));
    // While down: requests fail at once, sends are refused.
    let t = Instant::now();
    assert!(matches!(client.request(request(2).into()), Err(RequestError::Disconnected)));
    assert!(t.elapsed() < Duration::from_secs(1));
    assert!(!client.connected() && !client.send(&mixed(0)));
    std::thread::sleep(Duration::from_millis(600));
    let server = start_server(port);
    let t = Instant::now();
    while !client.connected() {
        assert!(t.elapsed() < Duration::from_secs(5), "no reconnect: {:?}", lines.lock().unwrap());
        std::thread::sleep(Duration::from_millis(5));
    }
    let down = down.elapsed();
    assert_eq!(client.connects(), 2);
    assert!(matches!(client.request(request(3).into()), Ok(Message::OrderAck(_))));
    client.close();
    server.stop();
    let seen = seen.lock().unwrap();
    assert_eq!(seen.iter().filter(|id| **id == held.id).count(), 1, "the held request was sent once");
    assert_eq!(seen.len(), 3, "requests 1, 99 and 3 only");
    let lines = lines.lock().unwrap();
    assert!(lines.iter().any(|l| l == &format!("reconnected to 127.0.0.1:{port}")), "{lines:?}");
    // The delay doubles (20, 40, 80, then 160 ms): some 5 failed attempts in the first
    // 600 ms, not 30, then one per 160 ms.
    let retries = lines.iter().filter(|l| l.ends_with("; retrying")).count() as u128;
    assert!(retries >= 2 && retries <= down.as_millis() / 160 + 4, "{retries} retries in {down:?}: {lines:?}");
}

/// TLS (feature `tls`): against the C++ server's `--tls` in both formats, an untrusted
/// certificate and a wrong name refused, Rust to Rust, a handshake that never comes.
#[cfg(feature = "tls")]
mod tls {
    use super::*;
    use fastwire::net_tls;
    use std::path::PathBuf;

    /// A test CA and a certificate it signed for localhost and 127.0.0.1 (openssl command
    /// line, made per run in a temporary folder, as the other languages' tests do), and a
    /// second CA that signed nothing: (dir, ca.pem, cert.pem, key.pem, stranger.pem).
    struct Certs {
        dir: PathBuf,
    }

    impl Certs {
        fn make(test: &str) -> Certs {
            let dir = std::env::temp_dir().join(format!("fastwire-rust-tls-{}-{test}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2"];
            let run = |args: &[&str]| {
                let out = Command::new("openssl").args(args).current_dir(&dir).output().expect("run openssl");
                assert!(out.status.success(), "openssl: {}", String::from_utf8_lossy(&out.stderr));
            };
            for ca in ["ca", "stranger"] {
                let (key, pem) = (format!("{ca}.key"), format!("{ca}.pem"));
                run(&[&["req", "-x509"], &ec[..], &["-subj", "/CN=fastwire test CA", "-keyout", &key, "-out", &pem]]
                    .concat());
            }
            run(&[
                &["req", "-x509"],
                &ec[..],
                &["-subj", "/CN=localhost", "-CA", "ca.pem", "-CAkey", "ca.key"],
                &["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                &["-addext", "basicConstraints=critical,CA:FALSE", "-keyout", "key.pem", "-out", "cert.pem"],
            ]
            .concat());
            Certs {
                dir,
            }
        }
        fn path(&self, name: &str) -> String {
            self.dir.join(name).to_string_lossy().into_owned()
        }
    }

    impl Drop for Certs {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn client_options(format: Format, ca: &str, name: &str) -> Options {
        Options {
            format,
            tls: Some(net_tls::client_config(ca, name).unwrap()),
            ..Options::default()
        }
    }

    #[test]
    fn tls_exchanges_with_the_cpp_server_and_refuses_an_untrusted_certificate() {
        let certs = Certs::make("cpp");
        let (cert, key) = (certs.path("cert.pem"), certs.path("key.pem"));
        for (final_format, format) in [(false, Format::Versioned), (true, Format::Final)] {
            let server = CppServer::start_with(final_format, &["--tls", &cert, &key]);
            exchange(server.1, client_options(format, &certs.path("ca.pem"), "localhost"));
            exchange(server.1, client_options(format, &certs.path("ca.pem"), "127.0.0.1"));
            // a certificate signed by a CA the client does not trust, or for another name
            for (ca, name) in [("stranger.pem", "localhost"), ("ca.pem", "example.com")] {
                let (log, lines) = keep();
                let r = Client::<Message>::connect(
                    "127.0.0.1",
                    server.1,
                    client_options(format, &certs.path(ca), name),
                    |_| {},
                    log,
                );
                let e = r.err().expect("an untrusted certificate was accepted");
                assert!(e.to_string().starts_with("handshake failed: invalid peer certificate"), "{e}");
                assert!(lines.lock().unwrap().iter().any(|l| l.contains("closed: handshake failed")));
            }
        }
    }

    #[test]
    fn tls_between_rust_peers() {
        let certs = Certs::make("rust");
        let (log, lines) = keep();
        let options = Options {
            tls: Some(net_tls::server_config(certs.path("cert.pem"), certs.path("key.pem")).unwrap()),
            connect_timeout: Duration::from_millis(300),
            ..Options::default()
        };
        let server = echo_server(options, log);
        let ca = certs.path("ca.pem");
        exchange(server.port(), client_options(Format::Versioned, &ca, "localhost"));
        // Mixed messages over TLS, each received once, in order, equal; a graceful close
        // loses nothing queued.
        let n = 20_000;
        let (tx, rx) = mpsc::channel();
        let options = Options {
            overflow: Overflow::Block,
            ..client_options(Format::Versioned, &ca, "localhost")
        };
        let client = Client::<Message>::connect(
            "127.0.0.1",
            server.port(),
            options,
            move |m| tx.send(m).unwrap(),
            net::no_log(),
        )
        .unwrap();
        for i in 0..n {
            assert!(client.send(&mixed(i)), "send {i}");
        }
        client.close();
        for i in 0..n {
            let m = rx.recv_timeout(Duration::from_secs(10)).expect("message");
            assert_eq!(bytes(&m, Format::Versioned), bytes(&mixed(i), Format::Versioned), "message {i}");
        }
        assert!(rx.try_recv().is_err(), "nothing doubled");
        // A peer that never completes its handshake is dropped at connect_timeout; a
        // client without TLS is refused; the untrusted one too.
        let start = Instant::now();
        let mut silent = std::net::TcpStream::connect(("127.0.0.1", server.port())).unwrap();
        let mut sink = Vec::new();
        let _ = silent.read_to_end(&mut sink);
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(250) && took < Duration::from_secs(3), "{took:?}");
        let plain = Client::<Message>::connect("127.0.0.1", server.port(), Options::default(), |_| {}, net::no_log());
        if let Ok(plain) = plain {
            let q = service::OrderRequest {
                id: Uuid::new_v1(),
                order: order(1, 1.0),
            };
            assert!(plain.request(q.into()).is_err(), "a plain client was answered by a TLS server");
        }
        let stranger = client_options(Format::Versioned, &certs.path("stranger.pem"), "localhost");
        assert!(Client::<Message>::connect("127.0.0.1", server.port(), stranger, |_| {}, net::no_log()).is_err());
        server.stop();
        let lines = lines.lock().unwrap();
        assert!(lines.iter().any(|l| l.contains("closed: handshake timed out after 300 ms")), "{lines:?}");
        assert!(lines.iter().filter(|l| l.contains("closed: handshake failed")).count() >= 2, "{lines:?}");
    }

    #[test]
    fn tls_client_reconnects() {
        let certs = Certs::make("reconnect");
        let tls = net_tls::server_config(certs.path("cert.pem"), certs.path("key.pem")).unwrap();
        let start = |port: u16| {
            let options = Options {
                tls: Some(tls.clone()),
                ..Options::default()
            };
            Server::start(
                "127.0.0.1",
                port,
                options,
                |_: &Peer| Echo {
                    seq: 0,
                },
                net::no_log(),
            )
            .unwrap()
        };
        let server = start(0);
        let port = server.port();
        let options = Options {
            reconnect_delay: Some(Duration::from_millis(20)),
            ..client_options(Format::Versioned, &certs.path("ca.pem"), "localhost")
        };
        let client = Client::<Message>::connect("127.0.0.1", port, options, |_| {}, net::no_log()).unwrap();
        let request = || service::OrderRequest {
            id: Uuid::new_v1(),
            order: order(1, 1.0),
        };
        assert!(matches!(client.request(request().into()), Ok(Message::OrderAck(_))));
        server.stop();
        let t = Instant::now();
        while client.connected() {
            assert!(t.elapsed() < Duration::from_secs(5), "the drop was not seen");
            std::thread::sleep(Duration::from_millis(2));
        }
        let server = start(port);
        let t = Instant::now();
        while !client.connected() {
            assert!(t.elapsed() < Duration::from_secs(5), "no reconnect over TLS");
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(matches!(client.request(request().into()), Ok(Message::OrderAck(_))));
        assert_eq!(client.connects(), 2);
        client.close();
        server.stop();
    }
}
