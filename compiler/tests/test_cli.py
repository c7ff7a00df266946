"""The command line: both flag spellings, exit codes, and no traceback on bad input."""

import json
import os
import random
import subprocess
import sys

import pytest

from fastwire import Reporter, cli, compile_schema
from fastwire.generators import GENERATORS, Options
from fastwire.ir_json import from_json, to_json

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(REPO, "schemas")
ALL_SCHEMAS = ["proto.fbe", "protoex.fbe", "everything.fbe"]


def run_cli(*args, cwd=REPO):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    return subprocess.run([sys.executable, "-m", "fastwire", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def test_compile_emits_ir_json(tmp_path):
    r = run_cli("compile", "schemas/proto.fbe", "--emit", "ir-json", "-o", str(tmp_path))
    assert (r.returncode, r.stdout) == (0, "")
    assert r.stderr == f"fastwire: wrote {tmp_path}/proto.ir.json\n"
    doc = json.loads((tmp_path / "proto.ir.json").read_text())
    assert (doc["format"], doc["version"], doc["root"]) == ("fastwire-ir", 3, "proto")
    account = doc["packages"][0]["types"][5]
    assert (account["name"], account["type_number"]) == ("Account", 3)
    assert [f["name"] for f in account["all_fields"]] == ["uid", "name", "state", "wallet",
                                                          "asset", "orders"]
    assert account["all_fields"][2]["default"] == {
        "kind": "flags", "value": 11, "value_text": "11", "text": "State.initialized | State.bad",
        "names": ["initialized", "bad"]}


def test_quiet_prints_nothing(tmp_path):
    r = run_cli("compile", "schemas/everything.fbe", "--emit", "ir-json", "-q", "-o",
                str(tmp_path))
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")
    assert (tmp_path / "everything.ir.json").exists()


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_ir_json_round_trips(name):
    reporter = Reporter()
    schema = compile_schema(os.path.join(SCHEMAS, name), reporter)
    text = to_json(schema)
    assert from_json(text) == schema
    assert to_json(from_json(text)) == text


def test_invalid_schema_exits_1_with_located_error(tmp_path):
    bad = tmp_path / "bad.fbe"
    bad.write_text("package p\nstruct A {\n    int8 x = 300;\n}\n")
    r = run_cli("compile", str(bad), "--emit", "ir-json", "-o", str(tmp_path))
    assert r.returncode == 1
    assert r.stderr == (f"{bad}:3:14: error: default 300 of field 'x' is out of range for "
                        "int8 (-128..127)\n    int8 x = 300;\n             ^~~\n"
                        "1 error generated.\n")
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "p.ir.json").exists()


def test_check_reports_every_schema(tmp_path):
    bad = tmp_path / "bad.fbe"
    bad.write_text("package p\nstruct A { Missing m; }\n")
    r = run_cli("check", "schemas/proto.fbe", str(bad))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == f"{bad}:2:12: error: unknown type 'Missing'"


def test_missing_file_is_an_error_not_a_traceback():
    r = run_cli("check", "no/such.fbe")
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == \
        "fastwire: error: cannot read 'no/such.fbe': No such file or directory"


def test_binary_file_is_an_error(tmp_path):
    junk = tmp_path / "junk.fbe"
    junk.write_bytes(b"package p\n\xff\xfe\x00struct")
    r = run_cli("check", str(junk))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == \
        f"{junk}:2:1: error: not valid UTF-8: byte 0xFF (offset 10)"
    # The column counts characters, not bytes.
    junk.write_bytes(b"package p\n// x\n  \xc3\xa9 \xe9 struct")
    r = run_cli("check", str(junk))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == f"{junk}:3:5: error: not valid UTF-8: byte 0xE9 (offset 20)"


def test_reference_flags_parse():
    ns = cli.parse_arguments(["--cpp", "--input=schemas/proto.fbe", "--output=gen", "--final",
                              "--json", "--proto", "-q", "-n", "2", "-t"])
    assert (ns.command, ns.schemas, ns.output, ns.lang) == \
        ("compile", ["schemas/proto.fbe"], "gen", ["cpp"])
    assert (ns.final, ns.json, ns.proto, ns.quiet, ns.indent, ns.tabs) == \
        (True, True, True, True, 2, True)


@pytest.mark.parametrize("flag,lang", [
    ("--python", "python"), ("--go", "go"), ("--java", "java"), ("--javascript", "javascript"),
    ("--kotlin", "kotlin"), ("--csharp", "csharp"), ("--ruby", "ruby"), ("--swift", "swift"),
    ("--cpp", "cpp"), ("--c++", "cpp"), ("--typescript", "typescript"), ("--rust", "rust")])
def test_reference_language_flags(flag, lang):
    ns = cli.parse_arguments([flag, "-i", "x.fbe", "-o", "out"])
    assert (ns.lang, ns.schemas, ns.output) == ([lang], ["x.fbe"], "out")


def test_reference_flags_select_several_languages():
    ns = cli.parse_arguments(["--python", "--go", "--input=x.fbe"])
    assert (ns.lang, ns.output, ns.final) == (["go", "python"], ".", False)
    assert cli.parse_arguments(["--cpp", "--c++", "-i", "x.fbe"]).lang == ["cpp"]


def test_language_without_generator_is_one_line(tmp_path):
    # Swift: a reference language no one is writing yet (the list grows as they land).
    r = run_cli("--swift", "--input=schemas/proto.fbe", f"--output={tmp_path}")
    assert r.returncode == 1
    assert r.stderr == ("fastwire: error: the Swift generator is not available yet "
                        f"(available: {', '.join(cli._available())})\n")


def test_usage_errors_exit_2():
    r = run_cli("--input=schemas/proto.fbe")
    assert (r.returncode, r.stderr) == (2, "fastwire: error: nothing to generate: give a "
                                           "language flag such as --cpp, or use 'fastwire "
                                           "compile SCHEMA --emit ir-json'\n")
    r = run_cli("--cpp")
    assert (r.returncode, r.stderr) == (2, "fastwire: error: the following arguments are "
                                           "required: -i/--input\n")
    r = run_cli("compile", "schemas/proto.fbe", "--lang", "cobol")
    assert r.returncode == 2 and "unknown language 'cobol'" in r.stderr
    r = run_cli("compile", "schemas/proto.fbe")
    assert (r.returncode, r.stderr) == (2, "fastwire: error: nothing to generate: add --emit "
                                           "ir-json or --lang LANG\n")


def test_version():
    r = run_cli("--version")
    assert (r.returncode, r.stdout.strip()) == (0, "fastwire 0.1.0")


def test_unwritable_output_is_an_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    r = run_cli("compile", "schemas/proto.fbe", "--emit", "ir-json", "-o", str(blocker / "x"))
    assert r.returncode == 1
    assert r.stderr.startswith(f"fastwire: error: cannot write '{blocker}/x/proto.ir.json': ")


def test_internal_error_is_one_line_and_exit_70(monkeypatch, capsys):
    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")
    monkeypatch.setattr(cli, "compile_schema", boom)
    assert cli.main(["check", "schemas/proto.fbe"]) == 70
    err = capsys.readouterr().err
    assert err == ("fastwire: internal error: RuntimeError: simulated bug. This is a bug in "
                   "fastwire; please report it with the schema that caused it.\n")


def _mutations(text, rng, count):
    alphabet = list("{}[]()<>;:=|?!~*/+-.,'\"0123456789abcxyz_ \n") + \
        ["struct", "enum", "flags", "[key]", "[id]", "(base)", "/*", "*/", "//", "0x", "uuid1"]
    for _ in range(count):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            op = rng.randrange(3)
            pos = rng.randrange(len(chars) + 1)
            if op == 0 and chars:
                del chars[min(pos, len(chars) - 1)]
            elif op == 1:
                chars.insert(pos, rng.choice(alphabet))
            else:
                cut = rng.randrange(len(chars) + 1)
                chars = chars[:cut]
        yield "".join(chars)


@pytest.mark.parametrize("name", ALL_SCHEMAS)
def test_mutated_schemas_never_raise(tmp_path, name):
    """Thousands of corrupted schemas: each compiles or reports located errors; never raises."""
    rng = random.Random(1234)
    text = open(os.path.join(SCHEMAS, name)).read()
    for other in ALL_SCHEMAS:
        (tmp_path / other).write_text(open(os.path.join(SCHEMAS, other)).read())
    target = tmp_path / "mutant.fbe"
    for mutant in _mutations(text, rng, 500):
        target.write_text(mutant)
        reporter = Reporter()
        schema = compile_schema(str(target), reporter)
        if schema is None:
            assert reporter.errors, mutant
            for d in reporter.errors:
                assert d.render()  # every diagnostic renders, located or not


def test_print_outputs_and_depfile(tmp_path):
    r = run_cli("compile", "schemas/protoex.fbe", "--lang", "cpp", "-o", str(tmp_path),
                "--print-outputs")
    assert r.returncode == 0
    assert r.stdout.splitlines() == [f"{tmp_path}/{n}" for n in (
        "proto.h", "proto_models.h", "protoex.h", "protoex_models.h")]
    assert list(tmp_path.iterdir()) == []
    dep = tmp_path / "deps" / "protoex.d"
    r = run_cli("compile", "schemas/protoex.fbe", "--lang", "cpp", "-q", "-o", str(tmp_path),
                "--depfile", str(dep))
    assert (r.returncode, r.stderr) == (0, "")
    assert dep.read_text() == (f"{tmp_path}/proto.h {tmp_path}/proto_models.h "
                               f"{tmp_path}/protoex.h {tmp_path}/protoex_models.h: "
                               "schemas/proto.fbe schemas/protoex.fbe\n")


def test_several_schemas_share_imports_and_one_depfile(tmp_path):
    dep = tmp_path / "all.d"
    r = run_cli("compile", "schemas/protoex.fbe", "schemas/protocol.fbe", "--lang", "cpp",
                "-o", str(tmp_path), "--print-outputs")
    names = [os.path.basename(x) for x in r.stdout.splitlines()]
    assert names == ["proto.h", "proto_models.h", "protoex.h", "protoex_models.h",
                     "protocol.h", "protocol_models.h"]
    r = run_cli("compile", "schemas/protoex.fbe", "schemas/protocol.fbe", "--lang", "cpp",
                "-q", "-o", str(tmp_path), "--depfile", str(dep))
    assert r.returncode == 0
    outputs, inputs = dep.read_text().split(": ")
    assert [os.path.basename(x) for x in outputs.split()] == names
    assert inputs.split() == ["schemas/proto.fbe", "schemas/protoex.fbe", "schemas/protocol.fbe"]


# ---- the usual mistakes (issue 15) ----------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["compil", "x.fbe"], "unknown command 'compil': did you mean 'compile'?"),
    (["chek", "x.fbe"], "unknown command 'chek': did you mean 'check'?"),
    (["x.fbe"], "'x.fbe' is not a command: did you mean 'fastwire compile x.fbe --lang LANG' "
                "or 'fastwire check x.fbe'?"),
    (["frobnicate"], "unknown command 'frobnicate' (commands: compile, check, decode, encode, "
                     "explain, compat; or the reference compiler's flags: fastwire --cpp --input=SCHEMA --output=DIR)"),
    (["compile", "x.fbe", "--cpp"],
     "'--cpp' is the reference compiler's spelling: did you mean '--lang cpp'?"),
    (["compile", "x.fbe", "--c++"],
     "'--c++' is the reference compiler's spelling: did you mean '--lang cpp'?"),
    (["compile", "x.fbe", "--finall"], "unknown option '--finall': did you mean '--final'?"),
    (["--cpp", "x.fbe"], "the following arguments are required: -i/--input (did you mean "
                         "'--input=x.fbe', or 'fastwire compile x.fbe --lang LANG'?)"),
    (["--pyton", "-i", "x.fbe"], "unknown option '--pyton': did you mean '--python'?"),
    (["-X"], "unknown option '-X' (see 'fastwire --help')"),
])
def test_mistakes_say_what_was_meant(args, message):
    r = run_cli(*args)
    assert (r.returncode, r.stderr) == (2, f"fastwire: error: {message}\n")
    assert "required: -i/--input\n" not in r.stderr


