package fastwire_test

import (
	"bytes"
	"testing"

	"github.com/fastwire-fbe/fastwire/go/internal/gen/everything"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/hostile"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/proto"
)

// roundTrip checks one format on arbitrary bytes: verify and the checked read return the
// same error, and what is accepted writes back to bytes that verify and read back the same.
func roundTrip(t *testing.T, data []byte, v, w codec, verify func([]byte) error, final bool) {
	read, write := v.UnmarshalFBE, v.MarshalFBE
	readW, writeW := w.UnmarshalFBE, w.MarshalFBE
	if final {
		read, write = v.UnmarshalFinal, v.MarshalFinal
		readW, writeW = w.UnmarshalFinal, w.MarshalFinal
	}
	errV, errR := verify(data), read(data)
	if errV != errR { // the same error (docs/security.md), not only both failing
		t.Fatalf("verify %v, read %v", errV, errR)
	}
	if errV != nil {
		return
	}
	out := write(nil)
	if err := verify(out); err != nil {
		t.Fatalf("rewritten data fails verify: %v", err)
	}
	if err := readW(out); err != nil {
		t.Fatalf("rewritten data fails read: %v", err)
	}
	if again := writeW(nil); !bytes.Equal(again, out) {
		t.Fatalf("second round trip differs:\n%x\n%x", out, again)
	}
}

func fuzzBinary(f *testing.F, final bool) {
	for _, g := range goldens(f) {
		if final {
			f.Add(g.final)
		} else {
			f.Add(g.versioned)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := proto.NewAccount(), proto.NewAccount()
		vf, vv := proto.VerifyAccountFinal, proto.VerifyAccount
		pick := func(x, y func([]byte) error) func([]byte) error {
			if final {
				return x
			}
			return y
		}
		roundTrip(t, data, &a, &b, pick(vf, vv), final)
		c, d := everything.NewCollections(), everything.NewCollections()
		roundTrip(t, data, &c, &d, pick(everything.VerifyCollectionsFinal, everything.VerifyCollections), final)
		o, p := everything.NewOptionals(), everything.NewOptionals()
		roundTrip(t, data, &o, &p, pick(everything.VerifyOptionalsFinal, everything.VerifyOptionals), final)
		n, m := hostile.NewNode(), hostile.NewNode()
		roundTrip(t, data, &n, &m, pick(hostile.VerifyNodeFinal, hostile.VerifyNode), final)
		x, y := hostile.NewBag(), hostile.NewBag()
		roundTrip(t, data, &x, &y, pick(hostile.VerifyBagFinal, hostile.VerifyBag), final)
	})
}

// FuzzVersioned: verify and deserialize of the versioned format, on several types.
func FuzzVersioned(f *testing.F) { fuzzBinary(f, false) }

// FuzzFinal: verify and deserialize of the final format, on several types.
func FuzzFinal(f *testing.F) { fuzzBinary(f, true) }

// FuzzJSON: the JSON reader never panics, and what it accepts writes back to JSON that
// reads to the same value.
func FuzzJSON(f *testing.F) {
	for _, g := range goldens(f) {
		f.Add(g.js)
	}
	f.Add([]byte(`{"f_map":{"1":"a"},"f_hash":{"123e4567-e89b-12d3-a456-426655440000":"AA=="}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a proto.Account
		if a.UnmarshalJSON(data) == nil {
			out := a.AppendJSON(nil)
			var b proto.Account
			if err := b.UnmarshalJSON(out); err != nil {
				t.Fatalf("rewritten JSON fails: %v: %s", err, out)
			}
			if again := b.AppendJSON(nil); !bytes.Equal(again, out) {
				t.Fatalf("JSON round trip differs:\n%s\n%s", out, again)
			}
		}
		var c everything.Collections
		if c.UnmarshalJSON(data) == nil {
			_ = c.MarshalFBE(nil)
			_ = c.MarshalFinal(nil)
		}
	})
}
