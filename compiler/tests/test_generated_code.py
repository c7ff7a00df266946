"""Generated code builds in every language for every valid schema.

Fixed cases (a `$` in documentation, a struct used as a hash key in its own package, an
import), one schema of every constructor over every element type, and random valid
schemas: FASTWIRE_FUZZ_SCHEMAS of them (default 20; `make soak` and `make fuzz` ask for
more), seeded by FASTWIRE_FUZZ_SEED (default: a new seed, printed on failure). Each
language's toolchain compiles or loads the whole set once ("random valid schemas" below).
"""

from __future__ import annotations

import importlib
import os
import random
import shutil
import subprocess
import sys
from typing import List, Optional

import pytest

from fastwire import Reporter, compile_schema
from fastwire.generators import GENERATORS, LANGUAGES, Options

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


# ---- random valid schemas, in every language ----------------------------------------------
#
# One set of schemas per run: the fixed cases above, an importer of `p`, the two `every`
# packages (every constructor over every element type, defaults of every kind, inheritance
# and types across packages) and FASTWIRE_FUZZ_SCHEMAS random ones (default 20; make soak
# and make fuzz ask for more), seeded by FASTWIRE_FUZZ_SEED (default: a new seed; every
# failure names it). Each language's code for the whole set goes through its toolchain once:
# g++ -fsyntax-only, Python import, go vet + gofmt, cargo clippy, tsc --strict (TypeScript
# and the JavaScript flavor's .d.ts) and node (importing the .js), javac, kotlinc (the Kotlin
# Maven plugin), mcs, ruby -w. A missing toolchain skips its language with the reason, and
# fails under CI=true.

PRIMS = ["bool", "byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
         "uint32", "int64", "uint64", "float", "double", "decimal", "string", "bytes",
         "timestamp", "uuid"]
KEYABLE = [p for p in PRIMS if p != "bytes"]
NAMES = ["id", "value", "class", "from", "default", "name", "self", "type", "new", "list",
         "x", "count", "delete", "None", "data", "items", "object", "String", "fun", "val",
         "nil", "end", "var", "func", "map", "int", "package", "import", "impl", "this"]
DEFAULTS = {"bool": ["true", "false"], "byte": ["0xFF", "0"], "char": ["'c'", "65"],
            "wchar": ["'w'", "0x263A"], "int8": ["-128", "5", "min", "max"],
            "uint8": ["max", "200"], "int16": ["-32768", "min"], "uint16": ["max", "0xFFFF"],
            "int32": ["-2147483648", "7", "max"], "uint32": ["4294967295", "min"],
            "int64": ["min", "-9223372036854775808", "max"],
            "uint64": ["18446744073709551615", "max"],
            "double": ["1.5", "-0.0", "1e300"], "float": ["2.5", "-1e10"],
            "string": ['"a$b$c"', '"\\n"', '"q\\"uote\\\\ \\t"', '""'],
            "decimal": ["123.45", "-0.5", "79228162514264337593543950335",
                        "0.0000000000000000000000000001"],
            "timestamp": ["epoch", "utc", "1500000000000000000"],
            "uuid": ["uuid0", "uuid1", "uuid4", '"123e4567-e89b-12d3-a456-426614174000"']}
# A field's type: an element type in each constructor (T~ and T! where they apply).
ELEMENT_FORMS = ["?", "[N]", "?[N]", "[]", "?[]", "()", "?()"]


