"""Builds the C++ conformance testee when it is missing or out of date.

    python3 conformance/cpp/build.py

conformance/run.py runs this before the C++ cases (testees.py, `prepare`). It configures
build/conformance-cpp once (CMake, Ninja when available, Release) and then lets the build
tool decide what is stale: schemas, the compiler, the runtime headers, testee.cpp.
Prints one progress line to stderr; on failure the build's output goes to stdout (the
runner shows it) and the exit status is 1. JOBS (default 2) sets the build's parallelism.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
BUILD = os.path.join("build", "conformance-cpp")
TESTEE = os.path.join(BUILD, "fastwire-conformance-testee")
STALE_DEPFILE = "as an output, but no such output was declared"


def main() -> int:
    os.chdir(REPO)
    if shutil.which("cmake") is None:
        print("conformance/cpp/build.py: cmake is not installed")
        return 1
    steps = []
    if not os.path.exists(os.path.join(BUILD, "CMakeCache.txt")) or not any(
            os.path.exists(os.path.join(BUILD, f)) for f in ("build.ninja", "Makefile")):
        generator = ["-G", "Ninja"] if shutil.which("ninja") else []
        steps.append(["cmake", "-S", os.path.join("conformance", "cpp"), "-B", BUILD, *generator,
                      "-DCMAKE_BUILD_TYPE=Release"])
    steps.append(["cmake", "--build", BUILD, "-j", os.environ.get("JOBS", "2")])
    what = ("bringing the testee up to date" if os.path.exists(TESTEE) else
            "building the testee (about a minute)")
    print(f"conformance: cpp: {what}: {' && '.join(' '.join(s) for s in steps)}",
          file=sys.stderr, flush=True)
    for step in steps:
        done = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0 and STALE_DEPFILE in done.stdout:
            # A generation rule lost outputs since the last build (e.g. final_model.h went
            # away, so no *_final_protocol.h): Ninja refuses the old depfile that still
            # names them. The depfiles are rewritten by the rules; drop them and retry.
            shutil.rmtree(os.path.join(BUILD, "CMakeFiles", "d"), ignore_errors=True)
            done = subprocess.run(step, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            print(f"$ {' '.join(step)}\n{done.stdout}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
