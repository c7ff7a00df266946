package fastwire_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	fw "github.com/fastwire-fbe/fastwire/go"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/proto"
	"github.com/fastwire-fbe/fastwire/go/internal/gen/protoex"
)

func vector(t testing.TB, name string) []byte {
	t.Helper()
	text, err := os.ReadFile(filepath.Join("..", "tests", "vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasSuffix(name, ".json") {
		return bytes.TrimSpace(text)
	}
	b, err := hex.DecodeString(strings.Join(strings.Fields(string(text)), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// codec is what every generated struct provides.
type codec interface {
	MarshalFBE([]byte) []byte
	UnmarshalFBE([]byte) error
	MarshalFinal([]byte) []byte
	UnmarshalFinal([]byte) error
	AppendJSON([]byte) []byte
	UnmarshalJSON([]byte) error
}

type golden struct {
	name                 string
	make                 func() codec
	verify, verifyFinal  func([]byte) error
	versioned, final, js []byte
}

func goldens(t testing.TB) []golden {
	mk := func(name string, make func() codec, v, f func([]byte) error) golden {
		return golden{name, make, v, f, vector(t, name+".fbe.hex"), vector(t, name+".final.hex"),
			vector(t, name+".json")}
	}
	return []golden{
		mk("account", func() codec { v := proto.NewAccount(); return &v }, proto.VerifyAccount, proto.VerifyAccountFinal),
		mk("order", func() codec { v := proto.NewOrder(); return &v }, proto.VerifyOrder, proto.VerifyOrderFinal),
		mk("balance", func() codec { v := proto.NewBalance(); return &v }, proto.VerifyBalance, proto.VerifyBalanceFinal),
	}
}

// The reference's vectors: each format reads into a value that writes every format back
// byte for byte.
func TestGoldenVectors(t *testing.T) {
	for _, g := range goldens(t) {
		for _, in := range []string{"versioned", "final", "json"} {
			v := g.make()
			var err error
			switch in {
			case "versioned":
				if err = g.verify(g.versioned); err == nil {
					err = v.UnmarshalFBE(g.versioned)
				}
			case "final":
				if err = g.verifyFinal(g.final); err == nil {
					err = v.UnmarshalFinal(g.final)
				}
			default:
				err = v.UnmarshalJSON(g.js)
			}
			if err != nil {
				t.Fatalf("%s %s: %v", g.name, in, err)
			}
			if got := v.MarshalFBE(nil); !bytes.Equal(got, g.versioned) {
				t.Errorf("%s %s->versioned:\n got %x\nwant %x", g.name, in, got, g.versioned)
			}
			if got := v.MarshalFinal(nil); !bytes.Equal(got, g.final) {
				t.Errorf("%s %s->final:\n got %x\nwant %x", g.name, in, got, g.final)
			}
			if got := v.AppendJSON(nil); !bytes.Equal(got, g.js) {
				t.Errorf("%s %s->json:\n got %s\nwant %s", g.name, in, got, g.js)
			}
		}
	}
}

// Old and new programs read each other's versioned data: protoex.Account extends
// proto.Account (new fields at the end, Balance derived keeping its number).
func TestVersioning(t *testing.T) {
	old := vector(t, "account.fbe.hex")
	var nw protoex.Account
	if err := nw.UnmarshalFBE(old); err != nil {
		t.Fatal(err)
	}
	if nw.Uid != 1 || nw.Name != "Test" || len(nw.Orders) != 3 || nw.Orders[0].Tp != 10.0 || nw.Orders[0].Sl != -10.0 {
		t.Fatalf("new from old: %+v", nw)
	}
	if nw.Asset == nil || nw.Asset.Currency != "EUR" || nw.Asset.Locked != 0 {
		t.Fatalf("new from old asset: %+v", nw.Asset)
	}
	nw.Orders[0].Tp = 42
	nw.Wallet.Locked = 7
	data := nw.MarshalFBE(nil)
	var back proto.Account
	if err := proto.VerifyAccount(data); err != nil {
		t.Fatal(err)
	}
	if err := back.UnmarshalFBE(data); err != nil {
		t.Fatal(err)
	}
	if got := back.MarshalFBE(nil); !bytes.Equal(got, old) {
		t.Fatalf("old from new:\n got %x\nwant %x", got, old)
	}
	// The final format is not versioned: another version's data is rejected.
	if err := protoex.VerifyAccountFinal(vector(t, "account.final.hex")); err == nil {
		t.Fatal("final data of another version accepted")
	}
}

// Every truncation and every single-byte change of each vector, in both formats: no
// panic; verify and the checked read agree; what is accepted writes back to data that
// verifies and reads back to the same bytes.
func TestMalformedVectors(t *testing.T) {
	for _, g := range goldens(t) {
		for _, format := range []string{"versioned", "final"} {
			data, verify := g.versioned, g.verify
			read := func(v codec, b []byte) error { return v.UnmarshalFBE(b) }
			write := func(v codec) []byte { return v.MarshalFBE(nil) }
			if format == "final" {
				data, verify = g.final, g.verifyFinal
				read = func(v codec, b []byte) error { return v.UnmarshalFinal(b) }
				write = func(v codec) []byte { return v.MarshalFinal(nil) }
			}
			check := func(what string, b []byte) {
				v := g.make()
				errV := verify(b)
				errR := read(v, b)
				// The same error (docs/security.md): read is the full walk, verify's
				// fast path must agree with it on every input.
				if errV != errR {
					t.Fatalf("%s %s %s: verify %v, read %v (%x)", g.name, format, what, errV, errR, b)
				}
				if errV != nil {
					return
				}
				out := write(v)
				if err := verify(out); err != nil {
					t.Fatalf("%s %s %s: rewritten data fails verify: %v", g.name, format, what, err)
				}
				w := g.make()
				if err := read(w, out); err != nil || !bytes.Equal(write(w), out) {
					t.Fatalf("%s %s %s: rewritten data does not read back (%v)", g.name, format, what, err)
				}
			}
			for n := 0; n < len(data); n++ {
				check("truncated", data[:n])
			}
			b := make([]byte, len(data))
			for i := range data {
				for _, x := range []byte{0x00, 0x01, 0x7F, 0x80, 0xFF, data[i] ^ 0x01, data[i] + 1} {
					copy(b, data)
					b[i] = x
					check("changed", b)
				}
			}
		}
	}
}

// Verify under depth limits below and at the schema's nesting (the fast paths need the
// whole nesting of Account allowed, and leave lower limits to the full walk): the same
// error as the checked read, in both formats.
func TestVerifyDepthLimits(t *testing.T) {
	data, final := vector(t, "account.fbe.hex"), vector(t, "account.final.hex")
	for depth := -1; depth <= 3; depth++ {
		lim := fw.DefaultLimits
		lim.MaxDepth = depth
		want := error(nil)
		if depth < 2 {
			want = fw.ErrTooDeep
		}
		var a proto.Account
		errV, errR := proto.VerifyAccountLimits(data, &lim), a.UnmarshalFBELimits(data, &lim)
		if errV != want || errR != want {
			t.Errorf("versioned, MaxDepth %d: verify %v, read %v, want %v", depth, errV, errR, want)
		}
		errV, errR = proto.VerifyAccountFinalLimits(final, &lim), a.UnmarshalFinalLimits(final, &lim)
		if errV != want || errR != want {
			t.Errorf("final, MaxDepth %d: verify %v, read %v, want %v", depth, errV, errR, want)
		}
	}
}

func TestErrorsAreSentinels(t *testing.T) {
	data := vector(t, "account.fbe.hex")
	var a proto.Account
	if err := a.UnmarshalFBE(data[:10]); !errors.Is(err, fw.ErrTruncated) {
		t.Fatalf("got %v", err)
	}
	lim := fw.DefaultLimits
	lim.MaxMessageSize = 100
	if err := a.UnmarshalFBELimits(data, &lim); !errors.Is(err, fw.ErrTooLarge) {
		t.Fatalf("got %v", err)
	}
	lim = fw.DefaultLimits
	lim.MaxDepth = 1
	if err := a.UnmarshalFBELimits(data, &lim); !errors.Is(err, fw.ErrTooDeep) {
		t.Fatalf("got %v", err)
	}
}

// Serializing into a reused buffer allocates nothing; so does verify, and reading into a
// struct that already holds equal strings.
func TestZeroAllocations(t *testing.T) {
	var a proto.Account
	if err := a.UnmarshalFBE(vector(t, "account.fbe.hex")); err != nil {
		t.Fatal(err)
	}
	buf := a.MarshalFBE(nil)
	fbuf := a.MarshalFinal(nil)
	cases := map[string]func(){
		"serialize":         func() { buf = a.MarshalFBE(buf[:0]) },
		"serialize final":   func() { fbuf = a.MarshalFinal(fbuf[:0]) },
		"verify":            func() { _ = proto.VerifyAccount(buf) },
		"verify final":      func() { _ = proto.VerifyAccountFinal(fbuf) },
		"deserialize":       func() { _ = a.UnmarshalFBE(buf) },
		"deserialize final": func() { _ = a.UnmarshalFinal(fbuf) },
	}
	for name, f := range cases {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

// The generated code the tests use (internal/gen, made by generate.sh; not checked in) is
// what the compiler generates now, and the compiler's Go output (this and the examples')
// is gofmt-clean. tests/golden/go is the reviewed copy (compiler/tests checks it).
func TestGeneratedCodeIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	dir := t.TempDir()
	cmd := exec.Command(python, "-m", "fastwire", "compile", "schemas/protocol.fbe", "schemas/everything.fbe",
		"conformance/schemas/hostile.fbe", "schemas/service.fbe", "--lang", "go", "--final", "--json",
		"--proto", "-q", "--go-import", "github.com/fastwire-fbe/fastwire/go/internal/gen", "-o", dir)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PYTHONPATH=compiler")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	compare(t, dir, filepath.Join("internal", "gen"), "go/generate.sh")
	examples := t.TempDir()
	cmd = exec.Command(python, "-m", "fastwire", "compile", "schemas/proto.fbe", "schemas/service.fbe",
		"--lang", "go", "--final", "--json", "--proto", "-q", "--go-import", "fastwire.examples/gen", "-o", examples)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "PYTHONPATH=compiler")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	gofmt := filepath.Join(goroot(), "bin", "gofmt")
	out, err := exec.Command(gofmt, "-l", dir, examples, filepath.Join("..", "tests", "golden", "go")).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) != 0 {
		t.Fatalf("generated code is not gofmt-clean (%v): %s", err, out)
	}
}

// compare fails when a file generated into dir differs from its copy under checked.
func compare(t *testing.T, dir, checked, script string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.go"))
	if len(files) == 0 {
		t.Fatal("nothing generated")
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(checked, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run %s", filepath.Join(checked, rel), script)
		}
	}
}

func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "/usr/local/go"
	}
	return strings.TrimSpace(string(out))
}
