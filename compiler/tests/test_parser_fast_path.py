"""The parser's fast path for plain fields (`Parser._plain_fields`: `Type name;`, `Type?
name = 12;`, `Type<Key> name;`, `Type name = Enum.value;` and the like, read without
tokens) makes exactly the syntax tree, and so exactly the diagnostics, that the general
path (`parse_field`) makes of the same text."""

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
    Other<int32> m1;
    Other{string} h1;
    Other < int32 > m2;
    Other?<int32> m3;
    Other<int32?> m4;
    Other<struct> m5;
    Other<pkg.K> m6;
    Other! s1;
    Other?! s2;
    Other() l1;
    Other ( ) l2;
    int32[ 4 ] a1;
    int32[0] a2;
    int32[04] a3;
    int32[99999999999] a4;
    int32~ r1;
    double d1 = 1.5;
    double d2 = -0.25;
    double d3 = 1.;
    double d4 = 1.5e3;
    double d5 = 1.5.3;
    Other e1 = Other.one;
    Other e2 = edges.Other.two;
    Other e3 = Other.one | Other.two;
    Other e4 = a.b.c.d;
    Other e5 = Other . one;
    Other e6 = Other.struct;
    Other e7 = one;
    bool b1 = true;
    bool b2 = false;
    bool b3 = true.x;
    uuid u1 = uuid4;
    timestamp t1 = utc;
    int32? n1 = null;
    int32 k1 = min;
    int32 k2 = struct;
    pkg.Other p1;
    int32 x1; int32 x2;int32 x3 = 1;
	int32 tabbed;
    int32 crlf;\r
    Other<int32} m7;
    int32 last}

enum Other { one, two }
"""


def _parse(path: str, text: str, fast: bool, monkeypatch):
    if not fast:
        monkeypatch.setattr(parser_module.Parser, "_plain_fields", lambda self, out: False)
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
    original = parser_module.Parser._plain_fields

    def spy(self, out):
        before = len(out)
        found = original(self, out)
        taken.append(len(out) - before)
        return found

    monkeypatch.setattr(parser_module.Parser, "_plain_fields", spy)
    Parser = parser_module.Parser
    Parser(SourceFile("t.fbe", "package t\nstruct S { int32 a; string b = \"x\"; S? c;\n"
                      "  S<int32> m; S! s; double d = 1.5; E e = E.x; uuid u = uuid4; }\n"),
           Reporter()).parse_file()
    assert taken == [8]  # every field in one call, none through parse_field
