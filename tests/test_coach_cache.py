"""The coach's disk cache, its command, and advice read off a game."""

from __future__ import annotations

import dataclasses
import json
import logging
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.coach import CACHE_ENV, CoachError, Goal, Policy, Situation, advise_state, cache_dir, policy_for, rules_key
from scorekeeper.coach import cache as coach_cache
from scorekeeper.game import Game
from scorekeeper.rules import load_rules


@pytest.fixture(autouse=True)
def cache_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    coach_cache.forget_solved()
    yield folder
    coach_cache.forget_solved()


def no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(rules: object) -> Policy:
        raise AssertionError("solved again instead of reading the cache")

    monkeypatch.setattr(Policy, "solve", refuse)


def test_the_cache_folder_follows_the_environment(cache_in_tmp: Path) -> None:
    assert cache_dir() == cache_in_tmp


def test_a_policy_is_solved_once_then_read_from_disk(cache_in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules("house-2009")
    first = policy_for(rules)
    files = list(cache_in_tmp.glob("*.npz"))
    assert len(files) == 1 and rules_key(rules) in files[0].name
    coach_cache.forget_solved()
    no_solving(monkeypatch)
    again = policy_for(rules)
    assert again is not first
    for on_board in (True, False):
        assert again.expected_points_per_turn(on_board) == first.expected_points_per_turn(on_board)
        assert [again.bank_threshold(n, on_board) for n in range(1, 7)] == [
            first.bank_threshold(n, on_board) for n in range(1, 7)
        ]
    # The win table grows past what was cached, from the rolls rebuilt on demand.
    assert 0 < again.win_chance(0, 6, 30_000) < first.win_chance(0, 6, 20_000)


def test_the_key_is_the_rules_content_not_their_name() -> None:
    retail = load_rules("retail")
    renamed = load_rules("retail", overrides={"title": "Our table"})
    assert rules_key(renamed) == rules_key(retail)
    assert rules_key(load_rules("retail+straight-2500")) != rules_key(retail)
    assert rules_key(load_rules("retail", overrides={"end": {"target": 5000}})) != rules_key(retail)


@pytest.mark.parametrize("damage", [b"", b"not a zip file", b"PK\x03\x04 torn"])
def test_a_damaged_cache_file_is_solved_again_and_rewritten(
    cache_in_tmp: Path, damage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    rules = load_rules("retail")
    expected = policy_for(rules).expected_points_per_turn()
    path = next(cache_in_tmp.glob("*.npz"))
    path.write_bytes(damage)
    coach_cache.forget_solved()
    with caplog.at_level(logging.WARNING):
        assert policy_for(rules).expected_points_per_turn() == expected
    assert path.stat().st_size > 1000
    if damage:
        assert "damaged" in caplog.text


def test_a_cache_file_of_other_rules_is_not_used(cache_in_tmp: Path) -> None:
    retail, pocket = load_rules("retail"), load_rules("pocket")
    policy_for(retail)
    policy_for(pocket)
    coach_cache.forget_solved()
    retail_file = cache_in_tmp / f"policy-{rules_key(retail)}.npz"
    (cache_in_tmp / f"policy-{rules_key(pocket)}.npz").replace(retail_file)
    assert policy_for(retail).expected_points_per_turn() == pytest.approx(Policy.solve(retail).expected_points_per_turn())


def test_an_unwritable_cache_only_costs_the_solve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("in the way")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    assert policy_for(load_rules("pocket")).bank_threshold(2) > 0


def test_the_card_edition_gets_a_clear_refusal() -> None:
    with pytest.raises(CoachError, match="card edition"):
        policy_for(load_rules("flip"))


def test_a_policy_left_in_the_cache_for_rules_the_coach_cannot_advise_is_never_used(cache_in_tmp: Path) -> None:
    spicy = load_rules("pocket+spicy")
    plain = Policy.solve(load_rules("pocket"))
    coach_cache._write(coach_cache._path(rules_key(spicy)), dataclasses.replace(plain, rules=spicy), rules_key(spicy))
    assert list(cache_in_tmp.glob("*.npz")), "the stale policy is on disk"
    with pytest.raises(CoachError, match="spicy"):
        policy_for(spicy)


# The command


def test_coach_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "retail", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == [
        "rules",
        "expected_points_per_turn",
        "entry_minimum",
        "expected_points_per_turn_off_the_board",
        "farkle_penalty",
        "farkles_before_the_penalty",
        "expected_points_per_turn_before_the_penalty",
        "each_farkle_penalty",
        "bank_at",
        "farkle_chance",
        "not_counted",
        "cannot_advise",
    ]
    assert result["rules"] == "retail" and result["cannot_advise"] is None
    assert list(result["bank_at"]) == list(result["farkle_chance"]) == ["1", "2", "3", "4", "5", "6"]
    assert result["farkle_chance"]["6"] == 0.02315 and result["farkle_chance"]["1"] == 0.66667
    assert all(value % 50 == 0 and value > 0 for value in result["bank_at"].values())
    policy = policy_for(load_rules("retail"))
    assert result["expected_points_per_turn"] == pytest.approx(policy.expected_points_per_turn(), abs=0.01)
    assert result["bank_at"]["3"] == policy.bank_threshold(3)
    assert result["entry_minimum"] == 0 and result["expected_points_per_turn_off_the_board"] is None
    assert result["each_farkle_penalty"] == 0 and result["not_counted"] == []


def test_the_coach_counts_a_penalty_for_each_farkle_and_says_what_it_leaves_out(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # issue 54: a Farkle penalty changes the value of risking; the coach's sums take it off
    assert main(["coach", "--farkle-penalty", "-500", "--json"]) == 0
    penalty = json.loads(capsys.readouterr().out)
    assert main(["coach", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert penalty["rules"] == "retail+farkle-penalty-500" and penalty["each_farkle_penalty"] == 500
    assert penalty["expected_points_per_turn"] < plain["expected_points_per_turn"]
    assert all(penalty["bank_at"][n] <= plain["bank_at"][n] for n in plain["bank_at"])
    assert penalty["bank_at"]["3"] < plain["bank_at"]["3"] and penalty["not_counted"] == []
    # the three-Farkle streak's penalty weighs on later turns, which the turn's sums leave out: said plainly
    assert main(["coach", "--rules", "retail+farkle-penalty-500+three-farkle-penalty"]) == 0
    text = capsys.readouterr().out
    assert "(on the board, no Farkle streak, with 500 off the score for each Farkle)" in text
    assert "After 2 Farkles in a row (the next costs 1,500)" in text
    assert (
        "Not counted: The 1,000 for 3 Farkles in a row is counted only in the turn it falls due: "
        "the advice does not weigh that a Farkle before then brings it nearer."
    ) in text


def test_coach_json_has_every_figure_of_the_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "retail+entry-500+three-farkle-penalty"]) == 0
    text = capsys.readouterr().out
    assert main(["coach", "--rules", "retail+entry-500+three-farkle-penalty", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["entry_minimum"] == 500 and result["farkles_before_the_penalty"] == 2
    # Each figure the text prints is in the JSON too.
    for key in ("expected_points_per_turn_off_the_board", "expected_points_per_turn_before_the_penalty"):
        assert f"{result[key]:,.1f} a turn" in text


def test_coach_prints_thresholds_for_every_number_of_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "house-2009"]) == 0
    out = capsys.readouterr().out
    assert "points on average" in out and "Before getting on the board (1,000 in one turn)" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    assert rows[5][2] == "2.31%"


def test_coach_variants_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "retail", "--variant", "three-farkle-penalty", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "retail+three-farkle-penalty"
    # the card edition is answered plainly, as spicy is: no advice, and why
    assert main(["coach", "--rules", "flip"]) == 0
    assert capsys.readouterr().out.startswith("No advice under flip. The coach has no advice for the card edition (flip)")
    assert main(["coach", "--rules", "retial"]) == 2
    assert "'retial'" in capsys.readouterr().err


# Advice read off a game


def test_situation_of_a_game_in_play() -> None:
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    game.roll("1 5 2 3 4 6")
    situation = Situation.of(game.state)
    assert situation == Situation(total=0, dice=6, roll=situation.roll, on_board=False, streak=0, score=0, need=None)
    advice = advise_state(policy_for(load_rules("house-2009")), game.state)
    assert advice is not None and advice.goal is Goal.POINTS and advice.best_keep is not None
    # Advice for other rules than the policy's is not given.
    assert advise_state(policy_for(load_rules("retail")), game.state) is None


def test_the_advice_in_a_game_weighs_the_penalty_the_score_can_pay() -> None:
    rules = load_rules("retail+farkle-penalty-500")
    game = Game.new(rules, ["Ann", "Bob"])
    game.enter_points(200, "a small turn")
    game.bank()  # Ann 200
    game.enter_points(5000, "a big turn")
    game.bank()  # Bob 5,000
    game.roll("5 2 3 4 6 6")
    ann, situation = advise_state(policy_for(rules), game.state), Situation.of(game.state)
    assert ann is not None and situation is not None and situation.score == 200
    assert ann.farkle_cost == 200  # never below zero: a Farkle takes her 200, not 500
    game.keep("5")
    game.roll("2 2 3 3 4")
    game.farkle()
    game.roll("5 2 3 4 6 6")
    bob = advise_state(policy_for(rules), game.state)
    assert bob is not None and bob.farkle_cost == 500
    assert "(and costs 500 off the score)" in str(bob)


def test_no_advice_on_a_roll_with_dice_missing() -> None:
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    game.roll("3")  # 1 of the 6 dice read: not scored, so no "Farkle: the turn is lost" either
    assert Situation.of(game.state) is None and advise_state(policy_for(load_rules("house-2009")), game.state) is None
    for face in (1, 2, 4, 6, 6):
        game.correct(None, face)
    advice = advise_state(policy_for(load_rules("house-2009")), game.state)
    assert advice is not None and not advice.farkled and advice.best_keep is not None


def test_the_last_lap_switches_the_goal() -> None:
    rules = load_rules("retail")
    game = Game.new(rules, ["Ann", "Bob"])
    game.enter_points(10_000, "a big turn")
    game.bank()
    assert game.state.final_lap
    situation = Situation.of(game.state)
    assert situation is not None and situation.need == 10_050
    advice = advise_state(policy_for(rules), game.state)
    assert advice is not None and advice.goal is Goal.FINISH_ABOVE_LEADER
    assert str(advice).startswith("Last lap: 10,050 this turn finishes above the leader")


def test_no_advice_once_the_game_is_over() -> None:
    rules = load_rules("house-2009")
    game = Game.new(rules, ["Ann"])
    game.roll("3 3 3 3 3 3")
    game.keep("3 3 3 3 3 3")
    assert game.state.over and Situation.of(game.state) is None


def test_coach_and_stats_import_without_qt() -> None:
    import subprocess
    import sys

    code = "import sys, scorekeeper.coach, scorekeeper.stats; sys.exit('PySide6' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
