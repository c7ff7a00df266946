"""The Ruby generator: one file per package, `<package>_fbe.rb`, on the `fastwire` gem
(ruby/), holding module `<Package>`:

- enums and flags as modules of Integer constants (unknown values are kept);
- one class per struct or message: accessors, keyword `initialize` with the schema's
  defaults, its fields as the codecs see them (equality, `<=>` with `[key]` fields,
  `to_s` and JSON come from the runtime's StructCodec#define);
- one codec per type (`E_<Enum>`, `S_<Struct>`) with its field table from the lowered
  wire model (the runtime walks it: older versions, errors) and straight-line fast
  paths (vput, vget, vok; fput, fget, fok);
- `<Struct>Model`, `<Struct>FinalModel`; with --proto: Sender, Receiver, Proxy, Client.

Modules: names (names, the Scope), types (literals, type tables), structs, versioned,
final.
"""

from __future__ import annotations

from typing import Dict

from ... import lower
from ..common import naming
from ..options import Options
from .names import Scope
from .structs import render

__all__ = ["generate"]


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    return {naming.file_name("ruby", p.name, "module"): render(Scope(model, p, options))
            for p in model.schema.packages}
