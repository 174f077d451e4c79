"""Score sheets: CSV, HTML and PDF written from the game log and read back; the export command."""

from __future__ import annotations

import csv
import html.parser
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.export import ExportError, export_csv, export_html, score_sheet
from scorekeeper.game import Game, save_game
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules
from tests.pdf_pages import A4_POINTS, read_pdf

STARTED = "2026-01-01T20:00:00+00:00"
EXPORTED = "2026-01-01T22:30:00+00:00"


def finished_game(sink: object = None) -> Game:
    """Ann wins a one-lap game to 2,000 (retail with entry 500 and the three-Farkle penalty)."""
    rules = load_rules("retail", ["entry-500", "three-farkle-penalty"])
    rules = type(rules)(rules.name, rules.title, rules.kind, rules.scoring, rules.turn,
                        type(rules.end)(2000, (), rules.end.short_targets_min_players, rules.end.final_lap, rules.end.ties))
    game = Game.new(rules, ["Ann", "Bob"], started_at=STARTED, sink=sink)  # type: ignore[arg-type]
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()          # Ann 1050
    game.roll("2 3 4 6 6 2"); game.farkle()                               # Bob Farkle 1
    game.roll("1 2 3 4 5 6"); game.keep("1 2 3 4 5 6"); game.bank()      # Ann 2550: last lap
    game.roll("5 2 3 4 6 6"); game.keep("5"); game.roll("2 3 4 6 6"); game.farkle()  # Bob Farkle 2
    return game


def test_the_sheet_follows_the_log() -> None:
    game = finished_game()
    sheet = score_sheet(game.events, EXPORTED)
    assert sheet.players == ("Ann", "Bob") and sheet.winners == ("Ann",)
    assert sheet.scores == tuple(p.score for p in game.state.players) == (2550, 0)
    assert sheet.farkles == (0, 2)
    assert [t.totals for t in sheet.turns] == [(1050, 0), (1050, 0), (2550, 0), (2550, 0)]
    assert sheet.turns[3].rolls == ("2 3 4 5 6 6", "2 3 4 6 6") and sheet.turns[3].kept == ("5 (50)",)
    assert sheet.started_at == STARTED and sheet.exported_at == EXPORTED
    assert any("1,000" in line and "Farkles in a row" in line for line in sheet.rules)


def test_csv_reads_back(tmp_path: Path) -> None:
    game = finished_game()
    export_csv(game.events, tmp_path / "s.csv", EXPORTED)
    rows = list(csv.reader((tmp_path / "s.csv").open(encoding="utf-8")))
    assert ["started", STARTED] in rows and ["exported", EXPORTED] in rows and ["winner", "Ann"] in rows
    header = rows.index(["turn", "player", "player's turn", "rolls", "kept", "entered", "outcome", "points",
                         "penalty", "total Ann", "total Bob"])
    turns = rows[header + 1 : header + 5]
    assert [(r[1], r[6], int(r[7]), int(r[9]), int(r[10])) for r in turns] == [
        ("Ann", "banked", 1050, 1050, 0),
        ("Bob", "Farkle", 0, 1050, 0),
        ("Ann", "banked", 1500, 2550, 0),
        ("Bob", "Farkle", 0, 2550, 0),
    ]
    assert rows[header + 5] == []
    assert ["rules in force"] in rows
    stats = rows.index(["statistics"])
    assert rows[stats + 1][:3] == ["Player", "Turns", "Farkles"]
    assert [r[:3] for r in rows[stats + 2 : stats + 4]] == [["Ann", "2", "0"], ["Bob", "2", "2"]]
    assert rows[stats + 4][0] == "dice" and "p" in rows[stats + 4][1]


def test_the_penalty_is_on_the_sheet(tmp_path: Path) -> None:
    rules = load_rules("retail", ["three-farkle-penalty"])
    game = Game.new(rules, ["Ann", "Bob"], started_at=STARTED)
    game.roll("1 1 1 5 2 3"); game.keep("1 1 1 5"); game.bank()
    game.roll("2 3 4 6 6 2"); game.farkle()
    for _ in range(3):
        game.roll("2 3 4 6 6 2"); game.farkle()
        game.roll("2 3 4 6 6 2"); game.farkle()
    sheet = score_sheet(game.events, EXPORTED)
    assert [(t.outcome, t.penalty, t.totals[0]) for t in sheet.turns if t.player == "Ann"] == [
        ("banked", 0, 1050), ("Farkle", 0, 1050), ("Farkle", 0, 1050), ("Farkle, 1,000 penalty (third Farkle in a row)", 1000, 50)
    ]
    export_csv(game.events, tmp_path / "p.csv", EXPORTED)
    rows = list(csv.reader((tmp_path / "p.csv").open()))
    assert [r[8] for r in rows if len(r) > 8 and r[1] == "Ann"] == ["0", "0", "0", "1000"]


