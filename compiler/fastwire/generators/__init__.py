"""Code generators: each is a function from the IR (plus options) to a set of files.

A generator never reads schema text and never reports schema errors: by the time it
runs, the resolver has proven the schema valid. Generators for languages that are not
written yet are listed in `PLANNED`, so the CLI can say so in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict

from .. import ir


@dataclass(frozen=True)
class Options:
    final: bool = False  # also generate the compact final format
    json: bool = False  # also generate JSON conversion
    proto: bool = False  # also generate the Sender/Receiver protocol
    indent: int = 4
    tabs: bool = False


# A generator returns {relative path: file content}.
Generator = Callable[[ir.Schema, Options], Dict[str, str]]


def _ir_json(schema: ir.Schema, options: Options) -> Dict[str, str]:
    from ..ir_json import to_json
    return {f"{schema.root}.ir.json": to_json(schema)}


def _cpp(schema: ir.Schema, options: Options) -> Dict[str, str]:
    from .cpp import generate
    return generate(schema, options)


GENERATORS: Dict[str, Generator] = {
    "ir-json": _ir_json,
    "cpp": _cpp,
    "python": lambda s, o: __import__(__name__ + ".python", fromlist=["_"]).generate(s, o),
}

# Languages the reference compiler's flags name, and the ones fastwire plans on top.
PLANNED = {
    "cpp": "C++", "python": "Python", "go": "Go", "java": "Java", "javascript": "JavaScript",
    "kotlin": "Kotlin", "csharp": "C#", "ruby": "Ruby", "swift": "Swift", "rust": "Rust",
    "typescript": "TypeScript",
}
