"""The Scope one package's module is written in (the model, package, options and names),
and how its declarations and templates are printed."""

from __future__ import annotations

import re
import textwrap
from contextlib import contextmanager
from functools import lru_cache
from typing import Dict, Iterator, List, Tuple

from ... import ir, lower
from ..common import naming
from ..options import Options
from ..printer import Printer

LANG = "typescript"
RUNTIME = "@fastwire/runtime"
_TERM = re.compile(r"\$(\w+)\$")


class Scope:
    def __init__(self, model: lower.WireModel, pkg: ir.Package, options: Options) -> None:
        self.model = model
        self.pkg = pkg
        self.options = options
        self.layout = model.package(pkg.name)

    def local(self, name: str) -> str:
        return naming.ident(LANG, name)

    def qual(self, package: str, name: str) -> str:
        n = self.local(name)
        return n if package == self.pkg.name else f"${package}.{n}"

    def ref_name(self, ref: ir.TypeRef) -> str:
        assert ref.package is not None
        return self.qual(ref.package, ref.name)

    def wire_ref(self, qualified: str) -> str:
        package, _, name = qualified.rpartition(".")
        return self.qual(package, name)

    prop = local  # a field's property

    def structs(self) -> List[ir.StructType]:
        """The package's structs in the order they are emitted."""
        by = {s.qualified_name: s for s in self.pkg.structs}
        return [by[q] for q in self.layout.emission_order]


def typed(mode: str, text: str) -> str:
    """`text` (a type annotation) in TypeScript code, nothing in JavaScript."""
    return text if mode == "ts" else ""


def export(mode: str) -> str:
    """How a module's declaration starts."""
    return "export declare " if mode == "dts" else "export "


def declared(mode: str, text: str) -> str:
    """`text` (a type annotation) in TypeScript and a .d.ts, nothing in JavaScript."""
    return "" if mode == "js" else text


def method(p: Printer, mode: str, sig: str, ret: str, body: str, doc: str = "") -> None:
    """A method (or constructor) with its doc comment; in a .d.ts its declaration."""
    if doc:
        p.value(f"/** {doc} */")
    if mode == "dts":
        p.value(f"{sig}{ret};")
        return
    with block(p, sig + typed(mode, ret) + " {", "}"):
        p.value(body)


@contextmanager
def block(p: Printer, head: str, tail: str) -> Iterator[None]:
    """Printer.block without templates."""
    p.value(head)
    p.indent()
    yield
    p.outdent()
    p.value(tail)


@lru_cache(maxsize=None)
def _format(template: str) -> Tuple[str, Dict[str, int]]:
    """A Printer template as a str.format string, and the column of each term in it."""
    text = textwrap.dedent(template).strip("\n")
    columns = {m.group(1): m.start() for line in text.split("\n") for m in _TERM.finditer(line)}
    return _TERM.sub(r"{\1}", text.replace("{", "{{").replace("}", "}}")), columns


def emit(p: Printer, template: str, **terms: object) -> None:
    """`template` printed as Printer.print would (by str.format: faster), without the lines
    its terms leave empty."""
    text, columns = _format(template)
    for name, column in columns.items():
        value = str(terms[name])
        if "\n" in value:
            terms[name] = value.replace("\n", "\n" + " " * column)
    filled = text.format_map(terms)
    if "\n" not in filled:  # most: one line
        p.value(filled)
        return
    start = len(p.lines)
    p.value(filled)
    p.lines[start:] = [line for line in p.lines[start:] if line]
