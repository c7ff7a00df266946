"""Runs the JMH benchmark of the seed account for Java and Kotlin (java/bench-java,
java/bench-kotlin, built by make bench-java) and prints the median of the measured
iterations of each benchmark, in ns per operation, beside the goals of issue #22.

    python3 java/bench/run.py [--quick] [--cpu] [--cpp PATH/TO/fastwire_account_bench]

--cpp also runs fastwire C++'s account benchmark in the same session, for scale. --cpu
also times the binary operations by the thread's CPU clock (dev.fastwire.bench.CpuTime:
the median of 25 samples), which a loaded machine disturbs far less than JMH's wall clock.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOALS = {"serializeVersioned": 50, "serializeFinal": 40, "deserializeVersioned": 70,
         "deserializeFinal": 60, "verifyVersioned": 25, "verifyFinal": 15}
ORDER = ["serializeVersioned", "serializeFinal", "deserializeVersioned", "deserializeFinal",
         "verifyVersioned", "verifyFinal", "jsonWrite", "jsonRead"]


def jmh(lang: str, quick: bool) -> dict:
    build = os.path.join(REPO, "build", "java", f"bench-{lang}")
    cp = open(os.path.join(build, "classpath.txt")).read().strip()
    cp = os.path.join(build, "classes") + os.pathsep + cp
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "result.json")
        args = ["java", f"-Dfastwire.root={REPO}", "-cp", cp, "org.openjdk.jmh.Main",
                "AccountBench", "-rf", "json", "-rff", out]
        if quick:
            args += ["-wi", "1", "-i", "2", "-w", "200ms", "-r", "200ms", "-f", "1"]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
        with open(out) as fh:
            results = json.load(fh)
    medians = {}
    for r in results:
        name = r["benchmark"].rsplit(".", 1)[1]
        raw = [x for fork in r["primaryMetric"]["rawData"] for x in fork]
        medians[name] = statistics.median(raw)
    return medians


def cpu(lang: str) -> dict:
    build = os.path.join(REPO, "build", "java", f"bench-{lang}")
    cp = open(os.path.join(build, "classpath.txt")).read().strip()
    cp = os.path.join(build, "classes") + os.pathsep + cp
    r = subprocess.run(["java", f"-Dfastwire.root={REPO}", "-cp", cp, "dev.fastwire.bench.CpuTime"],
                       check=True, stdout=subprocess.PIPE, text=True)
    return {name: float(t) for name, t in (line.split() for line in r.stdout.splitlines())}


def cpp(path: str) -> dict:
    r = subprocess.run([path, "--benchmark_format=json", "--benchmark_repetitions=5",
                        "--benchmark_report_aggregates_only=true"],
                       check=True, stdout=subprocess.PIPE)
    data = json.loads(r.stdout)
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            out[b["run_name"]] = (b["real_time"], b["cpu_time"])
    return out


def main() -> int:
    quick = "--quick" in sys.argv
    cpp_path = sys.argv[sys.argv.index("--cpp") + 1] if "--cpp" in sys.argv else None
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else ["?"]
    results = {lang: jmh(lang, quick) for lang in ("java", "kotlin")}
    print(f"JMH medians, ns/op (load average {' '.join(load)}):")
    print(f"{'benchmark':24} {'Java':>8} {'Kotlin':>8} {'goal':>6}")
    for name in ORDER:
        goal = GOALS.get(name)
        print(f"{name:24} {results['java'].get(name, float('nan')):8.1f} "
              f"{results['kotlin'].get(name, float('nan')):8.1f} {goal if goal else '':>6}")
    if "--cpu" in sys.argv:
        times = {lang: cpu(lang) for lang in ("java", "kotlin")}
        print("CPU-time medians, ns/op (CpuTime):")
        for name in ORDER[:6]:
            print(f"{name:24} {times['java'][name]:8.1f} {times['kotlin'][name]:8.1f} {GOALS[name]:>6}")
    if cpp_path:
        print("fastwire C++ (same session, Google Benchmark medians, ns: wall, CPU):")
        for name, (t, c) in cpp(cpp_path).items():
            print(f"  {name:60} {t:8.1f} {c:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
