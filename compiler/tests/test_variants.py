"""Variants in the front end (issue 39, part 1): syntax, resolution, every diagnostic, the
lowered layout and plan, IR JSON version 4, compat, and the generators' refusal."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap

import pytest

from fastwire import Reporter, compile_schema, ir, ir_json, layouts, lower, plan
from fastwire.compat import BREAKING, SAFE, WARNING, compare
from fastwire.generators import LANGUAGES, Options

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The issue's schema, with a struct before Value so that Value's type number is 2 (as in
# the bytes of the issue's example).
ISSUE = """\
package p
struct Simple { int32 a; string s; }
variant Expr { bool; int32; string; }
variant V { string; int32; double; Simple; Simple[]; int32[]; Simple{int32}; bytes[]; string[];
            bytes{int32}; bytes{string}; Expr; }
struct Value { V v; V? vo; }
struct Bag { V[] vv; V{int32} vm; }
"""


def write(tmp_path, text, name="p", files=None):
    for other, content in (files or {}).items():
        (tmp_path / f"{other}.fbe").write_text(textwrap.dedent(content))
    path = tmp_path / f"{name}.fbe"
    path.write_text(textwrap.dedent(text))
    return path


def compiled(tmp_path, text, files=None, name="p"):
    reporter = Reporter()
    schema = compile_schema(str(write(tmp_path, text, name, files)), reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics]
    return schema


def diagnostics(tmp_path, text, files=None):
    reporter = Reporter()
    schema = compile_schema(str(write(tmp_path, text, files=files)), reporter)
    assert schema is None
    return reporter.diagnostics


# ---- syntax and resolution ----------------------------------------------------------------

def test_the_issue_schema_resolves(tmp_path):
    schema = compiled(tmp_path, ISSUE)
    p = schema.root_package
    assert [t.kind for t in p.types] == ["struct", "variant", "variant", "struct", "struct"]
    assert [v.name for v in p.variants] == ["Expr", "V"]
    v = p.variants[1]
    assert [v.alternative_name(i) for i in range(len(v.alternatives))] == [
        "string", "int32", "double", "Simple", "Simple[]", "int32[]", "Simple{int32}", "bytes[]",
        "string[]", "bytes{int32}", "bytes{string}", "Expr"]
    assert v.alternatives[6] == ir.FieldType(ir.TypeRef("struct", "Simple", "p"), False, "hash",
                                             None, ir.TypeRef("primitive", "int32"))
    assert v.alternatives[11].value == ir.TypeRef("variant", "Expr", "p")
    assert schema.lookup(ir.TypeRef("variant", "V", "p")) is v
    value = p.type("Value")
    assert isinstance(value, ir.StructType)
    assert [f.type for f in value.fields] == [
        ir.FieldType(ir.TypeRef("variant", "V", "p")),
        ir.FieldType(ir.TypeRef("variant", "V", "p"), optional=True)]
    assert v.location == ir.SourceRef(str(tmp_path / "p.fbe"), 4, 9)


def test_every_kind_of_alternative_and_every_place_a_variant_goes(tmp_path):
    schema = compiled(tmp_path, """\
        package q
        import p
        enum E : byte { a; b; }
        flags F : byte { x = 1; }
        /** Any value. */
        [deprecated] variant All { bool; byte; char; wchar; int8; uint8; int16; uint16; int32;
            uint32; int64; uint64; float; double; decimal; string; bytes; timestamp; uuid; E; F;
            p.Simple; p.V; int32[3]; int32?[]; string(); E!; double<string>; uuid{E}; p.Simple?[2];
            All[]; }
        struct Holder { All a; All? o; All[2] arr; All[] vec; All() lst; All<int32> m; All?{string} h;
                        p.V imported; }
        message Carry { All payload; }
        """, files={"p": ISSUE}, name="q")
    q = schema.package("q")
    v = q.variants[0]
    assert (v.doc, v.deprecated, len(v.alternatives)) == ("Any value.", True, 31)
    names = [v.alternative_name(i) for i in range(len(v.alternatives))]
    assert names[19:] == ["E", "F", "p.Simple", "p.V", "int32[3]", "int32?[]", "string()", "E!",
                          "double<string>", "uuid{E}", "p.Simple?[2]", "All[]"]
    assert ir.spell(v.alternatives[21]) == "p.Simple" and ir.spell(v.alternatives[19]) == "q.E"
    assert v.alternatives[21].describe() == "p.Simple"
    holder = q.type("Holder")
    assert isinstance(holder, ir.StructType)
    assert [f.type.describe() for f in holder.fields] == [
        "q.All", "q.All?", "q.All[2]", "q.All[]", "q.All()", "q.All<int32>", "q.All?{string}", "p.V"]
    assert schema.struct_depth(holder) == 0  # All holds itself in a vector


def test_variant_stays_a_name_outside_declarations(tmp_path):
    """'variant' is a word of the grammar only where a declaration starts."""
    schema = compiled(tmp_path, "package p\nstruct variant { int32 variant; }\n"
                                "variant W { variant; }\n")
    w = schema.root_package.variants[0]
    assert w.alternatives[0].value == ir.TypeRef("struct", "variant", "p")


# ---- diagnostics --------------------------------------------------------------------------

P = "package p\n"
DEEP = "".join(f"variant V{i} {{ V{i + 1}; }}\n" for i in range(257)) + "variant V257 { int32; }\n"
CASES = [
    ("empty", P + "variant V {}\n",
     (2, 9, "variant 'V' has no alternatives; give it at least one type: 'variant V { int32; }'")),
    ("twice", P + "variant V { int32; string; int32; }\n",
     (2, 28, "alternative 'int32' is given twice in variant 'V'")),
    ("twice_spelled_otherwise", P + "struct S {}\nvariant V { S[]; p.S[]; }\n",
     (3, 18, "alternative 'S[]' is given twice in variant 'V'")),
    ("optional", P + "variant V { string; int32?; }\n",
     (2, 21, "an alternative of variant 'V' cannot be optional; make the field that holds the "
             "variant optional ('V? name;')")),
    ("reset", P + "variant V { int32~; }\n",
     (2, 13, "an alternative of variant 'V' cannot be optional; make the field that holds the "
             "variant optional ('V? name;')")),
    ("named", P + "variant V { int32 x; }\n",
     (2, 19, "the alternatives of variant 'V' are types without names; remove 'x'")),
    ("attribute", P + "variant V { [key] int32; }\n",
     (2, 13, "attribute '[key]' cannot be used on variant alternatives")),
    ("attribute_on_variant", P + "[key] variant V { int32; }\n",
     (2, 1, "attribute '[key]' cannot be used on a variant")),
    ("unknown", P + "variant V { int32; Missing; }\n",
     (2, 20, "unknown type 'Missing'")),
    ("unclosed", P + "variant V { int32;\n",
     (3, 1, "expected '}' to close variant 'V', found end of file")),
    ("itself", P + "variant V { int32; V; }\n",
     (2, 20, "alternative 'V' contains its own variant 'V' by value; use a vector or a list")),
    ("itself_in_an_array", P + "variant V { int32; V[2]; }\n",
     (2, 20, "alternative 'V[2]' contains its own variant 'V' by value; use a vector or a list")),
    ("through_a_struct", P + "struct A { int32 x; V v; }\nvariant V { int32; A; }\n",
     (2, 23, "field 'v' contains its own struct 'A' by value (through A -> V -> A); use a vector "
             "or a list")),
    ("through_a_variant", P + "variant V { int32; W; }\nvariant W { string; V; }\n",
     (2, 20, "alternative 'W' contains its own variant 'V' by value (through V -> W -> V); use a "
             "vector or a list")),
    ("map_key", P + "variant V { int32; }\nstruct A { int32<V> m; }\n",
     (3, 18, "'p.V' cannot be the key of map field 'm': variant 'V' has no ordering or hash")),
    ("hash_key", P + "variant V { int32; }\nstruct A { int32{V} m; }\n",
     (3, 18, "'p.V' cannot be the key of hash field 'm': variant 'V' has no ordering or hash")),
    ("set_element", P + "variant V { int32; }\nstruct A { V! s; }\n",
     (3, 12, "'p.V' cannot be the element of set field 's': variant 'V' has no ordering or hash")),
    ("key_field", P + "variant V { int32; }\nstruct A { [key] V v; }\n",
     (3, 20, "field 'v' cannot be a '[key]': variant 'V' has no ordering or hash")),
    ("alternative_key", P + "variant W { int32; }\nvariant V { string{W}; }\n",
     (3, 20, "'p.W' cannot be the key of alternative 'string{W}' of variant 'V': variant 'W' has "
             "no ordering or hash")),
    ("alternative_set", P + "variant V { bytes!; }\n",
     (2, 13, "'bytes' cannot be the element of alternative 'bytes!' of variant 'V': bytes cannot "
             "be compared")),
    ("base", P + "variant V { int32; }\nstruct A : V { int32 x; }\n",
     (3, 12, "'V' is a variant; only a struct can be a base")),
    ("response", P + "variant V { int32; }\n[request] [response(V)] message A { uuid [id]; }\n",
     (3, 21, "response type 'V' must be a struct or message, not a variant")),
    ("default", P + "variant V { int32; }\nstruct A { V v = 5; }\n",
     (3, 18, "field 'v' is a variant, which cannot have a default: it starts as its first "
             "alternative, with that type's default")),
    ("too_deep", P + DEEP,
     (2, 9, "variant 'V0' nests 258 levels of structs and variants (through its alternatives); "
            "the limit is 256")),
    ("too_deep_through_structs", P + "struct S { V0 v; }\n" + DEEP,
     (2, 8, "struct 'S' nests structs 259 levels deep (through its fields and bases); the limit "
            "is 256")),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_diagnostic(tmp_path, case):
    _, text, (line, column, message) = case
    errors = [d for d in diagnostics(tmp_path, text) if d.severity == "error"]
    assert errors, text
    d = errors[0]
    assert d.location is not None
    assert (d.location.line, d.location.column, d.message) == (line, column, message)


def test_diagnostic_renders_with_a_caret(tmp_path):
    d = diagnostics(tmp_path, P + "variant V { int32; string; int32; }\n")[0]
    assert d.render() == (f"{tmp_path / 'p.fbe'}:2:28: error: alternative 'int32' is given twice "
                          f"in variant 'V'\nvariant V {{ int32; string; int32; }}\n"
                          f"                           ^~~~~")


def test_an_error_in_one_alternative_leaves_the_others_read(tmp_path):
    diags = diagnostics(tmp_path, P + "variant V { int32 x; Missing; string; string; }\n")
    assert [(d.location.column, d.message) for d in diags if d.location] == [
        (19, "the alternatives of variant 'V' are types without names; remove 'x'"),
        (22, "unknown type 'Missing'"),
        (39, "alternative 'string' is given twice in variant 'V'")]


def test_recursion_through_a_collection_is_fine(tmp_path):
    schema = compiled(tmp_path, P + "variant Tree { int32; Tree[]; Node; }\n"
                                    "struct Node { Tree[] children; }\n")
    tree = schema.root_package.variants[0]
    assert schema.struct_depth(tree) == 0


# ---- layout and plan ----------------------------------------------------------------------

def test_value_layout_and_plan(tmp_path):
    model = lower.lower(compiled(tmp_path, ISSUE))
    value = model.struct("p.Value")
    assert [(f.name, f.offset, f.slot, f.final_offset, f.wire.kind) for f in value.fields] == [
        ("v", 8, 4, 0, "variant"), ("vo", 12, 5, None, "optional")]
    assert (value.body_size, value.final_min, value.final_size, value.depth) == (17, 9, None, 3)
    assert value.fields[0].wire == plan.WireType("variant", 4, 8, None, ref="p.V")
    assert value.fields[1].wire.element == value.fields[0].wire
    steps = value.plan.versioned.steps
    assert [(s.op, s.at, s.size, s.field.helper) for s in steps] == [
        ("variant", 8, 4, "variant"), ("optional", 12, 5, "optional")]
    assert [(s.op, s.at, s.size) for s in value.plan.final.steps] == [
        ("variant", 0, None), ("optional", None, None)]
    assert [f.form for f in value.plan.json.fields] == [
        plan.JsonForm("variant"), plan.JsonForm("nullable", plan.JsonForm("variant"))]
    v = model.variant("p.V")
    assert [(a.index, a.name, a.helper, a.block_size) for a in v.alternatives[:5]] == [
        (0, "string", "string", 8), (1, "int32", "int32", 8), (2, "double", "double", 12),
        (3, "Simple", "struct", 8), (4, "Simple[]", "vector", 8)]
    assert v.alternatives[11].wire == plan.WireType("variant", 4, 5, None, ref="p.Expr")
    assert v.alternatives[6].form == plan.JsonForm("entries", plan.JsonForm("object"),
                                                   plan.JsonForm("integer"))
    assert (v.final_min, v.final_size, v.depth) == (8, None, 2)
    expr = model.variant("p.Expr")
    assert (expr.final_min, expr.final_size, expr.depth) == (5, None, 1)
    bag = model.struct("p.Bag")
    assert [(f.wire.kind, f.wire.element and f.wire.element.kind) for f in bag.fields] == [
        ("sequence", "variant"), ("map", "variant")]
    assert model.package("p").emission_order == ("p.Simple", "p.Expr", "p.V", "p.Value", "p.Bag")
    assert set(lower.held_structs(value.fields[0].wire, model.variants)) == {"p.Simple"}
    assert lower.held_structs(value.fields[0].wire) == []


def test_the_issue_example_byte_for_byte(tmp_path):
    """`Value { V v = int32 42; }` as a whole model, laid out from the plan and layouts
    alone: 28 bytes, as the issue (and the fork that wrote them) gives them."""
    model = lower.lower(compiled(tmp_path, ISSUE.replace("struct Value { V v; V? vo; }",
                                                         "struct Value { V v; }")))
    value = model.struct("p.Value")
    field = value.fields[0]
    alternative = model.variant(field.wire.ref).alternatives[1]
    assert alternative.wire.scalar == "int32"
    root, body = layouts.ROOT.header_size, value.body_size
    block_at = body  # the heap starts after the body; offsets count from the struct's start
    size = root + body + alternative.block_size
    out = bytearray(size)
    struct.pack_into("<II", out, 0, size, root)
    struct.pack_into("<II", out, root, body, value.type_number)
    struct.pack_into("<I", out, root + field.offset, block_at)
    struct.pack_into("<Ii", out, root + block_at + layouts.VARIANT.index_at, alternative.index, 42)
    assert out.hex() == "1c000000" "08000000" "0c000000" "02000000" "0c000000" "01000000" "2a000000"


def test_final_size_is_fixed_when_every_alternative_has_one_size(tmp_path):
    model = lower.lower(compiled(tmp_path, P + "variant N { int32; float; uint32; }\n"
                                               "struct S { N n; int8 after; }\n"))
    assert (model.variant("p.N").final_min, model.variant("p.N").final_size) == (8, 8)
    s = model.struct("p.S")
    assert (s.final_size, [f.final_offset for f in s.fields]) == (9, [0, 8])
    assert [st.op for st in s.plan.final.steps] == ["variant", "values"]


# ---- IR JSON ------------------------------------------------------------------------------

def test_ir_json_version_4_round_trips(tmp_path):
    schema = compiled(tmp_path, ISSUE)
    doc = ir_json.to_dict(schema)
    assert doc["version"] == 4
    assert doc["layouts"]["variant"] == {"slot": 4, "index_at": 0, "index_size": 4, "value_at": 4}
    v = doc["packages"][0]["types"][2]
    assert (v["kind"], v["name"], len(v["alternatives"])) == ("variant", "V", 12)
    assert v["alternatives"][11] == {"value": {"kind": "variant", "name": "Expr", "package": "p"},
                                     "optional": False, "container": None}
    assert v["layout"]["alternatives"][2] == {
        "index": 2, "name": "double", "helper": "double", "block_size": 12,
        "wire": {"kind": "scalar", "slot": 8, "final_size": 8, "final_min": 8, "scalar": "double"},
        "json": {"form": "float"}}
    value = doc["packages"][0]["types"][3]
    assert value["layout"]["fields"][0]["wire"] == {"kind": "variant", "slot": 4, "final_size": None,
                                                     "final_min": 8, "ref": "p.V"}
    assert ir_json.from_json(ir_json.to_json(schema)) == schema


def test_ir_json_without_variants_stays_version_3():
    schema = compile_schema(os.path.join(REPO, "schemas", "proto.fbe"), Reporter())
    doc = ir_json.to_dict(schema)
    assert doc["version"] == 3 and "variant" not in doc["layouts"]
    assert ir_json.from_dict(doc) == schema


# ---- compat -------------------------------------------------------------------------------

def changes(tmp_path, old, new):
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    a = compiled(tmp_path / "old", P + old)
    b = compiled(tmp_path / "new", P + new)
    return {(c.kind, c.subject): c.verdicts for c in compare(a, b)}


def test_compat_appending_an_alternative_is_compatible(tmp_path):
    found = changes(tmp_path, "variant V { int32; string; }\nstruct S { V v; }\n",
                    "variant V { int32; string; double; }\nstruct S { V v; }\n")
    assert found == {("variant_alternative_appended", "V[2]"):
                     {"new_to_old": WARNING, "old_to_new": SAFE, "final": BREAKING,
                      "json": WARNING}}


@pytest.mark.parametrize("new, kinds", [
    ("variant V { int32; }", {("variant_alternative_removed", "V[1]")}),
    ("variant V { string; int32; }", {("variant_alternative_moved", "V[0]"),
                                       ("variant_alternative_moved", "V[1]")}),
    ("variant V { int64; string; }", {("variant_alternative_removed", "V[0]"),
                                       ("variant_alternative_inserted", "V[0]")}),
    ("variant V { double; int32; string; }", {("variant_alternative_moved", "V[0]"),
                                               ("variant_alternative_moved", "V[1]"),
                                               ("variant_alternative_inserted", "V[0]")}),
])
def test_compat_other_changes_of_the_alternatives_break(tmp_path, new, kinds):
    found = changes(tmp_path, "variant V { int32; string; }\n", new + "\n")
    assert set(found) == kinds
    assert all(BREAKING in (v["new_to_old"], v["old_to_new"]) for v in found.values())


def test_compat_a_renamed_struct_alternative_is_binary_safe(tmp_path):
    found = changes(tmp_path, "struct A(5) { int32 x; }\nvariant V { A; }\n",
                    "struct B(5) { int32 x; }\nvariant V { B; }\n")
    assert found[("variant_alternative_renamed", "V[0]")] == {
        "new_to_old": SAFE, "old_to_new": SAFE, "final": SAFE, "json": BREAKING}


def test_compat_a_field_that_changes_variant(tmp_path):
    found = changes(tmp_path, "variant V { int32; }\nvariant W { int32; }\n"
                              "variant X { string; }\nstruct S { V a; V b; }\n",
                    "variant V { int32; }\nvariant W { int32; }\n"
                    "variant X { string; }\nstruct S { W a; X b; }\n")
    assert found[("field_type_renamed", "S.a")]["new_to_old"] == SAFE  # the same alternatives
    assert found[("field_retyped", "S.b")]["new_to_old"] == BREAKING


# ---- the generators refuse, for now -------------------------------------------------------

def test_every_language_refuses_a_schema_with_variants(tmp_path):
    model = lower.lower(compiled(tmp_path, ISSUE))
    for lang in LANGUAGES.values():
        assert [m for m, _ in lang.refusals(model)] == [
            f"variant 'Expr': the {lang.display} generator does not render variants yet (issue 39)",
            f"variant 'V': the {lang.display} generator does not render variants yet (issue 39)"]
        with pytest.raises(ValueError):
            lang.render(model, Options())


def run_cli(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    return subprocess.run([sys.executable, "-m", "fastwire", *args], cwd=REPO, env=env,
                          capture_output=True, text=True)


def test_cli_refuses_a_language_with_a_diagnostic(tmp_path):
    path = write(tmp_path, P + "variant V { int32; string; }\nstruct S { V v; }\n")
    r = run_cli("compile", str(path), "--lang", "cpp", "-q", "-o", str(tmp_path / "out"))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"{path}:2:9: error: variant 'V': the C++ generator does not render "
                        f"variants yet (issue 39)\nvariant V {{ int32; string; }}\n        ^\n"
                        f"1 error generated.\n")
    assert not (tmp_path / "out").exists()


def test_cli_emits_ir_json_of_a_schema_with_variants(tmp_path):
    path = write(tmp_path, ISSUE)
    r = run_cli("compile", str(path), "--emit", "ir-json", "-q", "-o", str(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    doc = json.loads((tmp_path / "p.ir.json").read_text())
    assert doc["version"] == 4
    assert run_cli("check", str(path)).returncode == 0
