"""Puts the runtime (python/) and the code generated from schemas/service.fbe on sys.path
for the examples: FASTWIRE_GENERATED names a folder that holds it, or it is generated
into a temporary folder."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "python"))
generated = os.environ.get("FASTWIRE_GENERATED")
if not generated:
    generated = tempfile.mkdtemp(prefix="fastwire-example-")
    atexit.register(shutil.rmtree, generated, True)
    subprocess.run([sys.executable, "-m", "fastwire", "compile",
                    os.path.join(REPO, "schemas", "service.fbe"), "--lang", "python", "--final",
                    "--proto", "-q", "-o", generated], check=True,
                   env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler")))
sys.path.insert(0, generated)

import proto_fbe as proto  # noqa: E402
import service_fbe as service  # noqa: E402

__all__ = ["proto", "service"]
