"""fastwire-bench's argument parsing and table building (no benchmark binary needed)."""

from pathlib import Path

import fastwire_bench as fb
import pytest


def test_defaults_are_the_full_run():
    args = fb.parse_args([])
    assert (args.processes, args.repetitions) == (fb.FULL["processes"], fb.FULL["repetitions"])
    assert args.processes == 5
    assert args.min_time == fb.FULL["min_time"]
    assert args.warmup == fb.FULL["warmup"]
    assert args.iterations is None
    assert not args.quick and not args.csv and not args.markdown and not args.report


def test_quick_preset_and_explicit_overrides():
    args = fb.parse_args(["--quick"])
    assert (args.processes, args.repetitions, args.min_time, args.warmup) == (1, 1, fb.QUICK["min_time"], 0.0)
    assert fb.parse_args(["--check"]).processes == 1
    assert fb.parse_args(["-p", "3"]).processes == 3
    args = fb.parse_args(["--quick", "-r", "3", "--min-time", "0.5"])
    assert (args.repetitions, args.min_time) == (3, 0.5)


def test_lists_of_serializers_and_datasets():
    args = fb.parse_args(["-s", "protobuf,thrift", "-d", "account"])
    assert args.serializers == ["protobuf", "thrift"]
    assert args.datasets == ["account"]
    args = fb.parse_args(["--serializers", "capnp", "--datasets", "monsters,map"])
    assert args.serializers == ["capnp"] and args.datasets == ["monsters", "map"]


@pytest.mark.parametrize("argv", [
    ["-s", "a,,b"],                    # empty name
    ["-i", "10", "--min-time", "1"],   # iterations and min-time exclude each other
    ["-c", "--markdown"],              # one output format
    ["-i", "0"],
    ["-r", "-1"],
    ["--min-time", "0"],
    ["--warmup", "-1"],
    ["--bogus"],
])
def test_rejected_arguments(argv, capsys):
    with pytest.raises(SystemExit) as e:
        fb.parse_args(argv)
    assert e.value.code == 2


def test_core_command_forwards_the_options(tmp_path):
    args = fb.parse_args(["-s", "protobuf,sbe", "-d", "ints", "-i", "100", "-r", "2",
                          "--build-dir", str(tmp_path)])
    cmd = fb.core_command(args, "out.json")
    assert cmd[0] == str(tmp_path / fb.CORE_NAME)
    joined = " ".join(cmd)
    assert "--peers protobuf,sbe" in joined and "--datasets ints" in joined
    assert "--iterations 100" in joined and "--repetitions 2" in joined
    assert "--min-time" not in joined and "--check" not in joined
    assert "--check" in fb.core_command(fb.parse_args(["--check"]), "o.json")
    assert "--min-time 0.1" in " ".join(fb.core_command(fb.parse_args([]), "o.json"))
    assert "--heap-offset" not in joined  # the first process: the heap as it is


def test_each_process_of_a_run_gets_another_heap_offset():
    args = fb.parse_args([])
    offsets = []
    for i in range(5):
        cmd = fb.core_command(args, "o.json", i)
        offsets.append(int(cmd[cmd.index("--heap-offset") + 1]) if "--heap-offset" in cmd else 0)
    assert offsets == [0, 816, 1632, 2448, 3264]
    # every 16-byte phase of a 64-byte line, and below 4 KiB
    assert sorted(o % 64 for o in offsets[1:]) == [0, 16, 32, 48]
    assert all(0 <= fb.heap_offset(i) < 4096 for i in range(100))


def _results(peers):
    """A synthetic runner result: peers is {name: (status, size, ser_ns, deser_ns)}."""
    results = []
    for name, (status, size, ser, des) in peers.items():
        r = {"peer": name, "dataset": "account", "status": status,
             "reason": "" if status == "ok" else "why", "ops": {}}
        if status == "ok":
            r["size"] = size
            r["ops"] = {"serialize": {"cpu_ns": ser}, "deserialize": {"cpu_ns": des}}
        results.append(r)
    return {
        "config": {"repetitions": 5, "min_time_s": 0.1, "iterations": 0},
        "peers": [{"name": n, "family": n, "kind": "binary", "version": "", "verifier": "",
                   "notes": ""} for n in peers],
        "datasets": [{"name": "account", "description": "d"}],
        "results": results,
    }


def test_rows_are_sorted_by_speed_with_ratios_against_the_reference():
    res = _results({"slow": ("ok", 100, 400.0, 600.0), "handwritten": ("ok", 50, 100.0, 200.0),
                    "broken": ("fail", 0, 0, 0), "absent": ("n/a", 0, 0, 0),
                    "fast": ("ok", 80, 50.0, 50.0)})
    ref = fb.reference_peer(res, None)
    assert ref == "handwritten"
    rows = fb.build_rows(res, ref)
    assert [r["peer"] for r in rows] == ["fast", "handwritten", "slow", "absent", "broken"]
    slow = rows[2]
    assert slow["serialize_ratio"] == pytest.approx(4.0)
    assert slow["deserialize_ratio"] == pytest.approx(3.0)
    assert slow["serialize_mbps"] == pytest.approx(100 / 400.0 * 1e3)
    text = fb.text_table(res, rows, ref)
    assert "ser ×handwritten" in text and "n/a: why" in text and "FAIL: why" in text


