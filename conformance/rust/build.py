"""Builds the Rust conformance testee (rust/testee) for conformance/run.py: cargo
generates the conformance schemas' code through rust/fastwire-build (in the testee's
build.rs) and compiles the testee into build/rust/target/debug/fastwire-testee. Cargo
rebuilds only what changed, so a second run takes a moment."""

from __future__ import annotations

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", os.path.join(REPO, "build", "rust", "target"))
    env.setdefault("FASTWIRE_PYTHON", sys.executable)
    jobs = env.get("CARGO_BUILD_JOBS", "2")
    print("rust: building the conformance testee (cargo)", file=sys.stderr)
    r = subprocess.run(["cargo", "build", "-q", "-j", jobs, "--manifest-path",
                        os.path.join(REPO, "rust", "Cargo.toml"), "-p", "fastwire-testee"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        return r.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
