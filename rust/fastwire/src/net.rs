//! The blocking transport over `std::net` (docs/transport.md, "The contract"): a server
//! that serves many clients at once and answers each on its own connection, a client
//! whose requests time out by themselves, bounded send queues with the `overflow`
//! policies, message and write timeouts, and graceful shutdown that loses nothing queued.
//!
//! Each connection has a reader thread (framing, dispatch, timers) and a writer thread
//! (drains the send queue). Handlers run on their connection's reader thread, one
//! message at a time, in arrival order.
//!
//! ```ignore
//! let server = Server::start("::", 0, Options::default(), |peer: &Peer| Echo(peer.clone()), log)?;
//! let client = Client::<service::Message>::connect("127.0.0.1", server.port(), Options::default(), |_m| {}, log)?;
//! let ack = client.request(service::OrderRequest { ..Default::default() })?;
//! client.close();
//! server.stop();
//! ```

use crate::protocol::{Format, Protocol, Proxy, Receiver, Reply};
use crate::types::Uuid;
use crate::Limits;
use std::collections::HashMap;
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// What a send does when the queue would exceed `max_queued_bytes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Overflow {
    /// Close the connection at once (logged `send queue full (…)`).
    Disconnect,
    /// Refuse the message (send returns false); the connection stays.
    Fail,
    /// Wait for room up to `write_timeout`, then fail.
    Block,
}

/// The policies of docs/transport.md (defaults in brackets there).
#[derive(Debug, Clone)]
pub struct Options {
    /// The format of the connection's messages.
    pub format: Format,
    /// Bound of a connection's send queue.
    pub max_queued_bytes: usize,
    /// What a send beyond the bound does.
    pub overflow: Overflow,
    /// Queued bytes that make no progress this long drop the connection.
    pub write_timeout: Duration,
    /// A message whose first bytes arrived must be complete this long after.
    pub message_timeout: Duration,
    /// Nothing received this long: close gracefully (None: off).
    pub idle_timeout: Option<Duration>,
    /// Bounds of what is received (max_message_size frames; the rest decodes).
    pub receive_limits: Limits,
    /// A server with this many connections closes new ones at once.
    pub max_connections: usize,
    /// TCP connect plus the TLS handshake (a server drops a connection whose handshake is
    /// not done in time).
    pub connect_timeout: Duration,
    /// A request without a timeout of its own fails this long after it was sent.
    pub request_timeout: Duration,
    /// The longest a graceful close waits for the flush and the peer's close.
    pub shutdown_timeout: Duration,
    /// Client: after a drop, reconnect after this delay, doubling after each failed
    /// attempt up to `reconnect_max_delay` (None: no reconnect). Blocking transport only.
    pub reconnect_delay: Option<Duration>,
    /// The longest delay between reconnect attempts.
    pub reconnect_max_delay: Duration,
    /// TLS (feature `tls`; see [`crate::net_tls`]): a server's or a client's configuration;
    /// None: plain TCP. Blocking transport only.
    #[cfg(feature = "tls")]
    pub tls: Option<crate::net_tls::TlsConfig>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            format: Format::Versioned,
            max_queued_bytes: 8 << 20,
            overflow: Overflow::Disconnect,
            write_timeout: Duration::from_secs(10),
            message_timeout: Duration::from_secs(10),
            idle_timeout: None,
            receive_limits: Limits::default(),
            max_connections: 10_000,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(10),
            shutdown_timeout: Duration::from_secs(5),
            reconnect_delay: None,
            reconnect_max_delay: Duration::from_secs(5),
            #[cfg(feature = "tls")]
            tls: None,
        }
    }
}

impl Options {
    /// The timer tick: a quarter of the shortest timeout, between 5 and 250 ms.
    pub(crate) fn tick(&self) -> Duration {
        let mut t = self.message_timeout.min(self.request_timeout);
        if let Some(i) = self.idle_timeout {
            t = t.min(i);
        }
        (t / 4).clamp(Duration::from_millis(5), Duration::from_millis(250))
    }
}

/// Where log lines go.
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// A log that drops every line.
pub fn no_log() -> Log {
    Arc::new(|_| {})
}

struct Queue {
    bytes: Vec<u8>,
    in_flight: usize,
    half_close: bool,
    dead: bool,
    writer_done: bool,
}

