//! The generated code of schemas/proto.fbe, shared by the examples.
#![forbid(unsafe_code)]

/// Every package the schema holds (here: `proto`).
pub mod fbe {
    include!(concat!(env!("OUT_DIR"), "/fastwire.rs"));
}

use fbe::proto::{Account, Balance, Order, OrderSide, OrderType, State};

/// The seed account of the FBE README.
pub fn seed_account() -> Account {
    Account {
        uid: 1,
        name: "Test".into(),
        state: State::GOOD,
        wallet: Balance {
            currency: "USD".into(),
            amount: 1000.0,
        },
        asset: Some(Balance {
            currency: "EUR".into(),
            amount: 100.0,
        }),
        orders: vec![
            Order {
                uid: 1,
                symbol: "EURUSD".into(),
                side: OrderSide::BUY,
                type_: OrderType::MARKET,
                price: 1.23456,
                volume: 1000.0,
            },
            Order {
                uid: 2,
                symbol: "EURUSD".into(),
                side: OrderSide::SELL,
                type_: OrderType::LIMIT,
                price: 1.0,
                volume: 100.0,
            },
            Order {
                uid: 3,
                symbol: "EURUSD".into(),
                side: OrderSide::BUY,
                type_: OrderType::STOP,
                price: 1.5,
                volume: 10.0,
            },
        ],
    }
}
