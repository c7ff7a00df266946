"""Names and spellings Java and Kotlin share: the package of an FBE package, the schema
class, a float's digits, the runtime's Scalar constants."""

from __future__ import annotations

from typing import List

from ... import ir
from ..common import naming

SCALAR_ENUM = {  # wire scalar -> dev.fastwire.Scalar constant
    "byte": "BYTE", "char": "CHAR", "wchar": "WCHAR", "int8": "INT8", "uint8": "UINT8",
    "int16": "INT16", "uint16": "UINT16", "int32": "INT32", "uint32": "UINT32",
    "int64": "INT64", "uint64": "UINT64",
}


def java_package(pkg: ir.Package) -> str:
    parts = (pkg.domain.split(".") if pkg.domain else []) + [pkg.name]
    return ".".join(naming.ident("java", part) for part in parts)


def schema_class(pkg: ir.Package) -> str:
    return naming.pascal(pkg.name) + "Schema"


def float_literal(x: float) -> str:
    text = repr(x)
    if "e" not in text and "." not in text:
        text += ".0"
    return text


class Lines:
    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.level = 0
        self.out: List[str] = []

    def __call__(self, *lines: str) -> None:
        for text in lines:
            for line in text.split("\n"):
                self.out.append((self.unit * self.level + line) if line else "")

    def open(self, line: str) -> None:
        self(line)
        self.level += 1

    def close(self, line: str = "}") -> None:
        self.level -= 1
        self(line)

    def text(self) -> str:
        return "\n".join(self.out) + "\n"