/// One connection's shared state: the socket, the send queue, its name for the log.
struct Conn {
    stream: TcpStream,
    #[cfg(feature = "tls")]
    tls: Option<crate::net_tls::Session>,
    name: String,
    options: Options,
    queue: Mutex<Queue>,
    cv: Condvar,
    reason: Mutex<Option<String>>,
    log: Log,
    stop_input: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Conn {
    fn new(stream: TcpStream, name: String, options: Options, log: Log) -> std::io::Result<Arc<Conn>> {
        let _ = stream.set_nodelay(true);
        #[cfg(feature = "tls")]
        let tls = match &options.tls {
            Some(config) => Some(crate::net_tls::Session::new(config)?),
            None => None,
        };
        Ok(Arc::new(Conn {
            stream,
            #[cfg(feature = "tls")]
            tls,
            name,
            options,
            queue: Mutex::new(Queue {
                bytes: Vec::new(),
                in_flight: 0,
                half_close: false,
                dead: false,
                writer_done: false,
            }),
            cv: Condvar::new(),
            reason: Mutex::new(None),
            log,
            stop_input: AtomicBool::new(false),
        }))
    }

    /// The TLS handshake, if the connection has TLS, within `connect_timeout`.
    fn handshake(&self, timeout: Duration) -> Result<(), String> {
        #[cfg(feature = "tls")]
        if let Some(t) = &self.tls {
            t.handshake(&self.stream, timeout)?;
            let _ = self.stream.set_write_timeout(Some(self.options.write_timeout));
        }
        let _ = timeout;
        Ok(())
    }

    /// Writes bytes of the stream (encrypted with TLS).
    fn write_out(&self, mut stream: &TcpStream, bytes: &[u8]) -> std::io::Result<()> {
        #[cfg(feature = "tls")]
        if let Some(t) = &self.tls {
            return t.write(stream, bytes);
        }
        stream.write_all(bytes)
    }

    /// Reads what arrives next: None at the end of the stream, else the bytes (decrypted
    /// with TLS; maybe none yet).
    fn read_in<'a>(
        &self,
        mut stream: &TcpStream,
        buf: &'a mut [u8],
        plain: &'a mut Vec<u8>,
    ) -> std::io::Result<Option<&'a [u8]>> {
        #[cfg(feature = "tls")]
        if let Some(t) = &self.tls {
            return Ok(if t.read(stream, buf, plain)? { Some(&plain[..]) } else { None });
        }
        let _ = plain;
        let n = stream.read(buf)?;
        Ok(if n == 0 { None } else { Some(&buf[..n]) })
    }

    /// Records the first reason the connection ends, and logs it.
    fn set_reason(&self, reason: &str) {
        let mut r = lock(&self.reason);
        if r.is_none() {
            *r = Some(reason.to_string());
            (self.log)(&format!("{} closed: {}", self.name, reason));
        }
    }

    /// Closes at once (no flush).
    fn kill(&self, reason: &str) {
        self.set_reason(reason);
        let mut q = lock(&self.queue);
        q.dead = true;
        drop(q);
        self.cv.notify_all();
        let _ = self.stream.shutdown(Shutdown::Both);
    }

    fn is_dead(&self) -> bool {
        lock(&self.queue).dead
    }

    fn queued(&self) -> usize {
        let q = lock(&self.queue);
        q.bytes.len() + q.in_flight
    }

    /// Queues a whole message, by the overflow policy.
    fn push(&self, msg: &[u8]) -> bool {
        let max = self.options.max_queued_bytes;
        let mut q = lock(&self.queue);
        let deadline = Instant::now() + self.options.write_timeout;
        loop {
            if q.dead || q.half_close {
                return false;
            }
            let queued = q.bytes.len() + q.in_flight;
            if queued + msg.len() <= max || queued == 0 {
                break;
            }
            match self.options.overflow {
                Overflow::Fail => return false,
                Overflow::Disconnect => {
                    drop(q);
                    self.kill(&format!("send queue full ({queued} bytes queued, {} more, limit {max})", msg.len()));
                    return false;
                }
                Overflow::Block => {
                    let now = Instant::now();
                    if now >= deadline {
                        return false;
                    }
                    q = self.cv.wait_timeout(q, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
                }
            }
        }
        q.bytes.extend_from_slice(msg);
        drop(q);
        self.cv.notify_all();
        true
    }

    /// The writer thread: drains the queue; after a half-close request, flushes and
    /// shuts the socket's sending side.
    fn write_loop(self: Arc<Self>) {
        let stream = match self.stream.try_clone() {
            Ok(s) => s,
            Err(e) => return self.kill(&format!("write failed: {e}")),
        };
        let _ = stream.set_write_timeout(Some(self.options.write_timeout));
        let mut spare = Vec::new();
        loop {
            let mut q = lock(&self.queue);
            while q.bytes.is_empty() && !q.half_close && !q.dead {
                q = self.cv.wait(q).unwrap_or_else(|e| e.into_inner());
            }
            if q.dead {
                q.writer_done = true;
                drop(q);
                self.cv.notify_all();
                return;
            }
            if q.bytes.is_empty() {
                // half-close with nothing left: FIN
                q.writer_done = true;
                drop(q);
                self.cv.notify_all();
                #[cfg(feature = "tls")]
                if let Some(t) = &self.tls {
                    t.close_notify(&stream);
                }
                let _ = stream.shutdown(Shutdown::Write);
                return;
            }
            std::mem::swap(&mut q.bytes, &mut spare);
            q.in_flight = spare.len();
            drop(q);
            let r = self.write_out(&stream, &spare);
            let mut q = lock(&self.queue);
            q.in_flight = 0;
            drop(q);
            self.cv.notify_all();
            if let Err(e) = r {
                let reason = if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) {
                    format!("peer not reading: {} bytes unsent after {:?}", spare.len(), self.options.write_timeout)
                } else {
                    format!("write failed: {e}")
                };
                self.kill(&reason);
            }
            spare.clear();
        }
    }

    /// Starts a graceful close: no more sends, flush, half-close.
    fn half_close(&self) {
        let mut q = lock(&self.queue);
        q.half_close = true;
        drop(q);
        self.cv.notify_all();
    }

    /// Waits until the writer has flushed (or the connection died), up to `timeout`.
    fn wait_flushed(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut q = lock(&self.queue);
        while !q.writer_done && !q.dead {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            q = self.cv.wait_timeout(q, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
        true
    }
}

/// The read loop of a connection that decodes its messages (a [`Receiver`]).
fn read_loop<P: Protocol>(
    conn: &Conn,
    mut on_message: impl FnMut(P) -> Result<(), String>,
    tick: impl FnMut(),
) -> Option<String> {
    let o = &conn.options;
    let mut receiver = Receiver::<P>::new(o.format, o.receive_limits);
    read_chunks(
        conn,
        |chunk| {
            receiver.feed(chunk, &mut on_message).map_err(|e| e.to_string())?;
            Ok(receiver.pending())
        },
        tick,
    )
}

/// The read loop shared by servers and clients: hands each chunk read to `feed` (which
/// frames and dispatches it, and returns the bytes of an incomplete message it holds),
/// enforces the message and idle timeouts, calls `tick` on every timer tick. Returns the
/// reason the stream ended (None: end of stream after a whole message).
fn read_chunks(
    conn: &Conn,
    mut feed: impl FnMut(&[u8]) -> Result<usize, String>,
    mut tick: impl FnMut(),
) -> Option<String> {
    let o = &conn.options;
    let stream = match conn.stream.try_clone() {
        Ok(s) => s,
        Err(e) => return Some(format!("read failed: {e}")),
    };
    let _ = stream.set_read_timeout(Some(o.tick()));
    let mut buf = vec![0u8; 16 << 10];
    let mut plain = Vec::new();
    let mut pending = 0;
    let mut partial_since: Option<Instant> = None;
    let mut last_input = Instant::now();
    loop {
        match conn.read_in(&stream, &mut buf, &mut plain) {
            Ok(None) => {
                return if pending > 0 {
                    Some(format!("peer closed the connection in the middle of a message ({pending} bytes received)"))
                } else {
                    None
                };
            }
            Ok(Some(bytes)) => {
                last_input = Instant::now();
                if conn.stop_input.load(Ordering::Acquire) {
                    continue; // stopping: what arrives now is discarded
                }
                match feed(bytes) {
                    Ok(p) => pending = p,
                    Err(e) => return Some(e),
                }
                partial_since = if pending > 0 { partial_since.or(Some(last_input)) } else { None };
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {}
            Err(e) => {
                if conn.is_dead() {
                    return Some("closed".into());
                }
                return Some(format!("read failed: {e}"));
            }
        }
        tick();
        if let Some(since) = partial_since {
            if since.elapsed() >= o.message_timeout && !conn.stop_input.load(Ordering::Acquire) {
                return Some(format!(
                    "message incomplete after {} ms ({pending} bytes received)",
                    o.message_timeout.as_millis()
                ));
            }
        }
        if let Some(idle) = o.idle_timeout {
            if last_input.elapsed() >= idle {
                return Some(format!("idle for {} ms", idle.as_millis()));
            }
        }
    }
}

/// A server connection as its handler sees it: send replies to this client, close it.
#[derive(Clone)]
pub struct Peer {
    conn: Arc<Conn>,
    id: u64,
    remote: SocketAddr,
    format: Format,
}

impl Peer {
    /// Queues a message to this client (any thread); false when it was not queued.
    pub fn send<P: Protocol>(&self, message: &P) -> bool {
        let mut buf = Vec::new();
        if message.serialize(self.format, &mut buf).is_err() {
            return false;
        }
        self.conn.push(&buf)
    }
    /// Queues a message's bytes (a whole root model).
    pub fn send_bytes(&self, message: &[u8]) -> bool {
        self.conn.push(message)
    }
    /// Closes the connection at once.
    pub fn close(&self, reason: &str) {
        self.conn.kill(reason)
    }
    /// The connection's number (from 1, per server).
    pub fn id(&self) -> u64 {
        self.id
    }
    /// The client's address.
    pub fn remote(&self) -> SocketAddr {
        self.remote
    }
    /// Bytes queued and not yet written.
    pub fn queued(&self) -> usize {
        self.conn.queued()
    }
}

/// Handles one server connection's messages (made per connection by the server's
/// factory).
pub trait Handler<P: Protocol>: Send + 'static {
    /// A message arrived; an error closes the connection with it.
    fn on_message(&mut self, peer: &Peer, message: P) -> Result<(), String>;
}

/// Handles one proxy server connection's messages as their bytes (made per connection by
/// the server's factory; see [`Server::start_proxy`]).
pub trait ProxyHandler: Send + 'static {
    /// A message of a type the protocol has arrived, verified (the checks a decode makes)
    /// but not decoded: `message` is the whole root model, to forward unchanged (e.g. with
    /// [`Peer::send_bytes`] or a [`Client`]'s `send_bytes`). An error closes the connection
    /// with it.
    fn on_message(&mut self, peer: &Peer, type_number: u32, message: &[u8]) -> Result<(), String>;
}

