"""Go types of wire types, the tables the parts dispatch through (keyed by the runtime helper,
plan.HELPERS, or for a value's bytes by `vkey`: its wire scalar, or decimal, uuid, timestamp),
and the statement shapes they share."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Dict, Iterator, Optional, Tuple

from ... import lower, plan
from ...layouts import SCALAR_WIDTHS
from ..printer import Printer
from .names import Scope

W = lower.WireType
PAIR_KEYS = ("struct", "bytes")  # keys a Go map cannot take: a sorted []fw.Pair
BYTE_SCALARS = ("byte", "uint8", "char")  # a final-format vector of these is its bytes
GO_SCALAR = {"bool": "bool", "byte": "byte", "char": "byte", "wchar": "rune", "float": "float32",
             "double": "float64", **{s: s for s in SCALAR_WIDTHS if "int" in s}}
INTEGERS = [s for s in SCALAR_WIDTHS if s not in ("bool", "float", "double")]
BITS = {s: 8 * SCALAR_WIDTHS[s] for s in SCALAR_WIDTHS}
# The range of a JSON integer of a scalar: (low, high).
RANGE = {s: (-(1 << (BITS[s] - 1)), (1 << (BITS[s] - 1)) - 1) if s.startswith("int") else (0, (1 << BITS[s]) - 1)
         for s in INTEGERS}
RANGE["timestamp"] = (0, (1 << 64) - 1)
GROUPS = {"sequence": ("vector", "list", "set"), "map": ("map", "hash")}


def table(value: Optional[Callable] = None, **by_helper: Callable) -> Dict[str, Callable]:
    """A dispatch table keyed by helper: `value` for every value helper, then the given ones
    (`sequence` stands for vector, list and set; `map` for map and hash)."""
    out = dict.fromkeys(plan.VALUE_HELPERS, value) if value else {}
    for name, fn in by_helper.items():
        out.update(dict.fromkeys(GROUPS.get(name, (name,)), fn))
    return out


def says(*names: str) -> Callable[[str], Callable[..., None]]:
    """Handlers that print one template: {name} is the handler's argument `name` (after g, w)."""
    def handler(template: str) -> Callable[..., None]:
        return lambda g, w, *args: g.p.print(template.format(**dict(zip(names, args))))
    return handler


def vkey(w: W) -> str:
    return w.scalar or w.helper


def by_width(one: str, wide: str) -> Dict[str, str]:
    """An integer scalar's code: `one` for a byte, else `wide` with @ its bits."""
    return {s: one if BITS[s] == 8 else wide.replace("@", str(BITS[s])) for s in INTEGERS}


def appender(text: Callable[[str], str]) -> Dict[str, str]:
    """strconv's append of each integer scalar, text(call) the statement around it."""
    return {s: text(f"strconv.Append{'Int(b, int64' if s.startswith('int') else 'Uint(b, uint64'}(@), 10)")
            for s in INTEGERS}


# A value's bytes: stored at buf[at] (versioned), loaded (the expression, and the Go type that
# needs no conversion), appended (final).
STORE = {"bool": "{buf}[{at}] = fw.B2U({v})", "decimal": "fw.PutDecimal({buf}[{at}:], {v})",
         "uuid": "copy({buf}[{at}:], {v}[:])", "timestamp": "fw.PutU64({buf}, {at}, uint64({v}))",
         "float": "fw.PutF32({buf}, {at}, float32({v}))", "double": "fw.PutF64({buf}, {at}, float64({v}))",
         **by_width("{buf}[{at}] = byte({v})", "fw.PutU@({buf}, {at}, uint@({v}))")}
LOAD: Dict[str, Tuple[str, Optional[str]]] = {
    "bool": ("{buf}[{at}] != 0", "bool"), "uuid": ("fw.UUIDAt({buf}, {at})", "fw.UUID"),
    "timestamp": ("fw.U64({buf}, {at})", None), "float": ("fw.F32({buf}, {at})", "float32"),
    "double": ("fw.F64({buf}, {at})", "float64"),
    **{s: (e, None) for s, e in by_width("{buf}[{at}]", "fw.U@({buf}, {at})").items()}}
APPEND = {"bool": "fw.AppendBool(b, {v})", "decimal": "fw.AppendDecimal(b, {v})", "uuid": "append(b, {v}[:]...)",
          "timestamp": "fw.AppendU64(b, uint64({v}))", "float": "fw.AppendF32(b, float32({v}))",
          "double": "fw.AppendF64(b, float64({v}))", **by_width("append(b, byte({v}))", "fw.AppendU@(b, uint@({v}))")}