class Declared:
    """What a random package declares, for the packages that import it."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.enums: List[tuple] = []  # (qualified name, "enum" | "flags", value names)
        self.structs: List[tuple] = []  # (qualified name, keyed, field names)


def random_default(rnd: random.Random, t: str, enums: List[tuple]) -> str:
    for name, kind, values in enums:
        if name == t:
            if kind == "flags" and len(values) > 1:
                return " = " + " | ".join(f"{name}.{v}" for v in rnd.sample(values, 2))
            return f" = {name}.{rnd.choice(values)}"
    return " = " + rnd.choice(DEFAULTS[t]) if t in DEFAULTS else ""


def random_schema(rnd: random.Random, package: str, earlier: List[Declared] = ()) -> tuple:
    """A random valid schema: (its text, what it declares). It may import some of the
    `earlier` packages and use their enums, flags and structs (as fields, elements, keys,
    defaults and bases)."""
    declared = Declared(package)
    imported = rnd.sample(list(earlier), min(len(earlier), rnd.randint(0, 2)))
    lines = [f"// fuzz {package} $doc$", f"package {package}"]
    lines += [f"import {d.package}" for d in imported] + [""]
    enums: List[tuple] = [e for d in imported for e in d.enums]
    for i in range(rnd.randint(0, 2)):
        base = rnd.choice(["", " : byte", " : int16", " : uint32", " : int64", " : uint8"])
        kind = rnd.choice(["enum", "flags"])
        values = [f"v{j}" for j in range(rnd.randint(1, 4))]
        body = "; ".join(f"{v} = {1 << j}" for j, v in enumerate(values))
        lines.append(f"{kind} E{i}{base} {{ {body}; }}")
        enums.append((f"E{i}", kind, values))
        declared.enums.append((f"{package}.E{i}", kind, values))
    enum_names = [e[0] for e in enums]
    structs: List[tuple] = [s for d in imported for s in d.structs]
    for i in range(rnd.randint(1, 5)):
        kind = "message" if rnd.random() < 0.25 else "struct"
        base = rnd.choice(structs) if structs and rnd.random() < 0.25 else None
        fields: List[str] = []
        taken = set(base[2]) if base else set()
        keyed = bool(base and base[1])
        for _ in range(rnd.randint(0, 7)):
            name = rnd.choice(NAMES)
            if name in taken:
                continue
            keyed_structs = [s[0] for s in structs if s[1]]
            choice = rnd.random()
            key = default = ""
            if choice < 0.3:
                t = rnd.choice(PRIMS + enum_names)
                if t in KEYABLE + enum_names and rnd.random() < 0.3:
                    key = "[key] "
                    keyed = True
                elif rnd.random() < 0.6:
                    default = random_default(rnd, t, enums)
            elif choice < 0.4:
                t = rnd.choice(PRIMS + enum_names)
                if rnd.random() < 0.5:
                    default = " = null" if rnd.random() < 0.3 else random_default(rnd, t, enums)
                t += rnd.choice(["?", "~"])
            elif choice < 0.5 and structs:
                t = rnd.choice(structs)[0] + rnd.choice([""] + ELEMENT_FORMS)
            elif choice < 0.65:
                t = rnd.choice(PRIMS + enum_names) + rnd.choice(ELEMENT_FORMS)
            elif choice < 0.72:
                t = rnd.choice(KEYABLE + enum_names + keyed_structs) + "!"
            else:
                k = rnd.choice(KEYABLE + enum_names + keyed_structs)
                v = rnd.choice(PRIMS + enum_names + [s[0] for s in structs])
                t = f"{v}{rnd.choice(['', '?'])}" + rnd.choice([f"<{k}>", f"{{{k}}}"])
            t = t.replace("[N]", f"[{rnd.randint(1, 3)}]")
            if "~" in t:
                if name + "Reset" in taken:
                    continue
                taken.add(name + "Reset")
            taken.add(name)
            doc = "    // $field$ doc\n" if rnd.random() < 0.2 else ""
            fields.append(f"{doc}    {key}{t} {name}{default};")
        name = f"S{i}"
        head = f"{kind} {name}" + (f" : {base[0]}" if base else "")
        lines.append(f"/// $struct$ {name}\n{head}\n{{\n" + "\n".join(fields) + "\n}")
        structs.append((name, keyed, sorted(taken)))
        declared.structs.append((f"{package}.{name}", keyed, sorted(taken)))
    return "\n".join(lines) + "\n", declared


# Collection forms an alternative may take (not a bare optional: `V?` makes the field optional).
ALT_FORMS = ["[N]", "?[N]", "[]", "?[]", "()", "?()"]


def random_variants(rnd: random.Random, declared: Declared) -> str:
    """A package of random variants over what a random package declares (its enums, flags
    and structs, qualified), earlier variants of its own and `everyvariant`'s, with structs
    and a message that hold them in every way a field can: plain, optional, in collections."""
    package = declared.package.replace("fuzz", "fuzzv", 1)
    enums = [e[0] for e in declared.enums]
    structs = [s[0] for s in declared.structs]
    keys = KEYABLE + enums + [s[0] for s in declared.structs if s[1]]
    imported = rnd.random() < 0.3
    lines = [f"package {package}", f"import {declared.package}"]
    lines += ["import everyvariant"] if imported else []
    variants: List[str] = ["everyvariant.Forms"] if imported else []
    for j in range(rnd.randint(1, 3)):
        name = f"W{j}"
        alts: List[str] = []
        for _ in range(rnd.randint(1, 6)):
            choice = rnd.random()
            if choice < 0.35 or not (structs or variants):
                t = rnd.choice(PRIMS + enums)
            elif choice < 0.5 and structs:
                t = rnd.choice(structs)
            elif choice < 0.65:
                t = rnd.choice(PRIMS + enums + structs + variants) + rnd.choice(ALT_FORMS)
            elif choice < 0.72:
                t = rnd.choice(keys) + "!"
            elif choice < 0.82:
                v = rnd.choice(PRIMS + enums + structs + variants)
                t = f"{v}{rnd.choice(['', '?'])}" + rnd.choice(["<", "{"]) + rnd.choice(keys)
                t += ">" if "<" in t else "}"
            elif choice < 0.9 and variants:
                t = rnd.choice(variants)
            else:
                t = name + rnd.choice(["[]", "()"])  # itself, through a vector or a list
            t = t.replace("[N]", f"[{rnd.randint(1, 3)}]")
            if t not in alts:
                alts.append(t)
        lines.append(f"variant {name} {{ {'; '.join(alts)}; }}")
        variants.append(name)
    local = [v for v in variants if "." not in v]
    for j in range(rnd.randint(1, 2)):
        fields = [f"    {rnd.choice(variants)}{form.replace('[N]', '[2]')} f{k};"
                  for k, form in enumerate(["", "?", "[N]", "[]", "?()", "<int32>", "{string}"])
                  if rnd.random() < 0.6]
        if structs and rnd.random() < 0.5:
            fields.append(f"    {rnd.choice(structs)} s;")
        lines.append(f"struct U{j}\n{{\n" + "\n".join(fields) + "\n}")
    lines.append(f"message M {{ {rnd.choice(local)} w; }}")
    return "\n".join(lines) + "\n"


# Every kind of alternative, variants in every kind of field and across packages
EVERY_VARIANT = """\
package everyvariant
import everybase
variant Prims { bool; byte; char; wchar; int8; uint8; int16; uint16; int32; uint32; int64; uint64;
                float; double; decimal; string; bytes; timestamp; uuid; everybase.Side;
                everybase.Perm; everybase.Key; everybase.Point; }
