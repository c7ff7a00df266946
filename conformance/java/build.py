"""Prepares the JVM conformance testees: generates the conformance schemas' code (and
schemas/service.fbe, for the transport tests) for Java or Kotlin, then builds it with its
tests' module through Maven (java/gen-java or java/gen-kotlin).

    python3 conformance/java/build.py java      # or kotlin

Quick when nothing changed: the build is skipped when a fingerprint of its inputs (the
compiler, the runtime, the module, the testee) matches the last successful build.
Maven runs offline (-o) once its dependencies are cached, online the first time.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe", "conformance/schemas/hostile.fbe",
           "schemas/service.fbe"]


def fingerprint(lang: str) -> str:
    h = hashlib.sha256()
    roots = ["compiler/fastwire", "java/runtime/src", f"java/gen-{lang}", "java/pom.xml",
             "conformance/java", *SCHEMAS]
    for root in roots:
        path = os.path.join(REPO, root)
        files = [path] if os.path.isfile(path) else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs
            if "__pycache__" not in d and not f.endswith(".pyc"))
        for f in files:
            h.update(os.path.relpath(f, REPO).encode())
            with open(f, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def maven(args: list) -> int:
    """java/mvn.sh: offline once the dependencies are cached, online the first time."""
    r = subprocess.run([os.path.join(REPO, "java", "mvn.sh"), *args], cwd=REPO,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.stdout.write(r.stdout.decode(errors="replace")[-8000:])
    return r.returncode


def generate(lang: str) -> None:
    out = os.path.join(REPO, "build", "conformance", lang)
    src = os.path.join(out, "src")
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    subprocess.run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", lang,
                    "--final", "--json", "--proto", "-q", "-o", src], cwd=REPO, env=env,
                   check=True)
    schemas = sorted(os.path.relpath(os.path.join(d, f), src)
                     for d, _, fs in os.walk(src) for f in fs
                     if f.endswith("Schema.java") or f.endswith("Schema.kt"))
    with open(os.path.join(out, "packages.txt"), "w") as fh:
        for s in schemas:
            fh.write(s.rsplit(".", 1)[0].replace(os.sep, ".") + "\n")


def main() -> int:
    lang = sys.argv[1] if len(sys.argv) > 1 else "java"
    stamp = os.path.join(REPO, "build", "conformance", lang, ".built")
    fp = fingerprint(lang)
    if os.path.exists(stamp) and open(stamp).read() == fp:
        return 0
    print(f"conformance/java/build.py: generating and building the {lang} testee", file=sys.stderr)
    if os.path.exists(stamp):
        os.remove(stamp)
    src = os.path.join(REPO, "build", "conformance", lang, "src")
    if os.path.isdir(src):
        import shutil
        shutil.rmtree(src)
    generate(lang)
    if maven(["-pl", f"gen-{lang}", "-am", "package", "-DskipTests"]) != 0:
        return 1
    with open(stamp, "w") as fh:
        fh.write(fp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