/// A connection and its threads.
type Tracked = (Arc<Conn>, Vec<JoinHandle<()>>);

struct ServerShared {
    stopping: AtomicBool,
    conns: Mutex<Vec<Tracked>>,
    live: AtomicUsize,
    accepted: AtomicU64,
    messages: AtomicU64,
}

/// A server: listens on one address, serves each client on its own connection.
pub struct Server {
    addr: SocketAddr,
    shared: Arc<ServerShared>,
    accept: Option<JoinHandle<()>>,
    options: Options,
    log: Log,
}

impl Server {
    /// Binds `host:port` (port 0: an ephemeral one; "::" or "0.0.0.0": every address)
    /// and serves; `factory` makes each connection's handler.
    pub fn start<P, H, F>(host: &str, port: u16, options: Options, factory: F, log: Log) -> std::io::Result<Server>
    where
        P: Protocol,
        H: Handler<P>,
        F: Fn(&Peer) -> H + Send + Sync + 'static,
    {
        let serve = move |conn: &Conn, peer: &Peer, shared: &ServerShared| {
            let mut handler = factory(peer);
            read_loop::<P>(
                conn,
                |m| {
                    shared.messages.fetch_add(1, Ordering::Relaxed);
                    handler.on_message(peer, m)
                },
                || {},
            )
        };
        Server::serve(host, port, options, serve, log)
    }

