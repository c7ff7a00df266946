"""The code-size table's compile-time column: the launcher's `<object>.time` files, their
sum per peer, and how the column reads in Markdown and CSV (no benchmark binary needed)."""

import json
import subprocess
import sys
from pathlib import Path

import fastwire_bench as fb
import pytest

LAUNCHER = Path(__file__).resolve().parents[1] / "cmake" / "fwb_compile_time.py"


def _time_file(obj: Path, cpu: float, wall: float) -> None:
    Path(f"{obj}.time").write_text(f"cpu={cpu} wall={wall}\n")


def test_the_launcher_runs_the_command_and_records_its_time(tmp_path):
    obj = tmp_path / "a.o"
    make = f"open({str(obj)!r}, 'w').write('x'); sum(range(200000))"
    proc = subprocess.run([sys.executable, str(LAUNCHER), sys.executable, "-c", make, "-o", str(obj)])
    assert proc.returncode == 0 and obj.read_text() == "x"
    cpu, wall = fb.read_compile_time(Path(f"{obj}.time"))
    assert cpu > 0 and wall > 0


def test_the_launcher_passes_a_failure_through_and_records_nothing(tmp_path):
    obj = tmp_path / "b.o"
    proc = subprocess.run([sys.executable, str(LAUNCHER), sys.executable, "-c", "raise SystemExit(3)",
                           f"-o{obj}"])
    assert proc.returncode == 3
    assert not Path(f"{obj}.time").exists()


def test_seconds_are_summed_over_adapter_and_generated_objects(tmp_path):
    objs = [tmp_path / n for n in ("adapter.o", "gen1.o", "gen2.o")]
    for o, (cpu, wall) in zip(objs, [(1.25, 2.0), (0.5, 0.75), (3.0, 3.5)]):
        _time_file(o, cpu, wall)
    got = fb.compile_seconds([str(o) for o in objs])
    assert got["compile_cpu_s"] == pytest.approx(4.75)
    assert got["compile_wall_s"] == pytest.approx(6.25)


def test_an_object_without_a_time_file_leaves_the_sum_unknown(tmp_path):
    _time_file(tmp_path / "a.o", 1.0, 1.0)
    assert fb.compile_seconds([str(tmp_path / "a.o"), str(tmp_path / "b.o")])["compile_cpu_s"] is None
    assert fb.compile_seconds([])["compile_cpu_s"] is None
    (tmp_path / "c.o.time").write_text("garbage\n")
    assert fb.read_compile_time(tmp_path / "c.o.time") is None


def test_code_sizes_table_and_csv_carry_the_column(tmp_path):
    adapter, gen = tmp_path / "avro.cpp.o", tmp_path / "x.pb.cc.o"
    _time_file(adapter, 2.25, 3.0)
    _time_file(gen, 10.0, 12.0)
    manifest = {"peers": {"avro": {"adapter": [str(adapter)], "generated": [], "generated_files": []},
                          "protobuf": {"adapter": [str(adapter)], "generated": [str(gen)],
                                       "generated_files": []}},
                "missing": ["yas: not packaged"]}
    (tmp_path / "codesize.json").write_text(json.dumps(manifest))
    sizes = fb.code_sizes(tmp_path)
    assert sizes["families"]["protobuf"]["compile_cpu_s"] == pytest.approx(12.25)
    results = {"peers": [{"name": "avro", "family": "avro"}, {"name": "protobuf", "family": "protobuf"},
                         {"name": "protobuf-arena", "family": "protobuf"}]}
    table = fb.code_size_markdown(results, sizes)
    assert "| compile s |" in table
    assert "| avro | avro |" in table and table.splitlines()[4].endswith("| 2.2 |")  # 2.25 rounds half-even
    assert "| protobuf | protobuf, protobuf-arena |" in table and "| 12.2 |" in table
    assert "| yas | not built: not packaged | | | | |" in table

    rows = [{"peer": "protobuf-arena", "dataset": "account"}, {"peer": "memcpy", "dataset": "account"}]
    fb.add_compile_seconds({"peers": results["peers"] + [{"name": "memcpy", "family": "memcpy"}]}, rows, sizes)
    assert rows[0]["compile_cpu_s"] == pytest.approx(12.25) and rows[1]["compile_cpu_s"] is None
    lines = fb.csv_text(rows).splitlines()
    col = lines[0].split(",").index("compile_cpu_s")
    assert lines[1].split(",")[col] == "12.250" and lines[2].split(",")[col] == ""


def test_seconds_format():
    assert fb.fmt_seconds(None) == "-"
    assert fb.fmt_seconds(0.04) == "0.0"
    assert fb.fmt_seconds(1234.56) == "1,234.6"
