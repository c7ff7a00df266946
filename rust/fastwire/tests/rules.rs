//! The shared JSON rules (docs/wire-format.md#json) and the value types, on the runtime
//! alone.

use fastwire::json::{self, Codec, KeyText};
use fastwire::{Decimal, Error, Limits, Uuid};

fn double(x: f64) -> String {
    let mut s = String::new();
    json::write_f64(&mut s, x);
    s
}

#[test]
fn doubles_are_laid_out_as_rapidjson_does() {
    let cases: &[(f64, &str)] = &[
        (1000.0, "1000.0"),
        (1e20, "100000000000000000000.0"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (1.5, "1.5"),
        (123.456, "123.456"),
        (0.1, "0.1"),
        (0.00001, "0.00001"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (1e21, "1e21"),
        (-1.23456e125, "-1.23456e125"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e308"),
        (f64::NAN, "\"NaN\""),
        (f64::INFINITY, "\"Infinity\""),
        (f64::NEG_INFINITY, "\"-Infinity\""),
    ];
    for (x, text) in cases {
        assert_eq!(double(*x), *text, "{x:e}");
    }
    let mut s = String::new();
    123.456f32.j_write(&mut s);
    assert_eq!(s, "123.45600128173828");
    s.clear();
    1.5e10f32.j_write(&mut s);
    assert_eq!(s, "15000000512.0");
    s.clear();
    f32::MAX.j_write(&mut s);
    assert_eq!(s, "3.4028234663852886e38");
}

#[test]
fn strings_escape_as_rapidjson_does() {
    let mut s = String::new();
    json::write_str(&mut s, "a\"b\\c\u{8}\u{c}\n\r\t\u{0}\u{1f}/\u{7f}é");
    assert_eq!(s, "\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0000\\u001F/\u{7f}é\"");
}

#[test]
fn decimals_are_exact() {
    for text in ["1.50", "-0.00", "0.0000000000000000000000000001", "79228162514264337593543950335", "0", "-1"] {
        assert_eq!(Decimal::parse(text).unwrap().to_string(), text);
    }
    assert_eq!(Decimal::parse("1.5e3").unwrap().to_string(), "1500");
    assert_eq!(Decimal::parse("0e999999999").unwrap().to_string(), "0");
    for bad in ["1e999999999", "0.00000000000000000000000000000", "-0e-999999999", "1 ", "1_0", "NaN", ""] {
        assert!(Decimal::parse(bad).is_err(), "{bad}");
    }
    let forty = format!("1{}e-40", "0".repeat(40));
    assert_eq!(Decimal::parse(&forty), Err(Error::OutOfRange));
    assert_eq!(Decimal::parse("1.5").unwrap(), Decimal::parse("1.50").unwrap());
    assert!(Decimal::parse("-2").unwrap() < Decimal::parse("1.5").unwrap());
    let d = Decimal::parse("-123.4500").unwrap();
    assert_eq!(Decimal::from_bytes(&d.to_bytes()).unwrap().to_string(), "-123.4500");
}

#[test]
fn uuids_are_canonical_text() {
    let u = Uuid::parse("123e4567-e89b-12d3-a456-426655440000").unwrap();
    assert_eq!(u.to_string(), "123e4567-e89b-12d3-a456-426655440000");
    assert!(Uuid::parse("123e4567e89b12d3a456426655440000").is_err());
    assert_eq!(Uuid::new_v4().0[6] >> 4, 4);
    assert_eq!(Uuid::new_v1().0[6] >> 4, 1);
}

#[test]
fn hostile_json_is_bounded() {
    let limits = Limits::default();
    let deep = |n: usize| format!("{{\"zz\":{}{}}}", "[".repeat(n), "]".repeat(n));
    assert!(json::parse(deep(63).as_bytes(), &limits).is_ok());
    assert_eq!(json::parse(deep(64).as_bytes(), &limits).err(), Some(Error::TooDeep));
    assert_eq!(json::parse(deep(100_000).as_bytes(), &limits).err(), Some(Error::TooDeep));
    assert!(json::parse(b"{\"a\":\"\\ud800\"}", &limits).is_err());
    assert!(json::parse(b"{\"a\":\"\\ud83d\\ude00\"}", &limits).is_ok());
    assert!(json::parse(b"{\"a\":NaN}", &limits).is_err());
    let small = Limits {
        max_message_size: 4,
        ..Limits::default()
    };
    assert_eq!(json::parse(b"{ }  ", &small).err(), Some(Error::TooLarge));
    assert_eq!(i32::key_read("0007"), Ok(7));
    assert_eq!(i64::key_read(&"1".repeat(5000)), Err(Error::OutOfRange));
}