variant Forms { int32[2]; int32?[2]; int32[]; string?[]; int32(); bytes?(); int64!; everybase.Key!;
                string<int32>; double?<everybase.Side>; everybase.Point{string}; bytes{int64};
                Prims; Prims[]; Prims{everybase.Key}; everybase.Point[]; }
variant Tree { int32; Tree[]; Tree(); }
struct Holder : everybase.Key
{
    Prims p; Prims? po; Prims[2] pa; Prims?[2] poa; Prims[] pv; Prims?[] pov; Prims() pl;
    Prims<int32> pm; Prims?{string} ph; Forms f; Tree t; Tree[] tv;
}
message HolderMessage { Holder h; Forms? f; }
"""

EVERY_BASE = """\
package everybase
enum Side : byte { buy = 1; sell = 2; }
flags Perm : uint16 { none = 0; read = 1; write = 2; rw = read | write; }
struct Key { [key] string code = "k"; int32 n; }
struct Point { double x; double y = -1.5; }
"""

EVERY_DEFAULTS = """\
struct Defaults
{
    bool t = true; bool f = false; byte b = 0xFF; char c = 'c'; char cn = 65;
    wchar w = 'w'; wchar wn = 0x263A; int8 i8min = min; int8 i8max = max; uint8 u8 = 200;
    int16 i16 = -32768; uint16 u16 = max; int32 i32 = -2147483648; uint32 u32 = 4294967295;
    int64 i64 = -9223372036854775808; int64 i64max = max; uint64 u64 = 18446744073709551615;
    float fl = 2.5; float fneg = -1e10; double d = -0.0; double dbig = 1.5e300;
    decimal dec = 123.45; decimal dtiny = -0.0000000000000000000000000001;
    decimal dmax = 79228162514264337593543950335; string s = "a$b\\"c\\\\\\n\\t"; string e = "";
    timestamp te = epoch; timestamp tu = utc; timestamp tn = 1500000000000000000;
    uuid u0 = uuid0; uuid u1 = uuid1; uuid u4 = uuid4; uuid ul = "123e4567-e89b-12d3-a456-426614174000";
    Color col = Color.green; everybase.Side side = everybase.Side.sell;
    Bits bits = Bits.a | Bits.b; everybase.Perm perm = everybase.Perm.rw; Bits none;
    int32? on = null; int32? ov = 5; string? os = "x"; Color? oc = Color.blue;
    decimal? od = 1.5; uuid? ou = uuid4; timestamp? ot = utc; everybase.Side? osd = null;
    everybase.Perm? op = everybase.Perm.read | everybase.Perm.write; bool? ob = false;
    double? odv = -2.25; int32~ rv = 3; string~ rs = "r"; uint64~ ru = null;
}
"""


def every_schema() -> str:
    """Every constructor over every element type (each primitive, a local and an imported
    enum and flags, local and imported structs with and without keys), one struct per
    element type; a struct deriving from an imported one; defaults of every kind."""
    lines = ["// every constructor, every element type", "package every", "import everybase", "",
             "enum Color { red; green = 5; blue; }", "flags Bits : uint64 { a = 1; b = 2; }",
             "struct LKey { [key] uuid id; [key] int64 n; }", "struct Item { string name; }"]
    keyed = ["LKey", "everybase.Key", "Color", "Bits", "everybase.Side", "everybase.Perm"]
    plain = ["Item", "everybase.Point"]
    for t in PRIMS + keyed + plain:
        forms = [""] + ELEMENT_FORMS + ["<int32>", "?<string>", "{string}", "?{int64}"]
        if t not in ("LKey", "everybase.Key") + tuple(plain):
            forms.append("~")
        if t in KEYABLE + keyed:
            forms += ["!", f"int32<{t}>", f"string?{{{t}}}"]
        fields = []
        for i, form in enumerate(forms):
            typ = form if form.startswith(("int32<", "string?{")) else t + form
            fields.append(f"    {typ.replace('[N]', '[2]')} f{i};")
        name = "All" + "".join(part.capitalize() for part in t.split("."))
        lines.append(f"struct {name}\n{{\n" + "\n".join(fields) + "\n}")
    lines.append("struct Derived : everybase.Key { AllInt32 all; everybase.Point p; }")
    lines.append("message DerivedMessage { Derived body; }")
    return "\n".join(lines) + "\n" + EVERY_DEFAULTS


def schema_texts(count: int, seed: int) -> dict:
    """{package: schema text}, every package after the packages it imports."""
    rnd = random.Random(seed)
    texts = {"dollar": DOLLAR, "p": HASH_KEY,
             # imports `p`, whose name is also a local variable of generated code
             "importer": "package importer\nimport p\nstruct U { int32{p.K} m; p.K k; p.K? o; "
                         "p.K[] v; }\nmessage M { p.K k; }\n",
             "everybase": EVERY_BASE, "every": every_schema(), "everyvariant": EVERY_VARIANT,
             # regressions: one package per bug a language's toolchain found
             "jagged": "package jagged\nstruct J { bytes?[2] b; bytes?[1] c; string?[2] s; }\n",
             # fields named as the locals and parameters of generated methods
             "locals": "package locals\nstruct L { [key] int32 o; [key] string c; int32 h; "
                       "int32 other; int32 obj; int32 p; int32 b; int32 w; int32 r; int32 d; "
                       "int32 i; int32 n; int32 v; int32 x; int32 at; int32 end; }\n",
             # a base in another package whose fields are of a third package's types
             "third": "package third\nenum T { a; }\nstruct K { [key] int32 id; }\n",
             "middle": "package middle\nimport third\nstruct B { third.T t = third.T.a; "
                       "third.K k; int32{third.K} h; }\n",
             "derived": "package derived\nimport middle\nstruct D : middle.B { int32 x; }\n"
                        "message M : middle.B { }\n",
             # fields named as generated methods
             "methods": "package methods\nstruct F { int32 String; int32 MarshalJSON; "
                        "int32 fwPrint; int32 toString; int32 hashCode; int32 equals; "
                        "int32 GetHashCode; int32 clone; int32 copy; int32 hash; int32 to_s; "
                        "int32 inspect; int32 eql; int32 component1; }\n",
             # defaults that equal the type's zero value, alone in a struct and together
             "zeros": "package zeros\nstruct Z1 { bool f = false; }\nstruct Z2 { uint8 u = min; "
                      "int64 i = 0; char c = 0; wchar w = 0; int32? o = null; }\n"
                      "struct Z3 { bool f = false; double d = 0.0; string s = \"\"; }\n"}
    earlier: List[Declared] = []
    for i in range(count):
        text, declared = random_schema(rnd, f"fuzz{i}", earlier)
        texts[declared.package] = text
        texts[f"fuzzv{i}"] = random_variants(random.Random(f"{seed}/{i}"), declared)
        earlier.append(declared)
    return texts


class SchemaSet:
    def __init__(self, folder: str, count: int, seed: int,
                 texts: Optional[dict] = None) -> None:
        """The fixed and random schemas, or the schemas `texts` ({name: text}) alone."""
        self.folder, self.count, self.seed = folder, count, seed
        self.texts = schema_texts(count, seed) if texts is None else texts
        self.schemas = {}
        for name, text in self.texts.items():
            path = os.path.join(folder, f"{name}.fbe")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
        for name, text in self.texts.items():
            reporter = Reporter()
            schema = compile_schema(os.path.join(folder, f"{name}.fbe"), reporter)
            assert schema is not None, self.tell(
                "\n".join(d.render() for d in reporter.diagnostics) + "\n" + text)
            self.schemas[name] = schema

    def tell(self, what: str) -> str:
        return (f"FASTWIRE_FUZZ_SEED={self.seed} FASTWIRE_FUZZ_SCHEMAS={self.count} "
                f"(schemas in {self.folder}):\n{what[:6000]}")

    def emit(self, lang: str, options: Options = OPTIONS, folder: str = "",
             random_schemas: Optional[int] = None) -> dict:
        """Writes `lang`'s code for every schema (or for the fixed ones and the first
        `random_schemas` random ones) under folder (default: <set>/<lang>); returns
        {relative path: absolute path}. A package that several schemas import must come
        out the same each time."""
        out = os.path.join(self.folder, folder or lang)
        contents: dict = {}
        names = self.names(lang)
        for name, schema in self.schemas.items():
            number = name[5:] if name.startswith("fuzzv") else name[4:]
            if name not in names or random_schemas is not None and name.startswith("fuzz") \
                    and int(number) >= random_schemas:
                continue
            for rel, content in GENERATORS[lang](schema, options).items():
                assert contents.setdefault(rel, content) == content, self.tell(
                    f"{lang}: {rel} differs between two schemas that import it")
        for rel, content in contents.items():
            target = os.path.join(out, rel)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as fh:
                fh.write(content)
        return {rel: os.path.join(out, rel) for rel in contents}

    def names(self, lang: str) -> List[str]:
        """The packages `lang` renders, in order: all but those that declare or import
        variants, for a language that does not render variants yet."""
        refuses = "variant" in LANGUAGES[lang].not_yet
        return [name for name, schema in self.schemas.items()
                if not (refuses and any(p.variants for p in schema.packages))]

    def run(self, lang: str, cmd: List[str], **kwargs) -> subprocess.CompletedProcess:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              **kwargs)
        assert done.returncode == 0, self.tell(f"{lang}: {' '.join(cmd[:3])} ...:\n{done.stdout}")
        return done


@pytest.fixture(scope="module")
def schema_set(tmp_path_factory) -> SchemaSet:
    count = int(os.environ.get("FASTWIRE_FUZZ_SCHEMAS", "20"))
    seed = int(os.environ.get("FASTWIRE_FUZZ_SEED", str(random.randrange(1 << 30))))
    return SchemaSet(str(tmp_path_factory.mktemp("schemas")), count, seed)


# kotlinc takes about 5 s of CPU per random schema and 2 minutes for the rest of the set
# (javac: under a second per schema): with no FASTWIRE_FUZZ_SCHEMAS given (make test),
# Kotlin compiles the fixed cases, the every schema and the first KOTLIN_TEST_SCHEMAS
# random ones; make soak and make fuzz compile all of them.
KOTLIN_TEST_SCHEMAS = 5


GO = shutil.which("go") or ("/usr/local/go/bin/go" if os.path.exists("/usr/local/go/bin/go")
                            else None)


def need(tool, what: str, group: str) -> str:
    """The tool's path; a missing one skips the language, or fails it under CI=true."""
    if tool:
        return tool
    message = f"{what} not found (scripts/bootstrap {group} installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail("CI=true and " + message)
    pytest.skip(message)


