package fastwire

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Overflow is what a send does when the connection's send queue is full
// (docs/transport.md).
type Overflow int

const (
	// OverflowDisconnect closes the connection (the default).
	OverflowDisconnect Overflow = iota
	// OverflowFail refuses the message (ErrOverflow); the connection stays.
	OverflowFail
	// OverflowBlock waits for room up to WriteTimeout, then fails.
	OverflowBlock
)

// Options are the transport's policies; the zero value of a field means its default.
type Options struct {
	Final           bool // the final format instead of the versioned one
	MaxQueuedBytes  int  // send queue bound [8 MiB]
	Overflow        Overflow
	WriteTimeout    time.Duration // queued bytes making no progress [10 s]
	MessageTimeout  time.Duration // a started message must complete [10 s]
	IdleTimeout     time.Duration // nothing received: close [off]
	ReceiveLimits   Limits        // [DefaultLimits]
	MaxConnections  int           // server [10000]
	ConnectTimeout  time.Duration // [5 s]
	RequestTimeout  time.Duration // [10 s]
	ShutdownTimeout time.Duration // graceful close [5 s]
	// ReconnectDelay: a client made by Dial reconnects this long after a drop, the delay
	// doubling after each failed attempt up to ReconnectMaxDelay [off]. Requests pending
	// at the drop fail (ErrDisconnected); nothing is sent again (at most once).
	ReconnectDelay    time.Duration
	ReconnectMaxDelay time.Duration // [5 s]
	Log               func(line string)
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if o.MaxQueuedBytes == 0 {
		o.MaxQueuedBytes = 8 << 20
	}
	def(&o.WriteTimeout, 10*time.Second)
	def(&o.MessageTimeout, 10*time.Second)
	def(&o.ConnectTimeout, 5*time.Second)
	def(&o.RequestTimeout, 10*time.Second)
	def(&o.ShutdownTimeout, 5*time.Second)
	def(&o.ReconnectMaxDelay, 5*time.Second)
	if o.ReceiveLimits == (Limits{}) {
		o.ReceiveLimits = DefaultLimits
	}
	if o.MaxConnections == 0 {
		o.MaxConnections = 10000
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	return o
}

// Conn is one connection: a receiver (what arrives, framed and dispatched to a
// Dispatcher, one message at a time, in order) and a bounded send queue written by its
// own goroutine.
type Conn struct {
	c      net.Conn
	opts   Options
	name   string
	stream Stream

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []byte
	spare    []byte
	writing  int // bytes taken by the writer, not yet written
	closing  bool
	closed   bool
	reason   string
	stopRead atomic.Bool
	done     chan struct{}
	onClose  func(reason string)
}

func newConn(c net.Conn, opts Options, name string, d Dispatcher) *Conn {
	k := &Conn{c: c, opts: opts, name: name, done: make(chan struct{})}
	k.cond = sync.NewCond(&k.mu)
	k.stream = Stream{H: d, Final: opts.Final, Limits: &k.opts.ReceiveLimits}
	return k
}

// RemoteAddr is the peer's address.
func (k *Conn) RemoteAddr() net.Addr { return k.c.RemoteAddr() }

// Queued is the number of bytes sent and not yet written to the socket.
func (k *Conn) Queued() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.queue) + k.writing
}

// Done is closed when the connection is closed.
func (k *Conn) Done() <-chan struct{} { return k.done }

// Send queues m (see Options.Overflow). Safe from any goroutine.
func (k *Conn) Send(m Message) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	for {
		if k.closing || k.closed {
			return ErrDisconnected
		}
		start := len(k.queue)
		var err error
		k.queue, err = Marshal(k.queue, m, k.opts.Final)
		if err != nil {
			k.queue = k.queue[:start]
			return err
		}
		n := len(k.queue) - start
		if start+k.writing+n <= k.opts.MaxQueuedBytes {
			k.cond.Broadcast()
			return nil
		}
		k.queue = k.queue[:start] // never in part
		switch k.opts.Overflow {
		case OverflowFail:
			return ErrOverflow
		case OverflowBlock:
			if !k.waitRoom(n) {
				return ErrOverflow
			}
			continue
		}
		k.failLocked(fmt.Sprintf("send queue full (%d bytes queued, %d more, limit %d)",
			start+k.writing, n, k.opts.MaxQueuedBytes))
		return ErrOverflow
	}
}

