"""The Python generator: a module `<package>_fbe.py` per package (the suffix keeps a package
`json` from hiding a module) on the `fastwire_runtime` package; modules import each other
as siblings (`import proto_fbe as _proto`), in a Python package or side by side.

A module holds enums (`enum.IntEnum`, `enum.IntFlag`); a class per struct (`__slots__`,
`__init__` with the schema's defaults, equality, hashing and ordering by the [key] fields,
`__repr__` as C++ prints, JSON with --json); its codec's straight-line functions over
precompiled `struct.Struct` layouts (docs/performance/python.md), the generic rest in the
runtime; `<Struct>Model` and `<Struct>FinalModel`; with --proto the Sender and Receiver.

Modules, each a class over the one before: types (names, and the type table by the
plan's helpers), structs (defaults, enums, classes), versioned and final (the codecs from
the plan's steps), protocol (the codec tables, root models, protocol); header renders
the imports.
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
