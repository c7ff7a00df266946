"""The TypeScript generator (and, with `flavor="js"`, the JavaScript one): one ES module
per package, over the `@fastwire/runtime` npm package (ts/ in this repository).

    fastwire compile schemas/proto.fbe --lang typescript --final --json --proto -o gen/
    fastwire compile schemas/proto.fbe --lang javascript -o gen/     # .js and .d.ts

A module holds, per package: enums and flags as frozen objects of their members with a
type alias of the underlying number (`bigint` for 64-bit bases; values without a name
are kept); one class per struct (fields with the schema's defaults, `equals`, and with
--json `toJson` / `fromJson`); its codec (`<Struct>Codec`, the field table over the
runtime's codecs, every offset and size taken from the lowered model); `<Struct>Model`
(versioned) and with --final `<Struct>FinalModel`; with --proto the package's Sender and
Receiver. The JavaScript flavor writes the same module without types and a `.d.ts`
beside it (the compiler stays standard-library Python: no tsc at generation time).

Modules: names (the Scope a package is written in), types (TypeScript types, runtime
codecs and DataView accessors keyed by helper), literals (defaults), structs (enums,
classes, codecs, field tables, models), versioned and final (each struct's hot paths
from its codec plan), protocol, and prettier (long lines laid out as prettier does).
"""

from __future__ import annotations

from typing import Dict

from ... import ir, lower
from ..common import naming
from ..options import Options
from ..printer import Printer
from .final import emit_final
from .names import Scope
from .prettier import finish
from .protocol import emit_protocol
from .structs import emit_class, emit_codecs, emit_enum, emit_field_table, emit_models, header
from .versioned import emit_versioned

__all__ = ["generate"]

# flavor -> (language, (mode, file) per file it writes)
FLAVORS = {"ts": ("typescript", (("ts", "module"),)),
           "js": ("javascript", (("js", "module"), ("dts", "types")))}


def generate(model: lower.WireModel, options: Options, flavor: str = "ts") -> Dict[str, str]:
    out: Dict[str, str] = {}
    lang, files = FLAVORS[flavor]
    for pkg in model.schema.packages:
        g = Scope(model, pkg, options)
        for mode, part in files:
            p = Printer(indent=options.indent or 2, tabs=options.tabs)
            header(g, p)
            for t in pkg.types:
                if isinstance(t, ir.EnumType):
                    emit_enum(g, p, t, mode)
            for s in g.structs():
                emit_class(g, p, s, mode)
            emit_codecs(g, p, mode)
            for s in g.structs() if mode != "dts" else ():
                emit_field_table(g, p, s)
                emit_versioned(g, p, s, mode)
                if options.final:
                    emit_final(g, p, s, mode)
            for s in g.structs():
                emit_models(g, p, s, mode)
            if options.proto:
                emit_protocol(g, p, mode)
            out[naming.file_name(lang, pkg.name, part)] = finish(p)
    return out
