"""The TypeScript generator (and, with `flavor="js"`, the JavaScript one): one ES module
per package over the `@fastwire/runtime` npm package (ts/ in this repository); the
JavaScript flavor writes it without types, with a `.d.ts` beside it.

A module holds enums and flags (frozen objects of their members, a type alias of the
underlying number), a class per struct, its codec (`<Struct>Codec`: the field table
over the runtime's codecs, and hot paths rendered from the codec plan), `<Struct>Model`
and with --final `<Struct>FinalModel`, and with --proto the Sender and Receiver.

Modules: names (the Scope), types (types, codecs and DataView accessors), literals
(defaults), structs (enums, classes, field tables, models), versioned and final (hot
paths), protocol, prettier (long lines laid out as prettier does).
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
