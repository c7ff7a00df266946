"""The Python generator: checked-in output (tests/golden/python), options, names.

The generated code for the repository's schemas is checked in under tests/golden/python,
so a review of a generator change shows what the change does to the output. When this
test reports a difference that is intended, regenerate them:

    python3 compiler/tests/test_python_generator.py --update

(which runs: fastwire compile schemas/protocol.fbe schemas/everything.fbe --lang python
--final --json --proto -o tests/golden/python). Runtime behaviour is tested in
python/tests; here the generated modules are imported and used only to prove that each
option and naming rule gives working code.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap

import pytest
from test_goldens import mask_version  # this folder is on sys.path under pytest

from fastwire.generators import LANGUAGES

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
GOLDEN = os.path.join(REPO, "tests", "golden", "python")
GOLDEN_SCHEMAS = list(LANGUAGES["python"].golden_schemas)  # + what they import
GOLDEN_OPTIONS = ["--final", "--json", "--proto"]
VECTORS = os.path.join(REPO, "tests", "vectors")


def fastwire(*args: str, cwd: str = REPO) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    return subprocess.run([sys.executable, "-m", "fastwire", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def generate_golden(out: str) -> None:
    done = fastwire("compile", *GOLDEN_SCHEMAS, "--lang", "python", *GOLDEN_OPTIONS, "-q",
                    "-o", out)
    assert done.returncode == 0, done.stderr


def python_files(folder: str):
    return sorted(n for n in os.listdir(folder) if n.endswith(".py"))


def test_golden_output_is_up_to_date(tmp_path):
    generate_golden(str(tmp_path))
    assert python_files(str(tmp_path)) == python_files(GOLDEN) == \
        ["comments_fbe.py", "everything_fbe.py", "proto_fbe.py", "protocol_fbe.py",
         "protoex_fbe.py"]
    stale = []
    for name in python_files(GOLDEN):
        with open(os.path.join(GOLDEN, name), encoding="utf-8") as a, \
                open(os.path.join(tmp_path, name), encoding="utf-8") as b:
            if mask_version(a.read()) != mask_version(b.read()):
                stale.append(name)
    assert not stale, (f"tests/golden/python is stale for {stale}; if the change is intended, "
                       "run: python3 compiler/tests/test_python_generator.py --update")


def load(folder: str, *packages: str):
    """Imports the freshly generated modules of `packages` (package `p` is module `p_fbe`)
    from `folder`, and the runtime from python/."""
    for n in list(sys.modules):
        if n.endswith("_fbe"):
            del sys.modules[n]
    sys.path[:0] = [folder, os.path.join(REPO, "python")]
    try:
        return [importlib.import_module(n + "_fbe") for n in packages]
    finally:
        del sys.path[:2]


def hex_vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name)) as fh:
        return bytes.fromhex("".join(fh.read().split()))


def seed(proto):
    return proto.Account(1, "Test", proto.State.good, proto.Balance("USD", 1000.0),
                         proto.Balance("EUR", 100.0),
                         [proto.Order(1, "EURUSD", proto.OrderSide.buy, proto.OrderType.market,
                                      1.23456, 1000.0),
                          proto.Order(2, "EURUSD", proto.OrderSide.sell, proto.OrderType.limit,
                                      1.0, 100.0),
                          proto.Order(3, "EURUSD", proto.OrderSide.buy, proto.OrderType.stop,
                                      1.5, 10.0)])


def test_golden_modules_work():
    proto, protocol = load(GOLDEN, "proto", "protocol")
    assert proto.AccountModel().serialize(seed(proto)) == hex_vector("account.fbe.hex")
    assert proto.AccountFinalModel().serialize(seed(proto)) == hex_vector("account.final.hex")
    sender = protocol.FinalSender()
    sender.send(protocol.AccountMessage(seed(proto)))
    assert bytes(sender.buffer) == hex_vector("protocol.final.hex")[63:]


def test_reference_flags_and_defaults(tmp_path):
    done = fastwire("--python", "--input=schemas/proto.fbe", f"--output={tmp_path}", "-q")
    assert done.returncode == 0, done.stderr
    assert python_files(str(tmp_path)) == ["proto_fbe.py"]
    text = (tmp_path / "proto_fbe.py").read_text()
    # Without --final, --json, --proto: the versioned format only.
    assert "class AccountModel(_rt.Model)" in text
    for absent in ("FinalModel", "_fput_", "def to_json", "class Sender", "class Receiver"):
        assert absent not in text
    (proto,) = load(str(tmp_path), "proto")
    assert proto.AccountModel().serialize(seed(proto)) == hex_vector("account.fbe.hex")
    assert str(seed(proto)).startswith('Account(uid=1,name="Test",state=initialized|calculated|good')


def test_imports_are_generated_too(tmp_path):
    done = fastwire("compile", "schemas/protoex.fbe", "--lang", "python", "-q", "-o",
                    str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert python_files(str(tmp_path)) == ["proto_fbe.py", "protoex_fbe.py"]
    protoex, = load(str(tmp_path), "protoex")
    assert protoex.Balance.__mro__[1].__module__ == "proto_fbe"  # Balance(base) : proto.Balance


@pytest.mark.parametrize("option", [["--indent", "2"], ["--tabs"], ["--indent", "8"],
                                    ["--indent", "0"]])
def test_indentation_options(tmp_path, option):
    done = fastwire("compile", "schemas/protocol.fbe", "--lang", "python", *GOLDEN_OPTIONS,
                    *option, "-q", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "proto_fbe.py").read_text()
    width = int(option[1]) if option != ["--tabs"] else 0
    assert ("\n\tdef __init__(" in text) if option == ["--tabs"] else \
        (f"\n{' ' * (width or 4)}def __init__(" in text)
    proto, protocol = load(str(tmp_path), "proto", "protocol")
    sender = protocol.Sender()
    sender.send(protocol.OrderMessage(seed(proto).orders[0]))
    assert bytes(sender.buffer) == hex_vector("protocol.hex")[:64]


def test_modules_work_inside_a_package(tmp_path):
    pkg = tmp_path / "generated"
    done = fastwire("compile", "schemas/protocol.fbe", "--lang", "python", "--proto", "-q",
                    "-o", str(pkg))
    assert done.returncode == 0, done.stderr
    (pkg / "__init__.py").write_text("")
    sys.path[:0] = [str(tmp_path), os.path.join(REPO, "python")]
    try:
        protocol = importlib.import_module("generated.protocol_fbe")
        assert protocol._proto.__name__ == "generated.proto_fbe"
    finally:
        del sys.path[:2]
        for n in [n for n in sys.modules if n.startswith("generated")]:
            del sys.modules[n]


# A package named like a standard module (json), like a widely installed distribution
# (proto, from proto-plus) or like a keyword (class): its module is `<package>_fbe`, so
# the generated folder first on sys.path hides nothing and imports.
SHADOW_CHECK = """
import sys
import {package}_fbe as m
import json
assert json.__file__.startswith(sys.base_prefix) and json.loads("[1]") == [1], json.__file__
if "{package}" == "proto":
    import proto as other  # the stand-in for another distribution's module
    assert other.MINE is False