def test_reference_is_fastwire_final_when_present_and_can_be_overridden():
    res = _results({"fastwire-final": ("ok", 10, 1.0, 1.0), "handwritten": ("ok", 10, 2.0, 2.0)})
    assert fb.reference_peer(res, None) == "fastwire-final"
    assert fb.reference_peer(res, "handwritten") == "handwritten"
    rows = fb.build_rows(res, "fastwire-final")
    assert "×fastwire-final" in fb.markdown_tables(res, rows, "fastwire-final")


def test_reference_stays_handwritten_while_fastwire_final_is_not_built():
    res = _results({"fastwire-final": ("n/a", 0, 0, 0), "handwritten": ("ok", 10, 2.0, 2.0)})
    assert fb.reference_peer(res, None) == "handwritten"


def test_csv_has_one_line_per_pair():
    res = _results({"a": ("ok", 10, 1.0, 2.0), "b": ("n/a", 0, 0, 0)})
    lines = fb.csv_text(fb.build_rows(res, "a")).strip().splitlines()
    assert lines[0].split(",") == fb.CSV_FIELDS
    assert len(lines) == 3


def test_a_failed_round_trip_makes_the_run_fail(monkeypatch, capsys):
    res = _results({"handwritten": ("ok", 10, 1.0, 1.0), "bad": ("fail", 0, 0, 0)})
    monkeypatch.setattr(fb, "run_core", lambda args: (1, res))
    monkeypatch.setattr(fb, "code_sizes", lambda build_dir: {})
    assert fb.main(["--quick"]) == 1
    assert "round-trip check FAILED: bad/account" in capsys.readouterr().err


def test_a_clean_run_succeeds(monkeypatch, capsys):
    res = _results({"handwritten": ("ok", 10, 1.0, 1.0), "other": ("n/a", 0, 0, 0)})
    monkeypatch.setattr(fb, "run_core", lambda args: (0, res))
    monkeypatch.setattr(fb, "code_sizes", lambda build_dir: {})
    assert fb.main(["--quick", "--markdown"]) == 0
    assert "| handwritten |" in capsys.readouterr().out


def test_summary_chart_redrawn_from_results(tmp_path):
    """The summary figure (and the per-data-set panels) redraw from a results JSON alone."""
    pytest.importorskip("matplotlib")
    latest = Path(__file__).resolve().parents[1] / "results" / "latest.json"
    assert fb.main(["--charts-from", str(latest), "--results-dir", str(tmp_path)]) == 0
    for name in ("summary.png", "summary.svg", "latest.png", "latest.svg"):
        assert (tmp_path / name).stat().st_size > 0


def test_processes_merge_into_their_median_and_spread():
    runs = [_results({"a": ("ok", 10, ser, 2.0), "b": ("ok", 10, 1.0, 1.0), "c": ("n/a", 0, 0, 0)})
            for ser in (3.0, 1.0, 2.0)]
    for run in runs:
        for r in run["results"]:
            for v in r["ops"].values():
                v.update(real_ns=v["cpu_ns"], stddev_cpu_ns=0.01, iterations=100)
    runs[2]["results"][1].update(status="fail", reason="round trip", ops={})
    for i, run in enumerate(runs):
        run["config"]["heap_offset"] = fb.heap_offset(i)
    merged = fb.merge_runs(runs)
    assert merged["config"]["heap_offset"] == [0, 816, 1632]  # each process's
    a, b, c = merged["results"]
    assert a["ops"]["serialize"]["cpu_ns"] == 2.0  # the median of 3, 1, 2
    assert a["ops"]["serialize"]["stddev_cpu_ns"] == pytest.approx(1.0)  # across the processes
    assert a["ops"]["serialize"]["processes_cpu_ns"] == [3.0, 1.0, 2.0]
    assert a["ops"]["serialize"]["iterations"] == 300
    assert a["ops"]["deserialize"]["stddev_cpu_ns"] == 0.0
    assert (b["status"], b["reason"]) == ("fail", "round trip")  # failed in one process: failed
    assert c["status"] == "n/a"
    assert merged["config"]["processes"] == 3
    assert "3 processes" in fb.legend(merged, "a")
    del runs[1]["results"][0]  # a row one process did not report: failed, not averaged over the rest
    assert (fb.merge_runs(runs)["results"][0]["status"], fb.merge_runs(runs)["results"][0]["reason"]) == (
        "fail", "missing from a run")
    single = fb.merge_runs(runs[:1])
    assert single["results"][0]["ops"]["serialize"]["stddev_cpu_ns"] == 0.01  # its own repetitions
