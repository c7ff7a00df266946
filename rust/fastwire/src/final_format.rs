//! The final (compact) format (docs/wire-format.md): fields inline, no offsets, no
//! headers. Readers check every length and count against the bytes left, charge
//! elements of zero size to `max_zero_size_elements`, bound nesting, and the root's
//! fields must end exactly at its declared size.

use crate::error::{Error, Result};
use crate::key::Ordered;
use crate::types::{Bytes, Decimal, Text, Timestamp, Uuid};
use crate::versioned::MapLike;
use crate::Struct;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

/// One message being read or verified: its bytes (exactly the model) and the zero-size
/// elements it may still hold.
pub struct Reader<'a> {
    data: &'a [u8],
    zero_left: usize,
}

impl<'a> Reader<'a> {
    /// A reader over one final model.
    pub fn new(data: &'a [u8], max_zero_size_elements: usize) -> Self {
        Reader {
            data,
            zero_left: max_zero_size_elements,
        }
    }
    /// The message's bytes.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
    /// N bytes at p.
    #[inline]
    pub fn bytes<const N: usize>(&self, p: usize) -> Result<[u8; N]> {
        self.data.get(p..p + N).and_then(|s| s.try_into().ok()).ok_or(Error::Truncated)
    }
    /// The N bytes at p, to read values at constant positions of.
    #[inline]
    pub fn array<const N: usize>(&self, p: usize) -> Result<&'a [u8; N]> {
        self.data.get(p..p + N).and_then(|s| s.try_into().ok()).ok_or(Error::Truncated)
    }
    /// The position N bytes after p, when they are in the message.
    #[inline]
    pub fn skip(&self, p: usize, n: usize) -> Result<usize> {
        if n > self.data.len().saturating_sub(p) {
            return Err(Error::Truncated);
        }
        Ok(p + n)
    }
    /// A byte at p.
    #[inline]
    pub fn u8(&self, p: usize) -> Result<u8> {
        self.data.get(p).copied().ok_or(Error::Truncated)
    }
    /// A u32 at p.
    #[inline]
    pub fn u32(&self, p: usize) -> Result<u32> {
        Ok(u32::from_le_bytes(self.bytes(p)?))
    }
    /// A `[u32 length][bytes]` at p: (payload position, length).
    #[inline]
    pub fn text(&self, p: usize) -> Result<(usize, usize)> {
        let n = self.u32(p)? as usize;
        if n > self.data.len() - p - 4 {
            return Err(Error::Truncated);
        }
        Ok((p + 4, n))
    }
    /// A count at p of elements of at least `min` bytes each (zero-size ones charged).
    #[inline]
    pub fn count(&mut self, p: usize, min: usize) -> Result<usize> {
        let n = self.u32(p)? as usize;
        if min == 0 {
            if n > self.zero_left {
                return Err(Error::OverBudget);
            }
            self.zero_left -= n;
        } else if n > (self.data.len() - p - 4) / min {
            return Err(Error::Truncated);
        }
        Ok(n)
    }
}

/// How a type sits in the final format.
pub trait Codec: Sized {
    /// The fewest bytes a value takes.
    const MIN: usize;
    /// Appends the value.
    fn f_write(&self, buf: &mut Vec<u8>);
    /// Reads the value at p, reusing `self`'s memory; returns the position after it.
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize>;
    /// Checks the value at p as f_read does; returns the position after it.
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize>;
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Codec for $t {
            const MIN: usize = std::mem::size_of::<$t>();
            #[inline]
            fn f_write(&self, buf: &mut Vec<u8>) {
                buf.extend_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
                *self = <$t>::from_le_bytes(r.bytes(p)?);
                Ok(p + <$t as Codec>::MIN)
            }
            #[inline]
            fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
                if p + <$t as Codec>::MIN > r.data().len() {
                    return Err(Error::Truncated);
                }
                Ok(p + <$t as Codec>::MIN)
            }
        }
    )*};
}
number!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

