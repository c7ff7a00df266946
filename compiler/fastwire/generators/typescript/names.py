"""The Scope one package's module is written in: the compiled model, the package and the
options, and the names the module gives to the schema's types and fields."""

from __future__ import annotations

from typing import List

from ... import ir, lower
from ..common import naming
from ..options import Options

LANG = "typescript"
RUNTIME = "@fastwire/runtime"


class Scope:
    def __init__(self, model: lower.WireModel, pkg: ir.Package, options: Options) -> None:
        self.model = model
        self.schema = model.schema
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

    def prop(self, field_name: str) -> str:
        return naming.ident(LANG, field_name)

    def structs(self) -> List[ir.StructType]:
        """The package's structs in the order they are emitted."""
        by = {s.qualified_name: s for s in self.pkg.structs}
        return [by[q] for q in self.layout.emission_order]


def typed(mode: str, text: str) -> str:
    """`text` (a type annotation) in TypeScript, nothing in JavaScript."""
    return text if mode == "ts" else ""
