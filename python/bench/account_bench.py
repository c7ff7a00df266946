"""Benchmark: the seed account through the generated Python code (pure CPython).

    python3 python/bench/account_bench.py            # generates the code into a temp dir
    python3 python/bench/account_bench.py --repeat 51 --number 2000 --json out.json

Measures serialize, deserialize and verify of the seed account (252 bytes versioned,
152 bytes final) with timeit: each repetition times `number` calls; the report gives
the median of the repetitions (the goal: serialize and deserialize <= 10 us each) and
the minimum (the least disturbed repetition, a better estimate of the cost itself on a
busy machine). The operations are interleaved repetition by repetition, so a noisy
period affects all of them alike.

Goal from issue 7: <= 10 us per serialize and per deserialize; the FBE reference's
Python needs about 106 us and 120 us (its README, Win64).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def generate(out: str) -> None:
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "compiler"))
    subprocess.run([sys.executable, "-m", "fastwire", "compile",
                    os.path.join(REPO, "schemas", "proto.fbe"), "--lang", "python", "--final",
                    "-q", "-o", out], check=True, env=env)


def seed_account(proto):
    return proto.Account(
        uid=1, name="Test", state=proto.State.good,
        wallet=proto.Balance("USD", 1000.0), asset=proto.Balance("EUR", 100.0),
        orders=[proto.Order(1, "EURUSD", proto.OrderSide.buy, proto.OrderType.market, 1.23456, 1000.0),
                proto.Order(2, "EURUSD", proto.OrderSide.sell, proto.OrderType.limit, 1.0, 100.0),
                proto.Order(3, "EURUSD", proto.OrderSide.buy, proto.OrderType.stop, 1.5, 10.0)])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=31, help="repetitions (default 31)")
    ap.add_argument("--number", type=int, default=2000, help="calls per repetition")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)

    sys.path.insert(0, os.path.join(REPO, "python"))
    with tempfile.TemporaryDirectory() as gen:
        generate(gen)
        sys.path.insert(0, gen)
        import proto_fbe as proto  # noqa: E402  (generated just now)

        account = seed_account(proto)
        versioned, final = proto.AccountModel(), proto.AccountFinalModel()
        data, fdata = versioned.serialize(account), final.serialize(account)
        assert len(data) == 252 and len(fdata) == 152
        assert versioned.deserialize(data) == account == final.deserialize(fdata)
        ops = {
            "serialize": lambda: versioned.serialize(account),
            "deserialize": lambda: versioned.deserialize(data),
            "verify": lambda: versioned.verify(data),
            "final serialize": lambda: final.serialize(account),
            "final deserialize": lambda: final.deserialize(fdata),
            "final verify": lambda: final.verify(fdata),
        }
        samples: dict[str, list[float]] = {name: [] for name in ops}
        for fn in ops.values():  # warm up
            timeit.timeit(fn, number=args.number)
        for _ in range(args.repeat):
            for name, fn in ops.items():
                samples[name].append(timeit.timeit(fn, number=args.number) / args.number * 1e6)

    print(f"Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{platform.machine()}, {os.cpu_count()} CPUs; "
          f"{args.repeat} repetitions x {args.number} calls")
    print(f"{'operation':20s} {'median us':>10s} {'min us':>8s}")
    results = {}
    for name, values in samples.items():
        med, low = statistics.median(values), min(values)
        results[name] = {"median_us": round(med, 3), "min_us": round(low, 3)}
        print(f"{name:20s} {med:10.2f} {low:8.2f}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
