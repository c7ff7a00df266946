# record — Cap'n Proto schema for bench/datasets/record.fbe.
@0xba18af01d45592b3;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fwb_capnp::record");

struct Record {
  ids @0 :List(Int64);
  strings @1 :List(Text);
}
