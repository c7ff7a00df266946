"""The parser's fast path for plain fields (`Parser._plain_field`: `Type name;`,
`Type name = 12;`, `Type name = "text";`) makes exactly the syntax tree, and so exactly
the diagnostics, that the general path (`parse_field`) makes of the same text."""

from __future__ import annotations

import glob
import os

import pytest

from fastwire import parser as parser_module
from fastwire.diagnostics import Reporter, SourceFile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Fields the fast path takes, fields it must leave to parse_field, and fields in between.
EDGES = """package edges

// A doc comment on a struct
struct Plain
{
    int32 a;
    int32 b = 5;
    int32 c=05;
    int64 d = -0;
    int64 e = -9223372036854775808;
    int8 f = 999999999999999999;
    int8 g = 9999999999999999999;
    string h = "x";
    string i = "";
    string j = "tab\there";
    string k = "esc\\"aped";
    string l = "esc\\nn";
    // a doc comment on a field
    bytes m;
    double n ;
    float o	=	1;
    Other p;
    Other q = 3;
    uuid id;
    uuid [id] = uuid1;
    int32
        r;
    int32 s /* comment */ ;
    [key] int32 t;
    int32 u = 0x10;
    int32 v = 12abc;
    int32 w = - 5;
    int32 x = 1.5;
    int32 struct;
    struct y;
    int32 z.w;
    int32? opt;
    int32[] vec;
    int32?[] optvec;
    Other? o1;
    Other[] v1;
    Other?[]v2;
    int32? o2 = null;
    int32? o3 = 7;
    int32[]? bad1;
    int32? [] spaced;
    int32 ?spaced2;
    int32[4] arr;
    int32[]x;
    int32 unterminated = "abc;
    int32 after;
}

enum Other { one, two }
"""


def _parse(path: str, text: str, fast: bool, monkeypatch):
    if not fast:
        monkeypatch.setattr(parser_module.Parser, "_plain_field", lambda self: None)
    reporter = Reporter()
    source = SourceFile(path, text)
    tree = parser_module.Parser(source, reporter).parse_file()
    monkeypatch.undo()
    return tree, [(d.severity, d.message, str(d.location), getattr(d.location, "length", 0))
                  for d in reporter.diagnostics]


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(REPO, "schemas", "*.fbe")))
                         + ["edges.fbe"])
def test_fast_path_makes_the_same_tree_and_diagnostics(path, monkeypatch):
    text = EDGES if path == "edges.fbe" else open(path, encoding="utf-8").read()
    fast = _parse(path, text, True, monkeypatch)
    slow = _parse(path, text, False, monkeypatch)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0]


def test_the_fast_path_is_taken(monkeypatch):
    taken = []
    original = parser_module.Parser._plain_field

    def spy(self):
        field = original(self)
        taken.append(field is not None)
        return field

    monkeypatch.setattr(parser_module.Parser, "_plain_field", spy)
    Parser = parser_module.Parser
    Parser(SourceFile("t.fbe", "package t\nstruct S { int32 a; string b = \"x\"; S? c; }\n"),
           Reporter()).parse_file()
    assert taken == [True, True, True]
