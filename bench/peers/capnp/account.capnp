# account — Cap'n Proto schema for bench/datasets/account.fbe.
@0xe95c46dbd0abfbfd;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fwb_capnp::account");

enum OrderSide { buy @0; sell @1; }
enum OrderType { market @0; limit @1; stop @2; }

struct Order {
  uid @0 :Int32;
  symbol @1 :Text;
  side @2 :OrderSide;
  type @3 :OrderType;
  price @4 :Float64;
  volume @5 :Float64;
}

struct Balance {
  currency @0 :Text;
  amount @1 :Float64;
}

struct Account {
  uid @0 :Int32;
  name @1 :Text;
  state @2 :UInt8;         # the State flags byte
  wallet @3 :Balance;
  asset @4 :Balance;       # optional: a null pointer when absent
  orders @5 :List(Order);
}
