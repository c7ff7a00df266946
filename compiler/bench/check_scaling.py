#!/usr/bin/env python3
"""How `fastwire check` scales with the size of a schema: seconds and peak memory.

    python3 compiler/bench/check_scaling.py             # 0.5, 1, 2 and 10 MB
    python3 compiler/bench/check_scaling.py 0.5 4 --timeout 300

Writes one schema per size into a temporary folder (structs that each hold the previous
one through an optional and a vector, in chains of 100, plus scalar fields with
defaults: the resolver's every lookup and check is exercised) and runs `python3 -m fastwire check` on it under
`/usr/bin/time -v`, printing wall seconds and peak RSS. Timings depend on the machine
and its load; compiler/tests/test_scaling.py checks the growth without a clock.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

COMPILER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def schema(megabytes: float) -> str:
    """A valid schema of about `megabytes` MB."""
    target = int(megabytes * 1_000_000)
    parts = ["package big\n\n"]
    size = len(parts[0])
    i = 0
    while size < target:
        prev = f"S{i - 1}" if i % 100 else "int64"  # chains of 100 structs
        line = (f"struct S{i} {{ int32 a = 5; string b = \"x\"; {prev}? c; {prev}[] d; "
                f"double e; }}\n")
        parts.append(line)
        size += len(line)
        i += 1
    return "".join(parts)


def measure(path: str, timeout: float) -> str:
    env = dict(os.environ, PYTHONPATH=COMPILER)
    cmd = ["/usr/bin/time", "-v", sys.executable, "-m", "fastwire", "check", path]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"did not finish in {timeout:g} s"
    wall = re.search(r"Elapsed \(wall clock\) time.*: (.+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if not wall or not rss:
        return "no figures: " + done.stderr[-300:]
    clock = [float(x) for x in wall.group(1).split(":")]
    seconds = sum(x * 60 ** i for i, x in enumerate(reversed(clock)))
    cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)",
                                            done.stderr))
    status = "" if done.returncode == 0 else f" (exit {done.returncode})"
    return (f"{seconds:7.2f} s wall {cpu:7.2f} s CPU {int(rss.group(1)) / 1024:7.0f} MB peak "
            f"RSS{status}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=float, default=[0.5, 1, 2, 10], help="MB")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per size")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.sizes:
            path = os.path.join(tmp, f"big{mb:g}.fbe")
            with open(path, "w") as fh:
                fh.write(schema(mb))
            structs = open(path).read().count("struct ")
            print(f"{mb:5g} MB ({structs:6d} structs): {measure(path, args.timeout)}",
                  flush=True)


if __name__ == "__main__":
    main()