// waitRoom waits (k.mu held) until n more bytes fit, up to WriteTimeout.
func (k *Conn) waitRoom(n int) bool {
	deadline := time.Now().Add(k.opts.WriteTimeout)
	t := time.AfterFunc(k.opts.WriteTimeout, func() {
		k.mu.Lock()
		k.cond.Broadcast()
		k.mu.Unlock()
	})
	defer t.Stop()
	for len(k.queue)+k.writing+n > k.opts.MaxQueuedBytes && !k.closing && !k.closed {
		if time.Now().After(deadline) {
			return false
		}
		k.cond.Wait()
	}
	return !k.closing && !k.closed
}

// Close closes gracefully: no more sends, the queue is flushed, the write side is
// half-closed, and the connection closes when the peer closes (or at ShutdownTimeout).
func (k *Conn) Close(reason string) {
	k.mu.Lock()
	if k.closing || k.closed {
		k.mu.Unlock()
		return
	}
	k.closing = true
	if k.reason == "" {
		k.reason = reason
	}
	k.cond.Broadcast()
	k.mu.Unlock()
	time.AfterFunc(k.opts.ShutdownTimeout, func() {
		k.mu.Lock()
		left := len(k.queue) + k.writing
		k.mu.Unlock()
		select {
		case <-k.done:
		default:
			k.fail(fmt.Sprintf("shutdown timed out with %d bytes unsent", left))
		}
	})
}

// fail closes at once with reason (the first reason is the one logged).
func (k *Conn) fail(reason string) {
	k.mu.Lock()
	k.failLocked(reason)
	k.mu.Unlock()
}

func (k *Conn) failLocked(reason string) {
	if k.closed {
		return
	}
	if k.reason == "" || !k.closing {
		k.reason = reason
	}
	k.closed = true
	k.cond.Broadcast()
	k.opts.Log(fmt.Sprintf("%s closed: %s", k.name, k.reason)) // before the peer can see it
	_ = k.c.Close()
	close(k.done)
	if k.onClose != nil {
		go k.onClose(k.reason)
	}
}

// writeLoop writes the queue until the connection closes; on a graceful close it
// flushes, then half-closes.
func (k *Conn) writeLoop() {
	for {
		k.mu.Lock()
		for len(k.queue) == 0 && !k.closing && !k.closed {
			k.cond.Wait()
		}
		if k.closed {
			k.mu.Unlock()
			return
		}
		if len(k.queue) == 0 && k.closing {
			k.mu.Unlock()
			if tc, ok := k.c.(interface{ CloseWrite() error }); ok {
				_ = tc.CloseWrite()
			}
			return
		}
		out := k.queue
		k.queue = k.spare[:0]
		k.writing = len(out)
		k.mu.Unlock()
		_ = k.c.SetWriteDeadline(time.Now().Add(k.opts.WriteTimeout))
		_, err := k.c.Write(out)
		k.mu.Lock()
		k.writing = 0
		k.spare = out[:0]
		k.cond.Broadcast()
		k.mu.Unlock()
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				k.fail(fmt.Sprintf("peer not reading: %d bytes unsent for %v", len(out), k.opts.WriteTimeout))
			} else {
				k.fail("write failed: " + err.Error())
			}
			return
		}
	}
}

