"""The C++17 generator, on the header-only runtime in cpp/include/fastwire. Per package
`p`: the domain header `p.h`, the models header `p_models.h` and with --json `p_json.h`
(structs.py); with --proto the protocol headers (protocol.py). Names, types, defaults and
the preamble: names.py."""

from __future__ import annotations

from typing import Dict

from ... import lower
from ..options import Options
from .protocol import protocol_header
from .structs import Structs


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    gen = Structs(model, options)
    out: Dict[str, str] = {}
    for package in model.schema.packages:
        out[f"{package.name}.h"] = gen.domain_header(package)
        out[f"{package.name}_models.h"] = gen.models_header(package)
        if options.json:
            out[f"{package.name}_json.h"] = gen.json_header(package)
        if options.proto:
            out[f"{package.name}_protocol.h"] = protocol_header(gen, package, final=False)
            if options.final:
                out[f"{package.name}_final_protocol.h"] = protocol_header(gen, package, final=True)
    return out
