"""fastwire-bench — run the serializer comparison and print or write its report.

Drives the C++ runner (build/bench/fastwire-bench-core), which checks that every selected
serializer round-trips every selected data set and then times them with Google Benchmark.
This front end formats tables (text, CSV, Markdown), writes bench/results/latest.* and the
chart, and adds the machine description and the code-size table.

    fastwire-bench -l
    fastwire-bench -s protobuf,flatbuffers -d account,monsters
    fastwire-bench --quick                 # smoke run, well under a minute
    fastwire-bench --report                # full run, writes bench/results/latest.*

Only the Python standard library is needed, plus matplotlib for the chart.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import io
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_BUILD_DIR = REPO_DIR / "build" / "bench"
RESULTS_DIR = BENCH_DIR / "results"
CORE_NAME = "fastwire-bench-core"

# The ratio column's baseline: fastwire final when it exists, else this peer.
FASTWIRE_REFERENCE = "fastwire-final"
DEFAULT_REFERENCE = "handwritten"

# A full run times each benchmark in 5 fresh processes (1 repetition each) rather than 5
# repetitions in one: where code and data land in memory changes from one process to the
# next (address-space randomisation, allocation order) and moves the smallest rows (a few
# ns) by up to 40 %, while the repetitions inside one process agree within 2 %. The median
# over processes is reported and the spread across them (bench/README.md, after the columns).
# Each process also starts its heap at another offset (--heap-offset, process i: i × 816
# bytes modulo 4 KiB; 816 = 51 × 16, so the five fall on every 16-byte phase of a 64-byte
# cache line and spread over a page): the median is then over five placements of the
# codecs, buffers and values rather than five runs of the one placement a build happens
# to give, which favoured one serializer or another from build to build.
HEAP_OFFSET_STEP = 816
FULL = {"processes": 5, "repetitions": 1, "min_time": 0.1, "warmup": 0.05}
QUICK = {"processes": 1, "repetitions": 1, "min_time": 0.002, "warmup": 0.0}

OPS = ("serialize", "deserialize", "deserialize_fresh", "verify", "read_few")


class UsageError(Exception):
    pass


def csv_list(text: str) -> list[str]:
    items = [t.strip() for t in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(f"empty name in list {text!r}")
    return items


def positive_int(text: str) -> int:
    value = int(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError("must be > 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fastwire-bench",
        description="Compare fastwire with other C++ serializers on the bench data sets.",
    )
    p.add_argument("-l", "--list", action="store_true", help="list serializers and data sets, then exit")
    p.add_argument("-s", "--serializers", type=csv_list, metavar="a,b",
                   help="comma-separated serializers (row names or families, e.g. thrift)")
    p.add_argument("-d", "--datasets", type=csv_list, metavar="x,y", help="comma-separated data sets")
    timing = p.add_mutually_exclusive_group()
    timing.add_argument("-i", "--iterations", type=positive_int, metavar="N",
                        help="fixed iterations per repetition (instead of --min-time)")
    timing.add_argument("--min-time", type=positive_float, metavar="S",
                        help=f"minimum seconds per repetition (default {FULL['min_time']})")
    p.add_argument("-p", "--processes", type=positive_int, metavar="N",
                   help=f"runs of the runner, each a fresh process; the median over them is reported "
                        f"and their spread (default {FULL['processes']})")
    p.add_argument("-r", "--repetitions", type=positive_int, metavar="R",
                   help=f"repetitions in each process; its median is its figure "
                        f"(default {FULL['repetitions']})")
    p.add_argument("--warmup", type=float, metavar="S", help="untimed warm-up seconds per benchmark")
    p.add_argument("--quick", action="store_true",
                   help="smoke run: 1 repetition, tiny min-time; exits non-zero if a round trip fails")
    p.add_argument("--check", action="store_true", help="only the round-trip check, no timing")
    out = p.add_mutually_exclusive_group()
    out.add_argument("-c", "--csv", action="store_true", help="print CSV instead of the text table")
    out.add_argument("--markdown", action="store_true", help="print Markdown instead of the text table")
    p.add_argument("--json", metavar="FILE", help="also write the full results as JSON to FILE")
    p.add_argument("--reference", metavar="PEER",
                   help=f"baseline of the ratio columns (default {FASTWIRE_REFERENCE} once it has results, "
                        f"else {DEFAULT_REFERENCE})")
    p.add_argument("--report", action="store_true",
                   help=f"write {RESULTS_DIR.relative_to(REPO_DIR)}/latest.{{md,csv,json,png,svg}}")
    p.add_argument("--charts-from", type=Path, metavar="JSON",
                   help="only redraw the charts (latest.*, summary.*) from a results JSON "
                        "this tool wrote, e.g. bench/results/latest.json; runs nothing")
    p.add_argument("--results-dir", type=Path, default=RESULTS_DIR, help=argparse.SUPPRESS)
    p.add_argument("--build-dir", type=Path, default=DEFAULT_BUILD_DIR,
                   help=f"where {CORE_NAME} was built (default build/bench)")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    args = build_parser().parse_args(argv)
    preset = QUICK if args.quick else FULL
    if args.processes is None:
        args.processes = 1 if args.check else preset["processes"]
    if args.repetitions is None:
        args.repetitions = preset["repetitions"]
    if args.min_time is None and args.iterations is None:
        args.min_time = preset["min_time"]
    if args.warmup is None:
        args.warmup = preset["warmup"]
    if args.warmup < 0:
        build_parser().error("--warmup must be >= 0")
    return args


def heap_offset(process: int) -> int:
    """The heap offset of the runner's process `process` (0-based) in a run."""
    return process * HEAP_OFFSET_STEP % 4096


