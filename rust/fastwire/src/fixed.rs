//! Values of one fixed size (numbers, bool, enums, flags, decimal, uuid, timestamp), read
//! and written at constant positions of a checked block: generated code checks a struct
//! body (versioned) or a run of such fields (final) once, then moves each value with no
//! further bounds check.

use crate::error::{Error, Result};
use crate::types::{Decimal, Timestamp, Uuid};

/// A value that is its bytes: `b` is exactly the value's size.
pub trait Fixed: Sized {
    /// Reads the value (only a decimal's scale can fail).
    fn load(b: &[u8]) -> Result<Self>;
    /// Writes the value.
    fn store(&self, b: &mut [u8]);
}

macro_rules! number {
    ($($t:ty),*) => {$(
        impl Fixed for $t {
            #[inline(always)]
            fn load(b: &[u8]) -> Result<Self> {
                Ok(<$t>::from_le_bytes(b.try_into().unwrap_or_default()))
            }
            #[inline(always)]
            fn store(&self, b: &mut [u8]) {
                b.copy_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
number!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

impl Fixed for bool {
    #[inline(always)]
    fn load(b: &[u8]) -> Result<Self> {
        Ok(b.first().is_some_and(|x| *x != 0))
    }
    #[inline(always)]
    fn store(&self, b: &mut [u8]) {
        if let Some(x) = b.first_mut() {
            *x = *self as u8;
        }
    }
}

impl Fixed for Timestamp {
    #[inline(always)]
    fn load(b: &[u8]) -> Result<Self> {
        u64::load(b).map(Timestamp)
    }
    #[inline(always)]
    fn store(&self, b: &mut [u8]) {
        self.0.store(b)
    }
}

impl Fixed for Uuid {
    #[inline(always)]
    fn load(b: &[u8]) -> Result<Self> {
        Ok(Uuid(b.try_into().unwrap_or_default()))
    }
    #[inline(always)]
    fn store(&self, b: &mut [u8]) {
        b.copy_from_slice(&self.0);
    }
}

impl Fixed for Decimal {
    #[inline(always)]
    fn load(b: &[u8]) -> Result<Self> {
        Decimal::from_bytes(&b.try_into().unwrap_or_default())
    }
    #[inline(always)]
    fn store(&self, b: &mut [u8]) {
        b.copy_from_slice(&self.to_bytes());
    }
}

/// Checks a decimal's scale (byte 14 of its 16).
#[inline(always)]
pub fn check_decimal(b: &[u8]) -> Result<()> {
    match b.get(14) {
        Some(s) if *s <= 28 => Ok(()),
        _ => Err(Error::BadValue),
    }
}
