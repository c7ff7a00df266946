"""A code printer for generators: templates with `$var$` substitution and indentation.

Generators read like the code they produce instead of string concatenation:

    p = Printer(indent=4)
    p.print('''
        struct $name$ {
            $type$ value;
        };
    ''', name="Order", type="int32_t")
    p.indent() / p.outdent()        # nest what follows
    with p.block("namespace $ns$ {", "}", ns="proto"): ...

Templates are dedented, so they can be written at the indentation of the Python code
around them. `$$` prints a literal `$`. A variable whose value has several lines is
indented to the column where `$var$` stands.
"""

from __future__ import annotations

import re
import textwrap
from contextlib import contextmanager
from functools import lru_cache
from typing import Iterator, List, Tuple

_VAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)?\$")


@lru_cache(maxsize=4096)
def _template_lines(template: str) -> Tuple[str, ...]:
    """A template's lines, dedented, without its first and last line breaks. Templates are
    mostly the same few literals printed once per type or field: made once each."""
    text = textwrap.dedent(template)
    if text.startswith("\n"):
        text = text[1:]
    if text.endswith("\n"):
        text = text[:-1]
    return tuple(text.split("\n")) if text else ("",)


class Printer:
    def __init__(self, indent: int = 4, tabs: bool = False):
        self.unit = "\t" if tabs else " " * indent
        self.level = 0
        self.lines: List[str] = []

    def indent(self) -> None:
        self.level += 1

    def outdent(self) -> None:
        if self.level == 0:
            raise ValueError("outdent below zero")
        self.level -= 1

    def print(self, template: str = "", **variables: object) -> None:
        if "\n" not in template:  # one line (most calls, each new): dedenting is lstrip
            self._emit(template.lstrip(" \t"), variables)
            return
        for line in _template_lines(template):
            self._emit(line, variables)

    def value(self, text: str) -> None:
        """Prints `text` as it is, at the current indentation: a value, never a template
        (so a `$` in a schema's documentation is printed, not substituted)."""
        if "\n" in text:
            self.print("$text$", text=text)
        else:
            self._add(text)

    def _add(self, part: str) -> None:
        """One line of output, its leading blanks (4 a level) in this printer's unit."""
        body = part.lstrip(" ")
        if not body:
            self.lines.append("")
            return
        # Template indentation is written with 4 spaces a level; map it to our unit.
        levels, rest = divmod(len(part) - len(body), 4)
        self.lines.append(self.unit * (self.level + levels) + " " * rest + body)

    def _emit(self, line: str, variables) -> None:
        if "$" not in line:  # most lines: nothing to substitute
            self._add(line)
            return
        # Expand multi-line values with the indentation of the placeholder.
        pos = 0
        pieces = []
        for m in _VAR.finditer(line):
            pieces.append(line[pos:m.start()])
            name = m.group(1)
            if name is None:
                pieces.append("$")
            else:
                if name not in variables:
                    raise KeyError(f"template variable '{name}' is not given")
                value = str(variables[name])
                if "\n" in value:
                    pad = " " * len("".join(pieces).expandtabs())
                    value = value.replace("\n", "\n" + pad)
                pieces.append(value)
            pos = m.end()
        pieces.append(line[pos:])
        for part in "".join(pieces).split("\n"):
            self._add(part)

    @contextmanager
    def block(self, opening: str, closing: str, **variables: object) -> Iterator[None]:
        self.print(opening, **variables)
        self.indent()
        try:
            yield
        finally:
            self.outdent()
            self.print(closing, **variables)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def text(self) -> str:
        lines = list(self.lines)
        while lines and lines[-1] == "":
            lines.pop()
        return "\n".join(lines) + "\n"
