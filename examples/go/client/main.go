// A client of the transport's example server (docs/transport.md): sends the seed's
// order, balance and account, checks their echoes, places an accepted and a rejected
// order, and prints ok when every answer was the expected one.
//
//	examples/cpp/server 127.0.0.1 0 &     # prints: listening 127.0.0.1 PORT
//	cd examples/go && go run ./client 127.0.0.1 PORT [--final]
package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"fastwire.examples/gen/proto"
	"fastwire.examples/gen/service"
	fw "github.com/fastwire-fbe/fastwire/go"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "client: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 3 {
		fail("usage: client HOST PORT [--final]")
	}
	final := len(os.Args) > 3 && os.Args[3] == "--final"
	order := proto.Order{Uid: 1, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeMarket, Price: 1.23456, Volume: 1000.0}
	account := proto.NewAccount()
	account.Uid, account.Name, account.State = 1, "Test", proto.StateGood
	account.Wallet = proto.Balance{Currency: "USD", Amount: 1000.0}
	account.Asset = &proto.Balance{Currency: "EUR", Amount: 100.0}
	account.Orders = []proto.Order{order}

	echoes := make(chan string, 3)
	r := service.NewReceiver()
	r.Final = final
	r.OnOrderMessage = func(m *service.OrderMessage) { echoes <- m.Body.String() }
	r.OnBalanceMessage = func(m *service.BalanceMessage) { echoes <- m.Body.String() }
	r.OnAccountMessage = func(m *service.AccountMessage) { echoes <- m.Body.String() }
	c, err := fw.Dial(net.JoinHostPort(os.Args[1], os.Args[2]), fw.Options{Final: final}, r)
	if err != nil {
		fail("connect: %v", err)
	}
	sent := []fw.Message{&service.OrderMessage{Body: order}, &service.BalanceMessage{Body: account.Wallet},
		&service.AccountMessage{Body: account}}
	want := []string{order.String(), account.Wallet.String(), account.String()}
	for _, m := range sent {
		if err := c.Send(m); err != nil {
			fail("send: %v", err)
		}
	}
	for _, w := range want {
		select {
		case got := <-echoes:
			if got != w {
				fail("echo %s, want %s", got, w)
			}
			fmt.Println("echo:", got)
		case <-time.After(5 * time.Second):
			fail("no echo")
		}
	}
	q := service.NewOrderRequest()
	q.Order = order
	ack, err := service.RequestOrderRequest(c, &q, 0)
	if err != nil || ack.Id != q.Id || ack.Seq != 1 {
		fail("accepted order: %v %v", ack, err)
	}
	fmt.Println("ack:", ack)
	q = service.NewOrderRequest()
	q.Order = order
	q.Order.Volume = 0
	_, err = service.RequestOrderRequest(c, &q, 0)
	var rej *fw.RejectedError
	if !errors.As(err, &rej) {
		fail("rejected order: %v", err)
	}
	fmt.Println("reject:", rej.Message)
	c.Close()
	fmt.Println("ok")
}