def test_every_schema_uses_every_constructor_over_every_element_type():
    text = every_schema()
    for t in PRIMS + ["Color", "Bits", "everybase.Side", "everybase.Perm", "Item", "LKey",
                      "everybase.Point", "everybase.Key"]:
        for form in [""] + ELEMENT_FORMS + ["<int32>", "?{int64}"]:
            assert f"    {t}{form.replace('[N]', '[2]')} f" in text, (t, form)
        if t in KEYABLE + ["Color", "Bits", "everybase.Side", "everybase.Perm", "LKey",
                           "everybase.Key"]:
            assert f"    {t}! f" in text and f"int32<{t}> f" in text, t
    assert "    bytes?[2] f" in text and "struct Derived : everybase.Key" in text


def test_random_schemas_cpp(schema_set):
    cxx = need(CXX, "g++ (or clang++)", "build")
    schema_set.emit("cpp")
    names = schema_set.names("cpp")
    for start in range(0, len(names), 50):  # one compiler run per 50 schemas
        src = os.path.join(schema_set.folder, "cpp", f"all{start}.cpp")
        with open(src, "w") as fh:
            for p in names[start:start + 50]:
                for suffix in ("", "_models", "_json", "_protocol", "_final_protocol"):
                    fh.write(f'#include "{p}{suffix}.h"\n')
            fh.write("int main() { return 0; }\n")
        schema_set.run("C++", [cxx, "-std=c++17", "-fsyntax-only", "-Wall", "-Werror",
                               "-I", os.path.join(REPO, "cpp", "include"), src])


