package fastwire_test

import (
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/fastwire-fbe/fastwire/go/internal/gen/proto"
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

// Instruction counts (go/callgrind.sh): TestCallgrindLoops, run only when
// FASTWIRE_CALLGRIND_N is set, calls each operation N times inside a function of its own
// (not inlined), so that callgrind's inclusive count of that function / N is the exact
// cost of one operation: repeatable on a loaded host, unlike timings.

//go:noinline
func cgVersionedSerialize(a *proto.Account, out []byte, n int) []byte {
	for i := 0; i < n; i++ {
		out = a.MarshalFBE(out[:0])
	}
	return out
}

//go:noinline
func cgVersionedDeserialize(into *proto.Account, buf []byte, n int) {
	for i := 0; i < n; i++ {
		_ = into.UnmarshalFBE(buf)
	}
}

//go:noinline
func cgVersionedVerify(buf []byte, n int) {
	for i := 0; i < n; i++ {
		_ = proto.VerifyAccount(buf)
	}
}

//go:noinline
func cgFinalSerialize(a *proto.Account, out []byte, n int) []byte {
	for i := 0; i < n; i++ {
		out = a.MarshalFinal(out[:0])
	}
	return out
}

//go:noinline
func cgFinalDeserialize(into *proto.Account, buf []byte, n int) {
	for i := 0; i < n; i++ {
		_ = into.UnmarshalFinal(buf)
	}
}

//go:noinline
func cgFinalVerify(buf []byte, n int) {
	for i := 0; i < n; i++ {
		_ = proto.VerifyAccountFinal(buf)
	}
}

func TestCallgrindLoops(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("FASTWIRE_CALLGRIND_N"))
	if err != nil {
		t.Skip("FASTWIRE_CALLGRIND_N is not set (go/callgrind.sh sets it)")
	}
	a := seedAccount(t)
	vbuf := a.MarshalFBE(nil)
	fbuf := a.MarshalFinal(nil)
	out := make([]byte, 0, 1024)
	var into proto.Account
	_ = into.UnmarshalFBE(vbuf)
	out = cgVersionedSerialize(&a, out, n)
	cgVersionedDeserialize(&into, vbuf, n)
	cgVersionedVerify(vbuf, n)
	out = cgFinalSerialize(&a, out, n)
	cgFinalDeserialize(&into, fbuf, n)
	cgFinalVerify(fbuf, n)
	_ = out
}
