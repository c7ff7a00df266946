//! verify and deserialize of both formats, and JSON, on every kind of generated type: the
//! first byte picks the type and the format, the rest is the message. Verify and the
//! checked deserialize must agree; what is accepted serializes to a message that
//! verifies and reads back to the same bytes. Never a panic.
#![no_main]

use fastwire::{Limits, Struct, Visitor};
use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
mod gen {
    include!(concat!(env!("OUT_DIR"), "/fastwire.rs"));
}

const TYPES: &[&str] = &[
    "proto.Account",
    "proto.Order",
    "protoex.Account",
    "everything.Primitives",
    "everything.Optionals",
    "everything.Collections",
    "everything.Derived",
    "everything.ExAccount",
    "hostile.Node",
    "hostile.Bag",
    "service.OrderRequest",
    "protocol.AccountMessage",
];

struct Check<'a>(u8, &'a [u8]);

impl Visitor for Check<'_> {
    type Output = ();
    fn visit<S: Struct>(self) {
        let (mode, data) = (self.0, self.1);
        let limits = Limits::default();
        let mut v = S::default();
        match mode % 3 {
            0 => {
                let ok = fastwire::verify_with::<S>(data, &limits).is_ok();
                assert_eq!(ok, fastwire::deserialize_into(data, &mut v, &limits).is_ok());
                if ok {
                    let mut a = Vec::new();
                    fastwire::serialize(&v, &mut a).unwrap();
                    fastwire::verify_with::<S>(&a, &limits).unwrap();
                    let back: S = fastwire::deserialize(&a).unwrap();
                    let mut b = Vec::new();
                    fastwire::serialize(&back, &mut b).unwrap();
                    assert_eq!(a, b);
                }
            }
            1 => {
                let ok = fastwire::verify_final_with::<S>(data, &limits).is_ok();
                assert_eq!(ok, fastwire::deserialize_final_into(data, &mut v, &limits).is_ok());
                if ok {
                    let mut a = Vec::new();
                    fastwire::serialize_final(&v, &mut a).unwrap();
                    // Not byte for byte: a nonzero flag or bool reads as set and writes 1.
                    fastwire::verify_final_with::<S>(&a, &limits).unwrap();
                    let back: S = fastwire::deserialize_final(&a).unwrap();
                    let mut b = Vec::new();
                    fastwire::serialize_final(&back, &mut b).unwrap();
                    assert_eq!(a, b);
                }
            }
            _ => {
                if fastwire::from_json_into(data, &mut v, &limits).is_ok() {
                    let text = fastwire::to_json(&v);
                    let back: S = fastwire::from_json(text.as_bytes()).unwrap();
                    assert_eq!(fastwire::to_json(&back), text);
                }
            }
        }
    }
}

fuzz_target!(|input: &[u8]| {
    if let Some((&pick, data)) = input.split_first() {
        let name = TYPES[(pick as usize / 3) % TYPES.len()];
        gen::visit_struct(name, Check(pick, data));
    }
});
