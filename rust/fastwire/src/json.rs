//! JSON by the rules every fastwire language writes and reads by
//! (docs/wire-format.md#json): compact, every field in declaration order, exact integers,
//! shortest round-trip doubles laid out as RapidJSON does, decimals as exact strings,
//! NaN and the infinities as strings; and a reader that bounds hostile text (length,
//! nesting, zero-size elements) and rejects what is not a value of the type.

use crate::error::{Error, Result};
use crate::key::Ordered;
use crate::types::{Bytes, Decimal, Text, Timestamp, Uuid};
use crate::versioned::MapLike;
use crate::{Limits, Struct};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;
use std::hash::Hash;

// ---- writing ------------------------------------------------------------------------------

/// Appends a JSON string literal: UTF-8 as is; `"`, `\`, and control characters escaped
/// as RapidJSON does (`\b \f \n \r \t`, others `\u00XX` upper-case). Bytes that are not
/// UTF-8 are written as U+FFFD.
pub fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let b = s.as_bytes();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let esc: &str = match c {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x0C => "\\f",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1F => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            let _ = write!(out, "\\u{:04X}", c);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Appends a double as the shared rules lay it out (the shortest digits that read back,
/// RapidJSON's layout; NaN and the infinities as strings).
pub fn write_f64(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("\"NaN\"");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "\"Infinity\"" } else { "\"-Infinity\"" });
    } else {
        push_double(out, x);
    }
}

