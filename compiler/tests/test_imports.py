"""The import graph of the compiler (compiler/fastwire) and the Python runtime
(python/fastwire_runtime), read from their source with `ast`: no import circles (an import
inside a function counts: hiding one there does not break the circle), the compiler imports
no runtime, the runtime imports the compiler only where its tools compile a .fbe schema, and
neither package edits sys.path."""

from __future__ import annotations

import ast
import os
from typing import Dict, FrozenSet, Iterator, List, Set, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PACKAGES = {"fastwire": os.path.join(REPO, "compiler", "fastwire"),
            "fastwire_runtime": os.path.join(REPO, "python", "fastwire_runtime")}
# The one runtime module that may import the compiler (its public API: compile_schema,
# Reporter, ir_json), and only to compile a .fbe schema given to decode, encode or explain;
# declared as the runtime's `tools` extra (python/pyproject.toml).
RUNTIME_USES_COMPILER = {"fastwire_runtime.tools": {"fastwire", "fastwire.ir_json"}}
# Import circles among the generators, which issue 36 (item 3: one shape for every
# generator, generators/jvm/) takes apart; left alone here. A circle found must be one of
# these or part of one; any other fails.
KNOWN_GENERATOR_CIRCLES: List[FrozenSet[str]] = [
    frozenset({"fastwire.generators.java.fastput", "fastwire.generators.java.generator",
               "fastwire.generators.java.protocol", "fastwire.generators.java.struct"}),
    frozenset({"fastwire.generators.kotlin.generator", "fastwire.generators.kotlin.protocol",
               "fastwire.generators.kotlin.struct"}),
]


def modules(root: str, package: str) -> Dict[str, str]:
    """Module name -> file, for every .py file under `root` (the package `package`)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, root)
        prefix = package if rel == "." else package + "." + rel.replace(os.sep, ".")
        for f in sorted(files):
            if f.endswith(".py"):
                out[prefix if f == "__init__.py" else f"{prefix}.{f[:-3]}"] = os.path.join(folder, f)
    return out


def _imports(tree: ast.AST, name: str, is_package: bool) -> Iterator[Tuple[int, str, List[str]]]:
    """(line, module, names imported from it) of every import anywhere in the module,
    relative ones made absolute."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, []
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep] + ([base] if base else []))
            yield node.lineno, base, [a.name for a in node.names]


def _sys_path_uses(tree: ast.AST) -> Iterator[int]:
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name)
                and node.value.id == "sys"):
            yield node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module == "sys" and any(
                a.name == "path" for a in node.names):
            yield node.lineno
        elif (isinstance(node, ast.Attribute) and node.attr == "addsitedir"
              and isinstance(node.value, ast.Name) and node.value.id == "site"):
            yield node.lineno


