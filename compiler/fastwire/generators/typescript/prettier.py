"""Lines laid out as prettier (printWidth 120, tabWidth of the indent) lays them out: a
call too long for a line gets one argument a line; an arrow function whose expression
body is too long continues on the next line; a parameter list too long gets one
parameter a line."""

from __future__ import annotations

from typing import Iterator, List, Tuple

from ..printer import Printer

WIDTH = 120


def finish(p: Printer) -> str:
    """The module's text: `p`'s lines, each too long for WIDTH laid out again."""
    out: List[str] = []
    for line in p.lines:
        out.extend(fit(line, p.unit))
    return "\n".join(out) + "\n"


def outside(text: str, start: int = 0) -> Iterator[Tuple[int, str]]:
    """The indices and characters of `text` from `start` that are outside string literals."""
    quote, i = "", start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'`":
            quote = c
        else:
            yield i, c
        i += 1


def split_top(text: str) -> List[str]:
    """`text` split at the commas outside brackets and strings."""
    parts, depth, start = [], 0, 0
    for i, c in outside(text):
        if c in "([{<" and not (c == "<" and text[i - 1:i] == " "):
            depth += 1
        elif c in ")]}>" and not (c == ">" and text[i - 1:i] in ("=", " ")):
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [x for x in parts if x]


def matching(text: str, open_at: int) -> int:
    """The index of the bracket closing the one at `open_at` (-1: none)."""
    depth = 0
    for i, c in outside(text, open_at):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def fit(line: str, unit: str) -> List[str]:
    if len(line) <= WIDTH or line.lstrip().startswith(("//", "/*", "*")):
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    body = line.lstrip()
    # an arrow function: the parameters, or the expression body, on lines of their own
    if "= (" in body and " => " in body:
        open_at = body.index("= (") + 2
        close = matching(body, open_at)
        head, params, rest = body[:open_at + 1], body[open_at + 1:close], body[close:]
        if rest.endswith("{"):
            return [indent + head] + [indent + unit + a + "," for a in split_top(params)] + [indent + rest]
        at = body.index(" => ") + 4
        first = indent + body[:at - 1]
        if len(first) <= WIDTH:
            return [first] + fit(indent + unit + body[at:], unit)
    # a call statement: one argument a line
    if body.endswith(");"):
        close = len(body) - 2
        depth, i = 0, close
        while i >= 0:
            if body[i] == ")":
                depth += 1
            elif body[i] == "(":
                depth -= 1
                if depth == 0:
                    break
            i -= 1
        if i > 0:
            args = split_top(body[i + 1:close])
            if args:
                return ([indent + body[:i + 1]] + [indent + unit + a + "," for a in args]
                        + [indent + ");"])
    return [line]
