"""The compiler's work and memory grow in proportion to the schema (issue #13): four
times the schema may cost at most five times as many Python function calls and five
times the peak memory. Counted, not timed (compiler/bench/check_scaling.py has times)."""

from __future__ import annotations

import sys
import tracemalloc

from fastwire import Reporter, compile_schema


def schema(structs: int) -> str:
    """Structs that hold the previous one through an optional and a vector (chains of
    100), with defaults; two packages' worth of lookups in one."""
    lines = ["package big\n"]
    for i in range(structs):
        prev = f"S{i - 1}" if i % 100 else "int64"
        lines.append(f"struct S{i} {{ int32 a = 5; string b = \"x\"; {prev}? c; {prev}[] d; "
                     f"decimal e = 1.5; }}\n")
    return "".join(lines)


def cost(tmp_path, structs: int):
    path = tmp_path / f"big{structs}.fbe"
    path.write_text(schema(structs))
    calls = 0

    def count(frame, event, arg):
        nonlocal calls
        if event == "call":
            calls += 1

    tracemalloc.start()
    sys.setprofile(count)
    try:
        result = compile_schema(str(path), Reporter())
    finally:
        sys.setprofile(None)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert result is not None
    return calls, peak


def test_check_is_linear(tmp_path):
    calls1, peak1 = cost(tmp_path, 300)
    calls4, peak4 = cost(tmp_path, 1200)
    assert calls4 / calls1 <= 5, (calls1, calls4)
    assert peak4 / peak1 <= 5, (peak1, peak4)
