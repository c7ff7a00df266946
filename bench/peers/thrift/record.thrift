// record — Thrift schema for bench/datasets/record.fbe.
namespace cpp fwb_thrift.record

struct Record {
  1: list<i64> ids,
  2: list<string> strings,
}
