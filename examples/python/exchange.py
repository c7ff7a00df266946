"""The C++ <-> Python exchange that `make test` runs (ctest example_cross_language):
examples/cpp/server answers examples/python/client.py and examples/cpp/client, in both
formats, and examples/python/server.py answers examples/cpp/client. Each server is
started on port 0 (the port read from its first line) and stopped with SIGTERM, after
which it must print "stopped: ..." and exit 0.

    python3 examples/python/exchange.py CPP_SERVER CPP_CLIENT
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def start(cmd):
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = server.stdout.readline().split()
    if len(first) != 3 or first[0] != "listening":
        server.kill()
        sys.exit(f"{cmd}: first line {first}, not 'listening HOST PORT'")
    return server, first[2]


def stop(server, name):
    server.send_signal(signal.SIGTERM)
    out, _ = server.communicate(timeout=30)
    if server.returncode != 0 or "stopped:" not in out:
        sys.exit(f"{name}: exit {server.returncode}, output {out!r}")
    print(f"{name}: {out.strip()}")


def client(cmd, name):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=ENV)
    if done.returncode != 0 or not done.stdout.strip().endswith("ok"):
        sys.exit(f"{name} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    print(f"{name}: ok")


def main(cpp_server, cpp_client):
    py = sys.executable
    for fmt in ([], ["--final"]):
        label = "final" if fmt else "versioned"
        server, port = start([cpp_server, "127.0.0.1", "0", *fmt])
        client([py, os.path.join(HERE, "client.py"), "127.0.0.1", port, *fmt],
               f"python client -> C++ server ({label})")
        client([cpp_client, "127.0.0.1", port, *fmt], f"C++ client -> C++ server ({label})")
        stop(server, "C++ server")
        server, port = start([py, "-u", os.path.join(HERE, "server.py"), "127.0.0.1", "0", *fmt])
        client([cpp_client, "127.0.0.1", port, *fmt, "--requests", "200"],
               f"C++ client -> python server ({label})")
        stop(server, "python server")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: exchange.py CPP_SERVER CPP_CLIENT")
    generated = tempfile.mkdtemp(prefix="fastwire-exchange-")
    repo = os.path.dirname(os.path.dirname(HERE))
    subprocess.run([sys.executable, "-m", "fastwire", "compile",
                    os.path.join(repo, "schemas", "service.fbe"), "--lang", "python", "--final",
                    "--proto", "-q", "-o", generated], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(repo, "compiler")))
    ENV = dict(os.environ, FASTWIRE_GENERATED=generated)
    os.environ["FASTWIRE_GENERATED"] = generated
    try:
        main(sys.argv[1], sys.argv[2])
    finally:
        subprocess.run(["rm", "-rf", generated], check=False)
