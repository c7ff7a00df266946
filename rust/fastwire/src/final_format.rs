//! The final (compact) format (docs/wire-format.md): fields inline, no offsets, no
//! headers. Readers check every length and count against the bytes left, charge
//! elements of zero size to `max_zero_size_elements`, bound nesting, and the root's
//! fields must end exactly at its declared size.

use crate::copy::{assign, copy_short};
use crate::error::{Error, Result};
use crate::key::Ordered;
use crate::types::{Bytes, Decimal, Text, Timestamp, Uuid};
use crate::versioned::MapLike;
use crate::Struct;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

/// One message being read or verified: the bytes not read yet (a cursor over the model's
/// fields) and the zero-size elements it may still hold. Each read takes its bytes off
/// the front with one length comparison: no positions, so no position arithmetic to
/// overflow.
pub struct Reader<'a> {
    rest: &'a [u8],
    zero_left: usize,
}

impl<'a> Reader<'a> {
    /// A reader over one final model's fields.
    pub fn new(data: &'a [u8], max_zero_size_elements: usize) -> Self {
        Reader {
            rest: data,
            zero_left: max_zero_size_elements,
        }
    }
    /// The bytes not read yet.
    #[inline]
    pub fn rest(&self) -> &'a [u8] {
        self.rest
    }
    /// Takes the next N bytes, to read values at constant positions of.
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> Result<&'a [u8; N]> {
        match self.rest.split_first_chunk::<N>() {
            Some((head, tail)) => {
                self.rest = tail;
                Ok(head)
            }
            None => Err(Error::Truncated),
        }
    }
    /// Takes the next n bytes.
    #[inline(always)]
    pub fn take_slice(&mut self, n: usize) -> Result<&'a [u8]> {
        match self.rest.split_at_checked(n) {
            Some((head, tail)) => {
                self.rest = tail;
                Ok(head)
            }
            None => Err(Error::Truncated),
        }
    }
    /// Skips the next N bytes.
    #[inline(always)]
    pub fn skip<const N: usize>(&mut self) -> Result<()> {
        self.take::<N>().map(|_| ())
    }
    /// The next byte.
    #[inline(always)]
    pub fn u8(&mut self) -> Result<u8> {
        self.take::<1>().map(|b| b[0])
    }
    /// The next u32.
    #[inline(always)]
    pub fn u32(&mut self) -> Result<u32> {
        self.take::<4>().map(|b| u32::from_le_bytes(*b))
    }
    /// A `[u32 length][bytes]`: the payload.
    #[inline(always)]
    pub fn text(&mut self) -> Result<&'a [u8]> {
        let n = self.u32()? as usize;
        self.take_slice(n)
    }
    /// A count of elements of at least `min` bytes each (zero-size ones charged).
    #[inline(always)]
    pub fn count(&mut self, min: usize) -> Result<usize> {
        let n = self.u32()? as usize;
        if min == 0 {
            if n > self.zero_left {
                return Err(Error::OverBudget);
            }
            self.zero_left -= n;
        } else if n > self.rest.len() / min {
            return Err(Error::Truncated);
        }
        Ok(n)
    }
}

/// A message being written: the block of its exact size (computed first, from `f_size`),
/// filled from the front. The sizes are the writer's own, so running short is a bug in
/// them, not in any input.
pub struct Writer<'a> {
    rest: &'a mut [u8],
}

impl<'a> Writer<'a> {
    /// A writer filling `out`.
    pub fn new(out: &'a mut [u8]) -> Self {
        Writer {
            rest: out,
        }
    }
    /// Bytes not written yet.
    #[inline]
    pub fn left(&self) -> usize {
        self.rest.len()
    }
    /// The next N bytes, to store values at constant positions of.
    #[inline(always)]
    pub fn take<const N: usize>(&mut self) -> &'a mut [u8; N] {
        let (head, tail) = std::mem::take(&mut self.rest)
            .split_first_chunk_mut::<N>()
            .unwrap_or_else(|| unreachable!("the message was sized"));
        self.rest = tail;
        head
    }
    /// Writes bytes.
    #[inline(always)]
    pub fn put(&mut self, b: &[u8]) {
        let (head, tail) = std::mem::take(&mut self.rest).split_at_mut(b.len());
        copy_short(head, b);
        self.rest = tail;
    }
    /// Writes a byte.
    #[inline(always)]
    pub fn byte(&mut self, b: u8) {
        self.take::<1>()[0] = b;
    }
}

/// How a type sits in the final format.
pub trait Codec: Sized {
    /// The fewest bytes a value takes.
    const MIN: usize;
    /// Bytes the value takes.
    fn f_size(&self) -> usize;
    /// Writes the value.
    fn f_write(&self, buf: &mut Writer<'_>);
    /// Reads the next value, reusing `self`'s memory.
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()>;
    /// Checks the next value as f_read does.
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()>;
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Codec for $t {
            const MIN: usize = std::mem::size_of::<$t>();
            #[inline]
            fn f_size(&self) -> usize {
                std::mem::size_of::<$t>()
            }
            #[inline]
            fn f_write(&self, buf: &mut Writer<'_>) {
                *buf.take() = self.to_le_bytes();
            }
            #[inline]
            fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
                *self = <$t>::from_le_bytes(*r.take()?);
                Ok(())
            }
            #[inline]
            fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
                r.skip::<{ std::mem::size_of::<$t>() }>()
            }
        }
    )*};
}
number!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl Codec for bool {
    const MIN: usize = 1;
    #[inline]
    fn f_size(&self) -> usize {
        1
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        buf.byte(*self as u8);
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        *self = r.u8()? != 0;
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        r.skip::<1>()
    }
}

