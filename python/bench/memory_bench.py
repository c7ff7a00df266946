#!/usr/bin/env python3
"""Peak memory of deserializing a final message, per byte of input (issue #13).

    python3 python/bench/memory_bench.py                  # 1, 8, 32, 64 MiB
    python3 python/bench/memory_bench.py 8 --detail       # and where the memory goes

The message is the worst shape a schema offers the Python runtime: a hostile.Node whose
children are N leaf Nodes (8 wire bytes each: value, empty children), so every 8 bytes
become a Python object, an int and an empty list. Each size runs in a fresh interpreter;
the figure is its peak RSS (resource.getrusage) minus the same interpreter's RSS before
reading, divided by the message size. Needs the generated modules: it compiles
conformance/schemas/hostile.fbe into a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

CHILD = r"""
import resource, struct, sys, gc
import hostile_fbe as hostile
mib, detail = float(sys.argv[1]), sys.argv[2] == "1"
n = int(mib * 1024 * 1024) // 8 - 2
msg = bytearray(struct.pack("<IIiI", 0, hostile.NodeFinalModel.codec.type, 7, n))
msg += struct.pack("<iI", 1, 0) * n
struct.pack_into("<I", msg, 0, len(msg))
msg = bytes(msg)
gc.collect()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if detail:
    import tracemalloc
    tracemalloc.start(1)
root = hostile.NodeFinalModel().deserialize(msg)
if detail:
    snap = tracemalloc.take_snapshot()
    for s in snap.statistics("lineno")[:6]:
        print("   ", s)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(f"{len(msg) / 2**20:6.1f} MiB, {n:9d} structs: peak RSS +{(peak - before) / 2**20:7.1f} MiB, "
      f"{(peak - before) / len(msg):5.1f} bytes per input byte, "
      f"{(peak - before) / n:6.1f} bytes per struct")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=float, default=[1, 8, 32, 64], help="MiB")
    ap.add_argument("--detail", action="store_true", help="tracemalloc's largest lines")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as gen:
        subprocess.run([sys.executable, "-m", "fastwire", "compile",
                        os.path.join(REPO, "conformance", "schemas", "hostile.fbe"),
                        "--lang", "python", "--final", "-q", "-o", gen], check=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler")))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([gen, os.path.join(REPO, "python")]))
        for mib in args.sizes:
            subprocess.run([sys.executable, "-c", CHILD, str(mib), "1" if args.detail else "0"],
                           env=env, check=True)


if __name__ == "__main__":
    main()
