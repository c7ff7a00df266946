"""Source locations and compiler diagnostics.

Every problem the compiler reports is a `Diagnostic` with a location. It renders the
way C compilers do, so editors and CI logs can jump to it:

    schemas/bad.fbe:4:5: error: field 'x' is declared twice
        int8 x;
             ^
"""

from __future__ import annotations

import bisect
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Set, Tuple


@dataclass(frozen=True)
class SourceFile:
    """A schema file's path (as the user named it) and its text."""

    path: str
    text: str

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""


# One per token: slots keep big schemas small. Not frozen (a frozen dataclass costs three
# times as much to create, and the lexer makes one per token); never changed once made.
@dataclass(slots=True, unsafe_hash=True)
class Location:
    """A 1-based line and column in a source file, and the length of the token there."""

    source: SourceFile
    line: int
    column: int
    length: int = 1

    @property
    def path(self) -> str:
        return self.source.path

    def __str__(self) -> str:
        return f"{self.source.path}:{self.line}:{self.column}"


# The phase a diagnostic comes from, where it matters for its order: a lexical error
# (a character or literal the lexer cannot read) is the cause of what the parser then
# says about the tokens around it.
LEXICAL = "lexical"


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "note"
    message: str
    location: Optional[Location] = None
    phase: str = field(default="", compare=False)  # LEXICAL or ""

    def render(self) -> str:
        if self.location is None:
            return f"fastwire: {self.severity}: {self.message}"
        loc = self.location
        text = loc.source.line_text(loc.line).rstrip("\r\n")
        # Keep the caret under the token even when the line is indented with tabs.
        prefix = "".join("\t" if ch == "\t" else " " for ch in text[: loc.column - 1])
        width = max(1, min(loc.length, max(1, len(text) - loc.column + 1)))
        caret = prefix + "^" + "~" * (width - 1)
        return f"{loc}: {self.severity}: {self.message}\n{text}\n{caret}"


class CompileError(Exception):
    """Raised to stop a phase early; carries the diagnostics gathered so far."""

    def __init__(self, diagnostics: List[Diagnostic]):
        super().__init__("\n".join(d.render() for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass
class Reporter:
    """Collects diagnostics across phases so one run reports as many as it can."""

    diagnostics: List[Diagnostic] = field(default_factory=list)
    phase: str = ""  # the phase of the diagnostics reported now (see `during`)
    # Stretches of source where a lexical error left no token: from the end of the token
    # before it to the start of the token after it (see `sort`).
    gaps: List[Tuple[Location, Location]] = field(default_factory=list)

    def error(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("error", message, location, self.phase))

    def warning(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("warning", message, location, self.phase))

    def note(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("note", message, location, self.phase))

    @contextmanager
    def during(self, phase: str) -> Iterator[None]:
        """Tags what is reported inside the block with `phase` (LEXICAL: the lexer)."""
        outer, self.phase = self.phase, phase
        try:
            yield
        finally:
            self.phase = outer

    def unread(self, start: Location, end: Location) -> None:
        """Records that a lexical error left no token between `start` and `end`."""
        self.gaps.append((start, end))

    def sort(self) -> None:
        """Orders diagnostics by file (first seen first), line and column, a lexical
        error before anything else at its spot; notes stay with the diagnostic they
        explain. An error located in a gap a lexical error left (`unread`) is its
        consequence, the token the lexer could not read being missing, and is dropped:
        `int32 x @ 1;` reports the '@', not also the ';' the parser then misses after x."""
        groups: List[List[Diagnostic]] = []
        for d in self.diagnostics:
            if d.severity == "note" and groups:
                groups[-1].append(d)
            else:
                groups.append([d])
        dropped = _consequences(groups, self.gaps)
        groups = [g for index, g in enumerate(groups) if index not in dropped]
        files: dict = {}
        for g in groups:
            if g[0].location is not None:
                files.setdefault(g[0].location.path, len(files))

        def key(g: List[Diagnostic]) -> Tuple[int, int, int, int]:
            loc = g[0].location
            if loc is None:
                return (-1, 0, 0, 0)
            return (files[loc.path], loc.line, loc.column, 0 if g[0].phase == LEXICAL else 1)

        groups.sort(key=key)
        self.diagnostics = [d for g in groups for d in g]

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise CompileError(list(self.diagnostics))



class _Offsets:
    """Character offsets of locations, with each file's line starts computed once."""

    def __init__(self) -> None:
        self.starts: Dict[str, List[int]] = {}

    def __call__(self, loc: Location) -> int:
        starts = self.starts.get(loc.path)
        if starts is None:
            starts = [0]
            for line in loc.source.text.splitlines(keepends=True):
                starts.append(starts[-1] + len(line))
            self.starts[loc.path] = starts
        return starts[min(loc.line - 1, len(starts) - 1)] + loc.column - 1


def _consequences(groups: List[List[Diagnostic]], gaps: List[Tuple[Location, Location]]) -> Set[int]:
    """The indexes of the groups whose error (not lexical) lies in a gap the lexer left."""
    offset = _Offsets()
    spans: Dict[str, List[Tuple[int, int]]] = {}
    for start, end in gaps:
        spans.setdefault(start.path, []).append((offset(start), offset(end)))
    for path in spans:
        spans[path].sort()
    dropped: Set[int] = set()
    for index, g in enumerate(groups):
        d, at = g[0], g[0].location
        if d.severity != "error" or d.phase == LEXICAL or at is None or at.path not in spans:
            continue
        here, near = offset(at), spans[at.path]
        i = bisect.bisect_right(near, (here, len(at.source.text) + 1))
        if i > 0 and near[i - 1][0] <= here <= near[i - 1][1]:
            dropped.add(index)
    return dropped
