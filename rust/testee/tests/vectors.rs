//! The reference's golden vectors (tests/vectors) in both formats and JSON; versioning
//! between proto and protoex; every truncation and single-byte change of each vector.

use fastwire::{Limits, Struct};
use fastwire_testee::gen::{proto, protoex};
use fastwire_testee::{vector, vector_text};

fn seed_account() -> proto::Account {
    let order = |uid, side, ty, price, volume| proto::Order {
        uid,
        symbol: "EURUSD".into(),
        side: proto::OrderSide(side),
        type_: proto::OrderType(ty),
        price,
        volume,
    };
    proto::Account {
        uid: 1,
        name: "Test".into(),
        state: proto::State::INITIALIZED | proto::State::CALCULATED,
        wallet: proto::Balance {
            currency: "USD".into(),
            amount: 1000.0,
        },
        asset: Some(proto::Balance {
            currency: "EUR".into(),
            amount: 100.0,
        }),
        orders: vec![order(1, 0, 0, 1.23456, 1000.0), order(2, 1, 1, 1.0, 100.0), order(3, 0, 2, 1.5, 10.0)],
    }
}

fn golden<S: Struct + PartialEq + std::fmt::Debug>(name: &str) {
    let versioned = vector(&format!("{name}.fbe.hex"));
    let fin = vector(&format!("{name}.final.hex"));
    let json = vector_text(&format!("{name}.json"));
    assert_eq!(fastwire::verify::<S>(&versioned), Ok(versioned.len()));
    assert_eq!(fastwire::verify_final::<S>(&fin), Ok(fin.len()));
    let a: S = fastwire::deserialize(&versioned).unwrap();
    let b: S = fastwire::deserialize_final(&fin).unwrap();
    let c: S = fastwire::from_json(json.as_bytes()).unwrap();
    for v in [&a, &b, &c] {
        let mut out = Vec::new();
        fastwire::serialize(v, &mut out).unwrap();
        assert_eq!(out, versioned);
        out.clear();
        fastwire::serialize_final(v, &mut out).unwrap();
        assert_eq!(out, fin);
        assert_eq!(fastwire::to_json(v), json);
    }
}

#[test]
fn golden_vectors_in_both_formats_and_json() {
    golden::<proto::Account>("account");
    golden::<proto::Balance>("balance");
    golden::<proto::Order>("order");
}

#[test]
fn the_seed_account_built_in_code_is_the_vector() {
    let mut out = Vec::new();
    assert_eq!(fastwire::serialize(&seed_account(), &mut out), Ok(252));
    assert_eq!(out, vector("account.fbe.hex"));
    out.clear();
    assert_eq!(fastwire::serialize_final(&seed_account(), &mut out), Ok(152));
    assert_eq!(out, vector("account.final.hex"));
    let back: proto::Account = fastwire::deserialize(&vector("account.fbe.hex")).unwrap();
    assert_eq!(back.orders.len(), 3);
    assert_eq!(back.wallet.amount, 1000.0);
    assert_eq!(back.name, "Test");
}

#[test]
fn serialize_reuses_the_buffer() {
    let account = seed_account();
    let mut buf = Vec::new();
    fastwire::serialize(&account, &mut buf).unwrap();
    let cap = buf.capacity();
    for _ in 0..100 {
        buf.clear();
        fastwire::serialize(&account, &mut buf).unwrap();
        buf.clear();
        fastwire::serialize_final(&account, &mut buf).unwrap();
    }
    assert_eq!(buf.capacity(), cap);
}

#[test]
fn deserialize_reuses_the_target() {
    let data = vector("account.fbe.hex");
    let mut target = proto::Account::default();
    let limits = Limits::default();
    fastwire::deserialize_into(&data, &mut target, &limits).unwrap();
    let ptr = target.orders.as_ptr();
    for _ in 0..10 {
        fastwire::deserialize_into(&data, &mut target, &limits).unwrap();
    }
    assert_eq!(ptr, target.orders.as_ptr());
}

#[test]
fn old_and_new_read_each_other() {
    // protoex.Account is proto.Account with more fields: new reads old (defaults), old
    // reads new (extra fields ignored).
    let mut old = Vec::new();
    fastwire::serialize(&seed_account(), &mut old).unwrap();
    let new: protoex::Account = fastwire::deserialize(&old).unwrap();
    assert_eq!(new.uid, 1);
    assert_eq!(new.orders.len(), 3);
    let mut newer = Vec::new();
    fastwire::serialize(&new, &mut newer).unwrap();
    assert!(newer.len() > old.len());
    let back: proto::Account = fastwire::deserialize(&newer).unwrap();
    assert_eq!(back, seed_account());
    let mut again = Vec::new();
    fastwire::serialize(&back, &mut again).unwrap();
    assert_eq!(again, old);
    // The final format is not versioned: another version's data is rejected.
    let mut fin = Vec::new();
    fastwire::serialize_final(&seed_account(), &mut fin).unwrap();
    assert!(fastwire::verify_final::<protoex::Account>(&fin).is_err());
}

