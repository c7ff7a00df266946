//! The protocol (docs/wire-format.md, "Streams"): root models back to back, each with its
//! own size, so a receiver reassembles them from any chunking and dispatches on the type
//! number. A generated package's `Message` enum implements [`Protocol`]: the types it
//! sends and receives, decoded by type number.
//!
//! ```ignore
//! let mut sender = Sender::new(Format::Versioned);
//! sender.send(&service::OrderMessage { body: order })?;   // appends to sender.buffer()
//! let mut receiver = Receiver::<service::Message>::new(Format::Versioned, Limits::default());
//! receiver.feed(sender.buffer(), |m| { println!("{m:?}"); Ok(()) })?;
//! ```

use crate::error::{Error, Result};
use crate::types::Uuid;
use crate::{Limits, Struct};
use std::fmt;
use std::marker::PhantomData;

/// Which binary format a stream carries (one per connection).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// The versioned format (the default).
    #[default]
    Versioned,
    /// The final (compact) format.
    Final,
}

impl Format {
    /// The smallest root model of the format: its header and the smallest struct.
    pub fn min_size(self) -> usize {
        match self {
            Format::Versioned => 16,
            Format::Final => 8,
        }
    }
}

/// What a message is to the requests of its package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// Not an answer to a request.
    None,
    /// The `[response]` of a `[request]`.
    Response,
    /// A `[reject]` of a `[request]`.
    Reject,
}

/// The messages of a package's protocol (implemented by the generated `Message` enum).
pub trait Protocol: Sized + Send + fmt::Debug + 'static {
    /// The type number of this message.
    fn type_number(&self) -> u32;
    /// Appends the message as a root model of `format`; returns its size.
    fn serialize(&self, format: Format, buf: &mut Vec<u8>) -> Result<usize>;
    /// Decodes a message of a known type (verified as it is read); None for a type the
    /// protocol does not have.
    fn deserialize(type_number: u32, data: &[u8], format: Format, limits: &Limits) -> Option<Result<Self>>;
    /// Verifies a message of a known type without decoding it (as `deserialize` checks);
    /// None for a type the protocol does not have.
    fn verify(type_number: u32, data: &[u8], format: Format, limits: &Limits) -> Option<Result<usize>>;
    /// The `[id]` field, for messages that have one.
    fn id(&self) -> Option<Uuid>;
    /// Whether the message answers a request.
    fn reply(&self) -> Reply;
}

/// Appends a struct as a root model of `format` (for generated code).
pub fn serialize<S: Struct>(value: &S, format: Format, buf: &mut Vec<u8>) -> Result<usize> {
    match format {
        Format::Versioned => crate::serialize(value, buf),
        Format::Final => crate::serialize_final(value, buf),
    }
}

/// Decodes a root model of `format` into a new struct (for generated code).
pub fn deserialize<S: Struct>(data: &[u8], format: Format, limits: &Limits) -> Result<S> {
    let mut v = S::default();
    match format {
        Format::Versioned => crate::deserialize_into(data, &mut v, limits)?,
        Format::Final => crate::deserialize_final_into(data, &mut v, limits)?,
    };
    Ok(v)
}

/// Verifies a root model of `format` (for generated code).
pub fn verify<S: Struct>(data: &[u8], format: Format, limits: &Limits) -> Result<usize> {
    match format {
        Format::Versioned => crate::verify_with::<S>(data, limits),
        Format::Final => crate::verify_final_with::<S>(data, limits),
    }
}

/// Writes messages back to back into a reused buffer.
#[derive(Debug, Default)]
pub struct Sender {
    format: Format,
    buf: Vec<u8>,
}