// readLoop frames and dispatches what arrives, one message at a time, in order.
func (k *Conn) readLoop() {
	buf := make([]byte, 16<<10)
	var started time.Time
	for {
		pending := k.stream.Pending()
		switch {
		case pending > 0:
			_ = k.c.SetReadDeadline(started.Add(k.opts.MessageTimeout))
		case k.opts.IdleTimeout > 0:
			_ = k.c.SetReadDeadline(time.Now().Add(k.opts.IdleTimeout))
		default:
			_ = k.c.SetReadDeadline(time.Time{})
		}
		n, err := k.c.Read(buf)
		if n > 0 && !k.stopRead.Load() {
			if pending == 0 {
				started = time.Now()
			}
			if e := k.receive(buf[:n]); e != nil {
				var se *StreamError
				if errors.As(e, &se) {
					k.fail("protocol error: " + se.Error())
				} else if strings.HasPrefix(e.Error(), "handler failed") {
					k.fail(e.Error())
				} else {
					k.fail("protocol error: " + e.Error())
				}
				return
			}
			if k.stream.Pending() > 0 && pending == 0 {
				started = time.Now()
			}
		}
		if err != nil {
			p := k.stream.Pending()
			switch {
			case errors.Is(err, os.ErrDeadlineExceeded) && p > 0:
				k.fail(fmt.Sprintf("message incomplete after %v (%d bytes received)", k.opts.MessageTimeout, p))
			case errors.Is(err, os.ErrDeadlineExceeded):
				k.Close(fmt.Sprintf("idle for %v", k.opts.IdleTimeout))
				k.drain()
			case err == io.EOF && p > 0:
				k.fail(fmt.Sprintf("peer closed the connection in the middle of a message (%d bytes received)", p))
			case err == io.EOF:
				k.peerClosed()
			default:
				k.mu.Lock()
				closing := k.closing || k.closed
				k.mu.Unlock()
				if closing {
					k.fail(k.reason)
				} else {
					k.fail("read failed: " + err.Error())
				}
			}
			return
		}
	}
}

// receive feeds the stream; a hook that panics closes the connection with the panic.
func (k *Conn) receive(b []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("handler failed: %v", p)
		}
	}()
	return k.stream.Receive(b)
}

// peerClosed: flush what is queued for the peer, then close.
func (k *Conn) peerClosed() {
	k.mu.Lock()
	closing := k.closing
	if !k.closing {
		k.closing = true
		k.reason = "peer closed the connection"
		k.cond.Broadcast()
	}
	k.mu.Unlock()
	k.waitFlushed()
	if closing {
		k.fail(k.reason)
	} else {
		k.fail("peer closed the connection")
	}
}

// drain reads and discards until the peer closes (after a graceful close started here).
func (k *Conn) drain() {
	buf := make([]byte, 4096)
	_ = k.c.SetReadDeadline(time.Time{})
	for {
		if _, err := k.c.Read(buf); err != nil {
			k.waitFlushed()
			k.fail(k.reason)
			return
		}
	}
}

func (k *Conn) waitFlushed() {
	k.mu.Lock()
	for (len(k.queue) > 0 || k.writing > 0) && !k.closed {
		k.cond.Wait()
	}
	k.mu.Unlock()
}

// ---- server -------------------------------------------------------------------------------

// Server accepts connections and serves each with its own Dispatcher (made by
// newHandler for that connection, whose Conn is where replies go).
type Server struct {
	ln         net.Listener
	opts       Options
	newHandler func(*Conn) Dispatcher
	mu         sync.Mutex
	conns      map[*Conn]struct{}
	seq        int
	accepted   int
	stopping   bool
	wg         sync.WaitGroup
}

// Listen starts a server on addr ("host:port"; port 0 takes an ephemeral one).
func Listen(addr string, opts Options, newHandler func(*Conn) Dispatcher) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return Serve(ln, opts, newHandler), nil
}

// Serve serves the connections ln accepts: any net.Listener, e.g. tls.NewListener's for
// TLS.
func Serve(ln net.Listener, opts Options, newHandler func(*Conn) Dispatcher) *Server {
	s := &Server{ln: ln, opts: opts.withDefaults(), newHandler: newHandler, conns: map[*Conn]struct{}{}}
	s.wg.Add(1)
	go s.accept()
	return s
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Connections is the number of open connections.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *Server) accept() {
	defer s.wg.Done()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.seq++
		name := fmt.Sprintf("connection %d %s", s.seq, c.RemoteAddr())
		if s.stopping || len(s.conns) >= s.opts.MaxConnections {
			s.mu.Unlock()
			s.opts.Log(name + " refused")
			_ = c.Close()
			continue
		}
		s.accepted++
		s.mu.Unlock()
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetNoDelay(true)
		}
		k := newConn(c, s.opts, name, nil)
		d := s.newHandler(k)
		k.stream = *NewStream(d)
		k.stream.Final = s.opts.Final
		k.stream.Limits = &k.opts.ReceiveLimits
		k.onClose = func(string) {
			s.mu.Lock()
			delete(s.conns, k)
			s.mu.Unlock()
		}
		s.mu.Lock()
		s.conns[k] = struct{}{}
		s.mu.Unlock()
		s.opts.Log(name + " accepted")
		go k.writeLoop()
		go k.readLoop()
	}
}

