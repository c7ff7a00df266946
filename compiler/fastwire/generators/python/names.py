"""Python names: of schema identifiers, of the types a field refers to, and of the standard
types a module imports (recorded as they are used, so the module imports only those)."""

from __future__ import annotations

from typing import AbstractSet, Dict, Set, Tuple

from ..common import naming

# Attribute names the generated classes use themselves.
CLASS_NAMES = {"self", "to_json", "from_json"}


def pyname(name: str, taken: AbstractSet[str] = frozenset()) -> str:
    """A schema identifier as a Python identifier: keywords and clashes get a trailing _,
    and a leading __ (which Python would mangle inside a class) becomes f__."""
    if name.startswith("__") and not name.endswith("__"):
        name = "f" + name
    name = naming.ident("python", name)
    while name in taken:
        name = naming.ident("python", name + "_")
    return name


def member_name(name: str) -> str:
    """An enum member name Python's enum module accepts."""
    if name.startswith("__") and not name.endswith("__"):
        return "m" + name
    if (name in naming.RESERVED["python"] or name in ("mro", "name", "value")
            or (len(name) > 1 and name[0] == "_" and name[-1] == "_")):
        return name + "_"
    return name


def field_attr(name: str) -> str:
    """The attribute of a field in the generated class."""
    return pyname(name, CLASS_NAMES)


def split(qualified: str, package: str) -> Tuple[str, str]:
    """(module prefix, name) of a qualified type name seen from `package`: the prefix is
    empty for the package's own types, else the imported module's alias and a dot."""
    pkg, _, name = qualified.rpartition(".")
    return ("" if pkg == package else f"_{pkg}."), name


class StandardNames(Dict[str, object]):
    """Decimal, UUID and Optional as the module names them (`_Decimal` where the package
    declares a type `Decimal`); a template that looks one up marks it used."""

    def __init__(self, local: AbstractSet[str]):
        super().__init__({n: f"_{n}" if n in local else n for n in ("Decimal", "UUID", "Optional")})
        self.used: Set[str] = set()

    def __getitem__(self, key: str) -> object:
        value = super().__getitem__(key)
        self.used.add(key)
        return value
