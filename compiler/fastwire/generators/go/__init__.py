"""The Go generator: one Go package per FBE package, on the runtime module in go/.

    fastwire compile schemas/proto.fbe --lang go --final --json --proto \\
        --go-import example.com/app/gen -o gen/
    fastwire --go --input=schemas/proto.fbe --output=gen/           # fbec's flags

Each FBE package `p` becomes the Go package `p` in `<output>/p/p.fbe.go`, imported as
`<go-import>/p`: the CLI's --go-import, else the compiled schema's `option go_import =
"PATH"` (as protoc's go_package; docs/schema-language.md#options), else `fastwire.gen`.
A package holds:

- enums and flags as named integer types with constants `<Type><Value>` and `String()`
  (flags also `Has`);
- one exported struct per struct or message, `New<T>()` with the schema's defaults;
  optionals are pointers, arrays `[N]T`, vectors/lists/sets slices (sets kept in
  ascending order), maps and hashes Go maps (a struct or bytes key: a slice of
  `fastwire.Pair`);
- the versioned format: `MarshalFBE(buf) []byte`, `UnmarshalFBE(data) error`,
  `Verify<T>(data) error`; with --final `MarshalFinal`, `UnmarshalFinal`,
  `Verify<T>Final`; with --json `MarshalJSON`, `UnmarshalJSON`, `AppendJSON`;
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

Modules: names (the Scope a package is written in), types (Go types and the tables keyed
by helper), literals (defaults), structs, versioned, final, json, protocol. Each renders
the lowered model's codec plan (fastwire.lower, fastwire.plan); nothing of the layout is
computed here. The output is gofmt-clean (tabs; struct fields aligned as gofmt aligns
them; no other aligned columns).
"""

from __future__ import annotations

from typing import Dict

from ... import ir, lower
from ..common import naming
from ..options import Options
from .final import emit_final
from .json import emit_json
from .names import Scope, go_package
from .protocol import emit_protocol
from .structs import emit_enum, emit_struct, header
from .versioned import emit_versioned

__all__ = ["generate"]


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    out = {}
    for pkg in model.schema.packages:
        g = Scope(model, pkg, options)
        by_name = {s.qualified_name: s for s in pkg.structs}
        for t in pkg.types:
            if isinstance(t, ir.EnumType):
                emit_enum(g, t)
        for name in model.package(pkg.name).emission_order:
            s, layout = by_name[name], model.struct(name)
            emit_struct(g, s, layout)
            emit_versioned(g, s.name, layout)
            if options.final:
                emit_final(g, s.name, layout)
            if options.json:
                emit_json(g, s.name, layout)
        if options.proto:
            emit_protocol(g)
        body = g.p.lines
        text = "\n".join(header(g, "\n".join(body)) + body)
        while "\n\n\n" in text:
            text = text.replace("\n\n\n", "\n\n")
        out[f"{go_package(pkg.name)}/{naming.file_name('go', pkg.name, 'module')}"] = \
            text.rstrip("\n") + "\n"
    return out
