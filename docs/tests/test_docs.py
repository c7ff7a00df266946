"""Documentation that cannot go stale: what the Markdown files claim, checked.

- Every repository path a Markdown file names (a link, or a backticked path whose first
  folder is one of the repository's) exists. OUTPUTS lists the paths that are written by
  builds and commands rather than checked in.
- Every code block of README.md, cpp/README.md, python/README.md and
  docs/adding-a-language.md marked as an example
  compiles and runs, and prints what the block marked as its output shows. The markers
  are HTML comments, invisible on GitHub, on the line right before the fence:

      <!-- example: NAME -->        before a ```cpp or ```python block
      <!-- output: NAME -->         before a ```text block: the example's exact stdout

  C++ examples are built with CMake against the runtime (cpp/) with the code
  fastwire_generate() makes from schemas/proto.fbe and schemas/everything.fbe; a block
  without `main` is the body of one, after its own #include lines, with <cassert>,
  <iostream>, <optional> and <type_traits> included and asserts on. Python examples run
  in the repository with the runtime, the compiler and the Python generated from the
  same schemas on their path.
- The statements a test can compare with the code: the languages README.md calls planned
  are the compiler's, and every helper cpp/README.md's default-value table names is one the
  C++ generator writes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
COMPILER_ENV = {**os.environ, "PYTHONPATH": str(REPO / "compiler")}

EXAMPLE_DOCS = ["README.md", "cpp/README.md", "python/README.md", "docs/adding-a-language.md"]
SCHEMAS = ["schemas/proto.fbe", "schemas/everything.fbe"]
BUILD = REPO / "build" / "docs-examples"

# Paths the documents name that builds or commands write (nothing checked in).
OUTPUTS = ("build/", "gen/", "examples/cpp/server", "examples/cpp/client")

CPP_PRELUDE = ["#include <cassert>", "#include <iostream>", "#include <optional>",
               "#include <type_traits>"]


def markdown_files() -> List[Path]:
    listed = subprocess.run(["git", "ls-files", "*.md"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.split()
    return [REPO / name for name in listed if (REPO / name).exists()]


# -- reading Markdown -----------------------------------------------------------------------
@dataclass
class Fence:
    doc: str
    line: int  # 1-based line of the opening fence
    info: str  # the fence's info string: cpp, python, text, …
    text: str  # the content, its common indentation removed
    marker: Optional[Tuple[str, str]]  # ("example" | "output", NAME) from the line before


MARKER = re.compile(r"^\s*<!--\s*(example|output):\s*([\w.-]+)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(```+)\s*([\w+-]*)")


def fences(path: Path) -> Iterator[Fence]:
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, ticks, info = m.group(1), m.group(2), m.group(3)
        before = MARKER.match(lines[i - 1]) if i else None
        start = i
        body: List[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(ticks):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        i += 1
        yield Fence(str(path.relative_to(REPO)), start + 1, info, "\n".join(body) + "\n",
                    (before.group(1), before.group(2)) if before else None)


def prose(path: Path) -> Iterator[Tuple[int, str]]:
    """The lines outside fenced blocks, numbered from 1."""
    inside = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            yield number, line


# -- every path named exists ------------------------------------------------------------------
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\s]+)`")
PATH_LIKE = re.compile(r"^[\w.+-]+(/[\w.+-]*)+$")


def named_paths(path: Path) -> Iterator[Tuple[int, str, str]]:
    """(line, what the text says, the path relative to the repository)."""
    here = path.parent
    for number, line in prose(path):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            target = target.split("#")[0]
            resolved = os.path.normpath(here / target)
            yield number, target, os.path.relpath(resolved, REPO)
        for span in CODE_SPAN.findall(line):
            span = span.rstrip(".,:;")
            if span.startswith("./"):
                span = span[2:]
            if not PATH_LIKE.match(span) or ".." in span:
                continue
            span = span.rstrip("/")
            first = span.split("/")[0]
            # Named from the repository, the document's folder or the compiler's package.
            roots = [REPO, here, REPO / "compiler" / "fastwire"]
            found = [root for root in roots if (root / span).exists()]
            if found:
                yield number, span, os.path.relpath(found[0] / span, REPO)
            elif any((root / first).exists() for root in roots):
                yield number, span, span


@pytest.mark.parametrize("doc", markdown_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_path_named_exists(doc: Path) -> None:
    missing = [f"{doc.relative_to(REPO)}:{number}: {said}"
               for number, said, rel in named_paths(doc)
               if not (REPO / rel).exists() and not rel.startswith(OUTPUTS)]
    assert not missing, "paths that do not exist:\n" + "\n".join(missing)


def test_path_check_sees_paths() -> None:
    """The check would notice a missing file (it finds the paths it should)."""
    found = {rel for _, _, rel in named_paths(REPO / "cpp" / "README.md")}
    assert {"docs/security.md", "tests/vectors"} <= found


# -- examples ---------------------------------------------------------------------------------
@dataclass
class Example:
    name: str
    where: str
    language: str
    code: str
    output: Optional[str]


def examples() -> List[Example]:
    found: Dict[str, Example] = {}
    outputs: Dict[str, str] = {}
    for doc in EXAMPLE_DOCS:
        for fence in fences(REPO / doc):
            if fence.marker is None:
                continue
            kind, name = fence.marker
            where = f"{fence.doc}:{fence.line}"
            if kind == "output":
                outputs[name] = fence.text
                continue
            assert name not in found, f"{where}: a second example named {name}"
            assert fence.info in ("cpp", "python"), f"{where}: an example must be cpp or python"
            found[name] = Example(name, where, fence.info, fence.text, None)
    for name, text in outputs.items():
        assert name in found, f"output block for {name}, which is no example"
        found[name].output = text
    return list(found.values())


EXAMPLES = examples()


def test_examples_are_found() -> None:
    languages = {e.language for e in EXAMPLES}
    assert languages == {"cpp", "python"}
    assert any(e.output for e in EXAMPLES)


def same_output(example: Example, stdout: str) -> None:
    if example.output is None:
        return
    got = [line.rstrip() for line in stdout.rstrip("\n").splitlines()]
    want = [line.rstrip() for line in example.output.rstrip("\n").splitlines()]
    assert got == want, f"{example.where}: the example prints\n{stdout}"


def cpp_source(code: str) -> str:
    if re.search(r"\bint\s+main\s*\(", code):
        return code
    lines = code.splitlines()
    includes = [line for line in lines if line.startswith("#include")]
    body = [line for line in lines if not line.startswith("#include")]
    return "\n".join(CPP_PRELUDE + includes + ["", "int main() {"] +
                     ["    " + line if line else "" for line in body] + ["}", ""])


@pytest.fixture(scope="module")
def cpp_build() -> Path:
    cpp = [e for e in EXAMPLES if e.language == "cpp"]
    src = BUILD / "src"
    src.mkdir(parents=True, exist_ok=True)
    cmake = [
        "# Written by docs/tests/test_docs.py: the C++ examples of the Markdown files.",
        "cmake_minimum_required(VERSION 3.16)",
        "project(fastwire_doc_examples LANGUAGES CXX)",
        f'add_subdirectory("{REPO / "cpp"}" fastwire)',
    ]
    for e in cpp:
        source = src / f"{e.name}.cpp"
        text = f"// {e.where}\n" + cpp_source(e.code)
        if not source.exists() or source.read_text() != text:
            source.write_text(text)
        schemas = " ".join(f'"{REPO / s}"' for s in SCHEMAS)
        cmake += [f"add_executable({e.name} {e.name}.cpp)",
                  f"target_compile_options({e.name} PRIVATE -UNDEBUG)",
                  f"fastwire_generate(TARGET {e.name} SCHEMAS {schemas} "
                  f'IMPORT_DIRS "{REPO / "schemas"}" '
                  f"OUTPUT_DIR ${{CMAKE_CURRENT_BINARY_DIR}}/generated_{e.name})"]
    lists = src / "CMakeLists.txt"
    text = "\n".join(cmake) + "\n"
    if not lists.exists() or lists.read_text() != text:
        lists.write_text(text)
    subprocess.run(["cmake", "-S", str(src), "-B", str(BUILD / "out"), "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", "-DCMAKE_CXX_FLAGS_RELEASE=-O1"],
                   check=True, capture_output=True)
    return BUILD / "out"


@pytest.fixture(scope="module")
def python_generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("generated")
    subprocess.run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", "python",
                    "--final", "--json", "--proto", "-q", "-o", str(out)],
                   cwd=REPO, env=COMPILER_ENV,
                   check=True)
    return out


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.language == "cpp"],
                         ids=lambda e: e.name)
def test_cpp_example(example: Example, cpp_build: Path) -> None:
    jobs = os.environ.get("JOBS", "2")
    built = subprocess.run(["cmake", "--build", str(cpp_build), "--target", example.name,
                            f"-j{jobs}"], capture_output=True, text=True)
    assert built.returncode == 0, f"{example.where} does not compile:\n{built.stdout[-6000:]}"
    ran = subprocess.run([str(cpp_build / example.name)], capture_output=True, text=True,
                         timeout=60)
    assert ran.returncode == 0, f"{example.where} fails:\n{ran.stdout}\n{ran.stderr}"
    same_output(example, ran.stdout)


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.language == "python"],
                         ids=lambda e: e.name)
def test_python_example(example: Example, python_generated: Path) -> None:
    path = os.pathsep.join([str(python_generated), str(REPO / "python"), str(REPO / "compiler")])
    ran = subprocess.run([sys.executable, "-c", example.code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": path}, cwd=REPO, timeout=60)
    assert ran.returncode == 0, f"{example.where} fails:\n{ran.stderr}"
    same_output(example, ran.stdout)


# -- statements compared with the code --------------------------------------------------------
def test_planned_languages_are_the_compilers() -> None:
    rows = [line for _, line in prose(REPO / "README.md") if line.rstrip().endswith("| planned |")]
    assert len(rows) == 1, "README.md's status table has one row of planned languages"
    named = set(re.findall(r"[A-Z][\w#+]*", rows[0].split("|")[1].split("(")[0]))
    # Asked of the compiler in a process of its own (mypy does not check the compiler yet).
    ask = ("import json; from fastwire.generators import LANGUAGES, PLANNED; "
           "print(json.dumps(sorted(d for n, d in PLANNED.items() if n not in LANGUAGES)))")
    planned = json.loads(subprocess.run([sys.executable, "-c", ask], env=COMPILER_ENV,
                                        capture_output=True, text=True, check=True).stdout)
    assert named == set(planned)


def section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:end if end >= 0 else len(text)]


HELPER = re.compile(r"(?:fastwire|std)::[\w:]+(?:<[\w:]+>)?(?:\(\))?|static_cast<\w+>")

# Defaults the repository's schemas do not have: a decimal beyond 63 bits.
EXTRA_SCHEMA = "package docdefaults\nstruct D { decimal big = 79228162514264337593543950335; }\n"


def test_default_helpers_are_generated(tmp_path: Path) -> None:
    table = section(REPO / "cpp" / "README.md", "### Default values")
    table = table[:table.index("\n\n", table.index("|"))]
    helpers = set(HELPER.findall(table))
    assert helpers
    (tmp_path / "d.fbe").write_text(EXTRA_SCHEMA)
    subprocess.run([sys.executable, "-m", "fastwire", "compile", str(tmp_path / "d.fbe"),
                    "--lang", "cpp", "-q", "-o", str(tmp_path)],
                   env=COMPILER_ENV, check=True)
    generated = (REPO / "tests/golden/cpp/everything.h").read_text() + \
        (tmp_path / "docdefaults.h").read_text()
    unused = sorted(h for h in helpers if h not in generated)
    assert not unused, f"cpp/README.md's default values name what the generator never writes: {unused}"
