"""Schema tools that run on the runtime: read and write FBE bytes without generated code,
and explain them byte by byte (docs/tools.md).

    fastwire decode  --schema S --type pkg.Struct [--final] [--offset N] [--stream] FILE|-
    fastwire encode  --schema S --type pkg.Struct [--final] [--stream] [--hex] FILE|-
    fastwire explain --schema S --type pkg.Struct [--final] [--offset N] [--stream] FILE|-

With the compiler installed too, these are commands of `fastwire` (this module registers
them in the entry point group `fastwire.commands`, python/pyproject.toml); without it,
`python -m fastwire_runtime.tools decode ...`. Either way they run on the dynamic codec
(fastwire_runtime.dynamic), driven by the schema's IR. A schema given as IR JSON
(`fastwire compile S.fbe --emit ir-json`) needs nothing else; one given as .fbe is compiled
with the compiler's public API (`fastwire.compile_schema`, `fastwire.ir_json`), the
runtime's `tools` extra. Input is raw bytes or hex text (found out from the content; --raw
or --hex to say).

Exit status: 0 success; 1 malformed input or a schema error; 2 a usage error; 70 a bug.
Every failure is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import struct
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import annotate, dynamic
from .errors import DecodeError, EncodeError

COMMANDS = ("decode", "encode", "explain")
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70


class ToolError(Exception):
    """A failure reported as one line (`fastwire CMD: error: …`), exit 1."""


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2
        raise _UsageError(message)


_DESCRIPTIONS = {
    "decode": "Binary FBE (raw or hex; one model, or a protocol stream) to JSON, from the "
              "schema alone. Malformed input: the verify error, its byte and field, exit 1.",
    "encode": "JSON to binary FBE (raw, or hex text), from the schema alone.",
    "explain": "An annotated dump of a model: offset, bytes, field path and value of every "
               "slot, header and heap block; unreachable and twice-read bytes flagged.",
}


def _parser(command: str) -> argparse.ArgumentParser:
    p = _Parser(prog=f"fastwire {command}",
                description=_DESCRIPTIONS[command] + " See docs/tools.md.")
    p.add_argument("input", metavar="FILE", help="the input ('-': standard input)")
    p.add_argument("--schema", required=True, metavar="SCHEMA",
                   help="the schema: .fbe, or IR JSON (fastwire compile --emit ir-json)")
    p.add_argument("--type", metavar="PKG.STRUCT",
                   help="the root struct (a bare name if one package declares it)")
    p.add_argument("--final", action="store_true", help="the final format (default versioned)")
    p.add_argument("-I", "--include", action="append", default=[], metavar="DIR",
                   help="also look for imported schemas in DIR")
    if command in ("decode", "explain"):
        p.add_argument("--offset", type=int, default=0, metavar="N",
                       help="the model starts at byte N of the input")
        form = p.add_mutually_exclusive_group()
        form.add_argument("--hex", action="store_true", help="the input is hex text")
        form.add_argument("--raw", action="store_true", help="the input is raw bytes")
    if command == "decode":
        p.add_argument("--stream", action="store_true",
                       help="a protocol stream: every message, by its type number")
        p.add_argument("--pretty", action="store_true", help="indented JSON (4 spaces)")
    if command == "encode":
        p.add_argument("--stream", action="store_true",
                       help='a stream: one {"type": "pkg.Struct", "value": ...} a line (what '
                            '"decode --stream" prints), each written as a model')
        p.add_argument("--hex", action="store_true", help="write hex text, not raw bytes")
        p.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    if command == "explain":
        p.add_argument("--stream", action="store_true",
                       help="a protocol stream: every message, by its type number")
    return p


def run(argv: Sequence[str]) -> int:
    """Runs `argv` (the command first: decode, encode or explain); returns the exit status.
    The `fastwire` command calls this for its decode, encode and explain."""
    if not argv or argv[0] not in COMMANDS:
        print("python -m fastwire_runtime.tools: error: expected a command: decode, encode or "
              "explain", file=sys.stderr)
        return EXIT_USAGE
    command = argv[0]
    try:
        ns = _parser(command).parse_args(list(argv[1:]))
    except _UsageError as err:
        print(f"fastwire {command}: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return {"decode": _decode, "encode": _encode, "explain": _explain}[command](ns)
    except ToolError as err:
        print(f"fastwire {command}: error: {err}", file=sys.stderr)
        return EXIT_FAIL


def main(argv: Optional[Sequence[str]] = None) -> int:
    """`python -m fastwire_runtime.tools COMMAND ...`: run(), with --help, a closed pipe,
    Ctrl-C and a bug each ending in an exit status, not a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except SystemExit as e:  # --help
        return int(e.code or 0) if not isinstance(e.code, str) else EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001 - the one place a bug becomes a report, not a trace
        name = args[0] if args else "tools"
        print(f"fastwire {name}: internal error: {type(exc).__name__}: {exc}. This is a bug in "
              f"fastwire; please report it with the schema that caused it.", file=sys.stderr)
        return EXIT_INTERNAL