/// A finite double's text (no quotes).
fn push_double(out: &mut String, x: f64) {
    if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.0" } else { "0.0" });
        return;
    }
    // `{:e}` gives the shortest round-trip digits: "-1.2345e-7" (into a stack buffer).
    let mut e = Small::default();
    let _ = write!(e, "{:e}", x.abs());
    let text = e.as_str();
    let (mant, exp) = text.split_once('e').unwrap_or((text, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = x < 0.0;
    let mut d = Small::default();
    for c in mant.chars().filter(|c| *c != '.') {
        let _ = d.write_char(c);
    }
    let digits = d.as_str();
    let nd = digits.len() as i32;
    let n = exp + 1; // digits before the point
    if neg {
        out.push('-');
    }
    let k = n - nd;
    if k >= 0 && n <= 21 {
        out.push_str(digits);
        for _ in 0..k {
            out.push('0');
        }
        out.push_str(".0");
    } else if 0 < n && n <= 21 {
        out.push_str(&digits[..n as usize]);
        out.push('.');
        out.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        for _ in 0..(-n) {
            out.push('0');
        }
        out.push_str(digits);
    } else {
        out.push_str(&digits[..1]);
        if nd > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        let _ = write!(out, "e{}", n - 1);
    }
}

/// A short text on the stack (a double's digits and exponent: at most 24 bytes).
#[derive(Default)]
struct Small {
    buf: [u8; 32],
    len: usize,
}

impl Small {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl std::fmt::Write for Small {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let b = s.as_bytes();
        let end = self.len + b.len();
        self.buf.get_mut(self.len..end).ok_or(std::fmt::Error)?.copy_from_slice(b);
        self.len = end;
        Ok(())
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard Base64 with padding.
pub fn write_base64(out: &mut String, b: &[u8]) {
    out.push('"');
    for chunk in b.chunks(3) {
        let n = chunk.len();
        let v =
            (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        out.push(B64[(v >> 18) as usize & 63] as char);
        out.push(B64[(v >> 12) as usize & 63] as char);
        out.push(if n > 1 { B64[(v >> 6) as usize & 63] as char } else { '=' });
        out.push(if n > 2 { B64[v as usize & 63] as char } else { '=' });
    }
    out.push('"');
}

fn read_base64(s: &str) -> Result<Vec<u8>> {
    let t = s.as_bytes();
    if t.len() % 4 != 0 {
        return Err(Error::InvalidValue);
    }
    let mut out = Vec::with_capacity(t.len() / 4 * 3);
    for (ci, chunk) in t.chunks(4).enumerate() {
        let last = ci == t.len() / 4 - 1;
        let mut v = 0u32;
        let mut pad = 0;
        for (i, &c) in chunk.iter().enumerate() {
            let d = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' if last && i >= 2 => {
                    pad += 1;
                    0
                }
                _ => return Err(Error::InvalidValue),
            };
            if pad > 0 && c != b'=' {
                return Err(Error::InvalidValue);
            }
            v = v << 6 | d as u32;
        }
        out.push((v >> 16) as u8);
        if pad < 2 {
            out.push((v >> 8) as u8);
        }
        if pad < 1 {
            out.push(v as u8);
        }
    }
    Ok(out)
}

// ---- parsing ------------------------------------------------------------------------------

/// A parsed JSON value; numbers keep their text (integers and decimals are read exactly).
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// null
    Null,
    /// true, false
    Bool(bool),
    /// A number's text as written.
    Number(&'a str),
    /// A string, unescaped.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Value<'a>>),
    /// An object's members in order (repeated keys kept).
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

/// The state of one read: the zero-size elements it may still take.
pub struct Context {
    zero_left: usize,
}

impl Context {
    /// A context with the limits' allowance.
    pub fn new(limits: &Limits) -> Self {
        Context {
            zero_left: limits.max_zero_size_elements,
        }
    }
    /// Charges n elements of zero final size.
    pub fn charge_zero(&mut self, n: usize) -> Result<()> {
        if n > self.zero_left {
            return Err(Error::OverBudget);
        }
        self.zero_left -= n;
        Ok(())
    }
}

struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
    max_depth: u32,
}

/// Parses JSON text (bounded by `limits`: length, nesting).
pub fn parse<'a>(text: &'a [u8], limits: &Limits) -> Result<Value<'a>> {
    if text.len() > limits.max_message_size {
        return Err(Error::TooLarge);
    }
    let s = std::str::from_utf8(text).map_err(|_| Error::NotJson)?;
    let mut p = Parser {
        s,
        b: s.as_bytes(),
        i: 0,
        depth: 0,
        max_depth: limits.depth(),
    };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i != p.b.len() {
        return Err(Error::NotJson);
    }
    Ok(v)
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn word(&mut self, w: &str, v: Value<'a>) -> Result<Value<'a>> {
        if self.s[self.i..].starts_with(w) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(Error::NotJson)
        }
    }
    fn value(&mut self) -> Result<Value<'a>> {
        match self.peek().ok_or(Error::NotJson)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => Ok(Value::String(self.string()?)),
            b't' => self.word("true", Value::Bool(true)),
            b'f' => self.word("false", Value::Bool(false)),
            b'n' => self.word("null", Value::Null),
            b'-' | b'0'..=b'9' => self.number(),
            _ => Err(Error::NotJson),
        }
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(Error::TooDeep);
        }
        self.i += 1;
        self.ws();
        Ok(())
    }
    fn object(&mut self) -> Result<Value<'a>> {
        self.enter()?;
        let mut members = Vec::new();
        if self.peek() == Some(b'}') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Object(members));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(Error::NotJson);
            }
            let k = self.string()?;
            self.ws();
            if self.peek() != Some(b':') {
                return Err(Error::NotJson);
            }
            self.i += 1;
            self.ws();
            let v = self.value()?;
            members.push((k, v));
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws();
                }
                Some(b'}') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(Error::NotJson),
            }
        }
        self.depth -= 1;
        Ok(Value::Object(members))
    }
    fn array(&mut self) -> Result<Value<'a>> {
        self.enter()?;
        let mut items = Vec::new();
        if self.peek() == Some(b']') {
            self.i += 1;
            self.depth -= 1;
            return Ok(Value::Array(items));
        }
        loop {
            items.push(self.value()?);
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws();
                }
                Some(b']') => {
                    self.i += 1;
                    break;
                }
                _ => return Err(Error::NotJson),
            }
        }
        self.depth -= 1;
        Ok(Value::Array(items))
    }
    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.i < self.b.len() && self.b[self.i].is_ascii_digit() {
            self.i += 1;
        }
        self.i - start
    }
    fn number(&mut self) -> Result<Value<'a>> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(Error::NotJson),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if self.digits() == 0 {
                return Err(Error::NotJson);
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if self.digits() == 0 {
                return Err(Error::NotJson);
            }
        }
        Ok(Value::Number(&self.s[start..self.i]))
    }
    fn hex4(&mut self) -> Result<u32> {
        let h = self.b.get(self.i..self.i + 4).ok_or(Error::NotJson)?;
        let mut v = 0u32;
        for &c in h {
            let d = (c as char).to_digit(16).ok_or(Error::NotJson)?;
            v = v << 4 | d;
        }
        self.i += 4;
        Ok(v)
    }
    fn string(&mut self) -> Result<Cow<'a, str>> {
        self.i += 1; // the quote
        let start = self.i;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    let s = &self.s[start..self.i];
                    self.i += 1;
                    return Ok(Cow::Borrowed(s));
                }
                b'\\' => break,
                0..=0x1F => return Err(Error::NotJson),
                _ => self.i += 1,
            }
        }
        let mut out = String::from(&self.s[start..self.i]);
        loop {
            let c = *self.b.get(self.i).ok_or(Error::NotJson)?;
            match c {
                b'"' => {
                    self.i += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    self.i += 1;
                    let e = *self.b.get(self.i).ok_or(Error::NotJson)?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp) {
                                if self.b.get(self.i) != Some(&b'\\') || self.b.get(self.i + 1) != Some(&b'u') {
                                    return Err(Error::InvalidValue);
                                }
                                self.i += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(Error::InvalidValue);
                                }
                                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                            } else if (0xDC00..0xE000).contains(&cp) {
                                return Err(Error::InvalidValue);
                            }
                            out.push(char::from_u32(cp).ok_or(Error::InvalidValue)?);
                        }
                        _ => return Err(Error::NotJson),
                    }
                }
                0..=0x1F => return Err(Error::NotJson),
                _ => {
                    // Copy a run of plain characters (UTF-8 boundaries: '"' and '\\' are ASCII).
                    let start = self.i;
                    while self.i < self.b.len() && !matches!(self.b[self.i], b'"' | b'\\' | 0..=0x1F) {
                        self.i += 1;
                    }
                    out.push_str(&self.s[start..self.i]);
                }
            }
        }
    }
}

