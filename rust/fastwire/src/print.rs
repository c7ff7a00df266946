//! The text form of generated types: what fastwire C++'s `operator<<` prints (the FBE
//! reference's form where the seed shows it). Generated structs, enums and flags
//! implement `Display` with it:
//!
//! `Order(uid=1,symbol="EURUSD",side=buy,type=market,price=1.23456,volume=1000)`
//!
//! string `"text"` (not escaped), bool `true`/`false`, char `'c'`, wchar `'c'` or `'U+0444'`,
//! numbers as C++ streams print them (floats with 6 significant digits, `%g`), decimal
//! `123.45`, uuid `"…"`, timestamp a number, bytes `bytes[N]`, optional `null` or the
//! value, vector and array `[N][a,b]`, list `[N]<a,b>`, set `[N]{a,b}`, map
//! `[N]<{k->v},…>`, hash `[N][{k->v},…]`, struct `Name(f=v,…)` (a derived one
//! `Derived(Base(…),f=v)`), `[hidden]` fields `name=***`, enum its name or `<unknown>`,
//! flags every named nonzero value whose bits are all set, in declaration order, joined
//! by `|`.

use crate::key::Ordered;
use crate::types::{Bytes, Decimal, Text, Timestamp, Uuid};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::{self, Formatter};

/// A value's text form.
pub trait Print {
    /// Writes the value.
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result;
}

macro_rules! integer {
    ($($t:ty),*) => {$(
        impl Print for $t {
            fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
                write!(f, "{self}")
            }
        }
    )*};
}
integer!(u8, i8, u16, i16, u32, i32, u64, i64);

impl Print for bool {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if *self { "true" } else { "false" })
    }
}

impl Print for f64 {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&general(*self))
    }
}

impl Print for f32 {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&general(f64::from(*self)))
    }
}

/// A number as a C++ stream prints it by default (`%g`: 6 significant digits, trailing
/// zeros dropped, an exponent below 1e-4 or from 1e6 on).
pub fn general(v: f64) -> String {
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan".into() } else { "nan".into() };
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    const P: i32 = 6;
    // Rounded to P significant digits first: the exponent is the rounded value's.
    let sci = format!("{:.*e}", (P - 1) as usize, v);
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let trim = |s: &str| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    };
    if (-4..P).contains(&exp) {
        trim(&format!("{:.*}", (P - 1 - exp) as usize, v))
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{}{:02}", trim(mantissa), sign, exp.abs())
    }
}

impl Print for Text {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl Print for Bytes {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "bytes[{}]", self.0.len())
    }
}

impl Print for Uuid {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl Print for Decimal {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl Print for Timestamp {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl<T: Print> Print for Ordered<T> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        self.0.print(f)
    }
}

impl<T: Print> Print for Option<T> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Some(v) => v.print(f),
            None => f.write_str("null"),
        }
    }
}

fn elements<'a, T: Print + 'a>(
    f: &mut Formatter<'_>,
    n: usize,
    it: impl Iterator<Item = &'a T>,
    open: char,
    close: char,
) -> fmt::Result {
    write!(f, "[{n}]{open}")?;
    for (i, e) in it.enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        e.print(f)?;
    }
    write!(f, "{close}")
}

fn pairs<'a, K: Print + 'a, V: Print + 'a>(
    f: &mut Formatter<'_>,
    n: usize,
    it: impl Iterator<Item = (&'a K, &'a V)>,
    open: char,
    close: char,
) -> fmt::Result {
    write!(f, "[{n}]{open}")?;
    for (i, (k, v)) in it.enumerate() {
        f.write_str(if i > 0 { ",{" } else { "{" })?;
        k.print(f)?;
        f.write_str("->")?;
        v.print(f)?;
        f.write_str("}")?;
    }
    write!(f, "{close}")
}

impl<T: Print> Print for Vec<T> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        elements(f, self.len(), self.iter(), '[', ']')
    }
}

impl<T: Print, const N: usize> Print for [T; N] {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        elements(f, N, self.iter(), '[', ']')
    }
}

impl<T: Print> Print for BTreeSet<T> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        elements(f, self.len(), self.iter(), '{', '}')
    }
}

impl<K: Print, V: Print> Print for BTreeMap<K, V> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        pairs(f, self.len(), self.iter(), '<', '>')
    }
}

impl<K: Print, V: Print, S> Print for HashMap<K, V, S> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        pairs(f, self.len(), self.iter(), '[', ']')
    }
}

/// An FBE `list` field (a `Vec` in Rust): `[N]<a,b>`.
pub struct List<'a, T>(pub &'a Vec<T>);

impl<T: Print> Print for List<'_, T> {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        elements(f, self.0.len(), self.0.iter(), '<', '>')
    }
}

/// An FBE `char` field (a `u8` in Rust): `'c'`.
pub struct Char(pub u8);

impl Print for Char {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "'{}'", char::from(self.0))
    }
}

/// An FBE `wchar` field (a `u32` in Rust): `'c'` when printable ASCII, else `'U+XXXX'`.
pub struct WChar(pub u32);

impl Print for WChar {
    fn print(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            c @ 0x20..=0x7e => write!(f, "'{}'", char::from(c as u8)),
            c => write!(f, "'U+{c:X}'"),
        }
    }
}

/// Flags: every named value whose bits are all set in `value` (named zero values never
/// match), in declaration order, joined by `|`.
pub fn flags(f: &mut Formatter<'_>, value: u64, entries: &[(&str, u64)]) -> fmt::Result {
    let mut first = true;
    for (name, bits) in entries {
        if *bits != 0 && value & bits == *bits {
            if !first {
                f.write_str("|")?;
            }
            first = false;
            f.write_str(name)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::general;

    #[test]
    fn numbers_print_as_a_cpp_stream_prints_them() {
        for (v, s) in [
            (1000.0, "1000"),
            (1.23456, "1.23456"),
            (1.5, "1.5"),
            (100.0, "100"),
            (0.1 + 0.2, "0.3"),
            (1234567.0, "1.23457e+06"),
            (123456.0, "123456"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (-2.5, "-2.5"),
            (1e100, "1e+100"),
            (999999.5, "1e+06"),
            (0.0, "0"),
        ] {
            assert_eq!(general(v), s, "{v}");
        }
    }
}
