"""The Go generator: one Go package per FBE package, on the runtime module in go/.

    fastwire compile schemas/proto.fbe --lang go --final --json --proto \\
        --go-import example.com/app/gen -o gen/

FBE package `p` is Go package `p` in `<output>/p/p.fbe.go`, imported as `<go-import>/p`
(--go-import, else the root schema's `option go_import`, else `fastwire.gen`). It holds enums
and flags (named integers with constants `<Type><Value>`, `String()`, flags' `Has`); a struct
per struct or message with `New<T>()` (optionals pointers, arrays `[N]T`, sequences slices,
sets sorted, maps Go maps or, keyed by a struct or bytes, `[]fastwire.Pair`); MarshalFBE,
UnmarshalFBE, Verify<T>; with --final MarshalFinal, UnmarshalFinal, Verify<T>Final; with
--json MarshalJSON, UnmarshalJSON, AppendJSON; with --proto Receiver and Request<T>.

Modules: names (the Scope a package is written in), types (Go types, the tables keyed by
helper, shared statement shapes), literals (defaults), structs, versioned, final, json,
protocol. They render the lowered model's codec plan (fastwire.lower, fastwire.plan). The
output is gofmt-clean.
"""

from __future__ import annotations

import re
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
        text = re.sub(r"\n\n\n+", "\n\n", "\n".join(header(g, "\n".join(body)) + body))
        out[f"{go_package(pkg.name)}/{naming.file_name('go', pkg.name, 'module')}"] = \
            text.rstrip("\n") + "\n"
    return out