fn fixed(r: &Reader<'_>, p: usize, n: usize) -> Result<usize> {
    if p + n > r.data().len() {
        return Err(Error::Truncated);
    }
    Ok(p + n)
}

impl Codec for bool {
    const MIN: usize = 1;
    #[inline]
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.push(*self as u8);
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        *self = r.u8(p)? != 0;
        Ok(p + 1)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        fixed(r, p, 1)
    }
}

impl Codec for Timestamp {
    const MIN: usize = 8;
    #[inline]
    fn f_write(&self, buf: &mut Vec<u8>) {
        self.0.f_write(buf)
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        self.0.f_read(r, p, depth)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        fixed(r, p, 8)
    }
}

impl Codec for Uuid {
    const MIN: usize = 16;
    #[inline]
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.0);
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        self.0 = r.bytes(p)?;
        Ok(p + 16)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        fixed(r, p, 16)
    }
}

impl Codec for Decimal {
    const MIN: usize = 16;
    #[inline]
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&self.to_bytes());
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        *self = Decimal::from_bytes(&r.bytes(p)?)?;
        Ok(p + 16)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        let b: [u8; 16] = r.bytes(p)?;
        if b[14] > 28 {
            return Err(Error::BadValue);
        }
        Ok(p + 16)
    }
}

impl Codec for Text {
    const MIN: usize = 4;
    #[inline]
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&(self.len() as u32).to_le_bytes());
        buf.extend_from_slice(self.as_bytes());
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        let (q, n) = r.text(p)?;
        let v = self.bytes_mut();
        v.clear();
        v.extend_from_slice(&r.data()[q..q + n]);
        Ok(q + n)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        let (q, n) = r.text(p)?;
        Ok(q + n)
    }
}

impl Codec for Bytes {
    const MIN: usize = 4;
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&(self.0.len() as u32).to_le_bytes());
        buf.extend_from_slice(&self.0);
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        let (q, n) = r.text(p)?;
        self.0.clear();
        self.0.extend_from_slice(&r.data()[q..q + n]);
        Ok(q + n)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, _depth: u32) -> Result<usize> {
        let (q, n) = r.text(p)?;
        Ok(q + n)
    }
}

impl<T: Codec + Default> Codec for Option<T> {
    const MIN: usize = 1;
    fn f_write(&self, buf: &mut Vec<u8>) {
        match self {
            Some(v) => {
                buf.push(1);
                v.f_write(buf);
            }
            None => buf.push(0),
        }
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        if r.u8(p)? == 0 {
            *self = None;
            return Ok(p + 1);
        }
        self.get_or_insert_with(T::default).f_read(r, p + 1, depth)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        if r.u8(p)? == 0 {
            return Ok(p + 1);
        }
        T::f_verify(r, p + 1, depth)
    }
}

impl<T: Codec, const N: usize> Codec for [T; N] {
    const MIN: usize = N * T::MIN;
    fn f_write(&self, buf: &mut Vec<u8>) {
        for e in self {
            e.f_write(buf);
        }
    }
    fn f_read(&mut self, r: &mut Reader<'_>, mut p: usize, depth: u32) -> Result<usize> {
        for e in self.iter_mut() {
            p = e.f_read(r, p, depth)?;
        }
        Ok(p)
    }
    fn f_verify(r: &mut Reader<'_>, mut p: usize, depth: u32) -> Result<usize> {
        for _ in 0..N {
            p = T::f_verify(r, p, depth)?;
        }
        Ok(p)
    }
}

impl<T: Codec + Default> Codec for Vec<T> {
    const MIN: usize = 4;
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&(self.len() as u32).to_le_bytes());
        for e in self {
            e.f_write(buf);
        }
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        let n = r.count(p, T::MIN)?;
        let mut p = p + 4;
        self.truncate(n);
        let have = self.len();
        for e in self.iter_mut() {
            p = e.f_read(r, p, depth)?;
        }
        self.reserve(n - have);
        for _ in have..n {
            let mut e = T::default();
            p = e.f_read(r, p, depth)?;
            self.push(e);
        }
        Ok(p)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        let n = r.count(p, T::MIN)?;
        let mut p = p + 4;
        for _ in 0..n {
            p = T::f_verify(r, p, depth)?;
        }
        Ok(p)
    }
}

