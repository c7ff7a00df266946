//! Root models: a struct as a self-contained message, in either format, and JSON text.
//!
//! Versioned: `[u32 full size][u32 8][struct body][heap]`. Final: `[u32 size][u32 type]
//! [fields]`. `serialize*` append to a caller's `Vec<u8>` (reuse it: no allocation once
//! it has grown); `verify*` check without allocating; `deserialize*_into` read into an
//! existing value, reusing its memory, with every check `verify` makes.

use crate::error::{Error, Result};
use crate::{final_format, json, versioned, Limits, Struct};

fn root_size(data: &[u8], limits: &Limits, min: usize) -> Result<usize> {
    if data.len() < 8 {
        return Err(Error::Truncated);
    }
    let full = u32::from_le_bytes([data[0], data[1], data[2], data[3]]) as usize;
    if full > limits.max_message_size {
        return Err(Error::TooLarge);
    }
    if full > data.len() {
        return Err(Error::Truncated);
    }
    if full < min {
        return Err(Error::BadSize);
    }
    Ok(full)
}

/// Appends `value` as a versioned root model; returns its size. `TooLarge` above 4 GiB - 1
/// (the buffer is then left as it was).
pub fn serialize<S: Struct>(value: &S, buf: &mut Vec<u8>) -> Result<usize> {
    let n = 8 + S::BODY + value.v_extra_fields();
    if n > u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    let start = buf.len();
    buf.resize(start + n, 0);
    let mut w = versioned::Writer::new(&mut buf[start..]);
    let (_, root) = w.alloc(8);
    versioned::set_word(&mut root[..4], n as u32);
    versioned::set_word(&mut root[4..], 8); // the root body's offset
    let (at, body) = w.alloc(S::BODY);
    value.v_write_fields(&mut w, body, at);
    debug_assert_eq!(w.left(), 0);
    Ok(n)
}

/// Checks the versioned model at the start of `data`; returns its size.
pub fn verify<S: Struct>(data: &[u8]) -> Result<usize> {
    verify_with::<S>(data, &Limits::default())
}

/// [`verify`] with other limits.
pub fn verify_with<S: Struct>(data: &[u8], limits: &Limits) -> Result<usize> {
    let full = root_size(data, limits, 16)?;
    let mut r = versioned::Reader::new(&data[..full]);
    let (pos, body) = r.enter(4, 0, S::TYPE, limits.depth())?;
    S::v_verify_fields(&mut r, pos, body.len(), limits.depth() - 1)?;
    Ok(full)
}

/// Reads the versioned model at the start of `data` into `value`, reusing its memory;
/// returns the model's size. Safe on any input; on error `value` is valid but unspecified.
pub fn deserialize_into<S: Struct>(data: &[u8], value: &mut S, limits: &Limits) -> Result<usize> {
    let full = root_size(data, limits, 16)?;
    let mut r = versioned::Reader::new(&data[..full]);
    let (pos, body) = r.enter(4, 0, S::TYPE, limits.depth())?;
    value.v_read_fields(&mut r, pos, body, limits.depth() - 1)?;
    Ok(full)
}

/// Reads a new value from the versioned model at the start of `data`.
pub fn deserialize<S: Struct>(data: &[u8]) -> Result<S> {
    let mut v = S::default();
    deserialize_into(data, &mut v, &Limits::default())?;
    Ok(v)
}

/// Appends `value` as a final root model; returns its size. `TooLarge` above 4 GiB - 1
/// (the buffer is then left as it was).
pub fn serialize_final<S: Struct>(value: &S, buf: &mut Vec<u8>) -> Result<usize> {
    let n = 8 + value.f_size_fields();
    if n > u32::MAX as usize {
        return Err(Error::TooLarge);
    }
    let start = buf.len();
    buf.resize(start + n, 0);
    let mut w = final_format::Writer::new(&mut buf[start..]);
    *w.take::<4>() = (n as u32).to_le_bytes();
    *w.take::<4>() = S::TYPE.to_le_bytes();
    value.f_write_fields(&mut w);
    debug_assert_eq!(w.left(), 0);
    Ok(n)
}

fn final_root<S: Struct>(data: &[u8], limits: &Limits) -> Result<usize> {
    let full = root_size(data, limits, 8)?;
    if u32::from_le_bytes([data[4], data[5], data[6], data[7]]) != S::TYPE {
        return Err(Error::BadType);
    }
    if full - 8 < S::FINAL_MIN {
        return Err(Error::Truncated);
    }
    Ok(full)
}

/// Checks the final model at the start of `data`; returns its size.
pub fn verify_final<S: Struct>(data: &[u8]) -> Result<usize> {
    verify_final_with::<S>(data, &Limits::default())
}

