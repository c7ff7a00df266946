"""Code generators: each is a function from the IR (plus options) to a set of files.

A generator never reads schema text and never reports schema errors: by the time it
runs, the resolver has proven the schema valid. Nor does it work out the wire layout:
fastwire.lower does, once, and every generator reads that model.

`LANGUAGES` is the registry: one entry per language drives the CLI (`--lang`, the
reference's `--cpp`-style flags), the golden tests (tests/golden/<language>) and the
conformance suite's testees (conformance/testees.py). Testees that are not languages
(a C++ build variant, a reflection codec) join through `EXTRA_TESTEES`. Languages that
are not written yet are listed in `PLANNED`, so the CLI can say so in one line.
See docs/adding-a-language.md.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from .. import ir
from ..ir_json import to_json
from ..lower import WireModel, lower
from .options import Options

__all__ = ["GENERATORS", "RENDERERS", "LANGUAGES", "PLANNED", "EXTRA_TESTEES", "Generator", "Language",
           "Options", "Testee"]

# A generator renders a lowered schema into {relative path: file content}.
Generator = Callable[[WireModel, Options], Dict[str, str]]

# The schemas every conformance testee's generated code covers (relative to the repo).
# Documentation that every language's comment rules would read as code, were it not escaped.
COMMENTS_SCHEMA = "tests/schemas/comments.fbe"

CONFORMANCE_SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe",
                       "conformance/schemas/hostile.fbe"]


@dataclass(frozen=True)
class Testee:
    """A conformance testee: `run` is the command, `prepare` an optional command run
    first (generation, a build); "{python}" stands for the Python running the suite."""

    run: List[str]
    prepare: Optional[List[str]] = None


@dataclass(frozen=True)
class Language:
    name: str  # the --lang value
    display: str  # for messages: "C++"
    module: str  # fastwire.generators.<module> has generate(model, options)
    flags: Tuple[str, ...] = ()  # the reference compiler's flags that select it
    golden_schemas: Tuple[str, ...] = ("schemas/everything.fbe",)  # tests/golden/<name>
    testee: Optional[Testee] = None
    # Declarations of the schema language it does not render yet (NOT_YET): the CLI
    # refuses a schema that has one, at its declaration (`refusals`).
    not_yet: Tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # Every language's goldens also hold COMMENTS_SCHEMA: schema text its comment rules
        # would read as code, which it must print as comments (common/docs.py).
        if COMMENTS_SCHEMA not in self.golden_schemas:
            object.__setattr__(self, "golden_schemas", self.golden_schemas + (COMMENTS_SCHEMA,))

    def refusals(self, model: WireModel) -> List[Tuple[str, ir.SourceRef]]:
        """(message, where) for each declaration of the model this generator does not
        render yet; none when it renders them all."""
        out: List[Tuple[str, ir.SourceRef]] = []
        if "variant" in self.not_yet:
            for p in model.schema.packages:
                out.extend((f"variant '{v.name}': the {self.display} generator does not render "
                            f"variants yet (issue 39)", v.location) for v in p.variants)
        return out

    def render(self, model: WireModel, options: Options) -> Dict[str, str]:
        """The files for a lowered schema: what the CLI calls, lowering once (after
        `refusals`: a schema with a declaration this generator cannot render is refused)."""
        refused = self.refusals(model)
        if refused:
            raise ValueError(refused[0][0])
        gen = importlib.import_module(f"{__name__}.{self.module}").generate
        return gen(model, options)

    def generate(self, schema: ir.Schema, options: Options) -> Dict[str, str]:
        """The files for a schema (lowers it first)."""
        return self.render(lower(schema), options)


# What no generator renders yet: a language that learns one drops it from its entry.
NOT_YET = ("variant",)

LANGUAGES: Dict[str, Language] = {
    "cpp": Language(
        "cpp", "C++", "cpp", not_yet=NOT_YET, flags=("cpp", "c++"),
        testee=Testee(run=["build/conformance-cpp/fastwire-conformance-testee"],
                      prepare=["{python}", "conformance/cpp/build.py"])),
    "python": Language(
        "python", "Python", "python", not_yet=NOT_YET, flags=("python",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(
            run=["{python}", "conformance/python/testee.py", "build/conformance/python"],
            prepare=["{python}", "-m", "fastwire", "compile", *CONFORMANCE_SCHEMAS, "--lang",
                     "python", "--final", "--json", "--proto", "-q", "-o",
                     "build/conformance/python"])),
    "go": Language(
        "go", "Go", "go", not_yet=NOT_YET, flags=("go",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(run=["build/conformance/go/testee"],
                      prepare=["{python}", "conformance/go/build.py"])),
    "ruby": Language(
        "ruby", "Ruby", "ruby", not_yet=NOT_YET, flags=("ruby",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(
            run=["ruby", "conformance/ruby/testee.rb", "build/conformance/ruby"],
            prepare=["{python}", "-m", "fastwire", "compile", *CONFORMANCE_SCHEMAS, "--lang",
                     "ruby", "--final", "--json", "--proto", "-q", "-o",
                     "build/conformance/ruby"])),
    "csharp": Language(
        "csharp", "C#", "csharp", not_yet=NOT_YET, flags=("csharp",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(run=["build/conformance/csharp/testee"],
                      prepare=["{python}", "conformance/csharp/build.py"])),
    "typescript": Language(
        "typescript", "TypeScript", "typescript", not_yet=NOT_YET, flags=("typescript",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(run=["build/conformance/typescript/testee"],
                      prepare=["{python}", "conformance/typescript/build.py"])),
    "javascript": Language(
        "javascript", "JavaScript", "javascript", not_yet=NOT_YET, flags=("javascript",),
        golden_schemas=("schemas/proto.fbe",)),
    "rust": Language(
        "rust", "Rust", "rust", not_yet=NOT_YET, flags=("rust",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(run=["build/rust/target/debug/fastwire-testee"],
                      prepare=["{python}", "conformance/rust/build.py"])),
    "java": Language(
        "java", "Java", "java", not_yet=NOT_YET, flags=("java",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(
            run=["java", "-XX:TieredStopAtLevel=1", "-Xss16m", "-cp",
                 "build/java/tests-java/classes:build/java/fastwire-runtime/classes",
                 "dev.fastwire.conformance.Testee", "build/conformance/java/packages.txt"],
            prepare=["{python}", "conformance/java/prepare.py", "java"])),
    "kotlin": Language(
        "kotlin", "Kotlin", "kotlin", not_yet=NOT_YET, flags=("kotlin",),
        golden_schemas=("schemas/protocol.fbe", "schemas/everything.fbe"),
        testee=Testee(
            run=["java", "-XX:TieredStopAtLevel=1", "-Xss16m", "-cp",
                 "build/java/tests-kotlin/classes:build/java/fastwire-runtime/classes:"
                 "build/java/kotlin-stdlib.jar",
                 "dev.fastwire.conformance.Testee", "build/conformance/kotlin/packages.txt"],
            prepare=["{python}", "conformance/java/prepare.py", "kotlin"])),
}

# Conformance testees that are not a language of their own: a C++ build variant, the dynamic codec
# (fastwire_runtime.dynamic), driven by the schemas' IR JSON, without generated code.
EXTRA_TESTEES: Dict[str, Testee] = {
    # The C++ testee over the allocator-aware types of `--pmr` (built with the "cpp" one).
    "cpp-pmr": Testee(run=["build/conformance-cpp/fastwire-conformance-testee-pmr"],
                      prepare=["{python}", "conformance/cpp/build.py"]),
    "dynamic": Testee(
        run=["{python}", "conformance/dynamic/dynamic_testee.py", "build/conformance/dynamic"],
        prepare=["{python}", "-m", "fastwire", "compile", *CONFORMANCE_SCHEMAS, "--emit",
                 "ir-json", "-q", "-o", "build/conformance/dynamic"]),
}


def _ir_json(model: WireModel, options: Options) -> Dict[str, str]:
    return {f"{model.schema.root}.ir.json": to_json(model.schema, model)}


# Every artifact the CLI can write, --emit targets and --lang languages, from a lowered
# schema (the CLI lowers each schema once) ...
RENDERERS: Dict[str, Generator] = {"ir-json": _ir_json}
RENDERERS.update({name: lang.render for name, lang in LANGUAGES.items()})
# ... and the same from a schema.
def _from_schema(render: Generator) -> Callable[[ir.Schema, Options], Dict[str, str]]:
    def generate(schema: ir.Schema, options: Options) -> Dict[str, str]:
        return render(lower(schema), options)
    return generate


GENERATORS = {name: _from_schema(render) for name, render in RENDERERS.items()}

# Languages the reference compiler's flags name, and the ones fastwire plans on top.
PLANNED: Dict[str, str] = {
    "swift": "Swift"
}
PLANNED.update({name: lang.display for name, lang in LANGUAGES.items()})

# The reference compiler's language flags and the language each one selects.
REFERENCE_FLAGS: Dict[str, str] = {"csharp": "csharp", "go": "go", "java": "java",
                                   "kotlin": "kotlin",
                                   "ruby": "ruby", "swift": "swift"}
for _lang in LANGUAGES.values():
    REFERENCE_FLAGS.update({flag: _lang.name for flag in _lang.flags})
REFERENCE_FLAGS = dict(sorted(REFERENCE_FLAGS.items()))