# ---- shared -------------------------------------------------------------------------------

def load_schema(path: str, include: Sequence[str] = ()) -> dynamic.Schema:
    """The dynamic schema of IR JSON, or of a .fbe file (compiled; diagnostics to stderr)."""
    if not os.path.isfile(path):
        raise ToolError(f"schema '{path}': no such file")
    if path.endswith(".json"):
        try:
            with open(path, encoding="utf-8") as fh:
                return dynamic.Schema(fh.read())
        except (OSError, UnicodeDecodeError, dynamic.SchemaError) as err:
            raise ToolError(f"schema '{path}': {err}") from None
    try:
        return dynamic.Schema(_compile(path, include))
    except dynamic.SchemaError as err:  # a compiler of another IR version than this runtime's
        raise ToolError(f"schema '{path}': {err}") from None


def _compile(path: str, include: Sequence[str]) -> Dict[str, Any]:
    """The IR JSON document of a .fbe schema, from the compiler: an optional dependency
    (the `tools` extra), imported only here, where a .fbe schema needs it."""
    try:
        from fastwire import Reporter, compile_schema
        from fastwire.ir_json import to_dict
    except ImportError:
        raise ToolError(f"schema '{path}': compiling a .fbe schema needs the compiler (pip install "
                        f"fastwire-fbe); or give its IR JSON (fastwire compile SCHEMA --emit "
                        f"ir-json)") from None
    reporter = Reporter()
    schema = compile_schema(path, reporter, include)
    for d in reporter.diagnostics:
        print(d.render(), file=sys.stderr)
    if schema is None:
        n = len(reporter.errors)
        raise ToolError(f"schema '{path}' has {n} error{'s' if n != 1 else ''}")
    return to_dict(schema)


def _struct(schema: Any, name: Optional[str]) -> str:
    if not name:
        raise ToolError("--type PKG.STRUCT is required")
    try:
        return str(schema.resolve(name))
    except ValueError as err:
        raise ToolError(str(err)) from None


def read_input(path: str) -> bytes:
    try:
        if path == "-":
            return bytes(sys.stdin.buffer.read())
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as err:
        raise ToolError(f"cannot read '{path}': {err.strerror or err}") from None


_HEX_TEXT = re.compile(rb"[0-9a-fA-F\s]*\Z")


def bytes_of(data: bytes, path: str, hex_text: bool = False, raw: bool = False) -> bytes:
    """The input's bytes: hex text is decoded (whitespace ignored) when --hex says so, or
    when the input is nothing but hex digits and whitespace and --raw does not forbid it."""
    if raw or not (hex_text or (data and _HEX_TEXT.match(data))):
        return data
    digits = b"".join(data.split())
    bad = re.search(rb"[^0-9a-fA-F]", digits)
    if bad is not None:
        raise ToolError(f"{path}: not hex text (byte {bad.start()} of the digits is "
                        f"{bytes(digits[bad.start():bad.start() + 1])!r})")
    if len(digits) % 2:
        raise ToolError(f"{path}: hex text with an odd number of digits ({len(digits)})")
    return bytes.fromhex(digits.decode("ascii"))


