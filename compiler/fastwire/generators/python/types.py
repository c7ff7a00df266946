"""The Python type table by the plan's helper names (fastwire.plan): slot formats, runtime
codecs, annotations and what codecs do with each helper's fields (`Role`); and `Types`,
what every part shares."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import AbstractSet, Dict, List, Optional, Set, Tuple

from ... import ir, lower, plan
from ..common import naming
from ..options import Options
from ..printer import Printer

# Attribute names the generated classes use themselves.
CLASS_NAMES = frozenset(("self", "to_json", "from_json"))


@lru_cache(maxsize=1 << 16)
def pyname(name: str, taken: AbstractSet[str] = frozenset()) -> str:
    """A schema name as a Python one: keywords and clashes get a trailing _, a leading __
    (mangled in a class) becomes f__."""
    if name.startswith("__") and not name.endswith("__"):
        name = "f" + name
    name = naming.ident("python", name)
    while name in taken:
        name = naming.ident("python", name + "_")
    return name


@lru_cache(maxsize=1 << 16)
def member_name(name: str) -> str:
    """An enum member name Python's enum module accepts."""
    if name.startswith("__") and not name.endswith("__"):
        return "m" + name
    if (name in naming.RESERVED["python"] or name in ("mro", "name", "value")
            or (len(name) > 1 and name[0] == "_" and name[-1] == "_")):
        return name + "_"
    return name


@lru_cache(maxsize=1 << 16)
def field_attr(name: str) -> str:
    """The attribute of a field in the generated class."""
    return pyname(name, CLASS_NAMES)


def split(qualified: str, package: str) -> Tuple[str, str]:
    """(module prefix, name) of a qualified name seen from `package` ("" or "_pkg.")."""
    pkg, _, name = qualified.rpartition(".")
    return ("" if pkg == package else f"_{pkg}."), name


class Terms(Dict[str, object]):
    """A template's terms, then the standard names."""

    std: "StandardNames"

    def __missing__(self, key: str) -> object:
        return self.std[key]


class StandardNames(Dict[str, object]):
    """Decimal, UUID and Optional as the module names them (`_Decimal` if the package has
    a type Decimal); looking one up marks it used."""

    def __init__(self, local: AbstractSet[str]):
        super().__init__({n: f"_{n}" if n in local else n for n in ("Decimal", "UUID", "Optional")})
        self.used: Set[str] = set()

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        self.used.add(key)
        return value


# Slot formats (struct letters) by scalar or helper; "I" (an offset) else.
FORMATS = {
    "bool": "?", "byte": "B", "char": "B", "wchar": "I", "int8": "b", "uint8": "B",
    "int16": "h", "uint16": "H", "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
    "float": "f", "double": "d", "timestamp": "Q", "decimal": "{slot}s", "uuid": "{slot}s",
    "optional": "BI",
}
# The runtime's codec of a value, or of a type built from its element (and key).
CODECS = {
    **{h: f"_rt.{h.upper()}" for h in (*plan.VALUE_HELPERS, "string", "bytes")},
    "uuid": "_rt.UUID_", **dict.fromkeys(("enum", "flags"), "{mod}_E_{ref}"),
    "struct": "{mod}_S_{ref}", "optional": "_rt.optional({element})",
    "array": "_rt.array({element}, {length})", "vector": "_rt.vector({element})",
    "list": "_rt.list_({element})", "set": "_rt.set_({element})",
    "map": "_rt.map_({key}, {element})", "hash": "_rt.hash_({key}, {element})",
}
# Field types whose codec a struct builds for itself (_F_<struct>_<field>).
BUILT = ("optional", "array", "vector", "list", "set", "map", "hash")
# Annotations: "int" unless listed.
ANNOTATIONS = {
    "bool": "bool", "float": "float", "double": "float", "string": "str", "bytes": "bytes",
    "decimal": "{Decimal}", "uuid": "{UUID}", **dict.fromkeys(("enum", "flags", "struct"), "{mod}{cls}"),
    "optional": "{Optional}[{element}]", **dict.fromkeys(("array", "vector", "list"), "list[{element}]"),
    "set": "set[{element}]", **dict.fromkeys(("map", "hash"), "dict[{key}, {element}]"),
}