/// [`verify_final`] with other limits.
pub fn verify_final_with<S: Struct>(data: &[u8], limits: &Limits) -> Result<usize> {
    let full = final_root::<S>(data, limits)?;
    let mut r = final_format::Reader::new(&data[8..full], limits.max_zero_size_elements);
    final_format::struct_verify::<S>(&mut r, limits.depth())?;
    if !r.rest().is_empty() {
        return Err(Error::BadSize);
    }
    Ok(full)
}

/// Reads the final model at the start of `data` into `value`, reusing its memory.
pub fn deserialize_final_into<S: Struct>(data: &[u8], value: &mut S, limits: &Limits) -> Result<usize> {
    let full = final_root::<S>(data, limits)?;
    let mut r = final_format::Reader::new(&data[8..full], limits.max_zero_size_elements);
    final_format::struct_read(value, &mut r, limits.depth())?;
    if !r.rest().is_empty() {
        return Err(Error::BadSize);
    }
    Ok(full)
}

/// Reads a new value from the final model at the start of `data`.
pub fn deserialize_final<S: Struct>(data: &[u8]) -> Result<S> {
    let mut v = S::default();
    deserialize_final_into(data, &mut v, &Limits::default())?;
    Ok(v)
}

/// Appends `value`'s JSON.
pub fn write_json<S: Struct>(value: &S, out: &mut String) {
    json::struct_write(value, out)
}

/// `value`'s JSON.
pub fn to_json<S: Struct>(value: &S) -> String {
    let mut s = String::new();
    json::struct_write(value, &mut s);
    s
}

/// Reads JSON text into `value` (missing fields keep their values), within `limits`.
pub fn from_json_into<S: Struct>(text: &[u8], value: &mut S, limits: &Limits) -> Result<()> {
    let v = json::parse(text, limits)?;
    let mut ctx = json::Context::new(limits);
    json::struct_read(value, &v, &mut ctx)
}

/// A new value from JSON text (missing fields take their defaults).
pub fn from_json<S: Struct>(text: &[u8]) -> Result<S> {
    let mut v = S::default();
    from_json_into(text, &mut v, &Limits::default())?;
    Ok(v)
}

/// Implements the codec traits of a generated struct (which implements [`Struct`]).
#[macro_export]
macro_rules! impl_struct {
    ($t:ty) => {
        impl $crate::versioned::Codec for $t {
            const SLOT: usize = 4;
            #[inline]
            fn v_extra(&self) -> usize {
                $crate::versioned::struct_extra(self)
            }
            #[inline]
            fn v_write(&self, buf: &mut $crate::versioned::Writer<'_>, slot: &mut [u8], base: usize) {
                $crate::versioned::struct_write(self, buf, slot, base)
            }
            #[inline]
            fn v_read(
                &mut self,
                r: &mut $crate::versioned::Reader<'_>,
                slot: usize,
                base: usize,
                depth: u32,
            ) -> $crate::Result<()> {
                $crate::versioned::struct_read(self, r, slot, base, depth)
            }
            #[inline]
            fn v_verify(
                r: &mut $crate::versioned::Reader<'_>,
                slot: usize,
                base: usize,
                depth: u32,
            ) -> $crate::Result<()> {
                $crate::versioned::struct_verify::<$t>(r, slot, base, depth)
            }
            #[inline]
            fn v_read_slot(
                &mut self,
                r: &mut $crate::versioned::Reader<'_>,
                slot_bytes: &[u8],
                slot: usize,
                base: usize,
                depth: u32,
            ) -> $crate::Result<()> {
                $crate::versioned::struct_read_at(self, r, $crate::versioned::word(slot_bytes), slot, base, depth)
            }
        }
        impl $crate::final_format::Codec for $t {
            const MIN: usize = <$t as $crate::Struct>::FINAL_MIN;
            #[inline]
            fn f_size(&self) -> usize {
                $crate::Struct::f_size_fields(self)
            }
            #[inline]
            fn f_write(&self, buf: &mut $crate::final_format::Writer<'_>) {
                $crate::Struct::f_write_fields(self, buf)
            }
            #[inline]
            fn f_read(&mut self, r: &mut $crate::final_format::Reader<'_>, depth: u32) -> $crate::Result<()> {
                $crate::final_format::struct_read(self, r, depth)
            }
            #[inline]
            fn f_verify(r: &mut $crate::final_format::Reader<'_>, depth: u32) -> $crate::Result<()> {
                $crate::final_format::struct_verify::<$t>(r, depth)
            }
        }
        impl $crate::json::Codec for $t {
            const IS_STRUCT: bool = true;
            const FINAL_MIN: usize = <$t as $crate::Struct>::FINAL_MIN;
            fn j_write(&self, out: &mut ::std::string::String) {
                $crate::json::struct_write(self, out)
            }
            fn j_read(&mut self, v: &$crate::json::Value<'_>, ctx: &mut $crate::json::Context) -> $crate::Result<()> {
                // A struct value replaces the field's whole (a repeated key's last value
                // wins, not merged: docs/wire-format.md#json).
                *self = <$t as ::std::default::Default>::default();
                $crate::json::struct_read(self, v, ctx)
            }
        }
        impl $crate::print::Print for $t {
            fn print(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(self, f)
            }
        }
        impl $crate::json::KeyText for $t {
            fn key_write(&self, _out: &mut ::std::string::String) {}
            fn key_read(_s: &str) -> $crate::Result<Self> {
                ::std::result::Result::Err($crate::Error::WrongType)
            }
        }
    };
}

