//! fastwire runtime: the Fast Binary Encoding (FBE) versioned and final formats, JSON
//! by fastwire's shared rules, and the protocol (Sender/Receiver) over byte chunks.
//!
//! Generated code (`fastwire compile --lang rust`) defines the structs, enums and flags
//! of a schema and implements this crate's codec traits for them; everything generic
//! (collections, optionals, the checked readers, JSON) lives here.
//!
//! ```ignore
//! let mut buf = Vec::new();
//! fastwire::serialize(&account, &mut buf)?;          // versioned root model
//! let back: proto::Account = fastwire::deserialize(&buf)?;
//! ```
//!
//! Reading untrusted bytes follows docs/security.md: `verify` and the checked
//! `deserialize` never panic, never read outside the bytes given, and do work and
//! allocate memory in proportion to the message size. Nothing that reads input uses
//! `unsafe`.
#![forbid(unsafe_code)]

mod copy;
mod error;
pub mod final_format;
pub mod fixed;
pub mod json;
mod key;
mod model;
pub mod net;
#[cfg(feature = "tls")]
pub mod net_tls;
#[cfg(feature = "tokio")]
pub mod net_tokio;
pub mod print;
pub mod protocol;
mod types;
pub mod versioned;

pub use error::{Error, Result};
pub use fixed::Fixed;
pub use key::{Key, Ordered};
pub use model::*;
pub use types::{Bytes, Decimal, Text, Timestamp, Uuid};

/// The version of the compiler this runtime goes with; generated code checks the
/// major.minor part at compile time (`check_version`).
pub const VERSION: &str = "0.1.0";

/// Fails the build of generated code made by a compiler of another major.minor version.
pub const fn check_version(generated: &str) -> bool {
    let a = generated.as_bytes();
    let b = VERSION.as_bytes();
    let mut i = 0;
    let mut dots = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return false;
        }
        if a[i] == b'.' {
            dots += 1;
            if dots == 2 {
                return true;
            }
        }
        i += 1;
    }
    a.len() == b.len()
}

/// The bounds applied to untrusted input (docs/security.md, "Limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Struct levels nested in each other, the root counting as one; at most
    /// [`MAX_DEPTH_CAP`] takes effect.
    pub max_depth: u32,
    /// The size a root model or a protocol message may declare.
    pub max_message_size: usize,
    /// Elements of zero final size (empty structs) in one message.
    pub max_zero_size_elements: usize,
}

/// The deepest nesting any reader walks, whatever `max_depth` says.
pub const MAX_DEPTH_CAP: u32 = 4096;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            max_message_size: 64 << 20,
            max_zero_size_elements: 1 << 16,
        }
    }
}

impl Limits {
    /// The depth limit a reader applies: `max_depth`, at most [`MAX_DEPTH_CAP`].
    pub fn depth(&self) -> u32 {
        self.max_depth.min(MAX_DEPTH_CAP)
    }
}

/// A generated struct: its type number and layout facts from the schema compiler's
/// lowered model, and the per-struct parts of each codec. Implemented by generated code.
pub trait Struct: Sized + Default + Clone {
    /// "package.Name"
    const NAME: &'static str;
    /// The type number written in headers and dispatched on by receivers.
    const TYPE: u32;
    /// Versioned body size: the 8-byte header and the slots.
    const BODY: usize;
    /// The fewest bytes the fields take in the final format.
    const FINAL_MIN: usize;

    /// Heap bytes the fields append in the versioned format.
    fn v_extra_fields(&self) -> usize;
    /// Writes the header and slots into `body` (its BODY bytes, zero before), which starts
    /// at `pos` in the message, and appends the fields' heap blocks.
    fn v_write_fields(&self, buf: &mut versioned::Writer<'_>, body: &mut [u8], pos: usize);
    /// Reads the fields of the body at `pos`, whose stored bytes (header included, any
    /// size from 8 up: older and newer versions) are `body`.
    fn v_read_fields(&mut self, r: &mut versioned::Reader<'_>, pos: usize, body: &[u8], depth: u32) -> Result<()>;
    /// Verifies the fields of the body at `pos`.
    fn v_verify_fields(r: &mut versioned::Reader<'_>, pos: usize, stored: usize, depth: u32) -> Result<()>;
    /// Bytes the fields take in the final format.
    fn f_size_fields(&self) -> usize;
    /// Writes the fields in the final format (into a block of `f_size_fields` bytes).
    fn f_write_fields(&self, buf: &mut final_format::Writer<'_>);
    /// Reads the fields in the final format from the reader's cursor.
    fn f_read_fields(&mut self, r: &mut final_format::Reader<'_>, depth: u32) -> Result<()>;
    /// Verifies the fields at the reader's cursor.
    fn f_verify_fields(r: &mut final_format::Reader<'_>, depth: u32) -> Result<()>;
    /// Appends the fields as JSON members (`"name":value,...`).
    fn j_write_fields(&self, out: &mut String);
    /// Reads the member `name` (unknown names are ignored).
    fn j_read_field(&mut self, name: &str, v: &json::Value<'_>, ctx: &mut json::Context) -> Result<()>;
}

/// Something done with a struct type found by name at run time
/// (`visit_struct("proto.Account", visitor)` in generated code).
pub trait Visitor {
    /// What the visit returns.
    type Output;
    /// Called with the struct type.
    fn visit<S: Struct>(self) -> Self::Output;
}

/// Implements the bit operations of a generated flags type (a newtype over `$n`).
#[macro_export]
macro_rules! impl_flags {
    ($t:ty, $n:ty) => {
        impl $t {
            /// The underlying bits.
            pub const fn bits(self) -> $n {
                self.0
            }
            /// True when every bit of `other` is set here.
            pub const fn contains(self, other: Self) -> bool {
                self.0 & other.0 == other.0
            }
            /// True when no bit is set.
            pub const fn is_empty(self) -> bool {
                self.0 == 0
            }
        }
        impl ::std::ops::BitOr for $t {
            type Output = Self;
            fn bitor(self, o: Self) -> Self {
                Self(self.0 | o.0)
            }
        }
        impl ::std::ops::BitAnd for $t {
            type Output = Self;
            fn bitand(self, o: Self) -> Self {
                Self(self.0 & o.0)
            }
        }
        impl ::std::ops::BitXor for $t {
            type Output = Self;
            fn bitxor(self, o: Self) -> Self {
                Self(self.0 ^ o.0)
            }
        }
        impl ::std::ops::Not for $t {
            type Output = Self;
            fn not(self) -> Self {
                Self(!self.0)
            }
        }
        impl ::std::ops::BitOrAssign for $t {
            fn bitor_assign(&mut self, o: Self) {
                self.0 |= o.0
            }
        }
        impl ::std::ops::BitAndAssign for $t {
            fn bitand_assign(&mut self, o: Self) {
                self.0 &= o.0
            }
        }
    };
}
