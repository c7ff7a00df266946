//! The text form (`Display`) of generated types is what fastwire C++ prints: the seed's
//! protocol lines (examples/cpp/expected_protocol.txt) and the forms of print.h.

use fastwire::protocol::{Format, Receiver, Sender};
use fastwire::Limits;
use fastwire_testee::gen::{everything, proto};

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

#[test]
fn the_seed_messages_print_as_the_cpp_example_does() {
    let expected =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/cpp/expected_protocol.txt"))
            .unwrap();
    let account = seed_account();
    let messages = [
        proto::Message::from(account.orders[0].clone()),
        proto::Message::from(proto::Balance {
            currency: "USD".into(),
            amount: 1000.0,
        }),
        proto::Message::from(account),
    ];
    let mut lines: Vec<String> = messages.iter().map(|m| format!("onSend: {m}")).collect();
    let mut sender = Sender::new(Format::Versioned);
    for m in &messages {
        sender.send_message(m).unwrap();
    }
    let mut receiver = Receiver::<proto::Message>::new(Format::Versioned, Limits::default());
    receiver
        .feed(sender.buffer(), |m| {
            lines.push(format!("onReceive: {m}"));
            Ok(())
        })
        .unwrap();
    assert_eq!(lines, expected.lines().collect::<Vec<_>>());
}

#[test]
fn enums_flags_and_values_print_in_the_cpp_forms() {
    assert_eq!(proto::OrderSide::SELL.to_string(), "sell");
    assert_eq!(proto::OrderSide(9).to_string(), "<unknown>");
    // flags: every named nonzero value whose bits are all set, in declaration order
    assert_eq!((proto::State::INITIALIZED | proto::State::CALCULATED).to_string(), "initialized|calculated|good");
    assert_eq!(proto::State::UNKNOWN.to_string(), "");
    assert_eq!((proto::State::INVALID | proto::State::BROKEN).to_string(), "invalid|broken|bad");
    let b = proto::Balance {
        currency: "EUR".into(),
        amount: 0.1 + 0.2,
    };
    assert_eq!(b.to_string(), "Balance(currency=\"EUR\",amount=0.3)");
    let mut a = seed_account();
    a.asset = None;
    a.orders.clear();
    assert_eq!(
        a.to_string(),
        "Account(uid=1,name=\"Test\",state=initialized|calculated|good,\
         wallet=Balance(currency=\"USD\",amount=1000),asset=null,orders=[0][])"
    );
}

#[test]
fn every_kind_of_field_prints_in_the_cpp_forms() {
    let p = everything::Primitives {
        f_uuid: fastwire::Uuid::parse("123e4567-e89b-12d3-a456-426655440000").unwrap(),
        f_utc: fastwire::Timestamp(5),
        f_uuid0: fastwire::Uuid([0; 16]),
        f_uuid1: fastwire::Uuid([0; 16]),
        f_uuid4: fastwire::Uuid([0; 16]),
        ..Default::default()
    };
    let z = "\"00000000-0000-0000-0000-000000000000\"";
    assert_eq!(
        p.to_string(),
        format!(
            "Primitives(f_bool=true,f_byte=255,f_char='!',f_wchar='U+20AC',f_int8=-128,f_uint8=255,\
             f_int16=-32768,f_uint16=65535,f_int32=-123,f_uint32=4294967295,f_int64=-9223372036854775808,\
             f_uint64=18446744073709551615,f_float=1.5e+10,f_double=-1.23456e+125,f_decimal=123456.123456,\
             f_string=\"Hello, \"world\"!\n\",f_bytes=bytes[0],f_epoch=0,f_utc=5,f_ns=1000000000,\
             f_uuid0={z},f_uuid1={z},f_uuid4={z},f_uuid=\"123e4567-e89b-12d3-a456-426655440000\",\
             password=***,legacy=0)"
        )
    );
    let c = everything::Collections {
        f_list: vec!["a".into(), "b".into()],
        f_set: [3, 1].into_iter().collect(),
        f_map: [(2, "x".into())].into_iter().collect(),
        f_vector_optional: vec![None, Some(everything::EnumByte::A2)],
        ..Default::default()
    };
    let text = c.to_string();
    assert!(text.starts_with("Collections(f_array=[3][0,0,0],f_array_optional=[2][null,null],"), "{text}");
    assert!(text.contains(",f_vector=[0][],f_vector_optional=[2][null,a2],"), "{text}");
    assert!(text.contains(",f_list=[2]<\"a\",\"b\">,"), "{text}");
    assert!(text.contains(",f_set=[2]{1,3},"), "{text}");
    assert!(text.contains(",f_map=[1]<{2->\"x\"}>,"), "{text}");
    assert!(text.ends_with(",f_hash_struct_key=[0][])"), "{text}");
    // a derived struct prints its base first, as a whole
    let d = everything::MoreDerived::default();
    assert_eq!(d.to_string(), "MoreDerived(Derived(Base(name=\"\",level=1),serial=0,weight=0.25),last=false)");
}
