//! The FBE README's Sender/Receiver example: a sender writes an order, a balance and an
//! account into its buffer; a receiver is fed the bytes (in small chunks, as a socket
//! would deliver them) and prints what it decodes, in the text form fastwire C++ prints
//! (the lines of examples/cpp/expected_protocol.txt).
//!
//!     cargo run -p fastwire-examples --bin protocol
use fastwire::protocol::{Format, Receiver, Sender};
use fastwire::Limits;
use fastwire_examples::fbe::proto::{Balance, Message};
use fastwire_examples::seed_account;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let account = seed_account();
    let mut sender = Sender::new(Format::Versioned);
    for m in [
        Message::from(account.orders[0].clone()),
        Message::from(Balance {
            currency: "USD".into(),
            amount: 1000.0,
        }),
        Message::from(account),
    ] {
        println!("onSend: {m}");
        sender.send_message(&m)?;
    }
    let mut receiver = Receiver::<Message>::new(Format::Versioned, Limits::default());
    for chunk in sender.buffer().chunks(7) {
        receiver.feed(chunk, |m| {
            println!("onReceive: {m}");
            Ok(())
        })?;
    }
    Ok(())
}
