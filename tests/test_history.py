"""Every game remembered: the history of a home's games worked out by hand (tests/history_games.py
says what each game holds), merged names, unfinished games apart, damaged ones skipped with a note,
and the ``history`` command with its filters and JSON."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main
from scorekeeper.game.games_folder import games_folder
from scorekeeper.stats.history import (
    CACHE_FILE,
    MERGES_FILE,
    HistoryError,
    PlayerRecord,
    Record,
    history_of,
    load_merges,
    merge_players,
    read_games,
    unmerge_player,
)
from tests.history_games import journal_game, make_home, play_g5

G1_DAY = "2026-11-01T20:00:00+00:00"


@pytest.fixture
def home() -> Path:
    folder = Path(os.environ["SCOREKEEPER_HOME"])
    make_home(folder)
    return folder


def by_name(players: tuple[PlayerRecord, ...]) -> dict[str, PlayerRecord]:
    return {player.name: player for player in players}


def folder_snapshot(home: Path) -> dict[str, bytes]:
    return {str(path.relative_to(home)): path.read_bytes() for path in sorted(home.rglob("*")) if path.is_file()}


def test_each_player_over_the_finished_games_worked_out_by_hand(home: Path) -> None:
    history = history_of(home)
    assert history.games == 2  # g1 (once, though saved twice) and g2
    # Each typed once as Ann and once as ann, Bob and BOB: the spelling of the later game is shown.
    assert [player.name for player in history.players] == ["ann", "BOB", "Mary Lou"]
    players = by_name(history.players)
    ann, bob, mary = players["ann"], players["BOB"], players["Mary Lou"]
    # Ann: g1 250 + 50 + 12,000 in 3 turns, won; g2 one Farkle, lost.
    assert (ann.games, ann.wins, ann.turns, ann.banked, ann.farkles) == (2, 1, 4, 12_300, 1)
    assert (ann.hot_dice, ann.best_turn, ann.longest_farkle_streak) == (4, 12_000, 1)
    assert ann.win_share == 0.5 and ann.points_per_turn == 3_075 and ann.farkle_share == 0.25
    assert ann.spellings == ("Ann", "ann")
    # Bob: three Farkles in a row in g1, lost; as BOB in g2 a Farkle, then six 3s: won.
    assert (bob.games, bob.wins, bob.turns, bob.banked, bob.farkles) == (2, 1, 5, 0, 4)
    assert (bob.hot_dice, bob.best_turn, bob.longest_farkle_streak, bob.farkle_share) == (0, 0, 3, 0.8)
    assert (mary.games, mary.wins, mary.turns, mary.banked, mary.best_turn, mary.points_per_turn) == (1, 0, 1, 1_000, 1_000, 1_000)


def test_head_to_head_and_the_records_with_their_games(home: Path) -> None:
    history = history_of(home)
    pairs = {(h.player, h.opponent): (h.games, h.ahead, h.behind) for h in history.head_to_head}
    assert pairs == {
        ("ann", "BOB"): (2, 1, 1),  # ann won g1, BOB g2
        ("BOB", "ann"): (2, 1, 1),
        ("ann", "Mary Lou"): (1, 0, 1),  # g2: ann 0, Mary Lou 1,000
        ("Mary Lou", "ann"): (1, 1, 0),
        ("BOB", "Mary Lou"): (1, 1, 0),  # BOB won g2
        ("Mary Lou", "BOB"): (1, 0, 1),
    }
    biggest, fastest = history.records
    assert (biggest.what, biggest.player, biggest.value, biggest.started_at) == ("biggest turn", "ann", 12_000, G1_DAY)
    assert biggest.game.name in ("g1.jsonl", "g1-saved.json")
    assert (fastest.what, fastest.player, fastest.value, fastest.game.name) == ("fastest win", "BOB", 2, "g2.jsonl")
    assert str(fastest) == "fastest win: 2 turns, BOB, Mon 2 Nov 2026, 20:00 (g2.jsonl)"


def test_a_win_in_one_turn_is_said_in_the_singular() -> None:
    won = Record("fastest win", "Ann", 1, Path("g9.jsonl"), G1_DAY)
    assert won.amount == "1 turn"
    assert str(won).startswith("fastest win: 1 turn, Ann, ")
    assert Record("biggest turn", "Ann", 1_250, Path("g9.jsonl"), G1_DAY).amount == "1,250 points"


def test_unfinished_games_are_counted_apart_and_damaged_ones_skipped_with_a_note(home: Path) -> None:
    read = read_games(home)
    assert [game.path.name for game in read.unfinished] == ["g3.jsonl"]
    assert [skipped.path.name for skipped in read.skipped] == ["g4.jsonl"]
    note = str(read.skipped[0])
    assert note.startswith("g4.jsonl skipped: damaged at line ") and "\n" not in note
    history = history_of(home)
    assert history.unfinished == 1
    assert "Zed" not in by_name(history.players)
    # marylou's 150 in the unfinished g3 counts nowhere
    assert by_name(history.players)["Mary Lou"].banked == 1_000


def test_a_game_kept_in_both_a_journal_and_a_save_counts_once_and_nothing_is_written_into_the_games(home: Path) -> None:
    before = folder_snapshot(games_folder(home))
    history = history_of(home)
    assert by_name(history.players)["ann"].games == 2
    assert folder_snapshot(games_folder(home)) == before
    assert sorted(path.name for path in home.iterdir() if path.is_file()) == [CACHE_FILE]


def test_the_cache_reads_again_only_a_game_that_changed_and_a_damaged_cache_is_read_again_whole(home: Path) -> None:
    first = history_of(home)
    cache = (home / CACHE_FILE).read_bytes()
    assert history_of(home) == first and (home / CACHE_FILE).read_bytes() == cache
    # An unchanged file is not read again: what the cache says of it is what counts.
    kept = json.loads(cache)
    kept["files"]["g2.jsonl"]["game"]["stats"][1]["banked"] = 1_234
    (home / CACHE_FILE).write_text(json.dumps(kept), encoding="utf-8")
    assert by_name(history_of(home).players)["Mary Lou"].banked == 1_234
    g2 = games_folder(home) / "g2.jsonl"
    with g2.open("ab") as spoiled:
        spoiled.write(b"not json\n")
    changed = history_of(home)
    assert changed.games == 1 and [skipped.path.name for skipped in changed.skipped] == ["g2.jsonl", "g4.jsonl"]
    assert "Mary Lou" not in by_name(changed.players)
    (home / CACHE_FILE).write_text('{"format": "scorekeeper-history-cache", "version": 1, "files": {"g1.jsonl": 7}}', encoding="utf-8")
    rebuilt = history_of(home)
    assert rebuilt.notes == ("history-cache.json was damaged (g1.jsonl's entry is not an object (got 7)), so it is rebuilt from the games",)
    assert replace(rebuilt, notes=()) == changed and history_of(home) == changed


def _spoil(at: str, *keys: str | int, value: object = None, drop: bool = False) -> Callable[[dict[str, Any]], None]:
    """A change to the cache document: the value at ``at``'s entry, down ``keys``, set to ``value`` (or dropped)."""

    def change(document: dict[str, Any]) -> None:
        place: Any = document["files"][at]
        for key in keys[:-1]:
            place = place[key]
        if drop:
            del place[keys[-1]]
        else:
            place[keys[-1]] = value

    return change


