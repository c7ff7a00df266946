package fastwire

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Message is a generated struct that a protocol sends (its versioned writer and type).
type Message interface {
	FBEType() uint32
	MarshalFBE([]byte) []byte
}

// finalMessage is a Message generated with --final.
type finalMessage interface {
	MarshalFinal([]byte) []byte
}

// Request is a [request] message: its [id] field, which the answer carries.
type Request interface {
	Message
	FBERequestID() any
}

// Marshal appends m in the versioned or final format.
func Marshal(buf []byte, m Message, final bool) ([]byte, error) {
	if !final {
		return m.MarshalFBE(buf), nil
	}
	f, ok := m.(finalMessage)
	if !ok {
		return buf, fmt.Errorf("fastwire: %T has no final format (generate with --final)", m)
	}
	return f.MarshalFinal(buf), nil
}

// Sender writes messages back to back to W (spec §5), serializing into a reused buffer.
// Without W the stream accumulates in Buffer.
type Sender struct {
	W      io.Writer
	Final  bool
	Buffer []byte
}

// NewSender is a sender of the versioned (final: the final) format writing to w.
func NewSender(w io.Writer, final bool) *Sender { return &Sender{W: w, Final: final} }

// Send serializes m and writes it; returns the message's size.
func (s *Sender) Send(m Message) (int, error) {
	start := len(s.Buffer)
	if s.W != nil {
		start = 0
		s.Buffer = s.Buffer[:0]
	}
	var err error
	s.Buffer, err = Marshal(s.Buffer, m, s.Final)
	if err != nil {
		return 0, err
	}
	n := len(s.Buffer) - start
	if s.W != nil {
		_, err = s.W.Write(s.Buffer)
	}
	return n, err
}

// Handler decodes and dispatches one message by type number: generated Receivers
// implement it. known is false for a type the protocol does not know (skipped).
type Handler interface {
	Dispatch(typ uint32, msg []byte) (known bool, err error)
}

// Dispatcher is a Handler whose format and limits the stream reassembling for it uses
// (generated Receivers).
type Dispatcher interface {
	Handler
	IsFinal() bool
	ReceiveLimits() *Limits
}

// StreamError is a stream that cannot be framed (a size field below the header or above
// the limit); the rest of the stream cannot be resynchronised.
type StreamError struct {
	Size   uint32
	Offset int64
}

func (e *StreamError) Error() string {
	return fmt.Sprintf("bad message size %d at stream offset %d", e.Size, e.Offset)
}

// Is makes a StreamError match ErrBadSize.
func (e *StreamError) Is(target error) bool { return target == ErrBadSize }

// MessageError is a message of a known type that failed to decode.
type MessageError struct {
	Type uint32
	Err  error
}

func (e *MessageError) Error() string {
	return fmt.Sprintf("message of type %d does not decode: %v", e.Type, e.Err)
}

func (e *MessageError) Unwrap() error { return e.Err }

// Stream reassembles messages from chunks of any size and hands each whole one to a
// Handler.
type Stream struct {
	H         Handler
	Final     bool
	Limits    *Limits
	OnUnknown func(typ uint32, msg []byte)
	pending   []byte
	offset    int64
}

// NewStream reassembles the stream for d (its format and limits).
func NewStream(d Dispatcher) *Stream {
	return &Stream{H: d, Final: d.IsFinal(), Limits: d.ReceiveLimits()}
}

// Pending is the number of bytes received that do not complete a message yet.
func (s *Stream) Pending() int { return len(s.pending) }

// Receive feeds bytes; it stops at the first error (a *StreamError, a *MessageError, or
// a hook's error).
func (s *Stream) Receive(data []byte) error {
	buf := data
	if len(s.pending) > 0 {
		s.pending = append(s.pending, data...)
		buf = s.pending
	}
	lim := s.Limits
	if lim == nil {
		lim = &DefaultLimits
	}
	min := 16
	if s.Final {
		min = 8
	}
	pos := 0
	var err error
	for len(buf)-pos >= 4 {
		size := int(le.Uint32(buf[pos:]))
		if size < min || size > lim.MaxMessageSize {
			err = &StreamError{Size: uint32(size), Offset: s.offset}
			break
		}
		if len(buf)-pos < size {
			break
		}
		msg := buf[pos : pos+size]
		pos += size
		s.offset += int64(size)
		if err = s.dispatch(msg); err != nil {
			break
		}
	}
	rest := buf[pos:]
	if len(s.pending) > 0 {
		n := copy(s.pending, rest)
		s.pending = s.pending[:n]
	} else {
		s.pending = append(s.pending[:0], rest...)
	}
	return err
}

func (s *Stream) dispatch(msg []byte) error {
	var typ uint32
	if s.Final {
		typ = le.Uint32(msg[4:])
	} else {
		root := int(le.Uint32(msg[4:]))
		if root > len(msg)-8 {
			return &MessageError{Err: ErrTruncated}
		}
		typ = le.Uint32(msg[root+4:])
	}
	known, err := s.H.Dispatch(typ, msg)
	if err != nil {
		var me *MessageError
		if !errors.As(err, &me) {
			return err
		}
		return err
	}
	if !known && s.OnUnknown != nil {
		s.OnUnknown(typ, msg)
	}
	return nil
}

