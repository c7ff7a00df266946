"""Builds the C# conformance testee: generates the conformance schemas' code with
`--lang csharp --final --json --proto` into build/conformance/csharp and compiles it with
the runtime (csharp/build.py) and testee.cs into build/conformance/csharp/testee.exe, with
Mono's mcs. Does nothing when nothing changed (the inputs' times against the output's)."""

from __future__ import annotations

import glob
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
_spec = importlib.util.spec_from_file_location("fastwire_csharp_build",
                                               os.path.join(REPO, "csharp", "build.py"))
assert _spec is not None and _spec.loader is not None
runtime_build = importlib.util.module_from_spec(_spec)  # csharp/build.py
_spec.loader.exec_module(runtime_build)

OUT = os.path.join(REPO, "build", "conformance", "csharp")
EXE = os.path.join(OUT, "testee.exe")
LAUNCHER = os.path.join(OUT, "testee")  # what run.py starts: mono with the testee
SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe", "conformance/schemas/hostile.fbe"]


def main() -> int:
    dll = runtime_build.build_runtime()
    inputs = ([os.path.join(HERE, "testee.cs"), dll]
              + glob.glob(os.path.join(REPO, "schemas", "*.fbe"))
              + glob.glob(os.path.join(REPO, "conformance", "schemas", "*.fbe"))
              + glob.glob(os.path.join(REPO, "compiler", "fastwire", "**", "*.py"), recursive=True))
    if runtime_build.fresh(EXE, inputs) and os.path.exists(LAUNCHER):
        return 0
    print("csharp: generating and compiling the testee", file=sys.stderr)
    gen = os.path.join(OUT, "gen")
    os.makedirs(gen, exist_ok=True)
    for old in glob.glob(os.path.join(gen, "*.cs")):
        os.remove(old)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    subprocess.run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", "csharp",
                    "--final", "--json", "--proto", "-q", "-o", gen], cwd=REPO, env=env, check=True)
    runtime_build.mcs(["-target:exe", "-out:" + EXE, "-r:" + dll, "-r:System.Numerics.dll",
                       os.path.join(HERE, "testee.cs"), *sorted(glob.glob(os.path.join(gen, "*.cs")))])
    runtime_build.copy_runtime(OUT)
    with open(LAUNCHER, "w") as f:
        f.write('#!/bin/sh\nexec mono "$(dirname "$0")/testee.exe" "$@"\n')
    os.chmod(LAUNCHER, 0o755)
    return 0


if __name__ == "__main__":
    sys.exit(main())
