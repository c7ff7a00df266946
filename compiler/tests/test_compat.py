"""fastwire compat: each verdict class, proven with the generated Python code of both
versions. Data written by one version's generated code is read by the other's: what compat
calls safe reads back the same values, what it calls breaking fails or reads other
values, what it calls a warning reads, with the difference it names."""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import subprocess
import sys
from typing import Any, Dict, List

import pytest

from fastwire.compat import BREAKING, SAFE, WARNING, Change, compare
from fastwire.diagnostics import Reporter
from fastwire.generators import LANGUAGES, Options
from fastwire.resolver import compile_schema

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import fastwire_runtime as rt  # noqa: E402 - after the runtime's path

OLD = """package v
enum Color : byte { red; green; }
flags Perm : byte { r = 1; w = 2; rw = r | w; }
struct Item { [key] int32 id; string name; double price = 1.5; Color color; Perm perm; }
"""
_count = itertools.count()


def version(tmp_path, text: str) -> Any:
    """The schema text compiled, and its generated Python module loaded (a new name each
    time, so both versions of package v live side by side)."""
    tag = next(_count)
    folder = tmp_path / f"v{tag}"
    folder.mkdir()
    (folder / "v.fbe").write_text(text)
    schema = compile_schema(str(folder / "v.fbe"), Reporter())
    assert schema is not None, text
    for rel, content in LANGUAGES["python"].generate(schema, Options(final=True, json=True)).items():
        (folder / rel).write_text(content)
    spec = importlib.util.spec_from_file_location(f"v_fbe_{tag}", folder / "v_fbe.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.__dict__["schema"] = schema
    return module


def changes(old: Any, new: Any) -> Dict[str, Change]:
    found = compare(old.schema, new.schema)
    return {f"{c.kind} {c.subject}": c for c in found}


def the(old: Any, new: Any, key: str) -> Dict[str, str]:
    found = changes(old, new)
    assert key in found, list(found)
    return found[key].verdicts


def item(mod: Any, **kw: Any) -> Any:
    values = dict(id=7, name="seven", price=2.5, color=mod.Color.green, perm=mod.Perm.rw)
    values.update(kw)
    return mod.Item(**{k: v for k, v in values.items() if k in mod.Item.__slots__})


def across(writer: Any, reader: Any, value: Any, fmt: str) -> Any:
    """`value` written by one version in a format, read by the other."""
    if fmt == "json":
        return reader.Item.from_json(value.to_json())
    suffix = "FinalModel" if fmt == "final" else "Model"
    data = getattr(writer, "Item" + suffix)().serialize(value)
    return getattr(reader, "Item" + suffix)().deserialize(data)


def same(a: Any, b: Any, fields: List[str]) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in fields)


def reads_same(writer: Any, reader: Any, fmt: str, fields: List[str], **kw: Any) -> bool:
    value = item(writer, **kw)
    return same(value, across(writer, reader, value, fmt), fields)


def fails_or_differs(writer: Any, reader: Any, fmt: str, fields: List[str], **kw: Any) -> bool:
    value = item(writer, **kw)
    try:
        got = across(writer, reader, value, fmt)
    except rt.DecodeError:
        return True
    return not same(value, got, fields)


ALL = ["id", "name", "price", "color", "perm"]


def test_field_appended(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("Perm perm; }", "Perm perm; int64 extra = 9; }"))
    assert the(old, new, "field_appended Item.extra") == {
        "new_to_old": SAFE, "old_to_new": SAFE, "final": BREAKING, "json": SAFE}
    for fmt in ("versioned", "json"):
        assert reads_same(old, new, fmt, ALL) and reads_same(new, old, fmt, ALL)
        assert across(old, new, item(old), fmt).extra == 9  # the default
    assert fails_or_differs(old, new, "final", ALL) and fails_or_differs(new, old, "final", ALL)