SPOILED_CACHES = {
    "a player's turns as text": _spoil("g2.jsonl", "game", "stats", 0, "turns", value="abc"),
    "a player's name a number": _spoil("g2.jsonl", "game", "stats", 1, "name", value=123),
    "no scores": _spoil("g2.jsonl", "game", "scores", value=[]),
    "a best turn in a list": _spoil("g2.jsonl", "game", "stats", 2, "best_turn", value=[1]),
    "a rank as text": _spoil("g1-saved.json", "rank", value="x"),
    "a rank of one item": _spoil("g1-saved.json", "rank", value=[40]),
    "a rank's length as text": _spoil("g1-saved.json", "rank", value=["a", True]),
    "a rank of objects": _spoil("g1.jsonl", "rank", value=[{}, 1]),
    "scores as text": _spoil("g2.jsonl", "game", "scores", value="12"),
    "scores as text in a list": _spoil("g2.jsonl", "game", "scores", value=["a", "b", "c"]),
    "a winner not a seat": _spoil("g2.jsonl", "game", "winners", value=[9]),
    "winners a number": _spoil("g2.jsonl", "game", "winners", value=0),
    "no players": _spoil("g2.jsonl", "game", "stats", value=[]),
    "a player a number": _spoil("g2.jsonl", "game", "stats", 0, value=5),
    "a player without turns": _spoil("g2.jsonl", "game", "stats", 0, "turns", drop=True),
    "a player with a key too many": _spoil("g2.jsonl", "game", "stats", 0, "extra", value=1),
    "points left on the table as text": _spoil("g2.jsonl", "game", "stats", 0, "left_on_table", value="x"),
    "a count with a fraction": _spoil("g2.jsonl", "game", "stats", 0, "banked", value=1.5),
    "a count as true": _spoil("g2.jsonl", "game", "stats", 0, "turns", value=True),
    "a count below 0": _spoil("g2.jsonl", "game", "stats", 0, "farkles", value=-3),
    "a start as a number": _spoil("g2.jsonl", "game", "started_at", value=5),
    "rules as null": _spoil("g2.jsonl", "game", "rules", value=None),
    "a game a list": _spoil("g2.jsonl", "game", value=[]),
    "no game": _spoil("g2.jsonl", "game", drop=True),
    "a digest as a number": _spoil("g1.jsonl", "same", value=5),
    "a reason for skipping in a list": _spoil("g4.jsonl", "skipped", value=[1]),
    "a size and time as text": _spoil("g3.jsonl", "seen", value="yesterday"),
    "an entry a number": lambda document: document["files"].update({"g2.jsonl": 5}),
    "files a list": lambda document: document.update(files=[]),
}