impl Sender {
    /// A sender of `format`.
    pub fn new(format: Format) -> Self {
        Sender {
            format,
            buf: Vec::new(),
        }
    }
    /// Appends a message; returns its size.
    pub fn send<S: Struct>(&mut self, message: &S) -> Result<usize> {
        serialize(message, self.format, &mut self.buf)
    }
    /// Appends a protocol message; returns its size.
    pub fn send_message<P: Protocol>(&mut self, message: &P) -> Result<usize> {
        message.serialize(self.format, &mut self.buf)
    }
    /// The bytes written so far.
    pub fn buffer(&self) -> &[u8] {
        &self.buf
    }
    /// Empties the buffer (its capacity is kept).
    pub fn clear(&mut self) {
        self.buf.clear()
    }
    /// The format.
    pub fn format(&self) -> Format {
        self.format
    }
}

/// Why a receiver stopped: the stream cannot go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReceiveError {
    /// A size prefix that cannot be framed (below the format's minimum or above
    /// `max_message_size`).
    BadSize {
        /// The size the prefix declares.
        size: u64,
        /// Where the message starts in the stream.
        offset: u64,
    },
    /// A message of a known type that does not decode.
    Decode {
        /// Its type number.
        type_number: u32,
        /// Why.
        error: Error,
        /// Where the message starts in the stream.
        offset: u64,
    },
    /// The handler refused a message.
    Handler(String),
}

impl fmt::Display for ReceiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReceiveError::BadSize {
                size,
                offset,
            } => {
                write!(f, "protocol error: bad message size {size} at stream offset {offset}")
            }
            ReceiveError::Decode {
                type_number,
                error,
                offset,
            } => {
                write!(f, "protocol error: message of type {type_number} at stream offset {offset}: {error}")
            }
            ReceiveError::Handler(e) => write!(f, "handler failed: {e}"),
        }
    }
}

impl std::error::Error for ReceiveError {}

/// The stream's framing, shared by [`Receiver`] and [`Proxy`]: reassembly from any
/// chunking, sizes checked against the format's minimum and `max_message_size`, at most
/// one incomplete message held.
struct Frames {
    format: Format,
    limits: Limits,
    buf: Vec<u8>,
    offset: u64,
    skipped: u64,
}

/// What a message handler says about a whole message: (type, bytes, stream offset) ->
/// whether the protocol knows the type.
type Each<'f> = dyn FnMut(u32, &[u8], u64, Format, &Limits) -> std::result::Result<bool, ReceiveError> + 'f;

impl Frames {
    fn new(format: Format, limits: Limits) -> Self {
        Frames {
            format,
            limits,
            buf: Vec::new(),
            offset: 0,
            skipped: 0,
        }
    }

    fn reset(&mut self) {
        self.offset += self.buf.len() as u64;
        self.buf.clear();
    }

    fn feed(&mut self, chunk: &[u8], each: &mut Each<'_>) -> std::result::Result<(), ReceiveError> {
        if self.buf.is_empty() {
            let used = self.frames(chunk, each)?;
            self.buf.extend_from_slice(&chunk[used..]);
            return Ok(());
        }
        self.buf.extend_from_slice(chunk);
        let buf = std::mem::take(&mut self.buf);
        let used = self.frames(&buf, each);
        self.buf = buf;
        let used = used?;
        self.buf.drain(..used);
        Ok(())
    }

    /// Hands on the whole messages at the start of `data`; returns the bytes used.
    fn frames(&mut self, data: &[u8], each: &mut Each<'_>) -> std::result::Result<usize, ReceiveError> {
        let mut at = 0;
        while data.len() - at >= 4 {
            let size = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]) as usize;
            if size < self.format.min_size() || size > self.limits.max_message_size {
                return Err(ReceiveError::BadSize {
                    size: size as u64,
                    offset: self.offset,
                });
            }
            if data.len() - at < size.max(8) {
                break;
            }
            let msg = &data[at..at + size];
            let offset = self.offset;
            at += size;
            self.offset += size as u64;
            if !each(type_of(self.format, msg), msg, offset, self.format, &self.limits)? {
                self.skipped += 1;
            }
        }
        Ok(at)
    }
}

