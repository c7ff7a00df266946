"""The goal table: Rust's CPU time per call (rust/bench's `profile cpu`) beside fastwire
C++'s (its account benchmark's CPU-time medians), measured in the same session, with the
ratio to the goal of 1.5x and the load.

    python3 rust/bench/compare.py <profile binary> <C++ fastwire_account_bench>
"""

import json
import os
import subprocess
import sys

ROWS = [
    ("versioned/serialize", "BM_Serialize"),
    ("versioned/deserialize", "BM_Deserialize"),
    ("versioned/verify", "BM_Verify"),
    ("final/serialize", "BM_FinalSerialize"),
    ("final/deserialize", "BM_FinalDeserialize"),
    ("final/verify", "BM_FinalVerify"),
]
GOAL = 1.5


def load() -> str:
    with open("/proc/loadavg") as fh:
        return " ".join(fh.read().split()[:3])


def rust(profile: str) -> dict:
    out = subprocess.run([profile, "cpu"], check=True, capture_output=True, text=True).stdout
    return {row: float(ns) for row, ns in (line.split() for line in out.splitlines())}


def cpp(bench: str) -> dict:
    if not os.access(bench, os.X_OK):
        return {}
    names = "|".join(name for _, name in ROWS)
    out = subprocess.run([bench, f"--benchmark_filter=^({names})$", "--benchmark_repetitions=7",
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         check=True, capture_output=True, text=True).stdout
    res = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            scale = {"ns": 1.0, "us": 1e3, "ms": 1e6}[b.get("time_unit", "ns")]
            res[b["run_name"]] = b["cpu_time"] * scale
    return res


def main() -> int:
    profile, bench = sys.argv[1], sys.argv[2]
    before = load()
    r = rust(profile)
    c = cpp(bench)
    print(f"load average before {before}, after {load()}; CPU time per call, medians")
    print(f"| seed account | Rust (ns) | C++ (ns) | Rust / C++ | goal <= {GOAL} |")
    print("|---|---:|---:|---:|---|")
    for row, name in ROWS:
        if name in c:
            ratio = r[row] / c[name]
            ok = "met" if ratio <= GOAL else "not met"
            print(f"| {row} | {r[row]:.1f} | {c[name]:.1f} | {ratio:.2f} | {ok} |")
        else:
            print(f"| {row} | {r[row]:.1f} | (no C++ benchmark at {bench}) | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