def core_command(args: argparse.Namespace, out_file: str, process: int = 0) -> list[str]:
    """The runner command line for the parsed options, for the run's process `process`."""
    cmd = [str(args.build_dir / CORE_NAME), "--out", out_file,
           "--repetitions", str(args.repetitions), "--warmup", str(args.warmup)]
    if process:
        cmd += ["--heap-offset", str(heap_offset(process))]
    if args.iterations is not None:
        cmd += ["--iterations", str(args.iterations)]
    else:
        cmd += ["--min-time", str(args.min_time)]
    if args.serializers:
        cmd += ["--peers", ",".join(args.serializers)]
    if args.datasets:
        cmd += ["--datasets", ",".join(args.datasets)]
    if args.check:
        cmd.append("--check")
    return cmd


# ---------------------------------------------------------------------------- machine

def _dpkg_version(package: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def machine_info(core_config: dict) -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    info = {
        "cpu": cpu or platform.processor() or "unknown",
        "logical_cores": os.cpu_count(),
        "os": f"{platform.system()} {platform.release()}",
        "compiler": core_config.get("compiler", ""),
        "build": "Release, -O2, no -march",
        "google_benchmark": _dpkg_version("libbenchmark-dev"),
        "python": platform.python_version(),
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }
    try:
        with open("/proc/loadavg") as f:
            info["load_average"] = f.read().split()[0]
    except OSError:
        pass
    return info


# ---------------------------------------------------------------------------- code size

def _object_size(path: str) -> int | None:
    """text + data of an object file (Berkeley `size`), or None."""
    if not path or not Path(path).exists() or not shutil.which("size"):
        return None
    out = subprocess.run(["size", "--format=berkeley", path], capture_output=True, text=True)
    if out.returncode != 0:
        return None
    lines = out.stdout.strip().splitlines()
    if len(lines) < 2:
        return None
    fields = lines[1].split()
    return int(fields[0]) + int(fields[1])


def read_compile_time(path: Path) -> tuple[float, float] | None:
    """(cpu, wall) seconds from an `<object>.time` file (`cpu=<s> wall=<s>`), or None."""
    try:
        text = path.read_text()
    except OSError:
        return None
    fields = dict(f.split("=", 1) for f in text.split() if "=" in f)
    try:
        return float(fields["cpu"]), float(fields["wall"])
    except (KeyError, ValueError):
        return None


def compile_seconds(objects: list[str]) -> dict:
    """The compiler's CPU and wall seconds summed over `objects`, from the `<object>.time`
    files cmake/fwb_compile_time.py writes; both None unless every object has one."""
    times = [read_compile_time(Path(f"{o}.time")) for o in objects if o]
    if not times or any(t is None for t in times):
        return {"compile_cpu_s": None, "compile_wall_s": None}
    return {"compile_cpu_s": sum(t[0] for t in times if t),
            "compile_wall_s": sum(t[1] for t in times if t)}


def code_sizes(build_dir: Path) -> dict:
    manifest = build_dir / "codesize.json"
    if not manifest.exists():
        return {}
    data = json.loads(manifest.read_text())
    sizes = {}
    for family, entry in data.get("peers", {}).items():
        adapter = [_object_size(p) for p in entry.get("adapter", []) if p]
        generated = [_object_size(p) for p in entry.get("generated", []) if p]
        objects = [p for p in entry.get("adapter", []) + entry.get("generated", []) if p]
        files = [Path(p) for p in entry.get("generated_files", []) if p]
        src_bytes = sum(f.stat().st_size for f in files if f.exists())
        src_lines = sum(f.read_text(errors="replace").count("\n") for f in files if f.exists())
        sizes[family] = {
            "adapter_bytes": sum(s for s in adapter if s) if adapter else None,
            "generated_bytes": sum(s for s in generated if s) if generated else None,
            "generated_header_only": bool(files) and not generated,
            "generated_source_bytes": src_bytes if files else None,
            "generated_source_lines": src_lines if files else None,
            **compile_seconds(objects),
        }
    return {"families": sizes, "missing": data.get("missing", [])}


# ---------------------------------------------------------------------------- rows

def reference_peer(results: dict, requested: str | None) -> str:
    if requested:
        return requested
    # fastwire-final once it measures something: while the final format is not built its
    # row exists but is n/a everywhere, and would leave every ratio column blank.
    measured = {r["peer"] for r in results["results"] if r["status"] == "ok"}
    return FASTWIRE_REFERENCE if FASTWIRE_REFERENCE in measured else DEFAULT_REFERENCE


def _ns(row: dict, op: str) -> float | None:
    m = row.get("ops", {}).get(op)
    return m["cpu_ns"] if m and m.get("cpu_ns") else None


def _mbps(size: int | None, ns: float | None) -> float | None:
    return size / ns * 1e3 if size and ns else None  # bytes/ns * 1e9 / 1e6


def build_rows(results: dict, reference: str) -> list[dict]:
    """Flat, display-ready rows, sorted per data set by ser+deser time (n/a and failures last)."""
    peers = {p["name"]: p for p in results["peers"]}
    by_key = {(r["peer"], r["dataset"]): r for r in results["results"]}
    rows = []
    for ds in [d["name"] for d in results["datasets"]]:
        ref = by_key.get((reference, ds))
        ref_ser = _ns(ref, "serialize") if ref else None
        ref_des = _ns(ref, "deserialize") if ref else None
        group = []
        for r in results["results"]:
            if r["dataset"] != ds:
                continue
            ser, des = _ns(r, "serialize"), _ns(r, "deserialize")
            size = r.get("size")
            note = r.get("reason", "")
            if r.get("source"):
                note = f"copies the {r['source']} encoding"
            group.append({
                "dataset": ds,
                "peer": r["peer"],
                "kind": peers.get(r["peer"], {}).get("kind", ""),
                "status": r["status"],
                "note": note,
                "size": size,
                "serialize_ns": ser,
                "deserialize_ns": des,
                "deserialize_fresh_ns": _ns(r, "deserialize_fresh"),
                "verify_ns": _ns(r, "verify"),
                "read_few_ns": _ns(r, "read_few"),
                "serialize_mbps": _mbps(size, ser),
                "deserialize_mbps": _mbps(size, des),
                "serialize_ratio": ser / ref_ser if ser and ref_ser else None,
                "deserialize_ratio": des / ref_des if des and ref_des else None,
            })

        def key(row):
            rank = {"ok": 0, "n/a": 1, "fail": 2}.get(row["status"], 3)
            total = (row["serialize_ns"] or 0) + (row["deserialize_ns"] or 0)
            return (rank, total if total else float("inf"), row["size"] or 0, row["peer"])

        rows += sorted(group, key=key)
    return rows


COLUMNS = [
    ("peer", "serializer"),
    ("size", "size B"),
    ("serialize_ns", "ser ns"),
    ("deserialize_ns", "deser ns"),
    ("deserialize_fresh_ns", "deser fresh ns"),
    ("verify_ns", "verify ns"),
    ("read_few_ns", "read few ns"),
    ("serialize_mbps", "ser MB/s"),
    ("deserialize_mbps", "deser MB/s"),
    ("serialize_ratio", "ser ×REF"),
    ("deserialize_ratio", "deser ×REF"),
]


def _fmt(key: str, value) -> str:
    if value is None:
        return "-"
    if key.endswith("_ratio"):
        return f"{value:.2f}"
    if key.endswith("_ns"):
        return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"
    if key.endswith("_mbps"):
        return f"{value:,.0f}"
    if key == "size":
        return f"{value:,}"
    return str(value)


def _cells(row: dict) -> list[str]:
    if row["status"] != "ok":
        label = "n/a" if row["status"] == "n/a" else "FAIL"
        return [row["peer"], f"{label}: {row['note']}"] + [""] * (len(COLUMNS) - 2)
    return [_fmt(k, row[k]) for k, _ in COLUMNS]


def _headers(reference: str) -> list[str]:
    return [h.replace("REF", reference) for _, h in COLUMNS]


def _dataset_title(results: dict, ds: str) -> str:
    desc = next((d["description"] for d in results["datasets"] if d["name"] == ds), "")
    return f"{ds} — {desc}"


def legend(results: dict, reference: str) -> str:
    cfg = results.get("config", {})
    if cfg.get("check_only"):
        return "round-trip check only (no timing)"
    how = (f"{cfg.get('iterations')} iterations" if cfg.get("iterations")
           else f"min {cfg.get('min_time_s')} s")
    runs = (f"{cfg.get('processes')} processes × {cfg.get('repetitions')} repetition(s)"
            if cfg.get("processes", 1) > 1 else f"{cfg.get('repetitions')} repetitions")
    return (f"CPU ns/op, median of {runs} ({how} each); "
            f"MB/s = encoded bytes / time; ratios = time / {reference}'s time "
            f"(lower is faster); sorted by ser + deser")


def text_table(results: dict, rows: list[dict], reference: str) -> str:
    out = io.StringIO()
    out.write(legend(results, reference) + "\n")
    headers = _headers(reference)
    for ds in [d["name"] for d in results["datasets"]]:
        body = [_cells(r) for r in rows if r["dataset"] == ds]
        if not body:
            continue
        widths = [len(h) for h in headers]
        for cells in body:
            if cells[2] == "":  # n/a or failure: the note spans the row
                widths[0] = max(widths[0], len(cells[0]))
                continue
            widths = [max(w, len(c)) for w, c in zip(widths, cells)]
        out.write(f"\n== {_dataset_title(results, ds)}\n")
        head = (h.rjust(w) if i else h.ljust(w) for i, (h, w) in enumerate(zip(headers, widths)))
        out.write("  ".join(head).rstrip() + "\n")
        for cells in body:
            if cells[2] == "":
                out.write(f"{cells[0].ljust(widths[0])}  {cells[1]}\n")
            else:
                row = (c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(cells, widths)))
                out.write("  ".join(row).rstrip() + "\n")
    return out.getvalue()