/// Implements the codec traits of a generated enum or flags type: a newtype over its
/// underlying integer `$n`.
#[macro_export]
macro_rules! impl_enum {
    ($t:ty, $n:ty) => {
        impl $crate::versioned::Codec for $t {
            const SLOT: usize = ::std::mem::size_of::<$n>();
            #[inline]
            fn v_extra(&self) -> usize {
                0
            }
            #[inline]
            fn v_write(&self, buf: &mut $crate::versioned::Writer<'_>, slot: &mut [u8], base: usize) {
                $crate::versioned::Codec::v_write(&self.0, buf, slot, base)
            }
            #[inline]
            fn v_read(
                &mut self,
                r: &mut $crate::versioned::Reader<'_>,
                slot: usize,
                base: usize,
                depth: u32,
            ) -> $crate::Result<()> {
                $crate::versioned::Codec::v_read(&mut self.0, r, slot, base, depth)
            }
            #[inline]
            fn v_read_slot(
                &mut self,
                r: &mut $crate::versioned::Reader<'_>,
                slot_bytes: &[u8],
                slot: usize,
                base: usize,
                depth: u32,
            ) -> $crate::Result<()> {
                $crate::versioned::Codec::v_read_slot(&mut self.0, r, slot_bytes, slot, base, depth)
            }
            #[inline]
            fn v_verify(
                _r: &mut $crate::versioned::Reader<'_>,
                _slot: usize,
                _base: usize,
                _depth: u32,
            ) -> $crate::Result<()> {
                ::std::result::Result::Ok(())
            }
        }
        impl $crate::final_format::Codec for $t {
            const MIN: usize = ::std::mem::size_of::<$n>();
            #[inline]
            fn f_size(&self) -> usize {
                ::std::mem::size_of::<$n>()
            }
            #[inline]
            fn f_write(&self, buf: &mut $crate::final_format::Writer<'_>) {
                $crate::final_format::Codec::f_write(&self.0, buf)
            }
            #[inline]
            fn f_read(&mut self, r: &mut $crate::final_format::Reader<'_>, depth: u32) -> $crate::Result<()> {
                $crate::final_format::Codec::f_read(&mut self.0, r, depth)
            }
            #[inline]
            fn f_verify(r: &mut $crate::final_format::Reader<'_>, depth: u32) -> $crate::Result<()> {
                <$n as $crate::final_format::Codec>::f_verify(r, depth)
            }
        }
        impl $crate::json::Codec for $t {
            const FINAL_MIN: usize = ::std::mem::size_of::<$n>();
            fn j_write(&self, out: &mut ::std::string::String) {
                $crate::json::Codec::j_write(&self.0, out)
            }
            fn j_read(&mut self, v: &$crate::json::Value<'_>, ctx: &mut $crate::json::Context) -> $crate::Result<()> {
                self.0 = $crate::json::read_enum::<$n>(v, ctx)?;
                ::std::result::Result::Ok(())
            }
        }
        impl $crate::Fixed for $t {
            #[inline(always)]
            fn load(b: &[u8]) -> $crate::Result<Self> {
                <$n as $crate::Fixed>::load(b).map(Self)
            }
            #[inline(always)]
            fn store(&self, b: &mut [u8]) {
                $crate::Fixed::store(&self.0, b)
            }
        }
        impl $crate::json::KeyText for $t {
            fn key_write(&self, out: &mut ::std::string::String) {
                $crate::json::KeyText::key_write(&self.0, out)
            }
            fn key_read(s: &str) -> $crate::Result<Self> {
                <$n as $crate::json::KeyText>::key_read(s).map(Self)
            }
        }
        impl $crate::Key for $t {
            #[inline]
            fn key_cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                self.0.cmp(&other.0)
            }
            #[inline]
            fn key_hash<H: ::std::hash::Hasher>(&self, h: &mut H) {
                ::std::hash::Hash::hash(&self.0, h)
            }
        }
    };
}
