// monsters — Thrift schema for bench/datasets/monsters.fbe.
// Thrift has no 32-bit float: Vec3's floats travel as doubles (exactly).
namespace cpp fwb_thrift.monsters

enum Color { RED = 0, GREEN = 1, BLUE = 2 }

struct Vec3 {
  1: double x,
  2: double y,
  3: double z,
}

struct Weapon {
  1: string name,
  2: i16 damage,
}

struct Monster {
  1: Vec3 pos,
  2: i16 mana,
  3: i16 hp,
  4: string name,
  5: binary inventory,
  6: Color color,
  7: list<Weapon> weapons,
  8: Weapon equipped,
  9: list<Vec3> path,
}

struct Monsters {
  1: list<Monster> monsters,
}
