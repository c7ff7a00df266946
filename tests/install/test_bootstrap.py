"""scripts/bootstrap: per-group setup, and a clear message off Debian."""

from __future__ import annotations

import os
import shutil
import subprocess

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "scripts", "bootstrap")


def test_off_debian_it_says_what_it_needs(tmp_path):
    # A PATH with the shell tools the script uses, but no dpkg-query and no apt-get.
    for tool in ("bash", "sort", "grep", "awk", "sed", "env", "python3", "id"):
        os.symlink(shutil.which(tool), tmp_path / tool)
    r = subprocess.run(["bash", SCRIPT, "build"], env={"PATH": str(tmp_path), "HOME": str(tmp_path)},
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "not a Debian system" in r.stderr
    assert "cmake" in r.stderr and "libgtest-dev" in r.stderr
    assert "clang-format-14" not in r.stderr  # build needs no lint tools


def test_unknown_group_is_refused():
    r = subprocess.run([SCRIPT, "buidl"], capture_output=True, text=True)
    assert r.returncode == 2
    assert "unknown group 'buidl'" in r.stderr