// ---- the codec ----------------------------------------------------------------------------

/// How a type is written to and read from JSON.
pub trait Codec: Sized {
    /// True for structs (a map keyed by one is an array of [key, value] pairs).
    const IS_STRUCT: bool = false;
    /// The fewest bytes in the final format (zero: charged to max_zero_size_elements).
    const FINAL_MIN: usize;
    /// Appends the value's JSON.
    fn j_write(&self, out: &mut String);
    /// Reads the value from parsed JSON.
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()>;
}

/// A map key: written as a string (its text), read back from it.
pub trait KeyText: Sized {
    /// Appends the key's text (no quotes).
    fn key_write(&self, out: &mut String);
    /// Reads a key from its text.
    fn key_read(s: &str) -> Result<Self>;
}

/// Parses an integer (decimal digits, optional '-') into i128; None when not one.
fn integer(s: &str) -> Result<i128> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    if t.is_empty() || !t.bytes().all(|c| c.is_ascii_digit()) {
        return Err(Error::WrongType);
    }
    let t = t.trim_start_matches('0');
    if t.len() > 20 {
        return Err(Error::OutOfRange);
    }
    let mut v: i128 = 0;
    for c in t.bytes() {
        v = v * 10 + (c - b'0') as i128;
    }
    Ok(if neg { -v } else { v })
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Codec for $t {
            const FINAL_MIN: usize = std::mem::size_of::<$t>();
            #[inline]
            fn j_write(&self, out: &mut String) {
                let _ = write!(out, "{}", self);
            }
            fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
                match v {
                    Value::Number(s) => {
                        let x = integer(s)?;
                        *self = <$t>::try_from(x).map_err(|_| Error::OutOfRange)?;
                        Ok(())
                    }
                    _ => Err(Error::WrongType),
                }
            }
        }
        impl KeyText for $t {
            fn key_write(&self, out: &mut String) {
                let _ = write!(out, "{}", self);
            }
            fn key_read(s: &str) -> Result<Self> {
                let x = integer(s).map_err(|e| if e == Error::WrongType { Error::InvalidValue } else { e })?;
                <$t>::try_from(x).map_err(|_| Error::OutOfRange)
            }
        }
    )*};
}
int!(u8, i8, u16, i16, u32, i32, u64, i64);

