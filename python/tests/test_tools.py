"""fastwire decode, encode and explain (docs/tools.md; fastwire_runtime/tools.py): the seed
vectors through the command line, and every malformed input ending in one line and exit
status 1.

They run as a user with both packages installed runs them, `fastwire decode ...`: the
compiler's command finds the runtime's through the entry point the runtime's pyproject.toml
registers, here from a stand-in of the installed runtime's metadata (a dist-info folder
with that entry point table) on PYTHONPATH, beside compiler/ and python/."""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import List, Optional, Tuple

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
VECTORS = os.path.join(REPO, "tests", "vectors")
PROTO = "schemas/proto.fbe"


def entry_points_txt() -> str:
    """python/pyproject.toml's [project.entry-points."fastwire.commands"] table, as the
    entry_points.txt of an installed distribution."""
    with open(os.path.join(REPO, "python", "pyproject.toml"), encoding="utf-8") as fh:
        text = fh.read()
    table = text.split('[project.entry-points."fastwire.commands"]\n', 1)[1].split("\n[", 1)[0]
    lines = [m.group(1) + " = " + m.group(2) for m in
             re.finditer(r'^(\w+) = "([\w.]+:\w+)"$', table, re.M)]
    assert len(lines) == 3, table
    return "[fastwire.commands]\n" + "\n".join(lines) + "\n"


def _installed_metadata() -> str:
    root = tempfile.mkdtemp(prefix="fastwire-dist-")
    atexit.register(shutil.rmtree, root, True)
    info = os.path.join(root, "fastwire_fbe_runtime-0.1.0.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w", encoding="utf-8") as fh:
        fh.write("Metadata-Version: 2.1\nName: fastwire-fbe-runtime\nVersion: 0.1.0\n")
    with open(os.path.join(info, "entry_points.txt"), "w", encoding="utf-8") as fh:
        fh.write(entry_points_txt())
    return root


ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [os.path.join(REPO, "compiler"), os.path.join(REPO, "python"), _installed_metadata()]))


def fastwire(*args: str, stdin: Optional[bytes] = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastwire", *args], cwd=REPO, input=stdin,
                          capture_output=True, env=ENV, timeout=60)


def vector(name: str) -> bytes:
    with open(os.path.join(VECTORS, name), "rb") as fh:
        return fh.read()


def vector_bytes(name: str) -> bytes:
    return bytes.fromhex(vector(name).decode())


def one_line_error(r: subprocess.CompletedProcess, command: str, *fragments: str) -> str:
    """The failure is exit 1 and one line (after any schema diagnostics), no traceback."""
    err = r.stderr.decode()
    assert r.returncode == 1, (r.returncode, err)
    assert "Traceback" not in err and "internal error" not in err, err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"fastwire {command}: error: "), err
    for f in fragments:
        assert f in last, (f, last)
    return last


# ---- decode ----------------------------------------------------------------------------------

@pytest.mark.parametrize("final", [False, True])
def test_decode_seed_account(final):
    name = "account.final.hex" if final else "account.fbe.hex"
    args = ["decode", "--schema", PROTO, "--type", "proto.Account",
            f"tests/vectors/{name}"] + (["--final"] if final else [])
    r = fastwire(*args)
    assert r.returncode == 0, r.stderr
    assert r.stdout == vector("account.json") + b"\n"
    r = fastwire(*args, "--pretty")
    assert r.stdout == vector("account.pretty.json") + b"\n"


def test_decode_raw_bytes_from_stdin_and_offset():
    data = vector_bytes("order.fbe.hex")
    r = fastwire("decode", "--schema", PROTO, "--type", "Order", "-", stdin=data)
    assert r.stdout == vector("order.json") + b"\n", r.stderr
    r = fastwire("decode", "--schema", PROTO, "--type", "Order", "--offset", "3", "--raw", "-",
                 stdin=b"abc" + data)
    assert r.stdout == vector("order.json") + b"\n", r.stderr


def test_decode_with_ir_json_schema(tmp_path):
    r = fastwire("compile", PROTO, "--emit", "ir-json", "-q", "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    r = fastwire("decode", "--schema", str(tmp_path / "proto.ir.json"), "--type", "Account",
                 "tests/vectors/account.fbe.hex")
    assert r.stdout == vector("account.json") + b"\n", r.stderr


