"""The protocol's content, Java's and Kotlin's: what a package sends and receives (from
the lowered model, PackageLayout.sends), its requests and the answers a client awaits."""

from __future__ import annotations

from typing import List

from ... import ir, lower


def sent_types(model: lower.WireModel, pkg: ir.Package) -> List[ir.StructType]:
    out = []
    for qname in model.package(pkg.name).sends:
        _, _, name = qname.partition(".")
        t = pkg.type(name)
        assert isinstance(t, ir.StructType)
        out.append(t)
    return out


def requests(pkg: ir.Package, sends: List[ir.StructType]):
    """(request, response, [rejects]) of the package's requests whose answers it receives."""
    names = {s.qualified_name for s in sends}
    out = []
    for s in sends:
        if not s.request or s.response is None or s.id_field is None:
            continue
        if s.response.qualified_name not in names:
            continue
        rejects = [r.type for r in s.rejects if r.type.qualified_name in names]
        out.append((s, s.response, rejects))
    return out