def markdown_tables(results: dict, rows: list[dict], reference: str) -> str:
    out = io.StringIO()
    out.write(f"_{legend(results, reference)}_\n")
    headers = _headers(reference)
    for ds in [d["name"] for d in results["datasets"]]:
        body = [r for r in rows if r["dataset"] == ds]
        if not body:
            continue
        out.write(f"\n### {_dataset_title(results, ds)}\n\n")
        out.write("| " + " | ".join(headers) + " |\n")
        out.write("|" + "|".join(["---"] + ["---:"] * (len(headers) - 1)) + "|\n")
        for r in body:
            cells = _cells(r)
            out.write("| " + " | ".join(cells) + " |\n")
    return out.getvalue()


CSV_FIELDS = ["dataset", "peer", "kind", "status", "note", "size", "serialize_ns", "deserialize_ns",
              "deserialize_fresh_ns", "verify_ns", "serialize_mbps", "deserialize_mbps",
              "serialize_ratio", "deserialize_ratio", "compile_cpu_s", "read_few_ns"]


def add_compile_seconds(results: dict, rows: list[dict], sizes: dict) -> None:
    """Gives each row its family's compile CPU seconds (the code-size table's column)."""
    family = {p["name"]: p["family"] for p in results["peers"]}
    fams = sizes.get("families", {})
    for r in rows:
        r["compile_cpu_s"] = fams.get(family.get(r["peer"], ""), {}).get("compile_cpu_s")


