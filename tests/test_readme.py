"""The README and the pages of docs/ say what the program is: the commands page names every command of
the command line and every option each takes, the architecture page every package; every relative link
and picture leads to a file that is there; the install names the Qt the program depends on."""

from __future__ import annotations

import argparse
import re
import tomllib
from pathlib import Path

from scorekeeper.cli import build_parser
from scorekeeper.cli.qt_platform import DEBIAN_PACKAGES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The README and every page of docs/."""
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


def commands_table() -> list[tuple[str, str]]:
    """The commands page, as (synopsis, the rest of its section) per synopsis: each section's code
    blocks hold its synopses, a line starting ``scorekeeper`` and its indented continuation lines."""
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    rows: list[tuple[str, str]] = []
    for section in re.split(r"^## ", text, flags=re.MULTILINE)[1:]:
        synopses: list[str] = []
        rest: list[str] = []
        in_code = continued = False
        for line in section.splitlines():
            if in_code and line.startswith("scorekeeper"):
                synopses.append(line.strip())
            elif in_code and continued and line.startswith(" ") and line.strip():
                synopses[-1] += " " + line.strip()
            else:
                in_code ^= line.startswith("```")
                rest.append(line)
                continued = False
                continue
            continued = True
        rows += [(synopsis, "\n".join(rest)) for synopsis in synopses]
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
    window_rows = [row for row in table if re.match(r"scorekeeper (\[window\]|window)(?![\w-])", row[0])]
    if not window_rows:
        missing.append("the window (scorekeeper [window] ...)")
    missing += [f"scorekeeper {option[-1]}" for option in options_of(parser) if not named(option, window_rows + [row for row in table if "--version" in row[0]])]
    for words, command in commands_of(parser).items():
        rows = [row for row in table if re.match(rf"scorekeeper (\[{words}\]|{words})(?![\w-])", row[0])]
        if words == "window":
            rows = window_rows
        if not rows:
            missing.append(f"scorekeeper {words}")
            continue
        missing += [f"scorekeeper {words} {option[-1]}" for option in options_of(command) if not named(option, rows)]
    assert not missing, f"docs/commands.md leaves out {missing}"


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


def test_the_layout_names_every_package_folder_and_no_other() -> None:
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Layout\n") :]
    section = section[: section.index("\n## ", 1)]
    named_folders = set(re.findall(r"^- `scorekeeper/(\w+)/`: ", section, flags=re.MULTILINE))
    assert len(package_folders()) >= 15
    assert named_folders == package_folders()


def test_the_top_docstring_names_every_package() -> None:
    import scorekeeper

    named_packages = set(re.findall(r"``(\w+)``", scorekeeper.__doc__ or ""))
    assert package_folders() <= named_packages, sorted(package_folders() - named_packages)


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def links(page: Path) -> list[str]:
    """The targets of a page's markdown links and pictures, code spans and blocks left out."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them: lower case, punctuation but ``-`` and
    ``_`` dropped, each space a ``-``."""
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_relative_link_and_picture_of_the_readme_and_the_docs_leads_to_a_file_that_is_there() -> None:
    broken: list[str] = []
    checked = 0
    for page in pages():
        for target in links(page):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            checked += 1
            if not linked.is_file():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert checked >= 50
    assert not broken, broken


def test_every_picture_in_docs_is_shown_on_a_page() -> None:
    shown = {(page.parent / target).resolve() for page in pages() for target in links(page)}
    pictures = sorted(DOCS.glob("*.png"))
    assert len(pictures) >= 29
    assert [str(p.relative_to(ROOT)) for p in pictures if p.resolve() not in shown] == []


def test_the_readme_is_a_front_door() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "docs/screenshot.png" in text
    for page in sorted(DOCS.glob("*.md")):
        assert f"(docs/{page.name})" in text, f"the README links no {page.name}"


def install_lines(page: Path) -> list[str]:
    """The packages of a page's first ``apt-get install`` of the window's libraries."""
    text = page.read_text(encoding="utf-8").replace("\\\n", " ")
    line = next(line for line in text.splitlines() if "apt-get install python3-venv" in line)
    return line.split("apt-get install", 1)[1].split()


def test_the_system_packages_the_readme_installs_are_the_window_s_and_the_install_page_s() -> None:
    readme = install_lines(ROOT / "README.md")
    assert readme == install_lines(DOCS / "install.md")
    assert readme[0] == "python3-venv"
    assert set(readme[1:]) <= set(DEBIAN_PACKAGES.values()), "the start-up check names the same packages"
    for needed in ("libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0", "libxkbcommon-x11-0", "libegl1"):
        assert needed in readme


def test_the_readme_s_test_command_is_the_one_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest"
    assert command in readme and command in ci
