package fastwire

import (
	"encoding/binary"
	"math"
)

var le = binary.LittleEndian

// ---- writing ------------------------------------------------------------------------------

// Writer appends a message to Buf. Versioned writers reserve a struct's body when they
// enter it and patch its slots, so positions (not slices) are kept across appends.
type Writer struct {
	Buf []byte
}

// Alloc appends n bytes (not cleared: every writer stores each byte) and returns their
// position.
func (w *Writer) Alloc(n int) int {
	b := w.Buf
	p := len(b)
	if p+n > cap(b) {
		b = w.Grow(n)
	}
	w.Buf = b[:p+n]
	return p
}

// Grow makes room for n more bytes after len(w.Buf) and returns w.Buf (kept out of line
// so that Alloc and the generated writers' own allocation inline).
//
//go:noinline
func (w *Writer) Grow(n int) []byte {
	nb := make([]byte, len(w.Buf), 2*cap(w.Buf)+n)
	copy(nb, w.Buf)
	w.Buf = nb
	return nb
}

// PutU32 stores v at position p.
func (w *Writer) PutU32(p int, v uint32) { le.PutUint32(w.Buf[p:], v) }

// VString writes a [u32 length][bytes] block and its offset (from base) into the slot.
func (w *Writer) VString(slot, base int, s string) {
	p := w.Alloc(4 + len(s))
	b := w.Buf
	le.PutUint32(b[slot:], uint32(p-base))
	le.PutUint32(b[p:], uint32(len(s)))
	copy(b[p+4:], s)
}

// VBytes is VString for bytes.
func (w *Writer) VBytes(slot, base int, s []byte) {
	p := w.Alloc(4 + len(s))
	b := w.Buf
	le.PutUint32(b[slot:], uint32(p-base))
	le.PutUint32(b[p:], uint32(len(s)))
	copy(b[p+4:], s)
}

// VBlock writes a collection block's count and its offset into the slot, and returns
// the position of the first element slot.
func (w *Writer) VBlock(slot, base, count, elem int) int {
	p := w.Alloc(4 + count*elem)
	b := w.Buf
	le.PutUint32(b[slot:], uint32(p-base))
	le.PutUint32(b[p:], uint32(count))
	return p + 4
}

// VStruct reserves a struct body of `body` bytes (header written) and stores its offset
// into the slot; returns the body's position.
func (w *Writer) VStruct(slot, base, body int, typ uint32) int {
	p := w.Alloc(body)
	b := w.Buf
	le.PutUint32(b[slot:], uint32(p-base))
	le.PutUint32(b[p:], uint32(body))
	le.PutUint32(b[p+4:], typ)
	return p
}

// VOptional writes a set optional's flag and offset, reserving its value block of
// `size` bytes; returns the block's position (the base of the value).
func (w *Writer) VOptional(slot, base, size int) int {
	p := w.Alloc(size)
	b := w.Buf
	b[slot] = 1
	le.PutUint32(b[slot+1:], uint32(p-base))
	return p
}

// VNull writes a null optional's slot.
func (w *Writer) VNull(slot int) {
	b := w.Buf
	b[slot] = 0
	le.PutUint32(b[slot+1:], 0)
}

// Final-format appends.

func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}
func AppendU16(b []byte, v uint16) []byte  { return le.AppendUint16(b, v) }
func AppendU32(b []byte, v uint32) []byte  { return le.AppendUint32(b, v) }
func AppendU64(b []byte, v uint64) []byte  { return le.AppendUint64(b, v) }
func AppendF32(b []byte, v float32) []byte { return le.AppendUint32(b, math.Float32bits(v)) }
func AppendF64(b []byte, v float64) []byte { return le.AppendUint64(b, math.Float64bits(v)) }
func AppendString(b []byte, s string) []byte {
	b = le.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}
func AppendBytes(b []byte, s []byte) []byte {
	b = le.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}
func AppendDecimal(b []byte, d Decimal) []byte {
	b = le.AppendUint64(b, d.Lo)
	b = le.AppendUint32(b, d.Hi)
	return le.AppendUint32(b, d.flags())
}

func (d Decimal) flags() uint32 {
	f := uint32(d.Scale) << 16
	if d.Neg {
		f |= 0x80000000
	}
	return f
}

// PutDecimal stores a decimal's 16 bytes at b.
func PutDecimal(b []byte, d Decimal) {
	le.PutUint64(b, d.Lo)
	le.PutUint32(b[8:], d.Hi)
	le.PutUint32(b[12:], d.flags())
}

// Loads and stores (the caller checked the bounds).

