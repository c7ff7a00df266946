//! The equality rule of docs/schema-language.md for key fields: generated structs with
//! `[key]` fields compare, order and hash by them through this trait, which every type a
//! key may have implements (floats too, by their value: -0.0 == 0.0).

use crate::types::{Decimal, Text, Timestamp, Uuid};
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// Comparison and hashing of a key field's value.
pub trait Key {
    /// Total order used by sets, maps and struct ordering.
    fn key_cmp(&self, other: &Self) -> Ordering;
    /// A hash consistent with `key_cmp`'s equality.
    fn key_hash<H: Hasher>(&self, h: &mut H);
}

macro_rules! key_by_ord {
    ($($t:ty),*) => {$(
        impl Key for $t {
            #[inline]
            fn key_cmp(&self, other: &Self) -> Ordering { self.cmp(other) }
            #[inline]
            fn key_hash<H: Hasher>(&self, h: &mut H) { self.hash(h) }
        }
    )*};
}
key_by_ord!(bool, u8, i8, u16, i16, u32, i32, u64, i64, Text, Uuid, Decimal, Timestamp);

macro_rules! key_float {
    ($($t:ty),*) => {$(
        impl Key for $t {
            #[inline]
            fn key_cmp(&self, other: &Self) -> Ordering {
                self.partial_cmp(other).unwrap_or_else(|| self.is_nan().cmp(&other.is_nan()))
            }
            #[inline]
            fn key_hash<H: Hasher>(&self, h: &mut H) {
                if self.is_nan() { h.write_u8(0xFF) } else { (*self + 0.0).to_bits().hash(h) }
            }
        }
    )*};
}
key_float!(f32, f64);

/// A float as a set element or map key (Rust's `f32`/`f64` are not `Ord`): ordered and
/// hashed by [`Key`].
#[derive(Clone, Copy, Default, Debug)]
pub struct Ordered<T>(pub T);

impl<T: Key> PartialEq for Ordered<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0.key_cmp(&o.0) == Ordering::Equal
    }
}
impl<T: Key> Eq for Ordered<T> {}
impl<T: Key> PartialOrd for Ordered<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<T: Key> Ord for Ordered<T> {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.key_cmp(&o.0)
    }
}
impl<T: Key> Hash for Ordered<T> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.key_hash(h)
    }
}

impl<T: Key> Key for Option<T> {
    fn key_cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Some(a), Some(b)) => a.key_cmp(b),
            (a, b) => a.is_some().cmp(&b.is_some()),
        }
    }
    fn key_hash<H: Hasher>(&self, h: &mut H) {
        match self {
            Some(v) => {
                h.write_u8(1);
                v.key_hash(h)
            }
            None => h.write_u8(0),
        }
    }
}
