"""The C++17 generator, on the header-only runtime in cpp/include/fastwire. Per package
`p`: the domain header `p.h` (structs.py), the models header `p_models.h` (models.py), and
with --json / --proto the JSON and protocol headers (json.py, protocol.py). Names and the
shared preamble are in names.py, the type table in types.py, defaults in literals.py."""

from __future__ import annotations

from typing import Dict

from ... import lower
from ..options import Options
from .json import json_header
from .models import Models
from .protocol import protocol_header


class CppGenerator(Models):
    """Every part of the C++ generator over one lowered schema."""


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    gen = CppGenerator(model, options)
    out: Dict[str, str] = {}
    for package in model.schema.packages:
        out[f"{package.name}.h"] = gen.domain_header(package)
        out[f"{package.name}_models.h"] = gen.models_header(package)
        if options.json:
            out[f"{package.name}_json.h"] = json_header(options, package)
        if options.proto:
            out[f"{package.name}_protocol.h"] = protocol_header(gen, package, final=False)
            if options.final:
                out[f"{package.name}_final_protocol.h"] = protocol_header(gen, package, final=True)
    return out
