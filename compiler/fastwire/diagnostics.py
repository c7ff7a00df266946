"""Source locations and compiler diagnostics.

Every problem the compiler reports is a `Diagnostic` with a location. It renders the
way C compilers do, so editors and CI logs can jump to it:

    schemas/bad.fbe:4:5: error: field 'x' is declared twice
        int8 x;
             ^
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional


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


@dataclass(frozen=True, slots=True)  # one per token: slots keep big schemas small
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


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" | "warning" | "note"
    message: str
    location: Optional[Location] = None

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

    def error(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("error", message, location))

    def warning(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("warning", message, location))

    def note(self, message: str, location: Optional[Location] = None) -> None:
        self.diagnostics.append(Diagnostic("note", message, location))

    def sort(self) -> None:
        """Orders diagnostics by file (first seen first), line and column; notes stay
        with the diagnostic they explain."""
        groups: List[List[Diagnostic]] = []
        for d in self.diagnostics:
            if d.severity == "note" and groups:
                groups[-1].append(d)
            else:
                groups.append([d])
        files: dict = {}
        for g in groups:
            if g[0].location is not None:
                files.setdefault(g[0].location.path, len(files))

        def key(g: List[Diagnostic]):
            loc = g[0].location
            if loc is None:
                return (-1, 0, 0)
            return (files[loc.path], loc.line, loc.column)

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