impl Codec for bool {
    const FINAL_MIN: usize = 1;
    fn j_write(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        match v {
            Value::Bool(b) => {
                *self = *b;
                Ok(())
            }
            _ => Err(Error::WrongType),
        }
    }
}
impl KeyText for bool {
    fn key_write(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    fn key_read(s: &str) -> Result<Self> {
        match s {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(Error::InvalidValue),
        }
    }
}

fn read_double(v: &Value<'_>) -> Result<f64> {
    match v {
        Value::Number(s) => {
            let x: f64 = s.parse().map_err(|_| Error::WrongType)?;
            if x.is_infinite() {
                return Err(Error::OutOfRange);
            }
            Ok(x)
        }
        Value::String(s) => match s.as_ref() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(Error::WrongType),
        },
        _ => Err(Error::WrongType),
    }
}

/// The nearest float (docs/wire-format.md#json): from halfway between the largest float
/// and 2^128 on that is infinity, out of range; below, the largest float.
fn to_f32(x: f64) -> Result<f32> {
    const HALFWAY: f64 = 3.4028235677973366e38; // 2^128 - 2^103
    if x.is_finite() && x.abs() >= HALFWAY {
        return Err(Error::OutOfRange);
    }
    Ok(x as f32) // `as` rounds to nearest: below HALFWAY, at most f32::MAX
}

/// A float or double map key in number form.
fn float_key(s: &str) -> Result<f64> {
    match s {
        "NaN" => return Ok(f64::NAN),
        "Infinity" => return Ok(f64::INFINITY),
        "-Infinity" => return Ok(f64::NEG_INFINITY),
        _ => {}
    }
    let t = s.strip_prefix('-').unwrap_or(s);
    let (m, e) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let ok_m = {
        let (a, b) = m.split_once('.').unwrap_or((m, ""));
        a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
            && (!a.is_empty() || !b.is_empty())
            && (m.contains('.') || !a.is_empty())
    };
    let ok_e = match e {
        None => true,
        Some(e) => {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|c| c.is_ascii_digit())
        }
    };
    if !ok_m || !ok_e {
        return Err(Error::InvalidValue);
    }
    let x: f64 = s.parse().map_err(|_| Error::InvalidValue)?;
    if x.is_infinite() {
        return Err(Error::OutOfRange);
    }
    Ok(x)
}

fn float_key_text(out: &mut String, x: f64) {
    if x.is_nan() {
        out.push_str("NaN");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "Infinity" } else { "-Infinity" });
    } else {
        push_double(out, x);
    }
}

impl Codec for f64 {
    const FINAL_MIN: usize = 8;
    fn j_write(&self, out: &mut String) {
        write_f64(out, *self)
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        *self = read_double(v)?;
        Ok(())
    }
}
impl Codec for f32 {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        write_f64(out, *self as f64)
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        *self = to_f32(read_double(v)?)?;
        Ok(())
    }
}
impl KeyText for f64 {
    fn key_write(&self, out: &mut String) {
        float_key_text(out, *self)
    }
    fn key_read(s: &str) -> Result<Self> {
        float_key(s)
    }
}
impl KeyText for f32 {
    fn key_write(&self, out: &mut String) {
        float_key_text(out, *self as f64)
    }
    fn key_read(s: &str) -> Result<Self> {
        to_f32(float_key(s)?)
    }
}

impl Codec for Timestamp {
    const FINAL_MIN: usize = 8;
    fn j_write(&self, out: &mut String) {
        self.0.j_write(out)
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        self.0.j_read(v, ctx)
    }
}
impl KeyText for Timestamp {
    fn key_write(&self, out: &mut String) {
        self.0.key_write(out)
    }
    fn key_read(s: &str) -> Result<Self> {
        u64::key_read(s).map(Timestamp)
    }
}