def test_short_version_flag():
    r = run_cli("-V")
    assert (r.returncode, r.stdout.strip(), r.stderr) == (0, "fastwire 0.1.0", "")


def test_compile_help_lists_available_languages():
    r = run_cli("compile", "--help")
    text = " ".join(r.stdout.split())
    assert r.returncode == 0
    assert f"available today: {', '.join(cli._available())};" in text
    assert f"planned: {', '.join(cli._planned_only())}" in text
    assert "python" in cli._available() and "swift" in cli._planned_only()


def test_every_lang_has_a_reference_flag():
    from fastwire.generators import PLANNED
    for lang in PLANNED:
        assert cli.parse_arguments([f"--{lang}", "-i", "x.fbe"]).lang == [lang]
    r = run_cli("--swift", "-i", "schemas/proto.fbe")
    assert r.stderr == ("fastwire: error: the Swift generator is not available yet "
                        f"(available: {', '.join(cli._available())})\n")


def test_ignored_flag_says_so(tmp_path):
    r = run_cli("--cpp", "--cpp-logging", "-i", "schemas/proto.fbe", "-o", str(tmp_path))
    assert r.returncode == 0
    assert r.stderr.splitlines()[0] == ("fastwire: warning: --cpp-logging is ignored (fastwire's "
                                        "C++ code has no logging hooks)")


