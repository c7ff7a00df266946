//! The protocol's Proxy: messages of known types handed on as their bytes, verified and
//! unchanged, from any chunking; unknown types skipped; a message that fails verification
//! stops the stream, as the Receiver's decode does.

use fastwire::protocol::{Format, Proxy, ReceiveError, Receiver, Sender};
use fastwire::Limits;
use fastwire_testee::gen::{proto, protocol};

fn messages() -> Vec<protocol::Message> {
    let order = |uid| proto::Order {
        uid,
        symbol: "EURUSD".into(),
        price: 1.5,
        volume: 10.0,
        ..Default::default()
    };
    vec![
        protocol::OrderMessage {
            body: order(1),
        }
        .into(),
        protocol::BalanceMessage {
            body: proto::Balance {
                currency: "USD".into(),
                amount: 1000.0,
            },
        }
        .into(),
        protocol::AccountMessage {
            body: proto::Account {
                uid: 7,
                name: "Test".into(),
                orders: vec![order(2), order(3)],
                ..Default::default()
            },
        }
        .into(),
    ]
}

#[test]
fn a_proxy_hands_on_each_message_verified_and_unchanged_from_any_chunking() {
    for format in [Format::Versioned, Format::Final] {
        let mut sender = Sender::new(format);
        for m in messages() {
            sender.send_message(&m).unwrap();
        }
        let stream = sender.buffer().to_vec();
        for chunk in [1, 3, 7, stream.len()] {
            let mut proxy = Proxy::<protocol::Message>::new(format, Limits::default());
            let mut forwarded = Vec::new();
            let mut types = Vec::new();
            for part in stream.chunks(chunk) {
                proxy
                    .feed(part, |t, bytes| {
                        types.push(t);
                        forwarded.extend_from_slice(bytes);
                        Ok(())
                    })
                    .unwrap();
            }
            assert_eq!(types, vec![1, 2, 3]);
            assert_eq!(forwarded, stream, "the bytes go on unchanged");
            assert_eq!(proxy.pending(), 0);
            // What was forwarded is what a receiver decodes.
            let mut receiver = Receiver::<protocol::Message>::new(format, Limits::default());
            let mut got = Vec::new();
            receiver
                .feed(&forwarded, |m| {
                    got.push(format!("{m:?}"));
                    Ok(())
                })
                .unwrap();
            let want: Vec<String> = messages().iter().map(|m| format!("{m:?}")).collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn a_proxy_skips_unknown_types_and_stops_at_a_message_that_fails_verification() {
    for format in [Format::Versioned, Format::Final] {
        let mut sender = Sender::new(format);
        sender.send_message(&messages()[0]).unwrap();
        let first = sender.buffer().len();
        sender.send_message(&messages()[1]).unwrap();
        let mut stream = sender.buffer().to_vec();
        // Retype the first message to 77, a type the protocol does not have: the type
        // word of its root (final: the second word; versioned: the root body's).
        let type_at = match format {
            Format::Final => 4,
            Format::Versioned => u32::from_le_bytes(stream[4..8].try_into().unwrap()) as usize + 4,
        };
        stream[type_at..type_at + 4].copy_from_slice(&77u32.to_le_bytes());
        let mut proxy = Proxy::<protocol::Message>::new(format, Limits::default());
        let mut types = Vec::new();
        proxy
            .feed(&stream, |t, _| {
                types.push(t);
                Ok(())
            })
            .unwrap();
        assert_eq!(types, vec![2]);
        assert_eq!(proxy.skipped(), 1);

        // The balance with a broken field (final: the currency's length runs past the
        // message; versioned: the offset of the body's struct leads outside): the handler
        // is not called and the error is the one verify gives.
        let mut bad = stream[first..].to_vec();
        bad[8..12].copy_from_slice(&0x00ff_ffffu32.to_le_bytes()); // final: body.currency's length
        if format == Format::Versioned {
            bad[8..12].copy_from_slice(&stream[first + 8..first + 12]); // keep the root body's header
            bad[16..20].copy_from_slice(&0x00ff_ffffu32.to_le_bytes()); // the slot of `body`
        }
        let error = match format {
            Format::Versioned => fastwire::verify_with::<protocol::BalanceMessage>(&bad, &Limits::default()),
            Format::Final => fastwire::verify_final_with::<protocol::BalanceMessage>(&bad, &Limits::default()),
        }
        .unwrap_err();
        let mut proxy = Proxy::<protocol::Message>::new(format, Limits::default());
        let mut called = 0;
        let verdict = proxy.feed(&bad, |_, _| {
            called += 1;
            Ok(())
        });
        assert_eq!(called, 0);
        assert_eq!(
            verdict,
            Err(ReceiveError::Decode {
                type_number: 2,
                error,
                offset: 0
            })
        );
    }
}