// Decoder is a generated struct's checked readers.
type Decoder interface {
	UnmarshalFBELimits([]byte, *Limits) error
}

type finalDecoder interface {
	UnmarshalFinalLimits([]byte, *Limits) error
}

// Decode reads one message into v (generated Receivers).
func Decode(v Decoder, typ uint32, msg []byte, final bool, lim *Limits) error {
	var err error
	if final {
		f, ok := v.(finalDecoder)
		if !ok {
			return &MessageError{Type: typ, Err: fmt.Errorf("fastwire: %T has no final format", v)}
		}
		err = f.UnmarshalFinalLimits(msg, lim)
	} else {
		err = v.UnmarshalFBELimits(msg, lim)
	}
	if err != nil {
		return &MessageError{Type: typ, Err: err}
	}
	return nil
}

// Request errors: a request fails with one of these (errors.Is).
var (
	ErrRejected     = errors.New("fastwire: request rejected")
	ErrTimeout      = errors.New("fastwire: request timed out")
	ErrDisconnected = errors.New("fastwire: disconnected")
	ErrOverflow     = errors.New("fastwire: send queue full")
)

// RejectedError carries the [reject] message that answered a request (errors.Is
// ErrRejected).
type RejectedError struct {
	Message Message
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("fastwire: request rejected with %T", e.Message)
}

// Is makes a RejectedError match ErrRejected.
func (e *RejectedError) Is(target error) bool { return target == ErrRejected }

// Proxy is a Dispatcher that hands every message on as bytes, without decoding it
// (forwarding, logging, routing by type): OnMessage gets the type number and the whole
// message, valid until it returns.
type Proxy struct {
	Final     bool
	Limits    Limits
	OnMessage func(typ uint32, msg []byte) error
}

// NewProxy is a Proxy of the versioned (final: the final) format under DefaultLimits.
func NewProxy(final bool, on func(typ uint32, msg []byte) error) *Proxy {
	return &Proxy{Final: final, Limits: DefaultLimits, OnMessage: on}
}

// IsFinal tells the format the Proxy reads.
func (p *Proxy) IsFinal() bool { return p.Final }

// ReceiveLimits are the limits of the stream.
func (p *Proxy) ReceiveLimits() *Limits { return &p.Limits }

// Dispatch hands the message on.
func (p *Proxy) Dispatch(typ uint32, msg []byte) (bool, error) {
	if p.OnMessage == nil {
		return true, nil
	}
	return true, p.OnMessage(typ, msg)
}

// ReceiverBase is what every generated Receiver holds: the format and limits it reads
// messages under, and OnResponse, which (when set) is offered every response and reject
// first (Client sets it); true means it took the message.
type ReceiverBase struct {
	Final      bool
	Limits     Limits
	OnResponse func(id any, m Message, reject bool) bool
}

// IsFinal tells the format the Receiver reads.
func (b *ReceiverBase) IsFinal() bool { return b.Final }

// ReceiveLimits are the limits messages are read under.
func (b *ReceiverBase) ReceiveLimits() *Limits { return &b.Limits }

// SetOnResponse sets OnResponse (Client).
func (b *ReceiverBase) SetOnResponse(f func(id any, m Message, reject bool) bool) { b.OnResponse = f }

// Deliver decodes msg (of type typ) into v and calls hook with it (a nil hook skips it):
// one case of a generated Receiver's Dispatch.
func Deliver[M Decoder](b *ReceiverBase, typ uint32, msg []byte, v M, hook func(M)) (bool, error) {
	if err := Decode(v, typ, msg, b.Final, &b.Limits); err != nil {
		return true, err
	}
	if hook != nil {
		hook(v)
	}
	return true, nil
}

// DeliverAnswer is Deliver for a response or (reject) a reject answering the request
// id(v): offered to OnResponse first.
func DeliverAnswer[M interface {
	Decoder
	Message
}](b *ReceiverBase, typ uint32, msg []byte, v M, id func(M) any, reject bool, hook func(M)) (bool, error) {
	if err := Decode(v, typ, msg, b.Final, &b.Limits); err != nil {
		return true, err
	}
	if b.OnResponse != nil && b.OnResponse(id(v), v, reject) {
		return true, nil
	}
	if hook != nil {
		hook(v)
	}
	return true, nil
}

// RequestAs sends q through c and waits for its answer of type *A: or fails with
// ErrRejected (a *RejectedError holding the reject), ErrTimeout, ErrDisconnected or
// ErrOverflow. timeout 0 is the client's RequestTimeout.
func RequestAs[A any](c *Client, q Request, timeout time.Duration) (*A, error) {
	m, err := c.Request(q, timeout)
	if err != nil {
		return nil, err
	}
	a, ok := any(m).(*A)
	if !ok {
		return nil, &RejectedError{Message: m}
	}
	return a, nil
}