// Each slices exactly the bytes it touches (b[p:p+n:p+n]): one bounds check, and none
// when the compiler can prove it (a constant p in a slice of known length). They combine
// or split the bytes themselves (the compiler makes one load or store of them, as in
// binary.LittleEndian): with that in their own body, a call whose bounds check is proven
// away leaves no inlining-mark NOP behind (verify and the writers had one per access).

func U16(b []byte, p int) uint16 {
	b = b[p : p+2 : p+2]
	return uint16(b[0]) | uint16(b[1])<<8
}
func U32(b []byte, p int) uint32 {
	b = b[p : p+4 : p+4]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}
func U64(b []byte, p int) uint64 {
	b = b[p : p+8 : p+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}
func F32(b []byte, p int) float32 { return math.Float32frombits(U32(b, p)) }
func F64(b []byte, p int) float64 { return math.Float64frombits(U64(b, p)) }
func PutU16(b []byte, p int, v uint16) {
	b = b[p : p+2 : p+2]
	b[0], b[1] = byte(v), byte(v>>8)
}
func PutU32(b []byte, p int, v uint32) {
	b = b[p : p+4 : p+4]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
func PutU64(b []byte, p int, v uint64) {
	b = b[p : p+8 : p+8]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	b[4], b[5], b[6], b[7] = byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56)
}
func PutF32(b []byte, p int, v float32) { PutU32(b, p, math.Float32bits(v)) }
func PutF64(b []byte, p int, v float64) { PutU64(b, p, math.Float64bits(v)) }
func B2U(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// decimalAt loads a decimal; ok is false when its scale is above 28.
func decimalAt(b []byte, p int) (Decimal, bool) {
	f := le.Uint32(b[p+12:])
	s := (f >> 16) & 0xFF
	if s > MaxDecimalScale {
		return Decimal{}, false
	}
	return Decimal{Lo: le.Uint64(b[p:]), Hi: le.Uint32(b[p+8:]), Scale: uint8(s), Neg: f>>31 != 0}, true
}

// DecimalValid tells whether the decimal at p has a valid scale.
func DecimalValid(b []byte, p int) bool { return (le.Uint32(b[p+12:])>>16)&0xFF <= MaxDecimalScale }

// ---- versioned reading --------------------------------------------------------------------

// VReader walks one versioned root model (Data is exactly the model). Left is the budget
// of bytes the walk may still visit (negative: failed); Depth the struct levels that may
// still be entered; Err the first error found.
type VReader struct {
	Data  []byte
	Size  int
	Left  int64
	Depth int
	Err   error
}

// Fail records e (the first error is kept) and fails the walk.
func (r *VReader) Fail(e error) {
	if r.Err == nil {
		r.Err = e
	}
	r.Left = -1
}

// OK tells whether the walk has not failed.
func (r *VReader) OK() bool { return r.Left >= 0 }

// Result is the walk's error (nil when it succeeded).
func (r *VReader) Result() error {
	if r.Left >= 0 {
		return nil
	}
	if r.Err != nil {
		return r.Err
	}
	return ErrOverBudget
}

// Locate resolves an offset from a slot ending at slotEnd to a block of need bytes.
func (r *VReader) Locate(base int, off uint32, slotEnd, need int) (int, bool) {
	pos := base + int(off)
	if pos < slotEnd {
		r.Fail(ErrBadOffset)
		return 0, false
	}
	if need > r.Size || pos > r.Size-need {
		r.Fail(ErrTruncated)
		return 0, false
	}
	return pos, true
}

// LocateOrEmpty is Locate for strings and collections, where offset 0 means empty
// (pos 0).
func (r *VReader) LocateOrEmpty(base int, off uint32, slotEnd int) (int, bool) {
	pos := base + int(off)
	if pos < slotEnd {
		if off != 0 {
			r.Fail(ErrBadOffset)
			return 0, false
		}
		return 0, true
	}
	if pos > r.Size-4 {
		r.Fail(ErrTruncated)
		return 0, false
	}
	return pos, true
}

// Text finds a string's or bytes' block from the slot; returns the payload (nil when
// empty or on failure).
func (r *VReader) Text(slot, base int) []byte {
	d := r.Data
	off := le.Uint32(d[slot:])
	blk := base + int(off)
	if blk >= slot+4 && blk <= r.Size-4 {
		n := int(le.Uint32(d[blk:]))
		if n <= r.Size-blk-4 {
			r.Left -= int64(4 + n)
			return d[blk+4 : blk+4+n]
		}
		r.Fail(ErrTruncated)
		return nil
	}
	if _, ok := r.LocateOrEmpty(base, off, slot+4); ok && off != 0 {
		r.Fail(ErrTruncated)
	}
	return nil
}

// String reads a string into dst, reusing it when equal.
func (r *VReader) String(slot, base int, dst *string) {
	t := r.Text(slot, base)
	if *dst != string(t) {
		*dst = string(t)
	}
}

// Bytes reads bytes into dst, reusing its capacity.
func (r *VReader) Bytes(slot, base int, dst *[]byte) {
	t := r.Text(slot, base)
	*dst = append((*dst)[:0], t...)
}

// Block finds a collection's [count][count × elem] block; pos is the first element.
// ok is false on failure or when the walk already failed (nothing may be allocated).
func (r *VReader) Block(slot, base, elem int) (pos, count int, ok bool) {
	blk, ok := r.LocateOrEmpty(base, le.Uint32(r.Data[slot:]), slot+4)
	if !ok {
		return 0, 0, false
	}
	if blk == 0 {
		return 0, 0, r.Left >= 0
	}
	n := int(le.Uint32(r.Data[blk:]))
	if n > (r.Size-blk-4)/elem {
		r.Fail(ErrTruncated)
		return 0, 0, false
	}
	r.Left -= int64(4 + n*elem)
	return blk + 4, n, r.Left >= 0
}

// Enter finds and checks a struct body from its slot and enters it (one level down; the
// caller calls Leave). stored is the body size in the data.
func (r *VReader) Enter(slot, base int, typ uint32) (pos, stored int, ok bool) {
	d := r.Data
	pos = base + int(le.Uint32(d[slot:]))
	if pos >= slot+4 && pos <= r.Size-8 {
		stored = int(le.Uint32(d[pos:]))
		if stored >= 8 && stored <= r.Size-pos && le.Uint32(d[pos+4:]) == typ && r.Depth > 0 {
			r.Depth--
			r.Left -= int64(stored)
			return pos, stored, true
		}
	}
	r.enterFailed(slot, base, typ)
	return 0, 0, false
}

// enterFailed records why Enter failed.
func (r *VReader) enterFailed(slot, base int, typ uint32) {
	pos, ok := r.Locate(base, le.Uint32(r.Data[slot:]), slot+4, 8)
	if !ok {
		return
	}
	stored := int(le.Uint32(r.Data[pos:]))
	switch {
	case stored < 8:
		r.Fail(ErrBadSize)
	case stored > r.Size-pos:
		r.Fail(ErrTruncated)
	case le.Uint32(r.Data[pos+4:]) != typ:
		r.Fail(ErrBadType)
	default:
		r.Fail(ErrTooDeep)
	}
}

// Leave goes back up one level.
func (r *VReader) Leave() { r.Depth++ }

// Optional finds a set optional's value block of `size` bytes (charged); ok is false
// when the optional is null (set false) or on failure.
func (r *VReader) Optional(slot, base, size int) (pos int, set, ok bool) {
	if r.Data[slot] == 0 {
		return 0, false, true
	}
	pos, ok = r.Locate(base, le.Uint32(r.Data[slot+1:]), slot+5, size)
	if !ok {
		return 0, true, false
	}
	r.Left -= int64(size)
	return pos, true, true
}

// Decimal reads a decimal (bad_value for a scale above 28).
func (r *VReader) Decimal(p int) Decimal {
	d, ok := decimalAt(r.Data, p)
	if !ok {
		r.Fail(ErrBadValue)
	}
	return d
}

// CheckDecimal verifies a decimal's scale.
func (r *VReader) CheckDecimal(p int) {
	if !DecimalValid(r.Data, p) {
		r.Fail(ErrBadValue)
	}
}

// Root checks a versioned root model's header: data[:full] is the model.
func Root(data []byte, lim *Limits) (full int, err error) {
	if len(data) < 8 {
		return 0, ErrTruncated
	}
	full = int(le.Uint32(data))
	if full > lim.MaxMessageSize {
		return 0, ErrTooLarge
	}
	if full > len(data) {
		return 0, ErrTruncated
	}
	if full < 16 {
		return 0, ErrBadSize
	}
	return full, nil
}

// NewVReader starts a walk of the root model data[:full].
func NewVReader(data []byte, full int, lim *Limits) VReader {
	return VReader{Data: data[:full], Size: full, Left: int64(full) - 8, Depth: lim.depth()}
}

// Start begins a walk of the root model data[:full] in r (a zero VReader). Generated code
// starts its walks so, not with `r := NewVReader(…)`: the compiler builds that value and
// copies it with 16-byte moves, whose loads cannot be forwarded from the 8-byte stores
// just made (a stall as long as a small message's whole walk).
func (r *VReader) Start(data []byte, full int, lim *Limits) {
	r.Data, r.Size, r.Left, r.Depth = data[:full], full, int64(full)-8, lim.depth()
}

// ---- final reading ------------------------------------------------------------------------

// FReader walks one final root model. Positions are ints; a read returns the position
// after the value, or -1 on failure (Err says why).
type FReader struct {
	Data  []byte
	Zero  int // zero-size elements that may still be read
	Depth int
	Err   error
}

// Fail records e and returns -1.
func (r *FReader) Fail(e error) int {
	if r.Err == nil {
		r.Err = e
	}
	return -1
}

// FRoot checks a final root model's header against the struct's type and minimum size.
func FRoot(data []byte, lim *Limits, typ uint32, min int) (full int, err error) {
	if len(data) < 8 {
		return 0, ErrTruncated
	}
	full = int(le.Uint32(data))
	if full > lim.MaxMessageSize {
		return 0, ErrTooLarge
	}
	if full > len(data) {
		return 0, ErrTruncated
	}
	if full < 8 {
		return 0, ErrBadSize
	}
	if le.Uint32(data[4:]) != typ {
		return 0, ErrBadType
	}
	if full-8 < min {
		return 0, ErrTruncated
	}
	return full, nil
}

// NewFReader starts a walk of the final root model data[:full].
func NewFReader(data []byte, full int, lim *Limits) FReader {
	return FReader{Data: data[:full], Zero: lim.MaxZeroSizeElements, Depth: lim.depth()}
}

// Start begins a walk of the final root model data[:full] in r (a zero FReader); see
// VReader.Start.
func (r *FReader) Start(data []byte, full int, lim *Limits) {
	r.Data, r.Zero, r.Depth = data[:full], lim.MaxZeroSizeElements, lim.depth()
}

// FFinish checks that the walk ended exactly at the declared size.
func (r *FReader) Finish(p, full int) error {
	if p < 0 {
		return r.Err
	}
	if p != full {
		return ErrBadSize
	}
	return nil
}

// Text reads [u32 length][bytes] at p within [p, end); returns the payload and the
// position after it (-1 on failure).
func (r *FReader) Text(p, end int) ([]byte, int) {
	n := int(le.Uint32(r.Data[p:]))
	if n > end-p-4 {
		return nil, r.Fail(ErrTruncated)
	}
	return r.Data[p+4 : p+4+n], p + 4 + n
}

// String reads a string into dst (reused when equal).
func (r *FReader) String(p, end int, dst *string) int {
	n := int(le.Uint32(r.Data[p:]))
	if n > end-p-4 {
		return r.Fail(ErrTruncated)
	}
	t := r.Data[p+4 : p+4+n]
	if *dst != string(t) {
		*dst = string(t)
	}
	return p + 4 + n
}

// Bytes reads bytes into dst (its capacity reused).
func (r *FReader) Bytes(p, end int, dst *[]byte) int {
	t, q := r.Text(p, end)
	if q < 0 {
		return q
	}
	*dst = append((*dst)[:0], t...)
	return q
}

// Count reads a collection's count at p: count elements of at least min bytes must fit
// in [p+4, end); zero-size elements are charged to the allowance instead.
func (r *FReader) Count(p, end, min int) (int, bool) {
	n := int(le.Uint32(r.Data[p:]))
	if min == 0 {
		if n > r.Zero {
			r.Fail(ErrOverBudget)
			return 0, false
		}
		r.Zero -= n
		return n, true
	}
	if n > (end-p-4)/min {
		r.Fail(ErrTruncated)
		return 0, false
	}
	return n, true
}

// Enter enters a struct (one level down); false (too_deep) at the limit.
func (r *FReader) Enter() bool {
	if r.Depth == 0 {
		r.Fail(ErrTooDeep)
		return false
	}
	r.Depth--
	return true
}

// Leave goes back up one level.
func (r *FReader) Leave() { r.Depth++ }

// Decimal reads a decimal at p (bad_value for a scale above 28: ok false).
func (r *FReader) Decimal(p int, dst *Decimal) bool {
	d, ok := decimalAt(r.Data, p)
	if !ok {
		r.Fail(ErrBadValue)
		return false
	}
	*dst = d
	return true
}

// CheckDecimal verifies a decimal's scale at p.
func (r *FReader) CheckDecimal(p int) bool {
	if !DecimalValid(r.Data, p) {
		r.Fail(ErrBadValue)
		return false
	}
	return true
}

// VNull writes a null optional's slot (generated code).
func VNull(w *Writer, slot int) { w.VNull(slot) }

// VDecimal reads a versioned decimal slot (generated code).
func VDecimal(r *VReader, slot int) Decimal { return r.Decimal(slot) }

// VCheckDecimal verifies a versioned decimal slot (generated code).
func VCheckDecimal(r *VReader, slot int) { r.CheckDecimal(slot) }

// UUIDAt loads the 16 bytes at p.
func UUIDAt(b []byte, p int) UUID { return UUID(b[p : p+16]) }
