"""Options every generator takes (the CLI's --final, --json, --proto, --indent, --tabs), and
the few one language reads (--go-import, --pmr)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    final: bool = False  # also generate the compact final format
    json: bool = False  # also generate JSON conversion
    proto: bool = False  # also generate the Sender/Receiver protocol
    indent: int = 4
    tabs: bool = False
    go_import: str = ""  # Go: the import path the package folders live under (--go-import)
    cpp_pmr: bool = False  # C++: std::pmr strings and collections, allocator-aware structs (--pmr)
