"""Go names: packages, exported identifiers, and the Scope one Go package is written in
(its Printer, the packages it refers to, numbered temporaries)."""

from __future__ import annotations

from typing import List, Set

from ... import ir, lower
from ..common import naming
from ..options import Options
from ..printer import Printer

DEFAULT_IMPORT = "fastwire.gen"
RUNTIME = "github.com/fastwire/fastwire/go"


def go_package(name: str) -> str:
    return naming.ident("go", name.replace(".", "_").lower())


def exported(name: str) -> str:
    p = naming.pascal(name)
    return p[:1].upper() + p[1:]


class Scope:
    """One FBE package being written as a Go package."""

    def __init__(self, model: lower.WireModel, pkg: ir.Package, options: Options) -> None:
        self.model, self.schema, self.pkg, self.options = model, model.schema, pkg, options
        self.p = Printer(tabs=True)
        self.tmp = 0
        self.imports_used: Set[str] = set()
        self.vconst: List[int] = []  # versioned fast walk: constant charges pending
        self.ffast = False  # final: printing the fast walk
        # --go-import, else the compiled (root) schema's `option go_import`: every package
        # of one compilation is written under the same output folder.
        root = next((p for p in self.schema.packages if p.name == self.schema.root), None)
        self.prefix = (options.go_import or (root.option("go_import") if root else None)
                       or DEFAULT_IMPORT)

    def var(self, stem: str) -> str:
        self.tmp += 1
        return f"{stem}{self.tmp}"

    def qual(self, qualified: str, fmt: str = "{name}") -> str:
        """A struct, enum or flags type (or a function named by fmt) as Go names it here."""
        pkg, _, name = qualified.rpartition(".")
        name = fmt.format(name=name)
        if pkg == self.pkg.name:
            return name
        self.imports_used.add(pkg)
        return f"{go_package(pkg)}.{name}"

    def layout(self, qualified: str) -> lower.StructLayout:
        return self.model.struct(qualified)
