"""The score sheet as a printable PDF, drawn by Qt's own PDF writer from the sheet's HTML.

A plain function like the CSV and HTML exports; it lives in the UI package only
because it needs Qt (nothing outside ``scorekeeper.ui`` imports PySide6).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QMarginsF, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication

from scorekeeper.export import ExportError, ScoreSheet, html_text, score_sheet
from scorekeeper.export.writers import refuse_game_file, thumbnail_width
from scorekeeper.game import Event
from scorekeeper.game.photos import PhotoStatus
from scorekeeper.game.save import new_file_mode


_started: list[QApplication] = []
"""The application started here, kept alive for the rest of the process."""


def ensure_gui() -> None:
    """Fonts and painting need a Qt application; start an off-screen one if there is none (a widgets
    application, so that windows can still be opened in the same process afterwards)."""
    if QGuiApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _started.append(QApplication([]))


def with_pictures_loaded(sheet: ScoreSheet, document: QTextDocument) -> ScoreSheet:
    """Hand ``document`` each roll's picture the sheet shows, and return the sheet with any that Qt
    cannot read marked damaged (the line then says so instead of drawing a broken picture)."""
    turns = []
    for turn in sheet.turns:
        photos = []
        for photo in turn.photos:
            if photo is not None and photo.shown:
                image = QImage(str(photo.path))
                if image.isNull():
                    photo = replace(photo, status=PhotoStatus.DAMAGED)
                else:
                    document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(photo.path.resolve().as_uri()), image)
            photos.append(photo)
        turns.append(replace(turn, photos=tuple(photos)))
    return replace(sheet, turns=tuple(turns))


def picture_width(players: int) -> int:
    """How wide a roll's picture is printed, pixels: larger than on the HTML page, where a click
    opens it, as the landscape page has the room (the whole picture is kept in the PDF, to zoom into).

    >>> picture_width(2), picture_width(6)
    (240, 160)
    """
    return thumbnail_width(players) + 80


def orientation(sheet: ScoreSheet) -> QPageLayout.Orientation:
    """How the sheet is printed: landscape where a column of the rolls' pictures needs the room, else portrait."""
    return QPageLayout.Orientation.Landscape if sheet.with_photos else QPageLayout.Orientation.Portrait


def export_pdf(events: Sequence[Event], path: str | Path, exported_at: str | None = None, journal: Path | None = None) -> None:
    """Write the game's score sheet as an A4 PDF, whole or not at all; with each roll's picture kept
    beside ``journal`` beside its line, if given (then in landscape)."""
    path = Path(path)
    if not path.parent.is_dir():
        raise ExportError(f"{path}: cannot write the score sheet: there is no folder {path.parent}")
    refuse_game_file(path)
    ensure_gui()
    document = QTextDocument()
    sheet = with_pictures_loaded(score_sheet(events, exported_at, journal), document)
    document.setHtml(html_text(sheet, picture_width(len(sheet.players))))
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write the score sheet: {exc.strerror or exc}") from None
    os.fchmod(handle, new_file_mode())
    os.close(handle)
    try:
        writer = QPdfWriter(temporary)
        writer.setTitle("Farkle score sheet")
        writer.setCreator("scorekeeper")
        writer.setPageLayout(
            QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation(sheet), QMarginsF(15, 15, 15, 15))
        )
        document.print_(writer)
        del writer
        if os.path.getsize(temporary) == 0:
            raise ExportError(f"{path}: Qt's PDF writer produced nothing")
        os.replace(temporary, path)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write the score sheet: {exc.strerror or exc}") from None
    finally:
        Path(temporary).unlink(missing_ok=True)