def test_random_schemas_python(schema_set):
    schema_set.emit("python")
    try:
        python_imports(schema_set.folder, schema_set.names("python"))
    except Exception as err:
        raise AssertionError(schema_set.tell(f"Python: {err!r}")) from err


def test_random_schemas_go(schema_set):
    """The Go code builds (go vet), gofmt-clean, in one module."""
    go = need(GO, "go", "go")
    folder = os.path.join(schema_set.folder, "go")
    schema_set.emit("go", Options(final=True, json=True, proto=True, go_import="fuzz.test/gen"),
                    os.path.join("go", "gen"))
    with open(os.path.join(folder, "go.mod"), "w") as fh:
        fh.write("module fuzz.test\n\ngo 1.22\n\nrequire github.com/fastwire-fbe/fastwire/go v0.0.0\n\n"
                 f"replace github.com/fastwire-fbe/fastwire/go => {os.path.join(REPO, 'go')}\n")
    env = dict(os.environ, GOTOOLCHAIN="local", GOFLAGS="-mod=mod", GOMAXPROCS="2")
    schema_set.run("Go", [go, "vet", "./..."], cwd=folder, env=env)
    gofmt = os.path.join(os.path.dirname(go), "gofmt")
    done = schema_set.run("Go", [gofmt, "-l", "gen"], cwd=folder)
    assert not done.stdout.strip(), schema_set.tell("Go: not gofmt-clean: " + done.stdout)


