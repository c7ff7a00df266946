// account — Thrift schema for bench/datasets/account.fbe.
namespace cpp fwb_thrift.account

enum OrderSide { BUY = 0, SELL = 1 }
enum OrderType { MARKET = 0, LIMIT = 1, STOP = 2 }

struct Order {
  1: i32 uid,
  2: string symbol,
  3: OrderSide side,
  4: OrderType type,
  5: double price,
  6: double volume,
}

struct Balance {
  1: string currency,
  2: double amount,
}

struct Account {
  1: i32 uid,
  2: string name,
  3: i8 state,                 // the State flags byte
  4: Balance wallet,
  5: optional Balance asset,
  6: list<Order> orders,
}
