#!/usr/bin/env python3
"""How `fastwire check` and code generation scale: seconds and peak RSS per language.

    python3 compiler/bench/scale.py                      # both schemas, every language
    python3 compiler/bench/scale.py --mb 1 --fields 20000 --lang cpp --lang java
    python3 compiler/bench/scale.py --profile /tmp/prof  # also a cProfile dump per run
    python3 compiler/bench/scale.py --compiler /tmp/old/compiler   # another tree's compiler

Makes two schemas in a temporary folder and runs, under `/usr/bin/time -v`,
`python3 -m fastwire check` on each, then `python3 -m fastwire compile --lang L --final
--json --proto` for every language of the registry:

- `many`: about --mb MB (default 10) of structs, enums, flags and messages: chains of
  100 structs each holding the previous one by value, as an optional, in a vector and a
  map, bases, keyed structs, defaults and doc comments;
- `wide`: one struct with --fields fields (default 100,000) of every kind, and a message
  deriving from it.

The goal (issue 37): every cell under 10 s and 1 GiB. `make soak` runs it; the figures
depend on the machine and its load, so nothing here fails on a slow run unless
--strict is given.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from typing import List, Optional, Tuple

COMPILER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, COMPILER)

LIMIT_SECONDS = 10.0
LIMIT_MB = 1024.0


def many_structs(megabytes: float) -> str:
    """A valid schema of about `megabytes` MB of many small types."""
    target = int(megabytes * 1_000_000)
    out = ["/** The `many` schema of compiler/bench/scale.py. */\npackage many\n\n"]
    size = len(out[0])
    i = 0
    while size < target:
        if i % 100 == 0:  # each chain starts with its own enum, flags and a keyed root
            part = (f"/// Chain {i // 100}.\nenum E{i} : byte {{ a; b = 5; c; }}\n"
                    f"flags F{i} : int16 {{ x = 1; y = 2; xy = x | y; }}\n"
                    f"struct S{i} {{ [key] int32 id; E{i} e = E{i}.c; F{i} f = F{i}.xy; "
                    f"string s = \"r\"; }}\n")
        elif i % 10 == 0:  # now and then a message deriving from the previous struct
            part = (f"/** Message {i}. */\nmessage S{i} : S{i - 1} {{ int64 q = -7; "
                    f"S{i - 1}[] z; }}\n")
        else:
            prev, root = f"S{i - 1}", f"S{i - i % 100}"
            part = (f"// Struct {i}: holds {prev}.\nstruct S{i} {{ int32 a = 5; "
                    f"string b = \"x\"; {prev} v; {prev}? c; {prev}[] d; {prev}<int32> m; "
                    f"{root}! k; double e = 1.5; decimal g; uuid u = uuid4; "
                    f"timestamp t; bytes y; }}\n")
        out.append(part)
        size += len(part)
        i += 1
    return "".join(out)


# Field declarations the wide struct cycles through: every kind of wire type.
_WIDE_KINDS = [
    "int32 f{} = 3;", "string f{} = \"s\";", "double f{};", "bool f{} = true;",
    "decimal f{} = 1.25;", "uuid f{};", "timestamp f{};", "bytes f{};", "int64? f{};",
    "int16[] f{};", "string() f{};", "uint8[4] f{};",
    "E f{} = E.b;", "F f{} = F.y;", "In f{};", "In? f{};", "In<string> f{};",
    "float{{int32}} f{};", "char f{} = 'c';", "wchar f{};",
]


def wide_struct(fields: int) -> str:
    """A valid schema of one struct with `fields` fields, and a message deriving from it."""
    out = ["/** The `wide` schema of compiler/bench/scale.py. */\npackage wide\n\n",
           "enum E { a; b; }\nflags F { x = 1; y = 2; }\nstruct In { int32 x = 1; }\n",
           "/// The wide one.\nstruct Wide {\n"]
    for n in range(fields):
        decl = _WIDE_KINDS[n % len(_WIDE_KINDS)].format(n)
        out.append(f"    /// Field {n}.\n    {decl}\n" if n % 7 == 0 else f"    {decl}\n")
    out.append("}\nmessage WideMessage : Wide { int32 tail = 9; }\n")
    return "".join(out)


def measure(cmd: List[str], timeout: float,
            compiler: str) -> Tuple[Optional[float], Optional[float], str]:
    """(wall seconds, peak RSS in MB, a note) of `cmd` under /usr/bin/time -v."""
    env = dict(os.environ, PYTHONPATH=compiler)
    # A session of its own, so a run that takes too long is ended with its compiler (a
    # plain timeout would end only /usr/bin/time).
    proc = subprocess.Popen(["/usr/bin/time", "-v", *cmd], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        _, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, None, f"> {timeout:g} s"
    done = subprocess.CompletedProcess(cmd, proc.returncode, "", stderr)
    wall = re.search(r"Elapsed \(wall clock\) time.*: (.+)", done.stderr)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if not wall or not rss:
        return None, None, "no figures: " + done.stderr[-300:]
    clock = [float(x) for x in wall.group(1).split(":")]
    seconds = sum(x * 60 ** i for i, x in enumerate(reversed(clock)))
    note = "" if done.returncode == 0 else \
        f"exit {done.returncode}: {done.stderr.strip().splitlines()[0][:120]}"
    return seconds, int(rss.group(1)) / 1024, note


# `python -m fastwire` ends its process without returning (fastwire.cli.main), so a
# profiled run calls main with its arguments.
_PROFILE = ("import cProfile, gc, sys; from fastwire.cli import main; gc.disable(); "
            "cProfile.run('main(sys.argv[2:])', sys.argv[1])")


def main() -> int:
    from fastwire.generators import LANGUAGES

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--mb", type=float, default=10, help="size of the many-structs schema")
    ap.add_argument("--fields", type=int, default=100_000, help="fields of the wide struct")
    ap.add_argument("--lang", action="append", choices=sorted(LANGUAGES),
                    help="only these languages (repeatable; default all)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per run")
    ap.add_argument("--profile", metavar="DIR", help="also write a cProfile dump per run")
    ap.add_argument("--compiler", metavar="DIR", default=COMPILER,
                    help="the compiler to run (a folder holding fastwire; default this one)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 when a run fails or exceeds 10 s or 1 GiB")
    args = ap.parse_args()
    langs = args.lang or sorted(LANGUAGES)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        schemas = {"many": many_structs(args.mb), "wide": wide_struct(args.fields)}
        print(f"{'schema':6} {'step':12} {'seconds':>8} {'peak MB':>8}  note", flush=True)
        for name, text in schemas.items():
            path = os.path.join(tmp, f"{name}.fbe")
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            print(f"{name:6} {'(size)':12} {len(text) / 1e6:7.2f}M", flush=True)
            for step in ["check", *langs]:
                out = os.path.join(tmp, "out")
                shutil.rmtree(out, ignore_errors=True)
                argv = (["check", path] if step == "check" else
                        ["compile", path, "--lang", step, "--final", "--json", "--proto", "-q",
                         "-o", out])
                cmd = [sys.executable, "-m", "fastwire", *argv]
                if args.profile:
                    os.makedirs(args.profile, exist_ok=True)
                    cmd = [sys.executable, "-c", _PROFILE,
                           os.path.join(args.profile, f"{name}-{step}.prof"), *argv]
                seconds, mb, note = measure(cmd, args.timeout, args.compiler)
                over = seconds is None or mb is None or bool(note) or \
                    seconds > LIMIT_SECONDS or mb > LIMIT_MB
                failed = failed or over
                cells = (f"{seconds:8.2f} {mb:8.0f}" if seconds is not None and mb is not None
                         else f"{'-':>8} {'-':>8}")
                print(f"{name:6} {step:12} {cells}  {note}{' OVER' if over else ''}",
                      flush=True)
                shutil.rmtree(out, ignore_errors=True)
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
