"""The protocol headers (--proto): `p_protocol.h` with Sender, Receiver, Proxy and Client
over the versioned format and the request/response traits of the package's messages, and
`p_final_protocol.h` (--final) with their Final* twins. What a package sends is the
model's `sends` (docs/schema-language.md, "Protocol"); the classes are the runtime's
templates (cpp/include/fastwire/protocol.h) over that list."""

from __future__ import annotations

from typing import List

from ... import ir
from ..printer import Printer
from .names import ident, preamble
from .types import Types


def _uuid_id(s: ir.StructType):
    f = s.id_field
    if f is None:
        return None
    t = f.type
    if t.container is None and not t.optional and t.value.kind == "primitive" and t.value.name == "uuid":
        return f
    return None


def _traits(gen: Types, p: Printer, package: ir.Package, types: List[ir.StructType]) -> None:
    ns = ident(package.name)
    entries = []
    for s in types:
        idf = _uuid_id(s)
        if idf is None:
            continue
        full = f"::{ns}::{ident(s.name)}"
        lines = [f"static constexpr auto id = &{full}::{ident(idf.name)};"]
        if s.request:
            if s.response is not None:
                lines.append(f"using response = {gen.qualified(s.response, '')};")
            else:
                lines.append("using response = void;")
            rejects = ", ".join(gen.qualified(r.type, "") for r in s.rejects)
            lines.append(f"using rejects = type_list<{rejects}>;")
        entries.append((full, s, lines))
    if not entries:
        return
    p.blank()
    p.print("namespace fastwire {")
    p.print("namespace protocol {")
    for full, s, lines in entries:
        p.blank()
        what = "request" if s.request else "message with an [id]"
        p.print("// $name$: $what$", name=s.name, what=what)
        p.print("template <>")
        with p.block("struct message_traits<$t$> {", "};", t=full):
            for line in lines:
                p.print(line)
    p.print("}  // namespace protocol")
    p.print("}  // namespace fastwire")


def protocol_header(gen: Types, package: ir.Package, final: bool) -> str:
    p = Printer(gen.options.indent, gen.options.tabs)
    ns = ident(package.name)
    layout = gen.model.package(package.name)
    by_name = {s.qualified_name: s for s in package.structs}
    kept = [by_name[n] for n in layout.sends]
    dropped = [by_name[n] for n in layout.unsendable]
    fmt = "fastwire::protocol::final_format" if final else "fastwire::protocol::versioned_format"
    prefix = "Final" if final else ""
    family = "final" if final else "versioned"
    name = f"{package.name}_final_protocol.h" if final else f"{package.name}_protocol.h"
    preamble(p, package, name, f"// The {package.name} package's Sender/Receiver protocol, "
                               f"{family} format.")
    p.blank()
    if final:
        p.print('#include "$name$_protocol.h"', name=package.name)
    else:
        p.print("#include <fastwire/protocol.h>")
        p.blank()
        p.print('#include "$name$_models.h"', name=package.name)
    if not final:
        _traits(gen, p, package, kept)
    p.blank()
    p.print("namespace $ns$ {", ns=ns)
    if not final:
        p.blank()
        what = "messages" if package.messages else "structs (the package declares no message)"
        p.print("// What this package sends and receives: its $what$, by type number.", what=what)
        for s in kept:
            p.print("//   $n$  $name$", n=s.type_number, name=s.name)
        for s in dropped:
            p.print("//   (left out: $name$, its number $n$ is taken)", name=s.name, n=s.type_number)
        names = ", ".join(ident(s.name) for s in kept)
        p.print("using Messages = fastwire::protocol::type_list<$names$>;", names=names)
    for role, base in (("Sender", "sender"), ("Receiver", "receiver"), ("Proxy", "proxy"),
                       ("Client", "client")):
        p.blank()
        with p.block("class $prefix$$role$ : public fastwire::protocol::$base$<$fmt$, Messages> {",
                     "};", prefix=prefix, role=role, base=base, fmt=fmt):
            p.outdent()
            p.print("public:")
            p.indent()
            p.print("using fastwire::protocol::$base$<$fmt$, Messages>::$base$;", base=base,
                    fmt=fmt)
    p.print("}  // namespace $ns$", ns=ns)
    return p.text()