/// The type a message is dispatched on: the root body's type (versioned) or the second
/// word (final). 0 when a versioned root's offset leads outside.
fn type_of(format: Format, msg: &[u8]) -> u32 {
    let word = |p: usize| msg.get(p..p + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    match format {
        Format::Final => word(4).unwrap_or(0),
        Format::Versioned => word(4).and_then(|off| word(off as usize + 4)).unwrap_or(0),
    }
}

/// Reassembles messages from chunks and dispatches them, decoded, by type number. Types
/// the protocol does not have are skipped; a message that does not decode stops the
/// stream. Holds at most one incomplete message (at most `max_message_size` bytes).
pub struct Receiver<P> {
    frames: Frames,
    _p: PhantomData<fn() -> P>,
}

impl<P: Protocol> Receiver<P> {
    /// A receiver of `format` whose messages are bounded by `limits`.
    pub fn new(format: Format, limits: Limits) -> Self {
        Receiver {
            frames: Frames::new(format, limits),
            _p: PhantomData,
        }
    }

    /// Bytes of an incomplete message held.
    pub fn pending(&self) -> usize {
        self.frames.buf.len()
    }

    /// Messages of unknown types skipped so far.
    pub fn skipped(&self) -> u64 {
        self.frames.skipped
    }

    /// Forgets an incomplete message.
    pub fn reset(&mut self) {
        self.frames.reset()
    }

    /// Takes the next chunk of the stream; calls `on_message` for every message it
    /// completes, in order.
    pub fn feed(
        &mut self,
        chunk: &[u8],
        mut on_message: impl FnMut(P) -> std::result::Result<(), String>,
    ) -> std::result::Result<(), ReceiveError> {
        self.frames.feed(chunk, &mut |type_number, msg, offset, format, limits| {
            let checked = P::deserialize(type_number, msg, format, limits);
            match checked {
                None => Ok(false),
                Some(Err(error)) => Err(ReceiveError::Decode {
                    type_number,
                    error,
                    offset,
                }),
                Some(Ok(m)) => on_message(m).map(|_| true).map_err(ReceiveError::Handler),
            }
        })
    }
}

/// The protocol's Proxy: reassembles messages from chunks like a [`Receiver`] and hands
/// each message of a type the protocol has to `on_message` as its bytes, verified
/// (the checks `deserialize` makes) but not decoded, to forward or route them unchanged.
/// Types the protocol does not have are skipped; a message that fails verification stops
/// the stream.
///
/// ```ignore
/// let mut proxy = Proxy::<service::Message>::new(Format::Versioned, Limits::default());
/// proxy.feed(chunk, |type_number, bytes| { upstream.write_all(bytes).map_err(|e| e.to_string()) })?;
/// ```
pub struct Proxy<P> {
    frames: Frames,
    _p: PhantomData<fn() -> P>,
}

impl<P: Protocol> Proxy<P> {
    /// A proxy of `format` whose messages are bounded by `limits`.
    pub fn new(format: Format, limits: Limits) -> Self {
        Proxy {
            frames: Frames::new(format, limits),
            _p: PhantomData,
        }
    }

    /// Bytes of an incomplete message held.
    pub fn pending(&self) -> usize {
        self.frames.buf.len()
    }

    /// Messages of unknown types skipped so far.
    pub fn skipped(&self) -> u64 {
        self.frames.skipped
    }

    /// Forgets an incomplete message.
    pub fn reset(&mut self) {
        self.frames.reset()
    }

    /// Takes the next chunk of the stream; calls `on_message(type_number, bytes)` for every
    /// message of a known type it completes, in order, after verifying it.
    pub fn feed(
        &mut self,
        chunk: &[u8],
        mut on_message: impl FnMut(u32, &[u8]) -> std::result::Result<(), String>,
    ) -> std::result::Result<(), ReceiveError> {
        self.frames.feed(chunk, &mut |type_number, msg, offset, format, limits| {
            let checked = P::verify(type_number, msg, format, limits);
            match checked {
                None => Ok(false),
                Some(Err(error)) => Err(ReceiveError::Decode {
                    type_number,
                    error,
                    offset,
                }),
                Some(Ok(_)) => on_message(type_number, msg).map(|_| true).map_err(ReceiveError::Handler),
            }
        })
    }
}
