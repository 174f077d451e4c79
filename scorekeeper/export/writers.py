"""The score sheet as CSV and as HTML (the PDF prints this HTML with Qt's own PDF writer); the HTML
is one self-contained file, the rolls' pictures inside it.

Files are written whole or not at all (a temporary file renamed into place), only where a sheet may
go: a new file, or a score sheet this program wrote (whose mode it keeps), told by how it begins
(:func:`is_score_sheet`); never any other file, a game, a link, a device, a pipe or a socket, nor
anything in a game's own folder of pictures.
"""

from __future__ import annotations

import base64
import csv
import errno
import hashlib
import html
import io
import os
from datetime import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from scorekeeper.errors import ScorekeeperError
from scorekeeper.export.sheet import ScoreSheet, SheetTurn, score_sheet
from scorekeeper.game import Event
from scorekeeper.game.photos import FOLDER_SUFFIX, PhotoStatus, RollPhoto, read_photo
from scorekeeper.game.save import game_file_kind
from scorekeeper.safe_input import quote, read_head, what_it_is
from scorekeeper.safe_output import write_atomically
from scorekeeper.scoreboard.race_svg import race_svg
from scorekeeper.stats import HEADER as STATS_HEADER
from scorekeeper.stats import NOTE as STATS_NOTE

FORMATS = ("csv", "html", "pdf")
"""The formats a score sheet exports to."""
SHEET_FILES = {
    "csv": "a CSV table, each roll's picture named by its file",
    "html": "one self-contained HTML file, the pictures inside",
    "pdf": "a printable A4 PDF, the pictures inside",
}
"""What the file of each format holds, as the export dialog and the command line say it."""
JPEG_START = b"\xff\xd8\xff"
"""How a JPEG file begins."""

TURN_COLUMNS = ("turn", "player", "player's turn", "rolls", "kept", "entered", "outcome", "points", "penalty")
"""The CSV columns of each turn, followed (where the sheet shows the rolls' pictures) by a
``pictures`` column naming each roll's file, then one running-total column per player: the fixed
columns and the totals (the last columns) stay where they are either way."""
THUMBNAIL = (80, 200, 20)
"""Width of a roll's picture on the HTML (and PDF) sheet, pixels: at most the second number, less
the third for each player (a running-total column each), at least the first, so an A4 page holds
the line."""


PICTURE_GAP = 4
"""Pixels between two pictures side by side on a line of a turn's pictures."""
SHEET_RACE = (720, 360, 13)
"""The score race's width, height and type size on the HTML sheet, pixels."""
RACE_HEADING = "Score race"
"""The heading over the score race on a sheet."""
NEW_PAGE = ' style="page-break-before: always"'
"""What starts a part of the sheet on a new page when it is printed."""


