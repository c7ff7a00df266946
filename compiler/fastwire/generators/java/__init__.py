"""The Java generator: one Java package per FBE package (the schema's `domain` as the
package prefix, as FBE does), on the `dev.fastwire` runtime (java/runtime).

    fastwire compile schemas/proto.fbe --lang java --final --json --proto -o gen/
    fastwire --java --input=schemas/proto.fbe --output=gen/          # fbec's flags

Each package `p` with domain `d` becomes the Java package `d.p` (folder `d/p/`): a class per
enum or flags type (enums.py), per struct (structs.py, its Codec in codec.py over the shared
walks of generators/jvm), `<Package>Schema` listing the struct codecs by name, and with
--proto the protocol (protocol.py). See java/README.md."""

from __future__ import annotations

import functools
from typing import Dict

from ... import ir, lower
from ..jvm.names import folder
from ..jvm.names import schema_class as schema_name
from ..options import Options
from .enums import enum
from .protocol import protocol_files
from .schema import header, schema_class
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
                struct(p, model, t)
            files[f"{where}/{t.name}.java"] = p.text()
        p = header(pkg, options)
        schema_class(p, pkg)
        files[f"{where}/{schema_name(pkg)}.java"] = p.text()
        if options.proto:
            files.update(protocol_files(model, pkg, functools.partial(header, pkg, options)))
    return files