@pytest.mark.parametrize("final", [False, True])
def test_decode_stream(final):
    name = "protocol.final.hex" if final else "protocol.hex"
    r = fastwire("decode", "--schema", "schemas/protocol.fbe", "--stream",
                 f"tests/vectors/{name}", *(["--final"] if final else []))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert [m["type"] for m in lines] == ["protocol.OrderMessage", "protocol.BalanceMessage",
                                          "protocol.AccountMessage"]
    assert lines[0]["offset"] == 0 and lines[1]["offset"] == lines[0]["size"]
    account = json.loads(vector("account.json"))
    assert lines[2]["value"]["body"] == account


def test_decode_truncated_every_length(tmp_path):
    data = vector_bytes("account.fbe.hex")
    for n in (0, 7, 8, 20, 100, 251):
        r = fastwire("decode", "--schema", PROTO, "--type", "Account", "--raw", "-",
                     stdin=data[:n])
        one_line_error(r, "decode", "truncated")


def test_decode_corrupted_names_offset_and_field():
    data = bytearray(vector_bytes("account.fbe.hex"))
    data[0x6c] = 0x10  # orders[0]'s offset now points back into the body
    r = fastwire("decode", "--schema", PROTO, "--type", "Account", "--raw", "-",
                 stdin=bytes(data))
    one_line_error(r, "decode", "byte 108 (0x6c)", "Account.orders[0]", "bad_offset")
    data = bytearray(vector_bytes("account.final.hex"))
    data[0x34] = 0xff  # the orders count
    r = fastwire("decode", "--schema", PROTO, "--type", "Account", "--final", "--raw", "-",
                 stdin=bytes(data))
    one_line_error(r, "decode", "0x34", "Account.orders", "truncated")


def test_decode_stream_errors():
    data = vector_bytes("protocol.hex")
    r = fastwire("decode", "--schema", "schemas/protocol.fbe", "--stream", "--raw", "-",
                 stdin=data[:-5])
    one_line_error(r, "decode", "truncated")
    bad = bytearray(data)
    bad[64 + 16] = 0x99  # the BalanceMessage's body offset
    r = fastwire("decode", "--schema", "schemas/protocol.fbe", "--stream", "--raw", "-",
                 stdin=bytes(bad))
    one_line_error(r, "decode", "BalanceMessage.body")


def test_bad_schema_type_and_hex():
    hexfile = "tests/vectors/account.fbe.hex"
    r = fastwire("decode", "--schema", "schemas/nope.fbe", "--type", "Account", hexfile)
    one_line_error(r, "decode", "no such file")
    r = fastwire("decode", "--schema", PROTO, "--type", "proto.Acount", hexfile)
    one_line_error(r, "decode", "unknown type 'proto.Acount'", "proto.Account")
    r = fastwire("decode", "--schema", PROTO, hexfile)
    one_line_error(r, "decode", "--type")
    r = fastwire("decode", "--schema", PROTO, "--type", "Account", "--hex", "-", stdin=b"fc 0")
    one_line_error(r, "decode", "odd number")
    r = fastwire("decode", "--schema", PROTO, "--type", "Account", "--hex", "-", stdin=b"zz")
    one_line_error(r, "decode", "not hex")
    r = fastwire("decode", "--schema", PROTO, "--type", "Account", "missing.bin")
    one_line_error(r, "decode", "cannot read")


def test_bad_schema_text(tmp_path):
    bad = tmp_path / "bad.fbe"
    bad.write_text("package bad\nstruct A { int32 a = \"s\"; }\n")
    for command in ("decode", "encode", "explain"):
        r = fastwire(command, "--schema", str(bad), "--type", "A", "-", stdin=b"{}")
        one_line_error(r, command, "1 error")
        assert "bad.fbe:2:" in r.stderr.decode()  # the compiler's diagnostic first
    r = fastwire("decode", "--schema", str(tmp_path / "x.json"), "--type", "A", "-")
    one_line_error(r, "decode", "no such file")
    (tmp_path / "x.json").write_text('{"format": "other"}')
    r = fastwire("decode", "--schema", str(tmp_path / "x.json"), "--type", "A", "-")
    one_line_error(r, "decode", "not a fastwire IR document")


def test_usage_errors_exit_2():
    r = fastwire("decode", "--type", "Account", "x")
    assert r.returncode == 2 and "--schema" in r.stderr.decode()
    assert "Traceback" not in r.stderr.decode()


# ---- encode ----------------------------------------------------------------------------------