def csv_text(rows: list[dict]) -> str:
    out = io.StringIO()
    w = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: ("" if r.get(k) is None else (f"{r[k]:.3f}" if isinstance(r[k], float) else r[k]))
                    for k in CSV_FIELDS})
    return out.getvalue()


def fmt_seconds(value: float | None) -> str:
    """Compile seconds for the code-size table: one decimal, "-" when not measured."""
    return "-" if value is None else f"{value:,.1f}"


def code_size_markdown(results: dict, sizes: dict) -> str:
    fams = sizes.get("families", {})
    if not fams:
        return ""
    out = io.StringIO()
    out.write("Bytes of text + data (`size`, Berkeley format: text includes read-only data and unwind "
              "tables) of each peer's compiled adapter and of the code its generator produced for the "
              "eight data-set schemas. The libraries themselves are shared objects and not counted. "
              "Compile s is the CPU seconds (user + system) the compiler spent on those objects "
              "(adapter and generated code; -O2; one compiler process per object), summed.\n\n")
    out.write("| family | rows | adapter .o (text+data) | generated .o (text+data) | generated source "
              "| compile s |\n")
    out.write("|---|---|---:|---:|---:|---:|\n")
    for fam, s in fams.items():
        rows = ", ".join(p["name"] for p in results["peers"] if p["family"] == fam)
        gen = ("header-only (in adapter)" if s["generated_header_only"]
               else _fmt("size", s["generated_bytes"]) if s["generated_bytes"] else "none (no generator)")
        src = (f"{s['generated_source_bytes']:,} B / {s['generated_source_lines']:,} lines"
               if s["generated_source_bytes"] else "-")
        out.write(f"| {fam} | {rows} | {_fmt('size', s['adapter_bytes'])} | {gen} | {src} "
                  f"| {fmt_seconds(s.get('compile_cpu_s'))} |\n")
    for m in sizes.get("missing", []):
        out.write(f"| {m.split(':')[0]} | not built: {m.split(':', 1)[-1].strip()} | | | | |\n")
    return out.getvalue()