    /// A proxy server: as [`Server::start`], but each connection reads through the
    /// protocol `P`'s [`Proxy`]: its handler gets every message of a type `P` has as its
    /// bytes, verified and not decoded (types `P` lacks are skipped, a message that fails
    /// verification drops the connection with the reason logged), to forward or route
    /// them unchanged.
    pub fn start_proxy<P, H, F>(
        host: &str,
        port: u16,
        options: Options,
        factory: F,
        log: Log,
    ) -> std::io::Result<Server>
    where
        P: Protocol,
        H: ProxyHandler,
        F: Fn(&Peer) -> H + Send + Sync + 'static,
    {
        let serve = move |conn: &Conn, peer: &Peer, shared: &ServerShared| {
            let mut handler = factory(peer);
            let o = &conn.options;
            let mut proxy = Proxy::<P>::new(o.format, o.receive_limits);
            read_chunks(
                conn,
                |chunk| {
                    proxy
                        .feed(chunk, |t, bytes| {
                            shared.messages.fetch_add(1, Ordering::Relaxed);
                            handler.on_message(peer, t, bytes)
                        })
                        .map_err(|e| e.to_string())?;
                    Ok(proxy.pending())
                },
                || {},
            )
        };
        Server::serve(host, port, options, serve, log)
    }

