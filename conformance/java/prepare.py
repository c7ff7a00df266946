"""Prepares the JVM conformance testees: generates the conformance schemas' code (and
schemas/service.fbe, for the transport tests) for Java or Kotlin, then builds it with its
tests' module through Maven (java/tests-java or java/tests-kotlin).

    python3 conformance/java/prepare.py java      # or kotlin, or both
    python3 conformance/java/prepare.py --test java kotlin   # and run the tests (make test-java)

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
    roots = ["compiler/fastwire", "java/runtime/src", f"java/tests-{lang}", "java/pom.xml",
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
    args = sys.argv[1:]
    test = "--test" in args
    langs = [a for a in args if not a.startswith("--")] or ["java"]
    stamps = {lang: os.path.join(REPO, "build", "conformance", lang, ".built") for lang in langs}
    prints = {lang: fingerprint(lang) for lang in langs}
    stale = [lang for lang in langs
             if not (os.path.exists(stamps[lang]) and open(stamps[lang]).read() == prints[lang])]
    if not stale and not test:
        return 0
    for lang in stale:
        print(f"conformance/java/prepare.py: generating the {lang} code", file=sys.stderr)
        if os.path.exists(stamps[lang]):
            os.remove(stamps[lang])
        src = os.path.join(REPO, "build", "conformance", lang, "src")
        if os.path.isdir(src):
            import shutil
            shutil.rmtree(src)
        generate(lang)
    modules = ",".join(f"tests-{lang}" for lang in langs)
    goals = ["install"] if test else ["package", "-DskipTests"]
    if maven(["-pl", modules, "-am", *goals]) != 0:
        return 1
    for lang in langs:
        with open(stamps[lang], "w") as fh:
            fh.write(prints[lang])
    return 0


if __name__ == "__main__":
    sys.exit(main())
