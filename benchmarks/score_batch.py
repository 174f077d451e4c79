"""Time ``scorekeeper score --batch`` over every roll of 1 to 6 dice (55,986 lines).

    python benchmarks/score_batch.py [--rules retail] [--runs 7]

Each run is a fresh process, start-up included, as a user or script would run it.
Prints every run and the median in seconds.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import time


def all_rolls() -> str:
    lines = [" ".join(roll) for n in range(1, 7) for roll in itertools.product("123456", repeat=n)]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="retail")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    rolls = all_rolls()
    command = [sys.executable, "-m", "scorekeeper", "score", "--rules", args.rules, "--batch"]
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        done = subprocess.run(command, input=rolls, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - start)
        assert done.stdout.count("\n") == rolls.count("\n")
    print(f"{rolls.count(chr(10))} rolls, rules {args.rules}, {args.runs} runs: "
          + ", ".join(f"{t:.3f}" for t in times))
    print(f"median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