def test_random_schemas_rust(schema_set):
    """The Rust modules, in one crate on rust/fastwire: cargo clippy -D warnings."""
    cargo = need(shutil.which("cargo"), "cargo", "rust")
    crate = os.path.join(schema_set.folder, "rust")
    files = schema_set.emit("rust", folder=os.path.join("rust", "src"))
    with open(os.path.join(crate, "src", "lib.rs"), "w") as fh:
        fh.write("".join(f"pub mod {rel[:-3]};\n" for rel in sorted(files)))
    with open(os.path.join(crate, "Cargo.toml"), "w") as fh:
        fh.write('[package]\nname = "fuzzschemas"\nversion = "0.0.0"\nedition = "2021"\n\n'
                 f'[dependencies]\nfastwire = {{ path = "{REPO}/rust/fastwire" }}\n\n[workspace]\n')
    env = dict(os.environ, CARGO_TARGET_DIR=os.path.join(REPO, "build", "rust", "target-schemas"))
    schema_set.run("Rust", [cargo, "clippy", "-q", "-j", os.environ.get("JOBS", "2"), "--", "-D",
                            "warnings"], cwd=crate, env=env)


def ts_runtime() -> str:
    """tsc, with ts/node_modules installed and the runtime built (ts/dist), as
    conformance/typescript/build.py and make ts-build do."""
    node = need(shutil.which("node"), "node", "ts")
    need(shutil.which("npm"), "npm", "ts")
    ts = os.path.join(REPO, "ts")
    tsc = os.path.join(ts, "node_modules", ".bin", "tsc")
    if not os.path.exists(os.path.join(ts, "node_modules", "typescript")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ts,
                       check=True, capture_output=True)
    dist = os.path.join(ts, "dist", "index.d.ts")
    newest = max(os.path.getmtime(os.path.join(d, f))
                 for d, _, fs in os.walk(os.path.join(ts, "src")) for f in fs)
    if not os.path.exists(dist) or os.path.getmtime(dist) < newest:
        done = subprocess.run([tsc, "-p", "tsconfig.json"], cwd=ts, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-4000:]
    return node


