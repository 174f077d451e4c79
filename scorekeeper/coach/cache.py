"""The solved policies, kept on disk keyed by what the rules say.

The key is a hash of the complete rule set minus its name and title, so a
renamed copy of a preset shares its solution and any changed option gets a new
one. A cache file that cannot be read, or holds something else, is solved
again and rewritten; a cache folder that cannot be written only costs the
solve next time.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from scorekeeper.coach.policy import CoachError, Policy, Tables, cannot_advise
from scorekeeper.coach.solver import columns, standings
from scorekeeper.rules import RuleSet, rules_to_table
from scorekeeper.safe_npz import read_npz
from scorekeeper.safe_output import write_atomically

log = logging.getLogger(__name__)

CACHE_ENV = "SCOREKEEPER_CACHE_DIR"
"""Set to a folder to keep the coach's cache there instead of the user's cache folder."""
SOLVER_VERSION = 3
"""Part of the key: a change to what the solver computes must bump it."""
MAX_FILES = 32
"""The most solved policies kept on disk (one is about 70 KB); the least recently used go first."""
MAX_BYTES = 32_000_000
"""The most the cache folder may hold in all; a policy bigger than this alone is not kept."""

_solved: dict[str, Policy] = {}


def cache_dir() -> Path:
    """Where solved policies are kept: ``$SCOREKEEPER_CACHE_DIR``, else the platform's user cache folder."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA", home / "AppData" / "Local"))
    elif sys.platform == "darwin":
        base = home / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or home / ".cache")
    return base / "scorekeeper" / "coach"


@functools.lru_cache(maxsize=64)
def rules_key(rules: RuleSet) -> str:
    """A hash of everything in ``rules`` that changes play (not the name or title).

    >>> from scorekeeper.rules import load_rules
    >>> rules_key(load_rules("retail")) == rules_key(load_rules("pocket"))
    False
    """
    table = rules_to_table(rules)
    del table["name"], table["title"]
    text = json.dumps({"solver": SOLVER_VERSION, "rules": table}, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _path(key: str) -> Path:
    return cache_dir() / f"policy-{key}.npz"


def _read(path: Path, rules: RuleSet, key: str) -> Policy | None:
    """The cached policy, or None when the file is missing, damaged or not this rule set's."""
    if not os.path.lexists(path):
        return None
    try:
        data = read_npz(path, "coach cache file", limit=MAX_BYTES)
    except ValueError as exc:
        log.warning("%s; solving again", exc)
        return None
    names = ["key", "farkle", "win", *(f"rolls{index}" for index in range(len(standings(rules))))]
    missing = [name for name in names if name not in data]
    if missing:
        log.warning("coach cache %s lacks %s; solving again", path, ", ".join(missing))
        return None
    if str(data["key"]) != key:
        return None
    try:
        farkle = np.asarray(data["farkle"], dtype=np.float64)
        win = np.asarray(data["win"], dtype=np.float64)
        tables = {standing: Tables(np.asarray(data[f"rolls{index}"], dtype=np.float64)) for index, standing in enumerate(standings(rules))}
    except ValueError as exc:
        log.warning("coach cache %s holds tables that are not numbers (%s); solving again", path, exc)
        return None
    width = columns(rules)
    if farkle.shape != (width - 1,) or win.ndim != 2 or win.shape[1] != width or len(win) < 1:
        log.warning("coach cache %s holds tables of the wrong shape; solving again", path)
        return None
    for table in tables.values():
        if table.rolls.ndim != 2 or table.rolls.shape[1] != width - 1 or len(table.rolls) < 1:
            log.warning("coach cache %s holds tables of the wrong shape; solving again", path)
            return None
    return Policy(rules, farkle, tables, win)


def _prune(folder: Path) -> None:
    """Keep the cache within :data:`MAX_FILES` and :data:`MAX_BYTES`, dropping the least recently
    used policies, and any temporary file a killed write left."""
    try:
        for stale in folder.glob(".policy-*.tmp"):
            stale.unlink(missing_ok=True)
        kept = sorted(folder.glob("policy-*.npz"), key=lambda p: p.stat().st_mtime, reverse=True)
        total = 0
        for count, path in enumerate(kept, start=1):
            total += path.stat().st_size
            if count > MAX_FILES or total > MAX_BYTES:
                path.unlink(missing_ok=True)
    except OSError as exc:  # another scorekeeper pruning at the same time: the next write prunes
        log.warning("cannot prune the coach's cache in %s (%s)", folder, exc)


def _write(path: Path, policy: Policy, key: str) -> None:
    """Write atomically (a reader sees the old file or the whole new one), then prune the cache."""
    arrays: dict[str, Any] = {"key": np.array(key), "farkle": policy.farkle, "win": policy.win}
    for index, standing in enumerate(standings(policy.rules)):
        arrays[f"rolls{index}"] = policy.tables[standing].rolls
    data = io.BytesIO()
    np.savez(data, **arrays)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, data.getvalue())
        _prune(path.parent)
    except OSError as exc:
        log.warning("cannot keep the coach's policy in %s (%s); it will be solved again next time", path, exc)


def policy_for(rules: RuleSet) -> Policy:
    """The solved policy of ``rules``: from memory, else the disk cache, else solved now and cached.

    Raises :class:`~scorekeeper.coach.policy.CoachError` where the coach cannot advise
    (:func:`~scorekeeper.coach.policy.cannot_advise`: the card edition, spicy).
    """
    why = cannot_advise(rules)
    if why is not None:
        raise CoachError(why)
    key = rules_key(rules)
    policy = _solved.get(key)
    if policy is not None and policy.rules == rules:
        return policy
    path = _path(key)
    policy = _read(path, rules, key)
    if policy is not None:
        try:
            os.utime(path)
        except OSError:
            pass
    else:
        policy = Policy.solve(rules)
        _write(path, policy, key)
    _solved[key] = policy
    return policy


def forget_solved() -> None:
    """Drop the policies held in memory (the disk cache stays): the next lookup reads the disk."""
    _solved.clear()
