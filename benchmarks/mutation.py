"""Mutation testing: how many small deliberate bugs in the code players rely on the tests catch.

    python benchmarks/mutation.py [--target NAME ...] [--only GLOB ...] [--tests PATH ...]
                                  [--confirm PATH ... | --no-confirm] [--limit SECONDS] [--max-children N]

Runs mutmut (the ``mutation`` extra: ``pip install -e '.[mutation]'``) in a scratch copy of the
checkout, ``build/mutation``, at the lowest CPU priority and under a wall-clock limit, then prints
how many mutants were made, killed and surviving (and the rest by status) and names each survivor;
``cd build/mutation && mutmut show NAME`` shows its change. Mutants the limit cut off count as not
checked. Not part of the test suite or CI: every target with its tests takes hours on 2 cores.

mutmut runs each mutant against the tests it saw reach the mutated function; slow tests (property
runs, films) make that crawl for every survivor. So each target names fast tests for mutmut and
slower ones to ``--confirm`` with: each survivor (and each mutant no fast test reached) is run once
more against them, all of them, with the mutant switched on; one that fails there is reported as
killed by them, and only the rest are survivors.

Not seen by any run: decorated functions (mutmut leaves properties unmutated) and code a test reaches
only in a subprocess (mutmut maps tests to functions in the test's own process).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRATCH = REPO / "build" / "mutation"
"""Where the copy is mutated (git-ignored); the results stay there for ``mutmut show`` and ``browse``."""
COPIED = ("scorekeeper", "tests", "conftest.py", "pyproject.toml", "models", "sample_images", "calibration")
"""What the tests need of the checkout."""
TARGETS = {
    "rules": (
        ["scorekeeper/rules/*.py"],
        ["tests/test_scoring_oracle.py", "tests/test_rules_loading.py", "tests/test_rules_describe.py", "tests/test_game.py", "tests/test_game_edges.py"],
        ["tests/test_game_properties.py"],
    ),
    "game": (
        ["scorekeeper/game/*.py"],
        ["tests/test_game.py", "tests/test_game_edges.py", "tests/test_journal.py", "tests/test_journal_kept_aside.py",
         "tests/test_journal_messages.py", "tests/test_games_folder.py", "tests/test_turn_edit_refusals.py",
         "tests/test_event_format.py", "tests/test_saved_games_and_resume_offer.py"],
        ["tests/test_game_properties.py"],
    ),
    "settling": (["scorekeeper/camera/settling.py"], ["tests/test_camera_settling.py"], ["tests/test_camera_watch.py"]),
    "processing": (["scorekeeper/vision/processing.py"], ["tests/test_vision_processing.py"], ["tests/test_vision_reader.py"]),
}
"""The code players rely on most: what to mutate, the fast tests that guard it, the slower ones to confirm survivors with."""
SCRATCH_CONFTEST = '''

@pytest.fixture(autouse=True)
def _uncached():
    """Mutation runs only: each test computes afresh, so mutmut sees every test that reaches a function
    behind a cache (a cached answer hides the test from it, and would answer for a mutant)."""
    import functools
    import sys

    for name, module in list(sys.modules.items()):
        if name.startswith("scorekeeper") and module is not None:
            for value in list(vars(module).values()):
                if isinstance(value, functools._lru_cache_wrapper):
                    value.cache_clear()


def pytest_collection_modifyitems(items):
    """Mutation runs only: mutmut copies each mutated function with its docstring; run each doctest once,
    from the function players call (its trampoline), not from every copy."""
    items[:] = [item for item in items if "mutmut" not in item.name]
'''
"""Added to the scratch copy's conftest.py: no caches between tests, one copy of each doctest."""


def toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def prepare(only: list[str], tests: list[str]) -> None:
    """A fresh scratch copy whose pyproject.toml tells mutmut what to mutate and which tests to run."""
    if SCRATCH.exists():
        shutil.rmtree(SCRATCH)
    SCRATCH.mkdir(parents=True)
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, SCRATCH / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(source, SCRATCH / name)
    with (SCRATCH / "conftest.py").open("a", encoding="utf-8") as stream:
        stream.write(SCRATCH_CONFTEST)
    with (SCRATCH / "pyproject.toml").open("a", encoding="utf-8") as stream:
        stream.write(
            "\n[tool.mutmut]\n"
            'source_paths = ["scorekeeper"]\n'
            f"only_mutate = {toml_list(only)}\n"
            f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
            'pytest_add_cli_args = ["-p", "no:cacheprovider"]\n'
            # each mutant from a process that has not run the tests: scoring's lru caches would answer for the mutants
            'process_isolation = "forkserver"\n'
            f"also_copy = {toml_list([name for name in COPIED if name not in ('scorekeeper', 'tests', 'pyproject.toml')])}\n"
        )


