"""Hostile schemas (issue #13): each is an error at file:line:col with exit status 1,
never an internal error (exit 70) or a hang, and costs time in proportion to its length."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fastwire.resolver import MAX_NESTING

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HANG_GUARD = 60  # seconds: a guard against a hang only (each case needs well under 1 s)


def check(tmp_path, text, *extra):
    path = tmp_path / "h.fbe"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    r = subprocess.run([sys.executable, "-m", "fastwire", *(extra or ("check",)), str(path)],
                       env=env, capture_output=True, text=True, timeout=HANG_GUARD)
    return r.returncode, r.stderr.splitlines()[0] if r.stderr else "", str(path)


@pytest.mark.parametrize("literal", ["1e999999999", "0e999999999", "1e-999999999",
                                     "9" * 90 + "e999999"])
def test_decimal_default_with_a_huge_exponent(tmp_path, literal):
    code, first, path = check(tmp_path, f"package p\nstruct A {{ decimal z = {literal}; }}\n")
    if literal.startswith("0e"):
        assert code == 0
    else:
        assert code == 1 and first.startswith(f"{path}:2:24: error: default "), first


def test_decimal_defaults_keep_their_meaning(tmp_path):
    from fastwire import Reporter, compile_schema
    path = tmp_path / "d.fbe"
    path.write_text("package p\nstruct A { decimal a = 1.50; decimal b = 12e3; decimal c = -0.0; "
                    "decimal d = 79228162514264337593543950335; decimal e = 0.1e-27; }\n")
    schema = compile_schema(str(path), Reporter())
    fields = schema.packages[0].types[0].fields
    assert [f.default.value for f in fields] == ["1.5", "12000", "0.0",
                                                 "79228162514264337593543950335",
                                                 "0.0000000000000000000000000001"]


@pytest.mark.parametrize("digits", [101, 5000])
def test_integer_default_of_many_digits(tmp_path, digits):
    code, first, path = check(tmp_path, "package p\nstruct A { int64 z = " + "9" * digits + "; }\n")
    assert (code, first) == (1, f"{path}:2:22: error: a number of {digits} digits; at most 100 "
                                f"are accepted")


def test_long_version_is_an_error(tmp_path):
    code, first, path = check(tmp_path, "package p\nversion " + "1" * 5000 + ".0;\n")
    assert code == 1 and first.startswith(f"{path}:2:9: error:"), first


def chain(n, how):
    if how == "field":
        return "package p\nstruct A0 { int32 v; }\n" + "".join(
            f"struct A{i} {{ A{i - 1} x; }}\n" for i in range(1, n))
    if how == "next":  # each holds the next, declared after it
        return "package p\n" + "".join(f"struct A{i} {{ A{i + 1} x; }}\n" for i in range(n - 1)) \
            + f"struct A{n - 1} {{ int32 v; }}\n"
    if how == "vector":
        return "package p\nstruct A0 { int32 v; }\n" + "".join(
            f"struct A{i} {{ A{i - 1}[] x; }}\n" for i in range(1, n))
    return "package p\nstruct A0 { int32 v; }\n" + "".join(  # inheritance
        f"struct A{i} : A{i - 1} {{ int32 v{i}; }}\n" for i in range(1, n))


@pytest.mark.parametrize("how", ["field", "next", "vector", "base"])
def test_nesting_beyond_the_limit_is_an_error(tmp_path, how):
    code, first, path = check(tmp_path, chain(3000, how))
    assert code == 1, first
    line = MAX_NESTING + 2 if how != "next" else 2
    assert first.startswith(f"{path}:{line}:8: error: struct 'A"), first
    assert first.endswith(f"levels deep (through its fields and bases); the limit is "
                          f"{MAX_NESTING}"), first


@pytest.mark.parametrize("lang", ["cpp", "python"])
@pytest.mark.parametrize("how", ["field", "next", "base"])
def test_nesting_at_the_limit_generates(tmp_path, how, lang):
    # The generators walk nesting recursively: the limit must leave them room.
    code, first, _ = check(tmp_path, chain(MAX_NESTING, how), "compile", "--lang", lang,
                           "-q", "-o", str(tmp_path / "out"))
    assert code == 0, first


def test_recursive_group_counts_its_size(tmp_path):
    # A and B reach each other through vectors: two levels, however deep the data.
    code, first, _ = check(tmp_path, "package p\nstruct A { B[] b; }\nstruct B { A[] a; }\n")
    assert code == 0, first