def pretty_json(text: str, indent: int = 4) -> str:
    """Compact JSON text indented as RapidJSON's PrettyWriter does: members one a line,
    `"key": value`, empty objects and arrays as {} and []. Numbers are copied as written."""
    out: List[str] = []
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "[{":
            if i + 1 < n and text[i + 1] in "]}":
                out.append(text[i:i + 2])
                i += 2
                continue
            depth += 1
            out.append(c + "\n" + " " * (indent * depth))
        elif c in "]}":
            depth -= 1
            out.append("\n" + " " * (indent * depth) + c)
        elif c == ",":
            out.append(",\n" + " " * (indent * depth))
        elif c == ":":
            out.append(": ")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _where(path: str, at: Optional[int], field: str) -> str:
    place = f"byte {at} (0x{at:x})" if at is not None else "somewhere"
    return f"{path}: {place}" + (f", {field}" if field else "")


def _located(schema: Any, name: str, data: bytes, final: bool, base: int,
             error: Exception) -> str:
    """Where a model verify rejected fails, and why: the annotated walk's place, and its
    message when it found the same error (it may say more)."""
    at, field, found = annotate.locate(schema.struct(name), data, final, schema.limits)
    if found is not None and found.code == getattr(error, "code", None):
        error = found
    return f"{_where('', None if at is None else at + base, field)[2:]}: {error}"


# ---- decode --------------------------------------------------------------------------------

def _decode(ns: argparse.Namespace) -> int:
    schema = load_schema(ns.schema, ns.include)
    data = bytes_of(read_input(ns.input), ns.input, ns.hex, ns.raw)
    if ns.offset < 0 or ns.offset > len(data):
        raise ToolError(f"--offset {ns.offset} is outside the input ({len(data)} bytes)")
    out = sys.stdout
    if ns.stream:
        for at, size, name, number, value in _messages(schema, data, ns.offset, ns.final,
                                                       ns.input):
            text = "null" if name is None else schema.to_json(name, value)
            line = (f'{{"offset":{at},"size":{size},"type_number":{number},'
                    f'"type":{json.dumps(name)},"value":{text}}}')
            out.write((pretty_json(line) if ns.pretty else line) + "\n")
        return EXIT_OK
    name = _struct(schema, ns.type)
    value, size = _read(schema, name, data, ns.offset, ns.final, ns.input)
    rest = len(data) - ns.offset - size
    if rest > 0:
        print(f"fastwire decode: note: {rest} byte{'s' if rest != 1 else ''} after the model "
              f"(at {ns.offset + size}) not read; --stream reads models one after another",
              file=sys.stderr)
    text = schema.to_json(name, value)
    out.write((pretty_json(text) if ns.pretty else text) + "\n")
    return EXIT_OK


def _read(schema: Any, name: str, data: bytes, offset: int, final: bool,
          path: str) -> Tuple[Any, int]:
    """The value of the model at `offset`, and its size; ToolError with the place."""
    model = schema.final_model(name) if final else schema.model(name)
    try:
        size = model.validate(data, offset)
        return model.deserialize(data, offset), size
    except DecodeError as err:
        raise ToolError(f"{path}: {_located(schema, name, data[offset:], final, offset, err)}") from None


def _messages(schema: Any, data: bytes, start: int, final: bool,
              path: str) -> List[Tuple[int, int, Optional[str], int, Any]]:
    """(offset, size, type or None, type number, value) of each message of a stream."""
    types: Dict[int, str] = {}
    for p in [schema.root] + [q for q in schema.packages if q != schema.root]:
        for number, name in schema.by_type_number(p).items():
            types.setdefault(number, name)
    out = []
    at = start
    minimum = 8 if final else 16
    while at < len(data):
        if len(data) - at < 8:
            raise ToolError(f"{_where(path, at, '')}: truncated: {len(data) - at} bytes left, "
                            f"too few for a message header")
        size, second = struct.unpack_from("<II", data, at)
        if size < minimum:
            raise ToolError(f"{_where(path, at, '')}: bad_size: message size {size}")
        if size > len(data) - at:
            raise ToolError(f"{_where(path, at, '')}: truncated: message size {size}, "
                            f"{len(data) - at} bytes left")
        if final:
            number = second
        else:
            if second > size - 8:
                raise ToolError(f"{_where(path, at + 4, '')}: truncated: root offset {second}")
            number = struct.unpack_from("<I", data, at + second + 4)[0]
        name = types.get(number)
        value = None
        if name is not None:
            value, _ = _read(schema, name, data[:at + size], at, final, path)
        out.append((at, size, name, number, value))
        at += size
    return out


# ---- encode --------------------------------------------------------------------------------