impl Codec for Timestamp {
    const MIN: usize = 8;
    #[inline]
    fn f_size(&self) -> usize {
        8
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        self.0.f_write(buf)
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        self.0.f_read(r, depth)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        r.skip::<8>()
    }
}

impl Codec for Uuid {
    const MIN: usize = 16;
    #[inline]
    fn f_size(&self) -> usize {
        16
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        *buf.take() = self.0;
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        self.0 = *r.take()?;
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        r.skip::<16>()
    }
}

impl Codec for Decimal {
    const MIN: usize = 16;
    #[inline]
    fn f_size(&self) -> usize {
        16
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        *buf.take() = self.to_bytes();
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        *self = Decimal::from_bytes(r.take()?)?;
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        let b = r.take::<16>()?;
        if b[14] > 28 {
            return Err(Error::BadValue);
        }
        Ok(())
    }
}

/// Writes `[u32 length][bytes]`.
#[inline]
pub fn write_text(buf: &mut Writer<'_>, b: &[u8]) {
    *buf.take() = (b.len() as u32).to_le_bytes();
    buf.put(b);
}

/// A string or bytes field whose `[u32 length]` is read and written with the run of
/// values before it (for generated code).
pub trait Payload {
    /// Reads the payload whose length is the 4 bytes `len`.
    fn f_read_payload(&mut self, len: &[u8], r: &mut Reader<'_>) -> Result<()>;
    /// Stores the length into `len` and writes the payload.
    fn f_write_payload(&self, len: &mut [u8], buf: &mut Writer<'_>);
}

impl Payload for Text {
    #[inline]
    fn f_read_payload(&mut self, len: &[u8], r: &mut Reader<'_>) -> Result<()> {
        let b = r.take_slice(crate::versioned::word(len) as usize)?;
        assign(self.bytes_mut(), b);
        Ok(())
    }
    #[inline]
    fn f_write_payload(&self, len: &mut [u8], buf: &mut Writer<'_>) {
        len.copy_from_slice(&(self.len() as u32).to_le_bytes());
        buf.put(self.as_bytes());
    }
}

impl Payload for Bytes {
    #[inline]
    fn f_read_payload(&mut self, len: &[u8], r: &mut Reader<'_>) -> Result<()> {
        let b = r.take_slice(crate::versioned::word(len) as usize)?;
        assign(&mut self.0, b);
        Ok(())
    }
    #[inline]
    fn f_write_payload(&self, len: &mut [u8], buf: &mut Writer<'_>) {
        len.copy_from_slice(&(self.0.len() as u32).to_le_bytes());
        buf.put(&self.0);
    }
}

impl Codec for Text {
    const MIN: usize = 4;
    #[inline]
    fn f_size(&self) -> usize {
        4 + self.len()
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        write_text(buf, self.as_bytes())
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        let b = r.text()?;
        assign(self.bytes_mut(), b);
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        r.text().map(|_| ())
    }
}

impl Codec for Bytes {
    const MIN: usize = 4;
    #[inline]
    fn f_size(&self) -> usize {
        4 + self.0.len()
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        write_text(buf, &self.0)
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        let b = r.text()?;
        assign(&mut self.0, b);
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, _depth: u32) -> Result<()> {
        r.text().map(|_| ())
    }
}

impl<T: Codec + Default> Codec for Option<T> {
    const MIN: usize = 1;
    #[inline]
    fn f_size(&self) -> usize {
        1 + self.as_ref().map_or(0, Codec::f_size)
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        match self {
            Some(v) => {
                buf.byte(1);
                v.f_write(buf);
            }
            None => buf.byte(0),
        }
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        if r.u8()? == 0 {
            *self = None;
            return Ok(());
        }
        self.get_or_insert_with(T::default).f_read(r, depth)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        if r.u8()? == 0 {
            return Ok(());
        }
        T::f_verify(r, depth)
    }
}

impl<T: Codec, const N: usize> Codec for [T; N] {
    const MIN: usize = N * T::MIN;
    #[inline]
    fn f_size(&self) -> usize {
        self.iter().map(Codec::f_size).sum()
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        for e in self {
            e.f_write(buf);
        }
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        for e in self.iter_mut() {
            e.f_read(r, depth)?;
        }
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        for _ in 0..N {
            T::f_verify(r, depth)?;
        }
        Ok(())
    }
}

impl<T: Codec + Default> Codec for Vec<T> {
    const MIN: usize = 4;
    #[inline]
    fn f_size(&self) -> usize {
        4 + self.iter().map(Codec::f_size).sum::<usize>()
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        *buf.take() = (self.len() as u32).to_le_bytes();
        for e in self {
            e.f_write(buf);
        }
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        let n = r.count(T::MIN)?;
        self.truncate(n);
        let have = self.len();
        for e in self.iter_mut() {
            e.f_read(r, depth)?;
        }
        if n > have {
            self.reserve(n - have);
            for _ in have..n {
                let mut e = T::default();
                e.f_read(r, depth)?;
                self.push(e);
            }
        }
        Ok(())
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        let n = r.count(T::MIN)?;
        for _ in 0..n {
            T::f_verify(r, depth)?;
        }
        Ok(())
    }
}

impl<T: Codec + Default + Ord> Codec for BTreeSet<T> {
    const MIN: usize = 4;
    #[inline]
    fn f_size(&self) -> usize {
        4 + self.iter().map(Codec::f_size).sum::<usize>()
    }
    fn f_write(&self, buf: &mut Writer<'_>) {
        *buf.take() = (self.len() as u32).to_le_bytes();
        for e in self {
            e.f_write(buf);
        }
    }
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        let n = r.count(T::MIN)?;
        self.clear();
        for _ in 0..n {
            let mut e = T::default();
            e.f_read(r, depth)?;
            if !self.contains(&e) {
                self.insert(e);
            }
        }
        Ok(())
    }
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        <Vec<T>>::f_verify(r, depth)
    }
}