@pytest.mark.parametrize("spoil", SPOILED_CACHES.values(), ids=SPOILED_CACHES.keys())
def test_a_cache_of_the_wrong_types_is_rebuilt_saying_so_in_one_line(
    home: Path, spoil: Callable[[dict[str, Any]], None], capsys: pytest.CaptureFixture[str]
) -> None:
    good = history_of(home)
    document = json.loads((home / CACHE_FILE).read_text(encoding="utf-8"))
    spoil(document)
    (home / CACHE_FILE).write_text(json.dumps(document), encoding="utf-8")
    assert main(["history"]) == 0
    said = [line for line in capsys.readouterr().err.splitlines() if CACHE_FILE in line]
    assert len(said) == 1 and said[0].startswith(f"scorekeeper history: {CACHE_FILE} was damaged (") and said[0].endswith(
        "), so it is rebuilt from the games"
    )
    assert history_of(home) == good  # rebuilt: the same numbers, and nothing more to say


def test_the_filters_keep_the_games_of_a_player_or_of_the_rules(home: Path) -> None:
    mary = history_of(home, player="mary lou")
    assert mary.games == 1 and [p.name for p in mary.players] == ["Mary Lou"]
    assert mary.unfinished == 1  # g3's marylou is Mary Lou, case and spaces aside
    assert {(h.player, h.opponent) for h in mary.head_to_head} == {("Mary Lou", "BOB"), ("Mary Lou", "ann")}
    assert [(r.what, r.value) for r in mary.records] == [("biggest turn", 1_000)]
    house = history_of(home, rules="house-2009")
    assert house.games == 1 and house.unfinished == 0
    assert by_name(house.players)["ann"].turns == 1
    with pytest.raises(HistoryError, match=r"'Zed'.*the players are ann, BOB, Mary Lou"):
        history_of(home, player="Zed")
    with pytest.raises(HistoryError, match=r"'pocket'.*played under house-2009, retail"):
        history_of(home, rules="pocket")


def test_a_name_merged_into_another_counts_as_that_player_and_is_kept_apart_from_the_games(home: Path) -> None:
    journal_game(
        home, "g5", "house-2009", ["Robert", "Ann"], "2026-11-06T20:00:00+00:00",
        play_g5,
    )
    games_before = {path.name: path.read_bytes() for path in games_folder(home).iterdir() if path.is_file()}
    assert by_name(history_of(home).players)["Robert"].wins == 1
    merge_players(home, read_games(home), "robert", "Bob")
    merged = by_name(history_of(home).players)
    assert "Robert" not in merged
    assert (merged["Bob"].games, merged["Bob"].wins, merged["Bob"].turns) == (3, 2, 6)
    assert merged["Bob"].spellings == ("Bob", "BOB", "Robert")
    fastest = history_of(home).records[1]
    assert (fastest.player, fastest.value, fastest.game.name) == ("Bob", 1, "g5.jsonl")
    assert {path.name: path.read_bytes() for path in games_folder(home).iterdir() if path.is_file()} == games_before
    kept = json.loads((home / MERGES_FILE).read_text(encoding="utf-8"))
    assert kept["merged"] == {"robert": "Bob"}
    assert load_merges(home)[0].name_of("ROBERT") == "bob"
    unmerge_player(home, "ROBERT")
    assert by_name(history_of(home).players)["Robert"].wins == 1
    with pytest.raises(HistoryError, match="'Robert' is not merged into another name"):
        unmerge_player(home, "Robert")


