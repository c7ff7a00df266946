//! The versioned format (docs/wire-format.md): a codec per Rust type.
//!
//! A value sits in a fixed-size slot; what has variable size lives in heap blocks after
//! the body, reached through offsets relative to a base (the enclosing struct body or an
//! optional's value block). Writers append blocks in the reference's depth-first order.
//! Readers check every offset, size and count (docs/security.md): an offset leads
//! forward to a block inside the message, a count fits the bytes left, every block
//! reached is charged to a budget of the message size, nesting is bounded, decimal
//! scales are at most 28.

use crate::copy::{assign, copy_short};
use crate::error::{Error, Result};
use crate::key::Ordered;
use crate::types::{Bytes, Decimal, Text, Timestamp, Uuid};
use crate::Struct;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

/// One message being read or verified: its bytes and the budget of bytes a walk may
/// still visit.
pub struct Reader<'a> {
    data: &'a [u8],
    budget: i64,
}

impl<'a> Reader<'a> {
    /// A reader over exactly one message (`data` is the root model), with the budget of a
    /// whole message: its size minus the root header.
    pub fn new(data: &'a [u8]) -> Self {
        Reader {
            data,
            budget: data.len() as i64 - 8,
        }
    }
    /// The message's bytes.
    #[inline]
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
    /// N bytes at pos.
    #[inline]
    pub fn bytes<const N: usize>(&self, pos: usize) -> Result<[u8; N]> {
        self.data.get(pos..pos + N).and_then(|s| s.try_into().ok()).ok_or(Error::Truncated)
    }
    /// The N bytes at pos, to read values at constant positions of.
    #[inline]
    pub fn array<const N: usize>(&self, pos: usize) -> Result<&'a [u8; N]> {
        self.data.get(pos..pos + N).and_then(|s| s.try_into().ok()).ok_or(Error::Truncated)
    }
    /// A byte at pos.
    #[inline]
    pub fn u8(&self, pos: usize) -> Result<u8> {
        self.data.get(pos).copied().ok_or(Error::Truncated)
    }
    /// A u32 at pos.
    #[inline]
    pub fn u32(&self, pos: usize) -> Result<u32> {
        Ok(u32::from_le_bytes(self.bytes(pos)?))
    }
    /// Charges n bytes of visited blocks.
    #[inline]
    pub fn charge(&mut self, n: usize) -> Result<()> {
        self.budget -= n as i64;
        if self.budget < 0 {
            return Err(Error::OverBudget);
        }
        Ok(())
    }

    /// The block an offset read from a slot ending at `slot_end` leads to: at or after
    /// slot_end, with `need` bytes inside the message.
    #[inline]
    pub fn locate(&self, base: usize, offset: u32, slot_end: usize, need: usize) -> Result<usize> {
        let pos = base + offset as usize;
        if pos < slot_end {
            return Err(Error::BadOffset);
        }
        if need > self.data.len() || pos > self.data.len() - need {
            return Err(Error::Truncated);
        }
        Ok(pos)
    }

    /// For strings and collections, where offset 0 means empty (None).
    #[inline]
    pub fn locate_or_empty(&self, base: usize, offset: u32, slot_end: usize) -> Result<Option<usize>> {
        let pos = base + offset as usize;
        if pos < slot_end {
            if offset != 0 {
                return Err(Error::BadOffset);
            }
            return Ok(None);
        }
        if pos + 4 > self.data.len() {
            return Err(Error::Truncated);
        }
        Ok(Some(pos))
    }

    /// A `[u32 length][bytes]` block from the offset in the slot at `slot`: the payload
    /// (empty for offset 0), charged.
    #[inline]
    pub fn text(&mut self, slot: usize, base: usize) -> Result<&'a [u8]> {
        let off = self.u32(slot)?;
        self.text_at(off, slot, base)
    }

    /// [`Reader::text`] with the slot's offset already read.
    #[inline]
    pub fn text_at(&mut self, off: u32, slot: usize, base: usize) -> Result<&'a [u8]> {
        match self.locate_or_empty(base, off, slot + 4)? {
            None => Ok(&[]),
            Some(blk) => {
                let n = u32::from_le_bytes(*self.array::<4>(blk)?) as usize;
                let payload = self.data.get(blk + 4..blk + 4 + n).ok_or(Error::Truncated)?;
                self.charge(4 + n)?;
                Ok(payload)
            }
        }
    }

    /// A `[u32 count][count x elem_slot]` block: (first element slot, count), charged.
    #[inline]
    pub fn block(&mut self, slot: usize, base: usize, elem_slot: usize) -> Result<(usize, usize)> {
        let off = self.u32(slot)?;
        self.block_at(off, slot, base, elem_slot)
    }

    /// [`Reader::block`] with the slot's offset already read.
    #[inline]
    pub fn block_at(&mut self, off: u32, slot: usize, base: usize, elem_slot: usize) -> Result<(usize, usize)> {
        match self.locate_or_empty(base, off, slot + 4)? {
            None => Ok((0, 0)),
            Some(blk) => {
                let n = u32::from_le_bytes(*self.array::<4>(blk)?) as usize;
                if n > (self.data.len() - blk - 4) / elem_slot {
                    return Err(Error::Truncated);
                }
                self.charge(4 + n * elem_slot)?;
                Ok((blk + 4, n))
            }
        }
    }

    /// Finds and checks a struct body from the offset in the slot at `slot`: forward,
    /// inside the message, size >= 8, the type expected, a level left; charged.
    /// Returns (body position, the body's stored bytes).
    #[inline]
    pub fn enter(&mut self, slot: usize, base: usize, type_number: u32, depth: u32) -> Result<(usize, &'a [u8])> {
        let off = self.u32(slot)?;
        self.enter_at(off, slot, base, type_number, depth)
    }

    /// [`Reader::enter`] with the slot's offset already read.
    #[inline]
    pub fn enter_at(
        &mut self,
        off: u32,
        slot: usize,
        base: usize,
        type_number: u32,
        depth: u32,
    ) -> Result<(usize, &'a [u8])> {
        let pos = base + off as usize;
        if pos < slot + 4 {
            return Err(Error::BadOffset);
        }
        let rest = self.data.get(pos..).ok_or(Error::Truncated)?;
        let hdr = rest.first_chunk::<8>().ok_or(Error::Truncated)?;
        let stored = u32::from_le_bytes([hdr[0], hdr[1], hdr[2], hdr[3]]) as usize;
        if stored < 8 {
            return Err(Error::BadSize);
        }
        let body = rest.get(..stored).ok_or(Error::Truncated)?;
        if u32::from_le_bytes([hdr[4], hdr[5], hdr[6], hdr[7]]) != type_number {
            return Err(Error::BadType);
        }
        if depth == 0 {
            return Err(Error::TooDeep);
        }
        self.charge(stored)?;
        Ok((pos, body))
    }
}

