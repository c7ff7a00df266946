"""Malformed schemas: each gives exactly the expected diagnostic, located at line:col."""

import os
import textwrap

import pytest

from fastwire import Reporter, compile_schema
from fastwire.diagnostics import LEXICAL

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROTO = os.path.join(REPO, "schemas", "proto.fbe")


def diagnose(tmp_path, text, files=None):
    """Compiles `text` as bad.fbe (with extra files beside it); returns the diagnostics."""
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(content))
    if "import proto" in text:
        (tmp_path / "proto.fbe").write_text(open(PROTO).read())
    path = tmp_path / "bad.fbe"
    path.write_text(textwrap.dedent(text))
    reporter = Reporter()
    schema = compile_schema(str(path), reporter)
    return schema, [(d.severity, d.location.line if d.location else 0,
                     d.location.column if d.location else 0, d.message)
                    for d in reporter.diagnostics]


def first_error(tmp_path, text, files=None):
    schema, diags = diagnose(tmp_path, text, files)
    assert schema is None
    errors = [d for d in diags if d[0] == "error"]
    assert errors, diags
    return errors[0][1:]


P = "package p\n"

CASES = [
    # -- lexical ---------------------------------------------------------------------------
    ("unterminated_comment", P + "/* never closed\nstruct A {}\n",
     (2, 1, "unterminated block comment")),
    ("unterminated_string", P + 'struct A { string s = "abc; }\n',
     (2, 23, "unterminated string literal")),
    ("unexpected_character", P + "struct A { int32 @x; }\n",
     (2, 18, "unexpected character '@'")),
    ("non_ascii_letter", P + "struct A { int32 \u00e9; }\n",  # was an internal error
     (2, 18, "unexpected character '\u00e9'")),
    ("malformed_number", P + "struct A { int32 x = 12ab; }\n",
     (2, 22, "malformed number '12ab'")),
    ("unknown_escape", P + 'struct A { string s = "a\\qb"; }\n',
     (2, 25, "unknown escape sequence '\\q'")),
    ("stray_comment_end", P + "struct A { */ }\n",
     (2, 12, "'*/' outside a comment")),
    ("empty_char", P + "enum E : char { a = ''; }\n",
     (2, 21, "empty character literal")),
    # -- file header -----------------------------------------------------------------------
    ("missing_package", "struct A {}\n",
     (1, 1, "expected 'package NAME' at the start of the schema, found 'struct'")),
    ("dotted_package", "package a.b\n",
     (1, 10, "a package name cannot contain '.'; use 'domain' for a dotted namespace")),
    ("negative_offset", "package p offset -1\n",
     (1, 18, "the package offset cannot be negative")),
    ("integer_version", "package p\nversion 1\n",
     (2, 9, "expected a version such as '1.0' (MAJOR.MINOR), found '1'")),
    ("package_twice", "package p\npackage q\n",
     (2, 1, "'package' is declared twice in the file header")),
    ("import_before_package", "import proto\npackage p\n",
     (1, 1, "'import' must follow the package declaration")),
    ("header_after_declarations", P + "struct A {}\nimport proto\n",
     (3, 1, "'import' belongs in the file header, before the first declaration")),
    # `option NAME = "VALUE"` (docs/schema-language.md#options)
    ("option_bad_go_import", P + 'option go_import = "example.com//gen"\n',
     (2, 20, "option 'go_import': 'example.com//gen' is not a Go import path (elements of "
             "letters, digits and '-._~', separated by '/')")),
    ("option_go_import_with_space", P + 'option go_import = "my app"\n',
     (2, 20, "option 'go_import': 'my app' is not a Go import path (elements of letters, "
             "digits and '-._~', separated by '/')")),
    ("option_go_import_absolute", P + 'option go_import = "/abs"\n',
     (2, 20, "option 'go_import': '/abs' is not a Go import path (elements of letters, "
             "digits and '-._~', separated by '/')")),
    ("option_unknown", P + 'option go_package = "x"\n',
     (2, 8, "unknown option 'go_package' (known: go_import)")),
    ("option_twice", P + 'option go_import = "a"\noption go_import = "b"\n',
     (3, 8, "option 'go_import' is given twice")),
    ("option_before_package", 'option go_import = "a"\npackage p\n',
     (1, 1, "'option' must follow the package declaration")),
    ("option_without_equals", P + 'option go_import "a"\n',
     (2, 18, "expected '=' after the option name 'go_import', found '\"a\"'")),
    ("option_not_a_string", P + "option go_import = example\n",
     (2, 20, "expected a string as the value of option 'go_import', found 'example'")),
    ("option_after_declarations", P + 'struct A {}\noption go_import = "a"\n',
     (3, 1, "'option' belongs in the file header, before the first declaration")),
    ("import_not_found", P + "import nowhere\n",
     (2, 8, "cannot find 'nowhere.fbe' for 'import nowhere' (searched: {dir})")),
    ("import_self", P + "import p\n", (2, 8, "package 'p' cannot import itself")),
    ("import_twice", P + "import proto\nimport proto\n",
     (3, 8, "package 'proto' is imported twice")),
    ("import_wrong_package", P + "import other\n",
     (2, 8, "'{dir}/other.fbe' declares package 'elsewhere', not 'other'"),
     {"other.fbe": "package elsewhere\n"}),
    ("import_cycle", "package p\nimport a\n",
     (2, 8, "import cycle: a -> b -> a"),
     {"a.fbe": "package a\nimport b\n", "b.fbe": "package b\nimport a\n"}),
    # -- enums and flags ---------------------------------------------------------------------
    ("enum_bad_base", P + "enum E : float { a; }\n",
     (2, 10, "'float' cannot be the underlying type of enum 'E'; use one of: byte, char, "
             "wchar, int8, uint8, int16, uint16, int32, uint32, int64, uint64")),
    ("flags_char_base", P + "flags F : char { a = 1; }\n",
     (2, 11, "'char' cannot be the underlying type of flags 'F'; use one of: byte, int8, "
             "uint8, int16, uint16, int32, uint32, int64, uint64")),
    ("flags_without_value", P + "flags F { a = 1; b; }\n",
     (2, 18, "flags value 'b' needs an explicit value: 'b = 0x01;'")),
    ("enum_value_out_of_range", P + "enum E : byte { a = 256; }\n",
     (2, 21, "value 256 of 'a' is out of range for byte (0..255)")),
    ("enum_implicit_overflow", P + "enum E : int8 { a = 127; b; }\n",
     (2, 26, "implicit value 128 of 'b' is out of range for int8")),
    ("enum_forward_reference", P + "enum E { a = b; b; }\n",
     (2, 14, "'b' is not a value declared before 'a' in enum 'E'")),
    ("enum_value_twice", P + "enum E { a; b; a; }\n",
     (2, 16, "value 'a' is declared twice in enum 'E'")),
    ("enum_or_expression", P + "enum E { a = 1; b = 2; c = a | b; }\n",
     (2, 28, "an enum value is one number or one name; '|' is for flags")),
    ("enum_multichar", P + "enum E : char { a = 'ab'; }\n",
     (2, 21, "a character literal holds exactly one character")),
    ("enum_dotted_reference", P + "enum E { a; b = E.a; }\n",
     (2, 17, "refer to values of the same enum by their bare name, not 'E.a'")),
    ("flags_value_missing_semicolon", P + "flags F { a = 1 b = 2; }\n",
     (2, 16, "expected ';' after flags value 'a'")),
    # -- declarations ------------------------------------------------------------------------
    ("type_declared_twice", P + "struct A {}\nenum A { x; }\n",
     (3, 6, "'A' is declared twice in package 'p'")),
    ("field_declared_twice", P + "struct A { int32 x; string x; }\n",
     (2, 28, "field 'x' is declared twice in struct 'A'")),
    ("reset_field_collides", P + "struct A { int32~ x; bool xReset; }\n",
     (2, 27, "field 'xReset' is declared twice in struct 'A'")),
    ("field_hides_inherited", P + "struct A { int32 x; }\nstruct B : A { int8 x; }\n",
     (3, 21, "field 'x' of 'B' is already inherited from 'p.A'")),
    ("two_ids", P + "struct A { uuid [id]; }\nstruct B : A { int32 [id]; }\n",
     (3, 22, "struct 'B' has more than one '[id]' field (one is inherited from 'p.A')")),
    ("two_ids_in_one_struct", P + "message M { uuid [id]; int32 x; uuid [id]; }\n",
     (2, 38, "message 'M' has more than one '[id]' field")),
    ("base_numbering_without_base", P + "struct A(base) { int32 x; }\n",
     (2, 10, "'(base)' numbering requires a base struct: 'struct A(base) : Base'")),
    ("base_is_enum", P + "enum E { a; }\nstruct A : E {}\n",
     (3, 12, "'E' is an enum; only a struct can be a base")),
    ("unknown_base", P + "struct A : Missing {}\n",
     (2, 12, "unknown base struct 'Missing'")),
    ("inheritance_cycle", P + "struct A : B {}\nstruct B : A {}\n",
     (2, 12, "inheritance cycle: A -> B -> A")),
    ("duplicate_fixed_number", P + "struct A(7) {}\nstruct B(7) {}\n",
     (3, 10, "type number 7 of 'B' is already used by 'A'")),
    ("negative_type_number", P + "struct A(-1) {}\n",
     (2, 10, "a type number cannot be negative")),
    ("bad_numbering", P + "struct A(x) {}\n",
     (2, 10, "expected a type number: '(N)', '(+N)' or '(base)', found 'x'")),
    ("contains_itself", P + "struct A { int32 x; A inner; }\n",
     (2, 23, "field 'inner' contains its own struct 'A' by value; use a vector or a list")),
    ("contains_itself_optional", P + "struct Node { int32 v; Node? next; }\n",
     (2, 30, "field 'next' contains its own struct 'Node' by value; use a vector or a list")),
    ("contains_itself_indirectly", P + "struct A { B b; }\nstruct B { A[2] a; }\n",
     (2, 14, "field 'b' contains its own struct 'A' by value (through A -> B -> A); use a "
             "vector or a list")),
    ("unknown_type", P + "struct A { Missing m; }\n", (2, 12, "unknown type 'Missing'")),
    ("unqualified_imported_type", P + "import proto\nstruct A { Order o; }\n",
     (3, 12, "unknown type 'Order'; did you mean 'proto.Order'?")),
    ("package_not_imported", P + "struct A { proto.Order o; }\n",
     (2, 12, "unknown type 'proto.Order': package 'proto' is not imported")),
    ("imported_type_missing", P + "import proto\nstruct A { proto.Trade t; }\n",
     (3, 12, "unknown type 'proto.Trade': package 'proto' has no type 'Trade'")),
    ("bytes_map_key", P + "struct A { int32<bytes> m; }\n",
     (2, 18, "'bytes' cannot be the key of map field 'm': bytes cannot be compared")),
    ("unkeyed_struct_hash_key", P + "struct K { int32 x; }\nstruct A { int32{K} h; }\n",
     (3, 18, "'p.K' cannot be the key of hash field 'h': struct 'K' has no '[key]' field to "
             "compare by")),
    ("bytes_set", P + "struct A { bytes! s; }\n",
     (2, 12, "'bytes' cannot be the element of set field 's': bytes cannot be compared")),
    ("key_on_vector", P + "struct A { [key] int32[] v; }\n",
     (2, 26, "field 'v' cannot be a '[key]': a vector cannot be compared and hashed as a key")),
    ("array_size_zero", P + "struct A { int32[0] a; }\n",
     (2, 18, "array size must be positive, not 0")),
    ("nested_containers", P + "struct A { int32[][] v; }\n",
     (2, 19, "containers cannot be nested; declare a struct for the inner collection")),
    ("optional_set", P + "struct A { int32?! s; }\n",
     (2, 18, "a set cannot hold optional elements")),
    ("optional_key", P + "struct A { int32<string?> m; }\n",
     (2, 24, "a map or hash key cannot be optional")),
    ("missing_semicolon", P + "struct A {\n    int32 x\n    int32 y;\n}\n",
     (3, 12, "expected ';' after field 'x'")),
    ("reserved_field_name", P + "struct A { int32 string; }\n",
     (2, 18, "'string' is a reserved word and cannot be used as a field name")),
    ("key_on_struct", P + "[key] struct A {}\n",
     (2, 1, "attribute '[key]' cannot be used on a struct")),
    ("id_before_type", P + "struct A { [id] uuid x; }\n",
     (2, 12, "'[id]' goes after the field type, in place of the name: 'uuid [id] = uuid1;'")),
    ("response_without_request", P + "message R {}\n[response(R)] message Q {}\n",
     (3, 1, "'[response(...)]' requires '[request]'")),
    ("response_is_enum", P + "enum E { a; }\n[request] [response(E)] message Q { uuid [id]; }\n",
     (3, 21, "response type 'E' must be a struct or message, not an enum")),
    ("request_without_id", P + "message R { uuid [id]; }\n[request] [response(R)] message Q {}\n",
     (3, 33, "request 'Q' needs a 'uuid [id]' field to match responses to requests")),
    ("field_without_type", P + "struct A { = 5; }\n",
     (2, 12, "expected a field type, found '='")),
    ("statement_garbage", P + "strukt A {}\n",
     (2, 1, "expected a declaration ('enum', 'flags', 'struct', 'message' or 'variant'), "
         "found 'strukt'")),
    ("unclosed_struct", P + "struct A { int32 x;\n",
     (3, 1, "expected '}' to close struct 'A', found end of file")),
    # -- defaults ----------------------------------------------------------------------------
    ("int8_out_of_range", P + "struct A { int8 x = 300; }\n",
     (2, 21, "default 300 of field 'x' is out of range for int8 (-128..127)")),
    ("uint8_negative", P + "struct A { uint8 x = -1; }\n",
     (2, 22, "default -1 of field 'x' is out of range for uint8 (0..255)")),
    ("uint64_too_big", P + "struct A { uint64 x = 0x10000000000000000; }\n",
     (2, 23, "default 0x10000000000000000 of field 'x' is out of range for uint64 "
             "(0..18446744073709551615)")),
    ("bool_from_number", P + "struct A { bool b = 1; }\n",
     (2, 21, "field 'b' of type bool needs 'true' or 'false', not '1'")),
    ("string_from_number", P + "struct A { string s = 5; }\n",
     (2, 23, "field 's' of type string needs a string literal, not '5'")),
    ("float_out_of_range", P + "struct A { float f = 1e39; }\n",
     (2, 22, "default 1e39 of field 'f' is out of range for float")),
    ("double_out_of_range", P + "struct A { double d = 1e999; }\n",
     (2, 23, "default 1e999 of field 'd' is out of range for double")),
    ("decimal_too_many_places", P + "struct A { decimal d = 0.00000000000000000000000000001; }\n",
     (2, 24, "default 0.00000000000000000000000000001 of field 'd' has more than 28 decimal "
             "places")),
    ("decimal_too_large", P + "struct A { decimal d = 1e30; }\n",
     (2, 24, "default 1e30 of field 'd' is out of range for decimal (at most 96 bits of "
             "digits)")),
    ("min_on_float", P + "struct A { double d = min; }\n",
     (2, 23, "field 'd' of type double needs a number, not 'min'")),
    ("null_not_optional", P + "struct A { int32 x = null; }\n",
     (2, 22, "'null' is only a default for optional fields; 'x' is int32")),
    ("default_on_vector", P + "struct A { int32[] v = 1; }\n",
     (2, 24, "field 'v' is a vector; collections cannot have a default")),
    ("default_on_struct", P + "struct B {}\nstruct A { B b = 1; }\n",
     (3, 18, "field 'b' is a struct; a struct's defaults come from its own fields")),
    ("enum_default_other_enum", P + "enum E { a; }\nenum F { b; }\nstruct A { E e = F.b; }\n",
     (4, 18, "'F.b' is not a value of enum 'E'")),
    ("enum_default_unknown_value", P + "enum E { a; }\nstruct A { E e = E.zz; }\n",
     (3, 18, "enum 'E' has no value 'zz'")),
    ("enum_default_bare_name", P + "enum E { a; }\nstruct A { E e = a; }\n",
     (3, 18, "write the enum value with its type: 'E.a'")),
    ("enum_default_or", P + "enum E { a; b; }\nstruct A { E e = E.a | E.b; }\n",
     (3, 18, "field 'e' is an enum; '|' combines flags only")),
    ("enum_default_number", P + "enum E { a; }\nstruct A { E e = 0; }\n",
     (3, 18, "field 'e' of enum 'E' needs a value such as 'E.a', not '0'")),
    ("timestamp_now", P + "struct A { timestamp t = now; }\n",
     (2, 26, "'now' is not a timestamp default; use 'utc' (the time of construction) or "
             "'epoch'")),
    ("bad_uuid", P + 'struct A { uuid u = "not-a-uuid"; }\n',
     (2, 21, "'not-a-uuid' is not a uuid; write \"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\"")),
    ("bytes_default", P + 'struct A { bytes b = "x"; }\n',
     (2, 22, "field 'b' is bytes; bytes cannot have a default")),
    ("char_default_multichar", P + "struct A { char c = 'ab'; }\n",
     (2, 21, "a character literal holds exactly one character")),
    ("char_default_too_wide", P + "struct A { char c = '\\u20AC'; }\n",
     (2, 21, "character '\\u20AC' does not fit in char")),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_malformed_schema(tmp_path, case):
    text, expected = case[1], case[2]
    files = case[3] if len(case) > 3 else None
    line, col, message = expected
    message = message.replace("{dir}", str(tmp_path))
    assert first_error(tmp_path, text, files) == (line, col, message)


def test_at_least_forty_malformed_schemas():
    assert len(CASES) >= 40


def test_several_errors_in_one_run(tmp_path):
    text = P + ("struct A {\n"
                "    int32 x = 300000000000;\n"
                "    Missing m;\n"
                "    int8 ;\n"
                "    string ok;\n"
                "}\n"
                "enum E : byte { a = 999; }\n")
    schema, diags = diagnose(tmp_path, text)
    assert schema is None
    assert diags == [
        ("error", 3, 15, "default 300000000000 of field 'x' is out of range for int32 "
                         "(-2147483648..2147483647)"),
        ("error", 4, 5, "unknown type 'Missing'"),
        ("error", 5, 10, "expected a field name, found ';'"),
        ("error", 8, 21, "value 999 of 'a' is out of range for byte (0..255)"),
    ]


def test_colliding_implicit_numbers_warn(tmp_path):
    text = P + "struct A {}\nstruct B(+1) {}\nstruct C(1) {}\n"
    schema, diags = diagnose(tmp_path, text)
    assert schema is not None
    assert diags == [
        ("warning", 3, 11, "type number 1 of 'B' is already used by 'A'; a receiver cannot "
                           "tell them apart"),
        ("note", 2, 8, "'A' is declared here"),
        ("warning", 4, 10, "type number 1 of 'C' is already used by 'A'; a receiver cannot "
                           "tell them apart"),
        ("note", 2, 8, "'A' is declared here"),
    ]


def test_rendered_diagnostic_has_source_line_and_caret(tmp_path):
    path = tmp_path / "bad.fbe"
    path.write_text("package p\nstruct A {\n\tint8 x = 300;\n}\n")
    reporter = Reporter()
    assert compile_schema(str(path), reporter) is None
    assert reporter.diagnostics[0].render() == (
        f"{path}:3:11: error: default 300 of field 'x' is out of range for int8 (-128..127)\n"
        "\tint8 x = 300;\n"
        "\t         ^~~")


def test_imports_found_through_include_dirs(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "common.fbe").write_text("package common\nstruct Money { decimal value; }\n")
    (tmp_path / "app.fbe").write_text("package app\nimport common\n"
                                      "struct Payment { common.Money amount; }\n")
    reporter = Reporter()
    assert compile_schema(str(tmp_path / "app.fbe"), reporter) is None
    assert "cannot find 'common.fbe'" in reporter.errors[0].message
    reporter = Reporter()
    schema = compile_schema(str(tmp_path / "app.fbe"), reporter, [str(lib)])
    assert reporter.diagnostics == []
    assert [p.name for p in schema.packages] == ["common", "app"]


# -- the order of diagnostics: the cause first, its consequences not at all ----------------
def test_lexical_error_hides_the_parse_error_it_causes(tmp_path):
    # The parser misses a ';' after x because the lexer could not read '@': one error.
    schema, diags = diagnose(tmp_path, P + "struct A {\n    int32 x @ 1;\n}\n")
    assert schema is None
    assert diags == [("error", 3, 13, "unexpected character '@'")]


def test_several_errors_with_lexical_ones_in_one_run(tmp_path):
    text = P + ("struct A {\n"
                "    int32 x @ 1;\n"
                '    string s = "a\\qb";\n'
                "    int8 ;\n"
                "    Missing m;\n"
                "    int32 y = 12ab;\n"
                "    bool ok = `;\n"
                "}\n"
                "enum E : byte { a = 999; }\n")
    schema, diags = diagnose(tmp_path, text)
    assert schema is None
    assert diags == [
        ("error", 3, 13, "unexpected character '@'"),
        ("error", 4, 18, "unknown escape sequence '\\q'"),
        ("error", 5, 10, "expected a field name, found ';'"),
        ("error", 6, 5, "unknown type 'Missing'"),
        ("error", 7, 15, "malformed number '12ab'"),
        ("error", 8, 15, "unexpected character '`'"),
        ("error", 10, 21, "value 999 of 'a' is out of range for byte (0..255)"),
    ]


def test_parse_error_away_from_a_lexical_error_is_kept(tmp_path):
    schema, diags = diagnose(tmp_path, P + "struct A { int32 @x; int8 ; }\n")
    assert diags == [("error", 2, 18, "unexpected character '@'"),
                     ("error", 2, 27, "expected a field name, found ';'")]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_case_reports_in_source_order(tmp_path, case):
    """Every malformed schema's diagnostics, all of them: in source order, a lexical error
    before anything at its spot, notes after what they explain, and nothing (but a note)
    reported where a lexical error left no token."""
    files = case[3] if len(case) > 3 else None
    for name, content in (files or {}).items():
        (tmp_path / name).write_text(textwrap.dedent(content))
    if "import proto" in case[1]:
        (tmp_path / "proto.fbe").write_text(open(PROTO).read())
    (tmp_path / "bad.fbe").write_text(textwrap.dedent(case[1]))
    reporter = Reporter()
    compile_schema(str(tmp_path / "bad.fbe"), reporter)
    heads = [d for d in reporter.diagnostics if d.severity != "note"]
    assert heads and reporter.diagnostics[0].severity != "note"
    keys = [(d.location.path != str(tmp_path / "bad.fbe"), d.location.line, d.location.column,
             d.phase != LEXICAL) for d in heads if d.location is not None]
    assert keys == sorted(keys), reporter.diagnostics
    # Where the lexer left no token, from the token before the error to the one after it.
    lines = (tmp_path / "bad.fbe").read_text().splitlines()

    def offset(loc):
        return sum(len(line) + 1 for line in lines[:loc.line - 1]) + loc.column - 1

    gaps = [(offset(a), offset(b)) for a, b in reporter.gaps if a.path == str(tmp_path / "bad.fbe")]
    assert len(gaps) == len([d for d in heads if d.phase == LEXICAL and
                             d.location.path == str(tmp_path / "bad.fbe")])
    for d in heads:
        if d.phase != LEXICAL and d.location is not None and d.location.path == str(tmp_path / "bad.fbe"):
            assert not any(a <= offset(d.location) <= b for a, b in gaps), d


def test_bad_option_value_is_rendered_with_a_caret_under_the_value(tmp_path):
    path = tmp_path / "bad.fbe"
    path.write_text('package p\noption go_import = "a b"\nstruct A {}\n')
    reporter = Reporter()
    assert compile_schema(str(path), reporter) is None
    assert [d.render() for d in reporter.diagnostics] == [
        f"{path}:2:20: error: option 'go_import': 'a b' is not a Go import path (elements of "
        "letters, digits and '-._~', separated by '/')\n"
        'option go_import = "a b"\n'
        "                   ^~~~~"]
