"""The command line contract: score, score --batch, rules list/show, play."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.cli.play import Session
from scorekeeper.game import Game, load_game
from scorekeeper.game.commands import parse_line
from scorekeeper.game.controller import GameController
from scorekeeper.game.games_folder import default_home
from scorekeeper.game.journal import read_journal
from scorekeeper.game.lock import lock_path
from scorekeeper.game.save import load_saved
from scorekeeper.rules import load_rules


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return status, out, err


def test_score_prints_every_keep_and_the_best(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "score", "--rules", "retail", "1", "1", "5", "3", "4", "6")
    assert status == 0
    lines = out.splitlines()
    # 1 1 5 = 100 + 100 + 50; the 3, 4 and 6 score nothing on their own.
    assert lines[1].split()[:5] == ["best", "1", "1", "5", "250"]
    assert len(lines) == 1 + 5  # keeps: 115, 11, 15, 1, 5


def test_score_json_is_one_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "score", "--rules", "pocket", "--json", "111")
    assert status == 0
    result = json.loads(out)
    # Pocket Farkel: "Three 1s = 300 instead of 1,000".
    assert result["best"] == {"keep": [1, 1, 1], "points": 300}
    assert result["farkle"] is False and result["wins"] is False


def test_score_refuses_bad_dice_with_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, "score", "--rules", "retail", "1", "7")
    assert status == 2 and out == ""
    assert "die 7" in err and "1-6" in err
    status, _, err = run_cli(capsys, "score", "--rules", "retail", "1234561")
    assert status == 2 and "7 dice" in err


def test_score_names_an_unknown_preset(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "score", "--rules", "retial", "1")
    assert status == 2
    assert "'retial'" in err and "retail" in err


def test_batch_contract_over_every_roll(capsys: pytest.CaptureFixture[str]) -> None:
    rolls = [roll for n in range(1, 7) for roll in itertools.product(range(1, 7), repeat=n)]
    assert len(rolls) == 55_986
    text = "\n".join("".join(map(str, roll)) for roll in rolls) + "\n"
    status, out, _ = run_cli(capsys, "score", "--rules", "retail", "--batch", stdin=text)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == len(rolls)
    for roll, line in zip(rolls, lines):
        result = json.loads(line)
        assert set(result) == {"roll", "farkle", "wins", "best", "options"}
        assert result["roll"] == list(roll)
        assert result["farkle"] == (result["best"] is None) == (result["options"] == [])
        for option in result["options"]:
            assert option["keep"] == sorted(option["keep"])
            assert all(a <= b for a, b in itertools.pairwise(option["keep"]))
        if result["options"]:
            assert result["best"] == result["options"][0]
    by_roll = {tuple(json.loads(line)["roll"]): json.loads(line) for line in lines[:300]}
    # Two triplets: 2500 (chart) beats 1000 + 500 for three 1s and three 5s.
    assert json.loads(lines[rolls.index((1, 1, 1, 5, 5, 5))])["best"]["points"] == 2500
    assert by_roll[(2, 3)]["farkle"] is True


def test_batch_reports_a_bad_line_and_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "score", "--rules", "retail", "--batch", stdin="1 5\n\n1 9\n2 2 2\n")
    assert status == 1
    first, blank, bad, last = (json.loads(line) for line in out.splitlines())
    assert first["best"] == {"keep": [1, 5], "points": 150}
    assert blank["line"] == 2 and blank["input"] == "" and "empty line" in blank["error"]
    assert bad["line"] == 3 and bad["input"] == "1 9" and "9" in bad["error"]
    assert last["best"] == {"keep": [2, 2, 2], "points": 200}


def test_batch_spaces_are_optional(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "score", "--rules", "retail", "--batch", stdin="1 1 5 3 4 6\n115346\n")
    spaced, packed = (json.loads(line) for line in out.splitlines())
    assert spaced == packed


def test_rules_list_and_show(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "rules", "list")
    assert status == 0
    for name in ("retail", "pocket", "house-2009", "flip", "doubling", "entry-500"):
        assert name in out
    status, out, _ = run_cli(capsys, "rules", "show", "house-2009")
    assert status == 0
    assert "Bank at least 1,000 in one turn to get on the board." in out
    assert "Six of a kind wins the game" in out


def test_rules_show_toml_loads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, out, _ = run_cli(capsys, "rules", "show", "retail+doubling", "--toml")
    path = tmp_path / "ours.toml"
    path.write_text(out)
    status, shown, _ = run_cli(capsys, "score", "--rules", str(path), "--json", "2222")
    # doubling: four 2s = 2 x 200.
    assert status == 0 and json.loads(shown)["best"]["points"] == 400


def test_play_a_whole_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    script = "\n".join(
        [
            "111111", "o1",  # six 1s: six of a kind, 3,000, hot dice
            "111111", "o1",
            "111111", "o1",
            "111111", "o1", "b",  # 12,000 banked: the last lap starts
            "2 3 4 6 2 3", "f",  # Bob's last turn: Farkle
        ]
    ) + "\n"
    status, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", "--save", str(saved), stdin=script)
    assert status == 0
    assert "Ann banks 12,000: now 12,000." in out
    assert "FARKLE! Bob's turn ends" in out
    assert "Game over: Ann wins!" in out
    game = load_game(saved)
    assert game.state.winners == (0,)
    assert [p.score for p in game.state.players] == [12_000, 0]


def test_play_refuses_and_goes_on(capsys: pytest.CaptureFixture[str]) -> None:
    script = "1 1 5 2 3 4\nb\nk 2\nk 1 1 5\nb\nq\n"
    status, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", "--rules", "house-2009", stdin=script)
    assert status == 0
    assert "Not allowed: bank: the roll 1 1 2 3 4 5 is on the table" in out
    assert "Not allowed: keep '2' holds non-scoring die 2" in out
    assert "Ann needs 1,000 in one turn to get on the board, 750 more" in out


def test_module_and_entry_point_run() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "score", "--rules", "retail", "--json", "5"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["best"] == {"keep": [5], "points": 50}


def test_output_cut_short_by_its_reader_ends_quietly(tmp_path: Path) -> None:
    # `scorekeeper score --batch ... | head -1`: the pipe closes while the command still writes
    rolls = tmp_path / "rolls.txt"
    rolls.write_text("123456\n" * 20_000)
    with rolls.open() as stdin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "score", "--rules", "retail", "--batch"],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        assert json.loads(proc.stdout.readline())["roll"] == [1, 2, 3, 4, 5, 6]
        proc.stdout.close()
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 141
    assert "Traceback" not in err and err == ""


# --------------------------------------------------------------------------- issue 43: play and score


def test_play_undo_never_removes_the_players(capsys: pytest.CaptureFixture[str]) -> None:
    script = "u\ns\nu\ns\n1 1 1 2 3 4\no1\n"
    status, out, _ = run_cli(capsys, "play", "--rules", "retail", "--players", "Ann,Bob", stdin=script)
    assert status == 0
    assert out.count("undo: there is nothing to undo; the players seated at the start stay") == 2
    assert "The game is over." not in out and "no players yet" not in out
    assert "Ann (0), turn 1,000: roll 3 dice" in out


def test_play_says_what_an_undo_or_a_redo_took_in_the_windows_words(capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["1 5 2 3 4 6", "k 1", "z", "u", "y", "k 1 5", "b", "z", "y"]
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin="\n".join([*lines, "q"]) + "\n")
    assert "Undone: Ann's keep of 1 for 100. Now Ann's roll 1 2 3 4 5 6 is on the table, 0 this turn.\n" in out
    assert "Undone: Ann's roll 1 2 3 4 5 6. Now Ann's turn: 0 this turn, 6 dice to roll.\n" in out
    assert "Undone: Ann's bank of 150. Now Ann's turn: 150 this turn, 4 dice to roll.\n" in out
    window = GameController(Path("unused"), Game.new(load_rules("retail"), ["Ann", "Bob"]))
    said: list[str] = []
    window.on_done.append(said.append)
    for line in lines:
        assert window.act(parse_line(line).take)
    told = [text for text in said if text.startswith(("Undone:", "Redone:"))]
    assert len(told) == 5 and all(text in out.splitlines() for text in told), "the window's line for each undo and redo"


def test_score_lists_the_options_most_points_first(capsys: pytest.CaptureFixture[str]) -> None:
    for roll in ("666666", "444444"):
        status, out, _ = run_cli(capsys, "score", "--rules", "house-2009", "--json", roll)
        result = json.loads(out)
        points = [option["points"] for option in result["options"]]
        assert status == 0 and points == sorted(points, reverse=True)
        assert result["wins"] and result["best"]["keep"] == [int(roll[0])] * 6  # the win is still the best


def test_play_says_that_keeping_six_of_a_kind_wins(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "play", "--rules", "house-2009", "--players", "Ann,Bob", stdin="666666\nq\nq\n")
    assert status == 0
    assert "o3) 6 6 6 6 6 6: WINS THE GAME (scores nothing)" in out
    assert "o1) 6 6 6 6 6 for 1,800" in out


def test_points_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "play", "--rules", "flip", "--players", "Ann,Bob", stdin="p 5000\np 3000\ns\nq\nq\n")
    assert "Not allowed: enter 5,000 points: no combination of the chart is worth more than 3,000" in out
    assert "Ann (0), turn 3,000" in out
    _, out, _ = run_cli(capsys, "play", "--rules", "retail", "--players", "Ann,Bob", stdin="p 100\nq\nq\n")
    assert "Not allowed: points: 'p' is for the card game" in out
    assert "turn 100" not in out


def test_play_wording(capsys: pytest.CaptureFixture[str]) -> None:
    script = "\n".join(["1 5 2 2 2 2", "k", "k 2 2", "u", "1111111", "1 5 2 2 2 2", "k 1 5", "c 6 -", "5", "q", "q"])
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin=script + "\n")
    assert out.startswith("Farkle: the retail chart (retail), played to 10,000. Type 'help' for the commands.")
    assert "Not allowed: keep: no dice named" in out
    assert "Not allowed: keep '2 2': two 2s score nothing on their own; 2s score only as three of a kind" in out
    assert "'1 1 1 1 1 1 1' has 7 dice" in out
    assert "take out the 6 (not a die): there is no roll on the table" in out
    assert "Not allowed: roll 5: 1 die typed, 4 in play: type all 4, or z to undo the last step if fewer should be in play" in out
    for wrong in ("None", "1 dice", "[1, 1", "keep ''", "not read"):
        assert wrong not in out
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.roll("1 5 2 3 4 6"), game.keep("1 5"), game.roll("5 5 2 3"), game.keep("5 5"), game.roll("5", source="camera")
    said = io.StringIO()
    session = Session(game, said, None)
    session.run(io.StringIO("k 5\nc - 6\nk 5\n"), interactive=False)
    out = said.getvalue()
    assert "5 [1 die not read]: not scored until it is added: 'c - FACE' adds a missed die, 'u' takes the roll back" in out
    assert "Not allowed: keep 5: only 1 of the 2 dice thrown were read" in out, "a roll with a die missing is not kept from"
    assert "roll 1 die and type it" in out
    _, out, _ = run_cli(capsys, "play", "--rules", "flip", "--players", "Ann,Bob", stdin="p 500\nb\nq\nq\n")
    assert "500 more; draw again" in out
    _, out, _ = run_cli(capsys, "rules", "show", "house-2009")
    assert "does not score" not in out
    assert "Not on this chart: four of a kind and a pair, two triplets" in out
    _, _, err = run_cli(capsys, "play", "--rules", "flip", "--players", "Ann,Bob", "--target", "6025")
    assert "target 6,025: not a multiple of 50; play to a multiple of 50 such as 6,000 or 6,050" in err


def test_play_feedback(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin="111111\no1\nq\n")
    assert "Hot dice! All six scored: Ann rolls all six again (turn 3,000)." in out
    farkles = "2 2 3 3 4 6\nf\n" * 6
    _, out, _ = run_cli(capsys, "play", "--rules", "retail+three-farkle-penalty", "--players", "Ann,Bob", stdin=farkles)
    assert "FARKLE! Ann's turn ends with no points scored this turn; 3 Farkles in a row, but with no points the 1,000 penalty takes nothing" in out
    _, out, _ = run_cli(capsys, "play", "--rules", "flip", "--players", "Ann,Bob", stdin="f\nf\nf\nf\ns\nq\nq\n")
    assert "2 Farkle cards" in out and "in a row" not in out


def test_the_last_lap_line_follows_the_lead(capsys: pytest.CaptureFixture[str]) -> None:
    script = "111111\no1\n" * 4 + "b\n" + ("111111\no1\n" * 5) + "1 5 2 3 4 6\no1\nb\ns\nq\n"
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob,Cy", stdin=script)
    assert "Last lap: Ann reached 10,000." in out
    assert "Last lap: Ann reached 10,000; Bob now leads with 16,500." in out


def test_resuming_a_finished_game_says_it_is_over_and_writes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    script = "111111\no1\n" * 4 + "b\n2 3 4 6 2 3\nf\n"
    games = default_home() / "games"
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin=script)
    [journal] = games.glob("*.jsonl")
    assert f"Its score sheet: scorekeeper export {journal} -o sheet.html" in out
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", "--save", str(saved), stdin=script)
    assert f"The game is saved in {saved}.\n" in out and "resume" not in out, "the game-over lines offer no resume"
    assert f"Its score sheet: scorekeeper export {saved} -o sheet.html; every finished game added up: scorekeeper history." in out
    [kept] = set(games.glob("*.jsonl")) - {journal}
    kept.unlink()  # the save taken to another computer: no journal of the game in this home
    for resumed in (saved, saved, journal):
        before = {path.name: path.stat().st_mtime_ns for path in games.iterdir()}
        status, out, _ = run_cli(capsys, "play", "--resume", str(resumed))
        assert status == 0
        assert out.startswith("Farkle: the retail chart (retail), played to 10,000: this game is over, so it is not played on and nothing is written.\n")
        assert "WINNER" in out and "Game over: Ann wins!" in out and "resume" not in out
        assert f"Its score sheet: scorekeeper export {resumed} -o sheet.html; every finished game added up: scorekeeper history." in out
        assert {path.name: path.stat().st_mtime_ns for path in games.iterdir()} == before, "no new journal, nothing written"


def test_resuming_a_finished_game_clears_what_a_killed_writer_left_beside_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    run_cli(capsys, "play", "--players", "Ann,Bob", "--save", str(saved), stdin="111111\no1\n" * 4 + "b\n2 3 4 6 2 3\nf\n")
    journal = load_saved(saved).journal
    assert journal is not None
    # a process killed while it wrote the game: its locks, and a copy of the save it was writing
    left = [lock_path(saved), lock_path(journal), saved.parent / f".{saved.name}.x1y2.tmp"]
    for path in left:
        path.write_text('{"pid": 999999999, "since": "2026-12-06T21:00:00+00:00"}', encoding="utf-8")
    status, out, _ = run_cli(capsys, "play", "--resume", str(saved))
    assert status == 0 and "this game is over" in out
    assert [path for path in left if path.exists()] == []
    assert load_game(saved).state.over


def test_resume_refuses_rules_and_players(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    run_cli(capsys, "play", "--players", "Ann,Bob", "--save", str(saved), stdin="1 5 2 3 4 6\no1\nb\n")
    status, out, err = run_cli(capsys, "play", "--resume", str(saved), "--rules", "pocket", "--players", "X,Y")
    assert status != 0 and "leave out --rules, --players" in err
    assert load_game(saved).state.rules.name == "retail"


def test_quit_keeps_the_game_and_reads_nothing_after_it(capsys: pytest.CaptureFixture[str]) -> None:
    # q used to ask first, and a 'y' answer was taken as redo; the game is kept in its journal now
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin="1 2 2 3 4 6\nk 1\nu\nq\ny\n")
    [journal] = (default_home() / "games").glob("*.jsonl")
    assert f"The game is kept in {journal}; go on with it: scorekeeper play --resume {journal}." in out
    assert "redo" not in out and "Not allowed" not in out
    state = read_journal(journal).game().state
    assert state.turn is not None and state.turn.total == 0 and state.turn.roll is not None  # the undo stands, no redo
    _, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin="1 5 2 3 4 6\n")
    assert "The game is kept in" in out and "not saved" not in out


def test_score_defaults_to_retail_like_play_and_coach(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, "score", "1", "1", "5")
    assert status == 0 and out.startswith("Roll 1 1 5 under retail:")