def test_random_schemas_typescript_and_javascript(schema_set):
    """tsc --strict over the TypeScript modules and the JavaScript flavor's .d.ts files;
    node imports every .js module."""
    node = ts_runtime()
    folder = os.path.join(schema_set.folder, "ts")
    schema_set.emit("typescript", folder=os.path.join("ts", "typescript"))
    js = schema_set.emit("javascript", folder=os.path.join("ts", "javascript"))
    link = os.path.join(folder, "node_modules", "@fastwire")
    os.makedirs(link)
    os.symlink(os.path.join(REPO, "ts"), os.path.join(link, "runtime"))
    with open(os.path.join(folder, "package.json"), "w") as fh:
        fh.write('{"type": "module", "private": true}\n')
    import json as _json
    # skipLibCheck off: the JavaScript flavor's .d.ts files are what is checked.
    with open(os.path.join(folder, "tsconfig.json"), "w", encoding="utf-8") as fh:
        _json.dump({"compilerOptions": {"target": "ES2022", "module": "NodeNext",
                                        "moduleResolution": "NodeNext", "strict": True,
                                        "noEmit": True, "skipLibCheck": False, "types": []},
                    "include": ["typescript/*.ts", "javascript/*.d.ts"]}, fh)
    schema_set.run("TypeScript", [os.path.join(REPO, "ts", "node_modules", ".bin", "tsc"), "-p",
                                  folder])
    loader = os.path.join(folder, "load.mjs")
    with open(loader, "w") as fh:
        fh.write('import { pathToFileURL } from "node:url";\n'
                 "for (const f of process.argv.slice(2)) await import(pathToFileURL(f).href);\n")
    schema_set.run("JavaScript", [node, loader, *sorted(p for r, p in js.items()
                                                        if r.endswith(".js"))])


def test_random_schemas_java(schema_set):
    """The Java code compiles with javac, together with the JVM runtime's sources."""
    javac = need(shutil.which("javac"), "javac", "java")
    files = schema_set.emit("java")
    runtime = [os.path.join(d, f) for d, _, fs in os.walk(os.path.join(REPO, "java", "runtime", "src"))
               for f in fs if f.endswith(".java")]
    argfile = os.path.join(schema_set.folder, "java-sources.txt")
    with open(argfile, "w") as fh:
        fh.write("\n".join([*runtime, *files.values()]) + "\n")
    schema_set.run("Java", [javac, "-nowarn", "-encoding", "UTF-8", "-d",
                            os.path.join(schema_set.folder, "java-classes"), "@" + argfile])