// Stop stops accepting, stops handling input, flushes every connection's queue,
// half-closes, and waits until every connection is closed (at most ShutdownTimeout).
func (s *Server) Stop() {
	s.mu.Lock()
	s.stopping = true
	s.mu.Unlock()
	_ = s.ln.Close()
	s.wg.Wait()
	// The accept loop has ended: a connection it was still setting up when stopping was
	// set is in s.conns by now, so it is closed with the others (not left open).
	s.mu.Lock()
	conns := make([]*Conn, 0, len(s.conns))
	for k := range s.conns {
		conns = append(conns, k)
	}
	s.mu.Unlock()
	for _, k := range conns {
		k.stopRead.Store(true)
		k.Close("server stopping")
	}
	for _, k := range conns {
		<-k.done
	}
}

// ---- client -------------------------------------------------------------------------------

// ResponseDispatcher is a Dispatcher that offers responses and rejects to a hook first
// (generated Receivers).
type ResponseDispatcher interface {
	Dispatcher
	SetOnResponse(func(id any, m Message, reject bool) bool)
}

type call struct {
	ch chan result
}

type result struct {
	m   Message
	err error
}

// Client is one connection to a server: Send, Request (matched on [id], timing out by
// itself), Close. A client made by Dial with Options.ReconnectDelay set reconnects after
// a drop (docs/transport.md): while it is down, Send and Request fail at once with
// ErrDisconnected.
type Client struct {
	opts     Options
	d        ResponseDispatcher
	addr     string // the address Dial was given ("": no reconnect)
	mu       sync.Mutex
	conn     *Conn // the current (or last) connection
	pending  map[any]*call
	closing  bool
	connects int
	stop     chan struct{} // closed by Close: ends a reconnect loop
}

// Dial connects to addr; d receives what is not an answer to a request.
func Dial(addr string, opts Options, d ResponseDispatcher) (*Client, error) {
	opts = opts.withDefaults()
	c, err := dialTCP(addr, opts.ConnectTimeout)
	if err != nil {
		return nil, err
	}
	cl := newClient(opts, d)
	cl.addr = addr
	cl.mu.Lock()
	cl.attach(c)
	cl.mu.Unlock()
	return cl, nil
}

func dialTCP(addr string, timeout time.Duration) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	return c, nil
}

// NewClient runs the client side over an established connection: any net.Conn, e.g.
// tls.Client's for TLS, or one end of net.Pipe. It does not reconnect.
func NewClient(c net.Conn, opts Options, d ResponseDispatcher) *Client {
	cl := newClient(opts.withDefaults(), d)
	cl.mu.Lock()
	cl.attach(c)
	cl.mu.Unlock()
	return cl
}

func newClient(opts Options, d ResponseDispatcher) *Client {
	cl := &Client{opts: opts, d: d, pending: map[any]*call{}, stop: make(chan struct{})}
	d.SetOnResponse(cl.answer)
	return cl
}

// attach makes c the client's connection (c.mu held).
func (c *Client) attach(nc net.Conn) {
	k := newConn(nc, c.opts, "connection to "+nc.RemoteAddr().String(), c.d)
	k.stream.Final = c.opts.Final
	k.onClose = func(string) { c.dropped() }
	c.conn = k
	c.connects++
	go k.writeLoop()
	go k.readLoop()
}

