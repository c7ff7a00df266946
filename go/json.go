package fastwire

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ---- writing (docs/wire-format.md#json) --------------------------------------------------

// AppendJSONString appends a JSON string literal: UTF-8 as is; `"`, `\`, the control
// characters with a short form, and other control characters as \u00XX (upper-case hex).
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const hexd = "0123456789ABCDEF"
			b = append(b, '\\', 'u', '0', '0', hexd[c>>4], hexd[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendJSONBytes appends standard Base64 with padding, quoted.
func AppendJSONBytes(b []byte, v []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, v)
	return append(b, '"')
}

// AppendDouble appends a double as every fastwire language writes it (shortest digits,
// RapidJSON's layout); NaN and the infinities as the strings "NaN", "Infinity",
// "-Infinity".
func AppendDouble(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, `"NaN"`...)
	case math.IsInf(x, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(x, -1):
		return append(b, `"-Infinity"`...)
	}
	return appendDoubleText(b, x)
}

// appendDoubleText lays out a finite double.
func appendDoubleText(b []byte, x float64) []byte {
	if x == 0 {
		if math.Signbit(x) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var tmp [32]byte
	t := strconv.AppendFloat(tmp[:0], x, 'e', -1, 64)
	if t[0] == '-' {
		b = append(b, '-')
		t = t[1:]
	}
	// t = d[.ddd]e±XX
	e := 0
	for e < len(t) && t[e] != 'e' {
		e++
	}
	mant := t[:e]
	exp, _ := strconv.Atoi(string(t[e+1:]))
	var digits [24]byte
	nd := 0
	for _, c := range mant {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	k := exp - (nd - 1) // value = digits × 10^k
	n := nd + k
	switch {
	case k >= 0 && n <= 21:
		b = append(b, digits[:nd]...)
		for i := 0; i < k; i++ {
			b = append(b, '0')
		}
		return append(b, '.', '0')
	case n > 0 && n <= 21:
		b = append(b, digits[:n]...)
		b = append(b, '.')
		return append(b, digits[n:nd]...)
	case n > -6 && n <= 0:
		b = append(b, '0', '.')
		for i := 0; i < -n; i++ {
			b = append(b, '0')
		}
		return append(b, digits[:nd]...)
	}
	b = append(b, digits[0])
	if nd > 1 {
		b = append(b, '.')
		b = append(b, digits[1:nd]...)
	}
	b = append(b, 'e')
	return strconv.AppendInt(b, int64(n-1), 10)
}

// AppendDoubleKey appends a float or double map key: quoted text, NaN and the infinities
// without extra quotes.
func AppendDoubleKey(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, `"NaN"`...)
	case math.IsInf(x, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(x, -1):
		return append(b, `"-Infinity"`...)
	}
	b = append(b, '"')
	b = appendDoubleText(b, x)
	return append(b, '"')
}

// AppendJSONDecimal appends a decimal as a string.
func AppendJSONDecimal(b []byte, d Decimal) []byte {
	b = append(b, '"')
	b = d.AppendText(b)
	return append(b, '"')
}

// AppendJSONUUID appends a uuid as a string.
func AppendJSONUUID(b []byte, u UUID) []byte {
	b = append(b, '"')
	b = u.AppendText(b)
	return append(b, '"')
}

// AppendBool appends true or false.
func AppendJSONBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

// ---- reading ------------------------------------------------------------------------------

// JSONParser reads JSON text for generated code: strict JSON, the hostile-input rules
// of docs/wire-format.md (depth, budget, ranges, Unicode). After the first error every
// method does nothing; Err holds it.
type JSONParser struct {
	data  []byte
	pos   int
	depth int
	Zero  int // zero-size elements that may still be read
	Err   error
	Key   []byte // the key NextKey read (unescaped)
	buf   []byte
}

// NewJSONParser starts reading text under lim.
func NewJSONParser(text []byte, lim *Limits) *JSONParser {
	p := &JSONParser{data: text, depth: lim.depth(), Zero: lim.MaxZeroSizeElements}
	if len(text) > lim.MaxMessageSize {
		p.Err = ErrTooLarge
	}
	return p
}

// Fail records e.
func (p *JSONParser) Fail(e error) {
	if p.Err == nil {
		p.Err = e
	}
}

func (p *JSONParser) ws() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *JSONParser) peek() byte {
	p.ws()
	if p.pos < len(p.data) {
		return p.data[p.pos]
	}
	return 0
}

// Finish checks that only whitespace follows the value.
func (p *JSONParser) Finish() error {
	if p.Err == nil && p.peek() != 0 {
		p.Fail(ErrInvalidArgument)
	}
	if p.Err == nil && p.pos != len(p.data) {
		p.Fail(ErrInvalidArgument)
	}
	return p.Err
}

// Null consumes `null` if it is next.
func (p *JSONParser) Null() bool {
	if p.Err != nil {
		return false
	}
	if p.peek() == 'n' {
		if p.pos+4 <= len(p.data) && string(p.data[p.pos:p.pos+4]) == "null" {
			p.pos += 4
			return true
		}
		p.Fail(ErrInvalidArgument)
	}
	return false
}

func (p *JSONParser) enter() bool {
	if p.depth == 0 {
		p.Fail(ErrTooDeep)
		return false
	}
	p.depth--
	return true
}

// Object starts an object; then NextKey until it returns false.
func (p *JSONParser) Object() bool {
	if p.Err != nil {
		return false
	}
	if p.peek() != '{' {
		p.Fail(ErrInvalidArgument)
		return false
	}
	if !p.enter() {
		return false
	}
	p.pos++
	return true
}

// NextKey reads the next key (into Key) and its colon; false at the end of the object.
func (p *JSONParser) NextKey() bool {
	if p.Err != nil {
		return false
	}
	c := p.peek()
	if c == '}' {
		p.pos++
		p.depth++
		return false
	}
	if !p.opened('{') {
		if c != ',' {
			p.Fail(ErrInvalidArgument)
			return false
		}
		p.pos++
		c = p.peek()
	}
	if c != '"' {
		p.Fail(ErrInvalidArgument)
		return false
	}
	p.Key = p.str(p.Key[:0])
	if p.Err != nil {
		return false
	}
	if p.peek() != ':' {
		p.Fail(ErrInvalidArgument)
		return false
	}
	p.pos++
	return true
}

// opened tells whether the last token before pos is the bracket `open` (no element read
// yet): values never end in a bracket of their own.
func (p *JSONParser) opened(open byte) bool {
	for i := p.pos - 1; i >= 0; i-- {
		switch p.data[i] {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return p.data[i] == open
	}
	return false
}

// Array starts an array; then More before each element.
func (p *JSONParser) Array() bool {
	if p.Err != nil {
		return false
	}
	if p.peek() != '[' {
		p.Fail(ErrInvalidArgument)
		return false
	}
	if !p.enter() {
		return false
	}
	p.pos++
	return true
}

// More tells whether another element follows (consuming the comma); false at the end.
func (p *JSONParser) More() bool {
	if p.Err != nil {
		return false
	}
	c := p.peek()
	if c == ']' {
		p.pos++
		p.depth++
		return false
	}
	if !p.opened('[') {
		if c != ',' {
			p.Fail(ErrInvalidArgument)
			return false
		}
		p.pos++
	}
	return true
}

// ChargeZero charges one zero-size element to the allowance.
func (p *JSONParser) ChargeZero() {
	if p.Zero == 0 {
		p.Fail(ErrOverBudget)
		return
	}
	p.Zero--
}

// ReadArray reads a JSON array of exactly n items, item(i) reading the i-th.
func (p *JSONParser) ReadArray(n int, item func(i int)) {
	if !p.Array() {
		return
	}
	i := 0
	for p.More() {
		if i == n {
			p.Fail(ErrInvalidArgument)
			break
		}
		item(i)
		i++
	}
	if i != n {
		p.Fail(ErrInvalidArgument)
	}
}

// ReadSlice reads a JSON array into dst (emptied first), item reading each element in
// place; zeroSize charges each to the zero-size allowance.
func ReadSlice[T any](p *JSONParser, dst []T, zeroSize bool, item func(e *T)) []T {
	var zero T
	dst = dst[:0]
	if !p.Array() {
		return dst
	}
	for p.More() {
		dst = append(dst, zero)
		item(&dst[len(dst)-1])
		if zeroSize {
			p.ChargeZero()
		}
		if p.Err != nil {
			return dst[:len(dst)-1]
		}
	}
	return dst
}

// str reads a string literal at pos (the quote) and appends its text to dst.
func (p *JSONParser) str(dst []byte) []byte {
	d := p.data
	i := p.pos + 1
	for {
		if i >= len(d) {
			p.Fail(ErrInvalidArgument)
			return dst
		}
		c := d[i]
		switch {
		case c == '"':
			p.pos = i + 1
			return dst
		case c < 0x20:
			p.Fail(ErrInvalidArgument)
			return dst
		case c == '\\':
			if i+1 >= len(d) {
				p.Fail(ErrInvalidArgument)
				return dst
			}
			e := d[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				dst = append(dst, e)
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r, ok := hex4(d, i)
				if !ok {
					p.Fail(ErrInvalidArgument)
					return dst
				}
				i += 4
				if utf16.IsSurrogate(r) {
					if r >= 0xDC00 || i+6 > len(d) || d[i] != '\\' || d[i+1] != 'u' {
						p.Fail(ErrInvalidArgument)
						return dst
					}
					r2, ok := hex4(d, i+2)
					if !ok || r2 < 0xDC00 || r2 > 0xDFFF {
						p.Fail(ErrInvalidArgument)
						return dst
					}
					i += 6
					r = utf16.DecodeRune(r, r2)
				}
				dst = utf8.AppendRune(dst, r)
			default:
				p.Fail(ErrInvalidArgument)
				return dst
			}
		case c < 0x80:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n <= 1 {
				p.Fail(ErrInvalidArgument)
				return dst
			}
			dst = append(dst, d[i:i+n]...)
			i += n
		}
	}
}

func hex4(d []byte, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range d[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// String reads a string value.
func (p *JSONParser) String(dst *string) {
	if p.Err != nil {
		return
	}
	if p.peek() != '"' {
		p.Fail(ErrInvalidArgument)
		return
	}
	p.buf = p.str(p.buf[:0])
	if p.Err == nil && *dst != string(p.buf) {
		*dst = string(p.buf)
	}
}

// Bytes reads Base64 text.
func (p *JSONParser) Bytes(dst *[]byte) {
	var s string
	p.String(&s)
	if p.Err != nil {
		return
	}
	// Go's decoder skips '\r' and '\n' anywhere; the rule (docs/wire-format.md#json) takes
	// the standard alphabet and '=' only.
	if strings.ContainsAny(s, "\r\n") {
		p.Fail(ErrInvalidArgument)
		return
	}
	v, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		p.Fail(ErrInvalidArgument)
		return
	}
	*dst = append((*dst)[:0], v...)
}

// number returns the text of a JSON number at pos (validated), and whether it is an
// integer (no fraction, no exponent).
func (p *JSONParser) number() ([]byte, bool) {
	if p.Err != nil {
		return nil, false
	}
	p.ws()
	d := p.data
	i := p.pos
	start := i
	if i < len(d) && d[i] == '-' {
		i++
	}
	if i >= len(d) {
		p.Fail(ErrInvalidArgument)
		return nil, false
	}
	if d[i] == '0' {
		i++
	} else if d[i] >= '1' && d[i] <= '9' {
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	} else {
		p.Fail(ErrInvalidArgument)
		return nil, false
	}
	integer := true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if s == i {
			p.Fail(ErrInvalidArgument)
			return nil, false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		s := i
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
		if s == i {
			p.Fail(ErrInvalidArgument)
			return nil, false
		}
	}
	p.pos = i
	return d[start:i], integer
}

// Int reads an integer in [min, max].
func (p *JSONParser) Int(min, max int64) int64 {
	t, integer := p.number()
	if p.Err != nil {
		return 0
	}
	if !integer {
		p.Fail(ErrInvalidArgument)
		return 0
	}
	v, err := strconv.ParseInt(string(t), 10, 64)
	if err != nil || v < min || v > max {
		p.Fail(ErrOutOfRange)
		return 0
	}
	return v
}

// Uint reads an unsigned integer up to max.
func (p *JSONParser) Uint(max uint64) uint64 {
	t, integer := p.number()
	if p.Err != nil {
		return 0
	}
	if !integer {
		p.Fail(ErrInvalidArgument)
		return 0
	}
	if t[0] == '-' {
		if string(t) == "-0" {
			return 0
		}
		p.Fail(ErrOutOfRange)
		return 0
	}
	v, err := strconv.ParseUint(string(t), 10, 64)
	if err != nil || v > max {
		p.Fail(ErrOutOfRange)
		return 0
	}
	return v
}

// Bool reads true or false.
func (p *JSONParser) Bool() bool {
	if p.Err != nil {
		return false
	}
	c := p.peek()
	d := p.data[p.pos:]
	if c == 't' && len(d) >= 4 && string(d[:4]) == "true" {
		p.pos += 4
		return true
	}
	if c == 'f' && len(d) >= 5 && string(d[:5]) == "false" {
		p.pos += 5
		return false
	}
	p.Fail(ErrInvalidArgument)
	return false
}

// Double reads a number or "NaN", "Infinity", "-Infinity".
func (p *JSONParser) Double() float64 {
	if p.Err != nil {
		return 0
	}
	if p.peek() == '"' {
		var s string
		p.String(&s)
		switch s {
		case "NaN":
			return math.Float64frombits(0x7FF8000000000000)
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
		p.Fail(ErrInvalidArgument)
		return 0
	}
	t, _ := p.number()
	if p.Err != nil {
		return 0
	}
	return p.parseDouble(string(t))
}

func (p *JSONParser) parseDouble(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if math.IsInf(v, 0) {
			p.Fail(ErrOutOfRange)
			return 0
		}
		if v != 0 {
			p.Fail(ErrInvalidArgument)
		}
	}
	return v
}

// Float reads a float (rounded from the double; beyond its range rejected).
func (p *JSONParser) Float() float32 {
	v := p.Double()
	if p.Err != nil {
		return 0
	}
	f := float32(v)
	if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
		p.Fail(ErrOutOfRange)
		return 0
	}
	return f
}

// Decimal reads a decimal from a string or a number.
func (p *JSONParser) Decimal() Decimal {
	if p.Err != nil {
		return Decimal{}
	}
	var s string
	if p.peek() == '"' {
		p.String(&s)
	} else {
		t, _ := p.number()
		s = string(t)
	}
	if p.Err != nil {
		return Decimal{}
	}
	d, err := ParseDecimal(s)
	if err != nil {
		p.Fail(err)
	}
	return d
}

// UUID reads a uuid's text.
func (p *JSONParser) UUID() UUID {
	var s string
	p.String(&s)
	if p.Err != nil {
		return UUID{}
	}
	u, err := ParseUUID(s)
	if err != nil {
		p.Fail(err)
	}
	return u
}

// Skip skips any value (counting its nesting).
func (p *JSONParser) Skip() {
	if p.Err != nil {
		return
	}
	switch c := p.peek(); c {
	case '{':
		if !p.Object() {
			return
		}
		for p.NextKey() {
			p.Skip()
		}
	case '[':
		if !p.Array() {
			return
		}
		for p.More() {
			p.Skip()
		}
	case '"':
		p.buf = p.str(p.buf[:0])
	case 't', 'f':
		p.Bool()
	case 'n':
		if !p.Null() {
			p.Fail(ErrInvalidArgument)
		}
	default:
		p.number()
	}
}

// Map keys: the key text (Key) as each key type.

// KeyInt reads an integer key in [min, max]: an optional '-' and digits; leading zeros
// are not digits of the value.
func (p *JSONParser) KeyInt(min, max int64) int64 {
	neg, v, ok := keyDigits(p.Key)
	if !ok {
		p.Fail(ErrInvalidArgument)
		return 0
	}
	if neg {
		if v > uint64(-(min+1))+1 {
			p.Fail(ErrOutOfRange)
			return 0
		}
		return -int64(v-1) - 1 // v may be 2^63
	}
	if v > uint64(max) {
		p.Fail(ErrOutOfRange)
		return 0
	}
	return int64(v)
}

// KeyUint reads an unsigned integer key up to max.
func (p *JSONParser) KeyUint(max uint64) uint64 {
	neg, v, ok := keyDigits(p.Key)
	if !ok {
		p.Fail(ErrInvalidArgument)
		return 0
	}
	if (neg && v != 0) || v > max {
		p.Fail(ErrOutOfRange)
		return 0
	}
	return v
}

func keyDigits(k []byte) (neg bool, v uint64, ok bool) {
	if len(k) > 0 && k[0] == '-' {
		neg = true
		k = k[1:]
	}
	if len(k) == 0 {
		return false, 0, false
	}
	over := false
	for _, c := range k {
		if c < '0' || c > '9' {
			return false, 0, false
		}
		if over {
			continue
		}
		if v > (math.MaxUint64-9)/10 {
			// v*10 + d may overflow: check exactly.
			hi := v * 10
			if v > math.MaxUint64/10 || hi > math.MaxUint64-uint64(c-'0') {
				over = true
				continue
			}
		}
		v = v*10 + uint64(c-'0')
	}
	if over {
		return neg, math.MaxUint64, true
	}
	return neg, v, true
}

// KeyDouble reads a float or double key.
func (p *JSONParser) KeyDouble() float64 {
	switch string(p.Key) {
	case "NaN":
		return math.Float64frombits(0x7FF8000000000000)
	case "Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	save, pos := p.data, p.pos
	p.data, p.pos = p.Key, 0
	t, _ := p.number()
	ok := p.Err == nil && p.pos == len(p.Key)
	p.data, p.pos = save, pos
	if !ok {
		p.Fail(ErrInvalidArgument)
		return 0
	}
	return p.parseDouble(string(t))
}

// KeyFloat reads a float key.
func (p *JSONParser) KeyFloat() float32 {
	v := p.KeyDouble()
	f := float32(v)
	if math.IsInf(float64(f), 0) && !math.IsInf(v, 0) {
		p.Fail(ErrOutOfRange)
	}
	return f
}

// KeyBool reads "true" or "false".
func (p *JSONParser) KeyBool() bool {
	switch string(p.Key) {
	case "true":
		return true
	case "false":
		return false
	}
	p.Fail(ErrInvalidArgument)
	return false
}

// KeyDecimal reads a decimal key.
func (p *JSONParser) KeyDecimal() Decimal {
	d, err := ParseDecimal(string(p.Key))
	if err != nil {
		p.Fail(err)
	}
	return d
}

// KeyUUID reads a uuid key.
func (p *JSONParser) KeyUUID() UUID {
	u, err := ParseUUID(string(p.Key))
	if err != nil {
		p.Fail(err)
	}
	return u
}

// KeyString is the key as a string.
func (p *JSONParser) KeyString() string { return string(p.Key) }