fn map_size<K: Codec, V: Codec, M: MapLike<K, V>>(m: &M) -> usize {
    4 + m.entries().map(|(k, v)| k.f_size() + v.f_size()).sum::<usize>()
}

fn map_write<K: Codec, V: Codec, M: MapLike<K, V>>(m: &M, buf: &mut Writer<'_>) {
    *buf.take() = (m.count() as u32).to_le_bytes();
    for (k, v) in m.entries() {
        k.f_write(buf);
        v.f_write(buf);
    }
}

fn map_read<K: Codec + Default, V: Codec + Default, M: MapLike<K, V>>(
    m: &mut M,
    r: &mut Reader<'_>,
    depth: u32,
) -> Result<()> {
    let n = r.count(K::MIN + V::MIN)?;
    m.clear_all();
    for _ in 0..n {
        let mut k = K::default();
        k.f_read(r, depth)?;
        let mut v = V::default();
        v.f_read(r, depth)?;
        m.add(k, v);
    }
    Ok(())
}

fn map_verify<K: Codec, V: Codec>(r: &mut Reader<'_>, depth: u32) -> Result<()> {
    let n = r.count(K::MIN + V::MIN)?;
    for _ in 0..n {
        K::f_verify(r, depth)?;
        V::f_verify(r, depth)?;
    }
    Ok(())
}

impl<K: Codec + Default + Ord, V: Codec + Default> Codec for BTreeMap<K, V> {
    const MIN: usize = 4;
    fn f_size(&self) -> usize {
        map_size(self)
    }
    fn f_write(&self, buf: &mut Writer<'_>) {
        map_write(self, buf)
    }
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        map_read(self, r, depth)
    }
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        map_verify::<K, V>(r, depth)
    }
}

impl<K: Codec + Default + Hash + Eq, V: Codec + Default> Codec for HashMap<K, V> {
    const MIN: usize = 4;
    fn f_size(&self) -> usize {
        map_size(self)
    }
    fn f_write(&self, buf: &mut Writer<'_>) {
        map_write(self, buf)
    }
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        map_read(self, r, depth)
    }
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        map_verify::<K, V>(r, depth)
    }
}

impl<T: Codec> Codec for Ordered<T> {
    const MIN: usize = T::MIN;
    #[inline]
    fn f_size(&self) -> usize {
        self.0.f_size()
    }
    #[inline]
    fn f_write(&self, buf: &mut Writer<'_>) {
        self.0.f_write(buf)
    }
    #[inline]
    fn f_read(&mut self, r: &mut Reader<'_>, depth: u32) -> Result<()> {
        self.0.f_read(r, depth)
    }
    #[inline]
    fn f_verify(r: &mut Reader<'_>, depth: u32) -> Result<()> {
        T::f_verify(r, depth)
    }
}

/// Reads a struct's fields inline, one level deeper.
#[inline]
pub fn struct_read<S: Struct>(v: &mut S, r: &mut Reader<'_>, depth: u32) -> Result<()> {
    if depth == 0 {
        return Err(Error::TooDeep);
    }
    v.f_read_fields(r, depth - 1)
}

/// Verifies a struct's fields inline, one level deeper.
#[inline]
pub fn struct_verify<S: Struct>(r: &mut Reader<'_>, depth: u32) -> Result<()> {
    if depth == 0 {
        return Err(Error::TooDeep);
    }
    S::f_verify_fields(r, depth - 1)
}

/// Verifies a field by its type (named through an accessor).
#[inline]
pub fn verify_field<S, T: Codec>(_field: fn(&S) -> &T, r: &mut Reader<'_>, depth: u32) -> Result<()> {
    T::f_verify(r, depth)
}
