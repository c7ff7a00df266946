"""Writes the conformance cases (conformance/cases/*.json).

    python3 conformance/make_cases.py            # regenerate; review the diff like code
    python3 conformance/make_cases.py --check    # are conformance/cases up to date?

This script describes the inputs: values as JSON text (Python dicts written by the json
module), the reference's vectors, and bytes made by hand (truncations, changed bytes,
crafted attacks, NaN payloads). Every expected output and verdict comes from the C++
implementation: the script builds the C++ testee (conformance/cpp/build.py, as run.py
does) and sends it each input over the testee protocol (conformance/README.md); no
Python runtime code takes part. A value's binary forms are what C++ writes for its JSON
text, and its JSON form is C++'s own JSON text of it. Inputs that a suite says must be
rejected (truncations, JSON to reject, final data of another version) are checked: the
script stops if C++ accepts one. `--check` regenerates into a temporary directory and
compares (make test-conformance runs it).

Suites:
- golden: the reference's vectors (tests/vectors) converted between the three formats;
  every expectation is a reference vector, none comes from fastwire.
- roundtrip: every type of schemas/everything.fbe with extreme values, each value in each
  format converted to each format; NaN payloads in the binary formats; hashes with
  several entries, whose order is free (JSON outputs compared with "unordered").
- versioning: proto (old) and protoex (new) reading each other's data.
- json: JSON text: fastwire's number, string and decimal forms, map keys, defaults of
  missing fields, rejected text.
- malformed: every truncation of each vector, a spread of single-byte changes, and
  crafted attacks (4-billion counts, backward offsets, shared blocks, deep nesting,
  zero-size elements): each is rejected, or accepted with a fixed re-serialization.

Hash entry order: a hash (V{K}) may be written in any order, and C++ writes its
std::unordered_map's order. Cases compared byte for byte therefore hold hashes of at most
one entry; roundtrip/everything.Collections/hashes has several per hash and only JSON
outputs, compared with the order of the hash fields' entries ignored (`unordered`).
"""

from __future__ import annotations

import argparse
import base64
import difflib
import json
import os
import struct
import subprocess
import sys
import tempfile
import uuid
from typing import Any, Dict, List, Optional, Union

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VECTORS = os.path.join(REPO, "tests", "vectors")
sys.path.insert(0, HERE)
from run import Process, environment, expand, materialize, request  # noqa: E402
from testees import TESTEES  # noqa: E402

FORMATS = ("versioned", "final", "json")
REJECT = {"status": "reject"}
SAME = {"status": "ok", "same": True}
Data = Union[str, bytes]  # JSON text or binary


def vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name)) as fh:
        return bytes.fromhex("".join(fh.read().split()))


