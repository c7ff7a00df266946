"""Test setup: the code generated from the repository's schemas.

The generated modules are compiled once per session into a temporary folder that is put
on sys.path (proto, protoex, protocol, everything, service, hostile). The runtime is imported
from python/ (no installation needed). Shared data lives in seeds.py (not here: test
folders collected together would see another folder's conftest under the same name).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)
SCHEMAS = [os.path.join(REPO, "schemas", n) for n in
           ("proto.fbe", "protoex.fbe", "protocol.fbe", "everything.fbe", "service.fbe")]
SCHEMAS.append(os.path.join(REPO, "conformance", "schemas", "hostile.fbe"))

sys.path.insert(0, PYTHON_DIR)

_GENERATED = tempfile.mkdtemp(prefix="fastwire-py-")
atexit.register(shutil.rmtree, _GENERATED, True)
subprocess.run([sys.executable, "-m", "fastwire", "compile", *SCHEMAS, "--lang", "python",
                "--final", "--json", "--proto", "-q", "-o", _GENERATED], check=True,
               env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler")))
sys.path.insert(0, _GENERATED)
