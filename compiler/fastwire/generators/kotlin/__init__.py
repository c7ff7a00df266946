"""The Kotlin generator: one Kotlin package per FBE package, data classes over the same
JVM runtime as Java (`dev.fastwire`, java/runtime).

    fastwire compile schemas/proto.fbe --lang kotlin --final --json --proto -o gen/
    fastwire --kotlin --input=schemas/proto.fbe --output=gen/          # fbec's flags

A class per enum or flags type (enums.py), a data class per struct (structs.py, its Codec
in codec.py over the shared walks of generators/jvm), the `<Package>Schema` object, and
with --proto the protocol (protocol.py). See java/README.md."""

from __future__ import annotations

import functools
from typing import Dict

from ... import ir, lower
from ..jvm.names import folder, schema_class
from ..options import Options
from .enums import enum
from .protocol import protocol_files
from .schema import header, schema_object
from .structs import struct


def generate(model: lower.WireModel, options: Options) -> Dict[str, str]:
    files: Dict[str, str] = {}
    for pkg in model.schema.packages:
        where = folder(pkg)
        for t in pkg.types:
            p = header(pkg, options)
            if isinstance(t, ir.EnumType):
                enum(p, t)
            else:
                assert isinstance(t, ir.StructType)
                struct(p, model, pkg, t)
            files[f"{where}/{t.name}.kt"] = p.text()
        p = header(pkg, options)
        schema_object(p, pkg)
        files[f"{where}/{schema_class(pkg)}.kt"] = p.text()
        if options.proto:
            files.update(protocol_files(model, pkg, functools.partial(header, pkg, options)))
    return files
