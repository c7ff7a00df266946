"""Runs one language's benchmark and writes what it printed to bench/results/<language>.md.

    python3 bench/record.py LANGUAGE --toolchain 'go version' --peer 'fastwire Go' \
        --peer 'fastwire C++ (fastwire_account_bench)' -- COMMAND...

make bench-<language> runs its benchmark through this: the command's output goes to the
terminal as it comes and, when the command succeeds, into the results file with the
machine (CPU, cores, OS, the toolchain's version), the date, the load average before and
after, and the peers that ran in the same run. The READMEs quote that file; what the
figures taught is in docs/performance/<language>.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import List

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "bench" / "results"


def cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def version(command: str) -> str:
    if not command:
        return "-"
    r = subprocess.run(command, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.stdout.strip().splitlines()[0] if r.stdout.strip() else "unknown"


def render(language: str, machine: List[str], peers: List[str], output: str) -> str:
    lines = [f"# {language} benchmark results", "",
             f"Written by `make bench-{language}` (bench/record.py); do not edit by hand.", "",
             "## Machine", ""]
    lines += [f"- {m}" for m in machine]
    lines += ["", "## Peers in this run", ""]
    lines += [f"- {p}" for p in peers] or ["- fastwire only"]
    lines += ["", "## Output", "", "```text", output.rstrip("\n"), "```", ""]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("language")
    ap.add_argument("--toolchain", default="", help="a shell command printing the toolchain's version")
    ap.add_argument("--peer", action="append", default=[], help="what else ran in the same run")
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        ap.error("the benchmark's command goes after --")
    cut = argv.index("--")
    args = ap.parse_args(argv[:cut])
    command = argv[cut + 1:]
    before = load()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    captured: List[str] = []
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        captured.append(line)
    rc = proc.wait()
    if rc != 0:
        print(f"bench/record.py: the benchmark failed (exit {rc}); bench/results/{args.language}.md left as it was")
        return rc
    machine = [f"cpu: {cpu()}", f"logical cores: {os.cpu_count()}",
               f"os: {platform.system()} {platform.release()}",
               f"toolchain: {version(args.toolchain)}",
               f"date utc: {started} to {time.strftime('%H:%M', time.gmtime())}",
               f"load average (1, 5, 15 min): {before} before, {load()} after"]
    RESULTS.mkdir(parents=True, exist_ok=True)
    out = RESULTS / f"{args.language}.md"
    out.write_text(render(args.language, machine, args.peer, "".join(captured)), encoding="utf-8")
    print(f"bench/record.py: wrote {out.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
