"""The protocol's content, Java's and Kotlin's: what a package sends and receives (from
the lowered model, PackageLayout.sends), its requests and the answers a client awaits."""

from __future__ import annotations

from typing import Dict, List, Tuple

from ... import ir, lower

# A request, its response and the rejects its sender receives.
Request = Tuple[ir.StructType, ir.TypeRef, List[ir.TypeRef]]


def sent_types(model: lower.WireModel, pkg: ir.Package) -> List[ir.StructType]:
    out = []
    for qname in model.package(pkg.name).sends:
        _, _, name = qname.partition(".")
        t = pkg.type(name)
        assert isinstance(t, ir.StructType)
        out.append(t)
    return out


def requests(pkg: ir.Package, sends: List[ir.StructType]) -> List[Request]:
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


def answers(pkg: ir.Package, reqs: List[Request]) -> List[Tuple[str, str, str]]:
    """What a client awaits: (a response's or reject's name, `resolve` or `reject`, the
    name of its [id] field)."""
    how: Dict[str, str] = {}
    for _, resp, rejects in reqs:
        how[resp.name] = "resolve"
        for r in rejects:
            how.setdefault(r.name, "reject")
    out = []
    for name, verb in how.items():
        t = pkg.type(name)
        assert isinstance(t, ir.StructType) and t.id_field is not None
        out.append((name, verb, t.id_field.name))
    return out