@dataclass(frozen=True)
class PageBreaks:
    """Where a printed sheet starts new pages, so that no turn and no closing section is cut in two,
    and which turns print their pictures side by side (see :mod:`scorekeeper.export.pdf`, which
    plans them). The default breaks nowhere: the sheet as a browser shows it."""

    turns: frozenset[int] = frozenset()
    """The turns (by their place in the sheet's turns, from 0) that start a new page, the table's
    heading row again above them (the first turn takes the "Turns" heading along)."""
    statistics: bool = False
    """Whether the statistics start a new page."""
    rules: bool = False
    """Whether the rules in force start a new page."""
    pictures_across: Mapping[int, int] = field(default_factory=dict)
    """How many pictures a line holds in a turn's Pictures cell, by the turn's place (1 where not
    given): a turn whose pictures one below another would be taller than a page prints them smaller,
    side by side."""


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""How a cell begins that a spreadsheet would run as a formula (OWASP, CSV injection)."""


class ExportError(ScorekeeperError):
    """A score sheet that cannot be written; no file is left half-written."""


def csv_text(sheet: ScoreSheet) -> str:
    """The sheet as CSV: a few "key, value" lines, a blank line, then one row per turn; no cell a
    spreadsheet would run (see :func:`spreadsheet_safe`), lines ending in CRLF.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"], started_at="2026-01-01T20:00:00+00:00")
    >>> game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank()
    >>> lines = csv_text(score_sheet(game.events, "2026-01-01T21:00:00+00:00")).splitlines()
    >>> print(lines[lines.index("turn,player,player's turn,rolls,kept,entered,outcome,points,penalty,total Ann") + 1])
    1,Ann,1,2 3 4 5 6 6,5 (50),,banked,50,0,50
    """
    rows: list[list[object]] = []
    rows.append(["scorekeeper score sheet"])
    rows.append(["started", sheet.started_at])
    rows.append(["exported", sheet.exported_at])
    rows.append(["rules", sheet.rules_name, sheet.rules[0]])
    rows.append(["target", sheet.target])
    rows.append(["winner", " and ".join(sheet.winners) if sheet.over else "game in progress"])
    if sheet.in_progress:
        rows.append(["in progress", sheet.in_progress])
    rows.append([])
    pictures = ["pictures"] if sheet.with_photos else []
    rows.append([*TURN_COLUMNS, *pictures, *(f"total {name}" for name in sheet.players)])
    for turn in sheet.turns:
        rows.append(
            [
                turn.number,
                turn.player,
                turn.round,
                " / ".join(turn.rolls),
                " / ".join(turn.kept),
                " / ".join(str(points) for points in turn.entered),
                turn.outcome,
                turn.points,
                turn.penalty,
                *([" / ".join(_photo_text(photo) for photo in turn.photos)] if sheet.with_photos else []),
                *turn.totals,
            ]
        )
    rows.append([])
    rows.append(["player", "score", "Farkles"])
    for name, score, farkles in zip(sheet.players, sheet.scores, sheet.farkles):
        rows.append([name, score, farkles])
    rows.append([])
    rows.append(["statistics"])
    rows.append(list(STATS_HEADER))
    rows.extend(list(row) for row in sheet.statistics)
    rows.append(["dice", sheet.fairness])
    rows.append(["columns", STATS_NOTE])
    rows.append([])
    rows.append(["rules in force"])
    for line in sheet.rules[1:]:
        rows.append([line])
    out = io.StringIO()
    # lines end in CRLF, as RFC 4180 has them: a cell holding a CR or an LF is then quoted, and no
    # spreadsheet reads the rest of it as a cell of its own
    csv.writer(out, lineterminator="\r\n").writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return out.getvalue()


def spreadsheet_safe(cell: object) -> object:
    """``cell`` as a spreadsheet shows it and never runs it: text that begins as a formula would (a
    player named ``=HYPERLINK(...)``) gets a leading ``'``, as OWASP advises against CSV injection;
    numbers, and the lone "-" of a roll without a picture, stay as they are.

    >>> spreadsheet_safe("=1+1"), spreadsheet_safe("@SUM(A1)"), spreadsheet_safe(-50), spreadsheet_safe("-"), spreadsheet_safe("Ann")
    ("'=1+1", "'@SUM(A1)", -50, '-', 'Ann')
    """
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) and cell != "-":
        return "'" + cell
    return cell


def _photo_text(photo: RollPhoto | None) -> str:
    """A roll's picture in the CSV: its file, what is wrong with it, or "-" for a roll with none."""
    if photo is None:
        return "-"
    return str(photo.path) if photo.shown else photo.note()


def readable_time(iso: str) -> str:
    """An ISO 8601 time as people write it on a score sheet.

    >>> readable_time("2026-01-01T20:05:00+01:00")
    '1 January 2026, 20:05 (UTC+01:00)'
    >>> readable_time("not a time")
    'not a time'
    """
    try:
        when = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    zone = f" ({when.tzname()})" if when.tzinfo is not None else ""
    return f"{when.day} {when:%B %Y, %H:%M}{zone}"


def _cell(text: object, tag: str = "td", align: str = "") -> str:
    attribute = f' align="{align}"' if align else ""
    return f"<{tag}{attribute}>{html.escape(str(text))}</{tag}>"


def thumbnail_width(players: int) -> int:
    """How wide a roll's picture is drawn on a sheet of ``players`` players, pixels.

    >>> thumbnail_width(2), thumbnail_width(3), thumbnail_width(8)
    (160, 140, 80)
    """
    least, most, per_player = THUMBNAIL
    return max(least, most - per_player * players)


def embedded(photo: RollPhoto) -> tuple[RollPhoto, str | None]:
    """The picture as a ``data:`` address holding its bytes as the game kept them, read now within
    bounds (:func:`~scorekeeper.game.photos.read_photo`: a pipe or a device is never opened); or,
    where it is gone since it was checked, is no longer what its name says or is no JPEG, the
    picture marked missing or damaged and no address."""
    data = read_photo(photo.path)
    if data is None:
        return replace(photo, status=PhotoStatus.DAMAGED if os.path.exists(photo.path) else PhotoStatus.MISSING), None
    if hashlib.sha256(data).hexdigest() != photo.name or not data.startswith(JPEG_START):
        return replace(photo, status=PhotoStatus.DAMAGED), None
    return photo, "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")