@dataclass(frozen=True)
class Role:
    """What the codecs do with a field of one helper, as templates of Types.terms.

    vput: what a versioned writer packs, or the call writing the heap and giving it;
    vget: the field from its unpacked slot ("": unpacked into the field); vcheck: the
    slot's check ("": none); slots: the locals a slot unpacks to ("": read by position);
    fcall: the final format's function; run_check: the check of a value in a final run;
    nested: counts against the depth limit; text: string or bytes."""

    vput: str = "{codec}.vput(buf, pos, {v})"
    vget: str = "{codec}.vget(r, pos, {a}, {end}, d)"
    vcheck: str = "{codec}.vcheck(r, pos, {a}, {end}, d)"
    slots: str = "{a}"
    fcall: str = "{codec}.f{fn}"
    run_check: str = ""
    nested: bool = True
    text: bool = False

    @property
    def checked(self) -> bool:
        """verify unpacks its slot."""
        return bool(self.vcheck and self.slots)


_VALUE = Role(vput="{v}", vget="", vcheck="", nested=False)
ROLES: Dict[str, Role] = {
    **dict.fromkeys(plan.VALUE_HELPERS, _VALUE),
    **dict.fromkeys(("vector", "list", "set", "map", "hash"), Role()),
    **dict.fromkeys(("enum", "flags"), Role(vput="{v}", vget="{mod}_E_{ref}.of[{a}]", vcheck="",
                                            nested=False)),
    "uuid": Role(vput="_rt.uuid_bytes({v})", vget="_rt.uuid_of({a})", vcheck="", nested=False),
    "decimal": Role(vput="_rt.decimal_bytes({v})", vget="_rt.decimal_of({a})",
                    vcheck="_rt.vcheck_decimal({a})", nested=False,
                    run_check="_rt.DECIMAL.fcheck(r, p + {at}, d)"),
    **{h: Role(vput=f"_rt.vput_{x}(buf, pos, {{v}})", vget=f"_rt.vget_{x}(r, pos, {{a}}, {{end}})",
               vcheck="_rt.vcheck_str(r, pos, {a}, {end})", nested=False, text=True)
       for h, x in (("string", "str"), ("bytes", "bytes"))},
    "struct": Role(vput="{mod}_vput_{ref}(buf, pos, {v})",
                   vget="{mod}_vget_{ref}(r, pos, {a}, {end}, d)",
                   vcheck="{mod}_vcheck_{ref}(r, pos, {a}, {end}, d)", fcall="{mod}_f{fn}_{ref}"),
    "optional": Role(vget="{codec}.vget(r, pos, {a}, {attr}_o, {end}, d)",
                     vcheck="{codec}.vcheck(r, pos, {a}, {attr}_o, {end}, d)",
                     slots="{a}, {attr}_o"),
    "array": Role(vget="{codec}.vget_slot(r, pos + {off}, pos, d)",
                  vcheck="{codec}.vcheck_slot(r, pos + {off}, pos, d)", slots=""),
}


