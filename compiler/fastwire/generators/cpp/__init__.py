"""The C++17 generator, on the header-only runtime in cpp/include/fastwire. Per package
`p`: the domain header `p.h`, the models header `p_models.h` and with --json `p_json.h`
(structs.py); with --proto the protocol headers (protocol.py). Names, types, defaults and
the preamble: names.py."""

from __future__ import annotations

from typing import Callable, Dict

from ... import ir, lower
from ..common import naming
from ..options import Options
from .protocol import protocol_header
from .structs import Structs


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    gen = Structs(model, options)
    # Each file's role (its name: common/naming.py) and what renders it for a package.
    roles: Dict[str, Callable[[ir.Package], str]] = {"domain": gen.domain_header, "models": gen.models_header}
    if options.json:
        roles["json"] = gen.json_header
    if options.proto:
        roles["protocol"] = lambda package: protocol_header(gen, package, final=False)
        if options.final:
            roles["final_protocol"] = lambda package: protocol_header(gen, package, final=True)
    return {naming.file_name("cpp", package.name, role): render(package)
            for package in model.schema.packages for role, render in roles.items()}
