"""The conformance runner: every case, against every language's testee.

    python3 conformance/run.py --all            # every registered language (make test)
    python3 conformance/run.py --lang python -v # one language, listing each failure
    python3 conformance/run.py --list           # the cases

Modelled on protobuf's conformance runner: the runner owns the cases
(conformance/cases/*.json and the golden vectors in tests/vectors), and drives one testee
program per language (conformance/testees.py) over stdin/stdout with length-prefixed
requests; the protocol is in conformance/README.md. A language fails when a case fails
that its known-failures list (conformance/known_failures/<language>.txt) does not name,
when a listed case passes (remove it from the list), or when its testee is missing.
Exit status 0 when every registered language passes.
"""

from __future__ import annotations

import argparse
import fnmatch
import glob
import json
import os
import select
import struct
import subprocess
import sys
import time
from typing import Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
VECTORS = os.path.join(REPO, "tests", "vectors")
sys.path.insert(0, HERE)

from testees import TESTEES, Testee  # noqa: E402

FORMATS = {"versioned": 1, "final": 2, "json": 3}
STATUS = {0: "ok", 1: "parse error", 2: "verify error", 3: "serialize error",
          4: "unsupported", 5: "internal error"}
TIMEOUT = 10.0  # seconds per case


class Case:
    """One request and what must come back."""

    def __init__(self, suite: str, spec: dict) -> None:
        self.name = spec["name"]
        self.suite = suite
        self.type = spec["type"]
        self.input_format = spec["input"]["format"]
        self.output_format = spec["output"]
        self.input = materialize(spec["input"])
        self.expect = spec["expect"]

    def request(self) -> bytes:
        return request(self.type, self.input_format, self.input, self.output_format)

    def expected_output(self) -> Optional[bytes]:
        if self.expect["status"] != "ok":
            return None
        return materialize(self.expect, base=self.input)

    def judge(self, status: int, payload: bytes) -> Optional[str]:
        """None when the answer is right, else what is wrong."""
        if self.expect["status"] == "reject":
            wanted = 1 if self.input_format == "json" else 2
            if status == wanted:
                return None
            if status == 0:
                return f"accepted what must be rejected (output {describe(payload)})"
            return f"expected {STATUS[wanted]}, got {STATUS.get(status, status)}: {text(payload)}"
        if status != 0:
            return f"expected output, got {STATUS.get(status, status)}: {text(payload)}"
        wanted_bytes = self.expected_output()
        assert wanted_bytes is not None  # status "ok": there is an expected output
        if payload == wanted_bytes:
            return None
        unordered = self.expect.get("unordered")
        if unordered and self.output_format == "json" and same_but_order(
                wanted_bytes.decode(), payload.decode("utf-8", "replace"), unordered):
            return None
        if self.output_format == "json":
            return f"JSON differs:\n      expected {text(wanted_bytes)}\n      got      {text(payload)}"
        first = next((i for i, (a, b) in enumerate(zip(payload, wanted_bytes)) if a != b),
                     min(len(payload), len(wanted_bytes)))
        return (f"{self.output_format} bytes differ at offset {first} (expected {len(wanted_bytes)} "
                f"bytes, got {len(payload)})")


def request(type_name: str, input_format: str, payload: bytes, output_format: str) -> bytes:
    """A request of the testee protocol (conformance/README.md), its size first."""
    name = type_name.encode()
    body = struct.pack("<BBBH", 1, FORMATS[input_format], FORMATS[output_format],
                       len(name)) + name + payload
    return struct.pack("<I", len(body)) + body


_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _SPACE:
        i += 1
    return i


def _entries(text: str, i: int = 0) -> Tuple[List[Tuple[str, str, str]], int]:
    """The entries of the JSON object or array at text[i] as raw text, and where it ends:
    (key, `"key":value`, value) for an object's members, ("", value, value) for an
    array's elements."""
    i = _skip(text, i)
    opener = text[i]
    if opener not in "{[":
        raise ValueError(f"expected an object or an array at {i}")
    closer = "}" if opener == "{" else "]"
    out: List[Tuple[str, str, str]] = []
    i = _skip(text, i + 1)
    if text[i] == closer:
        return out, i + 1
    while True:
        start, key = i, ""
        if opener == "{":
            key, i = _DECODER.raw_decode(text, i)
            i = _skip(text, i)
            if text[i] != ":":
                raise ValueError(f"expected ':' at {i}")
            i = _skip(text, i + 1)
        value = i
        _, i = _DECODER.raw_decode(text, i)
        out.append((key, text[start:i], text[value:i]))
        i = _skip(text, i)
        if text[i] == closer:
            return out, i + 1
        if text[i] != ",":
            raise ValueError(f"expected ',' at {i}")
        i = _skip(text, i + 1)


