//! Property tests: arbitrary values round-trip in both binary formats and through JSON
//! (compared by their bytes: keyed structs compare by key only), and arbitrary bytes never
//! make verify and deserialize disagree or panic.

use fastwire::{Decimal, Struct, Text, Timestamp, Uuid};
use fastwire_testee::gen::{everything, hostile, proto};
use proptest::prelude::*;

fn text() -> impl Strategy<Value = Text> {
    ".{0,12}".prop_map(Text::from)
}

fn order() -> impl Strategy<Value = proto::Order> {
    (any::<i32>(), text(), any::<u8>(), any::<u8>(), any::<f64>(), any::<f64>()).prop_map(
        |(uid, symbol, s, t, p, v)| proto::Order {
            uid,
            symbol,
            side: proto::OrderSide(s),
            type_: proto::OrderType(t),
            price: p,
            volume: v,
        },
    )
}

fn balance() -> impl Strategy<Value = proto::Balance> {
    (text(), any::<f64>()).prop_map(|(currency, amount)| proto::Balance {
        currency,
        amount,
    })
}

fn account() -> impl Strategy<Value = proto::Account> {
    (
        any::<i32>(),
        text(),
        any::<u8>(),
        balance(),
        proptest::option::of(balance()),
        proptest::collection::vec(order(), 0..5),
    )
        .prop_map(|(uid, name, state, wallet, asset, orders)| proto::Account {
            uid,
            name,
            state: proto::State(state),
            wallet,
            asset,
            orders,
        })
}

fn decimal() -> impl Strategy<Value = Decimal> {
    (0u128..(1u128 << 96), 0u8..=28, any::<bool>()).prop_map(|(c, s, n)| Decimal::from_parts(c, s, n).unwrap())
}

#[allow(deprecated)]
fn primitives() -> impl Strategy<Value = everything::Primitives> {
    (
        (any::<bool>(), any::<u8>(), any::<u32>(), any::<i8>(), any::<i16>(), any::<u16>(), any::<i32>(), any::<u32>()),
        (any::<i64>(), any::<u64>(), any::<f32>(), any::<f64>(), decimal(), text()),
        (proptest::collection::vec(any::<u8>(), 0..8), any::<u64>(), any::<u128>()),
    )
        .prop_map(|((b, by, wc, i8_, i16_, u16_, i32_, u32_), (i64_, u64_, f, d, dec, s), (bytes, ts, u))| {
            everything::Primitives {
                f_bool: b,
                f_byte: by,
                f_char: by,
                f_wchar: wc,
                f_int8: i8_,
                f_uint8: by,
                f_int16: i16_,
                f_uint16: u16_,
                f_int32: i32_,
                f_uint32: u32_,
                f_int64: i64_,
                f_uint64: u64_,
                f_float: f,
                f_double: d,
                f_decimal: dec,
                f_string: s,
                f_bytes: bytes.into(),
                f_epoch: Timestamp(ts),
                f_utc: Timestamp(ts / 3),
                f_ns: Timestamp(1),
                f_uuid0: Uuid::from_u128(u),
                f_uuid1: Uuid::NIL,
                f_uuid4: Uuid::from_u128(!u),
                f_uuid: Uuid::from_u128(u ^ 0x55),
                password: Text::from("p"),
                legacy: i32_,
            }
        })
}

/// Both formats and JSON give back a value that writes the same bytes.
fn round_trip<S: Struct>(v: &S) {
    let mut a = Vec::new();
    fastwire::serialize(v, &mut a).unwrap();
    let back: S = fastwire::deserialize(&a).unwrap();
    let mut b = Vec::new();
    fastwire::serialize(&back, &mut b).unwrap();
    assert_eq!(a, b);

    let mut f = Vec::new();
    fastwire::serialize_final(v, &mut f).unwrap();
    let back: S = fastwire::deserialize_final(&f).unwrap();
    let mut g = Vec::new();
    fastwire::serialize_final(&back, &mut g).unwrap();
    assert_eq!(f, g);

    let json = fastwire::to_json(v);
    let back: S = fastwire::from_json(json.as_bytes()).unwrap();
    assert_eq!(fastwire::to_json(&back), json);
    // NaN payloads survive the binary formats only; otherwise JSON keeps every bit.
    if !json.contains("NaN") {
        let mut h = Vec::new();
        fastwire::serialize_final(&back, &mut h).unwrap();
        assert_eq!(f, h);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn accounts_round_trip(a in account()) {
        round_trip(&a);
    }

    #[test]
    fn primitives_round_trip(p in primitives()) {
        round_trip(&p);
    }

    #[test]
    fn arbitrary_bytes_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = fastwire::verify::<everything::Collections>(&data);
        let _ = fastwire::deserialize::<everything::Collections>(&data);
        let _ = fastwire::verify_final::<everything::Collections>(&data);
        let _ = fastwire::deserialize_final::<everything::Collections>(&data);
        let _ = fastwire::from_json::<everything::Collections>(&data);
        let _ = fastwire::deserialize::<hostile::Node>(&data);
    }

    #[test]
    fn changed_accounts_verify_as_they_deserialize(a in account(), at in any::<usize>(), byte in any::<u8>()) {
        let mut v = Vec::new();
        fastwire::serialize(&a, &mut v).unwrap();
        let i = at % v.len();
        v[i] = byte;
        let ok = fastwire::verify::<proto::Account>(&v).is_ok();
        prop_assert_eq!(ok, fastwire::deserialize::<proto::Account>(&v).is_ok());
        let mut f = Vec::new();
        fastwire::serialize_final(&a, &mut f).unwrap();
        let i = at % f.len();
        f[i] = byte;
        let ok = fastwire::verify_final::<proto::Account>(&f).is_ok();
        prop_assert_eq!(ok, fastwire::deserialize_final::<proto::Account>(&f).is_ok());
    }
}