def picture_resource(photo: RollPhoto) -> str:
    """The name a sheet's HTML gives a roll's picture that it does not hold (the PDF's, which hands
    Qt each picture by that name): the picture's own SHA-256, never where this computer keeps it.

    >>> picture_resource(RollPhoto("ab12", Path("/home/ann/games/g.photos/ab12.jpg"), PhotoStatus.OK))
    'roll:ab12'
    """
    return f"roll:{photo.name}"


def _photo_cells(turn: SheetTurn, width: int, across: int = 1, embed: bool = True) -> str:
    """The pictures of a turn's rolls, ``across`` to a line, or what is wrong with one: held in the
    page (``embed``: a click on one shows it larger), or named by :func:`picture_resource` for the
    PDF, which hands Qt the pictures by those names."""
    if across > 1:
        width = (width - PICTURE_GAP * (across - 1)) // across
    shown = []
    for number, (roll, photo) in enumerate(zip(turn.rolls, turn.photos), start=1):
        if photo is None:
            continue
        source = None
        if photo.shown and embed:
            photo, source = embedded(photo)
        title = html.escape(f"turn {turn.number}, roll {number}: {roll}")
        if source is not None:
            shown.append(f'<img class="roll" tabindex="0" src="{html.escape(source)}" width="{width}" alt="{title}" title="{title} (click to enlarge)">')
        elif photo.shown:
            shown.append(f'<img src="{html.escape(picture_resource(photo))}" width="{width}" alt="{title}" title="{title}">')
        else:
            shown.append(f'<span class="missing">roll {number}: {html.escape(photo.note())}</span>')
    lines = [" ".join(shown[start : start + across]) for start in range(0, len(shown), across)]
    return f"<td>{'<br>'.join(lines)}</td>"