/// Stores a u32 at the start of a slot's bytes (trusted side: the slot was allocated).
#[inline(always)]
pub fn set_word(slot: &mut [u8], v: u32) {
    slot[..4].copy_from_slice(&v.to_le_bytes());
}

/// The N bytes of a body just allocated (`body` is N bytes long), to store values at
/// constant positions of.
#[inline(always)]
pub fn body_mut<const N: usize>(body: &mut [u8]) -> &mut [u8; N] {
    body.first_chunk_mut::<N>().unwrap_or_else(|| unreachable!("the body was allocated"))
}

/// A message being written: a block of its exact size (computed first, from `v_extra`),
/// zeroed, from whose front the bodies and heap blocks are carved in writing order. Each
/// block comes out as its own slice, so a value writes its slot and blocks through
/// slices whose sizes the compiler knows: no bounds check per store. Running short is a
/// bug in the sizes, not in any input.
pub struct Writer<'a> {
    rest: &'a mut [u8],
    end: usize,
}

impl<'a> Writer<'a> {
    /// A writer filling `out` (the whole message, zeroed).
    pub fn new(out: &'a mut [u8]) -> Self {
        let end = out.len();
        Writer {
            rest: out,
            end,
        }
    }
    /// Takes the next n bytes: (their position in the message, the bytes).
    #[inline(always)]
    pub fn alloc(&mut self, n: usize) -> (usize, &'a mut [u8]) {
        let pos = self.end - self.rest.len();
        let (head, tail) = std::mem::take(&mut self.rest)
            .split_at_mut_checked(n)
            .unwrap_or_else(|| unreachable!("the message was sized"));
        self.rest = tail;
        (pos, head)
    }
    /// Bytes not written yet.
    pub fn left(&self) -> usize {
        self.rest.len()
    }
}

