"""The README says what the program is: its commands table names every command of the command line
and every option each takes; its install names the Qt the program depends on."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

from scorekeeper.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent


def commands_table() -> list[tuple[str, str]]:
    """The README's commands table: (command cell, description) per row."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Commands\n") + 1 :]
    rows: list[tuple[str, str]] = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        if line.startswith("| `scorekeeper"):
            cells = re.split(r"(?<!\\)\|", line)
            rows.append((cells[1].strip(), cells[2].strip()))
    return rows


def options_of(parser: argparse.ArgumentParser) -> list[list[str]]:
    """Each option a parser takes, as its spellings (``-o``, ``--output``); help left out."""
    return [action.option_strings for action in parser._actions if action.option_strings and not isinstance(action, argparse._HelpAction)]


def commands_of(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, argparse.ArgumentParser]:
    """Every command under ``parser`` (``rules show`` as well as ``rules``), by its words."""
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                words = f"{prefix}{name}"
                found[words] = command
                found.update(commands_of(command, words + " "))
    return found


def named(option: list[str], rows: list[tuple[str, str]]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(spelling)}(?![\w-])", cell) for spelling in option for row in rows for cell in row)


def test_the_commands_table_names_every_command_and_every_option() -> None:
    table = commands_table()
    parser = build_parser()
    missing: list[str] = []
    window_rows = [row for row in table if re.match(r"`scorekeeper (\[window\]|window)(?![\w-])", row[0])]
    if not window_rows:
        missing.append("the window (scorekeeper [window] ...)")
    missing += [f"scorekeeper {option[-1]}" for option in options_of(parser) if not named(option, window_rows + [row for row in table if "--version" in row[0]])]
    for words, command in commands_of(parser).items():
        rows = [row for row in table if re.match(rf"`scorekeeper (\[{words}\]|{words})(?![\w-])", row[0])]
        if words == "window":
            rows = window_rows
        if not rows:
            missing.append(f"scorekeeper {words}")
            continue
        missing += [f"scorekeeper {words} {option[-1]}" for option in options_of(command) if not named(option, rows)]
    assert not missing, f"the README's commands table leaves out {missing}"


def test_the_program_depends_on_the_essential_qt_modules_and_the_tests_bring_the_add_ons() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {re.split(r"[<>=!~\[ ]", requirement)[0].lower(): requirement for requirement in project["dependencies"]}
    assert "pyside6" not in names, "the whole PySide6 (every add-on, 650 MB) is not needed to run"
    essentials = names["pyside6-essentials"]
    tests = {re.split(r"[<>=!~\[ ]", requirement)[0].lower(): requirement for requirement in project["optional-dependencies"]["test"]}
    add_ons = tests["pyside6-addons"]
    assert add_ons.split("PySide6-Addons")[1] == essentials.split("PySide6-Essentials")[1], "the same Qt versions"


def test_the_program_imports_only_the_essential_qt_modules() -> None:
    essential = {"QtCore", "QtGui", "QtWidgets"}
    imported = {
        module
        for path in (ROOT / "scorekeeper").rglob("*.py")
        for module in re.findall(r"PySide6\.(Qt\w+)", path.read_text(encoding="utf-8"))
    }
    assert imported and imported <= essential, f"{sorted(imported - essential)} would need PySide6-Addons at run time"


def package_folders() -> set[str]:
    """The program's packages: each folder of scorekeeper/ that holds an ``__init__.py``."""
    return {path.parent.name for path in (ROOT / "scorekeeper").glob("*/__init__.py")}


def test_the_layout_table_names_every_package_folder_and_no_other() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Layout\n") :]
    named_folders = set(re.findall(r"^\| `scorekeeper/(\w+)/` \|", section, flags=re.MULTILINE))
    assert len(package_folders()) >= 15
    assert named_folders == package_folders()


def test_the_top_docstring_names_every_package() -> None:
    import scorekeeper

    named_packages = set(re.findall(r"``(\w+)``", scorekeeper.__doc__ or ""))
    assert package_folders() <= named_packages, sorted(package_folders() - named_packages)