p = m.Point(x=5, label="q")
assert m.PointModel().deserialize(m.PointModel().serialize(p)) == p
assert m.PointFinalModel().deserialize(m.PointFinalModel().serialize(p)) == p
assert m.Point.from_json(json.dumps(json.loads(p.to_json()))) == p
assert m.Point().x == 1
print("ok")
"""


@pytest.mark.parametrize("package", ["json", "proto", "class"])
def test_package_named_like_another_module(tmp_path, package):
    schema = tmp_path / f"{package}.fbe"
    schema.write_text(f'package {package}\n\nstruct Point {{ int32 x = 1; string label = "p"; }}\n')
    out, other = tmp_path / "out", tmp_path / "site"
    done = fastwire("compile", str(schema), "--lang", "python", *GOLDEN_OPTIONS, "-q", "-o",
                    str(out))
    assert done.returncode == 0, done.stderr
    assert python_files(str(out)) == [f"{package}_fbe.py"]
    other.mkdir()
    if package == "proto":
        (other / "proto.py").write_text("MINE = False\n")
    path = os.pathsep.join([str(out), str(other), os.path.join(REPO, "python")])
    run = subprocess.run([sys.executable, "-c", SHADOW_CHECK.format(package=package)],
                         env=dict(os.environ, PYTHONPATH=path), capture_output=True, text=True)
    assert (run.returncode, run.stdout) == (0, "ok\n"), run.stderr


NAMES_SCHEMA = """
package names

