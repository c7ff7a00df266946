package fastwire

import (
	"crypto/rand"
	"encoding/hex"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"time"
)

// UUID is 16 bytes in the order of the canonical text (RFC 4122).
type UUID [16]byte

// String is the canonical lower-case text.
func (u UUID) String() string { return string(u.AppendText(nil)) }

// AppendText appends the canonical text.
func (u UUID) AppendText(b []byte) []byte {
	var t [36]byte
	hex.Encode(t[0:8], u[0:4])
	t[8] = '-'
	hex.Encode(t[9:13], u[4:6])
	t[13] = '-'
	hex.Encode(t[14:18], u[6:8])
	t[18] = '-'
	hex.Encode(t[19:23], u[8:10])
	t[23] = '-'
	hex.Encode(t[24:], u[10:])
	return append(b, t[:]...)
}

// ParseUUID reads the canonical text (either case).
func ParseUUID(s string) (UUID, error) {
	var u UUID
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, ErrInvalidArgument
	}
	h := s[0:8] + s[9:13] + s[14:18] + s[19:23] + s[24:]
	if _, err := hex.Decode(u[:], []byte(h)); err != nil {
		return UUID{}, ErrInvalidArgument
	}
	return u, nil
}

// MustUUID is ParseUUID for literals known to be valid.
func MustUUID(s string) UUID {
	u, err := ParseUUID(s)
	if err != nil {
		panic(err)
	}
	return u
}

// NewUUID4 is a random (version 4) UUID.
func NewUUID4() UUID {
	var u UUID
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0F | 0x40
	u[8] = u[8]&0x3F | 0x80
	return u
}

var uuid1 struct {
	sync.Mutex
	last uint64
	node [6]byte
	seq  uint16
}

// NewUUID1 is a time-based (version 1) UUID with a random node.
func NewUUID1() UUID {
	uuid1.Lock()
	if uuid1.node == [6]byte{} {
		_, _ = rand.Read(uuid1.node[:])
		uuid1.node[0] |= 1
		var s [2]byte
		_, _ = rand.Read(s[:])
		uuid1.seq = uint16(s[0])<<8 | uint16(s[1])
	}
	// 100 ns intervals since 1582-10-15.
	t := uint64(time.Now().UnixNano()/100) + 0x01B21DD213814000
	if t <= uuid1.last {
		t = uuid1.last + 1
	}
	uuid1.last = t
	node, seq := uuid1.node, uuid1.seq
	uuid1.Unlock()
	var u UUID
	u[0], u[1], u[2], u[3] = byte(t>>24), byte(t>>16), byte(t>>8), byte(t)
	u[4], u[5] = byte(t>>40), byte(t>>32)
	u[6], u[7] = byte(t>>56)&0x0F|0x10, byte(t>>48)
	u[8], u[9] = byte(seq>>8)&0x3F|0x80, byte(seq)
	copy(u[10:], node[:])
	return u
}

// Timestamp is nanoseconds since 1970-01-01 UTC, exactly as on the wire.
type Timestamp uint64

// Now is the current time (the `utc` default).
func Now() Timestamp { return Timestamp(time.Now().UnixNano()) }

// Time converts to a time.Time in UTC.
func (t Timestamp) Time() time.Time { return time.Unix(0, int64(t)).UTC() }

// TimestampOf converts a time.Time (after 1970) to a Timestamp.
func TimestampOf(t time.Time) Timestamp { return Timestamp(t.UnixNano()) }

// Decimal is an exact decimal: ±(Hi<<64 | Lo) / 10^Scale, with a 96-bit coefficient
// (Hi < 2^32) and Scale 0…28, as FBE (and .NET) writes it. The zero value is 0.
type Decimal struct {
	Lo    uint64
	Hi    uint32
	Scale uint8
	Neg   bool
}

// MaxDecimalScale is the largest scale a decimal may have.
const MaxDecimalScale = 28

func (d Decimal) big() *big.Int {
	n := new(big.Int).SetUint64(uint64(d.Hi))
	n.Lsh(n, 64)
	n.Or(n, new(big.Int).SetUint64(d.Lo))
	return n
}

// String is the exact value with its scale, never an exponent ("1.50", "-0.00").
func (d Decimal) String() string { return string(d.AppendText(nil)) }

// AppendText appends String().
func (d Decimal) AppendText(b []byte) []byte {
	var digits []byte
	if d.Hi == 0 {
		digits = strconv.AppendUint(make([]byte, 0, 32), d.Lo, 10)
	} else {
		digits = d.big().Append(make([]byte, 0, 32), 10)
	}
	if d.Neg {
		b = append(b, '-')
	}
	s := int(d.Scale)
	if s == 0 {
		return append(b, digits...)
	}
	if len(digits) <= s {
		b = append(b, '0', '.')
		for i := len(digits); i < s; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	b = append(b, digits[:len(digits)-s]...)
	b = append(b, '.')
	return append(b, digits[len(digits)-s:]...)
}

var maxCoefficient = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 96), big.NewInt(1))