def html_text(
    sheet: ScoreSheet, picture_width: int | None = None, pages: PageBreaks = PageBreaks(), embed: bool = True, race_room: int = 0
) -> str:
    """The sheet as an HTML page (also what the PDF prints), the rolls' pictures ``picture_width``
    pixels wide (default: the :func:`thumbnail_width` for the number of players): a self-contained
    file holding each picture as the game kept it (``embed``), which can be sent, opened on a phone
    or kept after the game is deleted; else naming each by :func:`picture_resource` (for the PDF,
    which hands Qt the pictures by those names), never by where this computer keeps it. The sheet's score race is drawn under the
    scores as SVG, or (``race_room``, for the PDF, which paints it itself) that many pixels are kept
    empty under its heading. Printed, it starts new pages where ``pages`` says."""
    e = html.escape
    width = picture_width or thumbnail_width(len(sheet.players))
    result = f"Winner: {' and '.join(sheet.winners)}" if sheet.over else "Game in progress"
    parts = [
        "<!DOCTYPE html>",
        '<html><head><meta charset="utf-8"><title>Farkle score sheet</title>',
        "<style>body{font-family:sans-serif} table{border-collapse:collapse} "
        "td,th{border:1px solid #888;padding:3px 6px} th{background:#eee} .turns th, .turns td{white-space:nowrap} .turns td.wraps{white-space:normal} .farkle{color:#b00} .missing{color:#b00;font-size:small} "
        ".roll{cursor:zoom-in} .roll:focus{width:auto;max-width:90vw;cursor:zoom-out}</style>",
        "</head><body>",
        "<h1>Farkle score sheet</h1>",
        f"<p>Started {e(readable_time(sheet.started_at))}; exported {e(readable_time(sheet.exported_at))}.<br>",
        f"Rules: {e(sheet.rules[0])}. Played to {sheet.target:,}.</p>",
        f"<h2>{e(result)}</h2>",
    ]
    if sheet.in_progress:
        parts.append(f"<p>{e(sheet.in_progress)}</p>")
    parts.append('<table border="1" cellspacing="0" cellpadding="4"><tr>')
    parts += [_cell(h, "th") for h in ("Player", "Score", "Farkles")]
    parts.append("</tr>")
    for name, score, farkles in zip(sheet.players, sheet.scores, sheet.farkles):
        mark = " (winner)" if name in sheet.winners else ""
        parts.append(f"<tr>{_cell(name + mark)}{_cell(f'{score:,}', align='right')}{_cell(farkles, align='right')}</tr>")
    parts.append("</table>")
    if sheet.race is not None and sheet.race.turns and race_room:
        parts.append(f'<h2 style="margin-bottom: {race_room}px">{RACE_HEADING}</h2>')
    elif sheet.race is not None and sheet.race.turns:
        parts.append(f'<h2>{RACE_HEADING}</h2><p class="race">{race_svg(sheet.race, *SHEET_RACE)}</p>')
    parts.append(f"<h2{NEW_PAGE if 0 in pages.turns else ''}>Turns</h2>")
    if embed and any(photo is not None and photo.shown for turn in sheet.turns for photo in turn.photos):
        parts.append("<p><small>Click a roll's picture to see it larger, anywhere else to make it small again.</small></p>")
    columns = ("#", "Player", "Rolls", *(("Pictures",) if sheet.with_photos else ()), "Kept", "Outcome", "Points", "Penalty")
    heading = "<thead><tr>" + "".join(_cell(h, "th") for h in (*columns, *sheet.players)) + "</tr></thead>"
    table = '<table class="turns" border="1" cellspacing="0" cellpadding="4" width="100%"{}>'
    parts.append(table.format("") + heading)
    for place, turn in enumerate(sheet.turns):
        if place in pages.turns and place > 0:
            parts.append("</table>" + table.format(NEW_PAGE) + heading)
        kept = list(turn.kept) + list(turn.entries())
        outcome = f'<td class="wraps{" farkle" if turn.farkle else ""}">{e(turn.outcome)}</td>'
        parts.append(
            "<tr>"
            + _cell(turn.number)
            + _cell(turn.player)
            + f"<td>{'<br>'.join(e(roll) for roll in turn.rolls)}</td>"
            + (_photo_cells(turn, width, pages.pictures_across.get(place, 1), embed) if sheet.with_photos else "")
            + f"<td>{'<br>'.join(e(keep) for keep in kept)}</td>"
            + outcome
            + _cell(f"{turn.points:,}", align="right")
            + _cell(f"{turn.penalty:,}" if turn.penalty else "", align="right")
            + "".join(_cell(f"{total:,}", align="right") for total in turn.totals)
            + "</tr>"
        )
    parts.append(f'</table><h2{NEW_PAGE if pages.statistics else ""}>Statistics</h2><table border="1" cellspacing="0" cellpadding="4"><tr>')
    parts += [_cell(h, "th") for h in STATS_HEADER]
    parts.append("</tr>")
    for row in sheet.statistics:
        parts.append("<tr>" + "".join(_cell(cell, align="right" if i else "") for i, cell in enumerate(row)) + "</tr>")
    parts.append(f"</table><p><small>{e(STATS_NOTE)}</small></p><p>{e(sheet.fairness)}</p>")
    parts.append(f"<h2{NEW_PAGE if pages.rules else ''}>Rules in force</h2><ul>")
    parts += [f"<li>{e(line)}</li>" for line in sheet.rules[1:]]
    parts.append("</ul></body></html>")
    return "\n".join(parts) + "\n"


SHEET_STARTS = (
    b"scorekeeper score sheet\r\n",
    b'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Farkle score sheet</title>',
)
"""How the CSV and the HTML sheets this program writes begin."""
PDF_CREATOR = b"/Creator (\xfe\xff" + "scorekeeper".encode("utf-16-be") + b")"
"""How the PDF sheets this program writes name it as their creator (Qt writes it in UTF-16, in the
information near the file's start)."""
HEAD = 2048
"""The bytes of a file read to tell whether it is a score sheet this program wrote."""


def is_score_sheet(head: bytes) -> bool:
    """Whether a file beginning with ``head`` (its first :data:`HEAD` bytes) is a score sheet this
    program wrote, in any format.

    >>> is_score_sheet(b"scorekeeper score sheet\\r\\nstarted,2026-01-01"), is_score_sheet(b"a line of notes")
    (True, False)
    """
    if head.startswith(b"%PDF-"):
        return PDF_CREATOR in head
    return head.startswith(SHEET_STARTS)


