"""The JVM lint step of `make lint`: Checkstyle, ktlint and javac -Xlint:all.

    python3 java/lint/run.py

- Checkstyle (java/lint/checkstyle.xml) over every hand-written .java file: the runtime,
  the JUnit tests, the benchmark, the examples and the conformance testee.
- ktlint (java/lint/ktlint.editorconfig) over every hand-written .kt file.
- javac --release 17 -Xlint:all over the same Java and the Java generated for the
  conformance schemas; any warning fails, with two exceptions said here: javac's note that
  sun.misc.Unsafe "is internal proprietary API" (no @SuppressWarnings or -Xlint key silences
  it, and the runtime uses Unsafe on purpose: dev.fastwire.Unchecked, StringBytes), and
  [cast] in generated code (its writers cast every field to the wire type, redundant for
  the types that already are it).

The tools' class paths are written by `scripts/bootstrap lint` (java/lint/pom.xml pins
the versions) to build/lint/jvm/classpath.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LINT = os.path.join(REPO, "build", "lint", "jvm")
HERE = os.path.join(REPO, "java", "lint")
SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe", "conformance/schemas/hostile.fbe",
           "schemas/service.fbe"]


def tracked(pattern: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", pattern], cwd=REPO, check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split()
    return [f for f in out if not f.startswith("tests/golden/")]


def classpath() -> tuple[str, str]:
    """(ktlint's jar, the class path of everything else java/lint/pom.xml resolves)"""
    path = os.path.join(LINT, "classpath")
    try:
        with open(path) as f:
            jars = f.read().strip().split(":")
    except FileNotFoundError:
        sys.exit(f"java/lint: {os.path.relpath(path, REPO)} is missing: run scripts/bootstrap lint")
    ktlint = [j for j in jars if os.path.basename(j).startswith("ktlint-cli-")]
    others = [j for j in jars if j not in ktlint]
    if len(ktlint) != 1:
        sys.exit(f"java/lint: no ktlint-cli jar in {os.path.relpath(path, REPO)}: run scripts/bootstrap lint")
    return ktlint[0], ":".join(others)


def run(title: str, cmd: list[str]) -> subprocess.CompletedProcess[str]:
    print(f"java/lint: {title}", flush=True)
    return subprocess.run(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def checkstyle(java: list[str]) -> bool:
    r = run(f"checkstyle ({len(java)} files)",
            ["java", "-cp", classpath()[1], "com.puppycrawl.tools.checkstyle.Main",
             "-c", os.path.join(HERE, "checkstyle.xml"), *java])
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
    return r.returncode == 0


def ktlint(kotlin: list[str]) -> bool:
    r = run(f"ktlint ({len(kotlin)} files)",
            ["java", "-jar", classpath()[0], "--relative",
             "--editorconfig=" + os.path.join(HERE, "ktlint.editorconfig"), *kotlin])
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
    return r.returncode == 0


WARNING = re.compile(r"^(?P<file>[^:\n]+\.java):\d+: warning: (?P<what>.*)$")


def javac(java: list[str]) -> bool:
    gen = os.path.join(LINT, "gen")
    classes = os.path.join(LINT, "classes")
    subprocess.run(["rm", "-rf", gen, classes], check=True)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    subprocess.run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", "java",
                    "--final", "--json", "--proto", "-q", "-o", gen], cwd=REPO, env=env, check=True)
    generated = sorted(os.path.relpath(os.path.join(d, f), REPO)
                       for d, _, fs in os.walk(gen) for f in fs if f.endswith(".java"))
    r = run(f"javac -Xlint:all ({len(java)} files, {len(generated)} generated)",
            ["javac", "--release", "17", "-Xlint:all", "-Xmaxwarns", "100000", "-encoding", "UTF-8",
             "-proc:none", "-cp", classpath()[1], "-d", classes, *java, *generated])
    # javac's output less the warnings let through (each is three lines: where, the source
    # line, the caret); anything left is a finding
    lines = r.stdout.splitlines()
    kept: list[str] = []
    skip = 0
    for line in lines:
        if skip:
            skip -= 1
            continue
        m = WARNING.match(line)
        if m:
            what = m.group("what")
            unsafe = "Unsafe is internal proprietary API" in what
            generated_cast = what.startswith("[cast]") and m.group("file").startswith("build/")
            if unsafe or generated_cast:
                skip = 2
                continue
        if re.match(r"^\d+ (warnings?|errors?)$", line):
            continue
        kept.append(line)
    for line in kept:
        print(line)
    return r.returncode == 0 and not kept


def main() -> int:
    java = tracked("*.java")
    kotlin = tracked("*.kt")
    ok = checkstyle(java)
    ok = ktlint(kotlin) and ok
    ok = javac(java) and ok
    if not ok:
        print("java/lint: failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