KOTLIN_POM = """\
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.fastwire</groupId>
  <artifactId>fuzz-kotlin</artifactId>
  <version>0.1.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <kotlin.compiler.jvmTarget>17</kotlin.compiler.jvmTarget>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-stdlib</artifactId>
      <version>{kotlin}</version>
    </dependency>
  </dependencies>
  <build>
    <directory>{out}</directory>
    <plugins>
      <plugin>
        <groupId>org.jetbrains.kotlin</groupId>
        <artifactId>kotlin-maven-plugin</artifactId>
        <version>{kotlin}</version>
        <executions>
          <execution>
            <id>compile</id>
            <phase>compile</phase>
            <goals><goal>compile</goal></goals>
            <configuration>
              <sourceDirs>
                <sourceDir>{src}</sourceDir>
                <sourceDir>{repo}/java/runtime/src/main/java</sourceDir>
              </sourceDirs>
            </configuration>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <artifactId>maven-resources-plugin</artifactId>
        <version>{resources}</version>
      </plugin>
      <plugin>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>{compiler}</version>
        <executions>
          <execution><id>default-compile</id><phase>none</phase></execution>
          <execution><id>default-testCompile</id><phase>none</phase></execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
"""


def jvm_versions() -> dict:
    """The Kotlin and Maven plugin versions java/pom.xml pins."""
    import re
    with open(os.path.join(REPO, "java", "pom.xml"), encoding="utf-8") as fh:
        pom = fh.read()

    def plugin(name: str) -> str:
        found = re.search(f"<artifactId>{name}</artifactId><version>([^<]+)</version>", pom)
        assert found, name
        return found.group(1)
    kotlin = re.search("<kotlin.version>([^<]+)</kotlin.version>", pom)
    assert kotlin
    return {"kotlin": kotlin.group(1), "resources": plugin("maven-resources-plugin"),
            "compiler": plugin("maven-compiler-plugin")}


def test_random_schemas_kotlin(schema_set):
    """The Kotlin code compiles with the Kotlin Maven plugin at java/pom.xml's versions
    (java/mvn.sh: offline once ~/.m2 has them), against the JVM runtime's Java sources."""
    need(shutil.which("mvn"), "mvn", "java")
    need(shutil.which("java"), "java", "java")
    schema_set.emit("kotlin", random_schemas=None if "FASTWIRE_FUZZ_SCHEMAS" in os.environ
                    else KOTLIN_TEST_SCHEMAS)
    pom = os.path.join(schema_set.folder, "kotlin-pom.xml")
    with open(pom, "w") as fh:
        fh.write(KOTLIN_POM.format(repo=REPO, src=os.path.join(schema_set.folder, "kotlin"),
                                   out=os.path.join(schema_set.folder, "kotlin-target"),
                                   **jvm_versions()))
    schema_set.run("Kotlin", [os.path.join(REPO, "java", "mvn.sh"), "-f", pom, "compile"])


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


def test_random_schemas_csharp(schema_set):
    """The C# code compiles with Mono's mcs against the runtime (csharp/build.py builds
    it), and every struct's default value round-trips."""
    mcs = need(shutil.which("mcs"), "mcs (Mono)", "csharp")
    mono = need(shutil.which("mono"), "mono", "csharp")
    import importlib.util
    spec = importlib.util.spec_from_file_location("fastwire_csharp_build",
                                                  os.path.join(REPO, "csharp", "build.py"))
    assert spec is not None and spec.loader is not None
    csharp_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(csharp_build)
    dll = csharp_build.build_runtime()
    folder = os.path.join(schema_set.folder, "csharp")
    sources = list(schema_set.emit("csharp").values())
    main = os.path.join(folder, "RoundTrip.cs")
    with open(main, "w", encoding="utf-8") as fh:
        fh.write(CSHARP_ROUND_TRIP)
    exe = os.path.join(folder, "all.exe")
    schema_set.run("C#", [mcs, *csharp_build.MCS_FLAGS, "-target:exe", "-out:" + exe, "-r:" + dll,
                          "-r:System.Numerics.dll", main, *sources])
    shutil.copy2(dll, folder)
    schema_set.run("C#", [mono, exe], timeout=300)


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


def test_random_schemas_ruby(schema_set):
    """The Ruby code loads warning-free under ruby -w, and every struct's default value
    round-trips."""
    ruby = need(shutil.which("ruby"), "ruby", "ruby")
    files = schema_set.emit("ruby")
    order = [files[f"{name}_fbe.rb"] for name in schema_set.names("ruby")]
    done = schema_set.run("Ruby", [ruby, "-w", "-e", RUBY_CHECK, os.path.join(REPO, "ruby", "lib"),
                                   *order])
    assert not done.stdout, schema_set.tell("Ruby: warnings:\n" + done.stdout)


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

