#!/usr/bin/env python3
"""Compiler launcher for the bench peers (RULE_LAUNCH_COMPILE, see fwb.cmake).

    fwb_compile_time.py <compiler> <args...>

Runs the compiler command unchanged and, when it succeeds, writes `<object>.time` next to
the object named by `-o`: one line `cpu=<s> wall=<s>`, where cpu is the user + system CPU
seconds of the compiler and every process it waited for (cc1plus, as), and wall is the
elapsed time. fastwire_bench.code_sizes() sums these per peer for the code-size table.
Exits with the compiler's status.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import time


def object_path(argv: list[str]) -> str | None:
    """The file after `-o` (or joined, `-ofile`), if any."""
    for i, arg in enumerate(argv):
        if arg == "-o" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("-o") and len(arg) > 2:
            return arg[2:]
    return None


def main(argv: list[str]) -> int:
    if not argv:
        print("fwb_compile_time.py: no command", file=sys.stderr)
        return 2
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    status = subprocess.call(argv)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    obj = object_path(argv)
    if status == 0 and obj:
        tmp = f"{obj}.time.tmp"
        with open(tmp, "w") as f:
            f.write(f"cpu={cpu:.3f} wall={wall:.3f}\n")
        os.replace(tmp, f"{obj}.time")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