def same_but_order(expected: str, got: str, fields: List[str]) -> bool:
    """Whether two JSON objects are the same text but for the order of the entries of
    the named fields (hashes: an object, or an array of [key, value] pairs). Each entry,
    and everything else, must be exactly the same text."""
    try:
        a, end_a = _entries(expected)
        b, end_b = _entries(got)
        if _skip(expected, end_a) != len(expected) or _skip(got, end_b) != len(got):
            return False
        if [e[0] for e in a] != [e[0] for e in b]:
            return False
        for (key, x, vx), (_, y, vy) in zip(a, b):
            if key in fields:
                ex, ey = _entries(vx)[0], _entries(vy)[0]
                if x[:len(x) - len(vx)] != y[:len(y) - len(vy)] or vx[0] != vy[0] or \
                        sorted(e[1] for e in ex) != sorted(e[1] for e in ey):
                    return False
            elif x != y:
                return False
        return True
    except (ValueError, IndexError):
        return False


def materialize(spec: dict, base: Optional[bytes] = None) -> bytes:
    """The bytes a case file describes: hex, text, a golden vector, or the input itself
    (`same`), then optionally cut (`truncate`) and changed (`patch`: [offset, byte]...,
    `size`: the first u32 set to the length)."""
    if "hex" in spec:
        data = bytes.fromhex(spec["hex"])
    elif "text" in spec:
        data = spec["text"].encode()
    elif "vector" in spec:
        with open(os.path.join(VECTORS, spec["vector"]), "rb") as fh:
            raw = fh.read()
        data = raw.strip() if spec["vector"].endswith(".json") else \
            bytes.fromhex("".join(raw.decode().split()))
    elif spec.get("same"):
        assert base is not None
        data = base
    else:
        raise ValueError(f"no data in {spec}")
    if "slice" in spec:
        start, end = spec["slice"]
        data = data[start:end]
    if "truncate" in spec:
        data = data[:spec["truncate"]]
    if "patch" in spec:
        out = bytearray(data)
        for at, value in spec["patch"]:
            out[at] = value
        data = bytes(out)
    if spec.get("size"):
        data = struct.pack("<I", len(data)) + data[4:]
    return data


def text(payload: Optional[bytes], limit: int = 200) -> str:
    s = (payload or b"").decode("utf-8", "replace")
    return s if len(s) <= limit else s[:limit] + "…"


def describe(payload: bytes) -> str:
    return f"{len(payload)} bytes"


def load_cases(pattern: str = "*") -> List[Case]:
    cases: List[Case] = []
    seen = set()
    for path in sorted(glob.glob(os.path.join(HERE, "cases", "*.json"))):
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
        for spec in doc["cases"]:
            if spec["name"] in seen:
                raise SystemExit(f"conformance: duplicate case name {spec['name']}")
            seen.add(spec["name"])
            if fnmatch.fnmatchcase(spec["name"], pattern):
                cases.append(Case(doc["suite"], spec))
    return cases


