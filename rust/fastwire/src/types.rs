//! The value types FBE has and Rust's standard library lacks: `string` kept byte for byte,
//! `bytes`, `decimal` (the wire's 96-bit coefficient and scale), `uuid` and `timestamp`.

use crate::error::{Error, Result};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An FBE `string`: UTF-8 text as written, but kept byte for byte when a writer sent
/// bytes that are not UTF-8 (FBE does not validate strings, docs/security.md), so a
/// message reads and writes back unchanged. Compare, hash and order as bytes.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(Vec<u8>);

impl Text {
    /// An empty string.
    pub const fn new() -> Self {
        Text(Vec::new())
    }
    /// The text when it is UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }
    /// The text, invalid sequences replaced by U+FFFD.
    pub fn to_string_lossy(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// The bytes, to change (the capacity is kept).
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
    /// Bytes as they came (UTF-8 or not).
    pub fn from_bytes(b: Vec<u8>) -> Self {
        Text(b)
    }
    /// Replaces the content, reusing the capacity.
    pub fn set(&mut self, s: &str) {
        self.0.clear();
        self.0.extend_from_slice(s.as_bytes());
    }
    /// The length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text(s.as_bytes().to_vec())
    }
}
impl From<String> for Text {
    fn from(s: String) -> Self {
        Text(s.into_bytes())
    }
}
impl PartialEq<str> for Text {
    fn eq(&self, o: &str) -> bool {
        self.0 == o.as_bytes()
    }
}
impl PartialEq<&str> for Text {
    fn eq(&self, o: &&str) -> bool {
        self.0 == o.as_bytes()
    }
}
impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string_lossy(), f)
    }
}
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

/// An FBE `bytes` value (a `byte[]` is a `Vec<u8>`: in JSON that is an array of
/// numbers, this is Base64).
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bytes(pub Vec<u8>);

impl From<&[u8]> for Bytes {
    fn from(b: &[u8]) -> Self {
        Bytes(b.to_vec())
    }
}
impl From<Vec<u8>> for Bytes {
    fn from(b: Vec<u8>) -> Self {
        Bytes(b)
    }
}
impl fmt::Debug for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bytes[{}]", self.0.len())
    }
}

/// Nanoseconds since 1970-01-01 UTC, exactly as on the wire.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// The current time (the schema default `utc`).
    pub fn now() -> Self {
        let d = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Timestamp(d.as_nanos() as u64)
    }
    /// Nanoseconds since the epoch.
    pub fn nanos(self) -> u64 {
        self.0
    }
}

/// A uuid: the 16 bytes in the order of its canonical text (RFC 4122).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uuid(pub [u8; 16]);

impl Uuid {
    /// The nil uuid (`uuid0`).
    pub const NIL: Uuid = Uuid([0; 16]);

    /// From the 128-bit number whose big-endian bytes are the uuid.
    pub const fn from_u128(v: u128) -> Self {
        Uuid(v.to_be_bytes())
    }

    /// A random (version 4) uuid (`uuid4`), from the standard library's hasher seeds
    /// (not for cryptographic use).
    pub fn new_v4() -> Self {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&random_u64().to_le_bytes());
        b[8..].copy_from_slice(&random_u64().to_le_bytes());
        b[6] = (b[6] & 0x0F) | 0x40;
        b[8] = (b[8] & 0x3F) | 0x80;
        Uuid(b)
    }

    /// A time-based (version 1) uuid (`uuid1`): 100 ns ticks since 1582-10-15, a random
    /// clock sequence and node.
    pub fn new_v1() -> Self {
        let ticks = Timestamp::now().0 / 100 + 0x01B2_1DD2_1381_4000;
        let mut b = [0u8; 16];
        b[0..4].copy_from_slice(&((ticks & 0xFFFF_FFFF) as u32).to_be_bytes());
        b[4..6].copy_from_slice(&(((ticks >> 32) & 0xFFFF) as u16).to_be_bytes());
        b[6..8].copy_from_slice(&((((ticks >> 48) & 0x0FFF) as u16) | 0x1000).to_be_bytes());
        let r = random_u64().to_be_bytes();
        b[8..16].copy_from_slice(&r);
        b[8] = (b[8] & 0x3F) | 0x80;
        b[10] |= 0x01; // multicast bit: not a real MAC address
        Uuid(b)
    }

    /// Parses the canonical text `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case).
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.as_bytes();
        if t.len() != 36 {
            return Err(Error::InvalidValue);
        }
        let mut b = [0u8; 16];
        let mut j = 0;
        let mut i = 0;
        while i < 36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if t[i] != b'-' {
                    return Err(Error::InvalidValue);
                }
                i += 1;
                continue;
            }
            let hi = hex(t[i])?;
            let lo = hex(t[i + 1])?;
            b[j] = (hi << 4) | lo;
            j += 1;
            i += 2;
        }
        Ok(Uuid(b))
    }
}

