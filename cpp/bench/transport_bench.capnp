# The Cap'n Proto side of cpp/bench/transport_bench.cpp: the seed Order
# (schemas/proto.fbe) and one request/response with the fields of service.fbe's
# OrderRequest -> OrderAck (the request's id, the connection's count, the order).
@0x830f2fd95f17e52f;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("capnp_bench");

enum OrderSide {
  buy @0;
  sell @1;
}

enum OrderType {
  market @0;
  limit @1;
  stop @2;
}

struct Order {
  uid @0 :Int32;
  symbol @1 :Text;
  side @2 :OrderSide;
  type @3 :OrderType;
  price @4 :Float64;
  volume @5 :Float64;
}

interface OrderService {
  # Answers with the request's id, this connection's count of accepted orders and the order.
  place @0 (id :Data, order :Order) -> (id :Data, seq :Int64, order :Order);
}