/// How a type sits in the versioned format.
pub trait Codec: Sized {
    /// Bytes of its slot.
    const SLOT: usize;
    /// Heap bytes the value appends (0 for values that sit in their slot).
    fn v_extra(&self) -> usize;
    /// Stores the slot into `slot` (its SLOT bytes, zeroed before) and appends the heap
    /// blocks; offsets are relative to `base`.
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize);
    /// Reads the value from the slot at `slot`, reusing `self`'s memory.
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()>;
    /// Checks the value as v_read does, storing nothing.
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()>;
    /// [`Codec::v_read`] of a slot whose bytes, `slot_bytes`, were checked with its body.
    #[inline]
    fn v_read_slot(
        &mut self,
        r: &mut Reader<'_>,
        slot_bytes: &[u8],
        slot: usize,
        base: usize,
        depth: u32,
    ) -> Result<()> {
        let _ = slot_bytes;
        self.v_read(r, slot, base, depth)
    }
}

/// The u32 at the start of a slot's bytes.
#[inline(always)]
pub fn word(b: &[u8]) -> u32 {
    b.first_chunk::<4>().map_or(0, |w| u32::from_le_bytes(*w))
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Codec for $t {
            const SLOT: usize = std::mem::size_of::<$t>();
            #[inline]
            fn v_extra(&self) -> usize {
                0
            }
            #[inline]
            fn v_write(&self, _buf: &mut Writer<'_>, slot: &mut [u8], _base: usize) {
                slot[..Self::SLOT].copy_from_slice(&self.to_le_bytes());
            }
            #[inline]
            fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, _base: usize, _depth: u32) -> Result<()> {
                *self = <$t>::from_le_bytes(r.bytes(slot)?);
                Ok(())
            }
            #[inline]
            fn v_verify(_r: &mut Reader<'_>, _slot: usize, _base: usize, _depth: u32) -> Result<()> {
                Ok(())
            }
            #[inline]
            fn v_read_slot(
                &mut self,
                _r: &mut Reader<'_>,
                slot_bytes: &[u8],
                _slot: usize,
                _base: usize,
                _depth: u32,
            ) -> Result<()> {
                *self = <$t>::from_le_bytes(slot_bytes.try_into().unwrap_or_default());
                Ok(())
            }
        }
    )*};
}
number!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl Codec for bool {
    const SLOT: usize = 1;
    #[inline]
    fn v_extra(&self) -> usize {
        0
    }
    #[inline]
    fn v_write(&self, _buf: &mut Writer<'_>, slot: &mut [u8], _base: usize) {
        slot[0] = *self as u8;
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, _base: usize, _depth: u32) -> Result<()> {
        *self = r.u8(slot)? != 0;
        Ok(())
    }
    #[inline]
    fn v_verify(_r: &mut Reader<'_>, _slot: usize, _base: usize, _depth: u32) -> Result<()> {
        Ok(())
    }
}