    /// Binds and accepts; `serve` runs each connection's reading to its end.
    fn serve<S>(host: &str, port: u16, options: Options, serve: S, log: Log) -> std::io::Result<Server>
    where
        S: Fn(&Conn, &Peer, &ServerShared) -> Option<String> + Send + Sync + 'static,
    {
        #[cfg(feature = "tls")]
        if matches!(options.tls, Some(crate::net_tls::TlsConfig::Client(..))) {
            return Err(std::io::Error::new(ErrorKind::InvalidInput, "a server needs a server TLS configuration"));
        }
        let listener = TcpListener::bind((host, port))?;
        listener.set_nonblocking(true)?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(ServerShared {
            stopping: AtomicBool::new(false),
            conns: Mutex::new(Vec::new()),
            live: AtomicUsize::new(0),
            accepted: AtomicU64::new(0),
            messages: AtomicU64::new(0),
        });
        let (sh, o, lg) = (shared.clone(), options.clone(), log.clone());
        let accept = thread::Builder::new()
            .name("fastwire-accept".into())
            .spawn(move || accept_loop(listener, sh, o, serve, lg))?;
        Ok(Server {
            addr,
            shared,
            accept: Some(accept),
            options,
            log,
        })
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }
    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }
    /// Connections open now.
    pub fn connections(&self) -> usize {
        self.shared.live.load(Ordering::Acquire)
    }
    /// Connections accepted so far.
    pub fn accepted(&self) -> u64 {
        self.shared.accepted.load(Ordering::Acquire)
    }
    /// Messages handled so far.
    pub fn messages(&self) -> u64 {
        self.shared.messages.load(Ordering::Acquire)
    }

    /// Graceful stop: stop accepting; discard further input; flush every connection's
    /// queue; half-close; close when the peer closes or at `shutdown_timeout`.
    pub fn stop(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        if self.shared.stopping.swap(true, Ordering::AcqRel) {
            return;
        }
        if let Some(a) = self.accept.take() {
            let _ = a.join();
        }
        let conns = std::mem::take(&mut *lock(&self.shared.conns));
        for (c, _) in &conns {
            c.stop_input.store(true, Ordering::Release);
            c.half_close();
        }
        let deadline = Instant::now() + self.options.shutdown_timeout;
        for (c, threads) in conns {
            let left = deadline.saturating_duration_since(Instant::now());
            if !c.wait_flushed(left) {
                let n = c.queued();
                c.kill(&format!("shutdown timed out with {n} bytes unsent"));
            }
            // The reader ends when the peer closes its side; then the connection closes.
            let waited = Instant::now();
            while !c.is_dead() && waited.elapsed() < deadline.saturating_duration_since(waited) {
                thread::sleep(Duration::from_millis(2));
            }
            c.kill("server stopping");
            for t in threads {
                let _ = t.join();
            }
        }
        (self.log)("server stopped");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_now();
    }
}

