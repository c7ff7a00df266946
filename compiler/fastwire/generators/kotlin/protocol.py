"""The protocol (Sender/Receiver) of a package, in Kotlin."""

from __future__ import annotations

from typing import TYPE_CHECKING, Dict

from ... import ir

if TYPE_CHECKING:
    from .generator import KotlinGen


def protocol_files(g: "KotlinGen", pkg: ir.Package) -> Dict[str, str]:
    return {}
