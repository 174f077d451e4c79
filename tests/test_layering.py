"""Which way imports go: every package of scorekeeper/ imports only the packages and libraries its
row of :data:`ALLOWED` lists (so the pure packages, rules and game, import no Qt, OpenCV,
onnxruntime or numpy), no modules import each other in a circle, and only the UI package (and
export's PDF writer and race painter) imports Qt when it is loaded."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_the_check_catches_a_forbidden_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("import numpy as np\nfrom PySide6.QtCore import QObject\nfrom .x import y\n")
    assert imported_modules(sneaky) == ["numpy", "PySide6.QtCore"]


def module_level_imports(path: Path) -> list[str]:
    """Modules imported when ``path`` is loaded (imports inside functions run only when called)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                names.extend(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                names.append(child.module)
            visit(child)

    visit(tree)
    return names


QT_PDF_WRITER = PACKAGE / "export" / "pdf.py"
QT_RACE_PAINTER = PACKAGE / "export" / "race_painter.py"
"""The two modules outside the UI that import Qt: export owns every score sheet, and Qt draws the PDF
and paints its race, as the window paints it. Nothing else outside the window imports them when
loaded; the writer picking the format loads the PDF writer when a PDF is asked for."""


def outside_ui() -> list[Path]:
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if "ui" not in path.relative_to(PACKAGE).parts[:1] and path not in (QT_PDF_WRITER, QT_RACE_PAINTER)
    )


@pytest.mark.parametrize("path", outside_ui(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_only_the_ui_imports_qt_when_loaded(path: Path) -> None:
    bad = [
        name
        for name in module_level_imports(path)
        if name.split(".")[0] in ("PySide6", "PyQt5", "PyQt6", "shiboken6") or name.startswith("scorekeeper.ui")
    ]
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad} when loaded"


def test_the_qt_pdf_writer_is_loaded_only_when_a_pdf_is_asked_for() -> None:
    assert "PySide6.QtGui" in module_level_imports(QT_PDF_WRITER)
    loaders = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "scorekeeper.export.pdf" in module_level_imports(path)
    ]
    assert loaders == []
    users = [path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if "scorekeeper.export.pdf" in imported_modules(path)]
    assert users == ["export/write.py"]


def test_the_qt_race_painter_is_loaded_only_by_the_pdf_writer_and_the_window() -> None:
    assert "PySide6.QtGui" in module_level_imports(QT_RACE_PAINTER)
    users = sorted(
        path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if "scorekeeper.export.race_painter" in imported_modules(path)
    )
    assert users == ["export/pdf.py", "ui/race_view.py"]


def test_the_command_line_starts_without_qt() -> None:
    code = "import sys, scorekeeper.cli, scorekeeper.export, scorekeeper.export.write; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_the_import_check_sees_through_functions(tmp_path: Path) -> None:
    lazy = tmp_path / "lazy.py"
    lazy.write_text("import os\ndef f():\n    from PySide6.QtGui import QImage\nif os:\n    import PySide6\n")
    assert module_level_imports(lazy) == ["os", "PySide6"]


QT = ("PySide6",)
NUMBERS = ("numpy",)
PICTURES = ("cv2", "numpy")
FILES = ("safe_input", "safe_output")

