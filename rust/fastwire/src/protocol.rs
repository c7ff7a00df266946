//! The protocol: Sender/Receiver over byte chunks (docs/transport.md).
