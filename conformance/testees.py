"""The languages the conformance suite runs: the compiler's registry of languages
(compiler/fastwire/generators/__init__.py, LANGUAGES: each language's `testee`), plus
testees that are not a language (EXTRA_TESTEES there).

Adding a language: its registry entry, and conformance/known_failures/<language>.txt (empty,
or the names of the cases it is known to fail). `run` is the testee command and
`prepare` an optional command run first (e.g. to generate its code, or to build the
testee when it is missing or stale); both are run from the repository root, and
"{python}" stands for the Python running the suite. `prepare` may print progress to
stderr, which the runner passes through; its stdout is shown only when it fails (exit
status other than 0 fails the language). A language registered here without its testee
executable fails the suite.
"""

from __future__ import annotations

import os
import sys
from typing import Dict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "compiler"))
from fastwire.generators import (  # noqa: E402 - after the path to the compiler
    CONFORMANCE_SCHEMAS,
    EXTRA_TESTEES,
    LANGUAGES,
    Testee,
)

# The schemas every testee's generated code must cover (relative to the repository).
SCHEMAS = CONFORMANCE_SCHEMAS

# One entry per language in the generators' registry, and the testees that are not a
# language of their own.
TESTEES: Dict[str, Testee] = {name: lang.testee for name, lang in LANGUAGES.items()
                              if lang.testee is not None}
TESTEES.update(EXTRA_TESTEES)