enum Words : byte { None; mro; name; value; class; plain; __hidden; }
flags Bits { True = 1; lambda = 2; }

// Fields named like Python keywords and like the generated methods.
struct Awkward
{
    [key] int32 from;
    string class;
    Words import_ = Words.None;
    Bits self = Bits.True | Bits.lambda;
    string to_json = "x";
    double cls;
    int8 __private;
}

message HTTPRequest { Awkward body; }
message Empty {}
"""


def test_python_keywords_and_generated_names(tmp_path):
    schema = tmp_path / "names.fbe"
    schema.write_text(textwrap.dedent(NAMES_SCHEMA))
    done = fastwire("compile", str(schema), "--lang", "python", *GOLDEN_OPTIONS, "-q", "-o",
                    str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    (names,) = load(str(tmp_path / "out"), "names")
    assert [m.name for m in names.Words] == ["None_", "mro_", "name_", "value_", "class_",
                                             "plain", "m__hidden"]
    a = names.Awkward(from_=3, class_="c", self_=names.Bits.lambda_, f__private=-1)
    assert (a.from_, a.class_, a.import_, a.to_json_, a.cls, a.f__private) == \
        (3, "c", names.Words.None_, "x", 0.0, -1)
    # Schema names, not Python names, in the printout and in JSON.
    assert str(a) == ('Awkward(from=3,class="c",import_=None,self=lambda,to_json="x",cls=0,'
                      '__private=-1)')
    assert str(names.Awkward(import_=names.Words.m__hidden)).count("import_=__hidden") == 1
    assert a.to_json() == ('{"from":3,"class":"c","import_":0,"self":2,"to_json":"x",'
                           '"cls":0.0,"__private":-1}')
    assert names.Awkward.from_json(a.to_json()) == a
    assert names.AwkwardModel().deserialize(names.AwkwardModel().serialize(a)) == a
    assert hash(a) == hash(3)
    # Message hooks in snake_case.
    assert hasattr(names.Receiver, "on_receive_http_request")
    assert hasattr(names.Receiver, "on_receive_empty")


def test_generated_code_is_compact():
    """A guard against the generator growing code per field: the seed package stays
    small (it is read in reviews), and hot paths are one layout per struct."""
    with open(os.path.join(GOLDEN, "proto_fbe.py"), encoding="utf-8") as fh:
        text = fh.read()
    assert len(text.splitlines()) < 750
    # Per versioned body: a layout to write and read (the slots and the header of Account,
    # which are written apart, and read as one), one to verify; the runs of the final.
    assert text.count("_rt.layout(") == 2 + 2 + 4 + 6


def update() -> None:
    """Regenerates tests/golden/python from the schemas."""
    os.makedirs(GOLDEN, exist_ok=True)
    for name in python_files(GOLDEN):
        os.remove(os.path.join(GOLDEN, name))
    generate_golden(GOLDEN)
    print(f"regenerated {', '.join(python_files(GOLDEN))} in {os.path.relpath(GOLDEN, REPO)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python3 compiler/tests/test_python_generator.py --update")
    update()