COMPARE = {"decimal": "fw.CompareDecimal", "uuid": "fw.CompareUUID", "bytes": "bytes.Compare",
           "bool": "fw.CompareBool", "float": "fw.CompareFloat", "double": "fw.CompareFloat"}


def convert(t: str, expr: str, native: Optional[str]) -> str:
    return expr if t == native else f"{t}({expr})"


def load(g: Scope, w: W, buf: str, at: str) -> str:
    """A fixed value's load (not a decimal's, which is checked)."""
    expr, native = LOAD[vkey(w)]
    return convert(gotype(g, w), expr.format(buf=buf, at=at), native)


def store(w: W, v: str, buf: str, at: str) -> str:
    return STORE[vkey(w)].format(buf=buf, at=at, v=v)


def _named(g: Scope, w: W) -> str:
    return g.qual(w.ref)  # type: ignore[arg-type]


TYPES = table(
    string=lambda g, w: "string", bytes=lambda g, w: "[]byte", decimal=lambda g, w: "fw.Decimal",
    uuid=lambda g, w: "fw.UUID", timestamp=lambda g, w: "fw.Timestamp", enum=_named, flags=_named, struct=_named,
    optional=lambda g, w: "*" + gotype(g, w.element), array=lambda g, w: f"[{w.length}]{gotype(g, w.element)}",
    sequence=lambda g, w: "[]" + gotype(g, w.element),
    map=lambda g, w: (f"[]fw.Pair[{gotype(g, w.key)}, {gotype(g, w.element)}]" if pair_map(w)
                      else f"map[{gotype(g, w.key)}]{gotype(g, w.element)}"),
    **{s: (lambda g, w: GO_SCALAR[w.helper]) for s in GO_SCALAR})


def gotype(g: Scope, w: W) -> str:
    return TYPES[w.helper](g, w)


def pair_map(w: W) -> bool:
    return w.key is not None and w.key.helper in PAIR_KEYS


def deref(w: W, v: str) -> str:
    """An optional's value: a struct's methods take the pointer itself."""
    return v if w.helper == "struct" else f"(*{v})"


def compare_fn(g: Scope, w: W) -> str:
    """A func(a, b T) int ordering values of a set element or map key type."""
    if w.ref is not None and w.helper == "struct":
        return g.qual(w.ref, "FwCompare{name}")
    if w.helper in COMPARE:
        return COMPARE[w.helper]
    g.imports_used.add("cmp")
    return f"cmp.Compare[{gotype(g, w)}]"


def fast_walk(g: Scope, layout: lower.StructLayout, zero_ok: bool) -> bool:
    """A struct of depth 1 or 2 walked fast: some field has checks, and every field
    holds only values, strings, bytes and leaf structs, in optionals and collections (of
    nonzero size unless zero_ok)."""
    def ok(w: W) -> bool:
        if w.ref is not None and w.helper == "struct":
            leaf = g.layout(w.ref)
            return leaf.depth == 1 and all(ok(fl.wire) for fl in leaf.fields)
        if not zero_ok and w.collection not in (None, "array") and not sum(e.final_min for e in w.parts):
            return False  # a count of zero-size values: bounded by the allowance only
        return all(ok(e) for e in w.parts)
    return layout.depth in (1, 2) and any(fl.wire.checks for fl in layout.fields) and \
        all(ok(fl.wire) for fl in layout.fields)


def sorted_set(g: Scope, w: W, v: str) -> str:
    """A set's values in wire order (ascending): their name."""
    if w.collection != "set" or w.element is None:
        return v
    src = g.var("set")
    g.p.print(f"{src} := fw.SortedSet({v}, {compare_fn(g, w.element)})")
    return src


def sort_read(g: Scope, w: W, dst: str) -> None:
    """Puts a set or a []fw.Pair map just read into wire order."""
    if w.collection == "set":
        g.p.print(f"{dst} = fw.SortSet({dst}, {compare_fn(g, w.element)})")  # type: ignore[arg-type]
    elif pair_map(w):
        g.p.print(f"{dst} = fw.SortPairs({dst}, {compare_fn(g, w.key)})")  # type: ignore[arg-type]


