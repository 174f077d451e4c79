"""Each error belongs to the package that raises it: the rules' FarkleError is the base of the rules'
and the game's errors alone, and every error of the program derives from ScorekeeperError."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.coach import CoachError
from scorekeeper.errors import ScorekeeperError, UsageError
from scorekeeper.export import ExportError
from scorekeeper.game.journal_error import JournalError
from scorekeeper.rules import FarkleError, IllegalRoll
from scorekeeper.scoreboard.race import RaceError
from scorekeeper.serve import ServeError
from scorekeeper.serve.connections import ConnectionLimits, ConnectionLimitsError
from scorekeeper.stats.history import HistoryError
from scorekeeper.table_session.camera_game import DecisionsError

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


@pytest.mark.parametrize("error", [ServeError, ConnectionLimitsError, ExportError, HistoryError, CoachError, DecisionsError, RaceError, UsageError])
def test_the_errors_above_the_game_are_the_programs_not_the_rules(error: type[Exception]) -> None:
    assert issubclass(error, ScorekeeperError) and issubclass(error, ValueError)
    assert not issubclass(error, FarkleError)


def test_the_rules_and_the_games_errors_are_the_programs_too() -> None:
    assert issubclass(FarkleError, ScorekeeperError)
    assert issubclass(IllegalRoll, FarkleError) and issubclass(JournalError, FarkleError)


def test_only_the_rules_and_the_game_derive_errors_from_farkle_error() -> None:
    derived = sorted(
        path.relative_to(PACKAGE).parts[0]
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and any(isinstance(base, ast.Name) and base.id == "FarkleError" for base in node.bases)
    )
    assert set(derived) == {"game", "rules"}


def test_the_command_line_still_reports_an_error_of_the_phones_scoreboard(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(ConnectionLimitsError, match="at least 1 each"):
        ConnectionLimits(total=0)
    assert main(["serve", str(tmp_path / "missing.jsonl")]) == 2
    said = capsys.readouterr().err
    assert said.startswith("scorekeeper serve: ") and "missing.jsonl" in said


def test_only_the_rules_and_the_game_raise_farkle_error() -> None:
    raised = sorted(
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Raise)
        and isinstance(node.exc, ast.Call)
        and isinstance(node.exc.func, ast.Name)
        and node.exc.func.id == "FarkleError"
    )
    assert raised and {Path(name).parts[0] for name in raised} <= {"game", "rules"}, raised


def test_a_command_given_options_it_cannot_use_says_why_in_its_own_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 2
    said = capsys.readouterr().err
    assert said.startswith("scorekeeper score: no dice given")
