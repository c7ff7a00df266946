"""The Python generator: a module `<package>_fbe.py` per package on `fastwire_runtime`,
importing each other as siblings. It holds enums, a class per struct, its codec's
straight-line functions over precompiled `struct.Struct` layouts (the rest in the runtime),
root models and, with --proto, the Sender and Receiver.

Each module a class over the one before: types (names, the type table), structs
(defaults, enums, classes), versioned and final (codecs from the plan's steps), protocol
(codec tables, models, protocol); header renders the imports.
"""

from __future__ import annotations

import dataclasses
from typing import Dict

from ... import ir, lower
from ..common import naming
from ..options import Options
from .header import header_text
from .protocol import Protocol

__all__ = ["generate"]


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    if options.indent <= 0 and not options.tabs:  # Python needs indentation: 0 means 4
        options = dataclasses.replace(options, indent=4, tabs=False)
    files = {}
    for package in model.schema.packages:
        module = Protocol(model, package, options)
        structs = module.ordered_structs()
        for t in package.types:
            if isinstance(t, ir.EnumType):
                module.emit_enum(t)
        for s in structs:
            module.emit_class(s)
        module.emit_codecs(structs)
        for s in structs:
            module.emit_struct_codec(s)
        module.emit_models()
        if options.proto:
            module.emit_protocol()
        files[naming.file_name("python", package.name, "module")] = (
            header_text(package, options, module.std) + "\n" + module.p.text())
    return files
