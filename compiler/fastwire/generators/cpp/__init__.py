"""The C++17 generator, on the header-only runtime in cpp/include/fastwire. Per package
`p`: the domain header `p.h` (structs.py), the models header `p_models.h` (models.py), with
--proto the protocol headers (protocol.py), and with --json `p_json.h`, which only includes
the runtime's generic JSON writer and reader (json.h, json_reader.h): they follow each
struct's struct_schema. Names and the preamble are in names.py, types and defaults in
types.py."""

from __future__ import annotations

from typing import Dict

from ... import ir, lower
from ..options import Options
from .models import Models
from .names import header
from .protocol import protocol_header

_JSON_ABOUT = """\
// JSON for the {name} package's types:
//
//   std::string text = fastwire::json::to_json(value);        // compact; (value, true): pretty
//   fastwire::json::reader reader;                            // reuse it
//   fastwire::json::result r = reader.read(text, value);      // r.message() on error
//
// The mapping is generic (cpp/include/fastwire/json.h): it follows each struct's
// fastwire::struct_schema, so nothing per type is needed here."""


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    gen = Models(model, options)
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


def json_header(options: Options, package: ir.Package) -> str:
    return header(options, package, "_json.h", _JSON_ABOUT.format(name=package.name),
                  ["<fastwire/json.h>", "<fastwire/json_reader.h>"],
                  [f'"{package.name}.h"', *(f'"{imp}_json.h"' for imp in package.imports)]).text()