def test_field_removed_from_the_end(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace(" Perm perm; }", " }"))
    assert the(old, new, "field_removed Item.perm") == {
        "new_to_old": BREAKING, "old_to_new": SAFE, "final": BREAKING, "json": BREAKING}
    kept = ["id", "name", "price", "color"]
    assert reads_same(old, new, "versioned", kept)
    # a new writer cannot keep perm: an old reader gets the default, not the value written
    value = item(old)
    through = across(new, old, across(old, new, value, "versioned"), "versioned")
    assert through.perm != value.perm
    through = across(new, old, across(old, new, value, "json"), "json")
    assert through.perm != value.perm
    assert fails_or_differs(old, new, "final", kept)


def test_field_removed_in_the_middle(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace(" string name;", ""))
    assert the(old, new, "field_removed Item.name")["old_to_new"] == BREAKING
    rest = ["id", "price", "color", "perm"]
    for fmt in ("versioned", "final"):
        assert fails_or_differs(old, new, fmt, rest) and fails_or_differs(new, old, fmt, rest)


def test_field_inserted(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace(" string name;", " int16 rank; string name;"))
    assert the(old, new, "field_inserted Item.rank") == {
        "new_to_old": BREAKING, "old_to_new": BREAKING, "final": BREAKING, "json": SAFE}
    for fmt in ("versioned", "final"):
        assert fails_or_differs(old, new, fmt, ALL) and fails_or_differs(new, old, fmt, ALL)
    assert reads_same(old, new, "json", ALL) and reads_same(new, old, "json", ALL)


def test_field_reordered(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("string name; double price = 1.5;",
                                        "double price = 1.5; string name;"))
    verdicts = the(old, new, "field_reordered Item.name")
    assert verdicts["old_to_new"] == BREAKING and verdicts["json"] == SAFE
    for fmt in ("versioned", "final"):
        assert fails_or_differs(old, new, fmt, ALL) and fails_or_differs(new, old, fmt, ALL)
    assert reads_same(old, new, "json", ALL)


def test_field_renamed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("string name;", "string title;"))
    assert the(old, new, "field_renamed Item.title") == {
        "new_to_old": SAFE, "old_to_new": SAFE, "final": SAFE, "json": BREAKING}
    value = item(old)
    for fmt in ("versioned", "final"):
        assert across(old, new, value, fmt).title == "seven"
        assert across(new, old, item(new, title="x"), fmt).name == "x"
    assert across(old, new, value, "json").title == ""  # the key is not found: the default


@pytest.mark.parametrize("retype", ["float price = 1.5;", "double? price;", "int64 price;"])
def test_field_retyped(tmp_path, retype):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("double price = 1.5;", retype))
    verdicts = the(old, new, "field_retyped Item.price")
    assert verdicts["new_to_old"] == verdicts["old_to_new"] == verdicts["final"] == BREAKING
    others = ["id", "name", "color", "perm", "price"]
    value = item(old, price=2.75e300)
    for fmt in ("versioned", "final"):
        try:
            got = across(old, new, value, fmt)
            assert not same(value, got, others)
        except rt.DecodeError:
            pass


def test_default_changed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("double price = 1.5;", "double price = 4.0;"))
    assert the(old, new, "default_changed Item.price") == {
        "new_to_old": SAFE, "old_to_new": SAFE, "final": SAFE, "json": WARNING}
    for fmt in ("versioned", "final", "json"):
        assert reads_same(old, new, fmt, ALL) and reads_same(new, old, fmt, ALL)
    assert old.Item.from_json("{}").price != new.Item.from_json("{}").price


def test_enum_value_added(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("green; }", "green; blue; }"))
    assert set(the(old, new, "enum_value_added Color.blue").values()) == {SAFE}
    for fmt in ("versioned", "final", "json"):
        value = item(new, color=new.Color.blue)
        got = across(new, old, value, fmt)
        assert int(got.color) == 2  # kept as the number
        assert across(old, new, got, fmt).color == new.Color.blue  # and written back as is


