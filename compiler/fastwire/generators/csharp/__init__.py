"""The C# generator: one file per package, `<package>.cs`, on the runtime in csharp/Fastwire
(C# 6, as Mono's mcs accepts it; csharp/README.md).

    fastwire compile schemas/proto.fbe --lang csharp --final --json --proto -o gen/

A package becomes the namespace `<domain>.<package>` (its enums and classes: structs.py)
and `<...>.Fbe`: a codec per struct (`Fbe.Account.Instance`; structs.py, versioned.py,
final.py rendering the plan's steps), the enum codecs, the struct list and, with --proto,
the protocol (protocol.py); on names.py and types.py (tables by runtime helper).
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
    return {naming.file_name("csharp", p.name, "module"): render(Scope(model, p, options))
            for p in model.schema.packages}
