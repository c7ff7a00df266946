//! The async transport over tokio (feature `tokio`), following docs/transport.md like the
//! blocking [`crate::net`]: a server bound to any address that serves many clients at once
//! and answers each on its own connection, a client whose requests time out by themselves,
//! bounded send queues with the `overflow` policies, message, write and idle timeouts, and
//! a graceful shutdown that loses nothing queued.
//!
//! Each connection is two tasks on the caller's runtime: a reader (framing, dispatch,
//! timers) and a writer (drains the send queue). Handlers run on their connection's
//! reader task, one message at a time, in arrival order; they are plain functions that
//! queue replies with [`Peer::send`] and do not block.
//!
//! ```ignore
//! let server = Server::start("::", 0, Options::default(), |peer: &Peer| Echo(peer.clone()), log).await?;
//! let client = Client::<service::Message>::connect("127.0.0.1", server.port(), Options::default(), |_m| {}, log).await?;
//! let ack = client.request(service::OrderRequest { ..Default::default() }.into()).await?;
//! client.close().await;
//! server.stop().await;
//! ```
//!
//! The policies, log and request errors are the blocking transport's ([`Options`],
//! [`Overflow`], [`Log`], [`RequestError`]). The `block` overflow policy waits in
//! [`Peer::send_wait`] / [`Client::send_wait`]; the plain `send` cannot wait on the
//! runtime, so under `block` it fails at once when the queue is full (as C++ does on a
//! connection's own I/O thread).

pub use crate::net::{no_log, Log, Options, Overflow, RequestError};

/// The tokio transport has no TLS yet (`Options::tls` is the blocking transport's): refuse
/// it rather than run in the clear. Reconnect (`reconnect_delay`) is not done here either.
fn no_tls(options: &Options) -> std::io::Result<()> {
    #[cfg(feature = "tls")]
    if options.tls.is_some() {
        return Err(std::io::Error::new(std::io::ErrorKind::Unsupported, "TLS is not supported by net_tokio yet"));
    }
    let _ = options;
    Ok(())
}
use crate::protocol::{Format, Protocol, Receiver, Reply};
use crate::types::Uuid;
use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{oneshot, watch, Notify};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};

struct Queue {
    bytes: Vec<u8>,
    in_flight: usize,
    half_close: bool,
    dead: bool,
    writer_done: bool,
}

/// One connection's shared state: the send queue, its name for the log, its signals.
struct Conn {
    name: String,
    options: Options,
    queue: Mutex<Queue>,
    /// Wakes the writer (a stored permit: no wake-up is lost).
    wake_writer: Notify,
    /// Bumped on every change a waiter may wait for: room in the queue, flushed, dead.
    changed: watch::Sender<u64>,
    /// Becomes true when the connection is closed at once.
    dead_tx: watch::Sender<bool>,
    reason: Mutex<Option<String>>,
    log: Log,
    stop_input: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

enum Either<A, B> {
    Left(A),
    Right(B),
}

/// Whichever of two futures completes first (`a` is polled first); the other is
/// dropped. (tokio's `select!` would need its `macros` feature and a proc-macro build.)
async fn first<A: Future, B: Future>(a: A, b: B) -> Either<A::Output, B::Output> {
    let mut a = std::pin::pin!(a);
    let mut b = std::pin::pin!(b);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(x) = a.as_mut().poll(cx) {
            return Poll::Ready(Either::Left(x));
        }
        if let Poll::Ready(x) = b.as_mut().poll(cx) {
            return Poll::Ready(Either::Right(x));
        }
        Poll::Pending
    })
    .await
}

impl Conn {
    fn new(name: String, options: Options, log: Log) -> Arc<Conn> {
        Arc::new(Conn {
            name,
            options,
            queue: Mutex::new(Queue {
                bytes: Vec::new(),
                in_flight: 0,
                half_close: false,
                dead: false,
                writer_done: false,
            }),
            wake_writer: Notify::new(),
            changed: watch::channel(0).0,
            dead_tx: watch::channel(false).0,
            reason: Mutex::new(None),
            log,
            stop_input: AtomicBool::new(false),
        })
    }

