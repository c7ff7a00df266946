"""docs/distribution.md names each registry's package; the manifests must say the same.

Each row of the table names a manifest (its fourth column); the name in the third column
must be the one that manifest declares, read the way its own tool reads it. A row for a
registry this test cannot read, or a manifest no row names, fails too.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "distribution.md"
POM = "{http://maven.apache.org/POM/4.0.0}"


def rows() -> List[Tuple[str, str, str, str]]:
    """(registry, what, the first backticked name, the manifest) of each table row"""
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("registry", "") or set(cells[0]) <= {"-"}:
            continue
        name = re.match(r"`([^`]+)`", cells[2])
        manifest = re.match(r"`([^`]+)`", cells[3])
        assert name and manifest, f"docs/distribution.md: a row without a `name` or `manifest`: {line}"
        out.append((cells[0], cells[1], name.group(1), manifest.group(1)))
    return out


def toml_name(path: Path, table: str) -> str:
    """`name = "..."` of [table] (Python 3.10 has no tomllib; these files keep it on one line)"""
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        header = re.match(r"^\s*\[([^\]]+)\]\s*$", line)
        if header:
            section = header.group(1).strip()
            continue
        m = re.match(r"""^\s*name\s*=\s*"([^"]+)"\s*$""", line)
        if m and section == table:
            return m.group(1)
    raise AssertionError(f"{path}: no name in [{table}]")


def pyproject(path: Path) -> str:
    return toml_name(path, "project")


def package_json(path: Path) -> str:
    return str(json.loads(path.read_text(encoding="utf-8"))["name"])


def cargo(path: Path) -> str:
    return toml_name(path, "package")


def pom(path: Path) -> str:
    root = ET.parse(path).getroot()
    group = root.find(f"{POM}groupId")
    if group is None:  # inherited from the parent
        group = root.find(f"{POM}parent/{POM}groupId")
    artifact = root.find(f"{POM}artifactId")
    assert group is not None and artifact is not None, path
    return f"{group.text}:{artifact.text}"


def go_mod(path: Path) -> str:
    m = re.search(r"^module\s+(\S+)\s*$", path.read_text(encoding="utf-8"), re.M)
    assert m, path
    return m.group(1)


def gemspec(path: Path) -> str:
    m = re.search(r"""^\s*\w+\.name\s*=\s*["']([^"']+)["']""", path.read_text(encoding="utf-8"), re.M)
    assert m, path
    return m.group(1)


def csproj(path: Path) -> str:
    root = ET.parse(path).getroot()
    ids = [e.text for e in root.iter("PackageId")]
    assert len(ids) == 1, f"{path}: {len(ids)} PackageId elements"
    return str(ids[0])


def cmake(path: Path) -> str:
    """the C++ row's first name, find_package(fastwire): the package the build installs"""
    text = path.read_text(encoding="utf-8")
    assert "install(EXPORT fastwireTargets NAMESPACE fastwire::" in text, path
    assert "fastwire::compiler" in text and "/fastwire.pc" in text, path
    return "find_package(fastwire)"


READERS: Dict[str, Callable[[Path], str]] = {
    "pyproject.toml": pyproject,
    "package.json": package_json,
    "Cargo.toml": cargo,
    "pom.xml": pom,
    "go.mod": go_mod,
    ".gemspec": gemspec,
    ".csproj": csproj,
    "CMakeLists.txt": cmake,
}

# Every manifest of a published package: each must have its row.
PUBLISHED = ["compiler/pyproject.toml", "python/pyproject.toml", "ts/package.json",
             "rust/fastwire/Cargo.toml", "rust/fastwire-build/Cargo.toml", "java/runtime/pom.xml",
             "go/go.mod", "ruby/fastwire.gemspec", "csharp/Fastwire/Fastwire.csproj",
             "cpp/CMakeLists.txt"]


def reader(manifest: str) -> Callable[[Path], str]:
    for suffix, read in READERS.items():
        if manifest.endswith(suffix):
            return read
    raise AssertionError(f"docs/distribution.md: no reader for the manifest {manifest}")


@pytest.mark.parametrize("registry,what,name,manifest", rows(), ids=lambda v: str(v))
def test_the_doc_names_what_the_manifest_declares(registry: str, what: str, name: str,
                                                   manifest: str) -> None:
    path = REPO / manifest
    assert path.is_file(), f"docs/distribution.md ({registry}, {what}): {manifest} does not exist"
    declared = reader(manifest)(path)
    assert declared == name, (f"docs/distribution.md says {registry}'s {what} is `{name}`; "
                              f"{manifest} declares `{declared}`")


def test_every_published_manifest_has_a_row() -> None:
    named = {manifest for _, _, _, manifest in rows()}
    assert sorted(set(PUBLISHED) - named) == []
    assert len(rows()) == len(PUBLISHED)


def test_the_readers_read_what_they_should(tmp_path: Path) -> None:
    """each reader on a manifest written here: the test can fail"""
    (tmp_path / "Cargo.toml").write_text('[package]\nname = "crate-x"\n[dependencies]\nname = "no"\n')
    assert cargo(tmp_path / "Cargo.toml") == "crate-x"
    (tmp_path / "go.mod").write_text("module example.com/x/go\n\ngo 1.22\n")
    assert go_mod(tmp_path / "go.mod") == "example.com/x/go"
    (tmp_path / "x.gemspec").write_text('Gem::Specification.new do |s|\n  s.name = "gem-x"\nend\n')
    assert gemspec(tmp_path / "x.gemspec") == "gem-x"
    (tmp_path / "pom.xml").write_text(
        f'<project xmlns="{POM[1:-1]}"><parent><groupId>g.h</groupId></parent>'
        "<artifactId>a</artifactId></project>")
    assert pom(tmp_path / "pom.xml") == "g.h:a"
    (tmp_path / "x.csproj").write_text("<Project><PropertyGroup><PackageId>P.Q</PackageId></PropertyGroup></Project>")
    assert csproj(tmp_path / "x.csproj") == "P.Q"