fn accept_loop<S>(listener: TcpListener, shared: Arc<ServerShared>, options: Options, serve: S, log: Log)
where
    S: Fn(&Conn, &Peer, &ServerShared) -> Option<String> + Send + Sync + 'static,
{
    let serve = Arc::new(serve);
    while !shared.stopping.load(Ordering::Acquire) {
        match listener.accept() {
            Ok((stream, remote)) => {
                let _ = stream.set_nonblocking(false);
                let id = shared.accepted.fetch_add(1, Ordering::AcqRel) + 1;
                let name = format!("connection {id} {remote}");
                if shared.live.load(Ordering::Acquire) >= options.max_connections {
                    log(&format!("{name} refused"));
                    continue;
                }
                log(&format!("{name} accepted"));
                let conn = match Conn::new(stream, name.clone(), options.clone(), log.clone()) {
                    Ok(c) => c,
                    Err(e) => {
                        log(&format!("{name} closed: handshake failed: {e}"));
                        continue;
                    }
                };
                let peer = Peer {
                    conn: conn.clone(),
                    id,
                    remote,
                    format: options.format,
                };
                shared.live.fetch_add(1, Ordering::AcqRel);
                let writer = {
                    let c = conn.clone();
                    thread::spawn(move || c.write_loop())
                };
                let reader = {
                    let (c, serve, sh) = (conn.clone(), serve.clone(), shared.clone());
                    thread::spawn(move || {
                        // TLS: the handshake on this thread, within connect_timeout
                        if let Err(r) = c.handshake(c.options.connect_timeout) {
                            c.kill(&r);
                            sh.live.fetch_sub(1, Ordering::AcqRel);
                            return;
                        }
                        let reason = serve(&c, &peer, &sh);
                        match reason {
                            // end of stream: flush what is queued for it, then close
                            None => {
                                c.half_close();
                                c.wait_flushed(c.options.shutdown_timeout);
                                c.kill("peer closed the connection");
                            }
                            Some(r) => c.kill(&r),
                        }
                        sh.live.fetch_sub(1, Ordering::AcqRel);
                    })
                };
                let mut conns = lock(&shared.conns);
                conns.retain(|(c, _)| !c.is_dead());
                conns.push((conn, vec![reader, writer]));
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                log(&format!("accept failed: {e}"));
                thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// Why a request failed.
#[derive(Debug)]
pub enum RequestError<P> {
    /// A `[reject]` with the request's id arrived (attached).
    Rejected(P),
    /// No answer within the timeout.
    Timeout,
    /// The connection dropped or closed before the answer (or was not up).
    Disconnected,
    /// The request could not be queued (the send queue is full).
    Overflow,
}

impl<P> std::fmt::Display for RequestError<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RequestError::Rejected(_) => "rejected",
            RequestError::Timeout => "timeout",
            RequestError::Disconnected => "disconnected",
            RequestError::Overflow => "overflow",
        })
    }
}

impl<P: std::fmt::Debug> std::error::Error for RequestError<P> {}

type Waiter<P> = mpsc::Sender<Result<P, RequestError<P>>>;

/// An answer on its way (see [`Client::request_async`]).
pub struct Answer<P> {
    rx: mpsc::Receiver<Result<P, RequestError<P>>>,
}

impl<P> Answer<P> {
    /// Waits for the answer (the request's timeout is enforced by the client).
    pub fn wait(self) -> Result<P, RequestError<P>> {
        self.rx.recv().unwrap_or(Err(RequestError::Disconnected))
    }
}

/// What a client shares between its caller and its reader thread: the connection up now
/// (None while down) and the requests waiting for answers on it.
struct Link<P> {
    conn: Option<Arc<Conn>>,
    pending: HashMap<Uuid, (Instant, Waiter<P>)>,
    closing: bool,
}

struct ClientShared<P> {
    link: Mutex<Link<P>>,
    /// Wakes a reconnect delay when the client closes.
    wake: Condvar,
    writers: Mutex<Vec<JoinHandle<()>>>,
    connects: AtomicU64,
}

impl<P> ClientShared<P> {
    fn link(&self) -> MutexGuard<'_, Link<P>> {
        lock(&self.link)
    }
}

