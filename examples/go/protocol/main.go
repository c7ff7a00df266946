// The FBE README's Sender/Receiver example on fastwire: send an order, a balance and an
// account into a stream, then receive them from it (the output of examples/cpp/protocol).
//
//	cd examples/go && go run ./protocol
package main

import (
	"fmt"
	"os"

	"fastwire.examples/gen/proto"
	fw "github.com/fastwire-fbe/fastwire/go"
)

type message interface {
	fw.Message
	String() string
}

func main() {
	// A sender that sends nothing: the stream stays in its Buffer.
	sender := fw.NewSender(nil, false)
	send := func(m message) {
		if _, err := sender.Send(m); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("onSend:", m)
	}

	// Create and send a new order
	order := proto.Order{Uid: 1, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeMarket, Price: 1.23456, Volume: 1000.0}
	send(&order)

	// Create and send a new balance wallet
	balance := proto.Balance{Currency: "USD", Amount: 1000.0}
	send(&balance)

	// Create and send a new account with some orders
	account := proto.Account{
		Uid:    1,
		Name:   "Test",
		State:  proto.StateGood,
		Wallet: proto.Balance{Currency: "USD", Amount: 1000.0},
		Asset:  &proto.Balance{Currency: "EUR", Amount: 100.0},
		Orders: []proto.Order{
			{Uid: 1, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeMarket, Price: 1.23456, Volume: 1000.0},
			{Uid: 2, Symbol: "EURUSD", Side: proto.OrderSideSell, Type: proto.OrderTypeLimit, Price: 1.0, Volume: 100.0},
			{Uid: 3, Symbol: "EURUSD", Side: proto.OrderSideBuy, Type: proto.OrderTypeStop, Price: 1.5, Volume: 10.0},
		},
	}
	send(&account)

	// Receive all data from the sender
	receiver := proto.NewReceiver()
	receiver.OnOrder = func(v *proto.Order) { fmt.Println("onReceive:", v) }
	receiver.OnBalance = func(v *proto.Balance) { fmt.Println("onReceive:", v) }
	receiver.OnAccount = func(v *proto.Account) { fmt.Println("onReceive:", v) }
	if err := fw.NewStream(receiver).Receive(sender.Buffer); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
