# events — the Cap'n Proto schema for bench/datasets/events.fbe: the variant is an
# unnamed union.
@0xef05bfea4914097a;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fwb_capnp::events");

struct Trade {
  id @0 :Int64;
  price @1 :Float64;
  quantity @2 :Int64;
  symbol @3 :Text;
}

struct Quote {
  bid @0 :Float64;
  ask @1 :Float64;
  bidSize @2 :Int32;
  askSize @3 :Int32;
}

struct Heartbeat {
  time @0 :Int64;
}

struct Cancel {
  id @0 :Int64;
  reason @1 :Text;
}

struct Event {
  union {
    trade @0 :Trade;
    quote @1 :Quote;
    heartbeat @2 :Heartbeat;
    cancel @3 :Cancel;
    sequence @4 :Int64;
  }
}

struct Events {
  events @0 :List(Event);
}
