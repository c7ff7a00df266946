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
"""

from __future__ import annotations

from typing import Dict

from ... import lower
from ..common import naming
from ..options import Options
from .module import Module


def generate(model: lower.WireModel, options: Options, flavor: str = "ts") -> Dict[str, str]:
    schema = model.schema
    out: Dict[str, str] = {}
    lang = "typescript" if flavor == "ts" else "javascript"
    for p in schema.packages:
        m = Module(schema, p, options, model, flavor)
        if flavor == "ts":
            out[naming.file_name(lang, p.name, "module")] = m.render()
        else:
            js, dts = m.render_js()
            out[naming.file_name(lang, p.name, "module")] = js
            out[naming.file_name(lang, p.name, "types")] = dts
    return out