fn hex(c: u8) -> Result<u8> {
    match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        b'A'..=b'F' => Ok(c - b'A' + 10),
        _ => Err(Error::InvalidValue),
    }
}

fn random_u64() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering as O};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, O::Relaxed));
    h.write_u64(Timestamp::now().0);
    h.finish()
}

impl fmt::Display for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const H: &[u8; 16] = b"0123456789abcdef";
        let mut out = [0u8; 36];
        let mut j = 0;
        for (i, byte) in self.0.iter().enumerate() {
            if i == 4 || i == 6 || i == 8 || i == 10 {
                out[j] = b'-';
                j += 1;
            }
            out[j] = H[(byte >> 4) as usize];
            out[j + 1] = H[(byte & 15) as usize];
            j += 2;
        }
        f.write_str(std::str::from_utf8(&out).unwrap_or(""))
    }
}
impl fmt::Debug for Uuid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// An FBE `decimal` exactly as on the wire: a 96-bit unsigned coefficient, a scale
/// 0..=28 and a sign; the value is ±coefficient / 10^scale. Negative zero and trailing
/// zeros are kept ("-0.00" reads and writes back as such); equality, ordering and hashing
/// are by value (1.5 == 1.50).
///
/// Why not `rust_decimal`: it has the same model, but fastwire needs no arithmetic, and
/// this type keeps every value the wire can carry (negative zero included) with no
/// dependency; convert through [`Decimal::parts`] / [`Decimal::from_parts`].
#[derive(Clone, Copy, Default)]
pub struct Decimal {
    coefficient: u128,
    scale: u8,
    negative: bool,
}

/// The largest coefficient: 2^96 - 1.
pub const DECIMAL_MAX: u128 = (1u128 << 96) - 1;

impl Decimal {
    /// Zero.
    pub const ZERO: Decimal = Decimal {
        coefficient: 0,
        scale: 0,
        negative: false,
    };