impl Codec for Uuid {
    const FINAL_MIN: usize = 16;
    fn j_write(&self, out: &mut String) {
        let _ = write!(out, "\"{}\"", self);
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        match v {
            Value::String(s) => {
                *self = Uuid::parse(s)?;
                Ok(())
            }
            _ => Err(Error::WrongType),
        }
    }
}
impl KeyText for Uuid {
    fn key_write(&self, out: &mut String) {
        let _ = write!(out, "{}", self);
    }
    fn key_read(s: &str) -> Result<Self> {
        Uuid::parse(s)
    }
}

impl Codec for Decimal {
    const FINAL_MIN: usize = 16;
    fn j_write(&self, out: &mut String) {
        let _ = write!(out, "\"{}\"", self);
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        match v {
            Value::String(s) => *self = Decimal::parse(s)?,
            Value::Number(s) => *self = Decimal::parse(s)?,
            _ => return Err(Error::WrongType),
        }
        Ok(())
    }
}
impl KeyText for Decimal {
    fn key_write(&self, out: &mut String) {
        let _ = write!(out, "{}", self);
    }
    fn key_read(s: &str) -> Result<Self> {
        Decimal::parse(s)
    }
}

impl Codec for Text {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        write_str(out, &self.to_string_lossy())
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        match v {
            Value::String(s) => {
                self.set(s);
                Ok(())
            }
            _ => Err(Error::WrongType),
        }
    }
}
impl KeyText for Text {
    fn key_write(&self, out: &mut String) {
        // The caller quotes keys: escape as a string without its quotes.
        let mut s = String::new();
        write_str(&mut s, &self.to_string_lossy());
        out.push_str(&s[1..s.len() - 1]);
    }
    fn key_read(s: &str) -> Result<Self> {
        Ok(Text::from(s))
    }
}

impl Codec for Bytes {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        write_base64(out, &self.0)
    }
    fn j_read(&mut self, v: &Value<'_>, _ctx: &mut Context) -> Result<()> {
        match v {
            Value::String(s) => {
                self.0 = read_base64(s)?;
                Ok(())
            }
            _ => Err(Error::WrongType),
        }
    }
}

impl<T: Codec + Default> Codec for Option<T> {
    const FINAL_MIN: usize = 1;
    fn j_write(&self, out: &mut String) {
        match self {
            Some(v) => v.j_write(out),
            None => out.push_str("null"),
        }
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        match v {
            Value::Null => {
                *self = None;
                Ok(())
            }
            _ => self.get_or_insert_with(T::default).j_read(v, ctx),
        }
    }
}

fn write_items<'x, T: Codec + 'x>(out: &mut String, items: impl Iterator<Item = &'x T>) {
    out.push('[');
    for (i, e) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        e.j_write(out);
    }
    out.push(']');
}

fn array_of<'v, 'a>(v: &'v Value<'a>) -> Result<&'v [Value<'a>]> {
    match v {
        Value::Array(a) => Ok(a),
        _ => Err(Error::WrongType),
    }
}

impl<T: Codec, const N: usize> Codec for [T; N] {
    const FINAL_MIN: usize = N * T::FINAL_MIN;
    fn j_write(&self, out: &mut String) {
        write_items(out, self.iter())
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        let a = array_of(v)?;
        if a.len() != N {
            return Err(Error::WrongType);
        }
        if T::FINAL_MIN == 0 {
            ctx.charge_zero(N)?;
        }
        for (e, x) in self.iter_mut().zip(a) {
            e.j_read(x, ctx)?;
        }
        Ok(())
    }
}

impl<T: Codec + Default> Codec for Vec<T> {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        write_items(out, self.iter())
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        let a = array_of(v)?;
        if T::FINAL_MIN == 0 {
            ctx.charge_zero(a.len())?;
        }
        self.truncate(a.len());
        let have = self.len();
        for (e, x) in self.iter_mut().zip(a) {
            e.j_read(x, ctx)?;
        }
        for x in &a[have..] {
            let mut e = T::default();
            e.j_read(x, ctx)?;
            self.push(e);
        }
        Ok(())
    }
}

impl<T: Codec + Default + Ord> Codec for BTreeSet<T> {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        write_items(out, self.iter())
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        let a = array_of(v)?;
        if T::FINAL_MIN == 0 {
            ctx.charge_zero(a.len())?;
        }
        self.clear();
        for x in a {
            let mut e = T::default();
            e.j_read(x, ctx)?;
            if !self.contains(&e) {
                self.insert(e);
            }
        }
        Ok(())
    }
}

