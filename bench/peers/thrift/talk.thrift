// talk — Thrift schemas for bench/datasets/{ints,mixed,complex,vec,map}.fbe.
// Thrift has no unsigned integers: uint32 travels as i64, uint64 as i64 (bit pattern).
namespace cpp fwb_thrift.talk

enum Enumeration { ONE = 0, TWO = 1 }

struct Ints {
  1: i64 id,
  2: i64 int1,
  3: i64 int2,
  4: i32 int3,
  5: i32 int4,
}

struct Mixed {
  1: i32 id,
  2: i32 int1,
  3: i64 int2,
  4: i64 uint1,
  5: double float1,
  6: string text1,
  7: Enumeration enum1,
}

struct Complex {
  1: i64 id,
  2: string text1,
  3: string text2,
  4: string text3,
  5: i32 int1,
  6: i32 int2,
  7: i32 int3,
  8: string text4,
  9: Enumeration enum1,
  10: double float1,
  11: i64 int4,
  12: i64 uint1,
  13: i64 uint2,
  14: i64 int5,
  15: i32 int6,
  16: double float2,
  17: string text5,
}

struct ContainerVec {
  1: i32 id,
  2: i64 int1,
  3: string text1,
  4: list<string> stringvec,
  5: list<i64> intvec,
}

struct ContainerMap {
  1: i32 id,
  2: i64 int1,
  3: string text1,
  4: map<i32, string> map1,
}
