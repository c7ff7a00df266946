"""The protocol (Sender/Receiver) of a package, in Java."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from ... import ir

if TYPE_CHECKING:
    from .generator import JavaGen


def protocol_files(g: "JavaGen", pkg: ir.Package) -> Dict[str, str]:
    return {}