def test_enum_value_renumbered(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("green; }", "green = 5; }"))
    assert set(the(old, new, "enum_value_renumbered Color.green").values()) == {BREAKING}
    for fmt in ("versioned", "final", "json"):
        got = across(new, old, item(new), fmt)
        assert got.color != old.Color.green


def test_flags_combination_renumbered(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("rw = r | w; }", "x = 4; rw = r | w | x; }"))
    assert set(the(old, new, "enum_value_renumbered Perm.rw").values()) == {WARNING}
    assert set(the(old, new, "enum_value_added Perm.x").values()) == {SAFE}
    for fmt in ("versioned", "final", "json"):
        got = across(new, old, item(new), fmt)  # reads, with a bit the old version has no name for
        assert int(got.perm) == 7 and int(old.Perm.rw) == 3


def test_type_number_changed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("struct Item {", "struct Item(40) {"))
    assert the(old, new, "type_number_changed Item") == {
        "new_to_old": BREAKING, "old_to_new": BREAKING, "final": BREAKING, "json": SAFE}
    for fmt in ("versioned", "final"):
        with pytest.raises(rt.DecodeError):
            across(old, new, item(old), fmt)
    assert reads_same(old, new, "json", ALL)


def test_package_offset_changed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("package v", "package v offset 10"))
    assert the(old, new, "package_offset_changed v")["old_to_new"] == BREAKING
    assert "type_number_changed Item" in changes(old, new)
    with pytest.raises(rt.DecodeError):
        across(old, new, item(old), "versioned")
    # a struct with a fixed number keeps it: the offset change is then safe
    fixed = OLD.replace("struct Item {", "struct Item(1) {")
    old = version(tmp_path, fixed)
    new = version(tmp_path, fixed.replace("package v", "package v offset 10"))
    assert set(the(old, new, "package_offset_changed v").values()) == {SAFE}
    assert reads_same(old, new, "versioned", ALL)


def test_base_added_keeping_the_type(tmp_path):
    old = version(tmp_path, OLD)
    core = OLD.replace("struct Item {", "struct Core {")
    new = version(tmp_path, core + "struct Item(base) : Core { int64 extra; }\n")
    verdicts = the(old, new, "base_changed Item")
    assert verdicts["new_to_old"] == verdicts["old_to_new"] == SAFE
    assert verdicts["final"] == BREAKING  # the appended field
    assert reads_same(old, new, "versioned", ALL) and reads_same(new, old, "versioned", ALL)
    # deriving without (base) takes a new type number: breaking
    new = version(tmp_path, core + "struct Item : Core { int64 extra; }\n")
    assert the(old, new, "base_changed Item")["old_to_new"] == BREAKING
    with pytest.raises(rt.DecodeError):
        across(old, new, item(old), "versioned")


def test_key_changed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("[key] int32 id; string name;", "int32 id; [key] string name;"))
    found = changes(old, new)
    assert set(found["key_changed Item.id"].verdicts.values()) == {WARNING}
    assert reads_same(old, new, "versioned", ALL)
    a, b = item(old), item(old, name="other")
    assert a == b  # equal by id
    assert across(old, new, a, "versioned") != across(old, new, b, "versioned")  # by name


def test_struct_removed_and_renamed(tmp_path):
    old = version(tmp_path, OLD + "struct Extra { int32 x; }\n")
    new = version(tmp_path, OLD)
    assert the(old, new, "struct_removed Extra")["old_to_new"] == BREAKING
    assert not hasattr(new, "Extra")
    new = version(tmp_path, OLD.replace("struct Item {", "struct Thing {"))
    assert set(the(old, new, "struct_renamed Item").values()) == {SAFE}
    data = old.ItemModel().serialize(item(old))
    assert new.ThingModel().deserialize(data).name == "seven"