    fn bump(&self) {
        self.changed.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// Records the first reason the connection ends, and logs it.
    fn set_reason(&self, reason: &str) {
        let mut r = lock(&self.reason);
        if r.is_none() {
            *r = Some(reason.to_string());
            (self.log)(&format!("{} closed: {}", self.name, reason));
        }
    }

    /// Closes at once (no flush): both tasks end and drop the socket.
    fn kill(&self, reason: &str) {
        self.set_reason(reason);
        lock(&self.queue).dead = true;
        self.dead_tx.send_replace(true);
        self.wake_writer.notify_one();
        self.bump();
    }

    fn is_dead(&self) -> bool {
        lock(&self.queue).dead
    }

    fn queued(&self) -> usize {
        let q = lock(&self.queue);
        q.bytes.len() + q.in_flight
    }

    /// Queues a whole message if the policy lets it in now. Err(()) under `block` when
    /// there is no room yet.
    fn try_push(&self, msg: &[u8]) -> Result<bool, ()> {
        let max = self.options.max_queued_bytes;
        let mut q = lock(&self.queue);
        if q.dead || q.half_close {
            return Ok(false);
        }
        let queued = q.bytes.len() + q.in_flight;
        if queued + msg.len() > max && queued > 0 {
            return match self.options.overflow {
                Overflow::Fail => Ok(false),
                Overflow::Block => Err(()),
                Overflow::Disconnect => {
                    drop(q);
                    self.kill(&format!("send queue full ({queued} bytes queued, {} more, limit {max})", msg.len()));
                    Ok(false)
                }
            };
        }
        q.bytes.extend_from_slice(msg);
        drop(q);
        self.wake_writer.notify_one();
        Ok(true)
    }

    /// Queues a message; under `block`, fails at once when full.
    fn push(&self, msg: &[u8]) -> bool {
        self.try_push(msg).unwrap_or(false)
    }

    /// Queues a message; under `block`, waits for room up to `write_timeout`.
    async fn push_wait(&self, msg: &[u8]) -> bool {
        let deadline = Instant::now() + self.options.write_timeout;
        loop {
            let mut rx = self.changed.subscribe();
            match self.try_push(msg) {
                Ok(done) => return done,
                Err(()) => {
                    if tokio::time::timeout_at(deadline, rx.changed()).await.is_err() {
                        return false;
                    }
                }
            }
        }
    }

    /// Waits until `done` holds (checked after every change) or `deadline`.
    async fn wait_until(&self, deadline: Instant, done: impl Fn(&Queue) -> bool) -> bool {
        loop {
            let mut rx = self.changed.subscribe();
            if done(&lock(&self.queue)) {
                return true;
            }
            if tokio::time::timeout_at(deadline, rx.changed()).await.is_err() {
                return false;
            }
        }
    }

    /// Waits until the writer has flushed and half-closed (or the connection died).
    async fn wait_flushed(&self, deadline: Instant) -> bool {
        self.wait_until(deadline, |q| q.writer_done || q.dead).await
    }

    async fn wait_dead(&self, deadline: Instant) -> bool {
        self.wait_until(deadline, |q| q.dead).await
    }

    /// Starts a graceful close: no more sends, flush, half-close.
    fn half_close(&self) {
        lock(&self.queue).half_close = true;
        self.wake_writer.notify_one();
    }

    /// The writer task: drains the queue; after a half-close, flushes and shuts the
    /// socket's sending side.
    async fn write_loop(self: Arc<Self>, mut w: OwnedWriteHalf) {
        let mut dead = self.dead_tx.subscribe();
        let mut spare = Vec::new();
        loop {
            loop {
                // 0: bytes to write; 1: half-close now; 2: dead; 3: nothing yet
                let action = {
                    let mut q = lock(&self.queue);
                    if q.dead {
                        q.writer_done = true;
                        2
                    } else if !q.bytes.is_empty() {
                        std::mem::swap(&mut q.bytes, &mut spare);
                        q.in_flight = spare.len();
                        0
                    } else if q.half_close {
                        1
                    } else {
                        3
                    }
                };
                match action {
                    0 => break,
                    1 => {
                        let _ = tokio::time::timeout(self.options.write_timeout, w.shutdown()).await;
                        lock(&self.queue).writer_done = true;
                        self.bump();
                        return;
                    }
                    2 => {
                        self.bump();
                        return;
                    }
                    _ => self.wake_writer.notified().await,
                }
            }
            let mut at = 0;
            let mut failure = None;
            while at < spare.len() {
                let write = tokio::time::timeout(self.options.write_timeout, w.write(&spare[at..]));
                match first(write, dead.wait_for(|d| *d)).await {
                    Either::Left(Ok(Ok(0))) => failure = Some("write failed: wrote zero bytes".to_string()),
                    Either::Left(Ok(Ok(n))) => at += n,
                    Either::Left(Ok(Err(e))) => failure = Some(format!("write failed: {e}")),
                    Either::Left(Err(_)) => {
                        failure = Some(format!(
                            "peer not reading: {} bytes unsent after {:?}",
                            spare.len() - at,
                            self.options.write_timeout
                        ))
                    }
                    Either::Right(_) => failure = Some("closed".to_string()),
                }
                if failure.is_some() {
                    break;
                }
            }
            lock(&self.queue).in_flight = 0;
            self.bump();
            if let Some(reason) = failure {
                self.kill(&reason);
            }
            spare.clear();
        }
    }
}

/// The read loop shared by servers and clients: frames and dispatches, enforces the
/// message and idle timeouts, calls `tick` on every timer tick. Returns the reason the
/// stream ended (None: end of stream after a whole message).
async fn read_loop<P: Protocol>(
    conn: &Conn,
    mut r: OwnedReadHalf,
    mut on_message: impl FnMut(P) -> Result<(), String>,
    mut tick: impl FnMut(),
) -> Option<String> {
    let o = &conn.options;
    let mut dead = conn.dead_tx.subscribe();
    let mut ticks = tokio::time::interval(o.tick());
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut receiver = Receiver::<P>::new(o.format, o.receive_limits);
    let mut buf = vec![0u8; 16 << 10];
    let mut partial_since: Option<Instant> = None;
    let mut last_input = Instant::now();
    loop {
        if *dead.borrow() {
            return Some("closed".into());
        }
        match first(r.read(&mut buf), first(ticks.tick(), dead.wait_for(|d| *d))).await {
            Either::Left(Ok(0)) => {
                let pending = receiver.pending();
                return if pending > 0 {
                    Some(format!("peer closed the connection in the middle of a message ({pending} bytes received)"))
                } else {
                    None
                };
            }
            Either::Left(Ok(n)) => {
                last_input = Instant::now();
                if conn.stop_input.load(Ordering::Acquire) {
                    continue; // stopping: what arrives now is discarded
                }
                if let Err(e) = receiver.feed(&buf[..n], &mut on_message) {
                    return Some(e.to_string());
                }
                partial_since = if receiver.pending() > 0 { partial_since.or(Some(last_input)) } else { None };
                continue;
            }
            Either::Left(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Either::Left(Err(e)) => {
                if conn.is_dead() {
                    return Some("closed".into());
                }
                return Some(format!("read failed: {e}"));
            }
            Either::Right(Either::Left(_)) => {}
            Either::Right(Either::Right(_)) => return Some("closed".into()),
        }
        tick();
        if let Some(since) = partial_since {
            if since.elapsed() >= o.message_timeout && !conn.stop_input.load(Ordering::Acquire) {
                return Some(format!(
                    "message incomplete after {} ms ({} bytes received)",
                    o.message_timeout.as_millis(),
                    receiver.pending()
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
    /// Queues a message to this client (from anywhere, without waiting); false when it
    /// was not queued.
    pub fn send<P: Protocol>(&self, message: &P) -> bool {
        let mut buf = Vec::new();
        message.serialize(self.format, &mut buf).is_ok() && self.conn.push(&buf)
    }
    /// Queues a message; under the `block` policy waits for room up to `write_timeout`.
    pub async fn send_wait<P: Protocol>(&self, message: &P) -> bool {
        let mut buf = Vec::new();
        message.serialize(self.format, &mut buf).is_ok() && self.conn.push_wait(&buf).await
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
/// factory); runs on the connection's reader task and must not block.
pub trait Handler<P: Protocol>: Send + 'static {
    /// A message arrived; an error closes the connection with it.
    fn on_message(&mut self, peer: &Peer, message: P) -> Result<(), String>;
}

/// A connection and its tasks.
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
    stop_tx: watch::Sender<bool>,
    accept: Option<JoinHandle<()>>,
    options: Options,
    log: Log,
}

impl Server {
    /// Binds `host:port` (port 0: an ephemeral one; "::" or "0.0.0.0": every address)
    /// and serves on the current tokio runtime; `factory` makes each connection's handler.
    pub async fn start<P, H, F>(
        host: &str,
        port: u16,
        options: Options,
        factory: F,
        log: Log,
    ) -> std::io::Result<Server>
    where
        P: Protocol,
        H: Handler<P>,
        F: Fn(&Peer) -> H + Send + Sync + 'static,
    {
        no_tls(&options)?;
        let listener = TcpListener::bind((host, port)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(ServerShared {
            stopping: AtomicBool::new(false),
            conns: Mutex::new(Vec::new()),
            live: AtomicUsize::new(0),
            accepted: AtomicU64::new(0),
            messages: AtomicU64::new(0),
        });
        let stop_tx = watch::channel(false).0;
        let stop_rx = stop_tx.subscribe();
        let accept = tokio::spawn(accept_loop::<P, H, F>(
            listener,
            stop_rx,
            shared.clone(),
            options.clone(),
            factory,
            log.clone(),
        ));
        Ok(Server {
            addr,
            shared,
            stop_tx,
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
    pub async fn stop(mut self) {
        if self.shared.stopping.swap(true, Ordering::AcqRel) {
            return;
        }
        self.stop_tx.send_replace(true);
        if let Some(a) = self.accept.take() {
            let _ = a.await;
        }
        let conns = std::mem::take(&mut *lock(&self.shared.conns));
        for (c, _) in &conns {
            c.stop_input.store(true, Ordering::Release);
            c.half_close();
        }
        let deadline = Instant::now() + self.options.shutdown_timeout;
        for (c, tasks) in conns {
            if !c.wait_flushed(deadline).await {
                let n = c.queued();
                c.kill(&format!("shutdown timed out with {n} bytes unsent"));
            }
            // The reader ends when the peer closes its side; then the connection closes.
            c.wait_dead(deadline).await;
            c.kill("server stopping");
            for t in tasks {
                let _ = t.await;
            }
        }
        (self.log)("server stopped");
    }
}

impl Drop for Server {
    /// Without [`Server::stop`]: stops accepting and closes every connection at once.
    fn drop(&mut self) {
        if self.shared.stopping.swap(true, Ordering::AcqRel) {
            return;
        }
        self.stop_tx.send_replace(true);
        for (c, _) in std::mem::take(&mut *lock(&self.shared.conns)) {
            c.kill("server stopping");
        }
    }
}

async fn accept_loop<P, H, F>(
    listener: TcpListener,
    mut stop: watch::Receiver<bool>,
    shared: Arc<ServerShared>,
    options: Options,
    factory: F,
    log: Log,
) where
    P: Protocol,
    H: Handler<P>,
    F: Fn(&Peer) -> H + Send + Sync + 'static,
{
    let factory = Arc::new(factory);
    loop {
        let accepted = match first(listener.accept(), stop.wait_for(|s| *s)).await {
            Either::Left(a) => a,
            Either::Right(_) => return,
        };
        let (stream, remote) = match accepted {
            Ok(a) => a,
            Err(e) => {
                log(&format!("accept failed: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let id = shared.accepted.fetch_add(1, Ordering::AcqRel) + 1;
        let name = format!("connection {id} {remote}");
        if shared.live.load(Ordering::Acquire) >= options.max_connections {
            log(&format!("{name} refused"));
            continue;
        }
        log(&format!("{name} accepted"));
        let _ = stream.set_nodelay(true);
        let (r, w) = stream.into_split();
        let conn = Conn::new(name, options.clone(), log.clone());
        let peer = Peer {
            conn: conn.clone(),
            id,
            remote,
            format: options.format,
        };
        shared.live.fetch_add(1, Ordering::AcqRel);
        let writer = tokio::spawn(conn.clone().write_loop(w));
        let reader = {
            let (c, f, sh) = (conn.clone(), factory.clone(), shared.clone());
            tokio::spawn(async move {
                let mut handler = f(&peer);
                let reason = read_loop::<P>(
                    &c,
                    r,
                    |m| {
                        sh.messages.fetch_add(1, Ordering::Relaxed);
                        handler.on_message(&peer, m)
                    },
                    || {},
                )
                .await;
                match reason {
                    // end of stream: flush what is queued for it, then close
                    None => {
                        c.half_close();
                        c.wait_flushed(Instant::now() + c.options.shutdown_timeout).await;
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
}

type Waiter<P> = oneshot::Sender<Result<P, RequestError<P>>>;

struct Pending<P> {
    map: HashMap<Uuid, (Instant, Waiter<P>)>,
    closed: bool,
}

/// An answer on its way (see [`Client::request_with`]): a future of the response.
pub struct Answer<P> {
    rx: oneshot::Receiver<Result<P, RequestError<P>>>,
}

impl<P> Future for Answer<P> {
    type Output = Result<P, RequestError<P>>;
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.rx).poll(cx).map(|r| r.unwrap_or(Err(RequestError::Disconnected)))
    }
}

/// A client: one connection; requests matched on `[id]`, each failing by itself at its
/// timeout.
pub struct Client<P: Protocol> {
    conn: Arc<Conn>,
    pending: Arc<Mutex<Pending<P>>>,
    tasks: Vec<JoinHandle<()>>,
    format: Format,
}

impl<P: Protocol> Client<P> {
    /// Connects to `host:port` (each of its addresses in turn, each within
    /// `connect_timeout`); `on_message` gets every message that is not an answer to a
    /// request (on the client's reader task).
    pub async fn connect(
        host: &str,
        port: u16,
        options: Options,
        mut on_message: impl FnMut(P) + Send + 'static,
        log: Log,
    ) -> std::io::Result<Client<P>> {
        no_tls(&options)?;
        let mut last = None;
        let mut stream = None;
        for a in tokio::net::lookup_host((host, port)).await? {
            match tokio::time::timeout(options.connect_timeout, TcpStream::connect(a)).await {
                Ok(Ok(s)) => {
                    stream = Some(s);
                    break;
                }
                Ok(Err(e)) => last = Some(e),
                Err(_) => last = Some(std::io::Error::new(std::io::ErrorKind::TimedOut, "connect timed out")),
            }
        }
        let stream = match stream {
            Some(s) => s,
            None => return Err(last.unwrap_or_else(|| std::io::Error::other("no address"))),
        };
        let _ = stream.set_nodelay(true);
        let (r, w) = stream.into_split();
        let format = options.format;
        let conn = Conn::new(format!("connection to {host}:{port}"), options, log);
        let pending: Arc<Mutex<Pending<P>>> = Arc::new(Mutex::new(Pending {
            map: HashMap::new(),
            closed: false,
        }));
        let writer = tokio::spawn(conn.clone().write_loop(w));
        let reader = {
            let (c, p) = (conn.clone(), pending.clone());
            tokio::spawn(async move {
                let p2 = p.clone();
                let reason = read_loop::<P>(
                    &c,
                    r,
                    |m| {
                        let kind = m.reply();
                        if kind != Reply::None {
                            if let Some(id) = m.id() {
                                let waiter = lock(&p).map.remove(&id);
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
                        let mut g = lock(&p2);
                        let expired: Vec<Uuid> =
                            g.map.iter().filter(|(_, (d, _))| *d <= now).map(|(k, _)| *k).collect();
                        for id in expired {
                            if let Some((_, tx)) = g.map.remove(&id) {
                                let _ = tx.send(Err(RequestError::Timeout));
                            }
                        }
                    },
                )
                .await;
                match reason {
                    // the server closed its side: flush what is queued for it, then close
                    None => {
                        c.half_close();
                        c.wait_flushed(Instant::now() + c.options.shutdown_timeout).await;
                        c.kill("closed by the server");
                    }
                    Some(r) => c.kill(&r),
                }
                let mut g = lock(&p);
                g.closed = true;
                for (_, (_, tx)) in g.map.drain() {
                    let _ = tx.send(Err(RequestError::Disconnected));
                }
            })
        };
        Ok(Client {
            conn,
            pending,
            tasks: vec![reader, writer],
            format,
        })
    }

    /// Queues a message without waiting; false when it was not queued.
    pub fn send(&self, message: &P) -> bool {
        let mut buf = Vec::new();
        message.serialize(self.format, &mut buf).is_ok() && self.conn.push(&buf)
    }

    /// Queues a message; under the `block` policy waits for room up to `write_timeout`.
    pub async fn send_wait(&self, message: &P) -> bool {
        let mut buf = Vec::new();
        message.serialize(self.format, &mut buf).is_ok() && self.conn.push_wait(&buf).await
    }

    /// Sends a request and waits for its response (or reject, timeout, disconnect).
    pub async fn request(&self, request: P) -> Result<P, RequestError<P>> {
        self.request_with(request, None).await
    }

    /// Queues a request now; its answer is the returned future. `timeout` overrides
    /// `request_timeout`; the client fails the request by itself when it passes.
    pub fn request_with(&self, request: P, timeout: Option<Duration>) -> Answer<P> {
        let (tx, rx) = oneshot::channel();
        let answer = Answer {
            rx,
        };
        let Some(id) = request.id() else {
            let _ = tx.send(Err(RequestError::Disconnected));
            return answer;
        };
        let deadline = Instant::now() + timeout.unwrap_or(self.conn.options.request_timeout);
        {
            let mut g = lock(&self.pending);
            if g.closed || self.conn.is_dead() {
                let _ = tx.send(Err(RequestError::Disconnected));
                return answer;
            }
            g.map.insert(id, (deadline, tx));
        }
        let mut buf = Vec::new();
        if request.serialize(self.format, &mut buf).is_err() || !self.conn.push(&buf) {
            let dead = self.conn.is_dead();
            if let Some((_, tx)) = lock(&self.pending).map.remove(&id) {
                let _ = tx.send(Err(if dead { RequestError::Disconnected } else { RequestError::Overflow }));
            }
        }
        answer
    }

    /// Bytes queued and not yet written.
    pub fn queued(&self) -> usize {
        self.conn.queued()
    }

    /// True while the connection is up.
    pub fn connected(&self) -> bool {
        !self.conn.is_dead()
    }

    /// Graceful close: no more sends; flush; half-close; keep reading so answers in
    /// flight arrive; close when the server closes (or at `shutdown_timeout`).
    pub async fn close(mut self) {
        self.conn.half_close();
        let deadline = Instant::now() + self.conn.options.shutdown_timeout;
        if !self.conn.wait_flushed(deadline).await {
            let n = self.conn.queued();
            self.conn.kill(&format!("shutdown timed out with {n} bytes unsent"));
        }
        self.conn.wait_dead(deadline).await;
        self.conn.kill("closed by the client");
        for t in self.tasks.drain(..) {
            let _ = t.await;
        }
    }
}

impl<P: Protocol> Drop for Client<P> {
    /// Without [`Client::close`]: closes at once.
    fn drop(&mut self) {
        if !self.tasks.is_empty() {
            self.conn.kill("closed by the client");
        }
    }
}