def _encode(ns: argparse.Namespace) -> int:
    schema = load_schema(ns.schema, ns.include)
    raw = read_input(ns.input)
    if ns.stream:
        data = b"".join(_encode_stream(schema, raw, ns.final, ns.input))
    else:
        data = _encode_one(schema, _struct(schema, ns.type), raw, ns.final, ns.input)
    if ns.hex:
        text = data.hex()
        blob = ("\n".join(" ".join(text[i:i + 2] for i in range(j, min(j + 32, len(text)), 2))
                          for j in range(0, len(text), 32)) + "\n").encode()
    else:
        blob = data
    if ns.output:
        try:
            with open(ns.output, "wb") as fh:
                fh.write(blob)
        except OSError as err:
            raise ToolError(f"cannot write '{ns.output}': {err.strerror or err}") from None
    else:
        sys.stdout.buffer.write(blob)
        sys.stdout.buffer.flush()
    return EXIT_OK


def _encode_one(schema: Any, name: str, text: Any, final: bool, where: str) -> bytes:
    try:
        value = schema.from_json(name, text)
    except DecodeError as err:
        raise ToolError(f"{where}: not a {name} in JSON: {err}") from None
    model = schema.final_model(name) if final else schema.model(name)
    try:
        return bytes(model.serialize(value))
    except EncodeError as err:
        raise ToolError(f"{where}: {err}") from None


def _encode_stream(schema: Any, raw: bytes, final: bool, path: str) -> List[bytes]:
    """One model per line of `{"type": "pkg.Struct", "value": {...}}` (what decode --stream
    prints), in order: a stream."""
    out = []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ToolError(f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        span = _member(line, "value")
        try:
            envelope = json.loads(line)
        except (ValueError, RecursionError) as err:
            raise ToolError(f"{where}: not JSON ({err})") from None
        if not isinstance(envelope, dict) or not isinstance(envelope.get("type"), str) \
                or span is None:
            raise ToolError(f"{where}: expected {{\"type\": \"pkg.Struct\", \"value\": {{...}}}}")
        try:
            name = _struct(schema, envelope["type"])
        except ToolError as err:
            raise ToolError(f"{where}: {err}") from None
        out.append(_encode_one(schema, name, line[span[0]:span[1]], final, where))
    return out


def _member(line: str, key: str) -> Optional[Tuple[int, int]]:
    """Where the value of a top-level member of a JSON object is in the text (its exact
    text goes to the runtime's reader, which keeps decimals and 64-bit integers exact)."""
    depth, i, n = 0, 0, len(line)
    decoder = json.JSONDecoder()
    while i < n:
        c = line[i]
        if c == '"':
            j = i + 1
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            if depth == 1 and line[i + 1:j] == key:
                k = j + 1
                while k < n and line[k] in " \t":
                    k += 1
                if k < n and line[k] == ":":
                    k += 1
                    while k < n and line[k] in " \t":
                        k += 1
                    try:
                        _, end = decoder.raw_decode(line, k)
                    except (ValueError, RecursionError):
                        return None
                    return k, end
            i = j + 1
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        i += 1
    return None


# ---- explain -------------------------------------------------------------------------------

def _explain(ns: argparse.Namespace) -> int:
    schema = load_schema(ns.schema, ns.include)
    data = bytes_of(read_input(ns.input), ns.input, ns.hex, ns.raw)
    if ns.offset < 0 or ns.offset > len(data):
        raise ToolError(f"--offset {ns.offset} is outside the input ({len(data)} bytes)")
    if ns.stream:
        jobs = [(at, name, data[at:at + size], number) for at, size, name, number, _ in
                _messages(schema, data, ns.offset, ns.final, ns.input)]
    else:
        jobs = [(ns.offset, _struct(schema, ns.type), data[ns.offset:], 0)]
    failed = False
    for at, name, chunk, number in jobs:
        if ns.stream:
            print(f"== message at {at}: {name or 'type ' + str(number) + ', not in the schema'}"
                  f", {len(chunk)} bytes")
        if name is None:  # a stream's message of a type no package sends
            continue
        ann = annotate.annotate(schema.struct(name), chunk, ns.final, schema.limits)
        for line in ann.lines(start=at):
            print(line)
        failed = failed or ann.error is not None
    if failed:
        raise ToolError("the input is malformed (the line starting with '!! error' says where)")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