def peers_markdown(results: dict) -> str:
    out = io.StringIO()
    out.write("| serializer | version | verifier | what is measured |\n|---|---|---|---|\n")
    for p in results["peers"]:
        verifier = p["verifier"] or "none"
        out.write(f"| {p['name']} | {p['version'] or '-'} | {verifier} | {p['notes']} |\n")
    return out.getvalue()


def full_markdown(results: dict, rows: list[dict], reference: str, sizes: dict, machine: dict) -> str:
    out = io.StringIO()
    out.write("# fastwire-bench results\n\n")
    out.write("Generated by `bench/run` (`fastwire-bench --report`); do not edit by hand.\n\n")
    out.write("## Machine\n\n")
    for k, v in machine.items():
        out.write(f"- {k.replace('_', ' ')}: {v}\n")
    out.write("\n![size and time per serializer](latest.png)\n\n")
    out.write("## Results\n\n")
    out.write(markdown_tables(results, rows, reference))
    out.write("\n## Serializers\n\n")
    out.write(peers_markdown(results))
    if sizes.get("families"):
        out.write("\n## Code size\n\n")
        out.write(code_size_markdown(results, sizes))
    return out.getvalue()


# ---------------------------------------------------------------------------- chart

def write_chart(results: dict, rows: list[dict], reference: str, stem: Path) -> list[Path]:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("fastwire-bench: matplotlib not installed; no chart (run scripts/bootstrap)", file=sys.stderr)
        return []
    datasets = [d["name"] for d in results["datasets"]
                if any(r["dataset"] == d["name"] and r["status"] == "ok" for r in rows)]
    if not datasets:
        return []
    height = max(3.0, 0.22 * max(sum(1 for r in rows if r["dataset"] == ds) for ds in datasets) + 1.2)
    fig, axes = plt.subplots(len(datasets), 2, figsize=(13, height * len(datasets)), squeeze=False)
    for i, ds in enumerate(datasets):
        ok = [r for r in rows if r["dataset"] == ds and r["status"] == "ok"]
        names = [r["peer"] for r in ok][::-1]
        y = range(len(names))
        ax = axes[i][0]
        ax.barh(list(y), [r["size"] for r in ok][::-1], color="#7a9cc6")
        ax.set_yticks(list(y), names, fontsize=8)
        ax.set_title(f"{ds}: encoded size (bytes)", fontsize=10)
        ax = axes[i][1]
        ser = [r["serialize_ns"] or 0 for r in ok][::-1]
        des = [r["deserialize_ns"] or 0 for r in ok][::-1]
        ax.barh([v + 0.2 for v in y], ser, height=0.4, label="serialize", color="#d9822b")
        ax.barh([v - 0.2 for v in y], des, height=0.4, label="deserialize", color="#3d8f5a")
        ax.set_yticks(list(y), names, fontsize=8)
        ax.set_xscale("log")
        ax.set_title(f"{ds}: CPU ns/op (log scale, lower is better)", fontsize=10)
        if i == 0:
            ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    paths = []
    for ext in ("png", "svg"):
        path = stem.with_suffix(f".{ext}")
        fig.savefig(path, dpi=110)
        paths.append(path)
    plt.close(fig)
    return paths


