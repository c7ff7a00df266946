"""Bounds applied to untrusted input (the same defaults as the C++ runtime's `limits`).

    lim = Limits(max_message_size=1 << 30)          # accept messages up to 1 GiB
    model = proto.AccountModel(lim)

- max_depth: structs nested inside structs; the root struct counts as one level.
- max_message_size: the size a root model (or a protocol message) may declare.
- max_zero_size_elements: the final format can hold elements of zero bytes (an empty
  struct); a count of such elements is capped by this instead of by the bytes left.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_depth: int = 64
    max_message_size: int = 64 * 1024 * 1024
    max_zero_size_elements: int = 1 << 16


DEFAULT_LIMITS = Limits()