def test_unchanged_files_are_not_reported_as_written(tmp_path):
    args = ("compile", "schemas/proto.fbe", "--lang", "cpp", "-o", str(tmp_path))
    first = run_cli(*args)
    assert first.stderr == f"fastwire: wrote {tmp_path}/proto.h\nfastwire: wrote {tmp_path}/proto_models.h\n"
    (tmp_path / "proto.h").write_text("stale")
    second = run_cli(*args)
    assert second.stderr == (f"fastwire: wrote {tmp_path}/proto.h\n"
                             f"fastwire: unchanged: {tmp_path}/proto_models.h\n")


@pytest.mark.parametrize("path", ["bad path", 'a"b', "../x", "a//b", "/abs", "x/"])
def test_a_go_import_path_that_go_would_reject_is_a_usage_error(path, tmp_path):
    r = run_cli("compile", "schemas/proto.fbe", "--lang", "go", "--go-import", path,
                "-o", str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == (f"fastwire: error: --go-import: {path!r} is not a Go import path "
                        "(elements of letters, digits and '-._~', separated by '/')\n")
    assert list(tmp_path.iterdir()) == []


# `option go_import = "PATH"` in the file header (docs/schema-language.md#options).
OPTION_LIB = "package lib\nstruct L { int32 x; }\n"
OPTION_APP = 'package app\noption go_import = "example.com/app/gen"\nimport lib\nstruct A { lib.L l; }\n'


def option_schemas(tmp_path, app=OPTION_APP, lib=OPTION_LIB):
    (tmp_path / "lib.fbe").write_text(lib)
    (tmp_path / "app.fbe").write_text(app)
    return str(tmp_path / "app.fbe")


def go_imports(out) -> list:
    text = (out / "app" / "app.fbe.go").read_text()
    return [line.strip() for line in text.splitlines() if line.strip().endswith('/lib"')]


def test_schema_option_go_import_sets_the_go_import_path(tmp_path):
    out = tmp_path / "out"
    r = run_cli("compile", option_schemas(tmp_path), "--lang", "go", "-q", "-o", str(out))
    assert (r.returncode, r.stderr) == (0, "")
    assert go_imports(out) == ['"example.com/app/gen/lib"']


def test_go_import_flag_overrides_the_schema_option(tmp_path):
    out = tmp_path / "out"
    r = run_cli("compile", option_schemas(tmp_path), "--lang", "go", "-q", "--go-import",
                "other.org/x/gen", "-o", str(out))
    assert (r.returncode, r.stderr) == (0, "")
    assert go_imports(out) == ['"other.org/x/gen/lib"']


def test_go_import_of_an_imported_schema_does_not_apply(tmp_path):
    # Every package of one compilation goes under the same output folder: the compiled
    # schema's option (or the flag) names it.
    out = tmp_path / "out"
    app = OPTION_APP.replace('option go_import = "example.com/app/gen"\n', "")
    lib = OPTION_LIB.replace("\n", '\noption go_import = "example.com/lib/gen"\n', 1)
    r = run_cli("compile", option_schemas(tmp_path, app, lib), "--lang", "go", "-q",
                "-o", str(out))
    assert (r.returncode, r.stderr) == (0, "")
    assert go_imports(out) == ['"fastwire.gen/lib"']


def test_other_generators_ignore_the_option(tmp_path):
    # The same schema with the option line commented out (same line numbers) generates the
    # same code in every language but Go; the IR carries the option.
    with_option = tmp_path / "a"
    without = tmp_path / "b"
    with_option.mkdir()
    without.mkdir()
    option_schemas(with_option)
    option_schemas(without, OPTION_APP.replace("option go_import", "// option go_import"))
    for lang in sorted(GENERATORS):
        if lang in ("go", "ir-json"):
            continue
        outs = []
        for d in (with_option, without):
            reporter = Reporter()
            schema = compile_schema(str(d / "app.fbe"), reporter)
            assert schema is not None
            outs.append(GENERATORS[lang](schema, Options()))
        assert outs[0] == outs[1], lang
    reporter = Reporter()
    schema = compile_schema(str(with_option / "app.fbe"), reporter)
    assert schema is not None
    app = [p for p in schema.packages if p.name == "app"][0]
    assert app.options == (("go_import", "example.com/app/gen"),)
    doc = json.loads(to_json(schema))
    assert [p.get("options") for p in doc["packages"]] == [None, {"go_import": "example.com/app/gen"}]
    assert from_json(to_json(schema)) == schema


@pytest.mark.parametrize("command", ["decode", "encode", "explain"])
def test_runtime_commands_without_the_runtime(command):
    """decode, encode and explain come with the Python runtime (its entry points): the
    compiler alone says what to install, in one line, and imports no runtime."""
    r = run_cli(command, "--schema", "schemas/proto.fbe", "--type", "Account", "tests/vectors/account.json")
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"fastwire {command}: error: this command comes with the Python runtime: pip "
                        f"install fastwire-fbe-runtime (or 'fastwire-fbe[tools]'); without installing "
                        f"it, 'python3 -m fastwire_runtime.tools {command} ...'\n")
    r = run_cli("--help")
    said = " ".join(r.stdout.split())
    assert f"{command} " in said and "; comes with the Python runtime (docs/tools.md;" in said