    /// ±coefficient / 10^scale; None when the coefficient needs more than 96 bits or the
    /// scale is above 28.
    pub const fn from_parts(coefficient: u128, scale: u8, negative: bool) -> Option<Self> {
        if coefficient > DECIMAL_MAX || scale > 28 {
            return None;
        }
        Some(Decimal {
            coefficient,
            scale,
            negative,
        })
    }
    /// A literal of generated code (the compiler checked its range).
    pub const fn lit(coefficient: u128, scale: u8, negative: bool) -> Self {
        Decimal {
            coefficient,
            scale,
            negative,
        }
    }
    /// (coefficient, scale, negative)
    pub fn parts(self) -> (u128, u8, bool) {
        (self.coefficient, self.scale, self.negative)
    }
    /// The 16 wire bytes.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut b = [0u8; 16];
        b[..12].copy_from_slice(&self.coefficient.to_le_bytes()[..12]);
        let flags = ((self.scale as u32) << 16) | if self.negative { 0x8000_0000 } else { 0 };
        b[12..].copy_from_slice(&flags.to_le_bytes());
        b
    }
    /// From the 16 wire bytes; `BadValue` when the scale is above 28.
    pub fn from_bytes(b: &[u8; 16]) -> Result<Self> {
        let scale = b[14];
        if scale > 28 {
            return Err(Error::BadValue);
        }
        let mut c = [0u8; 16];
        c[..12].copy_from_slice(&b[..12]);
        Ok(Decimal {
            coefficient: u128::from_le_bytes(c),
            scale,
            negative: b[15] & 0x80 != 0,
        })
    }

    /// Parses `[+|-]digits[.digits][(e|E)[+|-]digits]` by the shared rules
    /// (docs/wire-format.md#json): the digits as written must fit 96 bits, the scale
    /// 0..=28 after a negative scale multiplies the digits. Work bounded by the length.
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.as_bytes();
        let mut i = 0;
        let mut negative = false;
        if i < t.len() && (t[i] == b'+' || t[i] == b'-') {
            negative = t[i] == b'-';
            i += 1;
        }
        let mut digits: Vec<u8> = Vec::new();
        let mut int_digits = 0usize;
        while i < t.len() && t[i].is_ascii_digit() {
            digits.push(t[i] - b'0');
            int_digits += 1;
            i += 1;
        }
        let mut frac = 0usize;
        if i < t.len() && t[i] == b'.' {
            i += 1;
            while i < t.len() && t[i].is_ascii_digit() {
                digits.push(t[i] - b'0');
                frac += 1;
                i += 1;
            }
        }
        if int_digits + frac == 0 {
            return Err(Error::InvalidValue);
        }
        let mut exp: i64 = 0;
        if i < t.len() && (t[i] == b'e' || t[i] == b'E') {
            i += 1;
            let mut eneg = false;
            if i < t.len() && (t[i] == b'+' || t[i] == b'-') {
                eneg = t[i] == b'-';
                i += 1;
            }
            let start = i;
            while i < t.len() && t[i].is_ascii_digit() {
                exp = (exp * 10 + (t[i] - b'0') as i64).min(1 << 40);
                i += 1;
            }
            if i == start {
                return Err(Error::InvalidValue);
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != t.len() {
            return Err(Error::InvalidValue);
        }
        // Leading zeros are not digits of the value (Python's Decimal drops them too).
        let first = digits.iter().position(|&d| d != 0);
        let digits: &[u8] = match first {
            Some(k) => &digits[k..],
            None => &[0],
        };
        if digits.len() > 29 {
            return Err(Error::OutOfRange);
        }
        let mut n: u128 = 0;
        for &d in digits {
            n = n * 10 + d as u128;
        }
        let mut scale: i64 = frac as i64 - exp;
        if scale < 0 {
            if n != 0 {
                if digits.len() as i64 - scale > 29 {
                    return Err(Error::OutOfRange);
                }
                for _ in 0..(-scale) {
                    n *= 10;
                }
            }
            scale = 0;
        }
        if n > DECIMAL_MAX || scale > 28 {
            return Err(Error::OutOfRange);
        }
        Ok(Decimal {
            coefficient: n,
            scale: scale as u8,
            negative,
        })
    }

    fn cmp_magnitude(a: &Decimal, b: &Decimal) -> Ordering {
        let (x, y) = (a.coefficient, b.coefficient);
        if a.scale == b.scale {
            return x.cmp(&y);
        }
        // Bring both to the larger scale; a product beyond u128 is larger than any 96-bit value.
        if a.scale < b.scale {
            match mul_pow10(x, (b.scale - a.scale) as u32) {
                Some(xs) => xs.cmp(&y),
                None => Ordering::Greater,
            }
        } else {
            match mul_pow10(y, (a.scale - b.scale) as u32) {
                Some(ys) => x.cmp(&ys),
                None => Ordering::Less,
            }
        }
    }
}

fn mul_pow10(mut x: u128, k: u32) -> Option<u128> {
    for _ in 0..k {
        x = x.checked_mul(10)?;
    }
    Some(x)
}

impl PartialEq for Decimal {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Decimal {}
impl PartialOrd for Decimal {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Decimal {
    fn cmp(&self, o: &Self) -> Ordering {
        let zs = self.coefficient == 0;
        let zo = o.coefficient == 0;
        if zs && zo {
            return Ordering::Equal;
        }
        let ns = self.negative && !zs;
        let no = o.negative && !zo;
        match (ns, no) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => Decimal::cmp_magnitude(self, o),
            (true, true) => Decimal::cmp_magnitude(o, self),
        }
    }
}
impl Hash for Decimal {
    fn hash<H: Hasher>(&self, h: &mut H) {
        // By value: strip trailing zeros.
        let (mut c, mut s) = (self.coefficient, self.scale);
        while s > 0 && c % 10 == 0 {
            c /= 10;
            s -= 1;
        }
        if c == 0 {
            0u128.hash(h);
            return;
        }
        (c, s, self.negative).hash(h);
    }
}
impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.coefficient.to_string();
        let scale = self.scale as usize;
        let mut out = String::with_capacity(digits.len() + scale + 3);
        if self.negative {
            out.push('-');
        }
        if scale == 0 {
            out.push_str(&digits);
        } else if digits.len() > scale {
            out.push_str(&digits[..digits.len() - scale]);
            out.push('.');
            out.push_str(&digits[digits.len() - scale..]);
        } else {
            out.push_str("0.");
            for _ in 0..scale - digits.len() {
                out.push('0');
            }
            out.push_str(&digits);
        }
        f.write_str(&out)
    }
}
impl fmt::Debug for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
impl std::str::FromStr for Decimal {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Decimal::parse(s)
    }
}
impl From<i64> for Decimal {
    fn from(v: i64) -> Self {
        Decimal {
            coefficient: v.unsigned_abs() as u128,
            scale: 0,
            negative: v < 0,
        }
    }
}
