//! The Rust conformance testee (conformance/README.md): reads requests on stdin, answers
//! each on stdout: the payload converted between the versioned, final and JSON forms, or
//! the stage that rejected it.
#![forbid(unsafe_code)]

use fastwire::{Limits, Struct, Visitor};
use std::io::{Read, Write};

use fastwire_testee::gen;

const VERSIONED: u8 = 1;
const FINAL: u8 = 2;
const JSON: u8 = 3;

struct Convert<'a> {
    input: u8,
    output: u8,
    payload: &'a [u8],
}

fn fail(status: u8, e: impl std::fmt::Display) -> (u8, Vec<u8>) {
    (status, e.to_string().into_bytes())
}

impl Visitor for Convert<'_> {
    type Output = (u8, Vec<u8>);

    fn visit<S: Struct>(self) -> (u8, Vec<u8>) {
        let limits = Limits::default();
        let mut value = S::default();
        match self.input {
            VERSIONED => {
                if let Err(e) = fastwire::verify_with::<S>(self.payload, &limits) {
                    return fail(2, e);
                }
                if let Err(e) = fastwire::deserialize_into(self.payload, &mut value, &limits) {
                    return fail(1, e);
                }
            }
            FINAL => {
                if let Err(e) = fastwire::verify_final_with::<S>(self.payload, &limits) {
                    return fail(2, e);
                }
                if let Err(e) = fastwire::deserialize_final_into(self.payload, &mut value, &limits) {
                    return fail(1, e);
                }
            }
            JSON => {
                if let Err(e) = fastwire::from_json_into(self.payload, &mut value, &limits) {
                    return fail(1, e);
                }
            }
            n => return fail(4, format!("input format {n}")),
        }
        let mut out = Vec::new();
        let r = match self.output {
            VERSIONED => fastwire::serialize(&value, &mut out).map(|_| ()),
            FINAL => fastwire::serialize_final(&value, &mut out).map(|_| ()),
            JSON => {
                out = fastwire::to_json(&value).into_bytes();
                Ok(())
            }
            n => return fail(4, format!("output format {n}")),
        };
        match r {
            Ok(()) => (0, out),
            Err(e) => fail(3, e),
        }
    }
}

fn handle(req: &[u8]) -> (u8, Vec<u8>) {
    if req.len() < 5 {
        return fail(5, "short request");
    }
    if req[0] != 1 {
        return fail(4, format!("protocol version {}", req[0]));
    }
    let n = u16::from_le_bytes([req[3], req[4]]) as usize;
    if req.len() < 5 + n {
        return fail(5, "short request");
    }
    let name = String::from_utf8_lossy(&req[5..5 + n]).into_owned();
    let convert = Convert {
        input: req[1],
        output: req[2],
        payload: &req[5 + n..],
    };
    gen::visit_struct(&name, convert).unwrap_or_else(|| fail(4, format!("unknown type {name}")))
}

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    loop {
        let mut size = [0u8; 4];
        if input.read_exact(&mut size).is_err() {
            return;
        }
        let mut req = vec![0u8; u32::from_le_bytes(size) as usize];
        if input.read_exact(&mut req).is_err() {
            return;
        }
        let (status, body) = handle(&req);
        let mut resp = Vec::with_capacity(5 + body.len());
        resp.extend_from_slice(&((body.len() + 1) as u32).to_le_bytes());
        resp.push(status);
        resp.extend_from_slice(&body);
        if output.write_all(&resp).and_then(|_| output.flush()).is_err() {
            return;
        }
    }
}
