"""First use, as a user meets it: a fresh venv installs the compiler and the Python runtime
from their wheels, under the distribution names of docs/distribution.md, and runs the
Python README's snippet against code the installed `fastwire` command generates.

Needs `python3 -m venv` and the network (or pip's cache) for setuptools. Run by
`make test-install` (part of `make test`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(*cmd, **kwargs):
    r = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert r.returncode == 0, f"{cmd}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv bin folder, wheel folder) with both wheels built and installed."""
    root = tmp_path_factory.mktemp("install")
    venv, wheels = root / "venv", root / "wheels"
    r = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.fail("python3 -m venv does not work here (Debian: apt-get install python3-venv; "
                    f"scripts/bootstrap test does it): {r.stderr.strip()}")
    bin_dir = venv / "bin"
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)  # nothing from the source tree
    # Build the wheels from a copy of each project, so no build/ or egg-info lands in the
    # repository.
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests", "bench")
    for project in ("compiler", "python"):
        shutil.copytree(os.path.join(REPO, project), root / "src" / project, ignore=skip)
    _run(str(bin_dir / "pip"), "wheel", "-q", "--no-deps", "-w", str(wheels),
         str(root / "src" / "compiler"), str(root / "src" / "python"), env=env, cwd=str(root))
    _run(str(bin_dir / "pip"), "install", "-q", "--no-index", "--find-links", str(wheels),
         "fastwire-fbe", "fastwire-fbe-runtime", env=env, cwd=str(root))
    return bin_dir, wheels, env, root


def test_wheels_have_the_new_names_and_the_licence(installed):
    _, wheels, _, _ = installed
    names = sorted(os.listdir(wheels))
    assert [n.split("-")[0] for n in names] == ["fastwire_fbe", "fastwire_fbe_runtime"]
    licence = open(os.path.join(REPO, "LICENSE"), encoding="utf-8").read()
    assert "MIT License" in licence and "Fast Binary Encoding" in licence
    for name in names:
        with zipfile.ZipFile(wheels / name) as whl:
            files = whl.namelist()
            lic = [f for f in files if f.endswith(".dist-info/licenses/LICENSE")]
            assert lic, f"{name} has no LICENSE: {files}"
            assert whl.read(lic[0]).decode() == licence
            meta = whl.read([f for f in files if f.endswith(".dist-info/METADATA")][0]).decode()
            assert "License-Expression: MIT" in meta
            assert "Project-URL: Homepage, https://" in meta
            # The long description is the README: no links relative to the repository.
            for target in re.findall(r"\]\(([^)]+)\)", meta):
                assert target.startswith(("https://", "#")), f"{name}: relative link {target}"
            if name.startswith("fastwire_fbe_runtime"):
                assert "fastwire_runtime/py.typed" in files


def test_command_and_readme_snippet(installed):
    bin_dir, _, env, root = installed
    r = _run(str(bin_dir / "fastwire"), "--version", env=env, cwd=str(root))
    assert r.stdout.startswith("fastwire ")
    gen = root / "gen"
    _run(str(bin_dir / "fastwire"), "compile", os.path.join(REPO, "schemas", "proto.fbe"),
         "--lang", "python", "--final", "--json", "--proto", "-q", "-o", str(gen),
         env=env, cwd=str(root))
    readme = open(os.path.join(REPO, "python", "README.md"), encoding="utf-8").read()
    snippet = re.search(r"```python\n(.*?)```", readme, re.S).group(1)
    snippet += "\nprint('size', len(data), len(small))\n"
    r = _run(str(bin_dir / "python"), "-c", snippet, env=dict(env, PYTHONPATH=str(gen)),
             cwd=str(root))
    assert "Account(uid=1" in r.stdout and "size 77 41" in r.stdout  # no asset, no orders
    # The runtime came from the venv, not from the source tree.
    r = _run(str(bin_dir / "python"), "-c", "import fastwire_runtime; print(fastwire_runtime.__file__)",
             env=env, cwd=str(root))
    assert str(root) in r.stdout


def test_schema_tools_from_the_wheels(installed):
    """`fastwire decode` (docs/tools.md) runs on the installed runtime's dynamic codec."""
    bin_dir, _, env, root = installed
    r = _run(str(bin_dir / "fastwire"), "decode", "--schema", os.path.join(REPO, "schemas", "proto.fbe"),
             "--type", "proto.Account", os.path.join(REPO, "tests", "vectors", "account.fbe.hex"),
             env=env, cwd=str(root))
    with open(os.path.join(REPO, "tests", "vectors", "account.json"), encoding="utf-8") as fh:
        assert r.stdout == fh.read().strip() + "\n"


def _metadata(wheels, stem):
    name = next(n for n in os.listdir(wheels) if n.startswith(stem + "-"))
    with zipfile.ZipFile(wheels / name) as whl:
        files = whl.namelist()
        meta = whl.read(next(f for f in files if f.endswith(".dist-info/METADATA"))).decode()
        eps = [f for f in files if f.endswith(".dist-info/entry_points.txt")]
        return meta, whl.read(eps[0]).decode() if eps else ""