def test_a_merge_of_two_people_who_played_together_or_of_a_stranger_is_refused(home: Path) -> None:
    read = read_games(home)
    with pytest.raises(HistoryError, match=r"'Mary Lou' into 'Ann': both played in the game of Mon 2 Nov 2026, 20:00 \(g2.jsonl\)"):
        merge_players(home, read, "Mary Lou", "Ann")
    with pytest.raises(HistoryError, match="no finished game has a player named 'Zed'"):
        merge_players(home, read, "Zed", "Ann")
    with pytest.raises(HistoryError, match="already one player"):
        merge_players(home, read, "bob", "BOB")
    assert not (home / MERGES_FILE).exists()


def test_a_merges_file_that_cannot_be_read_is_said_and_names_count_as_typed(home: Path) -> None:
    (home / MERGES_FILE).write_text("{not json", encoding="utf-8")
    history = history_of(home)
    assert len(history.notes) == 1 and "names are counted as typed" in history.notes[0]
    assert [p.name for p in history.players] == ["ann", "BOB", "Mary Lou"]
    with pytest.raises(HistoryError, match="fix or remove the file first"):
        merge_players(home, read_games(home), "Mary Lou", "Bob")


def test_the_history_command_prints_the_tables_and_notes_the_damaged_journal(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    out, err = capsys.readouterr()
    assert err.strip() == f"scorekeeper history: {read_games(home).skipped[0]}"
    lines = out.splitlines()
    assert lines[0] == f"2 finished games (1 unfinished not counted) in {games_folder(home)}"
    header = next(line for line in lines if line.startswith("Player"))
    assert header.split("  ")[0] == "Player" and "Longest Farkle streak" in header
    ann = next(line for line in lines if line.startswith("ann "))
    assert ann.split() == ["ann", "2", "1", "50%", "3,075", "25%", "4", "12,000", "1"]
    assert any(line.split() == ["ann", "BOB", "2", "1", "1"] for line in lines)
    assert "  fastest win: 2 turns, BOB, Mon 2 Nov 2026, 20:00 (g2.jsonl)" in lines


def test_the_history_command_as_json_with_the_filters(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--json", "--rules", "house-2009", "--player", "ANN"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["games"] == 1 and document["unfinished"] == 0
    assert [player["name"] for player in document["players"]] == ["ann"]
    assert document["players"][0]["farkles"] == 1 and document["players"][0]["farkle_share"] == 1.0
    assert document["skipped"][0]["file"].endswith("g4.jsonl")
    assert {(h["opponent"], h["ahead"], h["behind"]) for h in document["head_to_head"]} == {("BOB", 0, 1), ("Mary Lou", 0, 1)}
    assert document["records"] == []
    assert main(["history", "--player", "Zed"]) == 2
    assert "no finished game has a player named 'Zed'" in capsys.readouterr().err


def test_the_history_of_an_empty_home_says_there_is_nothing_yet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("0 finished games in ") and "a game counts here once it is over" in out


def test_two_seats_of_one_game_whose_names_differ_only_in_spaces_are_two_people(home: Path) -> None:
    journal_game(home, "g6", "house-2009", ["Mary Lou", "MaryLou"], "2026-11-07T20:00:00+00:00", play_g5)
    history = history_of(home)
    assert history.games == 3
    assert sum(player.games for player in history.players) == 2 + 3 + 2  # every seat counted once
    assert by_name(history.players)["Mary Lou"].wins == 1
    assert by_name(history.players)["MaryLou"].games == 1


def test_a_pipe_or_a_folder_among_the_games_is_passed_over_and_a_link_to_a_game_counts(home: Path, tmp_path: Path) -> None:
    folder = games_folder(home)
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "folder.json").mkdir()
    elsewhere = journal_game(tmp_path, "g5", "house-2009", ["Robert", "Ann"], "2026-11-06T20:00:00+00:00", play_g5)
    (folder / "linked.jsonl").symlink_to(elsewhere)
    (folder / "notes.json").write_text('{"shopping": ["dice"]}', encoding="utf-8")
    history = history_of(home)
    assert history.games == 3 and by_name(history.players)["Robert"].wins == 1
    damaged, stray = map(str, history.skipped)
    # g4: the format line, the start, two players and g1's 21 steps, then the spoiled line 26
    assert damaged.startswith("g4.jsonl skipped: damaged at line 26 (not a JSON line") and damaged.endswith("; open it in the window to recover it")
    assert stray == "notes.json skipped: not a journal or a saved game"
