package fastwire_test

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	fw "github.com/fastwire-fbe/fastwire/go"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/proto"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/service"
)

func seedAccount(t testing.TB) proto.Account {
	var a proto.Account
	if err := a.UnmarshalFBE(vector(t, "account.fbe.hex")); err != nil {
		t.Fatal(err)
	}
	return a
}

func equalJSON(a, b interface{ AppendJSON([]byte) []byte }) bool {
	return string(a.AppendJSON(nil)) == string(b.AppendJSON(nil))
}

// startCppServer runs examples/cpp/server (FASTWIRE_CPP_SERVER) and returns its address.
func startCppServer(t *testing.T, final bool) (string, *exec.Cmd) {
	path, set := os.LookupEnv("FASTWIRE_CPP_SERVER")
	if !set {
		t.Skip("FASTWIRE_CPP_SERVER is not set (make test-go sets it)")
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("FASTWIRE_CPP_SERVER=%s: the C++ example server is missing (build the C++ tree: make build): %v", path, err)
	}
	args := []string{"127.0.0.1", "0"}
	if final {
		args = append(args, "--final")
	}
	cmd := exec.Command(path, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "listening" {
		_ = cmd.Process.Kill()
		t.Fatalf("server said %q (%v)", line, err)
	}
	go func() { _, _ = bufio.NewReader(out).ReadString(0) }()
	return net.JoinHostPort(f[1], f[2]), cmd
}

// The C++ example server and a Go client exchange the seed messages, a request answered
// and one rejected, in both formats.
func TestCppServerExchange(t *testing.T) {
	for _, final := range []bool{false, true} {
		t.Run(fmt.Sprintf("final=%v", final), func(t *testing.T) {
			addr, cmd := startCppServer(t, final)
			account := seedAccount(t)
			echoes := make(chan fw.Message, 8)
			r := service.NewReceiver()
			r.Final = final
			r.OnOrderMessage = func(m *service.OrderMessage) { c := *m; echoes <- &c }
			r.OnBalanceMessage = func(m *service.BalanceMessage) { c := *m; echoes <- &c }
			r.OnAccountMessage = func(m *service.AccountMessage) {
				var c service.AccountMessage
				_ = c.UnmarshalFBE(m.MarshalFBE(nil)) // a deep copy
				echoes <- &c
			}
			c, err := fw.Dial(addr, fw.Options{Final: final, Log: func(s string) { t.Log(s) }}, r)
			if err != nil {
				t.Fatal(err)
			}
			order := account.Orders[0]
			sent := []fw.Message{
				&service.OrderMessage{Body: order},
				&service.BalanceMessage{Body: account.Wallet},
				&service.AccountMessage{Body: account},
			}
			for _, m := range sent {
				if err := c.Send(m); err != nil {
					t.Fatal(err)
				}
			}
			for i, m := range sent {
				select {
				case e := <-echoes:
					if string(e.MarshalFBE(nil)) != string(m.MarshalFBE(nil)) {
						t.Fatalf("echo %d differs", i)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("no echo %d", i)
				}
			}
			q := service.NewOrderRequest()
			q.Order = order
			ack, err := service.RequestOrderRequest(c, &q, 0)
			if err != nil || ack.Id != q.Id || ack.Seq != 1 || ack.Order.Uid != order.Uid {
				t.Fatalf("ack %+v, %v", ack, err)
			}
			q2 := service.NewOrderRequest()
			q2.Order = order
			q2.Order.Volume = 0
			_, err = service.RequestOrderRequest(c, &q2, 0)
			var rej *fw.RejectedError
			if !errors.Is(err, fw.ErrRejected) || !errors.As(err, &rej) ||
				rej.Message.(*service.OrderReject).Reason != "volume must be positive" {
				t.Fatalf("rejection: %v", err)
			}
			c.Close()
			_ = cmd.Process.Signal(syscall.SIGTERM)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("server exit: %v", err)
			}
		})
	}
}

// echoServer answers OrderRequest with OrderAck (or OrderReject for volume <= 0) and
// echoes the three messages, on the connection that sent them.
func echoServer(t testing.TB, opts fw.Options) *fw.Server {
	s, err := fw.Listen("127.0.0.1:0", opts, func(k *fw.Conn) fw.Dispatcher {
		r := service.NewReceiver()
		r.Final = opts.Final
		seq := int64(0)
		r.OnOrderMessage = func(m *service.OrderMessage) { _ = k.Send(m) }
		r.OnBalanceMessage = func(m *service.BalanceMessage) { _ = k.Send(m) }
		r.OnAccountMessage = func(m *service.AccountMessage) { _ = k.Send(m) }
		r.OnOrderRequest = func(q *service.OrderRequest) {
			if q.Order.Volume <= 0 {
				_ = k.Send(&service.OrderReject{Id: q.Id, Reason: "volume must be positive"})
				return
			}
			seq++
			_ = k.Send(&service.OrderAck{Id: q.Id, Seq: seq, Order: q.Order})
		}
		return r
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func messageCount() int {
	if n, err := strconv.Atoi(os.Getenv("FASTWIRE_GO_MESSAGES")); err == nil {
		return n
	}
	return 1000000
}

// A million mixed messages over loopback: each echoed once, in order, equal.
func TestLoopbackMixedMessages(t *testing.T) {
	n := messageCount()
	if testing.Short() {
		n = 10000
	}
	s := echoServer(t, fw.Options{Overflow: fw.OverflowBlock})
	defer s.Stop()
	account := seedAccount(t)
	want := []fw.Message{
		&service.OrderMessage{Body: account.Orders[1]},
		&service.BalanceMessage{Body: account.Wallet},
		&service.AccountMessage{Body: account},
	}
	wantBytes := make([]string, len(want))
	for i, m := range want {
		wantBytes[i] = string(m.MarshalFBE(nil))
	}
	got := 0
	var bad error
	done := make(chan struct{})
	check := func(m fw.Message) {
		if bad == nil && string(m.MarshalFBE(nil)) != wantBytes[got%3] {
			bad = fmt.Errorf("message %d differs or is out of order", got)
		}
		got++
		if got == n {
			close(done)
		}
	}
	r := service.NewReceiver()
	r.OnOrderMessage = func(m *service.OrderMessage) { check(m) }
	r.OnBalanceMessage = func(m *service.BalanceMessage) { check(m) }
	r.OnAccountMessage = func(m *service.AccountMessage) { check(m) }
	c, err := fw.Dial(s.Addr().String(), fw.Options{Overflow: fw.OverflowBlock}, r)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		if err := c.Send(want[i%3]); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
	}
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		t.Fatalf("%d of %d echoes", got, n)
	}
	if bad != nil {
		t.Fatal(bad)
	}
	t.Logf("%d messages echoed in %v", n, time.Since(start))
	c.Close()
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *logLines) find(part string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.Contains(s, part) {
			return true
		}
	}
	return false
}

// A garbage peer is dropped with a logged reason while another client is served; a
// slow peer is dropped at message_timeout.
func TestGarbagePeerIsDropped(t *testing.T) {
	var logs logLines
	s := echoServer(t, fw.Options{Log: logs.log, MessageTimeout: 300 * time.Millisecond})
	defer s.Stop()
	c, err := fw.Dial(s.Addr().String(), fw.Options{}, service.NewReceiver())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	g, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = g.Write([]byte{0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4})
	slow, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	_, _ = slow.Write([]byte{40, 0, 0})
	account := seedAccount(t)
	for i := 0; i < 20; i++ {
		q := service.NewOrderRequest()
		q.Order = account.Orders[0]
		ack, err := service.RequestOrderRequest(c, &q, 5*time.Second)
		if err != nil || ack.Seq != int64(i+1) {
			t.Fatalf("request %d: %+v %v", i, ack, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := g.Read(make([]byte, 1)); err == nil {
		t.Fatal("garbage peer still connected")
	}
	if _, err := slow.Read(make([]byte, 1)); err == nil {
		t.Fatal("slow peer still connected")
	}
	if !logs.find("closed: protocol error: bad message size 4294967295 at stream offset 0") {
		t.Fatalf("no protocol error logged: %q", logs.lines)
	}
	if !logs.find("closed: message incomplete after 300ms (3 bytes received)") {
		t.Fatalf("no message timeout logged: %q", logs.lines)
	}
}

// A request nobody answers fails by itself with ErrTimeout; one made after the
// connection dropped fails with ErrDisconnected.
func TestRequestTimesOutByItself(t *testing.T) {
	s, err := fw.Listen("127.0.0.1:0", fw.Options{}, func(k *fw.Conn) fw.Dispatcher { return service.NewReceiver() })
	if err != nil {
		t.Fatal(err)
	}
	c, err := fw.Dial(s.Addr().String(), fw.Options{RequestTimeout: 100 * time.Millisecond}, service.NewReceiver())
	if err != nil {
		t.Fatal(err)
	}
	q := service.NewOrderRequest()
	start := time.Now()
	if _, err := service.RequestOrderRequest(c, &q, 0); !errors.Is(err, fw.ErrTimeout) {
		t.Fatalf("got %v", err)
	}
	if d := time.Since(start); d < 100*time.Millisecond || d > 5*time.Second {
		t.Fatalf("timed out after %v", d)
	}
	s.Stop()
	<-c.Conn().Done()
	if _, err := service.RequestOrderRequest(c, &q, 0); !errors.Is(err, fw.ErrDisconnected) {
		t.Fatalf("got %v", err)
	}
}

// A server's graceful stop loses no queued message: every reply queued before Stop
// reaches its client.
func TestShutdownLosesNothing(t *testing.T) {
	const n = 20000
	account := seedAccount(t)
	ready := make(chan struct{})
	s, err := fw.Listen("127.0.0.1:0", fw.Options{}, func(k *fw.Conn) fw.Dispatcher {
		r := service.NewReceiver()
		r.OnOrderMessage = func(m *service.OrderMessage) {
			for i := 0; i < n; i++ {
				if err := k.Send(&service.AccountMessage{Body: account}); err != nil {
					t.Errorf("send %d: %v", i, err)
					return
				}
			}
			close(ready)
		}
		return r
	})
	if err != nil {
		t.Fatal(err)
	}
	got := 0
	r := service.NewReceiver()
	r.OnAccountMessage = func(*service.AccountMessage) { got++ }
	c, err := fw.Dial(s.Addr().String(), fw.Options{}, r)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Send(&service.OrderMessage{Body: account.Orders[0]})
	<-ready
	s.Stop()
	<-c.Conn().Done()
	if got != n {
		t.Fatalf("%d of %d messages arrived", got, n)
	}
}

// A handler that panics closes its connection with the panic; the server goes on.
func TestPanickingHandlerClosesItsConnection(t *testing.T) {
	var logs logLines
	s, err := fw.Listen("127.0.0.1:0", fw.Options{Log: logs.log}, func(k *fw.Conn) fw.Dispatcher {
		r := service.NewReceiver()
		r.OnOrderMessage = func(*service.OrderMessage) { panic("boom") }
		return r
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	c, err := fw.Dial(s.Addr().String(), fw.Options{}, service.NewReceiver())
	if err != nil {
		t.Fatal(err)
	}
	_ = c.Send(&service.OrderMessage{})
	<-c.Conn().Done()
	if !logs.find("closed: handler failed: boom") {
		t.Fatalf("logged %q", logs.lines)
	}
}

// The transport runs over any net.Listener and net.Conn: here TLS (crypto/tls), with a
// certificate made for the test.
func TestTLS(t *testing.T) {
	cert, pool := testCertificate(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	s := fw.Serve(ln, fw.Options{}, func(k *fw.Conn) fw.Dispatcher {
		r := service.NewReceiver()
		r.OnOrderRequest = func(q *service.OrderRequest) { _ = k.Send(&service.OrderAck{Id: q.Id, Seq: 1, Order: q.Order}) }
		return r
	})
	defer s.Stop()
	conn, err := tls.Dial("tcp", s.Addr().String(), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	c := fw.NewClient(conn, fw.Options{}, service.NewReceiver())
	q := service.NewOrderRequest()
	if ack, err := service.RequestOrderRequest(c, &q, 0); err != nil || ack.Id != q.Id {
		t.Fatalf("%+v %v", ack, err)
	}
	c.Close()
}

func testCertificate(t *testing.T) (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, _ := x509.ParseCertificate(der)
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}
