"""The JavaScript generator: the TypeScript generator's modules without types, each with
a `.d.ts` beside it (see generators/typescript)."""

from __future__ import annotations

from typing import Dict

from ...lower import WireModel
from ..options import Options
from ..typescript import generate as _generate


def generate(model: WireModel, options: Options) -> Dict[str, str]:
    return _generate(model, options, flavor="js")
