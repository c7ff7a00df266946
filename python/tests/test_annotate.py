"""fastwire_runtime.annotate (`fastwire explain`, and where `fastwire decode` says a
malformed input fails): its walk accepts and rejects exactly what verify does, with the same
error code, on every binary input of the conformance suite."""

from __future__ import annotations

import os
import sys
from typing import Dict

import pytest
from seeds import REPO, vector

import fastwire_runtime as rt
from fastwire_runtime import annotate, dynamic

sys.path.insert(0, os.path.join(REPO, "compiler"))


@pytest.fixture(scope="module")
def structs() -> Dict[str, dynamic.DynamicStruct]:
    from fastwire.diagnostics import Reporter
    from fastwire.generators import CONFORMANCE_SCHEMAS
    from fastwire.ir_json import to_dict
    from fastwire.resolver import compile_schema
    out: Dict[str, dynamic.DynamicStruct] = {}
    for path in CONFORMANCE_SCHEMAS:
        schema = compile_schema(os.path.join(REPO, path), Reporter())
        assert schema is not None
        d = dynamic.Schema(to_dict(schema))
        for name, codec in d.structs.items():
            out.setdefault(name, codec)
    return out


def test_walk_agrees_with_verify_on_every_conformance_input(structs):
    import importlib.util  # conformance/run.py: the cases and their payloads
    spec = importlib.util.spec_from_file_location(
        "conformance_run", os.path.join(REPO, "conformance", "run.py"))
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    checked = rejected = 0
    for case in run.load_cases():
        if case.input_format == "json":
            continue
        final = case.input_format == "final"
        codec = structs[case.type]
        model = type("M", (rt.FinalModel if final else rt.Model,),
                     {"__slots__": (), "codec": codec})()
        try:
            model.validate(case.input)
            expected = None
        except rt.DecodeError as err:
            expected = err.code
        ann = annotate.annotate(codec, case.input, final)
        got = None if ann.error is None else ann.error.code
        assert got == expected, (case.name, got, expected, ann.error)
        if expected is not None:
            assert getattr(ann.error, "offset", None) is not None, case.name
            rejected += 1
        checked += 1
    assert checked > 2000 and rejected > 1000


def test_every_byte_of_the_seed_vectors_read_once(structs):
    for name, final in (("account.fbe.hex", False), ("account.final.hex", True),
                        ("order.fbe.hex", False), ("balance.final.hex", True)):
        data = vector(name)
        codec = structs["proto." + name.split(".")[0].capitalize()]
        ann = annotate.annotate(codec, data, final)
        assert ann.error is None
        assert not [line for line in ann.lines() if "!!" in line], name


def test_newer_and_older_versions_are_named(structs):
    from fastwire.diagnostics import Reporter
    from fastwire.ir_json import to_dict
    from fastwire.resolver import compile_schema
    ex = dynamic.Schema(to_dict(compile_schema(os.path.join(REPO, "schemas", "protoex.fbe"), Reporter())))
    newer = ex.model("protoex.Order").serialize(ex.new("protoex.Order", uid=1))
    lines = annotate.annotate(structs["proto.Order"], newer).lines()
    assert any("!! skipped" in line and "newer version" in line for line in lines)
    older = annotate.annotate(ex.struct("protoex.Order"), vector("order.fbe.hex")).lines()
    assert any("older version: tp, sl not written" in line for line in older)


def test_what_writers_write_is_read_once_byte_for_byte(structs):
    """Every binary output the conformance cases expect (C++'s bytes): the walk reads each
    byte exactly once, so nothing is flagged."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "conformance_run", os.path.join(REPO, "conformance", "run.py"))
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    checked = 0
    for case in run.load_cases():
        if case.output_format == "json" or case.expect["status"] != "ok":
            continue
        data = case.expected_output()
        ann = annotate.annotate(structs[case.type], data, case.output_format == "final")
        assert ann.error is None, case.name
        flagged = [line for line in ann.lines() if "!!" in line]
        assert not flagged, (case.name, flagged[:3])
        checked += 1
    assert checked > 500
