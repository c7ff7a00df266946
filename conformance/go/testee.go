// The Go conformance testee: answers the runner's requests on stdin/stdout
// (conformance/README.md). conformance/go/build.py generates the code for the
// conformance schemas, a registry of their structs (registry.go) beside this file, and
// builds both into build/conformance/go/testee.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
)

const (
	versioned = 1
	final     = 2
	jsonFmt   = 3
)

const (
	ok = iota
	parseError
	verifyError
	serializeError
	unsupported
	internalError
)

// value is what every generated struct provides.
type value interface {
	UnmarshalFBE([]byte) error
	UnmarshalFinal([]byte) error
	UnmarshalJSON([]byte) error
	MarshalFBE([]byte) []byte
	MarshalFinal([]byte) []byte
	AppendJSON([]byte) []byte
}

type entry struct {
	make        func() value
	verify      func([]byte) error
	verifyFinal func([]byte) error
}

func handle(req []byte, out []byte) (status byte, body []byte) {
	defer func() {
		if r := recover(); r != nil {
			status, body = internalError, []byte(fmt.Sprint("panic: ", r))
		}
	}()
	if len(req) < 5 {
		return unsupported, []byte("short request")
	}
	if req[0] != 1 {
		return unsupported, []byte(fmt.Sprintf("protocol version %d", req[0]))
	}
	in, outFmt := req[1], req[2]
	n := int(binary.LittleEndian.Uint16(req[3:]))
	if 5+n > len(req) {
		return unsupported, []byte("short request")
	}
	name := string(req[5 : 5+n])
	payload := req[5+n:]
	e, found := registry[name]
	if !found {
		return unsupported, []byte("unknown type " + name)
	}
	v := e.make()
	switch in {
	case jsonFmt:
		if err := v.UnmarshalJSON(payload); err != nil {
			return parseError, []byte(err.Error())
		}
	case versioned, final:
		verify, read := e.verify, v.UnmarshalFBE
		if in == final {
			verify, read = e.verifyFinal, v.UnmarshalFinal
		}
		if err := verify(payload); err != nil {
			return verifyError, []byte(err.Error())
		}
		if err := read(payload); err != nil {
			return parseError, []byte(err.Error())
		}
	default:
		return unsupported, []byte(fmt.Sprintf("input format %d", in))
	}
	switch outFmt {
	case versioned:
		return ok, v.MarshalFBE(out)
	case final:
		return ok, v.MarshalFinal(out)
	case jsonFmt:
		return ok, v.AppendJSON(out)
	}
	return unsupported, []byte(fmt.Sprintf("output format %d", outFmt))
}

func main() {
	in := bufio.NewReader(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	var head [4]byte
	var req, out []byte
	for {
		if _, err := io.ReadFull(in, head[:]); err != nil {
			return
		}
		size := int(binary.LittleEndian.Uint32(head[:]))
		if cap(req) < size {
			req = make([]byte, size)
		}
		req = req[:size]
		if _, err := io.ReadFull(in, req); err != nil {
			return
		}
		status, body := handle(req, out[:0])
		var h [5]byte
		binary.LittleEndian.PutUint32(h[:], uint32(1+len(body)))
		h[4] = status
		w.Write(h[:])
		w.Write(body)
		if err := w.Flush(); err != nil {
			return
		}
		if status == ok {
			out = body
		}
	}
}
