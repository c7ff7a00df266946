"""Prepares the TypeScript testee for conformance/run.py: installs the runtime's npm
dependencies (once), builds the runtime with tsc, generates the conformance schemas'
modules and compiles them with the testee into build/conformance/typescript/. Does
nothing when no input changed since the last run (a stamp of the inputs' times)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "conformance"))
TS = os.path.join(REPO, "ts")
OUT = os.path.join(REPO, "build", "conformance", "typescript")
SRC = os.path.join(OUT, "src")


def stamp() -> str:
    from testees import SCHEMAS  # type: ignore[import-not-found]
    h = hashlib.sha256()
    roots = [os.path.join(REPO, "compiler", "fastwire"), os.path.join(TS, "src"), HERE,
             os.path.join(TS, "package-lock.json")] + [os.path.join(REPO, s) for s in SCHEMAS]
    for root in roots:
        paths = [root] if os.path.isfile(root) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if not f.endswith(".pyc"))
        for p in paths:
            st = os.stat(p)
            h.update(f"{p} {st.st_mtime_ns} {st.st_size}\n".encode())
    return h.hexdigest()


def run(cmd, cwd=REPO) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(REPO, "compiler")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    r = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        print(r.stdout)
        sys.exit(f"failed: {' '.join(cmd)}")


def main() -> int:
    from testees import SCHEMAS
    mark = os.path.join(OUT, ".stamp")
    now = stamp()
    if os.path.exists(mark) and open(mark).read() == now and os.path.exists(os.path.join(OUT, "testee")):
        return 0
    print("typescript: building the runtime and the testee", file=sys.stderr)
    if not os.path.isdir(os.path.join(TS, "node_modules", "typescript")):
        run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=TS)
    run([os.path.join(TS, "node_modules", ".bin", "tsc"), "-p", "tsconfig.json"], cwd=TS)
    shutil.rmtree(SRC, ignore_errors=True)
    os.makedirs(SRC)
    run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", "typescript",
         "--final", "--json", "--proto", "-q", "-o", SRC])
    shutil.copy(os.path.join(HERE, "testee.ts"), SRC)
    link = os.path.join(OUT, "node_modules", "@fastwire", "runtime")
    if not os.path.islink(link):
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if os.path.exists(link):
            shutil.rmtree(link)
        os.symlink(TS, link)
    with open(os.path.join(OUT, "package.json"), "w") as f:
        json.dump({"type": "module", "private": True}, f)
    with open(os.path.join(OUT, "tsconfig.json"), "w") as f:
        json.dump({"compilerOptions": {
            "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext",
            "strict": True, "outDir": "out", "rootDir": "src", "skipLibCheck": True,
            "types": ["node"], "typeRoots": [os.path.join(TS, "node_modules", "@types")]},
            "include": ["src/*.ts"]}, f)
    run([os.path.join(TS, "node_modules", ".bin", "tsc"), "-p", "tsconfig.json"], cwd=OUT)
    launcher = os.path.join(OUT, "testee")
    with open(launcher, "w") as f:
        f.write('#!/bin/sh\nexec node "$(dirname "$0")/out/testee.js" "$@"\n')
    os.chmod(launcher, 0o755)
    with open(mark, "w") as f:
        f.write(now)
    return 0


if __name__ == "__main__":
    sys.exit(main())
