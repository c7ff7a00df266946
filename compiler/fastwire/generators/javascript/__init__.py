"""The JavaScript generator: the TypeScript generator's modules without types, each with
a `.d.ts` beside it (see generators/typescript)."""

from __future__ import annotations

from typing import Dict

from ... import ir
from ..options import Options
from ..typescript import generate as _generate


def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
    return _generate(schema, options, flavor="js")