/// Verify and deserialize agree on `data`; what is accepted writes back to bytes that
/// verify and read to an equal value.
fn agree<S: Struct + std::fmt::Debug>(data: &[u8], versioned: bool) {
    let limits = Limits::default();
    let mut v = S::default();
    let (checked, read) = if versioned {
        (fastwire::verify_with::<S>(data, &limits), fastwire::deserialize_into(data, &mut v, &limits))
    } else {
        (fastwire::verify_final_with::<S>(data, &limits), fastwire::deserialize_final_into(data, &mut v, &limits))
    };
    assert_eq!(checked.is_ok(), read.is_ok(), "{data:02x?}");
    if read.is_ok() {
        let mut out = Vec::new();
        if versioned {
            fastwire::serialize(&v, &mut out).unwrap();
            assert!(fastwire::verify::<S>(&out).is_ok());
        } else {
            fastwire::serialize_final(&v, &mut out).unwrap();
            assert!(fastwire::verify_final::<S>(&out).is_ok());
        }
    }
}

fn mutations<S: Struct + std::fmt::Debug>(name: &str) {
    for (file, versioned) in [(format!("{name}.fbe.hex"), true), (format!("{name}.final.hex"), false)] {
        let data = vector(&file);
        for n in 0..data.len() {
            let cut = &data[..n];
            agree::<S>(cut, versioned);
            assert!(
                if versioned { fastwire::verify::<S>(cut) } else { fastwire::verify_final::<S>(cut) }.is_err(),
                "{file} cut at {n} accepted"
            );
        }
        let mut d = data.clone();
        for i in 0..data.len() {
            for change in [0x00u8, 0xFF, 0x01, 0x80, 0x7F, data[i].wrapping_add(1), data[i].wrapping_sub(1)] {
                d[i] = change;
                agree::<S>(&d, versioned);
            }
            d[i] = data[i];
        }
    }
}

#[test]
fn every_truncation_and_single_byte_change() {
    mutations::<proto::Account>("account");
    mutations::<proto::Balance>("balance");
    mutations::<proto::Order>("order");
}

#[test]
fn hostile_counts_and_offsets_are_rejected_at_once() {
    // A 4-billion-element vector: one comparison.
    let mut data = vector("account.fbe.hex");
    data[0x68..0x6C].copy_from_slice(&u32::MAX.to_le_bytes());
    let t = std::time::Instant::now();
    assert_eq!(fastwire::verify::<proto::Account>(&data), Err(fastwire::Error::Truncated));
    assert!(fastwire::deserialize::<proto::Account>(&data).is_err());
    assert!(t.elapsed().as_millis() < 50);
    // An offset pointing back into its own struct.
    let mut data = vector("account.fbe.hex");
    data[0x22..0x26].copy_from_slice(&0u32.to_le_bytes().map(|_| 4));
    assert!(fastwire::verify::<proto::Account>(&data).is_err());
}

#[test]
fn deep_nesting_is_too_deep_not_a_stack_overflow() {
    use fastwire_testee::gen::hostile::Node;
    fn nest(depth: usize) -> Node {
        let mut n = Node::default();
        for i in 0..depth {
            n = Node {
                value: i as i32,
                children: vec![n],
            };
        }
        n
    }
    for (depth, ok) in [(63usize, true), (64, false), (10_000, false)] {
        let node = nest(depth);
        let mut v = Vec::new();
        fastwire::serialize(&node, &mut v).unwrap();
        assert_eq!(fastwire::verify::<Node>(&v).is_ok(), ok, "versioned {depth}");
        assert_eq!(fastwire::deserialize::<Node>(&v).is_ok(), ok);
        let mut f = Vec::new();
        fastwire::serialize_final(&node, &mut f).unwrap();
        assert_eq!(fastwire::verify_final::<Node>(&f).is_ok(), ok, "final {depth}");
        assert_eq!(fastwire::deserialize_final::<Node>(&f).is_ok(), ok);
        std::mem::forget(node); // dropping 10 000 nested nodes recurses
    }
}

/// docs/wire-format.md#json, "Repeated keys": a struct field's last value replaces it whole
/// (no merge), every value is checked; enums and flags are numbers only.
#[test]
fn json_repeated_keys_and_enum_names() {
    let a: proto::Account = fastwire::from_json(
        br#"{"wallet":{"currency":"X","amount":2.0},"wallet":{"amount":5.0},"asset":{"currency":"A","amount":1.0},"asset":{"currency":"B"},"orders":[{"uid":1,"symbol":"s"}],"orders":[{"uid":2}]}"#,
    )
    .unwrap();
    assert_eq!(
        fastwire::to_json(&a),
        r#"{"uid":0,"name":"","state":11,"wallet":{"currency":"","amount":5.0},"asset":{"currency":"B","amount":0.0},"orders":[{"uid":2,"symbol":"","side":0,"type":0,"price":0.0,"volume":0.0}]}"#
    );
    for text in [&br#"{"uid":"x","uid":1}"#[..], br#"{"side":"sell"}"#, br#"{"side":"1"}"#] {
        assert!(fastwire::from_json::<proto::Order>(text).is_err());
    }
    assert!(fastwire::from_json::<proto::Account>(br#"{"state":"good"}"#).is_err());
}
