"""The Python conformance testee: answers the runner's requests on stdin/stdout.

    python3 conformance/python/testee.py GENERATED_DIR

GENERATED_DIR holds the modules `fastwire --python --final --json --proto` generated
for the conformance schemas (package `p` in `p_fbe.py`, see
compiler/fastwire/generators/common/naming.py). The protocol is in conformance/README.md: each request
names a type ("package.Struct"), an input format, a payload and an output format; the
answer is the payload converted, or the stage that rejected it.
"""

from __future__ import annotations

import importlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

VERSIONED, FINAL, JSON = 1, 2, 3
OK, PARSE_ERROR, VERIFY_ERROR, SERIALIZE_ERROR, UNSUPPORTED, INTERNAL_ERROR = range(6)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    sys.path[:0] = [sys.argv[1], os.path.join(REPO, "python")]
    import fastwire_runtime as rt

    types = {}

    def resolve(name: str):
        if name not in types:
            package, _, struct_name = name.partition(".")
            module = importlib.import_module(package + "_fbe")
            types[name] = (getattr(module, struct_name),
                           getattr(module, struct_name + "Model")(),
                           getattr(module, struct_name + "FinalModel")())
        return types[name]

    def handle(request: bytes):
        version, fmt_in, fmt_out, name_len = struct.unpack_from("<BBBH", request)
        if version != 1:
            return UNSUPPORTED, f"protocol version {version}".encode()
        name = request[5:5 + name_len].decode()
        payload = request[5 + name_len:]
        try:
            cls, model, final = resolve(name)
        except (ImportError, AttributeError, ValueError):
            return UNSUPPORTED, f"unknown type {name}".encode()
        try:
            if fmt_in == JSON:
                value = cls.from_json(payload)
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
                return OK, value.to_json().encode()
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
