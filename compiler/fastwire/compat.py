"""Schema evolution: every difference between two versions of a schema, and what it does to
readers (`fastwire compat OLD.fbe NEW.fbe`, docs/tools.md).

Each difference gets a verdict per format and direction:

- versioned, new writer -> old reader (`new_to_old`) and old writer -> new reader
  (`old_to_new`): a reader compares slot ends with the body size it finds, so fields
  appended at the end are skipped by old readers and take their defaults in new ones;
  anything that moves a slot, or changes what a slot holds, misreads;
- final (`final`): no versioning at all, so any change to the fields on the wire breaks
  (a model of another version is rejected or misread) in both directions;
- JSON (`json`): fields by name, unknown keys ignored, missing ones defaulted.

A verdict is `safe` (reads, the same values), `warning` (reads, but a value or a rule may
differ: a combination flag means more bits, a default differs where JSON omits the field,
equality by other keys) or `breaking` (fails to read, or reads other values). Binary
layouts are compared on the lowered wire model (fastwire/lower.py): slot kinds and sizes,
and nested structs by type number, as readers see them.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from . import ir, lower
from .diagnostics import Reporter
from .resolver import compile_schema

SAFE, WARNING, BREAKING = "safe", "warning", "breaking"
_RANK = {SAFE: 0, WARNING: 1, BREAKING: 2}
COLUMNS = ("new_to_old", "old_to_new", "final", "json")
FORMATS = {"versioned": ("new_to_old", "old_to_new"), "final": ("final",), "json": ("json",),
           "all": COLUMNS}


def _v(new_to_old: str, old_to_new: str, final: str, json_: str) -> Dict[str, str]:
    return {"new_to_old": new_to_old, "old_to_new": old_to_new, "final": final, "json": json_}


@dataclass
class Change:
    kind: str  # field_appended, field_removed, …: see docs/tools.md, "compat"
    subject: str  # the type or field: "Account.orders"
    message: str
    location: ir.SourceRef
    verdicts: Dict[str, str] = field(default_factory=dict)

    def severity(self, columns: Sequence[str] = COLUMNS) -> str:
        return max((self.verdicts[c] for c in columns), key=_RANK.__getitem__, default=SAFE)

    def render(self, columns: Sequence[str] = COLUMNS) -> str:
        v = self.verdicts
        where = f"{self.location.file}:{self.location.line}:{self.location.column}"
        return (f"{where}: {self.severity(columns)}: {self.message} [versioned: new writer -> "
                f"old reader {v['new_to_old']}, old writer -> new reader {v['old_to_new']}; "
                f"final: {v['final']}; json: {v['json']}]")

    def to_dict(self, columns: Sequence[str] = COLUMNS) -> Dict[str, object]:
        return {"kind": self.kind, "subject": self.subject, "message": self.message,
                "file": self.location.file, "line": self.location.line,
                "column": self.location.column, "severity": self.severity(columns),
                "verdicts": dict(self.verdicts)}


class _Side:
    """One version: its schema, its wire model, the package compared."""

    def __init__(self, schema: ir.Schema, package: ir.Package) -> None:
        self.schema = schema
        self.model = lower.lower(schema)
        self.package = package

    def binary(self, t: ir.FieldType, deep: bool = False) -> tuple:
        """What a binary reader sees of a field: its wire shape, structs by type number,
        variants by name (their alternatives are compared with the variants), or `deep`,
        by their alternatives' shapes."""
        return self._wire(lower.wire_type(self.schema, t), () if deep else None)

    def _wire(self, w: lower.WireType, within: Optional[Tuple[str, ...]]) -> tuple:
        ref: object = None
        if w.kind == "struct" and w.ref is not None:
            ref = self.model.struct(w.ref).type_number
        elif w.kind == "variant" and w.ref is not None:
            if within is None:
                ref = w.ref.split(".")[-1]
            elif w.ref in within:  # a variant that holds itself (in a collection)
                ref = within.index(w.ref)
            else:
                ref = tuple(self._wire(a.wire, within + (w.ref,))
                            for a in self.model.variant(w.ref).alternatives)
        return (w.kind, w.scalar, w.slot, w.length, w.collection == "set", ref,
                None if w.element is None else self._wire(w.element, within),
                None if w.key is None else self._wire(w.key, within))

    def json_kind(self, t: ir.FieldType) -> tuple:
        """What a JSON reader sees: the JSON shape (numbers, strings, objects, arrays)."""
        def plain(ref: Optional[ir.TypeRef]) -> str:
            if ref is None:
                return ""
            if ref.kind in ("enum", "flags"):
                return "integer"
            if ref.kind == "struct":
                return "object"
            if ref.kind == "variant":
                return "variant"
            return {"bool": "bool", "float": "number", "double": "number", "string": "string",
                    "bytes": "base64", "decimal": "decimal", "uuid": "uuid"}.get(ref.name, "integer")
        shape = {None: "value", "array": "array", "vector": "array", "list": "array",
                 "set": "array", "map": "object", "hash": "object"}[t.container]
        return shape, plain(t.value), plain(t.key)


