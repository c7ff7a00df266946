"""Builds the fastwire C# runtime with Debian's Mono compiler (mcs): csharp/Fastwire/*.cs
into build/csharp/Fastwire.dll (C# 7.2 at most, what mcs accepts; the code itself keeps to
C# 6). `python3 csharp/build.py` builds it; other build scripts import build_runtime().
Does nothing when the sources are older than the assembly."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(REPO, "build", "csharp")
DLL = os.path.join(OUT, "Fastwire.dll")
MCS_FLAGS = ["-langversion:7.2", "-optimize+", "-nowarn:1591", "-warnaserror+", "-nologo"]


def fresh(target: str, inputs: List[str]) -> bool:
    if not os.path.exists(target):
        return False
    t = os.path.getmtime(target)
    return all(os.path.getmtime(i) <= t for i in inputs if os.path.exists(i))


def mcs(args: List[str]) -> None:
    if shutil.which("mcs") is None:
        sys.exit("csharp: mcs not found: install Mono (scripts/bootstrap csharp: mono-devel)")
    cmd = ["mcs", *MCS_FLAGS, *args]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stdout.write(r.stdout)
        sys.exit(f"csharp: mcs failed ({r.returncode})")


def build_runtime() -> str:
    sources = sorted(glob.glob(os.path.join(HERE, "Fastwire", "*.cs")))
    if not fresh(DLL, sources + [__file__]):
        os.makedirs(OUT, exist_ok=True)
        mcs(["-target:library", "-unsafe", "-out:" + DLL, "-r:System.Numerics.dll", *sources])
    return DLL


def copy_runtime(folder: str) -> None:
    """Puts Fastwire.dll beside an executable in `folder` (Mono looks there first)."""
    target = os.path.join(folder, "Fastwire.dll")
    if os.path.abspath(target) != os.path.abspath(DLL):
        shutil.copy2(DLL, target)


GEN = os.path.join(OUT, "gen")
SCHEMAS = ["schemas/protocol.fbe", "schemas/everything.fbe", "conformance/schemas/hostile.fbe"]
NUNIT = "/usr/lib/cli/nunit.framework-2.6.3/nunit.framework.dll"
TESTS = os.path.join(OUT, "Fastwire.Tests.dll")


def generate(out: str, schemas: List[str], *flags: str) -> List[str]:
    """Generates C# for `schemas` into `out` (emptied first); returns the files."""
    os.makedirs(out, exist_ok=True)
    for old in glob.glob(os.path.join(out, "*.cs")):
        os.remove(old)
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    subprocess.run([sys.executable, "-m", "fastwire", "compile", *schemas, "--lang", "csharp",
                    "--final", "--json", "--proto", "-q", "-o", out, *flags], cwd=REPO, env=env,
                   check=True)
    return sorted(glob.glob(os.path.join(out, "*.cs")))


def compiler_inputs() -> List[str]:
    return (glob.glob(os.path.join(REPO, "schemas", "*.fbe"))
            + glob.glob(os.path.join(REPO, "conformance", "schemas", "*.fbe"))
            + glob.glob(os.path.join(REPO, "compiler", "fastwire", "**", "*.py"), recursive=True))


def build_tests() -> str:
    dll = build_runtime()
    sources = sorted(f for f in glob.glob(os.path.join(HERE, "Tests", "*.cs"))
                     if not f.endswith("TransportCheck.cs"))
    if fresh(TESTS, [dll, __file__, *sources, *compiler_inputs()]):
        return TESTS
    gen = generate(GEN, SCHEMAS)
    mcs(["-target:library", "-out:" + TESTS, "-r:" + dll, "-r:" + NUNIT, "-r:System.Numerics.dll",
         *sources, *gen])
    return TESTS