/// Opens a client connection: TCP connect within `connect_timeout`.
fn open(host: &str, port: u16, options: &Options, log: &Log) -> std::io::Result<Arc<Conn>> {
    let started = Instant::now();
    let mut last = None;
    let mut stream = None;
    for a in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&a, options.connect_timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = Some(e),
        }
    }
    let stream = match stream {
        Some(s) => s,
        None => return Err(last.unwrap_or_else(|| std::io::Error::other("no address"))),
    };
    let name = format!("connection to {host}:{port}");
    #[cfg(feature = "tls")]
    if matches!(options.tls, Some(crate::net_tls::TlsConfig::Server(_))) {
        return Err(std::io::Error::new(ErrorKind::InvalidInput, "a client needs a client TLS configuration"));
    }
    let conn = Conn::new(stream, name, options.clone(), log.clone())?;
    // the handshake counts against connect_timeout too
    let left = options.connect_timeout.saturating_sub(started.elapsed());
    if let Err(reason) = conn.handshake(left.max(Duration::from_millis(1))) {
        conn.kill(&reason);
        return Err(std::io::Error::new(ErrorKind::ConnectionAborted, reason));
    }
    Ok(conn)
}

/// A client: one connection; requests matched on `[id]`, each failing by itself at its
/// timeout. With `reconnect_delay` set, a dropped connection is opened again (requests
/// pending on it fail with `Disconnected` and are not sent again).
pub struct Client<P: Protocol> {
    shared: Arc<ClientShared<P>>,
    reader: Option<JoinHandle<()>>,
    options: Options,
}

impl<P: Protocol> Client<P> {
    /// Connects to `host:port`; `on_message` gets every message that is not an answer
    /// to a request (on the client's reader thread).
    pub fn connect(
        host: &str,
        port: u16,
        options: Options,
        mut on_message: impl FnMut(P) + Send + 'static,
        log: Log,
    ) -> std::io::Result<Client<P>> {
        let conn = open(host, port, &options, &log)?;
        let shared = Arc::new(ClientShared {
            link: Mutex::new(Link {
                conn: Some(conn.clone()),
                pending: HashMap::new(),
                closing: false,
            }),
            wake: Condvar::new(),
            writers: Mutex::new(Vec::new()),
            connects: AtomicU64::new(1),
        });
        let start_writer = |shared: &ClientShared<P>, c: &Arc<Conn>| {
            let c = c.clone();
            let mut writers = lock(&shared.writers);
            writers.retain(|w| !w.is_finished());
            writers.push(thread::spawn(move || c.write_loop()));
        };
        start_writer(&shared, &conn);
        let (sh, o, host) = (shared.clone(), options.clone(), host.to_string());
        let reader = thread::spawn(move || {
            let mut conn = conn;
            loop {
                let reason = read_loop::<P>(
                    &conn,
                    |m| {
                        let kind = m.reply();
                        if kind != Reply::None {
                            if let Some(id) = m.id() {
                                let waiter = sh.link().pending.remove(&id);
                                if let Some((_, tx)) = waiter {
                                    let _ = tx.send(if kind == Reply::Response {
                                        Ok(m)
                                    } else {
                                        Err(RequestError::Rejected(m))
                                    });
                                    return Ok(());
                                }
                            }
                        }
                        on_message(m);
                        Ok(())
                    },
                    || {
                        let now = Instant::now();
                        let mut g = sh.link();
                        let expired: Vec<Uuid> =
                            g.pending.iter().filter(|(_, (d, _))| *d <= now).map(|(k, _)| *k).collect();
                        for id in expired {
                            if let Some((_, tx)) = g.pending.remove(&id) {
                                let _ = tx.send(Err(RequestError::Timeout));
                            }
                        }
                    },
                );
                conn.kill(&reason.unwrap_or_else(|| "closed by the server".into()));
                // The requests pending on this connection fail; none is sent again.
                let mut g = sh.link();
                g.conn = None;
                for (_, (_, tx)) in g.pending.drain() {
                    let _ = tx.send(Err(RequestError::Disconnected));
                }
                let Some(first) = o.reconnect_delay else { return };
                let mut delay = first;
                loop {
                    let until = Instant::now() + delay;
                    while !g.closing && Instant::now() < until {
                        let left = until.saturating_duration_since(Instant::now());
                        g = sh.wake.wait_timeout(g, left).unwrap_or_else(|e| e.into_inner()).0;
                    }
                    if g.closing {
                        return;
                    }
                    drop(g);
                    let opened = open(&host, port, &o, &log);
                    g = sh.link();
                    match opened {
                        Ok(c) if !g.closing => {
                            log(&format!("reconnected to {host}:{port}"));
                            sh.connects.fetch_add(1, Ordering::AcqRel);
                            g.conn = Some(c.clone());
                            start_writer(&sh, &c);
                            conn = c;
                            break;
                        }
                        Ok(c) => {
                            c.kill("closed by the client");
                            return;
                        }
                        Err(e) => {
                            log(&format!("connection to {host}:{port} failed: {e}; retrying"));
                            delay = (delay * 2).min(o.reconnect_max_delay.max(first));
                        }
                    }
                }
            }
        });
        Ok(Client {
            shared,
            reader: Some(reader),
            options,
        })
    }

