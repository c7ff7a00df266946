"""Ruby names, and the Scope a package is written in (its Printer, the model, options)."""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Dict, Iterator, List, Optional, Union

from ... import ir, lower
from ..common import naming
from ..options import Options
from ..printer import Printer

# Constants of Ruby's core a package's module must not replace.
CORE = frozenset("""
    Array BasicObject Binding Class Comparable Complex Data Dir Encoding Enumerable
    Enumerator Errno Exception FalseClass Fastwire Fiber File FileTest Float GC Hash IO
    Integer Kernel Marshal MatchData Math Method Module NilClass Numeric Object
    ObjectSpace Proc Process Random Range Rational Regexp Set Signal String Struct Symbol
    Thread Time TracePoint TrueClass UnboundMethod Warning JSON Socket BigDecimal
    SecureRandom Base64 Minitest""".split())

Ref = Union[ir.TypeRef, ir.StructType]  # a field's type, or the struct a walk starts at
# A guard clause: a line that leaves the method (or raises) under a condition.
_GUARD = re.compile(r"^\s*(raise|return|next|break|fail)\b.* (if|unless) ")
# How many fields one walk inlines at most (of the structs it holds, 3 levels deep).
INLINE_FIELDS = 16


def module_name(package: str) -> str:
    name = class_name(naming.pascal(package))
    return name + "_" if name in CORE else name


def class_name(name: str) -> str:
    return name[:1].upper() + name[1:]


def attr_name(name: str) -> str:
    """A field's accessor and keyword: a Ruby local-variable name, not reserved."""
    return naming.ident("ruby", name[:1].lower() + name[1:] if name[:1].isupper() else name)


def member_names(e: ir.EnumType) -> Dict[str, str]:
    """schema member name -> Ruby constant (upper case; clashes get a trailing _)."""
    out: Dict[str, str] = {}
    taken = set()
    for v in e.values:
        c = v.name.upper()
        if not c[:1].isalpha():
            c = "V" + c
        while c in taken:
            c += "_"
        taken.add(c)
        out[v.name] = c
    return out


def field_const(s: ir.StructType, f: ir.Field) -> str:
    """The codec constant of a field the runtime codes (F_<Struct>_<field>)."""
    return f"F_{s.name}_{f.name}"


class Scope:
    """One package being written: its Printer (2 spaces a level) and what it is drawn from."""

    def __init__(self, model: lower.WireModel, pkg: ir.Package, options: Options) -> None:
        self.schema, self.pkg, self.options, self.model = model.schema, pkg, options, model
        self.mod = module_name(pkg.name)
        self.p = Printer(indent=2)
        self.tags = 0  # locals of the structs a fast path inlines: pos, pos1, ...
        # Fields one walk (vok, vroot, fput, fget) may still inline: without a bound, a
        # struct holding k structs that each hold k more wrote k^3 copies (issue 37).
        self.inline_left = INLINE_FIELDS
        self.fp_vals: List[str] = []  # the final write's pending pack: values, format
        self.fp_fmt = ""
        self.guard = False  # the last line is a guard clause: a blank line follows it
        by_name = {s.qualified_name: s for s in pkg.structs}
        lowered = model.package(pkg.name)
        self.structs = [by_name[n] for n in lowered.emission_order]
        self.sent = [by_name[n] for n in lowered.sends]

    def out(self, *lines: str) -> None:
        """Lines as written (2 spaces a level) at the current level; "" is a blank line,
        as is a guard clause's next line unless it ends a block (RuboCop's layout)."""
        p = self.p
        pad = p.unit * p.level
        for line in lines:
            if not line:
                p.blank()
                self.guard = False
                continue
            if self.guard:
                word = line.lstrip()
                if word != "end" and word != "else" and not word.startswith("elsif "):
                    p.lines.append("")
            p.lines.append(pad + line)
            self.guard = (" if " in line or " unless " in line) and _GUARD.match(line) is not None

    @contextmanager
    def block(self, *head: str) -> Iterator[None]:
        """`head`, what is printed inside one level in, then `end`."""
        self.out(*head)
        self.p.indent()
        yield
        self.p.outdent()
        self.out("end")

    def qualify(self, package: Optional[str], name: str) -> str:
        return name if package in (None, self.pkg.name) else f"{module_name(package)}::{name}"

    def type_name(self, ref: Union[ir.TypeRef, ir.StructType]) -> str:
        return self.qualify(ref.package, class_name(ref.name))

    def inlinable(self, ref: Ref, chain: List[str]) -> Optional[ir.StructType]:
        """The struct a field refers to when a fast path may inline it: same package, not
        being walked (recursion), at most 3 levels deep, and in a walk (`chain`) while its
        allowance of inlined fields lasts. (A struct itself: the one a walk starts at.)"""
        if isinstance(ref, ir.StructType):
            return ref
        if ref.package not in (None, self.pkg.name) or len(chain) >= 3:
            return None
        t = self.schema.lookup(ref)
        if not isinstance(t, ir.StructType) or t.qualified_name in chain:
            return None
        if chain:
            if len(t.all_fields) > self.inline_left:
                return None
            self.inline_left -= len(t.all_fields)
        return t

    def tag(self) -> str:
        """The suffix of the next inlined struct's locals ("" for the first)."""
        self.tags += 1
        return str(self.tags - 1) if self.tags > 1 else ""

    def start_walk(self, tags: int) -> None:
        """A fast path starts: its locals from `tags`, the whole allowance of inlining."""
        self.tags = tags
        self.inline_left = INLINE_FIELDS
