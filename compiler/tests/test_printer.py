"""The template printer that generators write code with."""

import pytest

from fastwire.generators.printer import Printer


def test_substitution_dedent_and_indent():
    p = Printer(indent=4)
    with p.block("namespace $ns$ {", "}", ns="proto"):
        p.print("""
            struct $name$ {
                $type$ value; // costs $$1
            };
        """, name="Order", type="int32_t")
    assert p.text() == ("namespace proto {\n"
                        "    struct Order {\n"
                        "        int32_t value; // costs $1\n"
                        "    };\n"
                        "}\n")


def test_tabs_and_two_space_indent():
    p = Printer(tabs=True)
    with p.block("a {", "}"):
        p.print("b {\n    c;\n}")
    assert p.text() == "a {\n\tb {\n\t\tc;\n\t}\n}\n"
    q = Printer(indent=2)
    with q.block("a {", "}"):
        q.print("b;")
    assert q.text() == "a {\n  b;\n}\n"


def test_multiline_value_keeps_column():
    p = Printer()
    p.print("f($args$);", args="a,\nb")
    assert p.text() == "f(a,\n  b);\n"


def test_missing_variable_and_bad_outdent():
    p = Printer()
    with pytest.raises(KeyError):
        p.print("$nope$")
    with pytest.raises(ValueError):
        p.outdent()


def test_blank_lines_collapse():
    p = Printer()
    p.print("a;")
    p.blank()
    p.blank()
    p.print("b;")
    p.blank()
    assert p.text() == "a;\n\nb;\n"
