"""Generated code compiles (C++) and imports (Python) for every valid schema.

Fixed cases (a `$` in documentation, a struct used as a hash key in its own package) and
random valid schemas: FASTWIRE_FUZZ_SCHEMAS of them (default 20; `make fuzz-schemas`
asks for more), seeded by FASTWIRE_FUZZ_SEED (default: a new seed, printed on failure).
"""

from __future__ import annotations

import importlib
import os
import random
import shutil
import subprocess
import sys
from typing import List

import pytest

from fastwire import Reporter, compile_schema, lower
from fastwire.generators import GENERATORS, Options

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CXX = shutil.which("g++") or shutil.which("clang++")
OPTIONS = Options(final=True, json=True, proto=True)

DOLLAR = """\
// Prices in $USD$, and $$ and $ alone.
package dollar

/// costs $USD$
enum Currency { /* $EUR$ */ eur; usd; }
// $x$ and "quotes" and \\ and */
struct Price { [key] string code = "$USD$"; Currency c; }
"""

HASH_KEY = """\
package p
struct K { [key] int32 id; }
struct H { int32{K} m; }
"""


def generate(tmp, name: str, text: str) -> dict:
    path = os.path.join(tmp, f"{name}.fbe")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    reporter = Reporter()
    schema = compile_schema(path, reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics] + [text]
    out = {}
    for lang in ("cpp", "python"):
        for rel, content in GENERATORS[lang](schema, OPTIONS).items():
            target = os.path.join(tmp, lang, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(content)
            out[rel] = content
    return out


def cpp_compiles(tmp, packages: List[str]) -> None:
    if CXX is None:
        pytest.skip("no C++ compiler")
    src = os.path.join(tmp, "cpp", "all.cpp")
    with open(src, "w") as fh:
        for p in packages:
            for suffix in ("", "_models", "_json", "_protocol", "_final_protocol"):
                fh.write(f'#include "{p}{suffix}.h"\n')
        fh.write("int main() { return 0; }\n")
    done = subprocess.run([CXX, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror",
                           "-I", os.path.join(REPO, "cpp", "include"), src],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[:4000]


def python_imports(tmp, packages: List[str]) -> None:
    folder = os.path.join(tmp, "python")
    sys.path[:0] = [folder, os.path.join(REPO, "python")]
    try:
        for p in packages:
            sys.modules.pop(p + "_fbe", None)
            module = importlib.import_module(p + "_fbe")
            for name in dir(module):  # every struct: default value round trip, both formats
                model = getattr(module, name + "Model", None) if not name.endswith("Model") \
                    else None
                cls = getattr(module, name)
                if model is None or not isinstance(cls, type):
                    continue
                value = cls()
                assert model().deserialize(model().serialize(value)) == value
                final = getattr(module, name + "FinalModel")
                final().deserialize(final().serialize(value))
    finally:
        del sys.path[:2]
        for p in packages:
            sys.modules.pop(p + "_fbe", None)


def test_dollar_in_documentation(tmp_path):
    files = generate(str(tmp_path), "dollar", DOLLAR)
    assert "$USD$" in files["dollar.h"] and "$USD$" in files["dollar_fbe.py"]
    python_imports(str(tmp_path), ["dollar"])
    cpp_compiles(str(tmp_path), ["dollar"])


def test_struct_as_hash_key_in_its_own_package(tmp_path):
    generate(str(tmp_path), "p", HASH_KEY)
    cpp_compiles(str(tmp_path), ["p"])
    python_imports(str(tmp_path), ["p"])


def test_layout_disagreement_fails_the_cpp_build_naming_the_struct(tmp_path):
    """The models header checks the lowered model's layout against the runtime's: a wrong
    number (as from a compiler and a runtime that disagree) stops the build."""
    files = generate(str(tmp_path), "p", HASH_KEY)
    models = files["p_models.h"]
    for right, wrong, message in (
            ("body_size<H>() == 12", "body_size<H>() == 16", "p.H: versioned body size"),
            ("slot_offsets_are<K>({8})", "slot_offsets_are<K>({12})",
             "p.K: versioned slot offsets"),
            ("min_size<H>() == 4", "min_size<H>() == 5", "p.H: final-format size")):
        assert right in models
        with open(os.path.join(str(tmp_path), "cpp", "p_models.h"), "w") as fh:
            fh.write(models.replace(right, wrong))
        with pytest.raises(AssertionError, match=message):
            cpp_compiles(str(tmp_path), ["p"])


# ---- random valid schemas ---------------------------------------------------------------

PRIMS = ["bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
         "uint32", "int64", "uint64", "float", "double", "decimal", "string", "bytes",
         "timestamp", "uuid"]
KEYABLE = [p for p in PRIMS if p != "bytes"]
NAMES = ["id", "value", "class", "from", "default", "name", "self", "type", "new", "list",
         "x", "count", "delete", "None", "data", "items"]
DEFAULTS = {"bool": ["true"], "int8": ["-128", "5"], "uint64": ["18446744073709551615"],
            "int32": ["-2147483648", "7"], "double": ["1.5", "-0.0"], "float": ["2.5"],
            "string": ['"a$b$c"', '"\\n"'], "decimal": ["123.45", "-0.5"],
            "timestamp": ["epoch", "utc"], "uuid": ["uuid0", "uuid1", "uuid4"]}


def random_schema(rnd: random.Random, package: str) -> str:
    lines = [f"// fuzz {package} $doc$", f"package {package}", ""]
    enums: List[str] = []
    for i in range(rnd.randint(0, 2)):
        base = rnd.choice(["", " : byte", " : int16", " : uint32", " : int64"])
        kind = rnd.choice(["enum", "flags"])
        values = "; ".join(f"v{j} = {1 << j}" for j in range(rnd.randint(1, 4)))
        lines.append(f"{kind} E{i}{base} {{ {values}; }}")
        enums.append(f"E{i}")
    structs: List[tuple] = []  # (name, keyed, field names)
    for i in range(rnd.randint(1, 5)):
        kind = "message" if rnd.random() < 0.25 else "struct"
        base = None
        if structs and rnd.random() < 0.2:
            base = rnd.choice(structs)
        fields: List[str] = []
        taken = set(base[2]) if base else set()
        keyed = bool(base and base[1])
        for _ in range(rnd.randint(0, 6)):
            name = rnd.choice(NAMES)
            if name in taken:
                continue
            taken.add(name)
            keyed_structs = [s[0] for s in structs if s[1]]
            choice = rnd.random()
            key = ""
            default = ""
            if choice < 0.4:
                t = rnd.choice(PRIMS + enums)
                if t in KEYABLE and rnd.random() < 0.3:
                    key = "[key] "
                    keyed = True
                elif t in DEFAULTS and rnd.random() < 0.5:
                    default = " = " + rnd.choice(DEFAULTS[t])
            elif choice < 0.5 and structs:
                t = rnd.choice(structs)[0] + rnd.choice(["", "?", "[]", "()"])
            elif choice < 0.6:
                t = rnd.choice(PRIMS + enums) + rnd.choice(["?", "[2]", "[]", "()", "?[]"])
            elif choice < 0.7:
                t = rnd.choice(KEYABLE + enums + keyed_structs) + "!"
            elif choice < 0.85:
                k = rnd.choice(KEYABLE + enums + keyed_structs)
                v = rnd.choice(PRIMS + enums + [s[0] for s in structs])
                t = f"{v}{rnd.choice(['', '?'])}{rnd.choice(['<', '{'])}{k}"
                t += ">" if "<" in t else "}"
            else:
                t = rnd.choice(PRIMS) + "~" if rnd.random() < 0.3 else rnd.choice(PRIMS)
                if "~" in t:
                    if name + "Reset" in taken:
                        continue
                    taken.add(name + "Reset")
            doc = "    // $field$ doc\n" if rnd.random() < 0.2 else ""
            fields.append(f"{doc}    {key}{t} {name}{default};")
        name = f"S{i}"
        head = f"{kind} {name}" + (f" : {base[0]}" if base else "")
        lines.append(f"/// $struct$ {name}\n{head}\n{{\n" + "\n".join(fields) + "\n}")
        structs.append((name, keyed, sorted(taken)))
    return "\n".join(lines) + "\n"


def test_random_valid_schemas_generate_code_that_compiles_and_imports(tmp_path):
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    packages = []
    for i in range(count):
        name = f"fuzz{i}"
        text = random_schema(rnd, name)
        try:
            generate(str(tmp_path), name, text)
        except AssertionError as err:
            raise AssertionError(f"seed {seed}, schema {i}:\n{text}") from err
        packages.append(name)
    for start in range(0, len(packages), 25):  # one compiler run per 25 schemas
        chunk = packages[start:start + 25]
        try:
            cpp_compiles(str(tmp_path), chunk)
            python_imports(str(tmp_path), chunk)
        except AssertionError as err:
            raise AssertionError(f"FASTWIRE_FUZZ_SEED={seed}: {err}") from err


def test_type_number_warnings_only_where_a_receiver_cannot_tell(tmp_path):
    """The FBE sample numbers its messages as the structs they carry: no warning, since
    the protocol sends only the messages. Two messages with one number still warn."""
    def warnings(text: str) -> List[str]:
        path = tmp_path / "w.fbe"
        path.write_text(text)
        reporter = Reporter()
        assert compile_schema(str(path), reporter) is not None
        return [d.message for d in reporter.diagnostics if d.severity == "warning"]

    sample = ("package w\nstruct Order(1) { int32 id; }\nstruct Balance(2) { double x; }\n"
              "message OrderMessage { Order body; }\nmessage BalanceMessage { Balance body; }\n")
    assert warnings(sample) == []
    clash = sample + "message A { int32 y; }\nmessage B(+3) { int32 z; }\n"  # both 3
    assert len(warnings(clash)) == 1 and "'A'" in warnings(clash)[0]
    no_messages = "package w\nstruct A(1) { int32 x; }\nstruct B { int32 y; }\n"
    assert len(warnings(no_messages)) == 1  # structs are what it sends


# ---- Go ---------------------------------------------------------------------------------

GO = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go")
                            else None)


def go_builds(tmp, texts: dict) -> None:
    """The Go generator's code for each schema builds, gofmt-clean, in one module."""
    if GO is None:
        pytest.skip("no Go toolchain")
    folder = os.path.join(tmp, "go")
    for name, text in texts.items():
        path = os.path.join(tmp, f"{name}.fbe")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        schema = compile_schema(path, Reporter())
        assert schema is not None
        options = Options(final=True, json=True, proto=True, go_import="fuzz.test/gen")
        for rel, content in GENERATORS["go"](schema, options).items():
            target = os.path.join(folder, "gen", rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(content)
    with open(os.path.join(folder, "go.mod"), "w") as fh:
        fh.write("module fuzz.test\n\ngo 1.22\n\nrequire github.com/fastwire/fastwire/go v0.0.0\n\n"
                 f"replace github.com/fastwire/fastwire/go => {os.path.join(REPO, 'go')}\n")
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="-mod=mod", GOMAXPROCS="2")
    done = subprocess.run([GO, "vet", "./..."], cwd=folder, capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr[:4000]
    gofmt = os.path.join(os.path.dirname(GO), "gofmt")
    done = subprocess.run([gofmt, "-l", "gen"], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), "not gofmt-clean: " + done.stdout


def test_go_builds_fixed_and_random_schemas(tmp_path):
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    # `importer` imports package `p`, whose name is also a local variable of generated code.
    texts = {"dollar": DOLLAR, "p": HASH_KEY,
             "importer": "package importer\nimport p\nstruct U { int32{p.K} m; p.K k; p.K? o; "
                         "p.K[] v; }\nmessage M { p.K k; }\n"}
    texts.update({f"fuzz{i}": random_schema(rnd, f"fuzz{i}") for i in range(count)})
    try:
        go_builds(str(tmp_path), texts)
    except AssertionError as err:
        raise AssertionError(f"FASTWIRE_FUZZ_SEED={seed}: {err}") from err


# ---- Ruby: the same schemas load warning-free under `ruby -w` and round-trip ------------

RUBY = shutil.which("ruby")
# Loads every generated file; each struct's default value goes through both formats and
# JSON and must come back equal. Anything on stderr (a warning) fails the test.
RUBY_CHECK = r"""
$LOAD_PATH.unshift(ARGV.shift)
require "fastwire"
ARGV.each do |file|
  require File.expand_path(file)
  mod = Object.const_get(File.basename(file, "_fbe.rb").split("_").map(&:capitalize).join)
  mod.constants.each do |c|
    model = mod.const_get(c)
    next unless model.is_a?(Class) && model.superclass == Fastwire::Model

    value = model.codec.cls.new
    data = model.new.serialize(value)
    raise "#{model}: versioned round trip" unless model.new.deserialize(data) == value
    raise "#{model}: verify's fast walk rejects its message" unless model.new.fast_verify(data)
    final = mod.const_get(c.to_s.sub(/Model\z/, "FinalModel")).new
    data = final.serialize(value)
    raise "#{model}: final round trip" unless final.deserialize(data) == value
    raise "#{model}: final verify's fast walk rejects its message" unless final.fast_verify(data)
    raise "#{model}: JSON round trip" unless value.class.from_json(value.to_json) == value
    value.to_s
  end
end
"""


def ruby_loads(tmp, schemas: dict) -> None:
    if RUBY is None:
        pytest.skip("no ruby")
    folder = os.path.join(tmp, "ruby")
    files = []
    for name, text in schemas.items():
        path = os.path.join(tmp, f"{name}.fbe")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        reporter = Reporter()
        schema = compile_schema(path, reporter)
        assert schema is not None, [d.render() for d in reporter.diagnostics] + [text]
        for rel, content in GENERATORS["ruby"](schema, OPTIONS).items():
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, rel), "w", encoding="utf-8") as fh:
                fh.write(content)
        files.append(os.path.join(folder, f"{name}_fbe.rb"))
    done = subprocess.run([RUBY, "-w", "-e", RUBY_CHECK, os.path.join(REPO, "ruby", "lib"),
                           *files], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr[:4000]


def test_ruby_code_loads_warning_free_and_round_trips(tmp_path):
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    schemas = {"dollar": DOLLAR, "p": HASH_KEY}
    schemas.update({f"fuzz{i}": random_schema(rnd, f"fuzz{i}") for i in range(count)})
    try:
        ruby_loads(str(tmp_path), schemas)
    except AssertionError as err:
        raise AssertionError(f"FASTWIRE_FUZZ_SEED={seed}: {err}") from err


# ---- C#: the same schemas compile with Mono's mcs (csharp/build.py builds the runtime) ----

def csharp_compiles(tmp, texts: dict) -> None:
    """Generates C# for each {name: schema text} and compiles it all with the runtime."""
    if shutil.which("mcs") is None:
        pytest.skip("no mcs (Mono)")
    import importlib.util
    spec = importlib.util.spec_from_file_location("fastwire_csharp_build",
                                                  os.path.join(REPO, "csharp", "build.py"))
    assert spec is not None and spec.loader is not None
    csharp_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(csharp_build)
    dll = csharp_build.build_runtime()
    sources = []
    for name, text in texts.items():
        folder = os.path.join(tmp, "csharp", name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{name}.fbe")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        reporter = Reporter()
        schema = compile_schema(path, reporter)
        assert schema is not None, [d.render() for d in reporter.diagnostics]
        for rel, content in GENERATORS["csharp"](schema, OPTIONS).items():
            target = os.path.join(folder, rel)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(content)
            sources.append(target)
    main = os.path.join(tmp, "csharp", "RoundTrip.cs")
    with open(main, "w", encoding="utf-8") as fh:
        fh.write(CSHARP_ROUND_TRIP)
    exe = os.path.join(tmp, "csharp", "all.exe")
    done = subprocess.run(["mcs", *csharp_build.MCS_FLAGS, "-target:exe", "-out:" + exe,
                           "-r:" + dll, "-r:System.Numerics.dll", main, *sources],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[:4000]
    shutil.copy2(dll, os.path.join(tmp, "csharp"))
    ran = subprocess.run(["mono", exe], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, (ran.stdout + ran.stderr)[:4000]


# Every struct's default value: both binary formats and JSON read back to the same bytes.
CSHARP_ROUND_TRIP = """
using System;
using System.Linq;
using System.Reflection;
using Fastwire;
static class RoundTrip {
    static int Main() {
        int n = 0;
        foreach (var t in Assembly.GetExecutingAssembly().GetTypes().Where(t => t.Name == "FbePackage"))
            foreach (StructInfo s in (StructInfo[])t.GetProperty("Structs").GetValue(null, null)) {
                object v = s.NewObject();
                foreach (bool final in new[] { false, true }) {
                    byte[] a = s.SerializeObject(v, final);
                    s.VerifyBytes(a, final, Limits.Default);
                    byte[] b = s.SerializeObject(s.DeserializeObject(a, final, Limits.Default), final);
                    if (!a.SequenceEqual(b)) throw new Exception(s.Name + (final ? " final" : " versioned"));
                }
                string j = s.ObjectToJson(v);
                string k = s.ObjectToJson(s.ObjectFromJson(System.Text.Encoding.UTF8.GetBytes(j), Limits.Default));
                if (j != k) throw new Exception(s.Name + " json");
                n++;
            }
        Console.WriteLine(n + " structs");
        return 0;
    }
}
"""


def test_csharp_fixed_cases_compile(tmp_path):
    csharp_compiles(str(tmp_path), {"dollar": DOLLAR, "p": HASH_KEY})


def test_random_valid_schemas_compile_in_csharp(tmp_path):
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    texts = {f"fuzz{i}": random_schema(rnd, f"fuzz{i}") for i in range(count)}
    try:
        csharp_compiles(str(tmp_path), texts)
    except AssertionError as err:
        raise AssertionError(f"FASTWIRE_FUZZ_SEED={seed}: {err}") from err


def test_random_valid_schemas_generate_typescript_that_compiles(tmp_path):
    """The TypeScript generator on the same random schemas: `tsc --strict` accepts the
    modules (skipped until `make test-ts` has installed ts/node_modules and built ts/dist;
    `make test-ts` runs it then)."""
    import json as _json
    import subprocess as _subprocess
    tsc = os.path.join(REPO, "ts", "node_modules", ".bin", "tsc")
    if not (os.path.exists(tsc) and os.path.exists(os.path.join(REPO, "ts", "dist", "index.d.ts"))):
        # make test-ts runs this test again after installing them, with FASTWIRE_REQUIRE_TS=1.
        if os.environ.get("FASTWIRE_REQUIRE_TS"):
            raise AssertionError("ts/node_modules or ts/dist missing")
        pytest.skip("ts/node_modules or ts/dist missing (make test-ts)")
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    folder = os.path.join(str(tmp_path), "typescript")
    for i in range(count):
        name = f"fuzz{i}"
        text = random_schema(rnd, name)
        path = os.path.join(str(tmp_path), f"{name}.fbe")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        reporter = Reporter()
        schema = compile_schema(path, reporter)
        assert schema is not None, text
        for rel, content in GENERATORS["typescript"](schema, OPTIONS).items():
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, rel), "w", encoding="utf-8") as fh:
                fh.write(content)
    link = os.path.join(folder, "node_modules", "@fastwire")
    os.makedirs(link)
    os.symlink(os.path.join(REPO, "ts"), os.path.join(link, "runtime"))
    with open(os.path.join(folder, "tsconfig.json"), "w", encoding="utf-8") as fh:
        _json.dump({"compilerOptions": {"target": "ES2022", "module": "NodeNext",
                                        "moduleResolution": "NodeNext", "strict": True,
                                        "noEmit": True, "skipLibCheck": True, "types": []},
                    "include": ["*.ts"]}, fh)
    r = _subprocess.run([tsc, "-p", folder], stdout=_subprocess.PIPE, stderr=_subprocess.STDOUT,
                        text=True)
    assert r.returncode == 0, f"FASTWIRE_FUZZ_SEED={seed}:\n{r.stdout[:4000]}"


# ---- Rust: random valid schemas build, clippy-clean ----------------------------------------

CARGO = shutil.which("cargo")


def test_random_valid_schemas_generate_rust_that_builds_clippy_clean(tmp_path):
    """Random valid schemas' Rust modules, in one crate on rust/fastwire: `cargo clippy
    -D warnings` (the fixed cases above too: `$` in docs, a struct as a hash key)."""
    if CARGO is None:
        pytest.skip("no cargo")
    from fastwire.generators import rust as rust_generator
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    texts = {"dollar": DOLLAR, "p": HASH_KEY}
    texts.update({f"fuzz{i}": random_schema(rnd, f"fuzz{i}") for i in range(count)})
    src = tmp_path / "crate" / "src"
    src.mkdir(parents=True)
    modules = []
    for name, text in texts.items():
        path = tmp_path / f"{name}.fbe"
        path.write_text(text, encoding="utf-8")
        reporter = Reporter()
        schema = compile_schema(str(path), reporter)
        assert schema is not None, [d.render() for d in reporter.diagnostics]
        for rel, content in rust_generator.generate(lower.lower(schema), OPTIONS).items():
            (src / rel).write_text(content, encoding="utf-8")
            modules.append(rel[:-3])
    (src / "lib.rs").write_text("".join(f"pub mod {m};\n" for m in sorted(set(modules))))
    (tmp_path / "crate" / "Cargo.toml").write_text(
        '[package]\nname = "fuzzschemas"\nversion = "0.0.0"\nedition = "2021"\n\n'
        f'[dependencies]\nfastwire = {{ path = "{REPO}/rust/fastwire" }}\n\n[workspace]\n')
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(REPO, "build", "rust", "target-schemas"))
    done = subprocess.run([CARGO, "clippy", "-q", "-j", os.environ.get("JOBS", "2"), "--", "-D",
                           "warnings"], cwd=tmp_path / "crate", env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, f"FASTWIRE_FUZZ_SEED={seed}: {done.stderr[:4000]}"


# ---- Java and Kotlin: random valid schemas ------------------------------------------------

def test_random_valid_schemas_generate_java_that_compiles_and_kotlin(tmp_path):
    """Random valid schemas generate Java that javac compiles against the JVM runtime
    (java/runtime, compiled here too), and Kotlin (compiled by make test-java's Maven build
    for the conformance schemas only: kotlinc is not on the PATH)."""
    import shutil
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    rnd = random.Random(seed)
    java_files = []
    for i in range(count):
        name = f"jfuzz{i}"
        text = random_schema(rnd, name)
        path = os.path.join(str(tmp_path), f"{name}.fbe")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        reporter = Reporter()
        schema = compile_schema(path, reporter)
        assert schema is not None, [d.render() for d in reporter.diagnostics] + [text]
        for lang in ("java", "kotlin"):
            for rel, content in GENERATORS[lang](schema, OPTIONS).items():
                target = os.path.join(str(tmp_path), lang, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w", encoding="utf-8") as fh:
                    fh.write(content)
                if lang == "java":
                    java_files.append(target)
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("no javac")
    runtime = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(REPO, "java", "runtime", "src"))
               for f in fs if f.endswith(".java")]
    out = os.path.join(str(tmp_path), "classes")
    done = subprocess.run([javac, "-nowarn", "-encoding", "UTF-8", "-d", out, *runtime, *java_files],
                          capture_output=True, text=True)
    assert done.returncode == 0, f"FASTWIRE_FUZZ_SEED={seed}: " + done.stderr[:4000]
