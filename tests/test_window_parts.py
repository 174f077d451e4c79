"""The main window is the assembly of views; each of its jobs has one module in ``ui/`` named for it,
and no other module of the window does that job."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

UI = Path(__file__).resolve().parent.parent / "scorekeeper" / "ui"

OWNERS = {
    "BackgroundServer": "phone_sharing.py",
    "write_sheet": "game_files.py",
    "unfinished_summaries": "game_files.py",
    "ResumeDialog": "game_files.py",
    "NewGameDialog": "game_files.py",
    "save_settings": "window_camera.py",
    "CameraPane": "window_camera.py",
    "restoreState": "table_mode_switch.py",
    "showFullScreen": "table_mode_switch.py",
    "addMenu": "window_menus.py",
    "RulesDialog": "window_menus.py",
    "TYPED": "key_routing.py",
}
"""A name that only the part doing that job uses, and the module of the part."""


def names_used(path: Path) -> set[str]:
    """Every name and attribute ``path`` mentions, imported names included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    used: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            used.update(alias.name for alias in node.names)
    return used


WINDOW_MODULES = ("main_window.py", "phone_sharing.py", "game_files.py", "window_camera.py", "table_mode_switch.py", "window_menus.py", "key_routing.py", "plain_labels.py", "app.py")
"""The window and the parts it is assembled from."""


@pytest.mark.parametrize("name", sorted(OWNERS))
def test_each_job_of_the_window_is_done_by_its_own_part(name: str) -> None:
    doers = sorted(module for module in WINDOW_MODULES if name in names_used(UI / module))
    assert doers == [OWNERS[name]], f"{name} is used by {doers}"


def test_the_main_window_asks_no_question_itself() -> None:
    used = names_used(UI / "main_window.py")
    assert not used & {"QMessageBox", "QFileDialog", "hasattr", "getattr"}, "dialogs are its parts' job; its parts are typed"
