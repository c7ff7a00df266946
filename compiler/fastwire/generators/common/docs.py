"""Text from a schema (documentation comments, a schema's file name) as comments of the
generated code: the one place that makes such text safe for each language's comment rules.
The text is a value, printed with Printer.value or as a $var$ value, never as a template.

Whatever a language would read as code, or as the end of the comment, is written as
`<U+XXXX>`, the code point in ASCII, which no language reads as anything but text:

- every language: the text is split at every line break any of them knows (LF, CR, VT,
  FF, NEL, U+2028, U+2029, ...), each line a comment of its own; other control
  characters, the byte order mark (Go forbids it past the start, Python a NUL anywhere)
  and the bidirectional controls (rustc denies them in comments: "trojan source") are
  escaped;
- C++: a line that ends in a backslash would splice the next line into the comment
  (trailing blanks do not stop it), so that backslash is escaped;
- Java: Unicode escapes are translated before the source is lexed, in comments too:
  `\\u000a` ends a line comment, `\\u002a\\u002f` a block comment, and a `\\u` not followed
  by four hex digits does not compile; the backslash of every `\\u` is escaped. (Kotlin
  reads `\\u` only in string and character literals.)
- Python: `coding:` / `coding=` in a comment of the first two lines names the file's
  encoding; escaped wherever it stands;
- Ruby: a comment that is only `coding:`, `frozen_string_literal:`,
  `shareable_constant_value:` (and the others) or holds `-*- ... -*-` is a magic comment;
- Rust: doc comments are Markdown, and a fenced or indented block in them is a doctest;
  fences are escaped and indentation is kept under four spaces;
- block comments (`/* */`, `/** */`): `*/` is broken up as `* /`.
"""

from __future__ import annotations

import re
from typing import Callable, Dict, List, Optional

# Characters no comment of any language may hold as they are: C0 and C1 controls but the
# tab, DEL, the byte order mark, the bidirectional marks, embeddings, overrides and
# isolates, and lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069\ufeff\ud800-\udfff]")


def code_point(ch: str) -> str:
    """How an escaped character is written: `<U+005C>`."""
    return f"<U+{ord(ch):04X}>"


def _escape(m: "re.Match[str]") -> str:
    return code_point(m.group())


def _cpp(line: str) -> str:
    stripped = line.rstrip(" \t")
    if stripped.endswith("\\"):  # a line splice, even with blanks after the backslash
        return stripped[:-1] + code_point("\\")
    return line


def _java(line: str) -> str:
    return line.replace("\\u", code_point("\\") + "u")


_PY_CODING = re.compile(r"(coding)([:=])")


def _python(line: str) -> str:
    return _PY_CODING.sub(lambda m: m.group(1) + code_point(m.group(2)), line)


_RUBY_MAGIC = re.compile(r"^(\s*(?:en)?coding|\s*frozen[-_]string[-_]literal|\s*warn[-_]indent"
                         r"|\s*warn[-_]past[-_]scope|\s*shareable[-_]constant[-_]value)(\s*):",
                         re.IGNORECASE)


def _ruby(line: str) -> str:
    line = _RUBY_MAGIC.sub(lambda m: m.group(1) + m.group(2) + code_point(":"), line)
    return line.replace("-*-", "-" + code_point("*") + "-")


_FENCE = re.compile(r"`{3,}|~{3,}")
_INDENT = re.compile(r"^[ \t]{4,}")


def _rust(line: str) -> str:
    line = _FENCE.sub(lambda m: "".join("\\" + c for c in m.group()), line)
    return _INDENT.sub("   ", line)


# Each language's own rule, after the common one.
_RULES: Dict[str, Callable[[str], str]] = {
    "cpp": _cpp, "java": _java, "python": _python, "ruby": _ruby, "rust": _rust,
}


def comment_lines(language: str, text: Optional[str]) -> List[str]:
    """`text` as the lines of a comment in `language` (without the comment markers), each
    safe after `//`, `#` or `///` and within a block comment once `*/` is broken
    (block_comment). None or "" gives no lines."""
    if not text:
        return []
    rule = _RULES.get(language)
    out = []
    for line in text.splitlines():
        line = _UNSAFE.sub(_escape, line)
        out.append(rule(line) if rule else line)
    return out


def comment_text(language: str, text: str) -> str:
    """`text` (a file name, say) as part of one comment line: its lines joined by spaces."""
    return " ".join(comment_lines(language, text))


def line_comments(doc: Optional[str], prefix: str, closer: str = "",
                  language: str = "") -> List[str]:
    """`doc` as line comments (`// `, `# `) of `language` (comment_lines); `closer`, when
    given, is broken up so the text cannot end a block comment around it."""
    out = []
    for line in comment_lines(language, doc):
        if closer:
            line = line.replace(closer, closer[0] + " " + closer[1:])
        out.append(f"{prefix} {line}".rstrip() if line.strip() else prefix)
    return out


def block_comment(language: str, text: str, opener: str = "/**", closer: str = "*/") -> str:
    """`text` as one block comment on one line: `/** text */`, its lines joined by spaces
    and `*/` broken up."""
    body = comment_text(language, text).replace(closer, closer[0] + " " + closer[1:])
    return f"{opener} {body} {closer}"


def python_docstring(text: Optional[str]) -> Optional[str]:
    if not text:
        return None
    text = "\n".join(comment_lines("", text.strip()))  # a string, not a comment
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if text.endswith('"'):
        text += " "
    return '"""' + text + '"""'
