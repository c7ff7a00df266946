"""What a JVM language spells its own way for the shared walks (codec.py, fast.py,
fastput.py); java/syntax.py and kotlin/syntax.py fill it in for one struct. The walks decide
what is written, checked and read, in what order; a Syntax says how it reads.

The general codec's statements, by operation and route (route()): the calls both languages
make (CALLS) in the language's statement (`wrap`, {call}). str.format templates over {p} the
slot, {base}, {v} the value, {cur} the field read, {read} a value's read, {sc} the struct's
codec class and {fc} the field's codec (an optional or a container: the runtime's, of
dev.fastwire.Codecs, over its element's).
"""

from __future__ import annotations

import textwrap
from contextlib import contextmanager
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ... import ir, lower, plan
from ...layouts import DECIMAL
from ..printer import Printer
from . import names

Field = Union[lower.FieldLayout, plan.PlanField]


def joined(text: str) -> str:
    """A text dedented, without its first line break, its lines starting `+ ` put on the
    line before (after a space): the long lines of generated code, in our source's width."""
    out: List[str] = []
    for line in textwrap.dedent(text).removeprefix("\n").split("\n"):
        if line.lstrip().startswith("+ "):
            out[-1] += line.lstrip()[1:]
        else:
            out.append(line)
    return "\n".join(out)


def table(text: str) -> Dict[str, str]:
    """Lines `key text` as {key: its texts, one a line}: a language's lines by name."""
    out: Dict[str, List[str]] = {}
    for line in joined(text).strip().splitlines():
        key, _, rest = line.strip().partition(" ")
        out.setdefault(key, []).append(rest)
    return {k: "\n".join(v) for k, v in out.items()}


@contextmanager
def block(p: Printer, head: str) -> Iterator[None]:
    """`head {`, what the body prints one level in, `}`: Printer.block for a head printed
    as it is (a struct's own text is no template: Printer caches templates, a few thousand)."""
    p.value(head + " {")
    p.indent()
    yield
    p.outdent()
    p.value("}")


def emit(p: Printer, template: str, **v: str) -> None:
    """p.print(template, **v), leaving out the lines that are only a `$name$` set to ''."""
    drop = {f"${k}$" for k, x in v.items() if x == ""}
    if drop:
        template = "\n".join(line for line in template.split("\n") if line.strip() not in drop)
    p.print(template, **v)


W, R = "dev.fastwire.Writer", "dev.fastwire.Reader"
# A codec's methods: parameters (N the struct, N? one that may be null) and result; the
# static entries (vput0, ...), the bodies (vfields0, ...) and the overrides take the same.
METHODS = {name: spec.partition(" : ") for name, spec in table("""
    vfields w W, body int, v N
    vread r R, body int, size int, depth int, v N
    vverify r R, body int, size int, depth int
    ffields w W, v N
    fread r R, depth int, v N
    fverify r R, depth int
    vput w W, pos int, base int, v N?
    vget r R, pos int, base int, depth int, reuse N? : N
    vcheck r R, pos int, base int, depth int
    fput w W, v N?
    fget r R, depth int, reuse N? : N
    fcheck r R, depth int""").items()}

# How a field is coded, from the helper the plan names: `value` a fixed-size value in place;
# `string`, `bytes`, `struct` through dev.fastwire.Direct or the struct's static entries;
# `codec` anything else, through the field's codec (Fields.F_x). The fast paths (fast.py,
# fastput.py) also take `opt`, an optional string or struct, and `seq`, a vector or list of
# structs, in line; the general bodies code those by their codec.
DIRECT = {"string": "string", "bytes": "bytes", "struct": "struct"}
# What an optional or a vector or list holds for the fast paths to code it in line.
IN_LINE = {"optional": ("opt", ("string", "struct")), "vector": ("seq", ("struct",)),
           "list": ("seq", ("struct",))}


def route(w: lower.WireType) -> str:
    """How a field is coded (the comment above)."""
    if w.is_value:
        return "value"
    way, elements = IN_LINE.get(w.helper, ("codec", ()))
    if w.element is not None and w.element.helper in elements:
        return way
    return DIRECT.get(w.helper, "codec")