    /// The connection up now.
    fn conn(&self) -> Option<Arc<Conn>> {
        self.shared.link().conn.clone()
    }

    /// Queues a message; false when it was not queued.
    pub fn send(&self, message: &P) -> bool {
        let Some(conn) = self.conn() else { return false };
        let mut buf = Vec::new();
        message.serialize(self.options.format, &mut buf).is_ok() && conn.push(&buf)
    }

    /// Queues a message's bytes (a whole root model in the connection's format, e.g. one a
    /// proxy server's handler forwards); false when it was not queued.
    pub fn send_bytes(&self, message: &[u8]) -> bool {
        self.conn().is_some_and(|c| c.push(message))
    }

    /// Sends a request and waits for its response (or reject, timeout, disconnect).
    pub fn request(&self, request: P) -> Result<P, RequestError<P>> {
        self.request_async(request, None).wait()
    }

    /// Sends a request; the answer arrives on the returned handle. `timeout` overrides
    /// `request_timeout`.
    pub fn request_async(&self, request: P, timeout: Option<Duration>) -> Answer<P> {
        let (tx, rx) = mpsc::channel();
        let answer = Answer {
            rx,
        };
        let Some(id) = request.id() else {
            let _ = tx.send(Err(RequestError::Disconnected));
            return answer;
        };
        let deadline = Instant::now() + timeout.unwrap_or(self.options.request_timeout);
        let conn = {
            let mut g = self.shared.link();
            match &g.conn {
                Some(c) if !g.closing && !c.is_dead() => {
                    let c = c.clone();
                    g.pending.insert(id, (deadline, tx));
                    c
                }
                _ => {
                    let _ = tx.send(Err(RequestError::Disconnected));
                    return answer;
                }
            }
        };
        let mut buf = Vec::new();
        if request.serialize(self.options.format, &mut buf).is_err() || !conn.push(&buf) {
            let dead = conn.is_dead();
            if let Some((_, tx)) = self.shared.link().pending.remove(&id) {
                let _ = tx.send(Err(if dead { RequestError::Disconnected } else { RequestError::Overflow }));
            }
        }
        answer
    }

    /// Bytes queued and not yet written (0 while disconnected).
    pub fn queued(&self) -> usize {
        self.conn().map_or(0, |c| c.queued())
    }

    /// True while the connection is up.
    pub fn connected(&self) -> bool {
        self.conn().is_some_and(|c| !c.is_dead())
    }

    /// Connections opened so far (1 + the reconnects).
    pub fn connects(&self) -> u64 {
        self.shared.connects.load(Ordering::Acquire)
    }

    /// Graceful close: no more sends; flush; half-close; keep reading so answers in
    /// flight arrive; close when the server closes (or at `shutdown_timeout`).
    pub fn close(mut self) {
        self.close_now();
    }

    fn close_now(&mut self) {
        let Some(reader) = self.reader.take() else { return };
        let conn = {
            let mut g = self.shared.link();
            g.closing = true;
            g.conn.clone()
        };
        self.shared.wake.notify_all();
        if let Some(conn) = conn {
            conn.half_close();
            let timeout = self.options.shutdown_timeout;
            if !conn.wait_flushed(timeout) {
                let n = conn.queued();
                conn.kill(&format!("shutdown timed out with {n} bytes unsent"));
            }
            let start = Instant::now();
            while !conn.is_dead() && start.elapsed() < timeout {
                thread::sleep(Duration::from_millis(2));
            }
            conn.kill("closed by the client");
        }
        let _ = reader.join();
        // A connection opened while closing is killed by the reader before it returns.
        if let Some(c) = self.shared.link().conn.take() {
            c.kill("closed by the client");
        }
        for t in lock(&self.shared.writers).drain(..) {
            let _ = t.join();
        }
    }
}

impl<P: Protocol> Drop for Client<P> {
    fn drop(&mut self) {
        self.close_now();
    }
}