def run_tests() -> int:
    tests = build_tests()
    if shutil.which("nunit-console") is None:
        sys.exit("csharp: nunit-console not found: install nunit-console (scripts/bootstrap csharp)")
    r = subprocess.run(["nunit-console", "-nologo", "-noshadow", "-nodots",
                        "-xml=" + os.path.join(OUT, "TestResult.xml"), tests],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       env=dict(os.environ, FASTWIRE_REPO=REPO))
    out = r.stdout
    if r.returncode != 0:
        sys.stdout.write(out)
    else:
        summary = [line for line in out.splitlines() if line.startswith("Tests run")]
        print("csharp: NUnit: " + (summary[0] if summary else "passed"))
    return r.returncode


TRANSPORT = os.path.join(OUT, "transport.exe")


def build_transport() -> str:
    """transport.exe: csharp/Tests/TransportCheck.cs over schemas/service.fbe."""
    dll = build_runtime()
    source = os.path.join(HERE, "Tests", "TransportCheck.cs")
    if not fresh(TRANSPORT, [dll, __file__, source, *compiler_inputs()]):
        gen = generate(os.path.join(OUT, "gen-service"), ["schemas/service.fbe"])
        mcs(["-target:exe", "-out:" + TRANSPORT, "-r:" + dll, "-r:System.Numerics.dll", source, *gen])
    return TRANSPORT