ALLOWED: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "safe_input": ((), ()),
    "safe_output": ((), ()),
    "safe_npz": (("safe_input",), NUMBERS),
    "settings": (FILES, ()),
    "terminal": ((), ()),
    "errors": ((), ()),
    "rules": (("errors", "safe_input"), ()),
    "game": (("rules",) + FILES, ()),
    "coach": (("errors", "game", "rules", "safe_npz", "safe_output"), NUMBERS),
    "stats": (("coach", "errors", "game", "rules") + FILES, ()),
    "scoreboard": (("errors", "game", "rules"), ()),
    "export": (("errors", "game", "rules", "scoreboard", "stats") + FILES, QT),
    "serve": (("errors", "game", "rules", "scoreboard"), ("aiohttp", "segno")),
    "vision": (("rules", "safe_npz") + FILES, PICTURES + ("onnxruntime",)),
    "synthetic": (("vision",), PICTURES),
    "evaluation": (("synthetic", "vision") + FILES, PICTURES),
    "training": (("errors", "evaluation", "synthetic", "vision") + FILES, PICTURES + ("onnx", "onnxruntime", "torch")),
    "camera": (("synthetic", "vision") + FILES, PICTURES),
    "table_session": (("camera", "coach", "errors", "game", "rules", "vision") + FILES, PICTURES),
    "ui": (
        ("camera", "coach", "errors", "export", "game", "rules", "scoreboard", "serve", "settings", "stats", "table_session", "vision") + FILES,
        QT + NUMBERS,
    ),
    "cli": (
        (
            "scorekeeper", "camera", "coach", "errors", "evaluation", "export", "game", "rules", "serve", "stats", "synthetic",
            "table_session", "terminal", "training", "ui", "vision",
        )
        + FILES,
        PICTURES,
    ),
    "testbed": (("camera", "evaluation", "game", "rules", "synthetic", "table_session", "vision") + FILES, PICTURES),
    "__main__": (("cli",), ()),
    "scorekeeper": ((), ()),
}
"""Each package (and each module beside the packages) of scorekeeper/: the program's own packages it may
import, then the libraries beyond the standard library, anywhere in it (inside a function too).
Data flows one way: frames -> reader (vision) -> camera (roll-taking) -> table session -> views
(ui, and serve, the phones' scoreboard without Qt), the game (rules -> game) under all of them and
the command line over everything. The runtime reader imports no renderer, evaluation or training
code; the renderer (the demo table draws with it) and the evaluation tooling import no training
code; the tests' and benchmarks' tables (testbed) import no views or training code; the file helpers and the root of the errors lean on nothing. ``scorekeeper`` is the package itself (its version)."""


def package_of(module: str) -> str:
    """The key of :data:`ALLOWED` that ``module`` (a dotted name of the program's) belongs to."""
    parts = module.split(".")
    if len(parts) > 1 and ((PACKAGE / parts[1]).is_dir() or (PACKAGE / f"{parts[1]}.py").is_file()):
        return parts[1]
    return "scorekeeper"


def module_name(path: Path) -> str:
    """The dotted name of the file ``path`` under scorekeeper/."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def every_import(path: Path, module: str) -> list[str]:
    """Every module ``path`` (the module ``module``) imports, anywhere in it, relative imports made
    absolute; ``from X import Y`` names ``X.Y``, which is either the module Y or a name in X."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            source = (node.module or "") if node.level == 0 else ".".join(filter(None, (base, node.module)))
            names.extend(f"{source}.{alias.name}" for alias in node.names)
    return names


def forbidden_imports(path: Path, module: str) -> list[str]:
    """The imports of ``path`` (the module ``module``) that :data:`ALLOWED` does not allow its package."""
    own = package_of(module)
    packages, libraries = ALLOWED[own]
    bad = []
    for name in every_import(path, module):
        top = name.split(".")[0]
        if top == "scorekeeper":
            if package_of(name) not in (own, *packages):
                bad.append(name)
        elif top not in sys.stdlib_module_names and top != "__future__" and top not in libraries:
            bad.append(name)
    return bad


def test_every_package_has_its_allowed_imports_listed() -> None:
    present = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir() if path.suffix == ".py" or (path / "__init__.py").is_file()}
    assert set(ALLOWED) == (present - {"__init__"}) | {"scorekeeper"}


def test_the_allowed_imports_go_one_way() -> None:
    reach = {package: set(allowed) for package, (allowed, _) in ALLOWED.items()}
    for _ in reach:
        for package, reached in reach.items():
            reached.update(*(reach[other] for other in list(reached)))
    assert [package for package, reached in reach.items() if package in reached] == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_each_package_imports_only_what_it_is_allowed(path: Path) -> None:
    bad = forbidden_imports(path, module_name(path))
    assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}, which {package_of(module_name(path))} may not"


