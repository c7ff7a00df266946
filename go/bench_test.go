package fastwire_test

import (
	"testing"

	"github.com/fastwire/fastwire/go/internal/gen/proto"
)

// The seed account (tests/vectors/account.*): serialize into a reused buffer,
// deserialize into a reused struct, verify, in both formats, and JSON. `make bench-go`
// runs them 10 times; the README reports the medians.

func BenchmarkAccount(b *testing.B) {
	a := seedAccount(b)
	vbuf := a.MarshalFBE(nil)
	fbuf := a.MarshalFinal(nil)
	jbuf := a.AppendJSON(nil)
	out := make([]byte, 0, 1024)
	var into proto.Account
	_ = into.UnmarshalFBE(vbuf)
	b.Run("versioned/serialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			out = a.MarshalFBE(out[:0])
		}
	})
	b.Run("versioned/deserialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalFBE(vbuf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("versioned/verify", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := proto.VerifyAccount(vbuf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("final/serialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			out = a.MarshalFinal(out[:0])
		}
	})
	b.Run("final/deserialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalFinal(fbuf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("final/verify", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := proto.VerifyAccountFinal(fbuf); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json/serialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			out = a.AppendJSON(out[:0])
		}
	})
	b.Run("json/deserialize", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalJSON(jbuf); err != nil {
				b.Fatal(err)
			}
		}
	})
}