class _Text(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[str] = []

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.cells.append(data.strip())


def test_html_reads_back(tmp_path: Path) -> None:
    game = finished_game()
    export_html(game.events, tmp_path / "s.html", EXPORTED)
    parser = _Text()
    parser.feed((tmp_path / "s.html").read_text(encoding="utf-8"))
    text = parser.cells
    assert "Winner: Ann" in text
    assert text[text.index("Ann (winner)") + 1] == "2,550"
    assert "Farkle" in text and "1 2 3 4 5 6 (1,500)" in text
    assert any("1 January 2026, 22:30 (UTC)" in cell for cell in text)


def test_names_are_escaped_in_html(tmp_path: Path) -> None:
    game = Game.new(load_rules("retail"), ["<b>Ann</b>"], started_at=STARTED)
    export_html(game.events, tmp_path / "s.html", EXPORTED)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in (tmp_path / "s.html").read_text()


def test_the_pdf_reads_back_as_one_a4_page_with_the_export_time_every_player_and_total(tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    game = finished_game()
    export_pdf(game.events, tmp_path / "s.pdf", EXPORTED)
    assert (tmp_path / "s.pdf").read_bytes().startswith(b"%PDF")
    sizes, lines = read_pdf(tmp_path / "s.pdf")
    assert len(sizes) == 1, "a four-turn game fits on one page"
    assert sizes[0] == pytest.approx(A4_POINTS, abs=1.0), f"not A4: {sizes[0]} points"
    text = " ".join(lines)
    assert "exported 1 January 2026, 22:30 (UTC)" in text and "Started 1 January 2026, 20:00 (UTC)" in text
    assert "Winner: Ann" in text
    # Ann: 1,050 then 1,500 banked; Bob: two Farkles and nothing banked (finished_game's own tally)
    assert "Ann (winner) 2,550 0" in lines and "Bob 0 2" in lines
    assert [p.name for p in tmp_path.iterdir()] == ["s.pdf"], "no temporary file left behind"


def test_export_to_a_missing_folder_says_so_and_writes_nothing(tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    game = finished_game()
    for writer in (export_csv, export_html, export_pdf):
        with pytest.raises(ExportError, match="no-such-folder"):
            writer(game.events, tmp_path / "no-such-folder" / "s.x")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("kind", ["csv", "html", "pdf"])
def test_the_export_command_reads_a_journal_or_a_save(tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = finished_game(journal.write)
    journal.close()
    save_game(game, tmp_path / "game.json")
    for source in ("game.jsonl", "game.json"):
        out = tmp_path / f"{source}.{kind}"
        assert main(["export", str(tmp_path / source), "--format", kind, "-o", str(out)]) == 0
        if kind == "html":
            parser = _Text()
            parser.feed(out.read_text(encoding="utf-8"))
            assert "Winner: Ann" in parser.cells and parser.cells[parser.cells.index("Ann (winner)") + 1] == "2,550"
            assert parser.cells[parser.cells.index("Bob") + 1] == "0"
        elif kind == "pdf":
            sizes, lines = read_pdf(out)
            assert len(sizes) == 1 and "Ann (winner) 2,550 0" in lines and "Bob 0 2" in lines
    if kind == "csv":
        assert (tmp_path / "game.jsonl.csv").read_text().split("\n", 3)[3] == (tmp_path / "game.json.csv").read_text().split("\n", 3)[3]


def test_the_export_command_explains_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "nothing.jsonl"), "-o", str(tmp_path / "x.csv")]) == 2
    assert "nothing.jsonl" in capsys.readouterr().err
    journal = Journal.create(tmp_path / "g.jsonl")
    finished_game(journal.write)
    journal.close()
    assert main(["export", str(tmp_path / "g.jsonl"), "-o", str(tmp_path / "x.txt")]) == 2
    assert "--format" in capsys.readouterr().err
    with (tmp_path / "g.jsonl").open("a") as stream:
        stream.write("{broken\n")
    assert main(["export", str(tmp_path / "g.jsonl"), "-o", str(tmp_path / "x.csv")]) == 0
    err = capsys.readouterr().err
    assert "warning" in err and "line" in err
    assert ["winner", "Ann"] in list(csv.reader((tmp_path / "x.csv").open()))


def long_turn_game() -> Game:
    """Ann's turn of three rolls, the first a straight: the Rolls cell of the sheet is long."""
    game = Game.new(load_rules("retail"), ["Ann", "Bob", "Cy"], started_at=STARTED)
    game.roll("1 2 3 4 5 6"); game.keep("1 2 3 4 5 6")
    game.roll("1 1 2 3 4 6"); game.keep("1 1")
    game.roll("1 2 3 4"); game.keep("1"); game.bank()
    return game


def test_the_pdf_never_breaks_a_roll_across_lines(tmp_path: Path) -> None:
    from PySide6.QtPdf import QPdfDocument

    from scorekeeper.export import export_pdf

    export_pdf(long_turn_game().events, tmp_path / "s.pdf", EXPORTED)
    document = QPdfDocument()
    assert document.load(str(tmp_path / "s.pdf")) == QPdfDocument.Error.None_
    text = document.getAllText(0).text().replace("\xa0", " ")
    for roll in ("1 2 3 4 5 6", "1 1 2 3 4 6", "1 2 3 4"):
        assert roll in text, f"the roll {roll} is broken across lines: {text!r}"
    assert "Outcome Points Penalty Ann Bob Cy" in text, "a column heading is broken across lines"


def test_exported_files_get_the_users_normal_mode(tmp_path: Path) -> None:
    import os
    import stat

    from scorekeeper.export import export_pdf

    umask = os.umask(0o022)
    os.umask(umask)
    events = finished_game().events
    save_game(finished_game(), tmp_path / "game.json")
    export_csv(events, tmp_path / "s.csv", EXPORTED)
    export_html(events, tmp_path / "s.html", EXPORTED)
    export_pdf(events, tmp_path / "s.pdf", EXPORTED)
    for name in ("game.json", "s.csv", "s.html", "s.pdf"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o666 & ~umask, name