def _worst(*verdicts: str) -> str:
    return max(verdicts, key=_RANK.__getitem__)


def compare(old: ir.Schema, new: ir.Schema) -> List[Change]:
    """Every difference between the root packages of two versions (and the packages both
    import under the same name), with its verdicts."""
    pairs = [(old.root_package, new.root_package)]
    for p in old.packages:
        if p.name != old.root and p.name != new.root:
            try:
                pairs.append((p, new.package(p.name)))
            except KeyError:
                pass
    changes: List[Change] = []
    for po, pn in pairs:
        changes.extend(_compare_packages(_Side(old, po), _Side(new, pn)))
    return changes


def _compare_packages(o: _Side, n: _Side) -> List[Change]:
    out: List[Change] = []
    po, pn = o.package, n.package
    old_types = {t.name: t for t in po.types}
    new_types = {t.name: t for t in pn.types}
    new_structs = {s.name: s for s in pn.structs}
    # structs renamed: one gone, one new, the same type number
    renamed: Dict[str, str] = {}
    gone = [s for s in po.structs if s.name not in new_types]
    for s in gone:
        twins = [t for t in pn.structs if t.name not in old_types and t.type_number == s.type_number]
        if len(twins) == 1:
            renamed[s.name] = twins[0].name
    for name, t in old_types.items():
        if name in new_types:
            u = new_types[name]
            if isinstance(t, ir.StructType) and isinstance(u, ir.StructType):
                out.extend(_compare_structs(o, n, t, u))
            elif isinstance(t, ir.EnumType) and isinstance(u, ir.EnumType):
                out.extend(_compare_enums(t, u))
            elif isinstance(t, ir.VariantType) and isinstance(u, ir.VariantType):
                out.extend(_compare_variants(o, n, t, u))
            else:
                out.append(Change("type_kind_changed", name, f"'{name}' was a {t.kind}, is now a "
                                  f"{u.kind}", u.location, _v(BREAKING, BREAKING, BREAKING, BREAKING)))
        elif name in renamed:
            u = new_structs[renamed[name]]
            assert isinstance(t, ir.StructType)
            out.append(Change("struct_renamed", name, f"struct '{name}' renamed to '{u.name}' "
                              f"(type number {u.type_number} kept)", u.location,
                              _v(SAFE, SAFE, SAFE, SAFE)))
            out.extend(_compare_structs(o, n, t, u))
        elif isinstance(t, ir.StructType):
            out.append(Change("struct_removed", name, f"{t.kind} '{name}' (type {t.type_number}) "
                              f"removed: new readers cannot read it", t.location,
                              _v(SAFE, BREAKING, BREAKING, BREAKING)))
        else:
            out.append(Change("type_removed", name, f"{t.kind} '{name}' removed", t.location,
                              _v(SAFE, SAFE, SAFE, SAFE)))
    for name, u in new_types.items():
        if name not in old_types and name not in renamed.values():
            out.append(Change("type_added", name, f"{u.kind} '{name}' added", u.location,
                              _v(SAFE, SAFE, SAFE, SAFE)))
    if po.offset != pn.offset:
        moved = [c for c in out if c.kind == "type_number_changed"]
        verdict = BREAKING if moved else SAFE
        where = pn.types[0].location if pn.types else ir.SourceRef(pn.path, 1, 1)
        out.append(Change("package_offset_changed", pn.name,
                          f"package offset {po.offset} -> {pn.offset}"
                          + (" (type numbers changed)" if moved else " (no type number changes)"),
                          where, _v(verdict, verdict, verdict, SAFE)))
    return out


