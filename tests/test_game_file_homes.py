"""Each job of the game's files has one module named for it: the journal's format and recovery
(``journal.py``), the one-writer lock (``lock.py``), the games folder (``games_folder.py``),
editing a past turn (``history_edits.py``), and telling a journal from a saved game (``save.py``).
Each name is defined in its home only, and everything that uses it imports it from there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "scorekeeper" / "game"
HOMES = {
    "journal": (
        "Journal", "JournalDamage", "JournalContents", "Salvage", "Recovered", "read_journal", "open_journal",
        "salvage", "no_game_error", "CUT_OFF", "REBUILT", "SHELVED",
    ),
    "journal_error": ("JournalError",),
    "lock": (
        "GameLock", "LockHolder", "GameOpenElsewhere", "UNKNOWN_HOLDER", "LOCK_SUFFIX", "lock_path", "game_holder",
        "check_not_open_elsewhere",
    ),
    "games_folder": (
        "default_home", "games_folder", "new_journal_path", "unfinished_games", "had_a_roll", "finish_interrupted",
        "is_real", "_drop_if_left_empty", "STALE_SECONDS",
    ),
    "history_edits": ("Segment", "segments", "with_turn_replaced"),
    "save": ("load_events", "game_file_kind"),
}
HOME_OF = {name: module for module, names in HOMES.items() for name in names}


def defined_names(path: Path) -> set[str]:
    """The names ``path`` defines at its top level (functions, classes and assigned names)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def imports_from_game(path: Path) -> list[tuple[str, str]]:
    """``(module, name)`` for each name ``path`` imports from a module of ``scorekeeper.game``, in
    its code and in its doctests."""
    text = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(text, filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scorekeeper.game."):
            found.extend((node.module, alias.name) for alias in node.names)
    for module, names in re.findall(r">>> from (scorekeeper\.game\.\w+) import ([\w, ]+)", text):
        found.extend((module, name.strip()) for name in names.split(","))
    return found


@pytest.mark.parametrize("module", sorted(HOMES))
def test_each_job_of_the_game_files_is_defined_in_the_module_named_for_it(module: str) -> None:
    home = GAME / f"{module}.py"
    assert home.is_file(), f"scorekeeper/game/{module}.py is missing"
    missing = sorted(set(HOMES[module]) - defined_names(home))
    assert not missing, f"scorekeeper/game/{module}.py does not define {missing}"


def test_no_other_module_of_the_package_defines_them_again() -> None:
    twice = [
        f"{path.relative_to(ROOT)} defines {name} (its home is game/{HOME_OF[name]}.py)"
        for path in sorted((ROOT / "scorekeeper").rglob("*.py"))
        for name in sorted(defined_names(path) & HOME_OF.keys())
        if path != GAME / f"{HOME_OF[name]}.py"
    ]
    assert not twice


def test_every_user_imports_them_from_their_home() -> None:
    files = [path for folder in ("scorekeeper", "tests", "benchmarks") for path in sorted((ROOT / folder).rglob("*.py"))]
    elsewhere = [
        f"{path.relative_to(ROOT)} imports {name} from {module}"
        for path in files
        for module, name in imports_from_game(path)
        if name in HOME_OF and module != f"scorekeeper.game.{HOME_OF[name]}"
    ]
    assert not elsewhere


def test_the_journal_format_knows_nothing_of_the_folder_or_of_editing_and_the_lock_nothing_of_the_journal() -> None:
    def game_modules(path: Path) -> set[str]:
        return {module.removeprefix("scorekeeper.game.") for module, _ in imports_from_game(path)}

    assert not game_modules(GAME / "journal.py") & {"games_folder", "history_edits", "save"}
    assert not game_modules(GAME / "lock.py") & {"journal", "games_folder", "history_edits", "save"}
    assert not game_modules(GAME / "history_edits.py") & {"journal", "lock", "games_folder", "save"}
