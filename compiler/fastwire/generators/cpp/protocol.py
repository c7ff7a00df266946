"""--proto: `p_protocol.h`, the runtime's Sender, Receiver, Proxy and Client templates
over the model's `sends` and the message traits of those with a uuid [id]; with --final,
`p_final_protocol.h`, their Final* twins."""

from __future__ import annotations

from ... import ir
from ..printer import Printer
from .names import header, ident
from .structs import Structs

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


def _traits(gen: Structs, p: Printer, package: ir.Package, sends: list) -> None:
    """message_traits of the sent structs with a uuid [id]: the id member and, for a
    request, its response and rejects."""
    ided = [(s, f) for s in sends if (f := s.id_field) is not None
            and gen.model.struct(s.qualified_name).field(f.name).wire.helper == "uuid"]
    if not ided:
        return
    p.blank()
    p.print("namespace fastwire {\nnamespace protocol {")
    for s, f in ided:
        p.print(_TRAITS, name=s.name, what="request" if s.request else "message with an [id]",
                t=f"::{ident(package.name)}::{ident(s.name)}", id=ident(f.name))
        if s.request:
            p.value(f"    using response = {gen.qualified(s.response, '') if s.response is not None else 'void'};")
            p.value(f"    using rejects = type_list<{', '.join(gen.qualified(r.type, '') for r in s.rejects)}>;")
        p.print("};")
    p.print("}  // namespace protocol\n}  // namespace fastwire")


def protocol_header(gen: Structs, package: ir.Package, final: bool) -> str:
    ns = ident(package.name)
    layout = gen.model.package(package.name)
    sends = gen.model.structs_named(layout.sends)
    fmt = "final" if final else "versioned"
    includes = [[f'"{package.name}_protocol.h"']] if final else \
        [["<fastwire/protocol.h>"], [f'"{package.name}_models.h"']]
    p = header(gen.options, package, f"{'final_' if final else ''}protocol",
               f"// The {package.name} package's Sender/Receiver protocol, {fmt} format.", *includes)
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
        for s in gen.model.structs_named(layout.unsendable):
            p.print("//   (left out: $name$, its number $n$ is taken)", name=s.name, n=s.type_number)
        p.print("using Messages = fastwire::protocol::type_list<$names$>;",
                names=", ".join(ident(s.name) for s in sends))
    for role in ("Sender", "Receiver", "Proxy", "Client"):
        p.print(_CLASS, prefix="Final" if final else "", role=role, base=role.lower(),
                fmt=f"fastwire::protocol::{fmt}_format")
    p.print("}  // namespace $ns$", ns=ns)
    return p.text()