fn map_write<K: Codec + KeyText, V: Codec, M: MapLike<K, V>>(m: &M, out: &mut String) {
    if K::IS_STRUCT {
        out.push('[');
        for (i, (k, v)) in m.entries().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('[');
            k.j_write(out);
            out.push(',');
            v.j_write(out);
            out.push(']');
        }
        out.push(']');
    } else {
        out.push('{');
        for (i, (k, v)) in m.entries().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            k.key_write(out);
            out.push_str("\":");
            v.j_write(out);
        }
        out.push('}');
    }
}

fn map_read<K: Codec + KeyText + Default, V: Codec + Default, M: MapLike<K, V>>(
    m: &mut M,
    v: &Value<'_>,
    ctx: &mut Context,
) -> Result<()> {
    m.clear_all();
    if K::IS_STRUCT {
        let a = array_of(v)?;
        if K::FINAL_MIN + V::FINAL_MIN == 0 {
            ctx.charge_zero(a.len())?;
        }
        for pair in a {
            let p = array_of(pair)?;
            if p.len() != 2 {
                return Err(Error::WrongType);
            }
            let mut k = K::default();
            k.j_read(&p[0], ctx)?;
            let mut val = V::default();
            val.j_read(&p[1], ctx)?;
            m.add(k, val);
        }
    } else {
        let members = match v {
            Value::Object(o) => o,
            _ => return Err(Error::WrongType),
        };
        for (ks, x) in members {
            let k = K::key_read(ks)?;
            let mut val = V::default();
            val.j_read(x, ctx)?;
            m.add(k, val);
        }
    }
    Ok(())
}

impl<K: Codec + KeyText + Default + Ord, V: Codec + Default> Codec for BTreeMap<K, V> {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        map_write(self, out)
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        map_read(self, v, ctx)
    }
}

impl<K: Codec + KeyText + Default + Hash + Eq, V: Codec + Default> Codec for HashMap<K, V> {
    const FINAL_MIN: usize = 4;
    fn j_write(&self, out: &mut String) {
        map_write(self, out)
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        map_read(self, v, ctx)
    }
}

impl<T: Codec> Codec for Ordered<T> {
    const IS_STRUCT: bool = T::IS_STRUCT;
    const FINAL_MIN: usize = T::FINAL_MIN;
    fn j_write(&self, out: &mut String) {
        self.0.j_write(out)
    }
    fn j_read(&mut self, v: &Value<'_>, ctx: &mut Context) -> Result<()> {
        self.0.j_read(v, ctx)
    }
}
impl<T: KeyText> KeyText for Ordered<T> {
    fn key_write(&self, out: &mut String) {
        self.0.key_write(out)
    }
    fn key_read(s: &str) -> Result<Self> {
        T::key_read(s).map(Ordered)
    }
}

/// Writes a struct as an object.
pub fn struct_write<S: Struct>(v: &S, out: &mut String) {
    out.push('{');
    v.j_write_fields(out);
    out.push('}');
}

/// Reads a struct from an object: missing fields keep their values, unknown keys are
/// ignored, a repeated key's last value wins.
pub fn struct_read<S: Struct>(v: &mut S, j: &Value<'_>, ctx: &mut Context) -> Result<()> {
    match j {
        Value::Object(members) => {
            for (k, x) in members {
                v.j_read_field(k, x, ctx)?;
            }
            Ok(())
        }
        _ => Err(Error::WrongType),
    }
}

/// Appends `"name":` (the name is a plain identifier).
#[inline]
pub fn key(out: &mut String, name: &str, first: bool) {
    if !first {
        out.push(',');
    }
    out.push('"');
    out.push_str(name);
    out.push_str("\":");
}

/// Reads an enum or flags value: its number only, range-checked (a name or any string is
/// the wrong JSON type: docs/wire-format.md#json).
pub fn read_enum<N: Codec + Default>(v: &Value<'_>, ctx: &mut Context) -> Result<N> {
    let mut n = N::default();
    n.j_read(v, ctx)?;
    Ok(n)
}