def mutmut(*args: str, limit: float | None = None) -> tuple[str, bool]:
    """Run mutmut in the scratch copy at nice 19; the output, and whether the limit cut it off."""
    command = ["nice", "-n", "19", str(Path(sys.executable).parent / "mutmut"), *args]
    process = subprocess.Popen(command, cwd=SCRATCH, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = process.communicate(timeout=limit)
        return out, False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            out, _ = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, _ = process.communicate()
        return out, True


def statuses(results: str) -> dict[str, str]:
    """Each mutant's status, from ``mutmut results --all true`` lines ``    name: status``."""
    found = {}
    for line in results.splitlines():
        name, colon, status = line.strip().rpartition(": ")
        if colon and "__mutmut_" in name:
            found[name] = status
    return found


def confirm(names: list[str], tests: list[str], deadline: float) -> dict[str, str]:
    """Run each mutant of ``names`` against all of ``tests`` in the scratch copy's mutated tree: "killed"
    where they fail, "survived" where they pass, "not confirmed" once the deadline has passed."""
    found = {}
    for name in names:
        if time.monotonic() >= deadline:
            found[name] = "not confirmed"
            continue
        command = ["nice", "-n", "19", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider", *tests]
        try:
            code = subprocess.run(
                command, cwd=SCRATCH / "mutants", env={**os.environ, "MUTANT_UNDER_TEST": name},
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=max(1.0, deadline - time.monotonic()),
            ).returncode
        except subprocess.TimeoutExpired:
            found[name] = "not confirmed"
            continue
        found[name] = {0: "survived", 1: "killed"}.get(code, f"pytest exit {code}")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", action="append", choices=sorted(TARGETS), help="a module group and its tests (default: all)")
    parser.add_argument("--only", action="append", metavar="GLOB", help="mutate only these files (instead of --target's)")
    parser.add_argument("--tests", action="append", metavar="PATH", help="run only these tests (instead of --target's)")
    parser.add_argument("--confirm", action="append", metavar="PATH", help="confirm survivors with these tests (instead of --target's)")
    parser.add_argument("--no-confirm", action="store_true", help="leave survivors unconfirmed (mutmut's verdict only)")
    parser.add_argument("--limit", type=float, default=3600, help="wall-clock limit for the run and the confirming, seconds (default 3600)")
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default 1: the machine is shared)")
    args = parser.parse_args(argv)
    if shutil.which("mutmut", path=str(Path(sys.executable).parent)) is None:
        print("mutmut is not installed: pip install -e '.[mutation]'", file=sys.stderr)
        return 2
    chosen = [TARGETS[name] for name in args.target or sorted(TARGETS)]
    only = args.only or [glob for globs, _, _ in chosen for glob in globs]
    tests = args.tests or list(dict.fromkeys(test for _, paths, _ in chosen for test in paths))
    wider = [] if args.no_confirm else args.confirm or [path for path in dict.fromkeys(test for _, _, paths in chosen for test in paths) if path not in tests]
    # the mutated modules' own doctests are tests of the suite too (pytest runs them with --doctest-modules)
    tests += [str(path.relative_to(REPO)) for glob in only for path in sorted(REPO.glob(glob)) if str(path.relative_to(REPO)) not in tests]
    prepare(only, tests)
    print(f"mutating {', '.join(only)}; tests: {', '.join(tests)}; confirming with: {', '.join(wider) or 'nothing'}; limit {args.limit:.0f} s", flush=True)
    deadline = time.monotonic() + args.limit
    out, cut = mutmut("run", "--max-children", str(args.max_children), limit=args.limit)
    (SCRATCH / "run.log").write_text(out, encoding="utf-8")
    found = statuses(mutmut("results", "--all", "true")[0])
    counts = Counter(found.values())
    print(f"{'cut off by the limit; ' if cut else ''}log in {SCRATCH / 'run.log'}")
    print(f"mutants made {len(found)}, killed {counts['killed']}, surviving {counts['survived']}", end="")
    rest = {status: count for status, count in counts.items() if status not in ("killed", "survived")}
    print("".join(f", {status} {count}" for status, count in sorted(rest.items())))
    # survivors first: the limit is likelier to leave mutants no fast test reached unconfirmed
    left = sorted(name for name, status in found.items() if status == "survived")
    left += sorted(name for name, status in found.items() if status == "no tests")
    if wider and left:
        again = confirm(left, wider, deadline)
        tally = Counter(again.values())
        print(f"confirmed with {', '.join(wider)}: of {len(left)} survived or untested, killed {tally['killed']}, surviving {tally['survived']}", end="")
        print("".join(f", {status} {count}" for status, count in sorted(tally.items()) if status not in ("killed", "survived")))
        found.update({name: status for name, status in again.items() if status != "survived"})
    for name, status in sorted(found.items()):
        if status in ("survived", "no tests", "not confirmed") or status.startswith("pytest exit"):
            print(f"  {status}: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