// dropped runs when the connection has closed: the pending requests fail, then the
// client reconnects if it should.
func (c *Client) dropped() {
	c.failAll(ErrDisconnected)
	c.mu.Lock()
	again := c.addr != "" && c.opts.ReconnectDelay > 0 && !c.closing
	c.mu.Unlock()
	if again {
		go c.reconnect()
	}
}

// reconnect dials until it succeeds or the client is closed, waiting ReconnectDelay
// first and doubling the wait after each failure, up to ReconnectMaxDelay.
func (c *Client) reconnect() {
	delay := c.opts.ReconnectDelay
	for {
		t := time.NewTimer(delay)
		select {
		case <-c.stop:
			t.Stop()
			return
		case <-t.C:
		}
		nc, err := dialTCP(c.addr, c.opts.ConnectTimeout)
		if err == nil {
			c.mu.Lock()
			if c.closing {
				c.mu.Unlock()
				_ = nc.Close()
				return
			}
			c.attach(nc)
			c.mu.Unlock()
			c.opts.Log("reconnected to " + c.addr)
			return
		}
		delay = min(2*delay, c.opts.ReconnectMaxDelay)
		c.opts.Log(fmt.Sprintf("connect to %s failed: %v; retrying in %v", c.addr, err, delay))
	}
}

// Conn is the client's current connection (after a drop, the closed one until the
// client has reconnected).
func (c *Client) Conn() *Conn {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn
}

// Connected tells whether the client's connection is up.
func (c *Client) Connected() bool {
	select {
	case <-c.Conn().done:
		return false
	default:
		return true
	}
}

// Connects is how many connections the client has made (1 + the reconnects).
func (c *Client) Connects() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.connects
}

// Send queues m (ErrDisconnected while the client is not connected).
func (c *Client) Send(m Message) error { return c.Conn().Send(m) }

// Request sends q and waits for the answer with q's id; timeout 0 means
// Options.RequestTimeout. Errors: ErrRejected (*RejectedError), ErrTimeout,
// ErrDisconnected, ErrOverflow.
func (c *Client) Request(q Request, timeout time.Duration) (Message, error) {
	if timeout <= 0 {
		timeout = c.opts.RequestTimeout
	}
	id := q.FBERequestID()
	k := &call{ch: make(chan result, 1)}
	c.mu.Lock()
	conn := c.conn
	select {
	case <-conn.done:
		c.mu.Unlock()
		return nil, ErrDisconnected
	default:
	}
	c.pending[id] = k
	c.mu.Unlock()
	if err := conn.Send(q); err != nil {
		c.drop(id, k)
		if errors.Is(err, ErrDisconnected) {
			return nil, ErrDisconnected
		}
		return nil, ErrOverflow
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-k.ch:
		return r.m, r.err
	case <-t.C:
		c.drop(id, k)
		return nil, ErrTimeout
	}
}

func (c *Client) drop(id any, k *call) {
	c.mu.Lock()
	if c.pending[id] == k {
		delete(c.pending, id)
	}
	c.mu.Unlock()
}

// answer takes a response or reject whose id a request waits for.
func (c *Client) answer(id any, m Message, reject bool) bool {
	c.mu.Lock()
	k, ok := c.pending[id]
	if ok {
		delete(c.pending, id)
	}
	c.mu.Unlock()
	if !ok {
		return false
	}
	if reject {
		k.ch <- result{err: &RejectedError{Message: m}}
	} else {
		k.ch <- result{m: m}
	}
	return true
}

func (c *Client) failAll(err error) {
	c.mu.Lock()
	p := c.pending
	c.pending = map[any]*call{}
	c.mu.Unlock()
	for _, k := range p {
		k.ch <- result{err: err}
	}
}

// Close flushes what is queued, half-closes, keeps reading (answers in flight still
// arrive) and returns when the server has closed its side (or at ShutdownTimeout).
// A reconnecting client stops reconnecting.
func (c *Client) Close() {
	c.mu.Lock()
	if !c.closing {
		c.closing = true
		close(c.stop)
	}
	k := c.conn
	c.mu.Unlock()
	k.Close("closed by the client")
	<-k.done
}
