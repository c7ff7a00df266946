package fastwire_test

import (
	"bytes"
	"testing"

	fw "github.com/fastwire-fbe/fastwire/go"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/protocol"
)

// The reference's protocol streams (tests/vectors/protocol*.hex) decode message by
// message from any chunking, and a Sender writes them back byte for byte; a Proxy hands
// the same bytes on without decoding.
func TestProtocolVectors(t *testing.T) {
	for _, final := range []bool{false, true} {
		name := "protocol.hex"
		if final {
			name = "protocol.final.hex"
		}
		stream := vector(t, name)
		for _, chunk := range []int{1, 3, 7, len(stream)} {
			var out bytes.Buffer
			sender := fw.NewSender(&out, final)
			r := protocol.NewReceiver()
			r.Final = final
			n := 0
			r.OnOrderMessage = func(m *protocol.OrderMessage) { n++; _, _ = sender.Send(m) }
			r.OnBalanceMessage = func(m *protocol.BalanceMessage) { n++; _, _ = sender.Send(m) }
			r.OnAccountMessage = func(m *protocol.AccountMessage) { n++; _, _ = sender.Send(m) }
			s := fw.NewStream(r)
			for i := 0; i < len(stream); i += chunk {
				if err := s.Receive(stream[i:min(i+chunk, len(stream))]); err != nil {
					t.Fatalf("%s chunk %d: %v", name, chunk, err)
				}
			}
			if n != 3 || !bytes.Equal(out.Bytes(), stream) {
				t.Fatalf("%s chunk %d: %d messages, stream %x", name, chunk, n, out.Bytes())
			}
			var proxied []byte
			p := fw.NewProxy(final, func(typ uint32, msg []byte) error {
				proxied = append(proxied, msg...)
				return nil
			})
			if err := fw.NewStream(p).Receive(stream); err != nil || !bytes.Equal(proxied, stream) {
				t.Fatalf("proxy: %v", err)
			}
		}
	}
}

// A size prefix that cannot start a message stops the stream with a *StreamError.
func TestStreamRejectsBadSize(t *testing.T) {
	s := fw.NewStream(protocol.NewReceiver())
	err := s.Receive([]byte{0xff, 0xff, 0xff, 0xff, 0})
	if _, ok := err.(*fw.StreamError); !ok {
		t.Fatalf("got %v", err)
	}
}