@pytest.mark.parametrize("final", [False, True])
def test_encode_seed_account(final):
    args = ["encode", "--schema", PROTO, "--type", "proto.Account", "tests/vectors/account.json"]
    r = fastwire(*args, *(["--final"] if final else []))
    assert r.returncode == 0, r.stderr
    assert r.stdout == vector_bytes("account.final.hex" if final else "account.fbe.hex")
    if not final:
        r = fastwire(*args, "--hex")
        assert r.stdout.split() == vector("account.fbe.hex").split()


def test_encode_bad_json():
    for text, fragment in ((b'{"uid": "one"}', "int32 expected"),
                           (b'{"uid": ', "invalid_argument"),
                           (b'[1, 2]', "expects an object"),
                           (b'{"uid": 4294967296}', "does not fit int32"),
                           (b'\xff\xfe', "not a proto.Account")):
        r = fastwire("encode", "--schema", PROTO, "--type", "Account", "-", stdin=text)
        one_line_error(r, "encode", fragment)


def test_encode_then_decode_round_trip(tmp_path):
    out = tmp_path / "order.bin"
    r = fastwire("encode", "--schema", PROTO, "--type", "Order", "tests/vectors/order.json",
                 "-o", str(out))
    assert r.returncode == 0, r.stderr
    r = fastwire("decode", "--schema", PROTO, "--type", "Order", str(out))
    assert r.stdout == vector("order.json") + b"\n"


# ---- explain ---------------------------------------------------------------------------------

def explain(*args: str, stdin: Optional[bytes] = None) -> List[str]:
    r = fastwire("explain", "--schema", PROTO, "--type", "Account", *args, stdin=stdin)
    assert r.returncode == 0, r.stderr
    return r.stdout.decode().splitlines()


def test_explain_reproduces_the_wire_format_doc():
    """docs/wire-format.md's annotated seed account is this command's output."""
    lines = explain("tests/vectors/account.fbe.hex")
    with open(os.path.join(REPO, "docs", "wire-format.md"), encoding="utf-8") as fh:
        doc = fh.read()
    start = doc.index("fastwire explain --schema schemas/proto.fbe --type proto.Account "
                      "tests/vectors/account.fbe.hex")
    block = doc[doc.index("```text\n", start) + 8:]
    block = block[:block.index("```")]
    assert block.splitlines() == lines
    assert not any("!!" in line for line in lines)  # every byte read once


def test_explain_final_covers_every_byte():
    lines = explain("--final", "tests/vectors/account.final.hex")
    assert lines[0].startswith("00  98000000 03000000")
    assert not any("!!" in line for line in lines)


def test_explain_flags_unreachable_and_shared_bytes():
    data = bytearray(vector_bytes("account.fbe.hex"))
    # wallet's offset -> the asset's body: that body read twice, the wallet's own body
    # left unreachable; the budget is the same, so it verifies.
    data[0x19] = 0x45  # wallet -> 8+69 = 77, the asset's body
    lines = explain("--raw", "-", stdin=bytes(data))
    text = "\n".join(lines)
    assert "!! unreachable" in text and "!! read again" in text


def test_explain_malformed_exits_1_and_shows_where():
    data = vector_bytes("account.fbe.hex")[:100]
    r = fastwire("explain", "--schema", PROTO, "--type", "Account", "--raw", "-", stdin=data)
    one_line_error(r, "explain", "malformed")
    assert "!! error at" in r.stdout.decode()


def test_explain_stream():
    r = fastwire("explain", "--schema", "schemas/protocol.fbe", "--stream",
                 "tests/vectors/protocol.hex")
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert out.count("== message at") == 3 and "!!" not in out


# ---- docs/tools.md: every example runs and prints what the page shows -------------------------

