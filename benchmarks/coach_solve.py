"""Time the coach: solving each preset from scratch, reading it from the disk cache, and one lookup.

    python benchmarks/coach_solve.py [--runs 7]

Each solve runs in a fresh process pinned to one core with one BLAS thread,
so nothing is left in memory from an earlier run (the first-use case); the
time is the solve alone, not Python's start-up. A lookup is the advice for a
roll on the table (every keep valued, then roll or bank), timed over 2,000
states. Prints every run and the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

RULES = ["retail", "pocket", "house-2009", "retail+doubling+entry-500+three-farkle-penalty"]
# flip is the card edition: no dice, so no policy to solve.

CHILD = r"""
import json, os, random, sys, time
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from scorekeeper.coach import Situation, advise, policy_for
from scorekeeper.coach.cache import forget_solved
from scorekeeper.coach.policy import Policy
from scorekeeper.rules import Dice, load_rules

rules = load_rules(sys.argv[1])
start = time.perf_counter()
policy = Policy.solve(rules)
solve = time.perf_counter() - start

policy_for(rules)  # writes the cache file
forget_solved()
start = time.perf_counter()
policy_for(rules)
cached = time.perf_counter() - start

rng = random.Random(1)
states = []
for _ in range(2000):
    dice = rng.randint(1, 6)
    roll = Dice(rng.randint(1, 6) for _ in range(dice))
    states.append(Situation(total=50 * rng.randint(0, 60), dice=dice, roll=roll, on_board=rng.random() < 0.8))
for situation in states[:50]:
    advise(policy, situation)  # score_roll's cache warm, as in a game
start = time.perf_counter()
for situation in states:
    advise(policy, situation)
lookup = (time.perf_counter() - start) / len(states)
print(json.dumps({"solve": solve, "cached": cached, "lookup": lookup}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    for name in RULES:
        runs = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as cache:
                env["SCOREKEEPER_CACHE_DIR"] = cache
                done = subprocess.run([sys.executable, "-c", CHILD, name], env=env, capture_output=True,
                                      text=True, check=True)
            runs.append(json.loads(done.stdout))
        solves = [run["solve"] for run in runs]
        print(f"{name}: solve " + ", ".join(f"{t:.3f}" for t in solves) + " s")
        print(f"  median solve {statistics.median(solves):.3f} s, "
              f"read from cache {1000 * statistics.median(run['cached'] for run in runs):.1f} ms, "
              f"lookup {1e6 * statistics.median(run['lookup'] for run in runs):.0f} us")


if __name__ == "__main__":
    main()