class Process:
    """A running testee; restarted after a crash or a timeout."""

    def __init__(self, command: List[str], log: str) -> None:
        self.command = command
        self.log = log
        self.proc: Optional[subprocess.Popen] = None

    def start(self) -> None:
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(self.command, cwd=REPO, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=err, env=environment())

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def _read(self, n: int, deadline: float) -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        out = bytearray()
        while len(out) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                raise TimeoutError
            chunk = os.read(fd, n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return bytes(out)

    def call(self, request: bytes) -> Tuple[int, bytes]:
        if self.proc is None:
            self.start()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(request)
            self.proc.stdin.flush()
            deadline = time.monotonic() + TIMEOUT
            (size,) = struct.unpack("<I", self._read(4, deadline))
            if size < 1:
                raise EOFError
            answer = self._read(size, deadline)
            return answer[0], answer[1:]
        except TimeoutError:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            raise
        except (EOFError, BrokenPipeError, OSError):
            code = self.proc.poll()
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            raise EOFError(f"the testee exited (status {code})") from None


def known_failures(language: str) -> Optional[List[str]]:
    path = os.path.join(HERE, "known_failures", f"{language}.txt")
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as fh:
        return [line.strip() for line in fh if line.strip() and not line.startswith("#")]


def environment() -> Dict[str, str]:
    """The environment of testee commands: this repository's compiler importable."""
    env = dict(os.environ)
    paths = [os.path.join(REPO, "compiler")] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def expand(command: List[str]) -> List[str]:
    return [sys.executable if part == "{python}" else part for part in command]


def run_language(language: str, testee: Testee, cases: List[Case], verbose: bool,
                 write_known: bool, every_case: bool) -> bool:
    print(f"== {language}")
    listed = known_failures(language)
    if listed is None:
        print(f"   FAIL: no conformance/known_failures/{language}.txt")
        return False
    if testee.prepare:
        # Its stderr passes through (a progress line, e.g. "building the testee"); its
        # stdout is shown when it fails.
        sys.stdout.flush()
        done = subprocess.run(expand(testee.prepare), cwd=REPO, stdout=subprocess.PIPE, text=True,
                              env=environment())
        if done.returncode != 0:
            print(f"   FAIL: preparing the testee failed (status {done.returncode}):\n{done.stdout}")
            return False
    command = expand(testee.run)
    executable = command[0] if os.path.isabs(command[0]) else os.path.join(REPO, command[0])
    if not (os.path.exists(executable) or command[0] == sys.executable):
        print(f"   FAIL: no testee: {command[0]} does not exist (build it first)")
        return False
    log = os.path.join(REPO, "build", "conformance", f"{language}.stderr.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "wb").close()
    process = Process(command, log)
    failures: Dict[str, str] = {}
    started = time.monotonic()
    try:
        for case in cases:
            try:
                status, payload = process.call(case.request())
                problem = case.judge(status, payload)
            except TimeoutError:
                problem = f"no answer within {TIMEOUT:.0f} s"
            except EOFError as err:
                problem = str(err)
            if problem:
                failures[case.name] = problem
    finally:
        process.stop()
    elapsed = time.monotonic() - started
    names = {c.name for c in cases}
    known = [n for n in listed if n in names]
    new = sorted(n for n in failures if n not in listed)
    fixed = sorted(n for n in known if n not in failures)
    stale = sorted(n for n in listed if n not in names) if every_case else []
    for n in new:
        print(f"   NEW FAILURE {n}: {failures[n]}" if verbose or len(new) <= 20 else
              f"   NEW FAILURE {n}")
    if new and not verbose and len(new) > 20:
        print("   (run with -v for the reasons)")
    for n in fixed:
        print(f"   NOW PASSES {n} (remove it from known_failures/{language}.txt)")
    if verbose:
        for n in sorted(failures):
            if n in listed:
                print(f"   known failure {n}: {failures[n]}")
    if write_known:
        with open(os.path.join(HERE, "known_failures", f"{language}.txt"), "w") as fh:
            fh.write(f"# Conformance cases the {language} testee is known to fail.\n"
                     "# The runner fails on any failure not listed here, and on a listed "
                     "case that passes.\n")
            for n in sorted(failures):
                fh.write(n + "\n")
        print(f"   wrote known_failures/{language}.txt ({len(failures)} cases)")
        return True
    for n in stale:
        print(f"   NO SUCH CASE {n} (remove it from known_failures/{language}.txt)")
    passed = len(cases) - len(failures)
    print(f"   {passed} of {len(cases)} cases passed, {len(known)} known failures, "
          f"{len(new)} new failures, {len(fixed)} now passing ({elapsed:.1f} s)")
    return not new and not fixed and not stale


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Runs the conformance suite.")
    ap.add_argument("--all", action="store_true", help="every registered language (default)")
    ap.add_argument("--lang", action="append", default=[], help="only this language")
    ap.add_argument("--cases", default="*", metavar="GLOB", help="only cases matching GLOB")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("-v", "--verbose", action="store_true", help="say why each case failed")
    ap.add_argument("--write-known-failures", action="store_true",
                    help="record the current failures as known (for a new language)")
    args = ap.parse_args(argv)
    cases = load_cases(args.cases)
    if args.list:
        for c in cases:
            print(f"{c.name}  [{c.type}, {c.input_format} -> {c.output_format}, "
                  f"{c.expect['status']}]")
        return 0
    languages = args.lang or list(TESTEES)
    unknown = [lang for lang in languages if lang not in TESTEES]
    if unknown:
        print(f"conformance: no testee registered for {', '.join(unknown)} "
              f"(known: {', '.join(TESTEES)})")
        return 1
    print(f"conformance: {len(cases)} cases, languages: {', '.join(languages)}")
    ok = True
    for language in languages:
        ok &= run_language(language, TESTEES[language], cases, args.verbose,
                           args.write_known_failures, args.cases == "*")
    print("conformance: " + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