def test_proto_to_protoex_is_safe_for_the_versioned_format():
    old = compile_schema(os.path.join(REPO, "schemas", "proto.fbe"), Reporter())
    new = compile_schema(os.path.join(REPO, "schemas", "protoex.fbe"), Reporter())
    assert old is not None and new is not None
    found = compare(old, new)
    versioned = ("new_to_old", "old_to_new")
    assert not [c for c in found if c.severity(versioned) == BREAKING]
    assert any(c.kind == "field_appended" for c in found)
    assert [c for c in found if c.severity(("final",)) == BREAKING]


# ---- the command -----------------------------------------------------------------------------

def fastwire(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    return subprocess.run([sys.executable, "-m", "fastwire", *args], cwd=REPO,
                          capture_output=True, text=True, env=env, timeout=60)


def test_command_exit_status_and_json(tmp_path):
    r = fastwire("compat", "schemas/proto.fbe", "schemas/protoex.fbe")
    assert r.returncode == 0, r.stderr
    assert "schemas/protoex.fbe:36:12: safe: 'Order.tp' appended" in r.stdout
    assert r.stdout.splitlines()[-1].startswith("schemas/proto.fbe -> schemas/protoex.fbe: "
                                                "compatible for the versioned format")
    r = fastwire("compat", "schemas/proto.fbe", "schemas/protoex.fbe", "--format", "final")
    assert r.returncode == 1
    r = fastwire("compat", "schemas/proto.fbe", "schemas/protoex.fbe", "--json")
    doc = json.loads(r.stdout)
    assert doc["breaking"] is False and doc["changes"][0]["verdicts"]["final"] == SAFE
    (tmp_path / "old.fbe").write_text(OLD)
    (tmp_path / "new.fbe").write_text(OLD.replace(" string name;", ""))
    r = fastwire("compat", str(tmp_path / "old.fbe"), str(tmp_path / "new.fbe"))
    assert r.returncode == 1
    assert f"{tmp_path / 'new.fbe'}:4:8: breaking: 'Item.name' removed" in r.stdout


def test_command_errors(tmp_path):
    r = fastwire("compat", "schemas/proto.fbe", "schemas/none.fbe")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("fastwire compat: error: ")
    (tmp_path / "bad.fbe").write_text("package bad\nstruct { }\n")
    r = fastwire("compat", "schemas/proto.fbe", str(tmp_path / "bad.fbe"))
    assert r.returncode == 1 and "bad.fbe:2:" in r.stderr
    assert r.stderr.strip().splitlines()[-1] == f"fastwire compat: error: schema '{tmp_path / 'bad.fbe'}' has 1 error"
    r = fastwire("compat", "schemas/proto.fbe")
    assert r.returncode == 2


def test_enum_value_removed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("enum Color : byte { red; green; }",
                                        "enum Color : byte { red; }"))
    assert set(the(old, new, "enum_value_removed Color.green").values()) == {SAFE}
    for fmt in ("versioned", "final", "json"):
        got = across(old, new, item(old), fmt)
        assert int(got.color) == 1  # kept as the number
        assert int(across(new, old, got, fmt).color) == int(old.Color.green)


def test_enum_base_changed(tmp_path):
    old = version(tmp_path, OLD)
    new = version(tmp_path, OLD.replace("enum Color : byte", "enum Color : int16"))
    verdicts = the(old, new, "enum_base_changed Color")
    assert verdicts["old_to_new"] == verdicts["final"] == BREAKING
    # the field's slot changed size too: every format but JSON misreads
    assert fails_or_differs(old, new, "versioned", ALL) and fails_or_differs(old, new, "final", ALL)
    same_size = version(tmp_path, OLD.replace("enum Color : byte { red; green; }",
                                              "enum Color : int8 { red; green; }"))
    assert set(the(old, same_size, "enum_base_changed Color").values()) == {WARNING}
    # reads, but a byte above 127 is another number for an int8
    got = across(old, same_size, item(old, color=200), "versioned")
    assert int(got.color) == 200 - 256
