"""Documentation comments: schema text to comment lines. The text is a value, printed
with Printer.value or as a $var$ value, never as a template."""

from __future__ import annotations

from typing import List, Optional


def line_comments(doc: Optional[str], prefix: str, closer: str = "") -> List[str]:
    """`doc` as line comments (`// `, `# `); `closer`, when given, is broken up so the text
    cannot end a block comment around it."""
    if not doc:
        return []
    out = []
    for line in doc.splitlines():
        if closer:
            line = line.replace(closer, closer[0] + " " + closer[1:])
        out.append(f"{prefix} {line}" if line else prefix)
    return out


def python_docstring(text: Optional[str]) -> Optional[str]:
    if not text:
        return None
    text = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if text.endswith('"'):
        text += " "
    return '"""' + text + '"""'