@contextmanager
def entries(g: Scope, w: W, v: str, i: str = "", before: Callable[[], None] = lambda: None
            ) -> Iterator[Tuple[str, str, str]]:
    """A loop over map v's entries in wire order (a map's sorted, a hash's as they come),
    `before` printing what goes before it: gives the names of the key, the value and (over a
    []fw.Pair) the index."""
    assert w.key is not None
    p, cmp = g.p, compare_fn(g, w.key)
    if pair_map(w):
        src = v
        if w.collection == "map":
            src = g.var("m")
            p.print(f"{src} := fw.SortedPairs({v}, {cmp})")
        i = i or g.var("i")
        before()
        with p.block(f"for {i} := range {src} {{", "}"):
            yield f"{src}[{i}].Key", f"{src}[{i}].Value", i
        return
    key, val = g.var("k"), g.var("v")
    before()
    head = f"for {key}, {val} := range {v} {{" if w.collection != "map" else \
        f"for _, {key} := range fw.SortedKeys({v}, {cmp}) {{\n    {val} := {v}[{key}]"
    with p.block(head, "}"):
        yield key, val, ""


def insert(g: Scope, w: W, dst: str, key: str, val: str) -> None:
    """Adds an entry read to map dst (to a []fw.Pair; to a Go map, the first of its key)."""
    assert w.key is not None and w.element is not None
    if pair_map(w):
        g.p.print(f"{dst} = append({dst}, fw.Pair[{gotype(g, w.key)}, {gotype(g, w.element)}]"
                  f"{{Key: {key}, Value: {val}}})")
    else:
        g.p.print(f"if _, dup := {dst}[{key}]; !dup {{\n    {dst}[{key}] = {val}\n}}")


def orelse(p: Printer, line: str = "} else {") -> None:
    """Ends the branch being printed and opens the next (of the same p.block)."""
    p.outdent()
    p.print(line)
    p.indent()


@contextmanager
def unless(p: Printer, cond: str, then: str) -> Iterator[None]:
    """if cond { then } else { what the body prints }."""
    with p.block(f"if {cond} {{", "}"):
        p.print(then)
        orelse(p)
        yield


def guard(p: Printer, cond: str, stmt: str, then: str = "") -> None:
    """if cond { stmt }, then `then`."""
    p.print(f"if {cond} {{\n    {stmt}\n}}" + (then and "\n" + then))


LIMITED = """
$doc$
func $recv$$F$(data []byte) error {
    return $obj$$F$Limits(data, &fw.DefaultLimits)
}

// $F$Limits is $F$ under other limits.
func $recv$$F$Limits(data []byte, lim *fw.Limits) error {"""


def limited(p: Printer, doc: str, fn: str, method: str, body: str, **variables: object) -> None:
    """fn(data) (a method of *method when given) calling fn<Limits> under the default limits,
    and fn<Limits> doing `body` (a template of `variables`)."""
    p.print(LIMITED, doc=doc, F=fn, recv=f"(s *{method}) " if method else "", obj="s." if method else "")
    p.indent()
    p.print(body, **variables)
    p.outdent()
    p.print("}\n\n")


COMMA = "if @ > 0 {\n    b = append(b, ',')\n}"


def nullable(g: Scope, w: W, v: str, put: Callable, null: str = 'b = append(b, "null"...)', some: str = "") -> None:
    """Writes optional v: `null` when it has no value, else `some` and its value by put."""
    with unless(g.p, f"{v} == nil", null):
        if some:
            g.p.print(some)
        put(g, w.element, deref(w.element, v))  # type: ignore[arg-type]


def items(g: Scope, w: W, v: str, put: Callable, open: Callable[[str], str], close: str) -> None:
    """Writes array, vector, list or set v (a set's in wire order): open(its name), the values
    by put, separated by commas, then close."""
    src = sorted_set(g, w, v)
    i = g.var("i")
    g.p.print(open(src))
    with g.p.block(f"for {i} := range {src} {{", "}"):
        g.p.print(COMMA.replace("@", i))
        put(g, w.element, f"{src}[{i}]")
    g.p.print(f"b = append(b, '{close}')")


def allocated(g: Scope, e: W, dst: str) -> str:
    """Gives optional dst a value to read into, when it has none: the value."""
    g.p.print(f"if {dst} == nil {{\n    {dst} = new({gotype(g, e)})\n}}")
    return deref(e, dst)