impl Codec for Timestamp {
    const SLOT: usize = 8;
    #[inline]
    fn v_extra(&self) -> usize {
        0
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        self.0.v_write(buf, slot, base)
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        self.0.v_read(r, slot, base, depth)
    }
    #[inline]
    fn v_verify(_r: &mut Reader<'_>, _slot: usize, _base: usize, _depth: u32) -> Result<()> {
        Ok(())
    }
}

impl Codec for Uuid {
    const SLOT: usize = 16;
    #[inline]
    fn v_extra(&self) -> usize {
        0
    }
    #[inline]
    fn v_write(&self, _buf: &mut Writer<'_>, slot: &mut [u8], _base: usize) {
        slot[..16].copy_from_slice(&self.0);
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, _base: usize, _depth: u32) -> Result<()> {
        self.0 = r.bytes(slot)?;
        Ok(())
    }
    #[inline]
    fn v_verify(_r: &mut Reader<'_>, _slot: usize, _base: usize, _depth: u32) -> Result<()> {
        Ok(())
    }
}

impl Codec for Decimal {
    const SLOT: usize = 16;
    #[inline]
    fn v_extra(&self) -> usize {
        0
    }
    #[inline]
    fn v_write(&self, _buf: &mut Writer<'_>, slot: &mut [u8], _base: usize) {
        slot[..16].copy_from_slice(&self.to_bytes());
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, _base: usize, _depth: u32) -> Result<()> {
        *self = Decimal::from_bytes(&r.bytes(slot)?)?;
        Ok(())
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, _base: usize, _depth: u32) -> Result<()> {
        if r.u8(slot + 14)? > 28 {
            return Err(Error::BadValue);
        }
        Ok(())
    }
}

#[inline]
fn write_text(buf: &mut Writer<'_>, slot: &mut [u8], base: usize, b: &[u8]) {
    let (at, blk) = buf.alloc(4 + b.len());
    set_word(slot, (at - base) as u32);
    let (len, bytes) = blk.split_first_chunk_mut::<4>().unwrap_or_else(|| unreachable!("the block was allocated"));
    *len = (b.len() as u32).to_le_bytes();
    copy_short(bytes, b);
}

impl Codec for Text {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        4 + self.len()
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        write_text(buf, slot, base, self.as_bytes())
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, _depth: u32) -> Result<()> {
        let b = r.text(slot, base)?;
        assign(self.bytes_mut(), b);
        Ok(())
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, _depth: u32) -> Result<()> {
        r.text(slot, base).map(|_| ())
    }
    #[inline]
    fn v_read_slot(
        &mut self,
        r: &mut Reader<'_>,
        slot_bytes: &[u8],
        slot: usize,
        base: usize,
        _depth: u32,
    ) -> Result<()> {
        let b = r.text_at(word(slot_bytes), slot, base)?;
        assign(self.bytes_mut(), b);
        Ok(())
    }
}

impl Codec for Bytes {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        4 + self.0.len()
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        write_text(buf, slot, base, &self.0)
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, _depth: u32) -> Result<()> {
        let b = r.text(slot, base)?;
        assign(&mut self.0, b);
        Ok(())
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, _depth: u32) -> Result<()> {
        r.text(slot, base).map(|_| ())
    }
}

