package fastwire_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	fw "github.com/fastwire-fbe/fastwire/go"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/service"
)

// eventually polls cond for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// requestServer acknowledges every OrderRequest but those of volume 999 (never
// answered), counting what it receives.
func requestServer(t *testing.T, addr string, received *atomic.Int64, held *atomic.Int64) *fw.Server {
	s, err := fw.Listen(addr, fw.Options{}, func(k *fw.Conn) fw.Dispatcher {
		r := service.NewReceiver()
		r.OnOrderRequest = func(q *service.OrderRequest) {
			received.Add(1)
			if q.Order.Volume == 999 {
				held.Add(1)
				return
			}
			_ = k.Send(&service.OrderAck{Id: q.Id, Seq: 1, Order: q.Order})
		}
		return r
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A client with ReconnectDelay reconnects after its server is stopped and restarted on
// the same port (docs/transport.md): the request pending at the drop fails with
// ErrDisconnected and is not sent again; while the server is down, requests and sends
// fail at once and the retry delay doubles up to ReconnectMaxDelay; after the
// reconnect, requests are answered; a closed client does not reconnect.
func TestClientReconnects(t *testing.T) {
	var got1, held1, got2, held2 atomic.Int64
	s1 := requestServer(t, "127.0.0.1:0", &got1, &held1)
	addr := s1.Addr().String()
	var logs logLines
	c, err := fw.Dial(addr, fw.Options{ReconnectDelay: 20 * time.Millisecond,
		ReconnectMaxDelay: 80 * time.Millisecond, Log: logs.log}, service.NewReceiver())
	if err != nil {
		t.Fatal(err)
	}
	q := service.NewOrderRequest()
	q.Id = fw.UUID{1}
	q.Order.Volume = 1
	if _, err := service.RequestOrderRequest(c, &q, 5*time.Second); err != nil {
		t.Fatal(err)
	}

	// A request in flight when the server goes away fails with ErrDisconnected.
	pending := make(chan error, 1)
	go func() {
		h := service.NewOrderRequest()
		h.Id = fw.UUID{2}
		h.Order.Volume = 999
		_, err := service.RequestOrderRequest(c, &h, 30*time.Second)
		pending <- err
	}()
	eventually(t, "the held request to arrive", func() bool { return held1.Load() == 1 })
	s1.Stop()
	select {
	case err := <-pending:
		if !errors.Is(err, fw.ErrDisconnected) {
			t.Fatalf("the pending request: got %v, want ErrDisconnected", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the pending request did not fail")
	}

	// Down: fail at once; the delay doubles up to the maximum.
	eventually(t, "the drop", func() bool { return !c.Connected() })
	q.Id = fw.UUID{3}
	start := time.Now()
	if _, err := service.RequestOrderRequest(c, &q, 5*time.Second); !errors.Is(err, fw.ErrDisconnected) {
		t.Fatalf("request while down: got %v", err)
	}
	if err := c.Send(&service.OrderMessage{}); !errors.Is(err, fw.ErrDisconnected) {
		t.Fatalf("send while down: got %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("failing while down took %v", d)
	}
	eventually(t, "retries at the maximum delay", func() bool {
		return logs.find("; retrying in 40ms") && logs.find("; retrying in 80ms")
	})
	if logs.find("retrying in 160ms") {
		t.Fatalf("the delay went above ReconnectMaxDelay: %q", logs.lines)
	}
	if c.Connects() != 1 {
		t.Fatalf("connects = %d while the server is down", c.Connects())
	}

	// Back up on the same port: the client reconnects by itself.
	s2 := requestServer(t, addr, &got2, &held2)
	defer s2.Stop()
	eventually(t, "the reconnect", func() bool { return c.Connects() == 2 && c.Connected() })
	if !logs.find("reconnected to " + addr) {
		t.Fatalf("no reconnect logged: %q", logs.lines)
	}
	q.Id = fw.UUID{4}
	ack, err := service.RequestOrderRequest(c, &q, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if ack.Id != (fw.UUID{4}) {
		t.Fatalf("ack for %d", ack.Id)
	}
	// At most once: the new server saw only the new request.
	if got2.Load() != 1 || held2.Load() != 0 {
		t.Fatalf("the restarted server received %d requests (%d held ones)", got2.Load(), held2.Load())
	}
	if got1.Load() != 2 {
		t.Fatalf("the first server received %d requests", got1.Load())
	}

	// Closed by the client: no reconnect.
	c.Close()
	time.Sleep(100 * time.Millisecond)
	if c.Connects() != 2 || c.Connected() {
		t.Fatalf("a closed client reconnected (connects %d)", c.Connects())
	}
}

// Without ReconnectDelay a client stays down after a drop.
func TestClientWithoutReconnectStaysDown(t *testing.T) {
	var got, held atomic.Int64
	s := requestServer(t, "127.0.0.1:0", &got, &held)
	addr := s.Addr().String()
	c, err := fw.Dial(addr, fw.Options{}, service.NewReceiver())
	if err != nil {
		t.Fatal(err)
	}
	s.Stop()
	eventually(t, "the drop", func() bool { return !c.Connected() })
	s2 := requestServer(t, addr, &got, &held)
	defer s2.Stop()
	time.Sleep(100 * time.Millisecond)
	if c.Connects() != 1 || c.Connected() {
		t.Fatal("reconnected without ReconnectDelay")
	}
}
