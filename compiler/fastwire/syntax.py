"""The syntax tree: what a `.fbe` file says, before any name is resolved.

The parser builds these; the resolver turns them into the IR (`ir.py`). Every node keeps
the location of the token a diagnostic about it should point at.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .diagnostics import Location


@dataclass(slots=True)
class Name:
    """A possibly dotted name such as `Order`, `proto.Order` or `State.good`."""

    parts: Tuple[str, ...]
    location: Location

    @property
    def text(self) -> str:
        return ".".join(self.parts)


@dataclass(slots=True)
class Literal:
    """A default value or constant as written: kind is one of
    bool, null, epoch, utc, uuid0, uuid1, uuid4, int, float, char, string, names."""

    kind: str
    value: object
    location: Location
    text: str = ""
    names: Sequence[Name] = ()  # kind == "names": a | b | c


@dataclass(slots=True)
class TypeExpr:
    base: Name  # builtin type names are one-part names too
    optional: bool = False
    reset: bool = False  # `T~`
    container: Optional[str] = None  # array vector list set map hash
    size: Optional[int] = None  # array size
    size_location: Optional[Location] = None
    key: Optional[Name] = None  # map / hash key type
    location: Optional[Location] = None


@dataclass(slots=True)
class FieldDecl:
    name: str
    name_location: Location
    type: TypeExpr
    default: Optional[Literal]
    key: bool = False
    id: bool = False
    hidden: bool = False
    deprecated: bool = False
    doc: Optional[str] = None


@dataclass(slots=True)
class ValueDecl:
    """An enum or flags member."""

    name: str
    location: Location
    value: Optional[Literal]
    hidden: bool = False
    deprecated: bool = False
    doc: Optional[str] = None


@dataclass(slots=True)
class EnumDecl:
    kind: str  # "enum" | "flags"
    name: str
    location: Location
    base: Optional[Name]
    values: List[ValueDecl]
    hidden: bool = False
    deprecated: bool = False
    doc: Optional[str] = None


@dataclass(slots=True)
class RejectDecl:
    name: Name
    global_: bool  # `*Name`: the imported packages' clients get a chance first


@dataclass(slots=True)
class StructDecl:
    kind: str  # "struct" | "message"
    name: str
    location: Location
    numbering: str  # auto | shift | fixed | base
    number: Optional[int]
    number_location: Optional[Location]
    base: Optional[Name]
    fields: List[FieldDecl]
    hidden: bool = False
    deprecated: bool = False
    request: bool = False
    response: Optional[Name] = None
    rejects: List[RejectDecl] = field(default_factory=list)
    attr_location: Optional[Location] = None  # where [request] etc. were written
    doc: Optional[str] = None


@dataclass(slots=True)
class VariantDecl:
    """`variant Name { T; T; ... }`: a value that is one of the alternatives, each a type."""

    name: str
    location: Location
    alternatives: List[TypeExpr]
    hidden: bool = False
    deprecated: bool = False
    doc: Optional[str] = None
    kind: str = "variant"
    misread: bool = False  # an alternative had a syntax error (it is not in `alternatives`)


@dataclass(slots=True)
class ImportDecl:
    name: str
    location: Location


@dataclass(slots=True)
class OptionDecl:
    """`option NAME = "VALUE"` in the file header (docs/schema-language.md#options)."""
    name: str
    value: str
    location: Location  # of the name


# The options a schema may set: each is read by one generator, and the others ignore it.
# The value's check returns an error message, or None when the value is good.
GO_IMPORT_PATH = re.compile(
    r"[A-Za-z0-9_~-][A-Za-z0-9._~-]*(?:/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*")
GO_IMPORT_PATH_RULE = "elements of letters, digits and '-._~', separated by '/'"


def _check_go_import(value: str) -> Optional[str]:
    if GO_IMPORT_PATH.fullmatch(value):
        return None
    return f"{value!r} is not a Go import path ({GO_IMPORT_PATH_RULE})"


OPTIONS: Dict[str, Callable[[str], Optional[str]]] = {
    "go_import": _check_go_import,  # Go: the import path of the output folder (--go-import)
}


@dataclass(slots=True)
class FileDecl:
    path: str
    package: Optional[str]
    package_location: Optional[Location]
    domain: Optional[str] = None
    offset: int = 0
    offset_location: Optional[Location] = None
    version: Optional[Tuple[int, int]] = None
    imports: List[ImportDecl] = field(default_factory=list)
    options: List[OptionDecl] = field(default_factory=list)
    declarations: list = field(default_factory=list)  # EnumDecl | StructDecl | VariantDecl
    doc: Optional[str] = None