impl<T: Codec + Default> Codec for Option<T> {
    const SLOT: usize = 5;
    #[inline]
    fn v_extra(&self) -> usize {
        self.as_ref().map_or(0, |v| T::SLOT + v.v_extra())
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        if let Some(v) = self {
            let (at, blk) = buf.alloc(T::SLOT);
            slot[0] = 1;
            set_word(&mut slot[1..5], (at - base) as u32);
            v.v_write(buf, blk, at);
        }
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        if r.u8(slot)? == 0 {
            *self = None;
            return Ok(());
        }
        let pos = r.locate(base, r.u32(slot + 1)?, slot + 5, T::SLOT)?;
        r.charge(T::SLOT)?;
        self.get_or_insert_with(T::default).v_read(r, pos, pos, depth)
    }
    #[inline]
    fn v_read_slot(
        &mut self,
        r: &mut Reader<'_>,
        slot_bytes: &[u8],
        slot: usize,
        base: usize,
        depth: u32,
    ) -> Result<()> {
        if slot_bytes.first().copied().unwrap_or(0) == 0 {
            *self = None;
            return Ok(());
        }
        let pos = r.locate(base, word(slot_bytes.get(1..).unwrap_or_default()), slot + 5, T::SLOT)?;
        r.charge(T::SLOT)?;
        self.get_or_insert_with(T::default).v_read(r, pos, pos, depth)
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        if r.u8(slot)? == 0 {
            return Ok(());
        }
        let pos = r.locate(base, r.u32(slot + 1)?, slot + 5, T::SLOT)?;
        r.charge(T::SLOT)?;
        T::v_verify(r, pos, pos, depth)
    }
}

impl<T: Codec, const N: usize> Codec for [T; N] {
    const SLOT: usize = N * T::SLOT;
    #[inline]
    fn v_extra(&self) -> usize {
        self.iter().map(Codec::v_extra).sum()
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        for (e, s) in self.iter().zip(slot.chunks_exact_mut(T::SLOT)) {
            e.v_write(buf, s, base);
        }
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        for (i, e) in self.iter_mut().enumerate() {
            e.v_read(r, slot + i * T::SLOT, base, depth)?;
        }
        Ok(())
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        for i in 0..N {
            T::v_verify(r, slot + i * T::SLOT, base, depth)?;
        }
        Ok(())
    }
}

/// Writes `[count][slots]` for `n` elements; returns the elements' slots.
#[inline]
fn write_block<'a>(buf: &mut Writer<'a>, slot: &mut [u8], base: usize, n: usize, elem_slot: usize) -> &'a mut [u8] {
    let (at, blk) = buf.alloc(4 + n * elem_slot);
    set_word(slot, (at - base) as u32);
    let (count, slots) = blk.split_first_chunk_mut::<4>().unwrap_or_else(|| unreachable!("the block was allocated"));
    *count = (n as u32).to_le_bytes();
    slots
}

impl<T: Codec + Default> Codec for Vec<T> {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        4 + self.len() * T::SLOT + self.iter().map(Codec::v_extra).sum::<usize>()
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        let slots = write_block(buf, slot, base, self.len(), T::SLOT);
        for (e, s) in self.iter().zip(slots.chunks_exact_mut(T::SLOT)) {
            e.v_write(buf, s, base);
        }
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        let (p, n) = r.block(slot, base, T::SLOT)?;
        read_elements(self, r, p, n, base, depth)
    }
    #[inline]
    fn v_read_slot(
        &mut self,
        r: &mut Reader<'_>,
        slot_bytes: &[u8],
        slot: usize,
        base: usize,
        depth: u32,
    ) -> Result<()> {
        let (p, n) = r.block_at(word(slot_bytes), slot, base, T::SLOT)?;
        read_elements(self, r, p, n, base, depth)
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        let (p, n) = r.block(slot, base, T::SLOT)?;
        for i in 0..n {
            T::v_verify(r, p + i * T::SLOT, base, depth)?;
        }
        Ok(())
    }
}

/// Reads `n` elements from `p` into `v`, reusing its elements.
#[inline]
fn read_elements<T: Codec + Default>(
    v: &mut Vec<T>,
    r: &mut Reader<'_>,
    p: usize,
    n: usize,
    base: usize,
    depth: u32,
) -> Result<()> {
    v.truncate(n);
    let have = v.len();
    for (i, e) in v.iter_mut().enumerate() {
        e.v_read(r, p + i * T::SLOT, base, depth)?;
    }
    v.reserve(n - have);
    for i in have..n {
        let mut e = T::default();
        e.v_read(r, p + i * T::SLOT, base, depth)?;
        v.push(e);
    }
    Ok(())
}

