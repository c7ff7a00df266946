"""Tokenizer for `.fbe` schema files.

Follows the reference lexer (spec §1.1) with one deliberate difference: block comments
are ordinary C comments, so `/** doc */` and `/* a*b */` work. Comments are not tokens;
a comment that ends on the line just before a token (or on its line, before it) is
attached to that token as its documentation, so declarations can carry their docs
into the IR.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from sys import intern
from typing import Iterator, List, Optional

from .diagnostics import LEXICAL, Location, Reporter, SourceFile

# Token kinds.
IDENT = "identifier"
INT = "integer"
FLOAT = "float"
CHAR = "character"
STRING = "string"
ATTR = "attribute"  # [key] [id] [hidden] [deprecated], lexed whole as the reference does
PUNCT = "punctuation"
EOF = "end of file"

# The reference lexes these four attributes as one token each, spaces not allowed.
SINGLE_TOKEN_ATTRIBUTES = ("key", "id", "hidden", "deprecated")

PUNCTUATION = set(",.:;+*=|!?~()[]<>{}")

BUILTIN_TYPES = (
    "bool", "byte", "bytes", "char", "wchar", "int8", "uint8", "int16", "uint16",
    "int32", "uint32", "int64", "uint64", "float", "double", "decimal", "string",
    "timestamp", "uuid",
)

# Words that can never name a user declaration or field (spec §1.1). The header
# keywords `domain package offset import version request response reject` may.
RESERVED = set(BUILTIN_TYPES) | {
    "enum", "flags", "struct", "message", "base",
    "true", "false", "null", "epoch", "utc", "uuid0", "uuid1", "uuid4",
}

_NUMBER = re.compile(
    r"-?(?:"
    r"(?P<hex>0[xX][0-9a-fA-F]+)"
    r"|(?P<float>[0-9]+[eE][+-]?[0-9]+|\.[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<int>[0-9]+)"
    r")"
)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_IDENT_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_SPACE = re.compile(r"[ \t\r\n\b\v\f]+")
# Punctuation that is always a token of its own ('[' may open an attribute, '.' a number,
# '*' a stray '*/').
_PLAIN_PUNCT = frozenset(",:;+=|!?~()]<>{}")
_FAST = re.compile(r"([ \t\r\n\b\v\f]*)(?:([A-Za-z_][A-Za-z0-9_]*)|([,:;+=|!?~()\]<>{}]))")
# The most significant digits a number literal may have (mantissa and exponent together;
# docs/schema-language.md#limits).
MAX_NUMBER_DIGITS = 100

_SIMPLE_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", '"': '"',
    "a": "\a", "b": "\b", "f": "\f", "v": "\v", "?": "?",
}


# One per token, so as cheap as can be: not frozen (a frozen dataclass costs three times as
# much to create; a token is never changed once made), and its Location is made only when
# asked for (most tokens are punctuation nobody points at).
@dataclass(slots=True, unsafe_hash=True)
class Token:
    kind: str
    text: str  # the exact source text
    source: SourceFile
    line: int
    column: int
    value: object = None  # decoded value for INT / FLOAT / CHAR / STRING / ATTR
    doc: Optional[str] = None  # the documentation comment directly before this token

    @property
    def location(self) -> Location:
        return Location(self.source, self.line, self.column, max(1, len(self.text)))

    def is_punct(self, ch: str) -> bool:
        return self.kind == PUNCT and self.text == ch

    def is_word(self, word: str) -> bool:
        return self.kind == IDENT and self.text == word

    def describe(self) -> str:
        if self.kind == EOF:
            return "end of file"
        return f"'{self.text}'"


@dataclass
class _Comment:
    first_line: int
    last_line: int
    text: str


def _clean_comment(raw: str) -> str:
    """Turns `// x`, `/* x */` and `/** x\n * y */` into plain documentation text."""
    if raw.startswith("//"):
        return raw[2:].lstrip("/").strip()
    body = raw[2:-2]
    if body.startswith("*"):
        body = body[1:]
    lines = []
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("*"):
            line = line[1:].strip()
        lines.append(line)
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


class Lexer:
    def __init__(self, source: SourceFile, reporter: Reporter):
        self.source = source
        self.text = source.text
        self.reporter = reporter
        self.failed = False  # set when an error is reported (the parser resets it)
        self.pos = 0
        self.line = 1
        self.col = 1
        self.comments: List[_Comment] = []

    # -- position bookkeeping -------------------------------------------------
    def _loc(self, line: int, col: int, length: int) -> Location:
        return Location(self.source, line, col, max(1, length))

    def _advance(self, n: int) -> None:
        start, end = self.pos, self.pos + n
        newlines = self.text.count("\n", start, end)
        if newlines:
            self.line += newlines
            self.col = end - self.text.rfind("\n", start, end)
        else:
            self.col += n
        self.pos = end

    def _error(self, message: str, line: int, col: int, length: int = 1) -> None:
        with self.reporter.during(LEXICAL):
            self.reporter.error(message, self._loc(line, col, length))
        self.failed = True

    # -- the scanner ----------------------------------------------------------
    def tokens(self) -> List[Token]:
        return list(self.stream())

    def stream(self) -> Iterator[Token]:
        """The tokens one by one, EOF last (the parser holds only a few at a time, so a
        big schema's tokens never all exist at once)."""
        while True:
            tok = self.next_token()
            yield tok
            if tok.kind == EOF:
                return

    def _skip_space_and_comments(self) -> None:
        text = self.text
        while self.pos < len(text):
            space = _SPACE.match(text, self.pos)
            if space:
                self._advance(space.end() - self.pos)
            elif text.startswith("//", self.pos):
                end = text.find("\n", self.pos)
                end = len(text) if end < 0 else end
                line = self.line
                raw = text[self.pos:end]
                self._advance(end - self.pos)
                self.comments.append(_Comment(line, line, _clean_comment(raw)))
            elif text.startswith("/*", self.pos):
                end = text.find("*/", self.pos + 2)
                line, col = self.line, self.col
                if end < 0:
                    self._error("unterminated block comment", line, col, 2)
                    self._advance(len(text) - self.pos)
                    return
                raw = text[self.pos:end + 2]
                self._advance(end + 2 - self.pos)
                self.comments.append(_Comment(line, self.line, _clean_comment(raw)))
            else:
                return

    def _take_doc(self, line: int) -> Optional[str]:
        """The comment group that ends on the line before `line` (or on it), if any."""
        if not self.comments:
            return None
        group: List[_Comment] = []
        expect = line
        for c in reversed(self.comments):
            if c.last_line < expect - 1:
                break
            group.append(c)
            expect = c.first_line
        self.comments.clear()
        if not group:
            return None
        text = "\n".join(c.text for c in reversed(group)).strip()
        return text or None

    def next_token(self) -> Token:
        """The next token (EOF at the end, and again if asked again)."""
        text = self.text
        # The fast path, one regular expression: spaces, then an identifier or plain
        # punctuation (most tokens).
        pos = self.pos
        m = _FAST.match(text, pos)
        if m is not None:
            word_at = m.end(1)
            col = self.col
            if word_at != pos:
                newlines = text.count("\n", pos, word_at)
                if newlines:
                    self.line += newlines
                    col = word_at - text.rfind("\n", pos, word_at)
                else:
                    col += word_at - pos
            end = m.end()
            self.pos = end
            self.col = col + end - word_at  # a token holds no newline
            line = self.line
            doc = self._take_doc(line) if self.comments else None
            word = m.group(2)
            if word is not None:
                # Interned: a big schema repeats its names, and dictionaries look them up.
                return Token(IDENT, intern(word), self.source, line, col, None, doc)
            return Token(PUNCT, m.group(3), self.source, line, col, None, doc)
        while True:
            pos = self.pos
            space = _SPACE.match(text, pos)
            if space is not None:
                end = space.end()
                newlines = text.count("\n", pos, end)
                if newlines:
                    self.line += newlines
                    self.col = end - text.rfind("\n", pos, end)
                else:
                    self.col += end - pos
                self.pos = pos = end
            if text.startswith("/", pos):
                self._skip_space_and_comments()
                pos = self.pos
            line, col = self.line, self.col
            if pos >= len(text):
                return Token(EOF, "", self.source, line, col, doc=self._take_doc(line))
            ch = text[pos]
            if ch in _IDENT_START:
                m = _IDENT.match(text, pos)
                assert m is not None  # the condition above is _IDENT's first character
                end = m.end()
                self.pos = end
                self.col = col + end - pos  # an identifier holds no newline
                # Interned: a big schema repeats its names, and dictionaries look them up.
                return Token(IDENT, intern(text[pos:end]), self.source, line, col, None,
                             self._take_doc(line) if self.comments else None)
            if ch in _PLAIN_PUNCT:
                self.pos = pos + 1
                self.col = col + 1
                return Token(PUNCT, ch, self.source, line, col, None, self._take_doc(line) if self.comments else None)
            tok = self._scan(line, col)
            if tok is not None:
                return tok

    def _make(self, kind: str, start: int, line: int, col: int, value: object = None) -> Token:
        raw = self.text[start:self.pos]
        doc = self._take_doc(line)
        return Token(kind, raw, self.source, line, col, value, doc)

    def _scan(self, line: int, col: int) -> Optional[Token]:
        text = self.text
        start = self.pos
        ch = text[start]

        if ch == "[":
            for name in SINGLE_TOKEN_ATTRIBUTES:
                if text.startswith(name + "]", start + 1):
                    self._advance(len(name) + 2)
                    return self._make(ATTR, start, line, col, name)
            self._advance(1)
            return self._make(PUNCT, start, line, col)

        if ch.isdigit() or (ch in "-." and start + 1 < len(text) and text[start + 1].isdigit()) \
                or (ch == "-" and text.startswith(".", start + 1) and start + 2 < len(text)
                    and text[start + 2].isdigit()):
            m = _NUMBER.match(text, start)
            if m and m.end() > start:
                end = m.end()
                # A number glued to letters (`12abc`, `0x1g`) is one malformed token.
                tail = _IDENT.match(text, end)
                if tail:
                    bad = text[start:tail.end()]
                    self._advance(tail.end() - start)
                    self._error(f"malformed number '{bad}'", line, col, len(bad))
                    return None
                self._advance(end - start)
                raw = text[start:end]
                digits = len(raw.lstrip("-+.0").replace(".", ""))
                if digits > MAX_NUMBER_DIGITS:
                    # No schema value needs so many (a decimal holds 29 digits); converting
                    # them would cost time in proportion to their square.
                    self._error(f"a number of {digits} digits; at most {MAX_NUMBER_DIGITS} "
                                f"are accepted", line, col, len(raw))
                    return None
                if m.group("float"):
                    return self._make(FLOAT, start, line, col, raw)
                return self._make(INT, start, line, col, int(raw, 0) if not m.group("int")
                                  else int(raw, 10))

        if ch in "'\"":
            return self._scan_quoted(ch, line, col)

        if text.startswith("*/", start):
            self._advance(2)
            self._error("'*/' outside a comment", line, col, 2)
            return None

        if ch in PUNCTUATION:
            self._advance(1)
            return self._make(PUNCT, start, line, col)

        self._advance(1)
        shown = ch if ch.isprintable() else f"\\x{ord(ch):02x}"
        self._error(f"unexpected character '{shown}'", line, col)
        return None

    def _scan_quoted(self, quote: str, line: int, col: int) -> Optional[Token]:
        text = self.text
        start = self.pos
        i = start + 1
        chars: List[str] = []
        bad_escape = None
        while True:
            if i >= len(text) or text[i] == "\n":
                what = "string" if quote == '"' else "character"
                self._advance(i - start)
                self._error(f"unterminated {what} literal", line, col, i - start)
                return None
            c = text[i]
            if c == quote:
                i += 1
                break
            if c == "\\":
                decoded, used = self._escape(text, i)
                if decoded is None and bad_escape is None:
                    bad_escape = (i, used)
                chars.append(decoded or "")
                i += used
            else:
                chars.append(c)
                i += 1
        self._advance(i - start)
        if bad_escape is not None:
            at, used = bad_escape
            seq = text[at:at + used]
            self._error(f"unknown escape sequence '{seq}'", line, col + (at - start), used)
            return None
        value = "".join(chars)
        kind = STRING if quote == '"' else CHAR
        if kind == CHAR and value == "":
            self._error("empty character literal", line, col, i - start)
            return None
        return self._make(kind, start, line, col, value)

    @staticmethod
    def _escape(text: str, i: int):
        """Decodes the escape at text[i] == '\\'. Returns (decoded or None, length)."""
        if i + 1 >= len(text):
            return None, 1
        e = text[i + 1]
        if e in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[e], 2
        digits = {"x": 2, "u": 4, "U": 8}.get(e)
        if digits:
            hexpart = text[i + 2:i + 2 + digits]
            if len(hexpart) == digits and all(h in "0123456789abcdefABCDEF" for h in hexpart):
                code = int(hexpart, 16)
                if code <= 0x10FFFF:
                    return chr(code), 2 + digits
            return None, 2 + len(hexpart)
        return None, 2


def tokenize(source: SourceFile, reporter: Reporter) -> List[Token]:
    return Lexer(source, reporter).tokens()
