"""The Python generator: one module per package, on the `fastwire_runtime` package.

    fastwire compile schemas/proto.fbe --lang python --final --json --proto -o gen/
    fastwire --python --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package, the root and all it imports, becomes `<package>_fbe.py` (the suffix keeps a
package `json` from hiding a module); modules import each other as siblings
(`import proto_fbe as _proto`), in a Python package or side by side. A module holds:

- enums as `enum.IntEnum`, flags as `enum.IntFlag`;
- one class per struct or message: `__slots__`, annotations, `__init__` with the schema's
  defaults (utc / uuid1 / uuid4 and mutable values made per call), `__eq__`, `__hash__`
  and `__lt__` by the `[key]` fields (else `__eq__` by every field), `__repr__` as the C++
  output prints; `to_json()` / `from_json()` with --json;
- `<Struct>Model` (versioned) and, with --final, `<Struct>FinalModel`;
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

The hot paths are straight-line code over precompiled `struct.Struct` layouts
(docs/performance/python.md says how); everything generic lives in the runtime. See
python/README.md for the API.

The parts are modules named for what they render, each a class over the one before:
names, types (the type table by the plan's helper names), literals, structs (enums and
classes), versioned and final (the codecs, from the plan's steps), codecs, protocol;
header renders the imports. `generate` puts the parts in order.
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
