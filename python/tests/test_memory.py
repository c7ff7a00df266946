"""Deserializing costs memory in proportion to the message (docs/security.md, "Memory of
deserialize() in Python"): the worst shape the schemas offer, a final message of N leaf
Nodes (8 wire bytes each), needs one object and one empty list per Node and nothing
more. Measured by tracemalloc (python/bench/memory_bench.py gives peak RSS)."""

from __future__ import annotations

import struct
import tracemalloc

import hostile_fbe as hostile

# Per leaf Node on CPython 3.10+: the object with two slots (48 B), its empty children
# list (56 B), its slot in the parent's list (8 B, plus growth); measured 112.
PER_STRUCT = 128


def test_final_deserialize_memory_per_struct():
    n = 100_000
    msg = bytearray(struct.pack("<IIiI", 0, hostile.NodeFinalModel.codec.type, 7, n))
    msg += struct.pack("<iI", 1, 0) * n
    struct.pack_into("<I", msg, 0, len(msg))
    data = bytes(msg)
    tracemalloc.start()
    try:
        root = hostile.NodeFinalModel().deserialize(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(root.children) == n
    assert peak <= PER_STRUCT * n, peak / n  # about 14 bytes per input byte