def test_the_layering_check_catches_an_upward_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "import os\nimport numpy\nfrom scorekeeper.rules import load_rules\n"
        "def f():\n    from scorekeeper.stats.history import remember_game\n    from ..ui import race_view\n"
    )
    assert forbidden_imports(sneaky, "scorekeeper.game.sneaky") == ["numpy", "scorekeeper.stats.history.remember_game", "scorekeeper.ui.race_view"]
    assert forbidden_imports(sneaky, "scorekeeper.cli.sneaky") == []


def import_graph(root: Path) -> dict[str, set[str]]:
    """Which of the modules of the package at ``root`` each imports (anywhere, even inside a function
    or for type checking only): ``from X import Y`` reaches the module X.Y where there is one, else X."""
    files = {".".join(path.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__"): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        graph[module] = set()
        for name in every_import(path, module):
            parent = name.rpartition(".")[0]
            reached = name if name in files else parent if parent in files else None
            if reached is not None and reached != module:
                graph[module].add(reached)
    return graph


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports in ``graph`` (its modules in order, the first again at the end); empty if none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return path[path.index(module):] + [module]
        if module in done:
            return []
        path.append(module)
        for reached in sorted(graph[module]):
            if found := visit(reached):
                return found
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        if found := visit(module):
            return found
    return []


def test_no_modules_import_each_other_in_a_circle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 150 and "scorekeeper.camera.frames" in graph["scorekeeper.camera.demo_table"]
    assert a_cycle(graph) == []


def test_the_circle_check_finds_a_circle(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.b import thing\n")
    (package / "b.py").write_text("thing = 1\ndef f():\n    from . import c\n")
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.a\n")
    graph = import_graph(package)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}}
    assert a_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    (package / "c.py").write_text("import pkg\n")
    assert a_cycle(import_graph(package)) == []


def test_the_layered_packages_are_there() -> None:
    assert {"session.py", "tap_pictures.py", "camera_game.py"} <= {path.name for path in (PACKAGE / "table_session").glob("*.py")}
    assert (PACKAGE / "game" / "controller.py").is_file(), "the game controller is plain Python, under game/"
    assert {path.name for path in (PACKAGE / "synthetic").glob("*.py")} == {
        "__init__.py", "scene.py", "layout.py", "table.py", "die.py", "hand.py", "light.py", "camera_effects.py", "perspective.py", "canvas.py", "render.py"
    }, "synthetic/ keeps one module per thing drawn, and render.py the picture and its labels"
    assert {"dataset.py", "assessment.py", "score.py", "samples.py", "classical.py"} <= {path.name for path in (PACKAGE / "evaluation").glob("*.py")}
    assert {path.name for path in (PACKAGE / "vision").glob("*.py")} == {
        "__init__.py", "detections.py", "reader.py", "processing.py", "images.py", "corrections.py", "table_head.py", "table_memory.py", "die_colours.py"
    }, "vision/ keeps what reads a frame (the players' corrections kept for training, what a table taught the reader, and the die colours it taught)"


FILE_HELPERS = ("safe_input.py", "safe_output.py")
"""Reading and writing users' files within bounds and whole: every package leans on them, so they
lean on nothing of the program's and nothing beyond the standard library."""


@pytest.mark.parametrize("name", FILE_HELPERS)
def test_the_file_helpers_import_only_the_standard_library(name: str) -> None:
    imported = imported_modules(PACKAGE / name)
    assert imported, f"{name} is there and imports something"
    bad = [module for module in imported if module.split(".")[0] not in sys.stdlib_module_names]
    assert not bad, f"{name} imports {bad}"


BENCHMARKS = PACKAGE.parent / "benchmarks"


def test_the_benchmarks_and_the_program_import_nothing_from_the_tests() -> None:
    bad = [
        f"{path.relative_to(PACKAGE.parent)} imports {name}"
        for path in sorted([*BENCHMARKS.glob("*.py"), *PACKAGE.rglob("*.py")])
        for name in imported_modules(path)
        if name == "tests" or name.startswith("tests.") or name == "conftest"
    ]
    assert len(list(BENCHMARKS.glob("*.py"))) >= 10
    assert not bad


def test_the_program_itself_imports_no_testbed() -> None:
    users = [
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).parts[0] != "testbed" and any(name.startswith("scorekeeper.testbed") for name in imported_modules(path))
    ]
    assert users == []
