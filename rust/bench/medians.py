"""Prints the median of each criterion benchmark (<criterion dir>/<name>/new/estimates.json)."""

import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "build/rust/target/criterion"
for name in sorted(os.listdir(root)):
    path = os.path.join(root, name, "new", "estimates.json")
    if os.path.exists(path):
        with open(path) as fh:
            ns = json.load(fh)["median"]["point_estimate"]
        print(f"{name:24} median {ns:9.1f} ns")
