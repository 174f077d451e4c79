"""The coach's hint line and the statistics panel, driven as the window drives them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from scorekeeper.coach import CACHE_ENV, Goal
from scorekeeper.coach import cache as coach_cache
from scorekeeper.game import Event, Game, GameState, save_game
from scorekeeper.rules import Dice, load_rules, score_roll
from scorekeeper.ui.coach_hint import CoachHint
from scorekeeper.ui.stats_panel import StatsPanel


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    coach_cache.forget_solved()


class Source(QObject):
    """What the window's controller offers the two views: a game, and a signal when it moves on."""

    changed = Signal()

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def events(self) -> tuple[Event, ...]:
        return self.game.events

    def act(self, step: str, *args: object) -> None:
        getattr(self.game, step)(*args)
        self.changed.emit()


def test_the_hint_follows_the_turn_and_names_the_best_keep(qtbot: QtBot) -> None:
    source = Source(Game.new(load_rules("retail"), ["Ann", "Bob"]))
    hint = CoachHint(source)
    qtbot.addWidget(hint)
    assert hint.hint_text().startswith("Roll 6 dice: best play banks 602 a turn")
    with qtbot.waitSignal(hint.best_keep_changed) as emitted:
        source.act("roll", "1 1 5 2 3 4")
    assert emitted.args is not None and str(emitted.args[0].keep) == "1"
    assert hint.best_keep() is not None and hint.best_keep() == emitted.args[0]
    assert hint.hint_text() == (
        "Keep 1 for 100, then roll: rolling 5 dice farkles 7.7% of the time; expected +304 if you roll"
    )
    assert hint.goal.text() == "Coach (most points):"
    source.act("keep", "1 1 5")
    source.act("roll", "1 2 3")
    assert hint.hint_text().startswith("Keep 1 for 100, then bank: rolling 2 dice farkles 44.4%")
    source.act("keep", "1")
    assert hint.best_keep() is None and hint.hint_text().startswith("Bank now: rolling 2 dice farkles 44.4%")


def test_the_hint_can_be_switched_off(qtbot: QtBot) -> None:
    source = Source(Game.new(load_rules("retail"), ["Ann"]))
    hint = CoachHint(source)
    qtbot.addWidget(hint)
    source.act("roll", "1 1 5 2 3 4")
    with qtbot.waitSignals([hint.best_keep_changed, hint.coaching_toggled]):
        hint.switch.click()
    assert not hint.coaching() and hint.best_keep() is None and hint.advice() is None
    assert hint.hint_text() == "" and hint.text.isHidden()
    source.act("keep", "1")
    assert hint.hint_text() == ""
    hint.set_coaching(True)
    assert hint.hint_text().startswith("Roll again: rolling 5 dice farkles 7.7% of the time; expected +")


def test_the_last_lap_hint_says_it_plays_to_finish_above_the_leader(qtbot: QtBot) -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.enter_points(10_000)
    game.bank()
    hint = CoachHint()
    qtbot.addWidget(hint)
    game.roll("1 5 2 3 4 6")
    hint.show_state(game.state)
    advice = hint.advice()
    assert advice is not None and advice.goal is Goal.FINISH_ABOVE_LEADER
    assert hint.goal.text() == "Coach (last lap, to finish above the leader):"
    assert "finishes above the leader" in hint.hint_text()


def test_the_card_edition_gets_no_advice(qtbot: QtBot) -> None:
    hint = CoachHint()
    qtbot.addWidget(hint)
    hint.show_state(Game.new(load_rules("flip"), ["Ann"]).state)
    assert hint.advice() is None and "card edition" in hint.hint_text()
    hint.show_state(None)
    assert hint.hint_text() == ""


def loaded_game(turns: int, seed: int) -> Game:
    """Ann rolls six dice a turn with a six at double weight; Bob with fair dice."""
    rng = random.Random(seed)
    game = Game.new(load_rules("retail", overrides={"end": {"target": 1_000_000}}), ["Ann", "Bob"])
    for turn in range(turns):
        weights = [1, 1, 1, 1, 1, 2] if turn % 2 == 0 else [1] * 6
        roll = Dice(rng.choices(range(1, 7), weights=weights, k=6))
        game.roll(roll, source="camera")
        best = score_roll(game.state.rules, roll).best
        if best is None:
            game.farkle()
        else:
            game.keep(best.keep)
            game.bank()
    return game


def test_stats_panel_shows_players_and_face_counts(qtbot: QtBot) -> None:
    game = loaded_game(200, seed=5)
    panel = StatsPanel()
    qtbot.addWidget(panel)
    panel.show_events(game.events)
    model = panel.model
    assert model.rowCount() == 2 and model.columnCount() == 8
    assert [model.index(row, 0).data() for row in range(2)] == ["Ann", "Bob"]
    assert model.index(0, 1).data() == "100"  # Ann's turns
    assert model.headerData(7, Qt.Orientation.Horizontal) == "Left"
    assert model.headerData(7, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith("Left on the table: The points the coach expected")
    assert sum(panel.game_chart.counts()) == 1200
    result = panel.game_fairness()
    assert result.suspicious() and "uneven" in panel.game_result.text()
    assert "Counted: 1200 dice" in panel.game_result.text()
    assert "Banked per turn: all points banked divided by every turn played" in panel.explained.text()


def test_the_chart_draws_each_face(qtbot: QtBot) -> None:
    panel = StatsPanel()
    qtbot.addWidget(panel)
    panel.show_events(loaded_game(200, seed=5).events)
    chart = panel.game_chart
    chart.resize(300, 200)
    image = chart.grab().toImage()
    # Each face's bar is drawn in red (the faces are uneven) from the baseline up, tallest for the six.
    bottom = chart.height() - chart.fontMetrics().height() - 6
    slot = chart.width() / 6
    heights = []
    for face in range(6):
        x = int(face * slot + slot / 2)
        # Red pixels in the bar's column (the dashed line of fair dice may cross the bar).
        height = sum(image.pixelColor(x, y) == QColor("#c0392b") for y in range(bottom + 1))
        heights.append(height)
    assert all(height > 20 for height in heights)
    assert heights[5] == max(heights)


def test_stats_panel_follows_its_source_only_while_shown(qtbot: QtBot) -> None:
    source = Source(Game.new(load_rules("retail"), ["Ann"]))
    panel = StatsPanel(source)
    qtbot.addWidget(panel)
    source.act("roll", "1 1 5 2 3 4")
    source.act("keep", "1 1 5")
    source.act("bank")
    assert panel.model.rowCount() == 0  # hidden: nothing worked out yet
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.model.index(0, 5).data() == "250"
    source.act("roll", "2 2 3 4 6 6")
    source.act("farkle")
    assert panel.model.index(0, 2).data() == "1"


def test_stats_panel_adds_up_saved_games(qtbot: QtBot, tmp_path: Path) -> None:
    paths = []
    for seed in range(2):
        path = tmp_path / f"game{seed}.json"
        save_game(loaded_game(60, seed), path)
        paths.append(path)
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    panel = StatsPanel()
    qtbot.addWidget(panel)
    result = panel.set_saved_games([*paths, broken])
    assert result.dice == 2 * 360
    assert panel.saved_chart.counts() == result.counts
    assert panel.saved_result.text().startswith("2 saved games:") and "broken.json" in panel.saved_result.text()