class Graph:
    def __init__(self, packages: Dict[str, str]) -> None:
        self.files: Dict[str, str] = {}
        for package, root in packages.items():
            self.files.update(modules(root, package))
        self.edges: Dict[str, Set[str]] = {m: set() for m in self.files}
        self.where: Dict[Tuple[str, str], str] = {}  # (from, to) -> "file:line"
        self.sys_path: List[str] = []
        for m, path in self.files.items():
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read(), path)
            rel = os.path.relpath(path, REPO)
            for line, target, names in _imports(tree, m, path.endswith("__init__.py")):
                found = [f"{target}.{n}" for n in names if f"{target}.{n}" in self.files]
                if len(found) < len(names) or not names:
                    t = target
                    while t and t not in self.files and "." in t:
                        t = t.rsplit(".", 1)[0]
                    if t in self.files:
                        found.append(t)
                    elif t.split(".")[0] in packages:
                        raise AssertionError(f"{rel}:{line}: imports {target}, not a module here")
                for t in found:
                    if t != m:
                        self.edges[m].add(t)
                        self.where.setdefault((m, t), f"{rel}:{line}")
            self.sys_path += [f"{rel}:{line}" for line in _sys_path_uses(tree)]

    def circles(self) -> List[List[str]]:
        """The strongly connected components of more than one module (Tarjan), sorted."""
        index: Dict[str, int] = {}
        low: Dict[str, int] = {}
        stack: List[str] = []
        on: Set[str] = set()
        out: List[List[str]] = []

        def visit(v: str) -> None:
            index[v] = low[v] = len(index)
            stack.append(v)
            on.add(v)
            for w in sorted(self.edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                part = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    part.append(w)
                    if w == v:
                        break
                if len(part) > 1 or v in self.edges[v]:
                    out.append(sorted(part))

        for v in sorted(self.edges):
            if v not in index:
                visit(v)
        return sorted(out)

    def path(self, part: List[str]) -> str:
        """The shortest circle through the component's first module, with where each
        import is."""
        members = set(part)
        start = part[0]
        parent: Dict[str, str] = {}
        queue, end = [start], start
        while queue:
            v = queue.pop(0)
            if start in self.edges[v]:
                end = v
                break
            for w in sorted(self.edges[v]):
                if w in members and w not in parent and w != start:
                    parent[w] = v
                    queue.append(w)
        trail = [end]
        while trail[-1] != start:
            trail.append(parent[trail[-1]])
        trail = trail[::-1] + [start]
        return " -> ".join(f"{a} ({self.where[(a, b)]})" for a, b in zip(trail, trail[1:])) + \
            f" -> {start}"


GRAPH = Graph(PACKAGES)


def test_the_graph_sees_every_module_and_import():
    """The test reads what it should: both packages, and imports at any depth."""
    assert "fastwire.cli" in GRAPH.files and "fastwire_runtime.wire" in GRAPH.files
    assert "fastwire.generators.cpp" in GRAPH.files
    assert "fastwire.resolver" in GRAPH.edges["fastwire"]  # `from .resolver import` in __init__
    assert "fastwire_runtime.wire" in GRAPH.edges["fastwire_runtime.model"]
    assert GRAPH.edges["fastwire_runtime.tools"] >= {"fastwire", "fastwire.ir_json"}  # in a function
    tree = ast.parse("def f():\n    from .wire import x\n    import fastwire_runtime.limits\n")
    assert [(m, n) for _, m, n in _imports(tree, "fastwire_runtime.model", False)] == \
        [("fastwire_runtime.wire", ["x"]), ("fastwire_runtime.limits", [])]
    tree = ast.parse("import sys, site\nsys.path.insert(0, 'x')\nsite.addsitedir('y')\n"
                     "from sys import path\nsite = 1\n")
    assert sorted(_sys_path_uses(tree)) == [2, 3, 4]


def test_a_circle_through_a_function_level_import_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("import os\n\n\ndef f():\n    from .sub.c import g\n    return g\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from ..a import name\nfrom .. import a\n")
    (pkg / "d.py").write_text("from pkg import a, sub\n")  # not in the circle
    g = Graph({"pkg": str(pkg)})
    assert g.edges["pkg.d"] == {"pkg.a", "pkg.sub"}
    assert g.circles() == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert g.path(["pkg.a", "pkg.b", "pkg.sub.c"]) == (
        f"pkg.a ({os.path.relpath(pkg / 'a.py', REPO)}:1) -> "
        f"pkg.b ({os.path.relpath(pkg / 'b.py', REPO)}:5) -> "
        f"pkg.sub.c ({os.path.relpath(pkg / 'sub' / 'c.py', REPO)}:1) -> pkg.a")


def test_no_import_circles():
    found = GRAPH.circles()
    new = [c for c in found if not any(set(c) <= k for k in KNOWN_GENERATOR_CIRCLES)]
    assert not new, "import circles:\n" + "\n".join(GRAPH.path(c) for c in new)


def test_the_compiler_imports_no_runtime():
    bad = sorted(f"{GRAPH.where[(m, t)]}: {m} imports {t}" for m, ts in GRAPH.edges.items()
                 for t in ts if m.split(".")[0] == "fastwire" and t.startswith("fastwire_runtime"))
    assert not bad, "\n".join(bad)


def test_the_runtime_imports_the_compiler_only_in_its_tools():
    bad = sorted(f"{GRAPH.where[(m, t)]}: {m} imports {t}" for m, ts in GRAPH.edges.items()
                 for t in ts if m.startswith("fastwire_runtime") and t.split(".")[0] == "fastwire"
                 and t not in RUNTIME_USES_COMPILER.get(m, ()))
    assert not bad, "\n".join(bad)


def test_no_sys_path_edits():
    assert not GRAPH.sys_path, "sys.path used in: " + ", ".join(GRAPH.sys_path)
