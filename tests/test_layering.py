"""The pure packages stay pure: rules and game import no Qt, OpenCV, onnxruntime or numpy."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
PURE = ("rules", "game")
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "cv2", "onnxruntime", "numpy", "torch")
# The pure packages may lean on each other, never on the parts that see or show.
IMPURE_SIBLINGS = ("scorekeeper.vision", "scorekeeper.ui", "scorekeeper.cli")


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def pure_files() -> list[Path]:
    return sorted(path for package in PURE for path in (PACKAGE / package).rglob("*.py"))


def test_the_pure_packages_exist() -> None:
    assert len(pure_files()) >= 8


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_package_imports_nothing_heavy(path: Path) -> None:
    bad = [
        name
        for name in imported_modules(path)
        if name.split(".")[0] in FORBIDDEN or name.startswith(IMPURE_SIBLINGS)
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import numpy as np\nfrom PySide6.QtCore import QObject\nfrom .x import y\n")
    assert imported_modules(sneaky) == ["numpy", "PySide6.QtCore"]
