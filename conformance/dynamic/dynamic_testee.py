"""The dynamic codec's conformance testee: answers the runner's requests with
fastwire_runtime.dynamic, driven only by IR JSON, without generated code.

    python3 conformance/dynamic/dynamic_testee.py IR_DIR

IR_DIR holds `<package>.ir.json` for the conformance schemas (`fastwire compile SCHEMAS
--emit ir-json -o IR_DIR`, the registry's `prepare`). The protocol is in
conformance/README.md; this is conformance/python/testee.py with the dynamic codec in place
of the generated modules.
"""

from __future__ import annotations

import glob
import os
import struct
import sys
from typing import Any, Dict, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

VERSIONED, FINAL, JSON = 1, 2, 3
OK, PARSE_ERROR, VERIFY_ERROR, SERIALIZE_ERROR, UNSUPPORTED, INTERNAL_ERROR = range(6)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.join(REPO, "python"))
    import fastwire_runtime as rt
    from fastwire_runtime import dynamic

    schemas = [dynamic.Schema.load(path)
               for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.ir.json")))]
    if not schemas:
        print(f"no IR JSON in {sys.argv[1]}", file=sys.stderr)
        return 2
    types: Dict[str, Tuple[Any, Any, Any]] = {}

    def resolve(name: str) -> Tuple[Any, Any, Any]:
        if name not in types:
            for s in schemas:
                if name in s.structs:
                    types[name] = (s.structs[name], s.model(name), s.final_model(name))
                    break
            else:
                raise KeyError(name)
        return types[name]

    def handle(request: bytes) -> Tuple[int, bytes]:
        version, fmt_in, fmt_out, name_len = struct.unpack_from("<BBBH", request)
        if version != 1:
            return UNSUPPORTED, f"protocol version {version}".encode()
        name = request[5:5 + name_len].decode()
        payload = request[5 + name_len:]
        try:
            codec, model, final = resolve(name)
        except KeyError:
            return UNSUPPORTED, f"unknown type {name}".encode()
        try:
            if fmt_in == JSON:
                value = codec.from_json(payload)
            elif fmt_in in (VERSIONED, FINAL):
                m = model if fmt_in == VERSIONED else final
                try:
                    m.validate(payload)
                except rt.DecodeError as err:
                    return VERIFY_ERROR, str(err).encode()
                value = m.deserialize(payload)
            else:
                return UNSUPPORTED, f"input format {fmt_in}".encode()
        except rt.DecodeError as err:
            return PARSE_ERROR, str(err).encode()
        try:
            if fmt_out == VERSIONED:
                return OK, model.serialize(value)
            if fmt_out == FINAL:
                return OK, final.serialize(value)
            if fmt_out == JSON:
                return OK, codec.dump_json(value).encode()
        except rt.EncodeError as err:
            return SERIALIZE_ERROR, str(err).encode()
        return UNSUPPORTED, f"output format {fmt_out}".encode()

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = stdin.read(4)
        if len(head) < 4:
            return 0  # the runner closed the pipe: done
        (size,) = struct.unpack("<I", head)
        request = stdin.read(size)
        try:
            status, payload = handle(request)
        except Exception as err:  # noqa: BLE001 - reported to the runner as a failure
            status, payload = INTERNAL_ERROR, f"{type(err).__name__}: {err}".encode()
        stdout.write(struct.pack("<IB", 1 + len(payload), status) + payload)
        stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