def test_neither_wheel_depends_on_the_other_unless_asked(installed):
    """The compiler's and the runtime's only dependency on each other is the `tools` extra;
    the runtime's commands are entry points the compiler's `fastwire` finds by name."""
    _, wheels, _, _ = installed
    meta, eps = _metadata(wheels, "fastwire_fbe")
    assert re.findall(r"^Requires-Dist: .*$", meta, re.M) == [
        'Requires-Dist: fastwire-fbe-runtime>=0.1.0; extra == "tools"']
    assert "Provides-Extra: tools" in meta.splitlines()
    assert "[console_scripts]\nfastwire = fastwire.cli:main" in eps
    meta, eps = _metadata(wheels, "fastwire_fbe_runtime")
    assert re.findall(r"^Requires-Dist: .*$", meta, re.M) == [
        'Requires-Dist: fastwire-fbe>=0.1.0; extra == "tools"']
    assert eps.replace(" ", "").split() == [
        "[fastwire.commands]", "decode=fastwire_runtime.tools:run", "encode=fastwire_runtime.tools:run",
        "explain=fastwire_runtime.tools:run"]


def _venv_with(installed, name, distribution):
    """A venv with one of the two wheels (installed by the first venv's pip: a venv without
    its own pip takes a third of the time)."""
    both, wheels, env, root = installed
    venv = root / name
    _run(sys.executable, "-m", "venv", "--without-pip", str(venv))
    _run(str(both / "pip"), "--python", str(venv / "bin" / "python"), "install", "-q", "--no-index",
         "--find-links", str(wheels), distribution, env=env, cwd=str(root))
    return venv / "bin"


def test_the_compiler_alone(installed):
    """`pip install fastwire-fbe` brings no runtime: compile and compat work, decode says
    what to install, in one line."""
    bin_dir = _venv_with(installed, "compiler-only", "fastwire-fbe")
    _, _, env, root = installed
    r = subprocess.run([str(bin_dir / "python"), "-c", "import fastwire_runtime"], capture_output=True,
                       text=True, env=env, cwd=str(root))
    assert r.returncode == 1 and "No module named 'fastwire_runtime'" in r.stderr
    schemas = os.path.join(REPO, "schemas")
    r = subprocess.run([str(bin_dir / "fastwire"), "compat", os.path.join(schemas, "proto.fbe"),
                        os.path.join(schemas, "protoex.fbe")], capture_output=True, text=True, env=env,
                       cwd=str(root))
    assert r.returncode == 0 and r.stdout.splitlines()[-1].endswith(
        "compatible for the versioned format (0 breaking, 2 warnings, 15 differences)"), r.stderr
    r = subprocess.run([str(bin_dir / "fastwire"), "decode", "--schema", os.path.join(schemas, "proto.fbe"),
                        "--type", "Account", os.path.join(REPO, "tests", "vectors", "account.fbe.hex")],
                       capture_output=True, text=True, env=env, cwd=str(root))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == ("fastwire decode: error: this command comes with the Python runtime: pip install "
                        "fastwire-fbe-runtime (or 'fastwire-fbe[tools]'); without installing it, "
                        "'python3 -m fastwire_runtime.tools decode ...'\n")


def test_the_runtime_alone(installed, tmp_path):
    """`pip install fastwire-fbe-runtime` brings no compiler: its tools read IR JSON (here
    written by the other venv's compiler) and name the compiler for a .fbe schema."""
    both, _, env, root = installed
    _run(str(both / "fastwire"), "compile", os.path.join(REPO, "schemas", "proto.fbe"), "--emit",
         "ir-json", "-q", "-o", str(tmp_path), env=env, cwd=str(root))
    bin_dir = _venv_with(installed, "runtime-only", "fastwire-fbe-runtime")
    assert not (bin_dir / "fastwire").exists()
    account = os.path.join(REPO, "tests", "vectors", "account.fbe.hex")
    r = _run(str(bin_dir / "python"), "-m", "fastwire_runtime.tools", "decode", "--schema",
             str(tmp_path / "proto.ir.json"), "--type", "proto.Account", account, env=env, cwd=str(root))
    with open(os.path.join(REPO, "tests", "vectors", "account.json"), encoding="utf-8") as fh:
        assert r.stdout == fh.read().strip() + "\n"
    r = subprocess.run([str(bin_dir / "python"), "-m", "fastwire_runtime.tools", "explain", "--schema",
                        os.path.join(REPO, "schemas", "proto.fbe"), "--type", "Account", account],
                       capture_output=True, text=True, env=env, cwd=str(root))
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr.endswith("compiling a .fbe schema needs the compiler (pip install fastwire-fbe); or "
                             "give its IR JSON (fastwire compile SCHEMA --emit ir-json)\n"), r.stderr