impl<T: Codec + Default + Ord> Codec for BTreeSet<T> {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        4 + self.len() * T::SLOT + self.iter().map(Codec::v_extra).sum::<usize>()
    }
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        let slots = write_block(buf, slot, base, self.len(), T::SLOT);
        for (e, s) in self.iter().zip(slots.chunks_exact_mut(T::SLOT)) {
            e.v_write(buf, s, base);
        }
    }
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        let (p, n) = r.block(slot, base, T::SLOT)?;
        self.clear();
        for i in 0..n {
            let mut e = T::default();
            e.v_read(r, p + i * T::SLOT, base, depth)?;
            if !self.contains(&e) {
                self.insert(e); // the first of equal elements stays
            }
        }
        Ok(())
    }
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        <Vec<T>>::v_verify(r, slot, base, depth)
    }
}

/// The map-like collections, read and written the same way.
pub trait MapLike<K, V>: Default {
    /// Entries in writing order.
    fn entries(&self) -> Box<dyn Iterator<Item = (&K, &V)> + '_>;
    /// The number of entries.
    fn count(&self) -> usize;
    /// Empties the map.
    fn clear_all(&mut self);
    /// Adds an entry unless an equal key is there (the first stays).
    fn add(&mut self, k: K, v: V);
}

impl<K: Ord, V> MapLike<K, V> for BTreeMap<K, V> {
    fn entries(&self) -> Box<dyn Iterator<Item = (&K, &V)> + '_> {
        Box::new(self.iter())
    }
    fn count(&self) -> usize {
        self.len()
    }
    fn clear_all(&mut self) {
        self.clear()
    }
    fn add(&mut self, k: K, v: V) {
        self.entry(k).or_insert(v);
    }
}

impl<K: Hash + Eq, V> MapLike<K, V> for HashMap<K, V> {
    fn entries(&self) -> Box<dyn Iterator<Item = (&K, &V)> + '_> {
        Box::new(self.iter())
    }
    fn count(&self) -> usize {
        self.len()
    }
    fn clear_all(&mut self) {
        self.clear()
    }
    fn add(&mut self, k: K, v: V) {
        self.entry(k).or_insert(v);
    }
}

fn map_extra<K: Codec, V: Codec, M: MapLike<K, V>>(m: &M) -> usize {
    4 + m.count() * (K::SLOT + V::SLOT) + m.entries().map(|(k, v)| k.v_extra() + v.v_extra()).sum::<usize>()
}

fn map_write<K: Codec, V: Codec, M: MapLike<K, V>>(m: &M, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
    let slots = write_block(buf, slot, base, m.count(), K::SLOT + V::SLOT);
    for ((k, v), s) in m.entries().zip(slots.chunks_exact_mut(K::SLOT + V::SLOT)) {
        let (ks, vs) = s.split_at_mut(K::SLOT);
        k.v_write(buf, ks, base);
        v.v_write(buf, vs, base);
    }
}

fn map_read<K: Codec + Default, V: Codec + Default, M: MapLike<K, V>>(
    m: &mut M,
    r: &mut Reader<'_>,
    slot: usize,
    base: usize,
    depth: u32,
) -> Result<()> {
    let pair = K::SLOT + V::SLOT;
    let (p, n) = r.block(slot, base, pair)?;
    m.clear_all();
    for i in 0..n {
        let mut k = K::default();
        k.v_read(r, p + i * pair, base, depth)?;
        let mut v = V::default();
        v.v_read(r, p + i * pair + K::SLOT, base, depth)?;
        m.add(k, v);
    }
    Ok(())
}

