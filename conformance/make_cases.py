"""Writes the conformance cases (conformance/cases/*.json).

    python3 conformance/make_cases.py            # regenerate; review the diff like code

Suites:
- golden: the reference's vectors (tests/vectors) converted between the three formats;
  every expectation is a reference vector, none comes from fastwire.
- roundtrip: every type of schemas/everything.fbe with extreme values, each value in each
  format converted to each format.
- versioning: proto (old) and protoex (new) reading each other's data.
- json: JSON text: fastwire's number and decimal forms, defaults of missing fields,
  rejected text.
- malformed: every truncation of each vector, a spread of single-byte changes, and
  crafted attacks (4-billion counts, backward offsets, shared blocks, deep nesting,
  zero-size elements): each is rejected, or accepted with a fixed re-serialization.

Except for the golden suite, expected outputs are computed by the Python implementation
(python/) and recorded here. They are the contract the other languages are held to; a
language that disagrees shows up as a failure to investigate, and once the C++
implementation exists the two must agree on every case.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import uuid
from decimal import Decimal
from typing import Any, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VECTORS = os.path.join(REPO, "tests", "vectors")
sys.path.insert(0, HERE)
from testees import SCHEMAS  # noqa: E402

FORMATS = ("versioned", "final", "json")


def vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name)) as fh:
        return bytes.fromhex("".join(fh.read().split()))


class Writer:
    def __init__(self, suite: str, description: str) -> None:
        self.suite = suite
        self.description = description
        self.cases: List[Dict[str, Any]] = []

    def add(self, name: str, type_name: str, input_spec: dict, output: str, expect: dict) -> None:
        self.cases.append({"name": f"{self.suite}/{name}", "type": type_name,
                           "input": input_spec, "output": output, "expect": expect})

    def save(self) -> None:
        path = os.path.join(HERE, "cases", f"{self.suite}.json")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write('{\n  "suite": ' + json.dumps(self.suite) + ',\n  "description": '
                     + json.dumps(self.description) + ',\n  "cases": [\n')
            fh.write(",\n".join("    " + json.dumps(c, ensure_ascii=False, separators=(",", ":"))
                                for c in self.cases))
            fh.write("\n  ]\n}\n")
        print(f"wrote {os.path.relpath(path, REPO)}: {len(self.cases)} cases")


def data_spec(fmt: str, data: Any) -> dict:
    if fmt == "json":
        return {"format": fmt, "text": data}
    return {"format": fmt, "hex": data.hex()}


def ok(fmt: str, data: Any) -> dict:
    return {"status": "ok", "text": data} if fmt == "json" else {"status": "ok", "hex": data.hex()}


REJECT = {"status": "reject"}


class Python:
    """The generated modules and the conversions the expectations come from."""

    def __init__(self, folder: str) -> None:
        sys.path[:0] = [folder, os.path.join(REPO, "python")]
        import everything
        import fastwire_runtime
        import hostile
        import proto
        import protocol
        import protoex
        self.rt = fastwire_runtime
        self.modules = {m.__name__: m for m in (proto, protoex, protocol, everything, hostile)}

    def kind(self, type_name: str):
        package, _, name = type_name.partition(".")
        m = self.modules[package]
        return getattr(m, name), getattr(m, name + "Model")(), getattr(m, name + "FinalModel")()

    def encode(self, type_name: str, value: Any, fmt: str) -> Any:
        _, model, final = self.kind(type_name)
        return {"versioned": model.serialize, "final": final.serialize,
                "json": lambda v: v.to_json()}[fmt](value)

    def convert(self, type_name: str, fmt_in: str, data: Any, fmt_out: str) -> dict:
        """What a conforming testee answers."""
        cls, model, final = self.kind(type_name)
        try:
            if fmt_in == "json":
                value = cls.from_json(data)
            else:
                m = model if fmt_in == "versioned" else final
                m.validate(data)
                value = m.deserialize(data)
        except self.rt.DecodeError:
            return REJECT
        out = self.encode(type_name, value, fmt_out)
        if fmt_out == fmt_in and out == data:
            return {"status": "ok", "same": True}
        if fmt_out != "json" and fmt_in != "json" and len(out) == len(data):
            return {"status": "ok", "same": True,
                    "patch": [[i, b] for i, (a, b) in enumerate(zip(data, out)) if a != b]}
        return ok(fmt_out, out)


# ---- golden ------------------------------------------------------------------------------

def golden() -> Writer:
    w = Writer("golden", "The reference's vectors between the three formats; every "
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
        inputs = {"versioned": {"format": "versioned", "vector": "protocol.hex",
                                "slice": list(versioned[msg])},
                  "final": {"format": "final", "vector": "protocol.final.hex",
                            "slice": list(final[msg])},
                  "json": {"format": "json", "text": '{"body":' + body + "}"}}
        outputs = {"versioned": {"status": "ok", "vector": "protocol.hex",
                                 "slice": list(versioned[msg])},
                   "final": {"status": "ok", "vector": "protocol.final.hex",
                             "slice": list(final[msg])},
                   "json": {"status": "ok", "text": '{"body":' + body + "}"}}
        for fin in FORMATS:
            for fout in FORMATS:
                w.add(f"{msg.lower()}-message/{fin}->{fout}", t, inputs[fin], fout, outputs[fout])
    return w


# ---- roundtrip ---------------------------------------------------------------------------

def roundtrip_values(py: Python) -> List[tuple]:
    E = py.modules["everything"]
    P = py.modules["proto"]
    X = py.modules["protoex"]
    u = uuid.UUID
    U64 = 2 ** 64 - 1

    def prim(**kw):
        base = dict(f_utc=1700000000000000000, f_uuid1=u("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
                    f_uuid4=u("f47ac10b-58cc-4372-a567-0e02b2c3d479"))
        base.update(kw)
        return E.Primitives(**base)

    pmin = prim(f_bool=False, f_byte=0, f_char=0, f_wchar=0, f_int8=-128, f_uint8=0,
                f_int16=-32768, f_uint16=0, f_int32=-2 ** 31, f_uint32=0, f_int64=-2 ** 63,
                f_uint64=0, f_float=-3.4028234663852886e38, f_double=-1.7976931348623157e308,
                f_decimal=Decimal("-79228162514264337593543950335"), f_string="", f_bytes=b"",
                f_epoch=0, f_utc=0, f_ns=0, f_uuid0=u(int=0), f_uuid1=u(int=0),
                f_uuid4=u(int=0), f_uuid=u(int=0), password="", legacy=-2 ** 31)
    pmax = prim(f_bool=True, f_byte=255, f_char=255, f_wchar=0xFFFFFFFF, f_int8=127,
                f_uint8=255, f_int16=32767, f_uint16=65535, f_int32=2 ** 31 - 1,
                f_uint32=2 ** 32 - 1, f_int64=2 ** 63 - 1, f_uint64=U64,
                f_float=3.4028234663852886e38, f_double=1.7976931348623157e308,
                f_decimal=Decimal("0.0000000000000000000000000001"),
                f_string="\u00e9\u4e2d\U0001F600\x00\"\\\n\t/", f_bytes=bytes(range(256)),
                f_epoch=U64, f_utc=U64, f_ns=U64, f_uuid0=u(int=2 ** 128 - 1), password="p",
                legacy=2 ** 31 - 1)
    numbers = prim(f_float=1.5e-45, f_double=5e-324, f_decimal=Decimal("-0.00"))
    specials = prim(f_float=float("-inf"), f_double=float("nan"), f_decimal=Decimal("1.50"))
    opt_full = E.Optionals(f_bool=False, f_int32=-1, f_string="", f_decimal=Decimal("1.50"),
                           f_uuid=u(int=7), f_time=U64, f_enum=E.EnumByte.a3,
                           f_flags=E.Flags(0), f_struct=pmax,
                           f_order=P.Order(9, "X", P.OrderSide.sell), f_reset=-2 ** 63,
                           f_resetReset=True)
    opt_null = E.Optionals(f_bool=None, f_int32=None, f_string=None, f_decimal=None,
                           f_uuid=None, f_time=None, f_enum=None, f_flags=None, f_struct=None,
                           f_order=None, f_reset=None)
    coll = E.Collections(
        f_array=[-1, 0, 2 ** 31 - 1], f_array_optional=[None, "x"], f_array_struct=[pmin, prim()],
        f_vector=[0, 1, 255], f_vector_optional=[None, E.EnumByte.a2, 77],
        f_vector_struct=[P.Order(1), P.Order(2, "Y")], f_list=["b", "a", "b"],
        f_list_optional=[None, opt_null], f_set={-2 ** 63, 0, 2 ** 63 - 1},
        f_set_struct={P.Balance("EUR", 1.0), P.Balance("CHF")},
        f_map={3: "c", -1: "minus", 2 ** 31 - 1: ""}, f_map_optional={"b": None, "a": -0.0},
        f_map_enum_key={E.EnumByte.a3: opt_null, E.EnumByte.a0: opt_null},
        f_hash={u(int=9): b"\x00", u(int=1): b""}, f_hash_optional={"z": None, "a": numbers},
        f_hash_struct_key={P.Order(5): opt_null, P.Order(4, "K"): opt_null})
    coll_empty = E.Collections(f_array_struct=[prim(), prim()])
    return [
        ("everything.Primitives", "min", pmin),
        ("everything.Primitives", "max", pmax),
        ("everything.Primitives", "denormals", numbers),
        ("everything.Primitives", "specials", specials),
        ("everything.Optionals", "full", opt_full),
        ("everything.Optionals", "null", opt_null),
        ("everything.Collections", "full", coll),
        ("everything.Collections", "empty", coll_empty),
        ("everything.Fixed", "negative", E.Fixed(id=-5)),
        ("everything.Next", "uuid", E.Next(id=u(int=3))),
        ("everything.Shifted", "max", E.Shifted(amount=Decimal("79228162514264337593543950335"))),
        ("everything.Base", "min", E.Base("b", -128)),
        ("everything.Derived", "keys", E.Derived("d", 3, serial=2 ** 31 - 1, weight=-0.5)),
        ("everything.MoreDerived", "tiny", E.MoreDerived("m", 1, 7, 1e-300, last=True)),
        ("everything.Wallet", "scale", E.Wallet("USD", 1.0, reserved=Decimal("-12.3400"))),
        ("everything.ExAccount", "unknown-values",
         E.ExAccount(uid=3, orders=[X.Order(1, tp=1.0)], refs=E.EnumRefs.old,
                     extra=X.State(0xFF))),
        ("everything.PingRequest", "text", E.PingRequest(id=u(int=1), sent=5, note="\u2603")),
        ("everything.Notify", "text", E.Notify(id=u(int=2), text="n")),
        ("everything.Empty", "empty", E.Empty()),
        ("proto.Account", "empty", P.Account()),
        ("proto.Account", "no-asset", P.Account(uid=-1, name="\u00fc", state=P.State(0xFF),
                                                asset=None, orders=[])),
        ("hostile.Node", "tree", py.modules["hostile"].Node(
            1, [py.modules["hostile"].Node(2), py.modules["hostile"].Node(3, [
                py.modules["hostile"].Node(4)])])),
        ("hostile.Bag", "mixed", py.modules["hostile"].Bag(
            items=[py.modules["hostile"].Nothing()] * 3, names=[None, "n"], words=["w"],
            blob=b"\x01")),
    ]


def roundtrip(py: Python) -> Writer:
    w = Writer("roundtrip", "Every type of everything.fbe (and of proto, hostile) with extreme "
                            "values: each value in each format, converted to each format. "
                            "Expectations computed by the Python implementation.")
    for type_name, label, value in roundtrip_values(py):
        forms = {f: py.encode(type_name, value, f) for f in FORMATS}
        for fin in FORMATS:
            for fout in FORMATS:
                expect = py.convert(type_name, fin, forms[fin], fout)
                assert expect["status"] == "ok", (type_name, label, fin, fout)
                w.add(f"{type_name}/{label}/{fin}->{fout}", type_name, data_spec(fin, forms[fin]),
                      fout, expect)
    return w


# ---- versioning --------------------------------------------------------------------------

def versioning(py: Python) -> Writer:
    w = Writer("versioning", "proto (old) and protoex (new) read each other's data; fields "
                             "an older writer did not send take their declared defaults. "
                             "Expectations computed by the Python implementation.")
    X = py.modules["protoex"]
    new = X.Account(uid=7, name="New", state=X.State.good | X.State.sad,
                    wallet=X.Balance("USD", 1000.0, locked=50.0), asset=None,
                    orders=[X.Order(1, "EURUSD", X.OrderSide.tell, X.OrderType.stoplimit, 1.5,
                                    10.0, tp=2.0, sl=1.0),
                            X.Order(2, "GBPUSD", X.OrderSide.sell, X.OrderType.limit, 1.25, 5.0)])
    for old_name, type_name in [("account", "Account"), ("order", "Order"),
                                ("balance", "Balance")]:
        data = vector(f"{old_name}.fbe.hex")
        for fout in FORMATS:
            w.add(f"old-to-new/{old_name}/versioned->{fout}", f"protoex.{type_name}",
                  {"format": "versioned", "vector": f"{old_name}.fbe.hex"}, fout,
                  py.convert(f"protoex.{type_name}", "versioned", data, fout))
        # The final format does not version: another version's bytes are rejected.
        w.add(f"old-to-new/{old_name}/final-rejected", f"protoex.{type_name}",
              {"format": "final", "vector": f"{old_name}.final.hex"}, "final", REJECT)
    newer = {"Account": new, "Order": new.orders[0], "Balance": new.wallet}
    for type_name, value in newer.items():
        data = X.__dict__[type_name + "Model"]().serialize(value)
        fdata = X.__dict__[type_name + "FinalModel"]().serialize(value)
        for fout in FORMATS:
            w.add(f"new-to-old/{type_name.lower()}/versioned->{fout}", f"proto.{type_name}",
                  data_spec("versioned", data), fout,
                  py.convert(f"proto.{type_name}", "versioned", data, fout))
        w.add(f"new-to-new/{type_name.lower()}/versioned->versioned", f"protoex.{type_name}",
              data_spec("versioned", data), "versioned", {"status": "ok", "same": True})
        expect = py.convert(f"proto.{type_name}", "final", fdata, "final")
        w.add(f"new-to-old/{type_name.lower()}/final", f"proto.{type_name}",
              data_spec("final", fdata), "final", expect)
    # New JSON read by the old type: unknown keys are ignored.
    text = new.to_json()
    for fout in FORMATS:
        w.add(f"new-to-old/account/json->{fout}", "proto.Account", data_spec("json", text), fout,
              py.convert("proto.Account", "json", text, fout))
    return w


# ---- json --------------------------------------------------------------------------------

def json_suite(py: Python) -> Writer:
    w = Writer("json", "JSON text: fastwire's forms (doubles as RapidJSON writes them, NaN and "
                       "infinities as strings, decimals as exact text, 64-bit integers exact), "
                       "defaults of missing fields, and text that must be rejected. "
                       "Expectations computed by the Python implementation.")
    P = py.modules["proto"]

    def add(name: str, type_name: str, text: str, fouts=FORMATS) -> None:
        for fout in fouts:
            w.add(f"{name}/json->{fout}", type_name, data_spec("json", text), fout,
                  py.convert(type_name, "json", text, fout))

    for i, price in enumerate([0.0, -0.0, 0.1, 1e-5, 1e-6, 1e-7, 1e16, 1e20, 1e21, 1e22,
                               1.7976931348623157e308, 5e-324, 2.0 ** 63, 123.45600128173828,
                               float("nan"), float("inf"), float("-inf")]):
        order = P.Order(uid=i, price=price, volume=-price)
        for fmt in ("versioned", "final"):
            data = py.encode("proto.Order", order, fmt)
            w.add(f"double/{i}/{fmt}->json", "proto.Order", data_spec(fmt, data), "json",
                  py.convert("proto.Order", fmt, data, "json"))
    add("defaults/order-empty-object", "proto.Order", "{}")
    add("defaults/account-empty-object", "proto.Account", "{}")
    add("defaults/account-some-fields", "proto.Account", '{"uid":5,"orders":[{"uid":6}]}')
    add("exact/int64", "everything.Fixed", '{"id":-2147483648}')
    add("exact/decimal-scale", "everything.Shifted", '{"amount":"-0.0000000000000000000000000001"}')
    add("exact/decimal-number", "everything.Shifted", '{"amount":1.50}')
    add("exact/decimal-integer", "everything.Shifted", '{"amount":"79228162514264337593543950335"}')
    add("strings/escapes", "proto.Balance",
        '{"currency":"\\u0000\\u001f\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00","amount":1}')
    add("numbers/strings", "proto.Order", '{"price":"NaN","volume":"-Infinity"}')
    add("numbers/exponent", "proto.Order", '{"price":1E2,"volume":-1.5e-3}')
    add("keys/enum-map", "everything.Collections",
        py.encode("everything.Collections", py.modules["everything"].Collections(
            f_array_struct=[py.modules["everything"].Primitives(
                f_utc=0, f_uuid1=uuid.UUID(int=1), f_uuid4=uuid.UUID(int=4))] * 2,
            f_map={-5: "m"}, f_map_enum_key={}, f_map_optional={"x": float("nan")}), "json"))
    for i, bad in enumerate([
            "", "{", "[]", "null", '{"uid":"1"}', '{"uid":1.5}', '{"uid":2147483648}',
            '{"symbol":5}', '{"side":256}', '{"side":-1}', '{"price":"fast"}', '{"price":true}',
            '{"price":null}', '{"uid":1}x', '{"uid":01}', "{'uid':1}"]):
        w.add(f"reject/order/{i}", "proto.Order", data_spec("json", bad), "versioned", REJECT)
    for i, bad in enumerate([
            '{"wallet":null}', '{"orders":{}}', '{"orders":[null]}', '{"state":256}',
            '{"asset":5}']):
        w.add(f"reject/account/{i}", "proto.Account", data_spec("json", bad), "versioned", REJECT)
    for i, bad in enumerate(['{"amount":"1e-29"}', '{"amount":"79228162514264337593543950336"}',
                             '{"amount":"NaN"}', '{"amount":"x"}', '{"amount":[]}']):
        w.add(f"reject/decimal/{i}", "everything.Shifted", data_spec("json", bad), "versioned",
              REJECT)
    return w


# ---- malformed ---------------------------------------------------------------------------

def malformed(py: Python) -> Writer:
    w = Writer("malformed", "Damaged and hostile input: every truncation of each vector, a "
                            "spread of single-byte changes, crafted attacks. Each is rejected "
                            "by verify, or accepted and re-serialized as recorded. Expectations "
                            "computed by the Python implementation.")
    sources = [("account", "proto.Account"), ("order", "proto.Order"),
               ("balance", "proto.Balance")]
    for name, type_name in sources:
        for fmt, suffix in (("versioned", "fbe"), ("final", "final")):
            file = f"{name}.{suffix}.hex"
            data = vector(file)
            for n in range(len(data)):
                w.add(f"truncated/{name}.{fmt}/{n}", type_name,
                      {"format": fmt, "vector": file, "truncate": n}, fmt, REJECT)
            for n in range(8, len(data)):
                cut = struct.pack("<I", n) + data[4:n]
                w.add(f"cut/{name}.{fmt}/{n}", type_name,
                      {"format": fmt, "vector": file, "truncate": n, "size": True}, fmt,
                      py.convert(type_name, fmt, cut, fmt))
            for i, old in enumerate(data):
                for new in sorted({0x00, 0xFF, old ^ 0x01, old ^ 0x80, (old + 1) & 0xFF} - {old}):
                    mutant = bytearray(data)
                    mutant[i] = new
                    w.add(f"changed/{name}.{fmt}/{i}={new:02x}", type_name,
                          {"format": fmt, "vector": file, "patch": [[i, new]]}, fmt,
                          py.convert(type_name, fmt, bytes(mutant), fmt))
    crafted(py, w)
    return w


def crafted(py: Python, w: Writer) -> None:
    H = py.modules["hostile"]

    def put(data: bytes, at: int, fmt: str, *values) -> bytes:
        out = bytearray(data)
        struct.pack_into("<" + fmt, out, at, *values)
        return bytes(out)

    def case(name: str, type_name: str, fmt: str, data: bytes) -> None:
        w.add(f"crafted/{name}", type_name, data_spec(fmt, data), fmt,
              py.convert(type_name, fmt, data, fmt))

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
    case("bool-byte-2", "everything.Optionals", "versioned",
         _bool_two(py))
    # Shared blocks: 1000 string slots pointing at one 1000-byte string.
    bag = H.BagModel().serialize(H.Bag(words=["x" * 1000] + [""] * 999))
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
    E = py.modules["everything"]
    shifted = E.ShiftedModel().serialize(E.Shifted(amount=Decimal(1)))
    case("decimal-scale-29", "everything.Shifted", "versioned", put(shifted, 16 + 14, "B", 29))
    fshifted = E.ShiftedFinalModel().serialize(E.Shifted(amount=Decimal(1)))
    case("decimal-scale-29-final", "everything.Shifted", "final", put(fshifted, 8 + 14, "B", 29))
    case("string-not-utf8", "proto.Balance", "versioned",
         put(vector("balance.fbe.hex"), 32, "BBB", 0xFF, 0xC3, 0x28))


def _bool_two(py: Python) -> bytes:
    E = py.modules["everything"]
    value = E.Optionals(f_bool=True, f_uuid=uuid.UUID(int=1), f_time=2)
    data = bytearray(E.OptionalsModel().serialize(value))
    at = 8 + 8  # Optionals body: f_bool? slot is the first: [flag][offset]
    block = at + struct.unpack_from("<I", data, at + 1)[0]
    data[block] = 2
    return bytes(data)


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


def main() -> int:
    with tempfile.TemporaryDirectory() as gen:
        env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
        subprocess.run([sys.executable, "-m", "fastwire", "compile",
                        *[os.path.join(REPO, s) for s in SCHEMAS], "--lang", "python",
                        "--final", "--json", "--proto", "-q", "-o", gen], check=True, env=env)
        py = Python(gen)
        os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
        for writer in (golden(), roundtrip(py), versioning(py), json_suite(py), malformed(py)):
            writer.save()
    return 0


if __name__ == "__main__":
    sys.exit(main())
