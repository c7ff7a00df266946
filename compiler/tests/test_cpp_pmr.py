"""The C++ generator's --pmr option: std::pmr strings and collections, allocator-aware
structs (cpp/include/fastwire/pmr.h; compiled and run by cpp/tests/pmr and the cpp-pmr
conformance testee)."""

import os
import subprocess
import sys

from fastwire import Reporter, compile_schema, lower
from fastwire.generators import Options
from fastwire.generators.cpp import generate as cpp_generate

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def generate(schema_name, **options):
    reporter = Reporter()
    schema = compile_schema(os.path.join(REPO, "schemas", schema_name), reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics]
    return cpp_generate(lower.lower(schema), Options(**options))


def struct_text(header, name):
    start = header.index(f"struct {name} ")
    return header[start:header.index("\n};\n", start)]


def test_without_the_option_nothing_changes():
    for text in generate("everything.fbe", final=True, json=True, proto=True).values():
        assert "pmr" not in text


def test_types_and_allocator_constructors():
    plain = generate("everything.fbe")
    files = generate("everything.fbe", cpp_pmr=True)
    assert sorted(files) == sorted(plain)
    assert "#include <fastwire/pmr.h>" in files["proto.h"]
    order = struct_text(files["proto.h"], "Order")
    assert "std::pmr::string symbol" in order
    assert "using allocator_type = fastwire::pmr::allocator;" in order
    assert "explicit Order(const allocator_type& alloc)" in order
    assert "Order(const Order& other, const allocator_type& alloc)" in order
    assert "Order(Order&& other, const allocator_type& alloc)" in order
    assert "const allocator_type& alloc = {})" in order  # the all-fields constructor's last
    collections = struct_text(files["everything.h"], "Collections")
    for spelling in ("std::pmr::vector<", "std::pmr::list<", "std::pmr::set<", "std::pmr::map<",
                     "std::pmr::unordered_map<"):
        assert spelling in collections
    assert "fastwire::bytes" in collections  # bytes stays: not allocator-aware
    # A struct of numbers only takes no allocator; a derived one passes it to its base.
    assert "allocator_type" not in struct_text(files["everything.h"], "Fixed")
    assert "Derived(const allocator_type& alloc)\n        : Base(alloc)" in \
        files["everything.h"]
    # Defaults are made with the allocator.
    assert 'f_string(fastwire::pmr::make<std::optional<std::pmr::string>>(alloc, "maybe"))' in \
        files["everything.h"]


def test_views_name_the_std_types():
    files = generate("everything.fbe", cpp_pmr=True)
    assert files["everything_models.h"] == generate("everything.fbe")["everything_models.h"]


def test_both_command_lines_take_the_option(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    schema = os.path.join(REPO, "schemas", "proto.fbe")
    for args in (["compile", schema, "--lang", "cpp", "--pmr", "-q", "-o", str(tmp_path / "a")],
                 ["--cpp", "--pmr", f"--input={schema}", f"--output={tmp_path / 'b'}"]):
        done = subprocess.run([sys.executable, "-m", "fastwire", *args], env=env,
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    for out in ("a", "b"):
        assert "std::pmr::string" in (tmp_path / out / "proto.h").read_text()