D = "dev.fastwire.Direct"
CALLS = {
    "vput": {"string": D + ".vputString(w, {p}, {base}, {v})", "bytes": D + ".vputBytes(w, {p}, {base}, {v})",
             "struct": "{sc}.vput0(w, {p}, {base}, {v})", "codec": "{fc}.vput(w, {p}, {base}, {v})"},
    "vget": {"value": "{read}", "string": D + ".vgetString(r, {p}, body, {cur})",
             "bytes": D + ".vgetBytes(r, {p}, body)", "struct": "{sc}.vget0(r, {p}, body, depth, {cur})",
             "codec": "{fc}.vget(r, {p}, body, depth, {cur})"},
    "vcheck": {"string": D + ".vcheckText(r, {p}, body)", "bytes": D + ".vcheckText(r, {p}, body)",
               "struct": "{sc}.vcheck0(r, {p}, body, depth)", "codec": "{fc}.vcheck(r, {p}, body, depth)"},
    "fput": {"string": D + ".fputString(w, {v})", "bytes": D + ".fputBytes(w, {v})",
             "struct": "{sc}.fput0(w, {v})", "codec": "{fc}.fput(w, {v})"},
    "fget": {"string": D + ".fgetString(r, {cur})", "bytes": D + ".fgetBytes(r)",
             "struct": "{sc}.fget0(r, depth, {cur})", "codec": "{fc}.fget(r, depth, {cur})"},
    "fcheck": {"string": D + ".fcheckText(r)", "bytes": D + ".fcheckText(r)",
               "struct": "{sc}.fcheck0(r, depth)", "codec": "{fc}.fcheck(r, depth)"},
}
class Syntax:
    end = ""  # a statement's end
    wrap: Dict[str, str] = {}
    # fast.py: the walks' heads ({name}: the struct), each with the lines opening its body
    heads: Dict[str, Tuple[str, Tuple[str, ...]]] = {}
    # fast.py: a struct to fill: (declaration, the test that it needs a new one, the new one)
    # by whether the target may be null; {t} {x} {target}
    ensure: Dict[bool, Tuple[str, Optional[str], Optional[str]]] = {}
    # fast.py: a list to fill: declaration, its old size, the loop, the element, the test that
    # it needs a new one, the new one; {t} {out} {old} {i} {x} {target} {n} {D}
    fill_list: Tuple[str, ...] = ()
    # fastput.py: the buffer's length; a nested call's writer, buffer and end
    size = ""
    wb = ""

    # codec.py: the Codec class's opening (levels: how many blocks it opens) and its fast
    # overrides; the static entries' lines by name (table()); a method's head, without and
    # with a result, and a parameter; the prefixes of a body, an entry and the overrides;
    # an override; JSON's methods, a key, a put by the field's codec and a case of jfield
    codec_head = ""
    levels = 1
    fast_overrides = ""
    entry: Dict[str, str] = {}
    sigs = ("", "")
    param = ""
    int_type = "int"
    nullable = ""
    prefixes = {"body": "", "entry": "", "vfields": "", "vput": ""}
    override = ""
    json = ""
    json_put: Dict[str, str] = {}
    json_case = ""

    def __init__(self, schema: ir.Schema) -> None:
        self.schema = schema
        self._sigs: Dict[Tuple[str, str, str], str] = {}

    def quote(self, text: str) -> str: raise NotImplementedError

    def sig(self, prefix: str, name: str, n: str) -> str:
        """A method's head (no body): `name` (vput0, vput, ...) of struct n."""
        key = (prefix, name, n)
        if key not in self._sigs:
            params, _, result = METHODS[name.rstrip("0")]
            types = {"W": W, "R": R, "int": self.int_type, "N": n, "N?": n + self.nullable}
            args = ", ".join(self.param.format(p=x, t=types[t]) for x, t in (a.split(" ") for a in params.split(", ")))
            self._sigs[key] = self.sigs[bool(result)].format(prefix=prefix, name=name, args=args, n=n)
        return self._sigs[key]

    def scodec(self, ref: str) -> str:
        """A struct's codec class (its static entry points)."""
        return names.qualified(self.schema, ref) + ".Codec"

    # ---- what the language provides: names, types, values -----------------------------
    # a field's name; its codec (Fields.F_<name>); a boxed type; a struct's CODEC
    def field(self, f: Field) -> str: raise NotImplementedError
    def fcodec(self, f: Field) -> str: raise NotImplementedError
    def boxed(self, w: lower.WireType) -> str: raise NotImplementedError
    def struct_codec(self, w: lower.WireType) -> str: raise NotImplementedError

    # a local (a position, length or count a long; `kind` int: a loop index); a long as an
    # int; a value's read from the reader r at `at`; its store on the writer w at `at`
    def decl(self, name: str, expr: str, mutable: bool = False, kind: str = "long") -> str:
        raise NotImplementedError
    def as_int(self, expr: str) -> str: raise NotImplementedError
    def value_read(self, w: lower.WireType, at: str) -> str: raise NotImplementedError
    def value_write(self, w: lower.WireType, at: str, base: str, v: str) -> str: raise NotImplementedError

    # codec.py: a versioned slot read when the body reaches its end, else the default; a final
    # run's block allocated into p, opening a block; a final run taken from the reader into p
    def vread(self, f: plan.PlanField, p: str, end: int, target: str,
              lit: Optional[lower.Literal]) -> List[str]: raise NotImplementedError
    def run_open(self, size: int) -> str: raise NotImplementedError
    def take(self, size: int, declared: bool) -> str: raise NotImplementedError

    # fastput.py: vw0's or fw0's opening lines and the first lines of its body; room for n
    # bytes; a general statement on the writer; a string; a final run stored through the
    # writer (stores(q): its stores at q); an optional struct (`opt`) or a list of structs
    # (`seq`) written in line
    def put_head(self, fn: str, name: str, null: str) -> Tuple[Sequence[str], Sequence[str]]:
        raise NotImplementedError
    def room(self, n: object) -> str: raise NotImplementedError
    def general(self, stmt: str) -> Sequence[str]: raise NotImplementedError
    def put_string(self, k: int, v: str, slot: str, base: str, final: bool) -> Sequence[str]:
        raise NotImplementedError
    def put_run(self, i: int, size: int, stores: Callable[[str], List[str]]) -> Sequence[str]:
        raise NotImplementedError
    def put_direct(self, way: str, final: bool, k: int, v: str, slot: str,
                   e: lower.WireType, codec: str) -> Sequence[str]: raise NotImplementedError

    # ---- the statements, from the tables ------------------------------------------------

    def spell(self, op: str, f: plan.PlanField, **names: str) -> Optional[str]:
        w = f.wire
        way = "value" if w.is_value else DIRECT.get(w.helper, "codec")
        if way not in CALLS[op]:
            return None
        names.update(fc=self.struct_codec(w) if w.helper == "struct" else self.fcodec(f))
        if w.ref is not None:
            names.update(sc=self.scodec(w.ref))
        return self.wrap[op].replace("{call}", CALLS[op][way]).format(**names)

    def vput(self, f: plan.PlanField, p: str, base: str, v: str) -> str:
        if f.wire.is_value:
            return self.value_write(f.wire, p, base, v)
        return self.spell("vput", f, p=p, base=base, v=v) or ""

    def vget(self, f: plan.PlanField, p: str, cur: str) -> str:
        read = self.value_read(f.wire, p) if f.wire.is_value else ""
        return self.spell("vget", f, p=p, cur=cur, read=read) or ""

    def vcheck(self, f: plan.PlanField, p: str) -> Optional[str]:
        if f.wire.is_value:
            if f.helper != "decimal":
                return None
            return f"dev.fastwire.Reader.checkScale(r.u8({p} + {DECIMAL.scale_at})){self.end}"
        return self.spell("vcheck", f, p=p)

    def fput(self, f: plan.PlanField, v: str) -> str:
        return self.spell("fput", f, v=v) or ""

    def fget(self, f: plan.PlanField, cur: str) -> str:
        return self.spell("fget", f, cur=cur) or ""

    def fcheck(self, f: plan.PlanField) -> str:
        return self.spell("fcheck", f) or ""
