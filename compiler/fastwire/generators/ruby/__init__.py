"""The Ruby generator: one file per package, on the `fastwire` gem (ruby/).

    fastwire compile schemas/proto.fbe --lang ruby --final --json --proto -o gen/
    fastwire --ruby --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package becomes `<package>_fbe.rb` holding module `<Package>` (`proto` -> `Proto`):

- enums and flags as modules of Integer constants (`Proto::OrderSide::SELL`); values
  are plain Integers, so unknown values are kept;
- one class per struct or message: attribute accessors, `initialize` with keyword
  arguments and the schema's defaults, `==`/`eql?`/`hash` (and `<=>` with `[key]` fields)
  by the shared equality rule, `to_s`/`inspect` as the C++ printout, `to_json` /
  `from_json`;
- one codec per type (`E_<Enum>`, `S_<Struct>`): the field table from the lowered wire
  model (every slot offset, the body size, the body's pack format and the final
  format's runs of fixed-size fields); the runtime walks it;
- `<Struct>Model` (versioned) and `<Struct>FinalModel` (with --final);
- with --proto: `Sender`, `Receiver` (and `FinalSender`, `FinalReceiver` with --final).

Modules: names (Scope: the Printer, the model), literals, types (tables by helper),
structs, versioned and final (fast paths, by shape through tables), protocol.
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
