"""The READMEs are user's guides, and the root README's Status table is current.

- Every README.md is at most BUDGET lines: the engineering history (dated runs, what was
  tried) lives in docs/performance/<language>.md, the figures in bench/results/<language>.md,
  long C++ reference pages under docs/cpp/. OVER_BUDGET lists the READMEs not rewritten
  yet; it must be exactly the ones over the budget, so it only shrinks.
- No README carries a dated run (a date like 2026-11-24): the date of a figure belongs to
  the results file its benchmark writes. DATED lists the READMEs not cleaned yet, the
  same way.
- No row of the root README's Status table says "pending": a row says what is done, or
  is planned.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Dict, List

REPO = Path(__file__).resolve().parents[2]
BUDGET = 400

# README -> its line count today: over the budget, not yet rewritten (issue 38).
OVER_BUDGET: Dict[str, int] = {}
# README -> how many dates it still carries (issue 38).
DATED: Dict[str, int] = {}
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def readmes() -> List[str]:
    listed = subprocess.run(["git", "ls-files", "*README.md"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.split()
    return [name for name in listed if (REPO / name).exists()]


def lines(name: str) -> int:
    return len((REPO / name).read_text(encoding="utf-8").splitlines())


def over_budget(names: List[str], budget: int) -> Dict[str, int]:
    return {name: n for name in names if (n := lines(name)) > budget}


def test_every_readme_is_within_its_budget() -> None:
    over = over_budget(readmes(), BUDGET)
    assert sorted(set(over) - set(OVER_BUDGET)) == [], f"READMEs over {BUDGET} lines: {over}"
    assert sorted(set(OVER_BUDGET) - set(over)) == [], \
        "within the budget now: drop them from OVER_BUDGET"
    for name, n in over.items():
        assert n <= OVER_BUDGET[name], f"{name} grew from {OVER_BUDGET[name]} to {n} lines"


def test_the_budget_check_can_fail() -> None:
    assert over_budget(["README.md"], 10) == {"README.md": lines("README.md")}
    assert over_budget(["README.md"], 10_000) == {}


def dates(names: List[str]) -> Dict[str, int]:
    return {name: n for name in names if (n := len(DATE.findall((REPO / name).read_text(encoding="utf-8"))))}


def test_no_readme_carries_a_dated_run() -> None:
    dated = dates(readmes())
    assert sorted(set(dated) - set(DATED)) == [], f"READMEs with dates in them: {dated}"
    assert sorted(set(DATED) - set(dated)) == [], "without dates now: drop them from DATED"
    for name, n in dated.items():
        assert n <= DATED[name], f"{name} has {n} dates, {DATED[name]} before"


def status_rows(text: str) -> List[str]:
    """the rows of the table under '## Status'"""
    m = re.search(r"^## Status\s*$(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, "README.md has no '## Status' section"
    rows = [line for line in m.group(1).splitlines() if line.startswith("|")]
    return [r for r in rows[2:]]  # past the header and the |---| line


def pending(rows: List[str]) -> List[str]:
    return [r for r in rows if re.search(r"\bpending\b", r, re.I)]


def test_no_status_row_is_pending() -> None:
    rows = status_rows((REPO / "README.md").read_text(encoding="utf-8"))
    assert len(rows) > 5
    assert pending(rows) == []


def test_the_pending_check_can_fail() -> None:
    text = "## Status\n| part | state |\n|---|---|\n| Rust | done; quiet re-run Pending |\n| Go | done |\n"
    assert pending(status_rows(text)) == ["| Rust | done; quiet re-run Pending |"]
