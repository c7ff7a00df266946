"""Recursive-descent parser for `.fbe` files (grammar: docs/schema-language.md).

A syntax error inside a field or member skips to the next `;`, and one inside a
declaration skips to the next declaration, so a single run reports every error it can
find instead of stopping at the first.
"""

from __future__ import annotations

import re
from sys import intern
from typing import Callable, Dict, List, Optional, Tuple

from . import syntax as ast
from .diagnostics import Location, Reporter, SourceFile
from .lexer import ATTR, BUILTIN_TYPES, CHAR, EOF, FLOAT, IDENT, INT, PUNCT, RESERVED, STRING, Lexer, Token

ENUM_BASES = ("byte", "char", "wchar", "int8", "uint8", "int16", "uint16", "int32",
              "uint32", "int64", "uint64")
FLAGS_BASES = ("byte", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
               "uint64")
VALUE_KEYWORDS = ("null", "epoch", "utc", "uuid0", "uuid1", "uuid4")
STATEMENT_STARTS = ("enum", "flags", "struct", "message", "variant")


class ParseError(Exception):
    def __init__(self, message: str, location: Location):
        super().__init__(message)
        self.message = message
        self.location = location


# The fields parse_field reads most often, each read by one regular expression on one line
# (Parser._plain_fields): after a one-part type, an optional `?`, then at most one of `[]`,
# `[N]`, `()`, `!`, `<K>` or `{K}` (K a one-part type), the name, an optional default (a
# plain decimal of at most 18 digits, a decimal fraction, a string without escapes, or a
# word or dotted name of at most three parts), then ';'. Spaces and tabs may separate the
# tokens. What the expression takes it checks no further than the words it matched.
_FIELD_REST = (r'[ \t]*(?P<opt>\?)?[ \t]*(?:(?P<vec>\[[ \t]*\])'
               r'|\[[ \t]*(?P<size>[1-9][0-9]{0,8})[ \t]*\]'
               r'|(?P<list>\([ \t]*\))|(?P<set>!)'
               r'|<[ \t]*(?P<map>[A-Za-z_][A-Za-z0-9_]*)[ \t]*>'
               r'|\{[ \t]*(?P<hash>[A-Za-z_][A-Za-z0-9_]*)[ \t]*\})?'
               r'[ \t]*(?P<name>[A-Za-z_][A-Za-z0-9_]*)[ \t]*'
               r'(?:=[ \t]*(?:(?P<int>-?[0-9]{1,18})|(?P<float>-?[0-9]{1,15}\.[0-9]{1,15})'
               r'|(?P<string>"[^"\\\n]*")'
               r'|(?P<word>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,2}))[ \t]*)?;')
_PLAIN_FIELD = re.compile(r'(?P<type>)' + _FIELD_REST)  # `type` empty: read as a token
# The same after the `;` of the field before: the line breaks and spaces up to the type,
# and the type, whole (`int8 ;` is not the type `in` of a field `t8`).
_NEXT_FIELD = re.compile(r'[ \t\r\n]*(?P<type>[A-Za-z_][A-Za-z0-9_]*)(?![A-Za-z0-9_])'
                         + _FIELD_REST)
_BOOLEANS = ("true", "false")


class _Attributes:
    def __init__(self) -> None:
        self.hidden = False
        self.deprecated = False
        self.key = False
        self.id = False
        self.request = False
        self.response: Optional[ast.Name] = None
        self.rejects: List[ast.RejectDecl] = []
        self.seen: List[Tuple[str, Location]] = []
        self.doc: Optional[str] = None

    def first(self, *names: str) -> Optional[Tuple[str, Location]]:
        for name, loc in self.seen:
            if name in names:
                return name, loc
        return None

    def given(self, *names: str) -> Tuple[str, Location]:
        """first(), for a caller that knows one of `names` was given."""
        found = self.first(*names)
        assert found is not None
        return found


def _int_value(tok: Token) -> int:
    assert isinstance(tok.value, int)  # the lexer decodes every INT token to int
    return tok.value