def run_transport() -> int:
    """The loopback test (FASTWIRE_CSHARP_MESSAGES messages, default 20000; `make soak`
    asks for 1,000,000), then the exchange with examples/cpp/server in both formats."""
    import signal
    exe = build_transport()
    n = os.environ.get("FASTWIRE_CSHARP_MESSAGES", "20000")
    for args in (["loopback", n], ["reconnect"], ["block"]):
        r = subprocess.run(["mono", exe, *args], timeout=600)
        if r.returncode != 0:
            return r.returncode
    server = os.environ.get("FASTWIRE_CPP_SERVER", "")
    if not server or not os.path.exists(server):
        print(f"csharp: examples/cpp/server not found at {server!r} (set FASTWIRE_CPP_SERVER; "
              "make builds it as $(BUILD)/examples/cpp/server)", file=sys.stderr)
        return 1
    tls = make_certificate()
    if tls is None:
        print("csharp: TLS not tested: no openssl command", file=sys.stderr)
    else:
        r = subprocess.run(["mono", exe, "tls", tls[2], TLS_PASSWORD, tls[0]], timeout=300)
        if r.returncode != 0:
            return r.returncode
    runs = [([], []), (["--final"], [])]
    if tls is not None:
        runs += [(["--tls", tls[0], tls[1]], ["--tls", tls[0]]),
                 (["--final", "--tls", tls[0], tls[1]], ["--final", "--tls", tls[0]])]
    for fmt, client_args in runs:
        label = ("final" if "--final" in fmt else "versioned") + (", TLS" if "--tls" in fmt else "")
        proc = subprocess.Popen([server, "127.0.0.1", "0", *fmt], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        first = proc.stdout.readline().split()
        if len(first) != 3 or first[0] != "listening":
            proc.kill()
            print(f"csharp: {server} printed {first}, not 'listening HOST PORT'", file=sys.stderr)
            return 1
        host = "localhost" if "--tls" in fmt else "127.0.0.1"  # the certificate names localhost
        done = subprocess.run(["mono", exe, "cpp", host, first[2],
                               *(client_args if "--tls" in fmt else fmt)],
                              stdout=subprocess.PIPE, text=True, timeout=120)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
        if done.returncode != 0 or not done.stdout.strip().endswith("ok"):
            print(f"csharp: C# client -> C++ server ({label}) failed:\n{done.stdout}", file=sys.stderr)
            return 1
        if proc.returncode != 0 or "stopped:" not in out:
            print(f"csharp: C++ server exit {proc.returncode}, output {out!r}", file=sys.stderr)
            return 1
        print(f"csharp: C# client -> C++ server ({label}): ok; server {out.strip()}")
    return 0


TLS_PASSWORD = "fastwire-test"


def make_certificate() -> "tuple[str, str, str] | None":
    """A self-signed RSA certificate for localhost and 127.0.0.1, made at test time with
    the openssl command (as the C++ and Python tests do): (cert.pem, key.pem, cert.p12),
    or None without openssl. The PKCS#12 copy (for the C# server: X509Certificate2 reads no
    PEM key in .NET Standard 2.0) uses SHA1-3DES, the encryption Mono's BoringSSL reads."""
    if shutil.which("openssl") is None:
        return None
    folder = os.path.join(OUT, "tls")
    os.makedirs(folder, exist_ok=True)
    cert, key, p12 = (os.path.join(folder, n) for n in ("cert.pem", "key.pem", "cert.p12"))
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    subprocess.run(["openssl", "pkcs12", "-export", "-in", cert, "-inkey", key, "-out", p12,
                    "-passout", "pass:" + TLS_PASSWORD, "-certpbe", "PBE-SHA1-3DES",
                    "-keypbe", "PBE-SHA1-3DES", "-macalg", "sha1"], check=True, capture_output=True)
    return cert, key, p12


BENCH = os.path.join(OUT, "bench.exe")
BENCH_PROCESSES = 5
# The goals on Mono, ns per call: (versioned, final).
BENCH_GOALS = [("serialize", 250, 200), ("deserialize", 400, 300), ("verify", 80, 50)]


def build_bench() -> str:
    dll = build_runtime()
    source = os.path.join(HERE, "Bench", "Bench.cs")
    if not fresh(BENCH, [dll, __file__, source, *compiler_inputs()]):
        gen = generate(os.path.join(OUT, "gen-bench"), ["schemas/proto.fbe"])
        mcs(["-target:exe", "-out:" + BENCH, "-r:" + dll, "-r:System.Numerics.dll", source, *gen])
    return BENCH


def run_bench(args: List[str]) -> int:
    """csharp/Bench/Bench.cs over schemas/proto.fbe, run with mono --optimize=all in
    PROCESSES separate processes one after another (default 5: Mono's figures differ from
    process to process, see csharp/README.md); prints each process's CPU-ns medians, the
    median across processes, and the goal table from that.
    Arguments: [--processes P] [N RUNS [FILTER]] (N calls per round, RUNS rounds)."""
    processes = BENCH_PROCESSES
    if len(args) >= 2 and args[0] == "--processes":
        processes = max(1, int(args[1]))
        args = args[2:]
    exe = build_bench()
    rows: "dict[str, list[tuple[float, float, float, float]]]" = {}
    order: List[str] = []
    load0 = os.getloadavg()
    for i in range(processes):
        r = subprocess.run(["mono", "--optimize=all", exe, *args], stdout=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.stdout.write(r.stdout)
            return r.returncode
        for line in r.stdout.splitlines():
            if line.startswith("row\t"):
                _, name, cpu, wall, ghz, cycles = line.split("\t")
                if name not in rows:
                    rows[name] = []
                    order.append(name)
                rows[name].append((float(cpu), float(wall), float(ghz), float(cycles)))
            elif i == 0 and line.startswith("fastwire C#"):
                print(line + f"; {processes} processes (mono --optimize=all)")
    load1 = os.getloadavg()

    def median(xs: List[float]) -> float:
        xs = sorted(xs)
        k = len(xs)
        return xs[k // 2] if k % 2 else (xs[k // 2 - 1] + xs[k // 2]) / 2

    print(f"load average {load0[0]:.2f} at the start, {load1[0]:.2f} at the end")
    print("CPU ns per call: each process's median, then the median across processes; the clock the CPU")
    print("ran at (GHz, estimated per round) and cycles per call (CPU ns x GHz), medians across processes")
    head = "".join(f"{'p' + str(i + 1):>8}" for i in range(processes))
    print(f"{'operation':<40}{head}{'median':>9}{'wall':>9}{'GHz':>6}{'cycles':>8}")
    med: "dict[str, float]" = {}
    for name in order:
        vals = rows[name]
        med[name] = median([v[0] for v in vals])
        cells = "".join(f"{v[0]:8.1f}" for v in vals)
        print(f"{name:<40}{cells}{med[name]:9.1f}{median([v[1] for v in vals]):9.1f}"
              f"{median([v[2] for v in vals]):6.2f}{median([v[3] for v in vals]):8.0f}")
    goals = [(op, gv, gf) for op, gv, gf in BENCH_GOALS
             if f"{op} (versioned)" in med and f"{op} (final)" in med]
    if goals:
        print()
        print("| seed account (median of the processes' medians) | C# CPU ns versioned / final | goal | met |")
        print("|---|---:|---:|---|")
        for op, gv, gf in goals:
            v, f = med[f"{op} (versioned)"], med[f"{op} (final)"]
            met = {(True, True): "yes", (True, False): "versioned only",
                   (False, True): "final only", (False, False): "no"}[(v <= gv, f <= gf)]
            print(f"| {op} | {v:.0f} / {f:.0f} | {gv} / {gf} | {met} |")
    return 0


def run_examples() -> int:
    """examples/csharp: the account round trip and the protocol example, each run once."""
    dll = build_runtime()
    folder = os.path.join(REPO, "examples", "csharp")
    gen = None
    for name in ("Account", "Protocol"):
        exe = os.path.join(OUT, f"example-{name.lower()}.exe")
        source = os.path.join(folder, f"{name}.cs")
        if not fresh(exe, [dll, __file__, source, *compiler_inputs()]):
            gen = gen or generate(os.path.join(OUT, "gen-examples"), ["schemas/protocol.fbe"])
            mcs(["-target:exe", "-out:" + exe, "-r:" + dll, "-r:System.Numerics.dll", source, *gen])
        r = subprocess.run(["mono", exe], stdout=subprocess.PIPE, text=True)
        sys.stdout.write(r.stdout)
        if r.returncode != 0:
            print(f"csharp: example {name} failed ({r.returncode})", file=sys.stderr)
            return 1
        expected = os.path.join(REPO, "examples", "cpp", f"expected_{name.lower()}.txt")
        with open(expected, encoding="utf-8") as fh:
            if r.stdout != fh.read():
                print(f"csharp: example {name}'s output differs from {expected}", file=sys.stderr)
                return 1
        print(f"csharp: example {name}: the output of examples/cpp/{name.lower()}.cpp")
    return 0


FUZZ = os.path.join(OUT, "fuzz.exe")


def run_fuzz(seconds: str) -> int:
    """csharp/Fuzz/Fuzz.cs with the conformance schemas' code: mutants of the corpus for
    `seconds` (make test: 10; make fuzz-csharp: FUZZ_SECONDS)."""
    dll = build_runtime()
    source = os.path.join(HERE, "Fuzz", "Fuzz.cs")
    if not fresh(FUZZ, [dll, __file__, source, *compiler_inputs()]):
        gen = generate(os.path.join(OUT, "gen-fuzz"), SCHEMAS)
        mcs(["-target:exe", "-out:" + FUZZ, "-r:" + dll, "-r:System.Numerics.dll", source, *gen])
    return subprocess.run(["mono", FUZZ, seconds, REPO]).returncode


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "runtime"
    if command == "runtime":
        print(build_runtime())
    elif command == "test":
        sys.exit(run_tests())
    elif command == "transport":
        sys.exit(run_transport())
    elif command == "fuzz":
        sys.exit(run_fuzz(sys.argv[2] if len(sys.argv) > 2 else "10"))
    elif command == "examples":
        sys.exit(run_examples())
    elif command == "bench":
        sys.exit(run_bench(sys.argv[2:]))
    else:
        sys.exit(f"usage: {sys.argv[0]} [runtime|test|transport|examples|fuzz [SECONDS]|bench [N RUNS]]")
