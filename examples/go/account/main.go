// The FBE README's first example on fastwire: build the sample account, serialize it
// into the versioned FBE format (252 bytes, byte-identical to the reference), verify
// the buffer, read it back and print it (the output of examples/cpp/account).
//
//	cd examples/go && go run ./account
package main

import (
	"fmt"
	"os"
	"strings"

	"fastwire.examples/gen/proto"
)

func main() {
	// Create a new account with some orders
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

	// Serialize the account to the FBE stream
	buffer := account.MarshalFBE(nil)
	if err := proto.VerifyAccount(buffer); err != nil {
		fmt.Fprintln(os.Stderr, "the serialized account does not verify:", err)
		os.Exit(1)
	}

	// Show the serialized FBE size
	fmt.Println("FBE size:", len(buffer))

	// Deserialize the account from the FBE stream
	var read proto.Account
	if err := read.UnmarshalFBE(buffer); err != nil {
		fmt.Fprintln(os.Stderr, "the account does not read back:", err)
		os.Exit(1)
	}

	// Show account content
	fmt.Println()
	fmt.Println(readmeLayout(read.String()))
}

// readmeLayout lays the one-line text out as the FBE README does: one line per field of
// the root struct, and one per element of a collection directly inside it.
func readmeLayout(text string) string {
	var out strings.Builder
	var broken []bool
	quoted := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		var prev byte
		if i > 0 {
			prev = text[i-1]
		}
		switch {
		case quoted || c == '"':
			if c == '"' {
				quoted = !quoted
			}
			out.WriteByte(c)
		case c == '(' || c == '[' || c == '{' || c == '<':
			split := len(broken) == 0 || (len(broken) == 1 && c == '[' && prev == ']')
			broken = append(broken, split)
			out.WriteByte(c)
			if split {
				out.WriteByte('\n')
			}
		case (c == ')' || c == ']' || c == '}' || c == '>') && !(c == '>' && prev == '-') && len(broken) > 0:
			if broken[len(broken)-1] {
				out.WriteByte('\n')
			}
			broken = broken[:len(broken)-1]
			out.WriteByte(c)
		case c == ',' && len(broken) > 0 && broken[len(broken)-1]:
			out.WriteString(",\n")
		default:
			out.WriteByte(c)
		}
	}
	return out.String()
}