SUMMARY_OPS = (("serialize_ratio", "serialize"), ("deserialize_ratio", "deserialize"))


def write_summary_chart(results: dict, rows: list[dict], reference: str, stem: Path) -> list[Path]:
    """One figure for the whole run: every serializer × data set, its time relative to the
    reference row (fastwire-final), serialize and deserialize side by side, on a log
    colour scale; serializers sorted by their geometric mean over both."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import LogNorm
    except ImportError:
        return []
    datasets = [d["name"] for d in results["datasets"]]
    ratio = {(r["peer"], r["dataset"], key): r[key] for r in rows
             for key, _ in SUMMARY_OPS if r["status"] == "ok" and r.get(key)}
    if not ratio:
        return []
    peers = sorted({peer for peer, _, _ in ratio},
                   key=lambda peer: math.exp(statistics.fmean(
                       math.log(v) for (p, _, _), v in ratio.items() if p == peer)))
    values = list(ratio.values())
    span = max(max(values), 1 / min(values), 2.0)
    norm = LogNorm(vmin=1 / span, vmax=span)
    fig, axes = plt.subplots(1, 2, figsize=(4.2 + 1.15 * len(datasets), 1.6 + 0.34 * len(peers)),
                             sharey=True, squeeze=False)
    images = []
    for ax, (key, title) in zip(axes[0], SUMMARY_OPS):
        grid = [[ratio.get((peer, ds, key), math.nan) for ds in datasets] for peer in peers]
        images.append(ax.imshow(grid, cmap="RdYlGn_r", norm=norm, aspect="auto"))
        ax.set_xticks(range(len(datasets)), datasets, rotation=40, ha="right", fontsize=8)
        ax.set_yticks(range(len(peers)), peers, fontsize=8)
        ax.set_title(f"{title}: time / {reference} (log)", fontsize=10)
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                text = "n/a" if math.isnan(v) else (f"{v:.2g}" if v < 10 else f"{v:.0f}")
                ax.text(j, i, text, ha="center", va="center", fontsize=6.5, color="black")
    fig.colorbar(images[0], ax=axes[0].tolist(), shrink=0.8,
                 label=f"× {reference} time (1 = same; lower is faster)")
    paths = []
    for ext in ("png", "svg"):
        path = stem.with_suffix(f".{ext}")
        fig.savefig(path, dpi=110, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


# ---------------------------------------------------------------------------- main

def run_core(args: argparse.Namespace) -> tuple[int, dict]:
    core = args.build_dir / CORE_NAME
    if not core.exists():
        raise UsageError(f"{core} not found; build it with bench/run --build-only "
                         f"(or cmake -S bench -B build/bench -G Ninja && cmake --build build/bench -j2)")
    runs = []
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.processes):
            out = os.path.join(tmp, f"core{i}.json")
            if args.processes > 1:
                print(f"fastwire-bench: process {i + 1} of {args.processes}", file=sys.stderr)
            proc = subprocess.run(core_command(args, out, i))
            if proc.returncode == 2 or not os.path.exists(out):
                raise UsageError(f"{CORE_NAME} failed (exit {proc.returncode})")
            status = max(status, proc.returncode)
            with open(out) as f:
                runs.append(json.load(f))
    return status, merge_runs(runs)


def merge_runs(runs: list[dict]) -> dict:
    """One result from the runner's results of several processes: per peer, data set and
    op, the median of the processes' figures, and as its spread their standard deviation
    (one process: its own, over its repetitions). A row fails if it failed in any run."""
    merged = json.loads(json.dumps(runs[0]))
    merged["config"]["processes"] = len(runs)
    if len(runs) == 1:
        return merged
    merged["config"]["time"] = "cpu time, median over processes of each one's median of repetitions"
    merged["config"]["heap_offset"] = [run["config"].get("heap_offset", 0) for run in runs]
    by_key = [{(r["peer"], r["dataset"]): r for r in run["results"]} for run in runs]
    for row in merged["results"]:
        key = (row["peer"], row["dataset"])
        found = [b.get(key) for b in by_key]
        if row["status"] != "ok":
            continue
        others = [o for o in found if o is not None]
        if len(others) < len(found):
            row.update(status="fail", reason="missing from a run")
            continue
        bad = next((o for o in others if o["status"] != "ok"), None)
        if bad is not None:
            row.update(status=bad["status"], reason=bad["reason"])
            continue
        for op, v in row["ops"].items():
            cpu = [o["ops"][op]["cpu_ns"] for o in others if op in o["ops"]]
            real = [o["ops"][op]["real_ns"] for o in others if op in o["ops"]]
            v["cpu_ns"] = statistics.median(cpu)
            v["real_ns"] = statistics.median(real)
            v["stddev_cpu_ns"] = statistics.stdev(cpu) if len(cpu) > 1 else 0.0
            v["iterations"] = sum(o["ops"][op]["iterations"] for o in others if op in o["ops"])
            v["processes_cpu_ns"] = cpu
    return merged


def list_peers(args: argparse.Namespace) -> int:
    core = args.build_dir / CORE_NAME
    if not core.exists():
        raise UsageError(f"{core} not found; build it first (bench/run --build-only)")
    data = json.loads(subprocess.run([str(core), "--list"], capture_output=True, text=True,
                                     check=True).stdout)
    print("serializers:")
    width = max(len(p["name"]) for p in data["peers"])
    for p in data["peers"]:
        extra = f"  [verifier: {p['verifier']}]" if p["verifier"] else ""
        print(f"  {p['name'].ljust(width)}  {p['kind']:8} {p['version'] or '-':10} {p['notes']}{extra}")
    print("data sets:")
    for d in data["datasets"]:
        print(f"  {d['name'].ljust(width)}  {d['description']}")
    if data["unsupported"]:
        print("not expressible (shown as n/a in the tables):")
        for u in data["unsupported"]:
            print(f"  {u['peer']} × {u['dataset']}: {u['reason']}")
    missing = code_sizes(args.build_dir).get("missing", [])
    for m in missing:
        print(f"not built: {m}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.charts_from:
        document = json.loads(args.charts_from.read_text())
        args.results_dir.mkdir(parents=True, exist_ok=True)
        results = {"datasets": document["datasets"]}
        written = write_chart(results, document["rows"], document["reference"], args.results_dir / "latest")
        written += write_summary_chart(results, document["rows"], document["reference"],
                                       args.results_dir / "summary")
        print("fastwire-bench: wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
        return 0 if written else 1
    try:
        if args.list:
            return list_peers(args)
        status, results = run_core(args)
    except UsageError as e:
        print(f"fastwire-bench: {e}", file=sys.stderr)
        return 2
    reference = reference_peer(results, args.reference)
    rows = build_rows(results, reference)
    machine = machine_info(results.get("config", {}))
    sizes = code_sizes(args.build_dir)
    add_compile_seconds(results, rows, sizes)

    if args.csv:
        sys.stdout.write(csv_text(rows))
    elif args.markdown:
        sys.stdout.write(markdown_tables(results, rows, reference))
    else:
        sys.stdout.write(text_table(results, rows, reference))

    document = {"machine": machine, "reference": reference, "config": results.get("config", {}),
                "peers": results["peers"], "datasets": results["datasets"],
                "rows": rows, "code_size": sizes, "raw": results["results"]}
    if args.json:
        Path(args.json).write_text(json.dumps(document, indent=1) + "\n")
    if args.report:
        args.results_dir.mkdir(parents=True, exist_ok=True)
        stem = args.results_dir / "latest"
        stem.with_suffix(".json").write_text(json.dumps(document, indent=1) + "\n")
        stem.with_suffix(".csv").write_text(csv_text(rows))
        stem.with_suffix(".md").write_text(full_markdown(results, rows, reference, sizes, machine))
        written = [stem.with_suffix(s) for s in (".md", ".csv", ".json")]
        written += write_chart(results, rows, reference, stem)
        written += write_summary_chart(results, rows, reference, args.results_dir / "summary")
        print("fastwire-bench: wrote " + ", ".join(str(p.relative_to(REPO_DIR)) if p.is_relative_to(REPO_DIR)
                                                   else str(p) for p in written), file=sys.stderr)

    failures = [r for r in rows if r["status"] == "fail"]
    if failures or status != 0:
        names = ", ".join(f"{r['peer']}/{r['dataset']}" for r in failures) or f"exit {status}"
        print(f"fastwire-bench: round-trip check FAILED: {names}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
