"""The score sheet as a printable PDF, drawn by Qt's own PDF writer from the sheet's HTML.

A plain function like the CSV and HTML exports; it lives in the UI package only
because it needs Qt (nothing outside ``scorekeeper.ui`` imports PySide6).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QUrl
from PySide6.QtGui import QGuiApplication, QImage, QPageLayout, QPageSize, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication

from scorekeeper.export import ExportError, ScoreSheet, html_text, score_sheet
from scorekeeper.export.writers import check_sheet_target, thumbnail_width, write_sheet_file
from scorekeeper.game import Event
from scorekeeper.game.photos import PhotoStatus, read_photo


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
                data = read_photo(photo.path)
                image = QImage.fromData(data) if data is not None else QImage()
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


def pdf_bytes(events: Sequence[Event], exported_at: str | None = None, journal: Path | None = None) -> bytes:
    """The game's score sheet as an A4 PDF; with each roll's picture kept beside ``journal`` beside
    its line, if given (then in landscape). Drawn in memory: nothing is written."""
    ensure_gui()
    document = QTextDocument()
    sheet = with_pictures_loaded(score_sheet(events, exported_at, journal), document)
    document.setHtml(html_text(sheet, picture_width(len(sheet.players))))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle("Farkle score sheet")
    writer.setCreator("scorekeeper")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation(sheet), QMarginsF(15, 15, 15, 15)))
    document.print_(writer)
    del writer
    data = bytes(buffer.data().data())
    if not data:
        raise ExportError("Qt's PDF writer drew nothing for the score sheet")
    return data


def export_pdf(events: Sequence[Event], path: str | Path, exported_at: str | None = None, journal: Path | None = None) -> None:
    """Write the game's score sheet as an A4 PDF (see :func:`pdf_bytes`), whole or not at all, where
    a sheet may go (see :func:`~scorekeeper.export.writers.check_sheet_target`)."""
    path = Path(path)
    check_sheet_target(path)
    write_sheet_file(path, pdf_bytes(events, exported_at, journal))
