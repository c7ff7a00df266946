"""The languages the conformance suite runs: one line each.

Adding a language: one line here, and conformance/known_failures/<language>.txt (empty,
or the names of the cases it is known to fail). `run` is the testee command and
`prepare` an optional command run first (e.g. to generate its code, or to build the
testee when it is missing or stale); both are run from the repository root, and
"{python}" stands for the Python running the suite. `prepare` may print progress to
stderr, which the runner passes through; its stdout is shown only when it fails (exit
status other than 0 fails the language). A language registered here without its testee
executable fails the suite.
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional

# The schemas every testee's generated code must cover (relative to the repository).
SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe", "conformance/schemas/hostile.fbe"]


class Testee(NamedTuple):
    run: List[str]
    prepare: Optional[List[str]] = None


TESTEES = {
    "python": Testee(
        run=["{python}", "conformance/python/testee.py", "build/conformance/python"],
        prepare=["{python}", "-m", "fastwire", "compile", *SCHEMAS, "--lang", "python",
                 "--final", "--json", "--proto", "-q", "-o", "build/conformance/python"],
    ),
    "cpp": Testee(
        run=["build/conformance-cpp/fastwire-conformance-testee"],
        prepare=["{python}", "conformance/cpp/build.py"],
    ),
}