def _compare_structs(o: _Side, n: _Side, s: ir.StructType, t: ir.StructType) -> List[Change]:
    out: List[Change] = []
    name = t.name
    if s.type_number != t.type_number:
        out.append(Change("type_number_changed", name, f"'{name}': type number {s.type_number} -> "
                          f"{t.type_number}: readers check it", t.location,
                          _v(BREAKING, BREAKING, BREAKING, SAFE)))
    old_f, new_f = list(s.all_fields), list(t.all_fields)
    old_sig = [o.binary(f.type) for f in old_f]
    new_sig = [n.binary(f.type) for f in new_f]
    prefix = 0  # fields a reader of either version finds where it expects them
    while prefix < min(len(old_f), len(new_f)) and old_sig[prefix] == new_sig[prefix]:
        prefix += 1
    old_names = [f.name for f in old_f]
    new_names = [f.name for f in new_f]
    old_pos = {f.name: i for i, f in enumerate(old_f)}
    new_pos = {f.name: i for i, f in enumerate(new_f)}
    removed = [f for f in old_f if f.name not in new_pos]
    added = [f for f in new_f if f.name not in old_pos]
    # renamed: removed and added at the same position, with the same wire shape
    renames: Dict[str, ir.Field] = {}
    for f in removed:
        i = old_pos[f.name]
        if i < len(new_f) and new_f[i] in added and old_sig[i] == new_sig[i]:
            renames[f.name] = new_f[i]
    for old_name, g in renames.items():
        out.append(Change("field_renamed", f"{name}.{g.name}", f"'{name}.{old_name}' renamed to "
                          f"'{g.name}': the same slot, another JSON key", g.location,
                          _v(SAFE, SAFE, SAFE, BREAKING)))
    taken = {g.name for g in renames.values()}
    for f in removed:
        if f.name in renames:
            continue
        i = old_pos[f.name]
        at_end = i >= len(new_f) and prefix >= len(new_f)
        if at_end:
            out.append(Change("field_removed", f"{name}.{f.name}", f"'{name}.{f.name}' removed from "
                              f"the end: old readers take its default instead of a value",
                              t.location, _v(BREAKING, SAFE, BREAKING, BREAKING)))
        else:
            out.append(Change("field_removed", f"{name}.{f.name}", f"'{name}.{f.name}' removed: "
                              f"the slots after it move", t.location,
                              _v(BREAKING, BREAKING, BREAKING, BREAKING)))
    for g in added:
        if g.name in taken:
            continue
        i = new_pos[g.name]
        if i >= len(old_f) and prefix >= len(old_f):
            out.append(Change("field_appended", f"{name}.{g.name}", f"'{name}.{g.name}' appended: "
                              f"old readers skip it, new readers of old data take its default",
                              g.location, _v(SAFE, SAFE, BREAKING, SAFE)))
        else:
            out.append(Change("field_inserted", f"{name}.{g.name}", f"'{name}.{g.name}' inserted "
                              f"before the last field: the slots after it move", g.location,
                              _v(BREAKING, BREAKING, BREAKING, SAFE)))
    common_old = [x for x in old_names if x in new_pos]
    common_new = [x for x in new_names if x in old_pos]
    if common_old != common_new:
        order = {x: i for i, x in enumerate(common_new)}
        for i, x in enumerate(common_old):
            if order[x] != i:
                g = new_f[new_pos[x]]
                out.append(Change("field_reordered", f"{name}.{x}", f"'{name}.{x}' moved from "
                                  f"position {old_pos[x] + 1} to {new_pos[x] + 1}", g.location,
                                  _v(BREAKING, BREAKING, BREAKING, SAFE)))
    for f in old_f:
        if f.name not in new_pos:
            continue
        g = new_f[new_pos[f.name]]
        if old_sig[old_pos[f.name]] != new_sig[new_pos[f.name]] \
                and (f.type.value.kind != "variant" or o.binary(f.type, True) != n.binary(g.type, True)):
            same_json = o.json_kind(f.type) == n.json_kind(g.type)
            out.append(Change("field_retyped", f"{name}.{g.name}", f"'{name}.{g.name}': "
                              f"{f.type.describe()} -> {g.type.describe()}", g.location,
                              _v(BREAKING, BREAKING, BREAKING, WARNING if same_json else BREAKING)))
        elif f.type.describe() != g.type.describe() and f.type.value.kind != "struct":
            out.append(Change("field_type_renamed", f"{name}.{g.name}", f"'{name}.{g.name}': "
                              f"{f.type.describe()} -> {g.type.describe()} (the same on the wire)",
                              g.location, _v(SAFE, SAFE, SAFE, SAFE)))
        if _default(f) != _default(g):
            out.append(Change("default_changed", f"{name}.{g.name}", f"'{name}.{g.name}': default "
                              f"{_show_default(f)} -> {_show_default(g)}: JSON that omits it reads "
                              f"differently", g.location, _v(SAFE, SAFE, SAFE, WARNING)))
        if f.key != g.key:
            out.append(Change("key_changed", f"{name}.{g.name}", f"'{name}.{g.name}' is "
                              f"{'now' if g.key else 'no longer'} a [key]: equality, ordering, "
                              f"sets and maps of '{name}' change", g.location,
                              _v(WARNING, WARNING, WARNING, WARNING)))
    base_o = s.base.qualified_name if s.base else None
    base_n = t.base.qualified_name if t.base else None
    if (base_o is None) != (base_n is None) or (base_o and base_n and
                                                 base_o.split(".")[-1] != base_n.split(".")[-1]):
        fields = [c for c in out if c.kind.startswith("field_")] + \
            [c for c in out if c.kind == "type_number_changed"]
        cols = {c: _worst(SAFE, *(x.verdicts[c] for x in fields)) for c in COLUMNS}
        out.append(Change("base_changed", name, f"'{name}': base {base_o or 'none'} -> "
                          f"{base_n or 'none'}" + (": the verdicts of the field and type number "
                                                   "changes listed" if fields else
                                                   ": the same fields and type number"),
                          t.location, cols))
    return out