def _beginning(head: bytes) -> str:
    """How a file beginning with ``head`` begins, in words."""
    if not head:
        return "it is empty"
    line = head[:200].split(b"\n")[0].decode("utf-8", "replace").rstrip("\r")
    if not line.isprintable():
        return "it does not begin as text"
    return f"it begins {quote(line, 50)}"


def refuse_what_is_not_a_sheet(path: Path) -> None:
    """Refuse to replace a regular file that is not a score sheet this program wrote (notes, a
    spreadsheet, anything): a sheet replaces only an older sheet."""
    head = read_head(path, "file", HEAD, ExportError)
    if not is_score_sheet(head):
        raise ExportError(
            f"{path}: not a score sheet this program wrote ({_beginning(head)}), and a score sheet replaces only "
            "an older one; choose another file name for the sheet, or delete this file first if it is not wanted"
        )


def refuse_link(path: Path) -> None:
    """Refuse a symbolic link (one that leads nowhere included) as a score sheet's file: a sheet is
    written to a file of its own name, never through a link."""
    if not path.is_symlink():
        return
    try:
        os.stat(path)
        leads = ""
    except OSError as exc:
        leads = ", in a loop of symbolic links" if exc.errno == errno.ELOOP else ", which does not exist"
    raise ExportError(
        f"{path}: a symbolic link (to {os.readlink(path)!r}{leads}), and a score sheet is never written through a link; "
        "choose another file name for the sheet, or delete the link first"
    )


def refuse_game_file(path: Path) -> None:
    """Refuse to write a score sheet over a game: a journal or a saved game (the one exported or any other)."""
    kind = game_file_kind(path)
    if kind is not None:
        raise ExportError(
            f"{path}: this file holds a game (a {kind}), and a score sheet never replaces one; "
            "choose another file name for the sheet"
        )


def check_sheet_target(path: Path) -> None:
    """Refuse a place no score sheet may go, before anything is drawn or opened there: a missing
    folder, a symbolic link, anything but a regular file (a device such as ``/dev/null``, a pipe, a
    socket, a folder), a game, a file in a game's own folder of pictures, or a file that is not a
    score sheet this program wrote."""
    refuse_link(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise cannot_write(path, exc) from None
    kind = what_it_is(mode) if mode is not None else None
    if kind is not None:
        raise ExportError(
            f"{path}: not a regular file ({kind}); a score sheet is written only to a regular file: "
            "name a new file, or an old sheet to replace"
        )
    if not path.parent.is_dir():
        raise ExportError(f"{path}: cannot write the score sheet: there is no folder {path.parent}")
    for folder in (path.parent.resolve(), *path.parent.resolve().parents):
        if folder.name.endswith(FOLDER_SUFFIX):
            for game in (folder.with_name(folder.name.removesuffix(FOLDER_SUFFIX) + ending) for ending in (".jsonl", ".json")):
                if game_file_kind(game) is not None:
                    raise ExportError(
                        f"{path}: this folder holds the pictures of the game {game}, and a score sheet "
                        "never goes there; choose a file outside it"
                    )
    refuse_game_file(path)
    if mode is not None:
        refuse_what_is_not_a_sheet(path)


def cannot_write(path: Path, exc: OSError) -> ExportError:
    """The error of a sheet the system would not let be written, a full disk said to be one."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        reason = "the disk is full (no space left on the device); free some space, or write the sheet to another disk"
    else:
        reason = exc.strerror or str(exc)
    return ExportError(f"{path}: cannot write the score sheet: {reason}")


def write_sheet_file(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` whole or not at all (``write_atomically``), once
    :func:`check_sheet_target` allows it: a replaced sheet keeps its mode, a new one gets the
    user's normal mode, and what the disk refuses is said as :func:`cannot_write` says it."""
    check_sheet_target(path)
    try:
        write_atomically(path, data)
    except OSError as exc:
        raise cannot_write(path, exc) from None


def size_in_words(size: int) -> str:
    """A file's size in bytes as people say it.

    >>> size_in_words(800), size_in_words(61_400), size_in_words(2_345_678)
    ('1 KB', '61 KB', '2.3 MB')
    """
    return f"{size / 1e6:.1f} MB" if size >= 1_000_000 else f"{max(1, round(size / 1000))} KB"


def written_words(path: Path, kind: str) -> str:
    """What a user is told once a sheet of format ``kind`` is written to ``path``: where, what the
    file holds, and its size."""
    return f"Score sheet written to {path}: {SHEET_FILES[kind]} ({size_in_words(path.stat().st_size)})."