fn map_verify<K: Codec, V: Codec>(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
    let pair = K::SLOT + V::SLOT;
    let (p, n) = r.block(slot, base, pair)?;
    for i in 0..n {
        K::v_verify(r, p + i * pair, base, depth)?;
        V::v_verify(r, p + i * pair + K::SLOT, base, depth)?;
    }
    Ok(())
}

impl<K: Codec + Default + Ord, V: Codec + Default> Codec for BTreeMap<K, V> {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        map_extra(self)
    }
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        map_write(self, buf, slot, base)
    }
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        map_read(self, r, slot, base, depth)
    }
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        map_verify::<K, V>(r, slot, base, depth)
    }
}

impl<K: Codec + Default + Hash + Eq, V: Codec + Default> Codec for HashMap<K, V> {
    const SLOT: usize = 4;
    #[inline]
    fn v_extra(&self) -> usize {
        map_extra(self)
    }
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        map_write(self, buf, slot, base)
    }
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        map_read(self, r, slot, base, depth)
    }
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        map_verify::<K, V>(r, slot, base, depth)
    }
}

impl<T: Codec> Codec for Ordered<T> {
    const SLOT: usize = T::SLOT;
    #[inline]
    fn v_extra(&self) -> usize {
        self.0.v_extra()
    }
    #[inline]
    fn v_write(&self, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
        self.0.v_write(buf, slot, base)
    }
    #[inline]
    fn v_read(&mut self, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        self.0.v_read(r, slot, base, depth)
    }
    #[inline]
    fn v_verify(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
        T::v_verify(r, slot, base, depth)
    }
}

/// Heap bytes of a struct field: its body and what its fields append.
#[inline]
pub fn struct_extra<S: Struct>(v: &S) -> usize {
    S::BODY + v.v_extra_fields()
}

/// A struct body's header: `[u32 size][u32 type]`.
#[inline(always)]
pub fn header<S: Struct>() -> [u8; 8] {
    let (size, ty) = ((S::BODY as u32).to_le_bytes(), S::TYPE.to_le_bytes());
    [size[0], size[1], size[2], size[3], ty[0], ty[1], ty[2], ty[3]]
}

/// A struct field: the slot holds the offset of its body `[size][type][slots]`.
#[inline]
pub fn struct_write<S: Struct>(v: &S, buf: &mut Writer<'_>, slot: &mut [u8], base: usize) {
    let (at, body) = buf.alloc(S::BODY);
    set_word(slot, (at - base) as u32);
    v.v_write_fields(buf, body, at);
}

/// Reads a struct field (its body found, checked and entered).
#[inline]
pub fn struct_read<S: Struct>(v: &mut S, r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
    let (pos, body) = r.enter(slot, base, S::TYPE, depth)?;
    v.v_read_fields(r, pos, body, depth - 1)
}

/// [`struct_read`] with the slot's offset already read.
#[inline]
pub fn struct_read_at<S: Struct>(
    v: &mut S,
    r: &mut Reader<'_>,
    off: u32,
    slot: usize,
    base: usize,
    depth: u32,
) -> Result<()> {
    let (pos, body) = r.enter_at(off, slot, base, S::TYPE, depth)?;
    v.v_read_fields(r, pos, body, depth - 1)
}

/// Verifies a struct field.
#[inline]
pub fn struct_verify<S: Struct>(r: &mut Reader<'_>, slot: usize, base: usize, depth: u32) -> Result<()> {
    let (pos, body) = r.enter(slot, base, S::TYPE, depth)?;
    S::v_verify_fields(r, pos, body.len(), depth - 1)
}

/// Verifies a field's slot by the field's type (named through an accessor, which keeps
/// generated code short): `verify_field(|v: &Account| &v.orders, r, slot, base, depth)`.
#[inline]
pub fn verify_field<S, T: Codec>(
    _field: fn(&S) -> &T,
    r: &mut Reader<'_>,
    slot: usize,
    base: usize,
    depth: u32,
) -> Result<()> {
    T::v_verify(r, slot, base, depth)
}
