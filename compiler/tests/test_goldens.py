"""Generated code equals the goldens checked in under tests/golden/ (scripts/update-goldens).

A generator change shows up in review as a diff of the generated files; this test fails
until the goldens are regenerated and committed with the change.
"""

import os

import pytest

from fastwire import Reporter, compile_schema
from fastwire.generators import GENERATORS, LANGUAGES, Options

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(REPO, "tests", "golden")
OPTIONS = Options(json=True, proto=True, final=True)


def generated(lang, path="schemas/everything.fbe"):
    reporter = Reporter()
    schema = compile_schema(os.path.join(REPO, path), reporter)
    assert schema is not None, [d.render() for d in reporter.diagnostics]
    return GENERATORS[lang](schema, OPTIONS)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_generated_code_matches_goldens(lang):
    """Every registered language has goldens: tests/golden/<language>, from its
    golden_schemas (scripts/update-goldens writes them)."""
    files = {}
    for path in LANGUAGES[lang].golden_schemas:
        files.update(generated(lang, path))
    folder = os.path.join(GOLDEN, lang)
    on_disk = sorted(os.path.relpath(os.path.join(d, f), folder)
                     for d, _, fs in os.walk(folder) for f in fs)
    assert on_disk == sorted(files), "run scripts/update-goldens"
    for rel, content in files.items():
        with open(os.path.join(folder, rel), encoding="utf-8") as fh:
            assert fh.read() == content, f"{lang}/{rel} differs: run scripts/update-goldens"


def test_generation_is_deterministic():
    assert generated("cpp") == generated("cpp")