def _default(f: ir.Field) -> Tuple[str, object]:
    d = f.default
    return ("", None) if d is None else (d.kind, d.value)


def _show_default(f: ir.Field) -> str:
    return "none" if f.default is None else (f.default.text or str(f.default.value))


def _compare_enums(e: ir.EnumType, u: ir.EnumType) -> List[Change]:
    out: List[Change] = []
    name = u.name
    size_o, size_n = ir.PRIMITIVE_SIZES[e.base], ir.PRIMITIVE_SIZES[u.base]
    if e.base != u.base:
        verdict = BREAKING if size_o != size_n else WARNING
        out.append(Change("enum_base_changed", name, f"{u.kind} '{name}': base {e.base} -> {u.base}",
                          u.location, _v(verdict, verdict, verdict, WARNING)))
    old_v = {v.name: v for v in e.values}
    new_v = {v.name: v for v in u.values}
    for v in e.values:
        w = new_v.get(v.name)
        if w is None:
            kept = [x.name for x in u.values if x.value == v.value]
            out.append(Change("enum_value_removed", f"{name}.{v.name}", f"{u.kind} '{name}': value "
                              f"'{v.name}' ({v.value}) removed" + (
                                  f" (still named {', '.join(kept)})" if kept else
                                  ": new readers keep it as a number without a name"),
                              u.location, _v(SAFE, SAFE, SAFE, SAFE)))
        elif w.value != v.value:
            combination = u.kind == "flags" and (bin(v.value).count("1") > 1 or
                                                 bin(w.value).count("1") > 1)
            verdict = WARNING if combination else BREAKING
            out.append(Change("enum_value_renumbered", f"{name}.{v.name}", f"{u.kind} '{name}': "
                              f"'{v.name}' {v.value} -> {w.value}" + (
                                  " (a combination of flags: data written with it has other bits)"
                                  if combination else ": the same number means another value"),
                              w.location, _v(verdict, verdict, verdict, verdict)))
    for w in u.values:
        if w.name not in old_v:
            known = [x.name for x in e.values if x.value == w.value]
            out.append(Change("enum_value_added", f"{name}.{w.name}", f"{u.kind} '{name}': value "
                              f"'{w.name}' ({w.value}) added" + (
                                  f" (an alias of {', '.join(known)})" if known else
                                  ": old readers keep it as a number without a name"),
                              w.location, _v(SAFE, SAFE, SAFE, SAFE)))
    return out


