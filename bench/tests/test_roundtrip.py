"""The built runner: every serializer round-trips every data set, and golden encodings.

Needs build/bench/fastwire-bench-core (bench/run --build-only); skipped otherwise.
"""

import json
import subprocess

import fastwire_bench as fb
import pytest

CORE = fb.DEFAULT_BUILD_DIR / fb.CORE_NAME
# FBE's golden vectors, as checked into the repository (copies of the spec's).
VECTORS = fb.REPO_DIR / "tests" / "vectors"

pytestmark = pytest.mark.skipif(not CORE.exists(), reason="bench not built (bench/run --build-only)")

# Rows every complete build must have (fastwire's rows join when its runtime exists).
EXPECTED_ROWS = {
    "handwritten", "memcpy", "protobuf", "protobuf-arena", "flatbuffers", "flatbuffers-noverify",
    "capnp", "capnp-packed", "sbe", "thrift-binary", "thrift-compact", "avro", "msgpack", "cereal",
    "boost", "rapidjson", "simdjson", "nlohmann", "fastwire", "fastwire-final", "fastwire-json",
    "fastwire-arena",
}
DATASETS = {"account", "monsters", "record", "ints", "mixed", "complex", "vec", "map", "events"}


def run_core(*args):
    return subprocess.run([str(CORE), *args], capture_output=True, text=True, timeout=300)


def test_every_pair_round_trips(tmp_path):
    out = tmp_path / "check.json"
    proc = run_core("--check", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    pairs = {(r["peer"], r["dataset"]): r for r in data["results"]}
    names = {p["name"] for p in data["peers"]}
    assert EXPECTED_ROWS <= names, f"missing rows: {EXPECTED_ROWS - names}"
    for peer in names:
        for ds in DATASETS:
            r = pairs[(peer, ds)]
            assert r["status"] in ("ok", "n/a"), f"{peer}/{ds}: {r['reason']}"
            if r["status"] == "n/a":
                assert r["reason"], f"{peer}/{ds} is n/a without a reason"
            else:
                assert r["size"] > 0


def test_unknown_names_are_usage_errors():
    assert run_core("--check", "--peers", "nosuch").returncode == 2
    assert run_core("--check", "--datasets", "nosuch").returncode == 2


@pytest.mark.parametrize("value", ["-1", "65537", "abc", ""])
def test_bad_heap_offsets_are_usage_errors(value):
    proc = run_core("--check", "--datasets", "ints", "--heap-offset", value)
    assert proc.returncode == 2
    assert "--heap-offset" in proc.stderr


def test_the_heap_offset_is_recorded(tmp_path):
    out = tmp_path / "c.json"
    assert run_core("--check", "--peers", "fastwire-final", "--datasets", "ints", "--heap-offset", "816",
                    "--out", str(out)).returncode == 0
    assert json.loads(out.read_text())["config"]["heap_offset"] == 816


def test_family_names_select_all_variants(tmp_path):
    out = tmp_path / "c.json"
    assert run_core("--check", "--peers", "thrift", "--datasets", "ints", "--out", str(out)).returncode == 0
    assert {r["peer"] for r in json.loads(out.read_text())["results"]} == {"thrift-binary", "thrift-compact"}


@pytest.mark.skipif(not (VECTORS / "account.json").exists(), reason="golden vectors not available")
@pytest.mark.parametrize("peer", ["rapidjson", "simdjson"])
def test_account_json_matches_the_fbe_golden_vector(tmp_path, peer):
    # FBE's reference JSON for the README account, written by someone else's code: our
    # account data set and JSON field mapping must reproduce it byte for byte.
    assert run_core("--check", "--peers", peer, "--datasets", "account", "--dump", str(tmp_path),
                    "--out", str(tmp_path / "c.json")).returncode == 0
    assert (tmp_path / f"{peer}.account.bin").read_bytes() == (VECTORS / "account.json").read_bytes()


def hex_vector(name):
    """The bytes of a golden hex dump (whitespace-separated hex pairs)."""
    return bytes.fromhex((VECTORS / name).read_text())


# fastwire's own encodings of the account data set (the FBE README account) must be the
# reference's golden bytes. A row registered as n/a (its format not built yet) is skipped.
@pytest.mark.parametrize("peer,vector", [
    ("fastwire", "account.fbe.hex"),
    ("fastwire-final", "account.final.hex"),
    ("fastwire-json", "account.json"),
])
def test_fastwire_account_matches_the_fbe_golden_vector(tmp_path, peer, vector):
    if not (VECTORS / vector).exists():
        pytest.skip(f"tests/vectors/{vector} not available")
    out = tmp_path / "c.json"
    proc = run_core("--check", "--peers", peer, "--datasets", "account", "--dump", str(tmp_path),
                    "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    (row,) = [r for r in json.loads(out.read_text())["results"] if r["peer"] == peer]
    if row["status"] == "n/a":
        pytest.skip(f"{peer}: {row['reason']}")
    expected = (VECTORS / vector).read_bytes() if vector.endswith(".json") else hex_vector(vector)
    assert (tmp_path / f"{peer}.account.bin").read_bytes() == expected


def test_quick_run_end_to_end(tmp_path):
    proc = subprocess.run(["python3", str(fb.BENCH_DIR / "fastwire-bench"), "--quick", "-d", "account,ints",
                           "--json", str(tmp_path / "r.json")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "== account" in proc.stdout and "== ints" in proc.stdout
    document = json.loads((tmp_path / "r.json").read_text())
    rows = document["rows"]
    # A row that times only "read a few fields" (fastwire-view-noverify, -trusted) has that figure.
    assert all(r["serialize_ns"] or r["read_few_ns"] for r in rows if r["status"] == "ok")
    assert any(r["read_few_ns"] for r in rows if r["peer"] == "fastwire-view-noverify")
    assert any(r["read_few_ns"] for r in rows if r["peer"] == "fastwire-view-trusted")
    # Every peer object was compiled through the timing launcher (cmake/fwb_compile_time.py).
    families = document["code_size"]["families"]
    assert {"fastwire", "avro", "protobuf"} <= set(families)
    assert all(f["compile_cpu_s"] and f["compile_cpu_s"] > 0 for f in families.values()), families
