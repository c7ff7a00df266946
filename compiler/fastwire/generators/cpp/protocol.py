"""The protocol headers (--proto): `p_protocol.h` with Sender, Receiver, Proxy and Client
over the versioned format and the request/response traits of the package's messages, and
`p_final_protocol.h` (--final) with their Final* twins. What a package sends is the
model's `sends` (docs/schema-language.md, "Protocol"); the classes are the runtime's
templates (cpp/include/fastwire/protocol.h) over that list."""

from __future__ import annotations

from ... import ir
from ..printer import Printer
from .names import header, ident
from .types import Types

_TRAITS = """

    // $name$: $what$
    template <>
    struct message_traits<$t$> {
        static constexpr auto id = &$t$::$id$;
"""
_CLASS = """

class $prefix$$role$ : public fastwire::protocol::$base$<$fmt$, Messages> {
public:
    using fastwire::protocol::$base$<$fmt$, Messages>::$base$;
};
"""


def _traits(gen: Types, p: Printer, package: ir.Package, sends: list) -> None:
    """message_traits of the sent structs with a uuid [id]: the id member and, for a
    request, its response and rejects."""
    first = True
    for s in sends:
        f = s.id_field
        t = f.type if f is not None else None
        if t is None or t.container is not None or t.optional or t.value.name != "uuid" \
                or t.value.kind != "primitive":
            continue
        if first:
            p.blank()
            p.print("namespace fastwire {")
            p.print("namespace protocol {")
            first = False
        p.print(_TRAITS, name=s.name, what="request" if s.request else "message with an [id]",
                t=f"::{ident(package.name)}::{ident(s.name)}", id=ident(f.name))
        p.indent()
        if s.request:
            p.print("using response = $r$;", r=gen.qualified(s.response, "") if s.response is not None else "void")
            p.print("using rejects = type_list<$r$>;", r=", ".join(gen.qualified(r.type, "") for r in s.rejects))
        p.outdent()
        p.print("};")
    if not first:
        p.print("}  // namespace protocol")
        p.print("}  // namespace fastwire")


def protocol_header(gen: Types, package: ir.Package, final: bool) -> str:
    ns = ident(package.name)
    layout = gen.model.package(package.name)
    by_name = {s.qualified_name: s for s in package.structs}
    sends = [by_name[n] for n in layout.sends]
    includes = [[f'"{package.name}_protocol.h"']] if final else \
        [["<fastwire/protocol.h>"], [f'"{package.name}_models.h"']]
    p = header(gen.options, package, "_final_protocol.h" if final else "_protocol.h",
               f"// The {package.name} package's Sender/Receiver protocol, {'final' if final else 'versioned'} format.",
               *includes)
    if not final:
        _traits(gen, p, package, sends)
    p.blank()
    p.print("namespace $ns$ {", ns=ns)
    if not final:
        p.blank()
        what = "messages" if package.messages else "structs (the package declares no message)"
        p.print("// What this package sends and receives: its $what$, by type number.", what=what)
        for s in sends:
            p.print("//   $n$  $name$", n=s.type_number, name=s.name)
        for n in layout.unsendable:
            p.print("//   (left out: $name$, its number $n$ is taken)", name=by_name[n].name, n=by_name[n].type_number)
        p.print("using Messages = fastwire::protocol::type_list<$names$>;",
                names=", ".join(ident(s.name) for s in sends))
    for role in ("Sender", "Receiver", "Proxy", "Client"):
        p.print(_CLASS, prefix="Final" if final else "", role=role, base=role.lower(),
                fmt=f"fastwire::protocol::{'final' if final else 'versioned'}_format")
    p.print("}  // namespace $ns$", ns=ns)
    return p.text()