def _compare_variants(o: _Side, n: _Side, v: ir.VariantType, u: ir.VariantType) -> List[Change]:
    """Alternatives are told apart by their index (binary) and their name (JSON): appending
    one is the evolution the versioned format allows (an old reader exposes the new one as
    an unknown alternative); removing, moving, inserting or retyping one misreads."""
    out: List[Change] = []
    name = u.name
    old_sig = [o.binary(t, True) for t in v.alternatives]
    new_sig = [n.binary(t, True) for t in u.alternatives]
    old_names = [v.alternative_name(i) for i in range(len(v.alternatives))]
    new_names = [u.alternative_name(i) for i in range(len(u.alternatives))]
    old_at = {x: i for i, x in enumerate(old_names)}
    new_at = {x: i for i, x in enumerate(new_names)}

    def change(kind: str, i: int, message: str, verdicts: Dict[str, str]) -> None:
        out.append(Change(kind, f"{name}[{i}]", f"variant '{name}': alternative {i} {message}",
                          u.location, verdicts))

    # The same index and wire shape under a name neither version has twice: a rename (a
    # struct renamed with its type number kept).
    renamed = {i for i in range(min(len(old_sig), len(new_sig))) if old_sig[i] == new_sig[i]
               and old_names[i] not in new_at and new_names[i] not in old_at}
    for i in sorted(renamed):
        change("variant_alternative_renamed", i, f"'{old_names[i]}' is now '{new_names[i]}': the "
               f"same on the wire, another JSON name", _v(SAFE, SAFE, SAFE, BREAKING))
    for i, x in enumerate(old_names):
        if i in renamed:
            continue
        if x not in new_at:
            change("variant_alternative_removed", i, f"'{x}' removed: data that holds it no "
                   f"longer reads as a value", _v(SAFE, BREAKING, BREAKING, BREAKING))
        elif new_at[x] != i:
            change("variant_alternative_moved", i, f"'{x}' moved to index {new_at[x]}: the same "
                   f"index means another type", _v(BREAKING, BREAKING, BREAKING, SAFE))
        elif old_sig[i] != new_sig[i]:
            change("variant_alternative_retyped", i, f"'{x}' changed on the wire",
                   _v(BREAKING, BREAKING, BREAKING, WARNING))
    # Every old alternative at its index, with its wire shape: what is added is appended.
    kept = all(i in renamed or (new_at.get(x) == i and old_sig[i] == new_sig[i])
               for i, x in enumerate(old_names))
    for j, x in enumerate(new_names):
        if j in renamed or x in old_at:
            continue
        if kept and j >= len(old_names):
            change("variant_alternative_appended", j, f"'{x}' appended: old readers see it as an "
                   f"unknown alternative; the final format rejects it",
                   _v(WARNING, SAFE, BREAKING, WARNING))
        else:
            change("variant_alternative_inserted", j, f"'{x}' inserted before the last "
                   f"alternative: the indexes after it move", _v(BREAKING, BREAKING, BREAKING, WARNING))
    return out


# ---- the command -------------------------------------------------------------------------------

class CompatError(Exception):
    """A failure reported as one line (`fastwire compat: error: …`), exit 1."""


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="fastwire compat",
                description="Every difference between two versions of a schema, with its verdict "
                            "for the versioned format (both directions), the final format and JSON; "
                            "exit 1 when one is breaking for --format. See docs/tools.md.")
    p.add_argument("old", metavar="OLD.fbe")
    p.add_argument("new", metavar="NEW.fbe")
    p.add_argument("--json", action="store_true", help="the differences as JSON")
    p.add_argument("--format", choices=("versioned", "final", "json", "all"),
                   default="versioned",
                   help="the format whose breaking changes fail the check (exit 1; "
                        "default versioned); every verdict is printed either way")
    p.add_argument("-I", "--include", action="append", default=[], metavar="DIR")
    return p


def run(argv: Sequence[str]) -> int:
    """`fastwire compat OLD NEW ...` (argv without the command's name); the exit status:
    0 compatible, 1 breaking or a schema error, 2 a usage error."""
    try:
        ns = _parser().parse_args(list(argv))
    except _UsageError as err:
        print(f"fastwire compat: error: {err}", file=sys.stderr)
        return 2
    try:
        return run_compat(ns)
    except CompatError as err:
        print(f"fastwire compat: error: {err}", file=sys.stderr)
        return 1


def _load(path: str, include: Sequence[str]) -> ir.Schema:
    reporter = Reporter()
    schema = compile_schema(path, reporter, include)
    for d in reporter.diagnostics:
        print(d.render(), file=sys.stderr)
    if schema is None:
        n = len(reporter.errors)
        raise CompatError(f"schema '{path}' has {n} error{'s' if n != 1 else ''}")
    return schema


def run_compat(ns: argparse.Namespace) -> int:
    old, new = _load(ns.old, ns.include), _load(ns.new, ns.include)
    columns = FORMATS[ns.format]
    changes = compare(old, new)
    breaking = [c for c in changes if c.severity(columns) == BREAKING]
    warnings = [c for c in changes if c.severity(columns) == WARNING]
    if ns.json:
        doc = {"old": ns.old, "new": ns.new, "format": ns.format, "breaking": bool(breaking),
               "changes": [c.to_dict(columns) for c in changes]}
        print(json.dumps(doc, indent=2))
    else:
        for c in changes:
            print(c.render(columns))
        verdict = "breaking" if breaking else "compatible"
        what = {"versioned": "the versioned format", "final": "the final format",
                "json": "JSON", "all": "every format"}[ns.format]
        print(f"{ns.old} -> {ns.new}: {verdict} for {what}"
              + (f" ({len(breaking)} breaking" if breaking else " (0 breaking")
              + f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}, "
              f"{len(changes)} difference{'s' if len(changes) != 1 else ''})")
    return 1 if breaking else 0
