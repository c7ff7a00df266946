package fastwire_test

import (
	"syscall"
	"testing"

	"github.com/fastwire/fastwire/go/internal/gen/proto"
)

// The seed account (tests/vectors/account.*): serialize into a reused buffer,
// deserialize into a reused struct, verify, in both formats, and JSON. `make bench-go`
// runs them 10 times; the README reports the medians.

// cpuNS is the process's user+system CPU time in nanoseconds. The benchmarks report it
// per operation ("cpu-ns/op") beside the wall time: on a shared, loaded host the CPU time
// moves far less than the wall time.
func cpuNS() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}

// start begins a measured loop; stop reports the CPU time per operation since start.
func start(b *testing.B) int64 {
	b.ReportAllocs()
	b.ResetTimer()
	return cpuNS()
}

func stop(b *testing.B, c0 int64) {
	c1 := cpuNS()
	b.StopTimer()
	b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
}

func BenchmarkAccount(b *testing.B) {
	a := seedAccount(b)
	vbuf := a.MarshalFBE(nil)
	fbuf := a.MarshalFinal(nil)
	jbuf := a.AppendJSON(nil)
	out := make([]byte, 0, 1024)
	var into proto.Account
	_ = into.UnmarshalFBE(vbuf)
	b.Run("versioned/serialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			out = a.MarshalFBE(out[:0])
		}
		stop(b, c0)
	})
	b.Run("versioned/deserialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalFBE(vbuf); err != nil {
				b.Fatal(err)
			}
		}
		stop(b, c0)
	})
	b.Run("versioned/verify", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			if err := proto.VerifyAccount(vbuf); err != nil {
				b.Fatal(err)
			}
		}
		stop(b, c0)
	})
	b.Run("final/serialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			out = a.MarshalFinal(out[:0])
		}
		stop(b, c0)
	})
	b.Run("final/deserialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalFinal(fbuf); err != nil {
				b.Fatal(err)
			}
		}
		stop(b, c0)
	})
	b.Run("final/verify", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			if err := proto.VerifyAccountFinal(fbuf); err != nil {
				b.Fatal(err)
			}
		}
		stop(b, c0)
	})
	b.Run("json/serialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			out = a.AppendJSON(out[:0])
		}
		stop(b, c0)
	})
	b.Run("json/deserialize", func(b *testing.B) {
		c0 := start(b)
		for i := 0; i < b.N; i++ {
			if err := into.UnmarshalJSON(jbuf); err != nil {
				b.Fatal(err)
			}
		}
		stop(b, c0)
	})
}