impl<T: Codec + Default + Ord> Codec for BTreeSet<T> {
    const MIN: usize = 4;
    fn f_write(&self, buf: &mut Vec<u8>) {
        buf.extend_from_slice(&(self.len() as u32).to_le_bytes());
        for e in self {
            e.f_write(buf);
        }
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        let n = r.count(p, T::MIN)?;
        let mut p = p + 4;
        self.clear();
        for _ in 0..n {
            let mut e = T::default();
            p = e.f_read(r, p, depth)?;
            if !self.contains(&e) {
                self.insert(e);
            }
        }
        Ok(p)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        <Vec<T>>::f_verify(r, p, depth)
    }
}

fn map_write<K: Codec, V: Codec, M: MapLike<K, V>>(m: &M, buf: &mut Vec<u8>) {
    buf.extend_from_slice(&(m.count() as u32).to_le_bytes());
    for (k, v) in m.entries() {
        k.f_write(buf);
        v.f_write(buf);
    }
}

fn map_read<K: Codec + Default, V: Codec + Default, M: MapLike<K, V>>(
    m: &mut M,
    r: &mut Reader<'_>,
    p: usize,
    depth: u32,
) -> Result<usize> {
    let n = r.count(p, K::MIN + V::MIN)?;
    let mut p = p + 4;
    m.clear_all();
    for _ in 0..n {
        let mut k = K::default();
        p = k.f_read(r, p, depth)?;
        let mut v = V::default();
        p = v.f_read(r, p, depth)?;
        m.add(k, v);
    }
    Ok(p)
}

fn map_verify<K: Codec, V: Codec>(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
    let n = r.count(p, K::MIN + V::MIN)?;
    let mut p = p + 4;
    for _ in 0..n {
        p = K::f_verify(r, p, depth)?;
        p = V::f_verify(r, p, depth)?;
    }
    Ok(p)
}

impl<K: Codec + Default + Ord, V: Codec + Default> Codec for BTreeMap<K, V> {
    const MIN: usize = 4;
    fn f_write(&self, buf: &mut Vec<u8>) {
        map_write(self, buf)
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        map_read(self, r, p, depth)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        map_verify::<K, V>(r, p, depth)
    }
}

impl<K: Codec + Default + Hash + Eq, V: Codec + Default> Codec for HashMap<K, V> {
    const MIN: usize = 4;
    fn f_write(&self, buf: &mut Vec<u8>) {
        map_write(self, buf)
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        map_read(self, r, p, depth)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        map_verify::<K, V>(r, p, depth)
    }
}

impl<T: Codec> Codec for Ordered<T> {
    const MIN: usize = T::MIN;
    fn f_write(&self, buf: &mut Vec<u8>) {
        self.0.f_write(buf)
    }
    fn f_read(&mut self, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        self.0.f_read(r, p, depth)
    }
    fn f_verify(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
        T::f_verify(r, p, depth)
    }
}

/// Reads a struct's fields inline, one level deeper.
#[inline]
pub fn struct_read<S: Struct>(v: &mut S, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
    if depth == 0 {
        return Err(Error::TooDeep);
    }
    v.f_read_fields(r, p, depth - 1)
}

/// Verifies a struct's fields inline, one level deeper.
#[inline]
pub fn struct_verify<S: Struct>(r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
    if depth == 0 {
        return Err(Error::TooDeep);
    }
    S::f_verify_fields(r, p, depth - 1)
}

/// Verifies a field by its type (named through an accessor): returns the position after it.
#[inline]
pub fn verify_field<S, T: Codec>(_field: fn(&S) -> &T, r: &mut Reader<'_>, p: usize, depth: u32) -> Result<usize> {
    T::f_verify(r, p, depth)
}