class Types:
    """One package's module being generated, and the names of its types and codecs."""

    def __init__(self, model: lower.WireModel, package: ir.Package, options: Options):
        self.model = model
        self.pkg = package
        self.options = options
        self.p = Printer(indent=options.indent, tabs=options.tabs)
        self.std = StandardNames({t.name for t in package.types})
        self.terms_of: Optional[ir.StructType] = None  # whose field terms are `known`
        self.known: Dict[Tuple[str, Optional[int]], Dict[str, object]] = {}
        self.enums = {t.qualified_name: t for pkg in model.schema.packages for t in pkg.types
                      if isinstance(t, ir.EnumType)}

    def ordered_structs(self) -> List[ir.StructType]:
        """Structs in the model's emission order."""
        by_name = {s.qualified_name: s for s in self.pkg.structs}
        return [by_name[n] for n in self.model.package(self.pkg.name).emission_order]

    def layout(self, s: ir.StructType) -> lower.StructLayout:
        return self.model.struct(s.qualified_name)

    def fill(self, template: str, **terms: object) -> str:
        """`template` with `terms` and the standard names."""
        found = Terms(terms)
        found.std = self.std
        return template.format_map(found)

    def type_name(self, qualified: str) -> str:
        """The expression naming an enum, flags or struct class."""
        mod, name = split(qualified, self.pkg.name)
        return mod + pyname(name)

    def ref_terms(self, w: plan.WireType) -> Dict[str, object]:
        """mod, ref, cls: module prefix, schema name and class of the type `w` names."""
        if w.ref is None:
            return {"mod": "", "ref": "", "cls": ""}
        mod, name = split(w.ref, self.pkg.name)
        return {"mod": mod, "ref": name, "cls": pyname(name)}

    def render(self, table: Dict[str, str], w: plan.WireType) -> str:
        """`w` by its helper's template in `table` ("int" if none)."""
        return self.fill(table.get(w.helper, "int"), length=w.length, **self.ref_terms(w),
                         element=self.render(table, w.element) if w.element else "",
                         key=self.render(table, w.key) if w.key else "")

    def codec(self, w: plan.WireType) -> str:
        """The runtime codec of a value of wire type `w`."""
        return self.render(CODECS, w)

    def annotation(self, w: plan.WireType) -> str:
        return self.render(ANNOTATIONS, w)

    def field_codec(self, s: ir.StructType, f: plan.PlanField) -> str:
        """The codec a field uses: a shared one, or the struct's own."""
        if f.helper in BUILT:
            return f"_F_{s.name}_{field_attr(f.name)}"
        return self.codec(f.wire)

    @staticmethod
    def letters(w: plan.WireType) -> str:
        """The struct format of a versioned slot of wire type `w`."""
        if w.length is not None:  # an array: its elements' slots
            assert w.element is not None
            return Types.letters(w.element) * w.length
        return FORMATS.get(w.scalar or w.helper, "I").format(slot=w.slot)

    def terms(self, s: ir.StructType, f: plan.PlanField, **more: object) -> Dict[str, object]:
        """What a Role's templates are filled with for field `f` at slot offset f.at (v the
        value, a its local, off and end its slot, codec, mod and ref; cached per struct)."""
        if self.terms_of is not s:
            self.terms_of, self.known = s, {}
        found = self.known.get((f.name, f.at))
        if found is None:
            attr = field_attr(f.name)
            at = f.at or 0
            found = self.known[f.name, f.at] = {
                "v": f"v.{attr}", "a": f"{attr}_", "attr": attr, "off": at, "end": f"pos + {at + f.wire.slot}",
                "codec": self.field_codec(s, f), **self.ref_terms(f.wire)}
        return {**found, **more} if more else found

    def expr(self, template: str, s: ir.StructType, f: plan.PlanField, **more: object) -> str:
        return self.fill(template, **self.terms(s, f, **more))

    def emit(self, template: str, **terms: object) -> None:
        """`template` printed without the lines its terms leave empty."""
        start = len(self.p.lines)
        self.p.print(template, **terms)
        self.p.lines[start:] = [line for line in self.p.lines[start:] if line]

    def gap(self) -> None:
        """Two blank lines."""
        self.p.blank()
        self.p.print("")

    @staticmethod
    def wrap(head: str, items: List[str], tail: str) -> str:
        """`head` + the items + `tail`, one item a line when long."""
        line = head + ", ".join(items) + tail
        if len(line) <= 84:
            return line
        return head + "\n    " + ",\n    ".join(items) + ",\n" + tail

    @staticmethod
    def unpack(names: List[str], call: str) -> str:
        """`a_, b_ = call`, one name a line when long."""
        if len(names) == 1:
            return f"{names[0]}, = {call}"
        line = ", ".join(names) + " = " + call
        if len(line) <= 84:
            return line
        return "(\n    " + "\n    ".join(x + "," for x in names) + f"\n) = {call}"


def role(f: plan.PlanField) -> Role:
    return ROLES[f.helper]


def fields_of(steps: Tuple[plan.Step, ...]) -> List[plan.PlanField]:
    return [f for step in steps for f in step.fields]

