//! Errors: one small `Copy` enum, so a `Result` stays in registers on the hot paths.

use std::fmt;

/// Why input was rejected (or a value could not be written).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A size, count or offset reaches past the end (or into the next field).
    Truncated,
    /// An offset that is zero where a value is required, or points backwards.
    BadOffset,
    /// A size smaller than its header, or a final model whose fields do not end at its size.
    BadSize,
    /// A type number other than the expected one.
    BadType,
    /// A value out of its domain (decimal scale above 28).
    BadValue,
    /// Structs (or JSON arrays and objects) nested deeper than `max_depth`.
    TooDeep,
    /// A message (or JSON text) larger than `max_message_size`; or a message to write
    /// larger than 4 GiB - 1.
    TooLarge,
    /// Blocks visited more than once, or too many zero-size elements.
    OverBudget,
    /// Text that is not JSON.
    NotJson,
    /// A JSON value of the wrong type for its field (`null` for a non-optional too).
    WrongType,
    /// A JSON number or key beyond its type's range.
    OutOfRange,
    /// A JSON string that is not a valid value (uuid, base64, decimal, map key).
    InvalidValue,
    /// A protocol message whose type the receiver does not know.
    UnknownType,
}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The error's name as the other languages spell it ("truncated", "bad_offset", ...).
    pub fn code(self) -> &'static str {
        match self {
            Error::Truncated => "truncated",
            Error::BadOffset => "bad_offset",
            Error::BadSize => "bad_size",
            Error::BadType => "bad_type",
            Error::BadValue => "bad_value",
            Error::TooDeep => "too_deep",
            Error::TooLarge => "too_large",
            Error::OverBudget => "over_budget",
            Error::NotJson => "invalid_argument",
            Error::WrongType => "bad_value",
            Error::OutOfRange => "out_of_range",
            Error::InvalidValue => "invalid_argument",
            Error::UnknownType => "unknown_type",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Error::Truncated => "a size, count or offset reaches past the end",
            Error::BadOffset => "an offset is zero or points backwards",
            Error::BadSize => "a size does not match",
            Error::BadType => "unexpected type number",
            Error::BadValue => "value out of its domain",
            Error::TooDeep => "nested too deeply",
            Error::TooLarge => "message too large",
            Error::OverBudget => "over budget",
            Error::NotJson => "not JSON",
            Error::WrongType => "JSON value of the wrong type",
            Error::OutOfRange => "number out of range",
            Error::InvalidValue => "invalid value",
            Error::UnknownType => "unknown message type",
        };
        write!(f, "{} ({})", what, self.code())
    }
}

impl std::error::Error for Error {}
