# monsters — Cap'n Proto schema for bench/datasets/monsters.fbe.
@0xc765087fd2482329;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("fwb_capnp::monsters");

enum Color { red @0; green @1; blue @2; }

struct Vec3 {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
}

struct Weapon {
  name @0 :Text;
  damage @1 :Int16;
}

struct Monster {
  pos @0 :Vec3;
  mana @1 :Int16;
  hp @2 :Int16;
  name @3 :Text;
  inventory @4 :Data;
  color @5 :Color;
  weapons @6 :List(Weapon);
  equipped @7 :Weapon;
  path @8 :List(Vec3);
}

struct Monsters {
  monsters @0 :List(Monster);
}
