"""Names per language, as tables: reserved words, how a clash is escaped, case rules and
file names. A new language adds one row to each table (docs/adding-a-language.md).

    naming.ident("cpp", "class")          # 'class_'
    naming.file_name("python", "proto", "module")   # 'proto_fbe.py'
    naming.module_name("python", "json")            # 'json_fbe'
"""

from __future__ import annotations

import keyword
import re
from typing import Dict, FrozenSet

# Words a generated identifier must not be, per language.
RESERVED: Dict[str, FrozenSet[str]] = {
    "cpp": frozenset("""
        alignas alignof and and_eq asm auto bitand bitor bool break case catch char class
        compl const constexpr const_cast continue decltype default delete do double
        dynamic_cast else enum explicit export extern false float for friend goto if inline
        int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private
        protected public register reinterpret_cast return short signed sizeof static
        static_assert static_cast struct switch template this thread_local throw true try
        typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
        xor_eq char8_t char16_t char32_t concept requires co_await co_return co_yield
        consteval constinit NULL errno assert std fastwire""".split()),
    "python": frozenset(keyword.kwlist),
    "java": frozenset("""
        abstract assert boolean break byte case catch char class const continue default do
        double else enum extends final finally float for goto if implements import
        instanceof int interface long native new package private protected public return
        short static strictfp super switch synchronized this throw throws transient try void
        volatile while true false null var yield record sealed permits _ CODEC TYPE Codec
        Fields""".split()),
    "kotlin": frozenset("""
        as break class continue do else false for fun if in interface is null object package
        return super this throw true try typealias typeof val var when while CODEC TYPE
        Codec Fields""".split()),
}

# How a reserved name is escaped: this suffix is appended (until the name is free).
ESCAPE_SUFFIX: Dict[str, str] = {"cpp": "_", "python": "_", "java": "_", "kotlin": "_"}

# Generated file names per language and role; {package} is the schema package's name.
# One place per language, so a renaming scheme changes one row. Python modules end in
# `_fbe` (as protobuf's end in `_pb2`): a package named `json`, `proto` or `class` must not
# hide the standard library or an installed distribution, nor be a keyword.
FILES: Dict[str, Dict[str, str]] = {
    "cpp": {"domain": "{package}.h", "models": "{package}_models.h",
            "json": "{package}_json.h", "protocol": "{package}_protocol.h",
            "final_protocol": "{package}_final_protocol.h"},
    "python": {"module": "{package}_fbe.py"},
    # One folder per package (the domain and the package name), one file per type.
    "java": {"type": "{package}/{type}.java"},
    "kotlin": {"type": "{package}/{type}.kt"},
}


def ident(language: str, name: str) -> str:
    """A schema name as an identifier of `language`: escaped when reserved."""
    reserved = RESERVED[language]
    while name in reserved:
        name += ESCAPE_SUFFIX[language]
    return name


def file_name(language: str, package: str, role: str) -> str:
    return FILES[language][role].format(package=package)


def module_name(language: str, package: str) -> str:
    """The importable name of a package's module (its file name without the extension)."""
    return file_name(language, package, "module").rsplit(".", 1)[0]


# ---- case rules -------------------------------------------------------------------------

def snake(name: str) -> str:
    """`OrderMessage` -> `order_message`, `HTTPServer` -> `http_server`."""
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s)
    return s.lower()


def pascal(name: str) -> str:
    """`order_message` -> `OrderMessage`; names already in Pascal case stay."""
    return "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)


def camel(name: str) -> str:
    """`order_message` -> `orderMessage`."""
    p = pascal(name)
    return p[:1].lower() + p[1:]