def js(value: Any) -> str:
    """JSON text of a value described with dicts and lists (NaN etc. as strings)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def data_spec(fmt: str, data: Data) -> dict:
    if fmt == "json":
        assert isinstance(data, str)
        return {"format": fmt, "text": data}
    assert isinstance(data, bytes)
    return {"format": fmt, "hex": data.hex()}


class Cpp:
    """The C++ testee, which answers for every expectation."""

    def __init__(self) -> None:
        testee = TESTEES["cpp"]
        if testee.prepare:
            done = subprocess.run(expand(testee.prepare), cwd=REPO, stdout=subprocess.PIPE,
                                  text=True, env=environment())
            if done.returncode != 0:
                raise SystemExit(f"make_cases.py: building the C++ testee failed:\n{done.stdout}")
        log = os.path.join(REPO, "build", "conformance", "make_cases.cpp.stderr.log")
        os.makedirs(os.path.dirname(log), exist_ok=True)
        open(log, "wb").close()
        self.process = Process(expand(testee.run), log)

    def close(self) -> None:
        self.process.stop()

    def call(self, type_name: str, fin: str, data: Data, fout: str) -> tuple:
        payload = data.encode() if isinstance(data, str) else data
        return self.process.call(request(type_name, fin, payload, fout))

    def encode(self, type_name: str, text: str, fmt: str) -> Data:
        """The value of the JSON text in the format `fmt` (json: C++'s own text of it)."""
        status, out = self.call(type_name, "json", text, fmt)
        if status != 0:
            raise SystemExit(f"make_cases.py: C++ does not convert this {type_name} to {fmt} "
                             f"(status {status}: {out.decode(errors='replace')}): {text[:200]}")
        return out.decode() if fmt == "json" else out

    def convert(self, type_name: str, fin: str, data: Data, fout: str) -> dict:
        """What a conforming testee answers: C++'s answer, as a case's expectation."""
        status, out = self.call(type_name, fin, data, fout)
        if status == (1 if fin == "json" else 2):
            return REJECT
        if status != 0:
            raise SystemExit(f"make_cases.py: C++ answers status {status} for {type_name} "
                             f"{fin}->{fout}: {out.decode(errors='replace')}")
        result: Data = out.decode() if fout == "json" else out
        if fout == fin and result == data:
            return dict(SAME)
        if fout != "json" and fin != "json" and len(out) == len(data):
            return {"status": "ok", "same": True,
                    "patch": [[i, b] for i, (a, b) in enumerate(zip(data, out)) if a != b]}
        return {"status": "ok", "text": result} if fout == "json" else \
            {"status": "ok", "hex": out.hex()}


class Writer:
    def __init__(self, cpp: Optional[Cpp], suite: str, description: str) -> None:
        self.cpp = cpp
        self.suite = suite
        self.description = description
        self.cases: List[Dict[str, Any]] = []

    def add(self, name: str, type_name: str, input_spec: dict, output: str, expect: dict) -> None:
        self.cases.append({"name": f"{self.suite}/{name}", "type": type_name,
                           "input": input_spec, "output": output, "expect": expect})

    def convert(self, name: str, type_name: str, input_spec: dict, output: str,
                accept: bool = False) -> dict:
        """A case whose expectation is C++'s answer; `accept`: it must not reject."""
        assert self.cpp is not None
        raw = materialize(input_spec)
        data: Data = raw.decode() if input_spec["format"] == "json" else raw
        expect = self.cpp.convert(type_name, input_spec["format"], data, output)
        if accept and expect == REJECT:
            raise SystemExit(f"make_cases.py: C++ rejects {self.suite}/{name}")
        self.add(name, type_name, input_spec, output, expect)
        return expect

    def reject(self, name: str, type_name: str, input_spec: dict, output: str) -> None:
        """A case that must be rejected; C++ must agree."""
        if self.convert(name, type_name, input_spec, output) != REJECT:
            raise SystemExit(f"make_cases.py: C++ accepts {self.suite}/{name}, which must be "
                             "rejected")

    def save(self, folder: str) -> str:
        path = os.path.join(folder, f"{self.suite}.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write('{\n  "suite": ' + json.dumps(self.suite) + ',\n  "description": '
                     + json.dumps(self.description) + ',\n  "cases": [\n')
            fh.write(",\n".join("    " + json.dumps(c, ensure_ascii=False, separators=(",", ":"))
                                for c in self.cases))
            fh.write("\n  ]\n}\n")
        return path


# ---- golden ------------------------------------------------------------------------------

def golden() -> Writer:
    w = Writer(None, "golden", "The reference's vectors between the three formats; every "
                               "expectation is a reference vector.")
    for name, type_name in [("account", "proto.Account"), ("order", "proto.Order"),
                            ("balance", "proto.Balance")]:
        files = {"versioned": f"{name}.fbe.hex", "final": f"{name}.final.hex",
                 "json": f"{name}.json"}
        for fin in FORMATS:
            for fout in FORMATS:
                w.add(f"{name}/{fin}->{fout}", type_name,
                      {"format": fin, "vector": files[fin]}, fout,
                      {"status": "ok", "vector": files[fout]})
    for fout, file in [("versioned", "account.fbe.hex"), ("final", "account.final.hex"),
                       ("json", "account.json")]:
        w.add(f"account/pretty-json->{fout}", "proto.Account",
              {"format": "json", "vector": "account.pretty.json"}, fout,
              {"status": "ok", "vector": file})
    # The protocol streams, one message at a time.
    bodies = {"Order": "order.json", "Balance": "balance.json", "Account": "account.json"}
    versioned = {"Order": (0, 64), "Balance": (64, 111), "Account": (111, 375)}
    final = {"Order": (0, 40), "Balance": (40, 63), "Account": (63, 215)}
    for msg in ("Order", "Balance", "Account"):
        t = f"protocol.{msg}Message"
        body = open(os.path.join(VECTORS, bodies[msg]), encoding="utf-8").read().strip()
        inputs: Dict[str, dict] = {"versioned": {"format": "versioned", "vector": "protocol.hex",
                                "slice": list(versioned[msg])},
                  "final": {"format": "final", "vector": "protocol.final.hex",
                            "slice": list(final[msg])},
                  "json": {"format": "json", "text": '{"body":' + body + "}"}}
        outputs: Dict[str, dict] = {"versioned": {"status": "ok", "vector": "protocol.hex",
                                 "slice": list(versioned[msg])},
                   "final": {"status": "ok", "vector": "protocol.final.hex",
                             "slice": list(final[msg])},
                   "json": {"status": "ok", "text": '{"body":' + body + "}"}}
        for fin in FORMATS:
            for fout in FORMATS:
                w.add(f"{msg.lower()}-message/{fin}->{fout}", t, inputs[fin], fout, outputs[fout])
    return w


# ---- values ------------------------------------------------------------------------------

U64 = 2 ** 64 - 1
NAN, INF = "NaN", "Infinity"  # JSON has no literal for them: fastwire's strings


def u(n: int) -> str:
    return str(uuid.UUID(int=n))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def prim(**kw: Any) -> dict:
    """everything.Primitives; the defaults that are not constant (utc, uuid1, uuid4)
    are set, so that every run writes the same cases."""
    value = dict(f_utc=1700000000000000000, f_uuid1="6ba7b810-9dad-11d1-80b4-00c04fd430c8",
                 f_uuid4="f47ac10b-58cc-4372-a567-0e02b2c3d479")
    value.update(kw)
    return value


def order(uid: int, symbol: str = "", side: int = 0, **kw: Any) -> dict:
    return dict(uid=uid, symbol=symbol, side=side, **kw)


PMIN = prim(f_bool=False, f_byte=0, f_char=0, f_wchar=0, f_int8=-128, f_uint8=0,
            f_int16=-32768, f_uint16=0, f_int32=-2 ** 31, f_uint32=0, f_int64=-2 ** 63,
            f_uint64=0, f_float=-3.4028234663852886e38, f_double=-1.7976931348623157e308,
            f_decimal="-79228162514264337593543950335", f_string="", f_bytes="",
            f_epoch=0, f_utc=0, f_ns=0, f_uuid0=u(0), f_uuid1=u(0), f_uuid4=u(0), f_uuid=u(0),
            password="", legacy=-2 ** 31)
PMAX = prim(f_bool=True, f_byte=255, f_char=255, f_wchar=0xFFFFFFFF, f_int8=127, f_uint8=255,
            f_int16=32767, f_uint16=65535, f_int32=2 ** 31 - 1, f_uint32=2 ** 32 - 1,
            f_int64=2 ** 63 - 1, f_uint64=U64, f_float=3.4028234663852886e38,
            f_double=1.7976931348623157e308, f_decimal="0.0000000000000000000000000001",
            f_string="\u00e9\u4e2d\U0001F600\x00\"\\\n\t/", f_bytes=b64(bytes(range(256))),
            f_epoch=U64, f_utc=U64, f_ns=U64, f_uuid0=u(2 ** 128 - 1), password="p",
            legacy=2 ** 31 - 1)
NUMBERS = prim(f_float=1.5e-45, f_double=5e-324, f_decimal="-0.00")
SPECIALS = prim(f_float="-Infinity", f_double=NAN, f_decimal="1.50")
OPT_FULL = dict(f_bool=False, f_int32=-1, f_string="", f_decimal="1.50", f_uuid=u(7), f_time=U64,
                f_enum=0xFF, f_flags=0, f_struct=PMAX, f_order=order(9, "X", 1),
                f_reset=-2 ** 63, f_resetReset=True)
OPT_NULL = dict(f_bool=None, f_int32=None, f_string=None, f_decimal=None, f_uuid=None,
                f_time=None, f_enum=None, f_flags=None, f_struct=None, f_order=None,
                f_reset=None)


def collections(**hashes: Any) -> dict:
    """everything.Collections with every collection filled; the hashes are given."""
    value = dict(
        f_array=[-1, 0, 2 ** 31 - 1], f_array_optional=[None, "x"], f_array_struct=[PMIN, prim()],
        f_vector=[0, 1, 255], f_vector_optional=[None, 0xFE, 77],
        f_vector_struct=[order(1), order(2, "Y")], f_list=["b", "a", "b"],
        f_list_optional=[None, OPT_NULL], f_set=[2 ** 63 - 1, -2 ** 63, 0],
        f_set_struct=[{"currency": "EUR", "amount": 1.0}, {"currency": "CHF"}],
        f_map={"3": "c", "-1": "minus", "2147483647": ""}, f_map_optional={"b": None, "a": -0.0},
        f_map_enum_key={"255": OPT_NULL, "0": OPT_NULL})
    value.update(hashes)
    return value


def roundtrip_values() -> List[tuple]:
    """(type, label, value): each is written in each format and converted to each."""
    return [
        ("everything.Primitives", "min", PMIN),
        ("everything.Primitives", "max", PMAX),
        ("everything.Primitives", "denormals", NUMBERS),
        ("everything.Primitives", "specials", SPECIALS),
        ("everything.Optionals", "full", OPT_FULL),
        ("everything.Optionals", "null", OPT_NULL),
        # Hashes of one entry each: byte-exact in every format (see the docstring).
        ("everything.Collections", "full", collections(
            f_hash={u(9): b64(b"\0")}, f_hash_optional={"a": NUMBERS},
            f_hash_struct_key=[[order(5), OPT_NULL]])),
        ("everything.Collections", "full-2", collections(
            f_hash={u(1): ""}, f_hash_optional={"z": None},
            f_hash_struct_key=[[order(4, "K"), OPT_FULL]])),
        ("everything.Collections", "empty", dict(f_array_struct=[prim(), prim()])),
        ("everything.Fixed", "negative", dict(id=-5)),
        ("everything.Next", "uuid", dict(id=u(3))),
        ("everything.Shifted", "max", dict(amount="79228162514264337593543950335")),
        ("everything.Base", "min", dict(name="b", level=-128)),
        ("everything.Derived", "keys", dict(name="d", level=3, serial=2 ** 31 - 1, weight=-0.5)),
        ("everything.MoreDerived", "tiny", dict(name="m", level=1, serial=7, weight=1e-300,
                                                last=True)),
        ("everything.Wallet", "scale", dict(currency="USD", amount=1.0, reserved="-12.3400")),
        ("everything.ExAccount", "unknown-values",
         dict(uid=3, orders=[dict(uid=1, tp=1.0)], refs=-5, extra=0xFF)),
        ("everything.PingRequest", "text", dict(id=u(1), sent=5, note="\u2603")),
        ("everything.Notify", "text", dict(id=u(2), text="n")),
        ("everything.Empty", "empty", {}),
        ("proto.Account", "empty", {}),
        ("proto.Account", "no-asset", dict(uid=-1, name="\u00fc", state=0xFF, asset=None,
                                           orders=[])),
        ("hostile.Node", "tree", dict(value=1, children=[
            dict(value=2), dict(value=3, children=[dict(value=4)])])),
        ("hostile.Bag", "mixed", dict(items=[{}, {}, {}], names=[None, "n"], words=["w"],
                                      blob=b64(b"\x01"))),
    ]


# A hash of several entries per hash field: any entry order is right.
HASHES = ("everything.Collections", "hashes", collections(
    f_hash={u(9): b64(b"\0"), u(1): "", u(5): b64(b"five")},
    f_hash_optional={"z": None, "a": NUMBERS, "m": SPECIALS},
    f_hash_struct_key=[[order(5), OPT_NULL], [order(4, "K"), OPT_FULL], [order(6), OPT_NULL]]),
    ["f_hash", "f_hash_optional", "f_hash_struct_key"])


def replace_bits(data: bytes, sentinel: bytes, bits: bytes) -> bytes:
    """data with the one occurrence of `sentinel` (a value's bytes) replaced."""
    assert data.count(sentinel) == 1, (data.hex(), sentinel.hex())
    return data.replace(sentinel, bits)


def nan_payloads(cpp: Cpp, fmt: str) -> bytes:
    """everything.Primitives with NaNs that JSON cannot carry: a quiet float NaN with a
    payload and the sign set, a signalling double NaN with a payload."""
    data = cpp.encode("everything.Primitives", js(prim(f_float=0.75, f_double=0.625)), fmt)
    assert isinstance(data, bytes)
    data = replace_bits(data, struct.pack("<f", 0.75), struct.pack("<I", 0xFFC0BEEF))
    return replace_bits(data, struct.pack("<d", 0.625), struct.pack("<Q", 0x7FF0000000000BAD))


# ---- roundtrip ---------------------------------------------------------------------------

def roundtrip(cpp: Cpp) -> Writer:
    w = Writer(cpp, "roundtrip", "Every type of everything.fbe (and of proto, hostile) with "
                                 "extreme values: each value in each format, converted to each "
                                 "format; NaN payloads; hashes of several entries (JSON "
                                 "outputs, entry order free). Expectations from the C++ "
                                 "implementation.")
    for type_name, label, value in roundtrip_values():
        text = js(value)
        forms = {f: cpp.encode(type_name, text, f) for f in FORMATS}
        for fin in FORMATS:
            for fout in FORMATS:
                expect = w.convert(f"{type_name}/{label}/{fin}->{fout}", type_name,
                                   data_spec(fin, forms[fin]), fout, accept=True)
                # Each form reads back to itself: the value is a fixed point.
                assert fin != fout or expect == SAME, (type_name, label, fin, expect)
    type_name, label, value, unordered = HASHES
    text = js(value)
    for fin in FORMATS:
        data = cpp.encode(type_name, text, fin)
        status, out = cpp.call(type_name, fin, data, "json")
        assert status == 0, (label, fin, out)
        w.add(f"{type_name}/{label}/{fin}->json", type_name, data_spec(fin, data), "json",
              {"status": "ok", "text": out.decode(), "unordered": unordered})
    for fin in ("versioned", "final"):
        data = nan_payloads(cpp, fin)
        for fout in FORMATS:
            expect = w.convert(f"everything.Primitives/nan-payloads/{fin}->{fout}",
                               "everything.Primitives", data_spec(fin, data), fout, accept=True)
            assert fin != fout or expect == SAME, (fin, expect)
    return w


# ---- versioning --------------------------------------------------------------------------

def versioning(cpp: Cpp) -> Writer:
    w = Writer(cpp, "versioning", "proto (old) and protoex (new) read each other's data; "
                                  "fields an older writer did not send take their declared "
                                  "defaults. Expectations from the C++ implementation.")
    new: Dict[str, Any] = dict(uid=7, name="New", state=0x02 | 0x04 | 0x10 | 0x20,  # good | sad
               wallet=dict(currency="USD", amount=1000.0, locked=50.0), asset=None,
               orders=[order(1, "EURUSD", 2, type=3, price=1.5, volume=10.0, tp=2.0, sl=1.0),
                       order(2, "GBPUSD", 1, type=1, price=1.25, volume=5.0)])
    for old_name, type_name in [("account", "Account"), ("order", "Order"),
                                ("balance", "Balance")]:
        for fout in FORMATS:
            w.convert(f"old-to-new/{old_name}/versioned->{fout}", f"protoex.{type_name}",
                      {"format": "versioned", "vector": f"{old_name}.fbe.hex"}, fout,
                      accept=True)
        # The final format does not version: another version's bytes are rejected.
        w.reject(f"old-to-new/{old_name}/final-rejected", f"protoex.{type_name}",
                 {"format": "final", "vector": f"{old_name}.final.hex"}, "final")
    newer = {"Account": new, "Order": new["orders"][0], "Balance": new["wallet"]}
    for type_name, value in newer.items():
        data = cpp.encode(f"protoex.{type_name}", js(value), "versioned")
        fdata = cpp.encode(f"protoex.{type_name}", js(value), "final")
        for fout in FORMATS:
            w.convert(f"new-to-old/{type_name.lower()}/versioned->{fout}", f"proto.{type_name}",
                      data_spec("versioned", data), fout, accept=True)
        w.convert(f"new-to-new/{type_name.lower()}/versioned->versioned", f"protoex.{type_name}",
                  data_spec("versioned", data), "versioned", accept=True)
        w.convert(f"new-to-old/{type_name.lower()}/final", f"proto.{type_name}",
                  data_spec("final", fdata), "final")
    # New JSON read by the old type: unknown keys are ignored.
    text = cpp.encode("protoex.Account", js(new), "json")
    for fout in FORMATS:
        w.convert(f"new-to-old/account/json->{fout}", "proto.Account", data_spec("json", text),
                  fout, accept=True)
    return w


# ---- json --------------------------------------------------------------------------------

def json_suite(cpp: Cpp) -> Writer:
    w = Writer(cpp, "json", "JSON text: fastwire's forms (doubles as RapidJSON writes them, "
                            "floats widened to double, NaN and infinities as strings, decimals "
                            "as exact text, 64-bit integers exact, control characters as "
                            "\\u00XX, maps with struct keys as [key, value] pairs), defaults "
                            "of missing fields, and text that must be rejected. Expectations "
                            "from the C++ implementation.")

    def add(name: str, type_name: str, text: str, fouts=FORMATS) -> None:
        for fout in fouts:
            w.convert(f"{name}/json->{fout}", type_name, data_spec("json", text), fout,
                      accept=True)

    def number(x: float) -> Any:
        return x if x == x and abs(x) != float("inf") else \
            NAN if x != x else INF if x > 0 else "-Infinity"

    nan = float("nan")
    for i, price in enumerate([0.0, -0.0, 0.1, 1e-5, 1e-6, 1e-7, 1e16, 1e20, 1e21, 1e22,
                               1.7976931348623157e308, 5e-324, 2.0 ** 63, 123.45600128173828,
                               nan, float("inf"), float("-inf")]):
        # volume = -price; for NaN a NaN with the sign set, which JSON cannot say.
        value = dict(uid=i, price=number(price), volume=number(-price) if price == price else 0.5)
        for fmt in ("versioned", "final"):
            data = cpp.encode("proto.Order", js(value), fmt)
            assert isinstance(data, bytes)
            if price != price:
                data = replace_bits(data, struct.pack("<d", 0.5),
                                    struct.pack("<Q", 0xFFF8000000000000))
            w.convert(f"double/{i}/{fmt}->json", "proto.Order", data_spec(fmt, data), "json",
                      accept=True)
    # A float is widened to double first (123.456f is 123.45600128173828).
    add("float/widened", "everything.Primitives", js(prim(f_float=123.456)), ["json"])
    add("float/whole", "everything.Primitives", js(prim(f_float=1.5e10)), ["json"])
    add("defaults/order-empty-object", "proto.Order", "{}")
    add("defaults/account-empty-object", "proto.Account", "{}")
    add("defaults/account-some-fields", "proto.Account", '{"uid":5,"orders":[{"uid":6}]}')
    add("exact/int64", "everything.Fixed", '{"id":-2147483648}')
    add("exact/decimal-scale", "everything.Shifted", '{"amount":"-0.0000000000000000000000000001"}')
    add("exact/decimal-number", "everything.Shifted", '{"amount":1.50}')
    add("exact/decimal-integer", "everything.Shifted", '{"amount":"79228162514264337593543950335"}')
    add("strings/escapes", "proto.Balance",
        '{"currency":"\\u0000\\u001f\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00","amount":1}')
    add("strings/controls", "proto.Balance",
        js(dict(currency="".join(chr(c) for c in range(0x20)) + "\x7f", amount=0)))
    add("numbers/strings", "proto.Order", '{"price":"NaN","volume":"-Infinity"}')
    add("numbers/exponent", "proto.Order", '{"price":1E2,"volume":-1.5e-3}')
    # Map keys: integers, strings and enums (the number) as object keys; a struct key as
    # [key, value] pairs.
    keys = dict(f_array_struct=[prim(f_utc=0, f_uuid1=u(1), f_uuid4=u(4))] * 2)
    add("keys/enum-map", "everything.Collections", js(dict(
        keys, f_map={"-5": "m", "7": ""}, f_map_enum_key={"255": OPT_NULL, "0": OPT_FULL},
        f_map_optional={"x": NAN})))
    add("keys/struct-key", "everything.Collections", js(dict(
        keys, f_hash_struct_key=[[order(4, "K", 1, price=1.5), OPT_NULL]])))
    add("keys/struct-key-empty", "everything.Collections", js(dict(keys, f_hash_struct_key=[])))
    # Equality by the [key] fields (docs/schema-language.md): of elements and keys equal by
    # their keys, a set or a map keeps the first, with its value.
    add("equality/set-by-key", "everything.Collections", js(dict(
        keys, f_set_struct=[{"currency": "EUR", "amount": 1.0}, {"currency": "CHF"},
                            {"currency": "EUR", "amount": 2.0}])))
    add("equality/hash-struct-key-by-key", "everything.Collections", js(dict(
        keys, f_hash_struct_key=[[order(4, "K", 1, price=1.5), OPT_NULL],
                                 [order(4, "L", 0, price=2.5), OPT_FULL]])))
    for i, bad in enumerate([
            "", "{", "[]", "null", '{"uid":"1"}', '{"uid":1.5}', '{"uid":2147483648}',
            '{"symbol":5}', '{"side":256}', '{"side":-1}', '{"price":"fast"}', '{"price":true}',
            '{"price":null}', '{"uid":1}x', '{"uid":01}', "{'uid':1}"]):
        w.reject(f"reject/order/{i}", "proto.Order", data_spec("json", bad), "versioned")
    for i, bad in enumerate([
            '{"wallet":null}', '{"orders":{}}', '{"orders":[null]}', '{"state":256}',
            '{"asset":5}']):
        w.reject(f"reject/account/{i}", "proto.Account", data_spec("json", bad), "versioned")
    for i, bad in enumerate(['{"amount":"1e-29"}', '{"amount":"79228162514264337593543950336"}',
                             '{"amount":"NaN"}', '{"amount":"x"}', '{"amount":[]}']):
        w.reject(f"reject/decimal/{i}", "everything.Shifted", data_spec("json", bad), "versioned")
    # A float field takes no number beyond a float's range (it has no float value).
    for i, bad in enumerate(['{"f_float":1e39}', '{"f_float":-3.5e38}']):
        w.reject(f"reject/float-range/{i}", "everything.Primitives", data_spec("json", bad), "versioned")
    # A struct-keyed map is [[key, value], ...] and nothing else.
    for i, bad in enumerate(['{}', '[{}]', '[[{"uid":1}]]', '[[{"uid":1},{},{}]]', '[[1,{}]]',
                             '[[{"uid":1},5]]', '{"{\\"uid\\":1}":{}}']):
        w.reject(f"reject/struct-key/{i}", "everything.Collections",
                 data_spec("json", js(dict(keys))[:-1] + ',"f_hash_struct_key":' + bad + "}"),
                 "versioned")
    for i, bad in enumerate(['{"x":{}}', '{"1":5}', '[]', '{"256":{}}']):
        w.reject(f"reject/enum-key/{i}", "everything.Collections",
                 data_spec("json", js(dict(keys))[:-1] + ',"f_map_enum_key":' + bad + "}"),
                 "versioned")
    json_hostile(w)
    json_rules(w)
    return w


def json_hostile(w: Writer) -> None:
    """Hostile JSON text (docs/wire-format.md#json, "Hostile input"): every language
    answers the same, in time bounded by the text's length."""
    P, S, C = "everything.Primitives", "everything.Shifted", "everything.Collections"
    # Fields whose defaults are the time or random (utc, uuid1, uuid4) pinned, then `tail`.
    prim_with = js(prim())[:-1] + ","
    coll_with = js(dict(f_array_struct=[prim()] * 2))[:-1] + ","

    def case(name: str, type_name: str, text: str, accept: bool, fout: str = "versioned") -> None:
        if accept:
            w.convert(f"hostile/{name}", type_name, data_spec("json", text), fout, accept=True)
        else:
            w.reject(f"hostile/{name}", type_name, data_spec("json", text), fout)

    # Doubles: any JSON number within the double range (after rounding); no bare NaN.
    for name, number, ok in [("huge-exponent", "1e999999", False), ("minus-huge", "-1e400", False),
                             ("just-beyond-max", "1.7976931348623159e308", False),
                             ("max", "1.7976931348623157e308", True),
                             ("underflow-to-zero", "1e-999999", True), ("below-denormal", "2e-324", True),
                             ("integer-300-digits", "1" * 300, True),
                             ("integer-400-digits", "1" * 400, False),
                             ("integer-10000-digits", "1" * 10000, False),
                             ("bare-NaN", "NaN", False), ("bare-Infinity", "Infinity", False),
                             ("bare-minus-Infinity", "-Infinity", False),
                             ("string-inf", '"inf"', False), ("string-nan", '"nan"', False)]:
        case(f"double/{name}", P, prim_with + '"f_double":' + number + "}", ok)
    # Decimals: the digits as written fit 96 bits, the scale 0..28; no other spellings.
    for name, text, ok in [("exponent-huge", '"1e999999999"', False),
                           ("zero-exponent-huge", '"0e999999999"', True),
                           ("zero-scale-huge", '"-0e-999999999"', False),
                           ("number-exponent-huge", "1e999999999", False),
                           ("digits-5000", '"' + "1" * 5000 + '"', False),
                           ("trailing-zeros-beyond-96-bits", '"1' + "0" * 40 + 'e-40"', False),
                           ("scale-30-zeros", '"1.' + "0" * 30 + '"', False),
                           ("zero-scale-29", '"0.' + "0" * 29 + '"', False),
                           ("spaces", '" 1.5"', False), ("underscore", '"1_0"', False),
                           ("infinity", '"Infinity"', False),
                           ("plus-sign", '"+1.5"', True), ("exponent-fits", '"1.5e3"', True)]:
        case(f"decimal/{name}", S, '{"amount":' + text + "}", ok)
    # Strings: a lone surrogate has no UTF-8 form.
    for i, text in enumerate([r"\ud800", r"\udfff", r"a\ud800b", r"\udc00\ud800"]):
        case(f"string/lone-surrogate/{i}", P, prim_with + '"f_string":"' + text + '"}', False)
        case(f"string/lone-surrogate-key/{i}", C, coll_with + '"f_map_optional":{"' + text + '":1.0}}',
             False)
    case("string/surrogate-pair", P, prim_with + '"f_string":"\\ud83d\\ude00"}', True)
    # Integer map keys: leading zeros are not digits of the value.
    case("key/integer-5000-digits", C, coll_with + '"f_map":{"' + "1" * 5000 + '":"x"}}', False)
    case("key/leading-zeros", C, coll_with + '"f_map":{"' + "0" * 5000 + '7":"x"}}', True)
    # Nesting: every array and object counts, under unknown keys too (the root is 1).
    for depth, ok in [(63, True), (64, False), (100000, False)]:
        case(f"depth/unknown-key-{depth + 1}", P, prim_with + '"zz":' + "[" * depth + "]" * depth + "}",
             ok)
    case("depth/unknown-key-objects-65", P, prim_with + '"zz":' + '{"a":' * 64 + "1" + "}" * 64 + "}",
         False)
    # Zero-size elements: the final format's allowance (65 536 per message).
    for n, ok in [(65536, True), (65537, False)]:
        case(f"budget/empty-structs-{n}", "hostile.Bag", '{"items":[' + ",".join(["{}"] * n) + "]}", ok, "final")


def json_rules(w: Writer) -> None:
    """The reading rules of docs/wire-format.md#json, field kind by field kind (issue 37):
    surrogates in every string-bearing kind, BOMs, Base64, leading zeros, -0 in every
    integer kind, exponents at the edges, repeated keys, wrong JSON types. Each verdict is
    stated here by the rule: text that must be rejected (C++ must reject it), or text that
    reads as the value of another, plainer text (`canonical`): the expectation is C++'s
    answer for the plain text, and C++ must answer the same for both."""
    P, OPT, C = "everything.Primitives", "everything.Optionals", "everything.Collections"
    prim_with = js(prim())[:-1] + ","
    coll_with = js(dict(f_array_struct=[prim()] * 2))[:-1] + ","

    def reject(name: str, type_name: str, text: str) -> None:
        w.reject(f"hostile/{name}", type_name, data_spec("json", text), "json")

    def same(name: str, type_name: str, text: str, canonical: str) -> None:
        """`text` reads as `canonical` does (both accepted, the same value)."""
        assert w.cpp is not None
        expect = w.cpp.convert(type_name, "json", canonical, "json")
        if expect == REJECT:
            raise SystemExit(f"make_cases.py: C++ rejects the plain form of hostile/{name}: {canonical}")
        if expect == SAME:
            expect = {"status": "ok", "text": canonical}
        got = w.cpp.convert(type_name, "json", text, "json")
        if got == SAME:
            got = {"status": "ok", "text": text}
        if got != expect:
            raise SystemExit(f"make_cases.py: C++ reads hostile/{name} ({text[:120]}) as {got}, "
                             f"not as {canonical[:120]} ({expect})")
        w.add(f"hostile/{name}", type_name, data_spec("json", text), "json", expect)

    def prim_field(field: str, value: str) -> str:
        return prim_with + json.dumps(field) + ":" + value + "}"

    def coll_field(field: str, value: str) -> str:
        return coll_with + json.dumps(field) + ":" + value + "}"

    def opt_field(field: str, value: str) -> str:
        """everything.Optionals with `field`, and the defaults that are the time or random
        (f_time, f_uuid) pinned where `field` is another."""
        pinned = {"f_uuid": js(u(5)), "f_time": "0"}
        pinned.pop(field, None)
        return "{" + "".join(json.dumps(k) + ":" + v + "," for k, v in pinned.items()) + \
            json.dumps(field) + ":" + value + "}"

    # Surrogates: a lone one has no UTF-8 form and is rejected in every string-bearing
    # kind, value or key; a pair is the one character it spells.
    lone = [("high", r"\ud800"), ("low", r"\udfff"), ("reversed", r"\udc00\ud800"),
            ("high-high", r"\ud800\ud800"), ("inside", r"1\ud800")]
    for label, esc in lone:
        for field in ("f_string", "f_decimal", "f_uuid", "f_bytes", "f_utc", "f_double"):
            reject(f"surrogate/{field}/{label}", P, prim_field(field, f'"{esc}"'))
        for field in ("f_decimal", "f_uuid", "f_string", "f_enum"):
            reject(f"surrogate/optional-{field}/{label}", OPT, opt_field(field, f'"{esc}"'))
        for field, value in [("f_map", f'{{"{esc}":"x"}}'), ("f_map", f'{{"7":"{esc}"}}'),
                             ("f_map_optional", f'{{"{esc}":1.0}}'),
                             ("f_hash", f'{{"{esc}":""}}'), ("f_map_enum_key", f'{{"{esc}":{{}}}}'),
                             ("f_hash_optional", f'{{"{esc}":null}}'), ("f_list", f'["{esc}"]'),
                             ("f_array_optional", f'[null,"{esc}"]')]:
            what = "key" if value.startswith('{"' + esc) else "value"
            reject(f"surrogate/{field}-{what}/{label}", C, coll_field(field, value))
    # Under a key not in the schema too: what is skipped must still be JSON and Unicode.
    for label, esc in lone:
        reject(f"surrogate/unknown-value/{label}", P, prim_field("zz", f'"{esc}"'))
        reject(f"surrogate/unknown-key/{label}", P, prim_with + f'"{esc}":1}}')
        reject(f"surrogate/unknown-nested/{label}", P, prim_field("zz", f'[1,{{"a":["{esc}"]}}]'))
        reject(f"surrogate/unknown-nested-key/{label}", P, prim_field("zz", f'{{"b":{{"{esc}":0}}}}'))
    for label, value in [("leading-zero", "01"), ("minus", "-"), ("dot", "1."), ("leading-dot", ".5"),
                         ("plus", "+1"), ("bare-e", "1e"), ("tru", "tru"), ("nul", "nul"), ("truex", "truex"),
                         ("bad-escape", r'"\x"'), ("short-unicode-escape", r'"\u12"'),
                         ("control-character", '"\t"'), ("nested-leading-zero", '[{"a":[01]}]'),
                         ("nested-bad-escape", r'{"a":"\q"}'), ("key-bad-escape", r'{"\q":1}')]:
        reject(f"unknown/not-json/{label}", P, prim_field("zz", value))
    reject("unknown/not-json/own-key-bad-escape", P, prim_with + r'"z\q":1}')
    same("unknown/valid", P, prim_field("zz", r'[1,-0,1.5e3,-2E-2,"x\u00e9\ud83d\ude00",true,false,null,{"a":{}},[]]'),
         js(prim()))
    pair = r"\ud83d\ude00"
    same("surrogate/f_string/pair", P, prim_field("f_string", f'"a{pair}b"'),
         prim_field("f_string", js("a\U0001F600b")))
    same("surrogate/f_map_optional-key/pair", C, coll_field("f_map_optional", f'{{"{pair}":1.0}}'),
         coll_field("f_map_optional", js({"\U0001F600": 1.0})))
    same("surrogate/f_hash_optional-key/pair", C, coll_field("f_hash_optional", f'{{"{pair}":null}}'),
         coll_field("f_hash_optional", js({"\U0001F600": None})))
    for field in ("f_decimal", "f_uuid", "f_bytes"):
        reject(f"surrogate/{field}/pair", P, prim_field(field, f'"{pair}"'))

    # BOMs: U+FEFF is not JSON whitespace, so text that starts (or ends) with one is not
    # JSON; inside a string it is a character like any other, kept as is.
    for label, text in [("start", "\ufeff" + js(order(1))), ("end", js(order(1)) + "\ufeff"),
                        ("after-brace", "{\ufeff" + js(order(1))[1:]),
                        ("two", "\ufeff\ufeff" + js(order(1)))]:
        reject(f"bom/text-{label}", "proto.Order", text)
    reject("bom/text-start-primitives", P, "\ufeff" + js(prim()))
    for label, text in [("raw", "\ufeffX"), ("escaped", "\\ufeffX"), ("only", "\ufeff")]:
        shown = text.replace("\\ufeff", "\ufeff")
        same(f"bom/order-symbol-{label}", "proto.Order", '{"symbol":"' + text + '"}', js(order(0, shown)))
        same(f"bom/f_string-{label}", P, prim_field("f_string", '"' + text + '"'),
             prim_field("f_string", js(shown)))
        same(f"bom/f_map_optional-key-{label}", C, coll_field("f_map_optional", '{"' + text + '":1.0}'),
             coll_field("f_map_optional", js({shown: 1.0})))
    for field, value in [("f_decimal", "1"), ("f_uuid", u(1)), ("f_bytes", "QQ==")]:
        reject(f"bom/{field}", P, prim_field(field, '"\ufeff' + value + '"'))
    # A string that starts with U+FEFF keeps it in the binary formats too.
    text = js(dict(uid=1, name="\ufeffName", wallet=dict(currency="\ufeffUSD", amount=1.0),
                   orders=[order(2, "\ufeff")]))
    assert w.cpp is not None
    for fin in ("versioned", "final"):
        data = w.cpp.encode("proto.Account", text, fin)
        assert isinstance(data, bytes)
        assert data.count("\ufeff".encode()) == 3, data.hex()
        for fout in FORMATS:
            expect = w.convert(f"hostile/bom/account-strings/{fin}->{fout}", "proto.Account",
                               data_spec(fin, data), fout, accept=True)
            assert fout != fin or expect == SAME, (fin, expect)

    # Base64: groups of four characters of the standard alphabet, the last one padded
    # with "=" or "=="; the unused low bits of the last character are ignored.
    for label, text, canonical in [("pad-bits-2", "QR==", "QQ=="), ("pad-bits-1", "QUJ=", "QUI="),
                                   ("pad-bits-all", "Q///", "Q///"), ("plus-slash", "+/+/", "+/+/"),
                                   ("empty", "", "")]:
        same(f"base64/{label}", P, prim_field("f_bytes", js(text)), prim_field("f_bytes", js(canonical)))
    for label, text in [("no-padding-3", "NaN"), ("no-padding-2", "QQ"), ("short-padding", "QQ="),
                        ("three-pads", "Q==="), ("only-pads", "===="), ("one-pad", "="),
                        ("pad-inside", "QQ==QQ=="), ("pad-middle", "Q=Q="), ("url-safe", "-_-_"),
                        ("url-safe-mixed", "QU-_"), ("space", "QU JD"), ("newline", "QUJD\n"),
                        ("crlf", "QUJD\r\nQUJD"), ("tab", "\tQUJD"), ("star", "QUJ*"), ("non-ascii", "QUJ\u00e9"),
                        ("one-char", "Q"), ("five-chars", "QUJDR")]:
        reject(f"base64/{label}", P, prim_field("f_bytes", js(text)))
        reject(f"base64/hash-value-{label}", C, coll_field("f_hash", js({u(1): text})))

    # Leading zeros: a number with one is not JSON, whatever takes it (a decimal's string
    # is not a JSON number: its digits may have them).
    for label, number in [("01", "01"), ("minus-01", "-01"), ("00", "00"), ("01.5", "01.5"), ("00e1", "00e1")]:
        for field in ("f_int32", "f_uint64", "f_double", "f_decimal", "f_utc"):
            reject(f"leading-zero/{field}/{label}", P, prim_field(field, number))
        reject(f"leading-zero/order-side/{label}", "proto.Order", '{"side":' + number + "}")
        reject(f"leading-zero/optional-time/{label}", OPT, opt_field("f_time", number))
        reject(f"leading-zero/vector/{label}", C, coll_field("f_vector", "[" + number + "]"))
    for label, text, canonical in [("string-01", '"01"', '"1"'), ("string-007.50", '"007.50"', '"7.50"'),
                                   ("string-minus-00.0", '"-00.0"', '"-0.0"')]:
        same(f"leading-zero/f_decimal/{label}", P, prim_field("f_decimal", text),
             prim_field("f_decimal", canonical))

    # -0 is a JSON integer: 0 in every integer kind (as values and as map keys).
    for field in ("f_byte", "f_char", "f_wchar", "f_int8", "f_uint8", "f_int16", "f_uint16", "f_int32",
                  "f_uint32", "f_int64", "f_uint64", "f_epoch", "f_utc", "f_ns", "legacy"):
        same(f"minus-zero/{field}", P, prim_field(field, "-0"), prim_field(field, "0"))
        for label, bad in [("-0.0", "-0.0"), ("-00", "-00"), ("0e0", "0e0"), ("-0e0", "-0e0"), ("-", "-")]:
            reject(f"minus-zero/{field}/{label}", P, prim_field(field, bad))
    for field in ("f_int32", "f_time", "f_enum", "f_flags", "f_reset"):
        same(f"minus-zero/optional-{field}", OPT, opt_field(field, "-0"), opt_field(field, "0"))
    same("minus-zero/order-side", "proto.Order", '{"side":-0}', '{"side":0}')
    same("minus-zero/account-state", "proto.Account", '{"state":-0}', '{"state":0}')
    same("minus-zero/vector-element", C, coll_field("f_vector", "[-0,1]"), coll_field("f_vector", "[0,1]"))
    same("minus-zero/set-element", C, coll_field("f_set", "[-0]"), coll_field("f_set", "[0]"))
    for field, value in [("f_map", '"x"'), ("f_map_enum_key", js(OPT_NULL))]:
        for key in ("-0", "-000"):
            same(f"minus-zero/{field}-key/{key}", C, coll_field(field, "{" + json.dumps(key) + ":" + value + "}"),
                 coll_field(field, '{"0":' + value + "}"))
        reject(f"minus-zero/{field}-key/minus", C, coll_field(field, '{"-":' + value + "}"))
    same("minus-zero/f_double", P, prim_field("f_double", "-0"), prim_field("f_double", "-0.0"))
    same("minus-zero/f_decimal-number", P, prim_field("f_decimal", "-0"), prim_field("f_decimal", '"-0"'))
    same("minus-zero/f_float", P, prim_field("f_float", "-0"), prim_field("f_float", "-0.0"))

    # Exponents at the edges of each kind's range.
    for label, number, canonical in [
            ("double-rounds-to-max", "1.7976931348623158e308", "1.7976931348623157e308"),
            ("double-min-denormal", "4.9406564584124654e-324", "5e-324"),
            ("double-exponent-zeros", "1E+0002", "100.0"), ("double-exponent-minus-zero", "1e-0", "1.0"),
            ("double-underflow-negative", "-1e-400", "-0.0"), ("double-integer-exponent", "1e22", "1e22")]:
        same(f"exponent/{label}", P, prim_field("f_double", number), prim_field("f_double", canonical))
    for label, number, canonical in [("float-rounds-to-max", "3.4028235e38", "3.4028234663852886e38"),
                                     ("float-rounds-to-min", "-3.4028235e38", "-3.4028234663852886e38"),
                                     ("float-min-denormal", "1.401298464324817e-45", "1.401298464324817e-45"),
                                     ("float-underflow", "1e-46", "0.0")]:
        same(f"exponent/{label}", P, prim_field("f_float", number), prim_field("f_float", canonical))
    reject("exponent/float-halfway-to-2^128", P, prim_field("f_float", "3.4028235677973366e38"))
    for label, number in [("double-overflow", "1e309"), ("double-overflow-negative", "-1.8e308"),
                          ("float-overflow", "3.5e38"), ("double-bare-e", "1e"), ("double-e-sign", "1e+"),
                          ("double-dot-e", "1.e5"), ("double-leading-dot", ".5"), ("double-plus", "+1")]:
        reject(f"exponent/{label}", P, prim_field("f_float" if "float" in label else "f_double", number))
    for label, text, canonical in [
            ("decimal-1e28", '"1e28"', '"10000000000000000000000000000"'),
            ("decimal-1e+0028", '"1e+0028"', '"10000000000000000000000000000"'),
            ("decimal-max-e0", '"79228162514264337593543950335e0"', '"79228162514264337593543950335"'),
            ("decimal-max-scaled", '"7.9228162514264337593543950335e28"', '"79228162514264337593543950335"'),
            ("decimal-1e-28", '"1e-28"', '"0.0000000000000000000000000001"'),
            ("decimal-0.1e-27", '"0.1e-27"', '"0.0000000000000000000000000001"'),
            ("decimal-number-1e-28", "1e-28", '"0.0000000000000000000000000001"'),
            ("decimal-number-1E2", "1E2", '"100"'),
            ("decimal-zero-e-28", '"0e-28"', '"0.0000000000000000000000000000"')]:
        same(f"exponent/{label}", P, prim_field("f_decimal", text), prim_field("f_decimal", canonical))
    for label, text, canonical in [("decimal-leading-point", '".5"', '"0.5"'),
                                   ("decimal-trailing-point", '"5."', '"5"'),
                                   ("decimal-leading-point-exponent", '"-.5e1"', '"-5"'),
                                   ("decimal-trailing-point-exponent", '"5.E-1"', '"0.5"')]:
        same(f"exponent/{label}", P, prim_field("f_decimal", text), prim_field("f_decimal", canonical))
    for label, text in [("decimal-point-only", '"."'), ("decimal-point-exponent", '".e1"'),
                        ("decimal-number-leading-point", ".5"), ("decimal-number-trailing-point", "5.")]:
        reject(f"exponent/{label}", P, prim_field("f_decimal", text))
    for label, text in [("decimal-1e29", '"1e29"'),
                        ("decimal-max-plus-1-scaled", '"7.9228162514264337593543950336e28"'),
                        ("decimal-1e-29", '"1e-29"'), ("decimal-100e-30", '"100e-30"'),
                        ("decimal-1.0e-28", '"1.0e-28"'), ("decimal-number-1e29", "1e29"),
                        ("decimal-bare-e", '"1e"'), ("decimal-e-sign", '"1e-"')]:
        reject(f"exponent/{label}", P, prim_field("f_decimal", text))
    for field, number in [("f_int32", "1e2"), ("f_int32", "1.0"), ("f_int32", "1E0"), ("f_uint64", "1e19"),
                          ("f_utc", "1e18"), ("f_int64", "-9.2e18")]:
        reject(f"exponent/{field}-{number}", P, prim_field(field, number))
    for field, number, fits in [("f_uint64", "18446744073709551615", True), ("f_uint64", "18446744073709551616", False),
                              ("f_int64", "-9223372036854775808", True), ("f_int64", "-9223372036854775809", False),
                              ("f_utc", "18446744073709551615", True), ("f_utc", "18446744073709551616", False),
                              ("f_int64", "9223372036854775808", False), ("f_uint32", "4294967296", False)]:
        if fits:
            same(f"range/{field}-{number}", P, prim_field(field, number), prim_field(field, number))
        else:
            reject(f"range/{field}-{number}", P, prim_field(field, number))

    # Repeated keys: a struct field takes the last value, whole (a struct's fields that
    # the last object does not name have their defaults, not the earlier object's); map
    # keys equal by the schema's rule, the same text included, keep the first entry; and
    # every value is checked, also one a later key overrides or a first entry shadows.
    same("repeated/scalar-field", "proto.Order", '{"uid":1,"symbol":"a","uid":2}', '{"uid":2,"symbol":"a"}')
    same("repeated/optional-then-null", "proto.Account", '{"asset":{"currency":"X"},"asset":null}', "{}")
    same("repeated/optional-null-then-value", "proto.Account", '{"asset":null,"asset":{"currency":"X"}}',
         '{"asset":{"currency":"X"}}')
    same("repeated/primitives-field", P, prim_field("f_int32", "1")[:-1] + ',"f_int32":-5}',
         prim_field("f_int32", "-5"))
    reject("repeated/field-then-invalid", "proto.Order", '{"uid":1,"uid":"x"}')
    same("repeated/map-key-leading-zero", C, coll_field("f_map", '{"7":"a","07":"b"}'),
         coll_field("f_map", '{"7":"a"}'))
    same("repeated/map-key-minus-zero", C, coll_field("f_map", '{"0":"a","-0":"b"}'),
         coll_field("f_map", '{"0":"a"}'))
    same("repeated/enum-key-leading-zero", C,
         coll_field("f_map_enum_key", '{"2":' + js(OPT_NULL) + ',"002":' + js(OPT_FULL) + "}"),
         coll_field("f_map_enum_key", '{"2":' + js(OPT_NULL) + "}"))
    reject("repeated/map-key-invalid-value", C, coll_field("f_map", '{"7":"a","07":5}'))
    same("repeated/map-same-key", C, coll_field("f_map", '{"7":"a","7":"b"}'), coll_field("f_map", '{"7":"a"}'))
    same("repeated/hash-same-key", C, coll_field("f_hash_optional", '{"k":null,"k":' + js(prim()) + "}"),
         coll_field("f_hash_optional", '{"k":null}'))
    same("repeated/enum-key-same-key", C,
         coll_field("f_map_enum_key", '{"2":' + js(OPT_NULL) + ',"2":' + js(OPT_FULL) + "}"),
         coll_field("f_map_enum_key", '{"2":' + js(OPT_NULL) + "}"))
    same("repeated/struct-key-same-key", C,
         coll_field("f_hash_struct_key", "[[" + js(order(1)) + "," + js(OPT_NULL) + "],[" + js(order(1)) + ","
                    + js(OPT_FULL) + "]]"),
         coll_field("f_hash_struct_key", "[[" + js(order(1)) + "," + js(OPT_NULL) + "]]"))
    for label, value in [("second", '{"7":"a","7":5}'), ("first", '{"7":5,"7":"a"}'),
                         ("middle", '{"7":"a","7":null,"7":"b"}')]:
        reject(f"repeated/map-same-key-invalid-{label}", C, coll_field("f_map", value))
    reject("repeated/hash-same-key-invalid-second", C, coll_field("f_hash_optional", '{"k":null,"k":5}'))
    reject("repeated/enum-key-same-key-invalid-second", C,
           coll_field("f_map_enum_key", '{"2":' + js(OPT_NULL) + ',"2":{"f_int32":"x"}}'))
    reject("repeated/field-invalid-then-valid", "proto.Order", '{"uid":"x","uid":1}')
    reject("repeated/field-out-of-range-then-valid", "proto.Order", '{"uid":3000000000,"uid":1}')
    reject("repeated/struct-field-invalid-then-valid", "proto.Account",
           '{"wallet":{"amount":"x"},"wallet":{"currency":"Y"}}')
    reject("repeated/optional-field-invalid-then-null", "proto.Account", '{"asset":{"amount":"x"},"asset":null}')
    reject("repeated/vector-field-invalid-then-valid", C, coll_field("f_vector", "[256]")[:-1] + ',"f_vector":[1]}')
    reject("repeated/element-field-invalid-then-valid", C, coll_field("f_vector_struct", '[{"uid":"x","uid":1}]'))
    reject("repeated/map-value-field-invalid-then-valid", C,
           coll_field("f_map_enum_key", '{"2":{"f_int32":"x","f_int32":1}}'))
    # A repeated struct-valued field: the last object replaces the whole struct.
    same("repeated/struct-partial", "proto.Account",
         '{"wallet":{"currency":"X","amount":2.0},"wallet":{"amount":5.0}}', '{"wallet":{"amount":5.0}}')
    same("repeated/optional-struct-partial", "proto.Account",
         '{"asset":{"currency":"X","amount":2.0},"asset":{"currency":"Y"}}', '{"asset":{"currency":"Y"}}')
    same("repeated/optional-struct-partial-order", OPT,
         opt_field("f_order", '{"uid":1,"symbol":"a","price":1.5}')[:-1] + ',"f_order":{"uid":2}}',
         opt_field("f_order", '{"uid":2}'))
    same("repeated/vector-struct-partial", C,
         coll_field("f_vector_struct", '[{"uid":1,"symbol":"a"},{"uid":3}]')[:-1] + ',"f_vector_struct":[{"uid":2}]}',
         coll_field("f_vector_struct", '[{"uid":2}]'))
    same("repeated/struct-in-vector-partial", C,
         coll_field("f_list_optional", "[" + opt_field("f_order", '{"uid":1,"symbol":"a"}')[:-1]
                    + ',"f_order":{"uid":2}}]'),
         coll_field("f_list_optional", "[" + opt_field("f_order", '{"uid":2}') + "]"))
    same("repeated/struct-map-value-partial", C,
         coll_field("f_map_enum_key", '{"1":' + opt_field("f_order", '{"uid":1,"symbol":"a"}')[:-1]
                    + ',"f_order":{"uid":2}}}'),
         coll_field("f_map_enum_key", '{"1":' + opt_field("f_order", '{"uid":2}') + "}"))
    same("repeated/map-field-partial", C,
         coll_field("f_map_enum_key", '{"1":' + opt_field("f_int32", "5") + "}")[:-1]
         + ',"f_map_enum_key":{"2":' + opt_field("f_int32", "7") + "}}",
         coll_field("f_map_enum_key", '{"2":' + opt_field("f_int32", "7") + "}"))

    # Enums and flags are numbers only: a name, or a string holding the number, is the
    # wrong JSON type wherever one is read; an enum map key is a string holding the number.
    for label, name in [("order-side", "sell"), ("account-state", "good"), ("optional-f_enum", "a1"),
                        ("optional-f_flags", "a"), ("f_vector_optional", "a1")]:
        for what, text in [("name", js(name)), ("number", '"1"')]:
            if label.startswith("optional-"):
                type_name, value = OPT, opt_field(label[len("optional-"):], text)
            elif label == "f_vector_optional":
                type_name, value = C, coll_field(label, "[0," + text + "]")
            else:
                type_name = "proto.Order" if label == "order-side" else "proto.Account"
                value = "{" + js(label.split("-")[1]) + ":" + text + "}"
            reject(f"enum-string/{label}/{what}", type_name, value)
    reject("enum-string/map-value-f_enum/name", C,
           coll_field("f_map_enum_key", '{"1":' + opt_field("f_enum", '"a1"') + "}"))
    reject("enum-string/f_map_enum_key-key-name", C, coll_field("f_map_enum_key", '{"a1":' + js(OPT_NULL) + "}"))
    reject("enum-string/repeated-name-then-number", "proto.Order", '{"side":"sell","side":1}')

    # Wrong JSON types, for every kind of field.
    wrong = {"true": "true", "number": "1", "fraction": "1.5", "string": '"x"', "array": "[]",
             "object": "{}", "null": "null"}
    takes = {  # the JSON types each kind takes (a string "x" is never a valid one)
        "f_bool": {"true"}, "f_byte": {"number"}, "f_char": {"number"}, "f_wchar": {"number"},
        "f_int8": {"number"}, "f_uint8": {"number"}, "f_int16": {"number"}, "f_uint16": {"number"},
        "f_int32": {"number"}, "f_uint32": {"number"}, "f_int64": {"number"}, "f_uint64": {"number"},
        "f_float": {"number", "fraction"}, "f_double": {"number", "fraction"},
        "f_decimal": {"number", "fraction"}, "f_string": {"string"}, "f_bytes": set(),
        "f_epoch": {"number"}, "f_utc": {"number"}, "f_uuid": set()}
    for field, ok in takes.items():
        for label, value in wrong.items():
            if label not in ok:
                reject(f"wrong-type/{field}/{label}", P, prim_field(field, value))
    for field, ok in [("f_bool", {"true", "null"}), ("f_int32", {"number", "null"}),
                      ("f_string", {"string", "null"}), ("f_decimal", {"number", "fraction", "null"}),
                      ("f_uuid", {"null"}), ("f_time", {"number", "null"}), ("f_enum", {"number", "null"}),
                      ("f_flags", {"number", "null"}), ("f_struct", {"object", "null"}),
                      ("f_order", {"object", "null"}), ("f_reset", {"number", "null"})]:
        for label, value in wrong.items():
            if label not in ok:
                reject(f"wrong-type/optional-{field}/{label}", OPT, opt_field(field, value))
    for field, ok in [("f_array", set()), ("f_array_optional", set()), ("f_array_struct", set()),
                      ("f_vector", {"array"}), ("f_vector_optional", {"array"}), ("f_vector_struct", {"array"}),
                      ("f_list", {"array"}), ("f_list_optional", {"array"}), ("f_set", {"array"}),
                      ("f_set_struct", {"array"}), ("f_map", {"object"}), ("f_map_optional", {"object"}),
                      ("f_map_enum_key", {"object"}), ("f_hash", {"object"}), ("f_hash_optional", {"object"}),
                      ("f_hash_struct_key", {"array"})]:
        for label, value in wrong.items():
            if label not in ok:
                reject(f"wrong-type/{field}/{label}", C, coll_field(field, value))
    for field, elements in [("f_array", ['"x"', "1.5", "null", "[]"]), ("f_vector", ['"x"', "256", "-1", "null"]),
                            ("f_vector_optional", ['"x"', "true", "{}"]), ("f_vector_struct", ["1", "null", "[]"]),
                            ("f_list", ["1", "null", "[]"]), ("f_set", ['"x"', "1.5", "null"]),
                            ("f_set_struct", ["1", "null"])]:
        for element in elements:
            n = 3 if field == "f_array" else 1
            reject(f"wrong-type/{field}-element/{element}", C, coll_field(field, "[" + ",".join([element] * n) + "]"))
    for field, value in [("f_map", '{"7":1}'), ("f_map", '{"7":null}'), ("f_map_optional", '{"a":"x"}'),
                         ("f_map_enum_key", '{"0":1}'), ("f_hash", '{"' + u(1) + '":1}'),
                         ("f_hash_optional", '{"a":[]}'), ("f_map", '{"1.5":"x"}'), ("f_map", '{"x":"x"}'),
                         ("f_map_enum_key", '{"256":{}}'), ("f_hash", '{"x":""}')]:
        reject(f"wrong-type/{field}-entry/{value}", C, coll_field(field, value))
    for label, text in [("root-array", "[]"), ("root-string", '"x"'), ("root-number", "1"), ("root-null", "null"),
                        ("root-true", "true")]:
        reject(f"wrong-type/{label}", P, text)


# ---- malformed ---------------------------------------------------------------------------

def malformed(cpp: Cpp) -> Writer:
    w = Writer(cpp, "malformed", "Damaged and hostile input: every truncation of each vector, "
                                 "a spread of single-byte changes, crafted attacks. Each is "
                                 "rejected by verify, or accepted and re-serialized as "
                                 "recorded. Expectations from the C++ implementation.")
    sources = [("account", "proto.Account"), ("order", "proto.Order"),
               ("balance", "proto.Balance")]
    for name, type_name in sources:
        for fmt, suffix in (("versioned", "fbe"), ("final", "final")):
            file = f"{name}.{suffix}.hex"
            data = vector(file)
            for n in range(len(data)):
                w.reject(f"truncated/{name}.{fmt}/{n}", type_name,
                         {"format": fmt, "vector": file, "truncate": n}, fmt)
            for n in range(8, len(data)):
                w.convert(f"cut/{name}.{fmt}/{n}", type_name,
                          {"format": fmt, "vector": file, "truncate": n, "size": True}, fmt)
            for i, old in enumerate(data):
                for new in sorted({0x00, 0xFF, old ^ 0x01, old ^ 0x80, (old + 1) & 0xFF} - {old}):
                    w.convert(f"changed/{name}.{fmt}/{i}={new:02x}", type_name,
                              {"format": fmt, "vector": file, "patch": [[i, new]]}, fmt)
    crafted(cpp, w)
    return w


def crafted(cpp: Cpp, w: Writer) -> None:
    def put(data: bytes, at: int, fmt: str, *values: Any) -> bytes:
        out = bytearray(data)
        struct.pack_into("<" + fmt, out, at, *values)
        return bytes(out)

    def case(name: str, type_name: str, fmt: str, data: bytes) -> None:
        w.convert(f"crafted/{name}", type_name, data_spec(fmt, data), fmt)

    def binary(type_name: str, value: Any, fmt: str = "versioned") -> bytes:
        data = cpp.encode(type_name, js(value), fmt)
        assert isinstance(data, bytes)
        return data

    account, faccount = vector("account.fbe.hex"), vector("account.final.hex")
    case("four-billion-orders", "proto.Account", "versioned", put(account, 104, "I", 0xFFFFFFFF))
    case("four-billion-orders-final", "proto.Account", "final", put(faccount, 52, "I", 0xFFFFFFFF))
    case("reference-20-bytes", "proto.Balance", "versioned",
         struct.pack("<IIIII", 20, 8, 12, 2, 0xFFFFFFFF))
    case("name-into-own-body", "proto.Account", "versioned", put(account, 20, "I", 4))
    case("orders-backwards", "proto.Account", "versioned", put(account, 0x22, "I", 8))
    case("root-to-itself", "proto.Account", "versioned", put(account, 4, "I", 4))
    case("root-past-end", "proto.Account", "versioned", put(account, 4, "I", 0xFFFFFFF0))
    case("wallet-null", "proto.Account", "versioned", put(account, 0x19, "I", 0))
    case("asset-set-with-offset-0", "proto.Account", "versioned", put(account, 0x1E, "I", 0))
    case("asset-null-with-garbage-offset", "proto.Account", "versioned",
         put(put(account, 0x1D, "B", 0), 0x1E, "I", 0xDEADBEEF))
    case("wrong-type", "proto.Account", "versioned", put(account, 12, "I", 2))
    case("struct-size-7", "proto.Account", "versioned", put(account, 8, "I", 7))
    case("struct-size-past-end", "proto.Account", "versioned", put(account, 8, "I", 250))
    case("model-size-12", "proto.Account", "versioned", put(account, 0, "I", 12))
    case("model-size-4g", "proto.Account", "versioned", put(account, 0, "I", 0xFFFFFFFF))
    case("trailing-bytes", "proto.Account", "versioned", account + b"\0\0\0\0")
    case("final-wrong-type", "proto.Account", "final", put(faccount, 4, "I", 1))
    case("final-trailing-byte", "proto.Account", "final",
         put(faccount + b"\0", 0, "I", len(faccount) + 1))
    case("final-optional-flag-2", "proto.Account", "final", put(faccount, 0x24, "B", 2))
    # A bool byte 2 (in the block of Optionals.f_bool?, the first slot: [flag][offset]).
    optionals = binary("everything.Optionals", dict(f_bool=True, f_uuid=u(1), f_time=2))
    at = 8 + 8
    block = at + struct.unpack_from("<I", optionals, at + 1)[0]
    case("bool-byte-2", "everything.Optionals", "versioned", put(optionals, block, "B", 2))
    # Shared blocks: 1000 string slots pointing at one 1000-byte string.
    bag = binary("hostile.Bag", dict(words=["x" * 1000] + [""] * 999))
    block = 8 + struct.unpack_from("<I", bag, 8 + 8 + 4 + 4)[0]
    first = struct.unpack_from("<I", bag, block + 4)[0]
    shared = bytearray(bag)
    for i in range(1000):
        struct.pack_into("<I", shared, block + 4 + 4 * i, first)
    case("shared-string-1000-times", "hostile.Bag", "versioned", bytes(shared))
    # Deep nesting: 64 levels pass the default limit, 65 do not.
    for depth in (64, 65, 200):
        for fmt in ("versioned", "final"):
            case(f"nesting-{depth}-{fmt}", "hostile.Node", fmt, _deep(depth, fmt))
    # Zero-size elements in the final format: capped at 65536.
    for count in (65536, 65537, 0xFFFFFFFF):
        data = struct.pack("<III", 8 + 4 + 4 + 4 + 4, 3, count) + struct.pack("<III", 0, 0, 0)
        case(f"zero-size-elements-{count}", "hostile.Bag", "final", data)
    # A decimal scale of 29.
    shifted = binary("everything.Shifted", dict(amount="1"))
    case("decimal-scale-29", "everything.Shifted", "versioned", put(shifted, 16 + 14, "B", 29))
    fshifted = binary("everything.Shifted", dict(amount="1"), "final")
    case("decimal-scale-29-final", "everything.Shifted", "final", put(fshifted, 8 + 14, "B", 29))
    case("string-not-utf8", "proto.Balance", "versioned",
         put(vector("balance.fbe.hex"), 32, "BBB", 0xFF, 0xC3, 0x28))


def _deep(depth: int, fmt: str) -> bytes:
    if fmt == "final":
        body = b"".join(struct.pack("<iI", i, 1) for i in range(depth - 1)) + struct.pack("<iI", 0, 0)
        return struct.pack("<II", 8 + len(body), 1) + body
    out = bytearray(struct.pack("<II", 0, 8))
    for i in range(depth):
        last = i == depth - 1
        out += struct.pack("<IIiI", 16, 1, i, 0 if last else 16)
        if not last:
            out += struct.pack("<II", 1, 24)
    struct.pack_into("<I", out, 0, len(out))
    return bytes(out)


def write_all(folder: str, verbose: bool = True) -> List[str]:
    cpp = Cpp()
    try:
        writers = [golden(), roundtrip(cpp), versioning(cpp), json_suite(cpp), malformed(cpp)]
    finally:
        cpp.close()
    paths = []
    for writer in writers:
        paths.append(writer.save(folder))
        if verbose:
            print(f"wrote {os.path.relpath(paths[-1], REPO)}: {len(writer.cases)} cases")
    return paths


def check() -> int:
    """Regenerates into a temporary directory and compares with conformance/cases."""
    cases = os.path.join(HERE, "cases")
    with tempfile.TemporaryDirectory() as tmp:
        fresh = sorted(os.path.basename(p) for p in write_all(tmp, verbose=False))
        kept = sorted(f for f in os.listdir(cases) if f.endswith(".json"))
        stale = []
        for name in sorted(set(fresh) | set(kept)):
            try:
                with open(os.path.join(cases, name), encoding="utf-8") as fh:
                    old = fh.read().splitlines()
            except FileNotFoundError:
                old = []
            try:
                with open(os.path.join(tmp, name), encoding="utf-8") as fh:
                    new = fh.read().splitlines()
            except FileNotFoundError:
                new = []
            if old != new:
                stale.append(name)
                diff = list(difflib.unified_diff(old, new, f"conformance/cases/{name}",
                                                 "regenerated", n=0, lineterm=""))
                for line in diff[:12]:
                    print(line[:300])
                if len(diff) > 12:
                    print(f"... ({len(diff) - 12} more diff lines)")
    if stale:
        print(f"make_cases.py: conformance/cases is out of date ({', '.join(stale)}): run "
              "python3 conformance/make_cases.py and review the diff")
        return 1
    print(f"make_cases.py: conformance/cases is up to date ({len(fresh)} files)")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Writes the conformance cases.")
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temporary directory and compare with cases/")
    args = ap.parse_args(argv)
    if args.check:
        return check()
    os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
    write_all(os.path.join(HERE, "cases"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