def doc_examples(text: str) -> List[Tuple[str, str, str]]:
    """(kind, code, output shown) of each example of docs/tools.md: a `$ command` of a
    console block with the lines after it, or a python block with the text block after it."""
    out: List[Tuple[str, str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("```console") or lines[i].startswith("```python"):
            kind = lines[i][3:]
            j = lines.index("```", i + 1)
            body = lines[i + 1:j]
            if kind == "console":
                for line in body:
                    if line.startswith("$ "):
                        out.append(("console", line[2:], ""))
                    else:
                        k, code, shown = out[-1]
                        out[-1] = (k, code, shown + line + "\n")
            else:
                assert lines[j + 1] == "```text", "a python example is followed by its output"
                end = lines.index("```", j + 2)
                out.append(("python", "\n".join(body) + "\n",
                            "".join(line + "\n" for line in lines[j + 2:end])))
                j = end
            i = j + 1
        else:
            i += 1
    return out


def run_example(kind: str, code: str) -> str:
    env = ENV
    if kind == "python":
        subprocess.run([sys.executable, "-m", "fastwire", "compile", PROTO, "--emit", "ir-json",
                        "-q", "-o", "build/ir"], cwd=REPO, env=env, check=True)
        r = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        return r.stdout
    script = f'fastwire() {{ "{sys.executable}" -m fastwire "$@"; }}\n{{ {code} ; }} 2>&1\n'
    r = subprocess.run(["bash", "-c", script], cwd=REPO, env=env, capture_output=True,
                       text=True, timeout=60)
    return r.stdout


def test_docs_tools_examples():
    with open(os.path.join(REPO, "docs", "tools.md"), encoding="utf-8") as fh:
        examples = doc_examples(fh.read())
    assert len(examples) >= 10
    commands = " ".join(code for _, code, _ in examples)
    for command in ("decode", "encode", "explain", "compat", "--stream"):
        assert f"fastwire {command}" in commands or command in commands
    for kind, code, shown in examples:
        assert run_example(kind, code) == shown, code


@pytest.mark.parametrize("command", ["decode", "encode", "explain"])
def test_wrong_type_name_every_command(command):
    r = fastwire(command, "--schema", PROTO, "--type", "Nope", "tests/vectors/account.json")
    one_line_error(r, command, "unknown type 'Nope'")


def test_explain_corrupted_and_final_truncated():
    data = bytearray(vector_bytes("account.fbe.hex"))
    data[0x0c] = 9  # the root body's type number
    r = fastwire("explain", "--schema", PROTO, "--type", "Account", "--raw", "-", stdin=bytes(data))
    one_line_error(r, "explain", "malformed")
    assert "!! error at 04 (Account): bad_type" in r.stdout.decode()
    final = vector_bytes("account.final.hex")
    r = fastwire("explain", "--schema", PROTO, "--type", "Account", "--final", "--raw", "-",
                 stdin=final[:60])
    one_line_error(r, "explain", "malformed")


def test_mutations_end_in_a_value_or_one_error(tmp_path):
    """Random byte changes and cuts of the seed vectors, through decode's reader in-process:
    a value, or a ToolError naming the place; never another exception."""
    import random

    from fastwire_runtime.tools import ToolError, _read, load_schema
    r = fastwire("compile", PROTO, "--emit", "ir-json", "-q", "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    schema = load_schema(str(tmp_path / "proto.ir.json"))  # IR JSON: no compiler in-process
    rng = random.Random(18)
    for name, final in (("account.fbe.hex", False), ("account.final.hex", True)):
        seed = vector_bytes(name)
        for _ in range(400):
            data = bytearray(seed)
            for _ in range(rng.randint(1, 4)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            if rng.random() < 0.3:
                del data[rng.randrange(len(data)):]
            try:
                _read(schema, "proto.Account", bytes(data), 0, final, "x")
            except ToolError as err:
                assert str(err).startswith("x: byte "), err  # the walk found the place


def test_stream_with_a_type_no_package_sends_and_bytes_after_a_model():
    data = vector_bytes("protocol.final.hex") + bytes.fromhex("0800000063000000")
    r = fastwire("decode", "--schema", "schemas/protocol.fbe", "--stream", "--final", "--raw", "-",
                 stdin=data)
    assert r.returncode == 0, r.stderr
    last = json.loads(r.stdout.decode().splitlines()[-1])
    assert last == {"offset": len(data) - 8, "size": 8, "type_number": 99, "type": None,
                    "value": None}
    r = fastwire("explain", "--schema", "schemas/protocol.fbe", "--stream", "--final", "--raw",
                 "-", stdin=data)
    assert f"== message at {len(data) - 8}: type 99, not in the schema, 8 bytes" in r.stdout.decode()
    r = fastwire("decode", "--schema", PROTO, "--type", "Order", "--raw", "-",
                 stdin=vector_bytes("order.fbe.hex") + b"\0\0")
    assert r.returncode == 0 and r.stdout == vector("order.json") + b"\n"
    assert "2 bytes after the model (at 52) not read" in r.stderr.decode()


@pytest.mark.parametrize("final", [False, True])
def test_encode_stream_is_decode_stream_reversed(final):
    name = "protocol.final.hex" if final else "protocol.hex"
    flag = ["--final"] if final else []
    decoded = fastwire("decode", "--schema", "schemas/protocol.fbe", "--stream", *flag,
                       f"tests/vectors/{name}")
    r = fastwire("encode", "--schema", "schemas/protocol.fbe", "--stream", *flag, "-",
                 stdin=decoded.stdout)
    assert r.returncode == 0, r.stderr
    assert r.stdout == vector_bytes(name)


def test_encode_stream_errors():
    schema = ["--schema", "schemas/protocol.fbe", "--stream", "-"]
    for text, fragment in ((b'{"type": "protocol.OrderMessage"}\n', "-:1: expected"),
                           (b'\n{"type": "Nope", "value": {}}', "-:2: unknown type 'Nope'"),
                           (b'{"type": "protocol.OrderMessage", "value": {"body": 1}}',
                            "-:1: not a protocol.OrderMessage in JSON"),
                           (b'{"type": ', "-:1: "),
                           (b'\xff', "not UTF-8")):
        one_line_error(fastwire("encode", *schema, stdin=text), "encode", fragment)


# ---- where the commands live ------------------------------------------------------------------

def _python(args: List[str], path: List[str], stdin: Optional[bytes] = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(os.path.join(REPO, p) for p in path))
    return subprocess.run([sys.executable, *args], cwd=REPO, input=stdin, capture_output=True,
                          env=env, timeout=60)


def test_the_runtime_runs_them_itself():
    """python -m fastwire_runtime.tools: the same commands, without the `fastwire` command."""
    args = ["decode", "--schema", PROTO, "--type", "proto.Account", "tests/vectors/account.fbe.hex"]
    r = _python(["-m", "fastwire_runtime.tools", *args], ["compiler", "python"])
    assert (r.returncode, r.stdout, r.stderr) == (0, vector("account.json") + b"\n", b"")
    r = _python(["-m", "fastwire_runtime.tools", "compat"], ["python"])
    assert (r.returncode, r.stderr) == (2, b"python -m fastwire_runtime.tools: error: expected a "
                                           b"command: decode, encode or explain\n")
    r = _python(["-m", "fastwire_runtime.tools", "decode", "--help"], ["python"])
    assert r.returncode == 0 and r.stdout.startswith(b"usage: fastwire decode ")


def test_the_runtime_alone_reads_ir_json_and_names_the_compiler_for_fbe(tmp_path):
    r = fastwire("compile", PROTO, "--emit", "ir-json", "-q", "-o", str(tmp_path))
    assert r.returncode == 0, r.stderr
    ir = str(tmp_path / "proto.ir.json")
    r = _python(["-m", "fastwire_runtime.tools", "decode", "--schema", ir, "--type", "Account",
                 "tests/vectors/account.fbe.hex"], ["python"])
    assert (r.returncode, r.stdout, r.stderr) == (0, vector("account.json") + b"\n", b"")
    r = _python(["-m", "fastwire_runtime.tools", "decode", "--schema", PROTO, "--type", "Account",
                 "tests/vectors/account.fbe.hex"], ["python"])
    assert (r.returncode, r.stdout) == (1, b"")
    assert r.stderr.decode() == (f"fastwire decode: error: schema '{PROTO}': compiling a .fbe schema "
                                 f"needs the compiler (pip install fastwire-fbe); or give its IR "
                                 f"JSON (fastwire compile SCHEMA --emit ir-json)\n")
    # and the runtime, imported, brings no compiler with it
    r = _python(["-c", "import sys, fastwire_runtime.tools, fastwire_runtime.dynamic; "
                       "print(sorted(m for m in sys.modules if m.split('.')[0] == 'fastwire'))"],
                ["compiler", "python"])
    assert r.stdout == b"[]\n", r.stderr


def test_a_compiler_of_another_ir_version_is_one_line(monkeypatch):
    """The runtime's tools and the compiler are installed apart: a compiler writing an IR
    version this runtime does not read is a schema error, not a traceback."""
    monkeypatch.syspath_prepend(os.path.join(REPO, "compiler"))
    import fastwire.ir_json
    from fastwire_runtime import dynamic, tools
    real = fastwire.ir_json.to_dict
    monkeypatch.setattr(fastwire.ir_json, "to_dict", lambda schema: dict(real(schema), version=99))
    with pytest.raises(tools.ToolError) as err:
        tools.load_schema(os.path.join(REPO, PROTO))
    with pytest.raises(dynamic.SchemaError) as direct:  # what the runtime says of version 99
        dynamic.Schema('{"format": "fastwire-ir", "version": 99}')
    assert str(direct.value).startswith("IR version 99 (this runtime reads ")
    assert str(err.value) == f"schema '{os.path.join(REPO, PROTO)}': {direct.value}"