class Parser:
    def __init__(self, source: SourceFile, reporter: Reporter):
        self.source = source
        self.reporter = reporter
        # The tokens are read as the parser goes: the current one, a lookahead of one,
        # and the previous one (memory stays flat however big the schema).
        self._lexer = Lexer(source, reporter)
        self.tok: Token = self._read(None)  # the current token
        self._ahead: List[Token] = []  # lookahead, read by peek()
        self.prev: Optional[Token] = None
        self._names: Dict[str, Tuple[str]] = {}

    def _read(self, before: Optional[Token]) -> Token:
        """The lexer's next token. `before` is the token read before it. Where a lexical
        error left no token (from the end of `before` to the start of the token after
        it), the reporter is told: what the parser reports there follows from the
        lexical error (Reporter.sort drops it)."""
        lexer = self._lexer
        tok = lexer.next_token()
        if lexer.failed:  # it reported a lexical error (tagged LEXICAL) before this token
            lexer.failed = False
            if before is not None:
                b = before.location
                start = Location(b.source, b.line, b.column + b.length)
            else:
                start = Location(tok.location.source, 1, 1)
            self.reporter.unread(start, tok.location)
        return tok

    def _unread_before(self, before: Token, tok: Token) -> Token:
        """advance()'s rare path: the lexer reported an error before `tok`."""
        self._lexer.failed = False
        b = before.location
        self.reporter.unread(Location(b.source, b.line, b.column + b.length), tok.location)
        return tok

    # -- token helpers --------------------------------------------------------
    def _one(self, text: str) -> Tuple[str]:
        """The one-part name `(text,)`, one tuple per distinct name: a big schema names the
        same few types on every field."""
        parts = self._names.get(text)
        if parts is None:
            parts = self._names[text] = (intern(text),)
        return parts

    def peek(self, n: int = 1) -> Token:
        """The token `n` after the current one (EOF past the end)."""
        ahead = self._ahead
        while len(ahead) < n:
            last = ahead[-1] if ahead else self.tok
            if last.kind == EOF:
                return last
            ahead.append(self._read(last))
        return ahead[n - 1]

    def advance(self) -> Token:
        tok = self.tok
        if tok.kind != EOF:
            self.prev = tok
            if self._ahead:
                self.tok = self._ahead.pop(0)
            else:
                nxt = self._lexer.next_token()
                self.tok = nxt if not self._lexer.failed else self._unread_before(tok, nxt)
        return tok

    def at_punct(self, ch: str) -> bool:
        tok = self.tok
        return tok.kind == PUNCT and tok.text == ch

    def at_word(self, *words: str) -> bool:
        return self.tok.kind == IDENT and self.tok.text in words

    def fail(self, message: str, tok: Optional[Token] = None) -> "ParseError":
        tok = tok or self.tok
        return ParseError(message, tok.location)

    def expect_punct(self, ch: str, context: str) -> Token:
        if self.at_punct(ch):
            return self.advance()
        if ch == ";" and self.prev is not None:
            # Like C compilers: point just past the token the ';' should follow.
            prev = self.prev.location
            loc = Location(prev.source, prev.line, prev.column + prev.length, 1)
            raise ParseError(f"expected ';' {context}", loc)
        raise self.fail(f"expected '{ch}' {context}, found {self.tok.describe()}")

    def expect_name(self, what: str) -> Token:
        tok = self.tok
        if tok.kind == IDENT and tok.text not in RESERVED:
            return self.advance()
        if tok.kind == IDENT:
            raise self.fail(f"'{tok.text}' is a reserved word and cannot be used as {what}")
        raise self.fail(f"expected {what}, found {tok.describe()}")

    def expect_int(self, what: str) -> Token:
        if self.tok.kind == INT:
            return self.advance()
        raise self.fail(f"expected {what}, found {self.tok.describe()}")

    def parse_dotted(self, what: str) -> ast.Name:
        first = self.expect_name(what)
        parts = [first.text]
        end = first
        while self.at_punct(".") and self.peek().kind == IDENT:
            self.advance()
            end = self.expect_name(what)
            parts.append(end.text)
        loc = first.location
        if end is first:
            return ast.Name(self._one(first.text), loc)
        length = (end.location.column + end.location.length - loc.column
                  if end.location.line == loc.line else loc.length)
        return ast.Name(tuple(parts), Location(loc.source, loc.line, loc.column, length))

    # -- recovery -------------------------------------------------------------
    def sync_member(self) -> None:
        """Skips to just past the next `;`, or to a `}` (left for the caller) at this depth."""
        depth = 0
        while self.tok.kind != EOF:
            if self.tok.kind == PUNCT and self.tok.text in "{(<[":
                depth += 1
            elif self.tok.kind == PUNCT and self.tok.text in "})>]":
                if depth == 0 and self.tok.text == "}":
                    return
                depth = max(0, depth - 1)
            elif self.at_punct(";") and depth == 0:
                self.advance()
                return
            self.advance()

    def sync_statement(self) -> None:
        """Skips to the start of the next top-level declaration."""
        depth = 0
        moved = False
        while self.tok.kind != EOF:
            if depth == 0 and moved and (self.at_word(*STATEMENT_STARTS)
                                         or self.tok.kind == ATTR or self.at_punct("[")):
                return
            if self.at_punct("{"):
                depth += 1
            elif self.at_punct("}"):
                depth -= 1
                if depth <= 0:
                    self.advance()
                    if self.at_punct(";"):
                        self.advance()
                    return
            self.advance()
            moved = True

    def report(self, err: ParseError) -> None:
        self.reporter.error(err.message, err.location)

    # -- file -----------------------------------------------------------------
    def parse_file(self) -> ast.FileDecl:
        doc = self.tok.doc
        f = ast.FileDecl(self.source.path, None, None, doc=doc)
        try:
            self.parse_header(f)
        except ParseError as err:
            self.report(err)
            self.sync_statement()
        while self.tok.kind != EOF:
            try:
                decl = self.parse_statement()
                if decl is not None:
                    f.declarations.append(decl)
            except ParseError as err:
                self.report(err)
                self.sync_statement()
        return f

    def parse_header(self, f: ast.FileDecl) -> None:
        seen = {}
        while self.at_word("domain", "package", "offset", "version", "import", "option"):
            word = self.tok
            if word.text == "offset":
                raise self.fail("'offset' must follow the package name: 'package NAME offset N'")
            if word.text not in ("import", "option") and word.text in seen:
                raise self.fail(f"'{word.text}' is declared twice in the file header")
            seen[word.text] = word
            self.advance()
            if word.text == "domain":
                if "import" in seen:
                    raise self.fail("'domain' must come before the imports", word)
                f.domain = self.parse_dotted("a domain name").text
            elif word.text == "package":
                if "version" in seen or "import" in seen:
                    raise self.fail("'package' must come first in the file header", word)
                name = self.expect_name("a package name")
                if self.at_punct("."):
                    raise self.fail("a package name cannot contain '.'; use 'domain' for a "
                                    "dotted namespace")
                f.package, f.package_location = name.text, name.location
                if self.at_word("offset"):
                    self.advance()
                    off = self.expect_int("the package offset")
                    offset = _int_value(off)
                    if offset < 0:
                        raise self.fail("the package offset cannot be negative", off)
                    f.offset, f.offset_location = offset, off.location
            elif word.text == "version":
                if "package" not in seen:
                    raise self.fail("'version' must follow the package declaration", word)
                tok = self.tok
                if tok.kind != FLOAT or not _is_version(tok.text):
                    raise self.fail("expected a version such as '1.0' (MAJOR.MINOR), "
                                    f"found {tok.describe()}")
                self.advance()
                major, minor = tok.text.split(".")
                f.version = (int(major), int(minor or "0"))
            elif word.text == "option":
                if "package" not in seen:
                    raise self.fail("'option' must follow the package declaration", word)
                self.parse_option(f)
            else:  # import
                if "package" not in seen:
                    raise self.fail("'import' must follow the package declaration", word)
                name = self.expect_name("a package name to import")
                f.imports.append(ast.ImportDecl(name.text, name.location))
        if f.package is None:
            raise self.fail(f"expected 'package NAME' at the start of the schema, found "
                            f"{self.tok.describe()}")

    def parse_option(self, f: ast.FileDecl) -> None:
        """`option NAME = "VALUE"` (after the word 'option')."""
        name = self.expect_name("an option name")
        check = ast.OPTIONS.get(name.text)
        if check is None:
            raise self.fail(f"unknown option '{name.text}' (known: "
                            f"{', '.join(sorted(ast.OPTIONS))})", name)
        if any(o.name == name.text for o in f.options):
            raise self.fail(f"option '{name.text}' is given twice", name)
        self.expect_punct("=", f"after the option name '{name.text}'")
        tok = self.tok
        if tok.kind != STRING:
            raise self.fail(f"expected a string as the value of option '{name.text}', found "
                            f"{tok.describe()}")
        self.advance()
        assert isinstance(tok.value, str)
        problem = check(tok.value)
        if problem is not None:
            raise self.fail(f"option '{name.text}': {problem}", tok)
        f.options.append(ast.OptionDecl(name.text, tok.value, name.location))

    # -- attributes -----------------------------------------------------------
    def parse_attributes(self) -> _Attributes:
        attrs = _Attributes()
        attrs.doc = self.tok.doc
        while True:
            tok = self.tok
            if tok.kind == ATTR:
                self.advance()
                name = tok.value
                assert isinstance(name, str)  # an ATTR token's value is the attribute's name
                if any(n == name for n, _ in attrs.seen):
                    raise self.fail(f"attribute '[{name}]' is given twice", tok)
                attrs.seen.append((name, tok.location))
                setattr(attrs, name, True)
            elif tok.is_punct("[") and self.peek().kind == IDENT and \
                    self.peek().text in ("request", "response", "reject"):
                self.advance()
                word = self.advance()
                if any(n == word.text for n, _ in attrs.seen):
                    raise self.fail(f"attribute '[{word.text}]' is given twice", word)
                attrs.seen.append((word.text, tok.location))
                if word.text == "request":
                    attrs.request = True
                elif word.text == "response":
                    self.expect_punct("(", "after 'response'")
                    attrs.response = self.parse_dotted("a response type name")
                    self.expect_punct(")", "after the response type")
                else:
                    self.expect_punct("(", "after 'reject'")
                    while True:
                        star = False
                        if self.at_punct("*"):
                            self.advance()
                            star = True
                        attrs.rejects.append(ast.RejectDecl(
                            self.parse_dotted("a reject type name"), star))
                        if not self.at_punct(","):
                            break
                        self.advance()
                    self.expect_punct(")", "after the reject types")
                self.expect_punct("]", f"to close '[{word.text}'")
            else:
                return attrs

    def _reject_attrs(self, attrs: _Attributes, names: Tuple[str, ...], where: str) -> None:
        bad = attrs.first(*names)
        if bad:
            raise ParseError(f"attribute '[{bad[0]}]' cannot be used on {where}", bad[1])

    # -- statements -----------------------------------------------------------
    def parse_statement(self):
        attrs = self.parse_attributes()
        tok = self.tok
        if self.at_word("enum", "flags"):
            self._reject_attrs(attrs, ("key", "id", "request", "response", "reject"),
                               f"an {tok.text}" if tok.text == "enum" else "flags")
            return self.parse_enum(attrs)
        if self.at_word("struct", "message"):
            self._reject_attrs(attrs, ("key", "id"), f"a {tok.text}")
            if (attrs.response or attrs.rejects) and not attrs.request:
                name, loc = attrs.given("response", "reject")
                raise ParseError(f"'[{name}(...)]' requires '[request]'", loc)
            return self.parse_struct(attrs)
        if self.at_word("variant"):
            # A word of the grammar only here, where no name could stand: a type or field
            # may still be called 'variant'.
            self._reject_attrs(attrs, ("key", "id", "request", "response", "reject"),
                               "a variant")
            return self.parse_variant(attrs)
        if self.at_word("package", "domain", "version", "import", "offset", "option"):
            raise self.fail(f"'{tok.text}' belongs in the file header, before the first "
                            "declaration")
        raise self.fail("expected a declaration ('enum', 'flags', 'struct', 'message' or "
                        "'variant'), "
                        f"found {tok.describe()}")

    def parse_enum(self, attrs: _Attributes) -> ast.EnumDecl:
        kind = self.advance().text
        name = self.expect_name(f"a name for the {kind}")
        base = None
        if self.at_punct(":"):
            self.advance()
            allowed = ENUM_BASES if kind == "enum" else FLAGS_BASES
            tok = self.tok
            if tok.kind != IDENT or tok.text not in allowed:
                raise self.fail(f"'{tok.text}' cannot be the underlying type of {kind} "
                                f"'{name.text}'; use one of: {', '.join(allowed)}")
            self.advance()
            base = ast.Name((tok.text,), tok.location)
        self.expect_punct("{", f"to open {kind} '{name.text}'")
        decl = ast.EnumDecl(kind, name.text, name.location, base, [], attrs.hidden,
                            attrs.deprecated, attrs.doc)
        self.members(f"{kind} '{name.text}'", lambda: decl.values.append(self.parse_enum_value(kind)))
        return decl

    def members(self, what: str, read: Callable[[], object]) -> bool:
        """The members of a declaration up to its '}' (and an optional ';'), each by read();
        a member with a syntax error is reported and skipped. True when one was."""
        misread = False
        while not self.at_punct("}"):
            if self.tok.kind == EOF:
                raise self.fail(f"expected '}}' to close {what}, found end of file")
            try:
                read()
            except ParseError as err:
                misread = True
                self.report(err)
                self.sync_member()
        self.advance()
        if self.at_punct(";"):
            self.advance()
        return misread

    def parse_variant(self, attrs: _Attributes) -> ast.VariantDecl:
        self.advance()
        name = self.expect_name("a name for the variant")
        self.expect_punct("{", f"to open variant '{name.text}'")
        decl = ast.VariantDecl(name.text, name.location, [], attrs.hidden, attrs.deprecated,
                               attrs.doc)
        decl.misread = self.members(f"variant '{name.text}'",
                                    lambda: decl.alternatives.append(self.parse_alternative(name.text)))
        return decl

    def parse_alternative(self, variant: str) -> ast.TypeExpr:
        """One alternative of a variant: a type, then ';'."""
        if self.tok.kind != IDENT:
            attrs = self.parse_attributes()
            if attrs.seen:
                name, loc = attrs.seen[0]
                raise ParseError(f"attribute '[{name}]' cannot be used on variant alternatives",
                                 loc)
        t = self.parse_type()
        if t.optional and t.container is None:
            assert t.location is not None
            raise ParseError(f"an alternative of variant '{variant}' cannot be optional; make "
                             f"the field that holds the variant optional ('{variant}? name;')",
                             t.location)
        if self.tok.kind == IDENT:
            raise self.fail(f"the alternatives of variant '{variant}' are types without names; "
                            f"remove '{self.tok.text}'")
        self.expect_punct(";", f"after an alternative of variant '{variant}'")
        return t

    def parse_enum_value(self, kind: str) -> ast.ValueDecl:
        attrs = self.parse_attributes()
        self._reject_attrs(attrs, ("key", "id", "request", "response", "reject"),
                           f"{kind} values")
        name = self.expect_name(f"a {kind} value name")
        value = None
        if self.at_punct("="):
            self.advance()
            value = self.parse_constant()
        self.expect_punct(";", f"after {kind} value '{name.text}'")
        return ast.ValueDecl(name.text, name.location, value, attrs.hidden, attrs.deprecated,
                             attrs.doc)

    def parse_constant(self) -> ast.Literal:
        """An enum/flags constant: an integer, a char, or `name | name | …`."""
        tok = self.tok
        if tok.kind == INT:
            self.advance()
            return ast.Literal("int", tok.value, tok.location, tok.text)
        if tok.kind == CHAR:
            self.advance()
            return ast.Literal("char", tok.value, tok.location, tok.text)
        if tok.kind == IDENT and tok.text not in RESERVED:
            return self.parse_name_chain()
        raise self.fail(f"expected a number, a character or a value name, found "
                        f"{tok.describe()}")

    def parse_name_chain(self) -> ast.Literal:
        first = self.parse_dotted("a value name")
        names = [first]
        while self.at_punct("|"):
            self.advance()
            names.append(self.parse_dotted("a value name after '|'"))
        last = names[-1].location
        loc = first.location
        if last.line == loc.line:
            loc = Location(loc.source, loc.line, loc.column,
                           last.column + last.length - loc.column)
        text = " | ".join(n.text for n in names)
        return ast.Literal("names", None, loc, text, names)

    def parse_struct(self, attrs: _Attributes) -> ast.StructDecl:
        kind = self.advance().text
        name = self.expect_name(f"a name for the {kind}")
        numbering, number, number_loc = "auto", None, None
        if self.at_punct("("):
            self.advance()
            tok = self.tok
            if tok.is_punct("+"):
                self.advance()
                num = self.expect_int("a type number after '+'")
                numbering, number, number_loc = "shift", _int_value(num), num.location
            elif tok.kind == INT:
                self.advance()
                numbering, number, number_loc = "fixed", _int_value(tok), tok.location
            elif tok.is_word("base"):
                self.advance()
                numbering, number_loc = "base", tok.location
            else:
                raise self.fail("expected a type number: '(N)', '(+N)' or '(base)', found "
                                f"{tok.describe()}")
            if number is not None and number < 0:
                raise ParseError("a type number cannot be negative", number_loc)
            self.expect_punct(")", "after the type number")
        base = None
        if self.at_punct(":"):
            self.advance()
            base = self.parse_dotted("a base struct name")
        self.expect_punct("{", f"to open {kind} '{name.text}'")
        decl = ast.StructDecl(kind, name.text, name.location, numbering, number, number_loc,
                              base, [], attrs.hidden, attrs.deprecated, attrs.request,
                              attrs.response, attrs.rejects,
                              attrs.given("request")[1] if attrs.request else None,
                              attrs.doc)

        def read_field() -> None:
            if not self._plain_fields(decl.fields):
                decl.fields.append(self.parse_field())

        self.members(f"{kind} '{name.text}'", read_field)
        return decl

    # -- fields ---------------------------------------------------------------
    def parse_field(self) -> ast.FieldDecl:
        tok = self.tok
        if tok.kind == IDENT:  # no attributes (most fields)
            key = hidden = deprecated = False
            doc = tok.doc
        else:
            attrs = self.parse_attributes()
            self._reject_attrs(attrs, ("request", "response", "reject"), "fields")
            if attrs.id:
                _, loc = attrs.given("id")
                raise ParseError("'[id]' goes after the field type, in place of the name: "
                                 "'uuid [id] = uuid1;'", loc)
            key, hidden, deprecated, doc = attrs.key, attrs.hidden, attrs.deprecated, attrs.doc
        ftype = self.parse_type()
        is_id = False
        if self.tok.kind == ATTR and self.tok.value == "id":
            id_tok = self.advance()
            name_text, name_loc, is_id = "id", id_tok.location, True
        else:
            name = self.expect_name("a field name")
            if self.at_punct(".") and self.peek().kind == IDENT:
                raise self.fail("a field name cannot contain '.'")
            name_text, name_loc = name.text, name.location
        default = None
        if self.at_punct("="):
            self.advance()
            default = self.parse_value()
        self.expect_punct(";", f"after field '{name_text}'")
        return ast.FieldDecl(name_text, name_loc, ftype, default, key=key or is_id,
                             id=is_id, hidden=hidden, deprecated=deprecated, doc=doc)

    def _plain_fields(self, out: List[ast.FieldDecl]) -> bool:
        """The fast path for the commonest fields (_PLAIN_FIELD), the current token being
        the first one's type: appends to `out` that field and each plain field after it,
        read from the text without tokens, and returns True; False, having read nothing,
        when the first field is not plain (parse_field reads it). Each field is what
        parse_field makes of the same text."""
        tok = self.tok
        if tok.kind != IDENT or self._ahead or (tok.text in RESERVED and tok.text not in BUILTIN_TYPES):
            return False
        lexer = self._lexer
        text, source = lexer.text, lexer.source
        pos = lexer.pos
        m = _PLAIN_FIELD.match(text, pos)
        if m is None:
            return False
        line = lexer.line
        bol = pos - lexer.col + 1  # where the line starts: a column is `at - bol + 1`
        field = self._field_of(m, tok.text, tok.location, source, line, bol)
        if field is None:
            return False
        field.doc = tok.doc
        out.append(field)
        end = m.end()
        reserved, builtin = RESERVED, BUILTIN_TYPES
        while True:
            nxt = _NEXT_FIELD.match(text, end)
            if nxt is None:
                break
            at = nxt.start("type")
            newlines = text.count("\n", end, at)
            if newlines:
                next_line, next_bol = line + newlines, text.rfind("\n", end, at) + 1
            else:
                next_line, next_bol = line, bol
            type_text = nxt.group("type")
            if type_text in reserved and type_text not in builtin:
                break
            field = self._field_of(nxt, type_text,
                                   Location(source, next_line, at - next_bol + 1, len(type_text)),
                                   source, next_line, next_bol)
            if field is None:
                break
            out.append(field)
            end, line, bol = nxt.end(), next_line, next_bol
        semicolon = Token(PUNCT, ";", source, line, end - bol)
        lexer.pos, lexer.line, lexer.col = end, line, end - bol + 1
        self.prev = semicolon
        self.tok = self._read(semicolon)
        return True

    def _field_of(self, m: "re.Match[str]", type_text: str, type_location: Location,
                  source: SourceFile, line: int, bol: int) -> Optional[ast.FieldDecl]:
        """The field a match of _PLAIN_FIELD or _NEXT_FIELD reads (the type given); None
        when a word it matched makes it an error or something else (parse_field reads
        it)."""
        (_, opt, vec, size, listed, is_set, map_key, hash_key, name, number, fraction, string,
         word) = m.groups()
        if name in RESERVED:
            return None
        base = ast.Name(self._one(type_text), type_location)
        ftype = ast.TypeExpr(base, opt is not None, location=type_location)
        if vec is not None:
            ftype.container = "vector"
        elif size is not None:
            ftype.container, ftype.size = "array", int(size, 10)
            ftype.size_location = Location(source, line, m.start(4) - bol + 1, len(size))
        elif listed is not None:
            ftype.container = "list"
        elif is_set is not None:
            if opt is not None:
                return None  # a set cannot hold optional elements
            ftype.container = "set"
        elif map_key is not None or hash_key is not None:
            key = map_key or hash_key
            if key in RESERVED and key not in BUILTIN_TYPES:
                return None
            group = 7 if map_key is not None else 8
            ftype.container = "map" if map_key is not None else "hash"
            ftype.key = ast.Name(self._one(key), Location(source, line, m.start(group) - bol + 1,
                                                          len(key)))
        # The defaults' texts and values are interned: a big schema repeats a few.
        default: Optional[ast.Literal] = None
        if number is not None:
            number = intern(number)
            default = ast.Literal("int", int(number, 10),
                                  Location(source, line, m.start(10) - bol + 1, len(number)),
                                  number)
        elif string is not None:
            string = intern(string)
            default = ast.Literal("string", intern(string[1:-1]),
                                  Location(source, line, m.start(12) - bol + 1, len(string)),
                                  string)
        elif word is not None:
            default = self._word_default(intern(word), Location(source, line, m.start(13) - bol + 1,
                                                        len(word)))
            if default is None:
                return None
        elif fraction is not None:
            fraction = intern(fraction)
            default = ast.Literal("float", fraction,
                                  Location(source, line, m.start(11) - bol + 1, len(fraction)),
                                  fraction)
        name = intern(name)
        return ast.FieldDecl(name, Location(source, line, m.start(9) - bol + 1, len(name)),
                             ftype, default)

    def _word_default(self, text: str, loc: Location) -> Optional[ast.Literal]:
        """The default a word or dotted name is (as parse_value reads it), or None when it
        is not one parse_value takes without an error."""
        if text in _BOOLEANS:
            return ast.Literal("bool", text == "true", loc, text)
        if text in VALUE_KEYWORDS:
            return ast.Literal(text, None, loc, text)
        if "." not in text:
            if text in RESERVED:
                return None
            name = ast.Name(self._one(text), loc)
        else:
            parts = tuple(intern(p) for p in text.split("."))
            if any(p in RESERVED for p in parts):
                return None
            name = ast.Name(parts, loc)
        return ast.Literal("names", None, Location(loc.source, loc.line, loc.column, loc.length),
                           text, [name])

    def parse_type_name(self, what: str) -> ast.Name:
        tok = self.tok
        if tok.kind == IDENT and tok.text in BUILTIN_TYPES:
            self.advance()
            return ast.Name(self._one(tok.text), tok.location)
        if tok.kind == IDENT and tok.text in RESERVED:
            raise self.fail(f"expected {what}, found the keyword '{tok.text}'")
        return self.parse_dotted(what)

    def parse_type(self) -> ast.TypeExpr:
        start = self.tok
        base = self.parse_type_name("a field type")
        t = ast.TypeExpr(base, location=base.location)
        if self.tok.kind == IDENT:  # the field's name: a plain type (most fields)
            return t
        if self.at_punct("~"):
            self.advance()
            t.reset = True
            t.optional = True
            return t
        if self.at_punct("?"):
            self.advance()
            t.optional = True
        tok = self.tok
        if tok.is_punct("["):
            self.advance()
            if self.at_punct("]"):
                self.advance()
                t.container = "vector"
            else:
                size_tok = self.expect_int("an array size or ']'")
                size = _int_value(size_tok)
                if size <= 0:
                    raise ParseError(f"array size must be positive, not {size}",
                                     size_tok.location)
                if size > 0x7FFFFFFF:
                    raise ParseError(f"array size {size} is too large", size_tok.location)
                self.expect_punct("]", "after the array size")
                t.container, t.size, t.size_location = "array", size, size_tok.location
        elif tok.is_punct("(") and self.peek().is_punct(")"):
            self.advance()
            self.advance()
            t.container = "list"
        elif tok.is_punct("!"):
            if t.optional:
                raise self.fail("a set cannot hold optional elements")
            self.advance()
            t.container = "set"
        elif tok.is_punct("<") or tok.is_punct("{"):
            close = ">" if tok.text == "<" else "}"
            self.advance()
            t.key = self.parse_type_name("a key type")
            if self.at_punct("?"):
                raise self.fail("a map or hash key cannot be optional")
            self.expect_punct(close, "after the key type")
            t.container = "map" if close == ">" else "hash"
        if self.tok.kind == PUNCT and self.tok.text in "?[(!<{~":
            if t.container:
                raise self.fail("containers cannot be nested; declare a struct for the inner "
                                "collection")
            raise self.fail(f"unexpected {self.tok.describe()} after the type "
                            f"'{start.text}'")
        return t

    def parse_value(self) -> ast.Literal:
        tok = self.tok
        if tok.kind == IDENT and tok.text in ("true", "false"):
            self.advance()
            return ast.Literal("bool", tok.text == "true", tok.location, tok.text)
        if tok.kind == IDENT and tok.text in VALUE_KEYWORDS:
            self.advance()
            return ast.Literal(tok.text, None, tok.location, tok.text)
        if tok.kind == INT:
            self.advance()
            return ast.Literal("int", tok.value, tok.location, tok.text)
        if tok.kind == FLOAT:
            self.advance()
            return ast.Literal("float", tok.value, tok.location, tok.text)
        if tok.kind == CHAR:
            self.advance()
            return ast.Literal("char", tok.value, tok.location, tok.text)
        if tok.kind == STRING:
            self.advance()
            return ast.Literal("string", tok.value, tok.location, tok.text)
        if tok.kind == IDENT and tok.text not in RESERVED:
            return self.parse_name_chain()
        raise self.fail(f"expected a default value, found {tok.describe()}")


def _is_version(text: str) -> bool:
    major, dot, minor = text.partition(".")
    return bool(dot) and major.isdigit() and (minor == "" or minor.isdigit()) \
        and len(text) <= 20


def parse(source: SourceFile, reporter: Reporter) -> ast.FileDecl:
    return Parser(source, reporter).parse_file()