// ParseDecimal reads [+|-](digits[.[digits]]|.digits)[(e|E)[+|-]digits] (".5" and "5."
// too, as every language reads them): the digits as written must fit 96 bits and the
// scale 0…28 (a negative scale multiplies the digits).
func ParseDecimal(s string) (Decimal, error) {
	var d Decimal
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		d.Neg = s[i] == '-'
		i++
	}
	start := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	whole := s[start:i]
	frac := ""
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		frac = s[fs:i]
	}
	if whole == "" && frac == "" {
		return Decimal{}, ErrInvalidArgument
	}
	exp := int64(0)
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		es := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if exp < 1e12 {
				exp = exp*10 + int64(s[i]-'0')
			}
			i++
		}
		if es == i {
			return Decimal{}, ErrInvalidArgument
		}
		if neg {
			exp = -exp
		}
	}
	if i != len(s) {
		return Decimal{}, ErrInvalidArgument
	}
	digits := whole + frac
	// The digits as written (leading zeros aside) must fit 96 bits: at most 29 digits.
	trimmed := digits
	for len(trimmed) > 1 && trimmed[0] == '0' {
		trimmed = trimmed[1:]
	}
	if len(trimmed) > 29 {
		return Decimal{}, ErrOutOfRange
	}
	n, _ := new(big.Int).SetString(trimmed, 10)
	if n.Cmp(maxCoefficient) > 0 {
		return Decimal{}, ErrOutOfRange
	}
	scale := int64(len(frac)) - exp
	if scale < 0 {
		if n.Sign() == 0 {
			scale = 0
		} else {
			if scale < -29 {
				return Decimal{}, ErrOutOfRange
			}
			n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(-scale), nil))
			if n.Cmp(maxCoefficient) > 0 {
				return Decimal{}, ErrOutOfRange
			}
			scale = 0
		}
	}
	if scale > MaxDecimalScale {
		return Decimal{}, ErrOutOfRange
	}
	d.Scale = uint8(scale)
	lo := new(big.Int).And(n, new(big.Int).SetUint64(^uint64(0)))
	d.Lo = lo.Uint64()
	d.Hi = uint32(new(big.Int).Rsh(n, 64).Uint64())
	return d, nil
}

// MustDecimal is ParseDecimal for literals known to be valid.
func MustDecimal(s string) Decimal {
	d, err := ParseDecimal(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Compare orders decimals by value (-1, 0, 1); 1.5 and 1.50 are equal.
func (d Decimal) Compare(o Decimal) int {
	a, b := d.big(), o.big()
	if d.Neg {
		a.Neg(a)
	}
	if o.Neg {
		b.Neg(b)
	}
	// a / 10^sa vs b / 10^sb: scale both to the larger scale.
	if d.Scale < o.Scale {
		a.Mul(a, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(o.Scale-d.Scale)), nil))
	} else if o.Scale < d.Scale {
		b.Mul(b, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d.Scale-o.Scale)), nil))
	}
	return a.Cmp(b)
}

// AppendPrintFloat appends a float as C++'s ostream prints it (6 significant digits).
func AppendPrintFloat(b []byte, x float64) []byte {
	switch {
	case math.IsNaN(x):
		return append(b, "nan"...)
	case math.IsInf(x, 1):
		return append(b, "inf"...)
	case math.IsInf(x, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, x, 'g', 6, 64)
}

// AppendPrintWChar appends a wchar as 'c' (printable ASCII) or 'U+XXXX'.
func AppendPrintWChar(b []byte, c rune) []byte {
	u := uint32(c)
	if u >= 0x20 && u < 0x7F {
		return append(b, '\'', byte(u), '\'')
	}
	b = append(b, "'U+"...)
	b = append(b, strings.ToUpper(strconv.FormatUint(uint64(u), 16))...)
	return append(b, '\'')
}

// Integer is what an enum or flags type stands on.
type Integer interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64
}

// EnumName is an enum's String: the name of v's first entry in values (names[i] is the name
// of values[i]), or <unknown>.
func EnumName[T Integer](v T, values []T, names []string) string {
	for i, x := range values {
		if x == v {
			return names[i]
		}
	}
	return "<unknown>"
}

// FlagsName is a flags type's String: every name whose value's bits are all set in v (zero
// values never match), in the order of values, joined by | as fastwire's C++ prints flags.
func FlagsName[T Integer](v T, values []T, names []string) string {
	s := ""
	for i, x := range values {
		if x != 0 && v&x == x {
			s += "|" + names[i]
		}
	}
	if s != "" {
		s = s[1:]
	}
	return s
}
