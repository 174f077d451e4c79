"""The score sheet as a printable PDF, drawn by Qt's own PDF writer from the sheet's HTML.

The pages are planned, not left to Qt's table layout (which cuts a row between two lines of a
cell): the sheet is laid out once without pages to measure each turn's row and the closing
sections, then the turns table starts again, with its heading row, on a new page above a turn that
would not fit on the rest of the page, and the statistics or the rules start a new page where they
would be cut. A turn whose pictures one below another would be taller than a page prints them
smaller, two or three to a line; one taller than a page even so (dozens of rolls) starts a page and
goes on over the next, the heading row repeated. A plain function like the CSV and HTML exports;
with the race painter, the only modules outside ``scorekeeper.ui`` that import Qt, so nothing loads it
until a PDF is asked for (:func:`scorekeeper.export.write.sheet_bytes` imports it then): the command
line starts without Qt. The score race is painted under the scores as vectors, by the painter the
window uses too (:func:`scorekeeper.export.race_painter.paint_race`), in the room the sheet's HTML
keeps for it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QBuffer, QIODevice, QMarginsF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QFont,
    QGuiApplication,
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QTextBlock,
    QTextDocument,
    QTextTable,
)
from PySide6.QtWidgets import QApplication

from scorekeeper.export.race_painter import paint_race
from scorekeeper.export.sheet import ScoreSheet, score_sheet
from scorekeeper.export.writers import RACE_HEADING, ExportError, PageBreaks, html_text, picture_resource, thumbnail_width
from scorekeeper.game import Event
from scorekeeper.game.photos import PhotoStatus, read_photo

MARGIN_MM = 15
"""The page's margins, millimetres."""
FOOTER_MM = 7
"""Room kept at the foot of each page, inside the margin, for its number; millimetres."""
SLACK_MM = 2.0
"""How much room a planned page keeps spare below its last row, millimetres, for what the row
measured without pages leaves out (the table's borders); doubled while a row is still cut."""
MOST_ACROSS = 3
"""The most pictures side by side on a line of a turn too tall for a page."""
RACE_TYPE_POINTS = 9
"""The score race's type size on its page, points."""
RACE_SHARE = 0.25
"""How much of a page's height the score race takes."""


_started: list[QApplication] = []
"""The application started here, kept alive for the rest of the process."""


def ensure_gui() -> None:
    """Fonts and painting need a Qt application; start an off-screen one if there is none (a widgets
    application, so that windows can still be opened in the same process afterwards)."""
    if QGuiApplication.instance() is None:
        if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        _started.append(QApplication([]))


def with_pictures_loaded(sheet: ScoreSheet) -> tuple[ScoreSheet, dict[str, QImage]]:
    """Each roll's picture the sheet shows, read by Qt and keyed by the name the sheet's HTML gives
    it (:func:`~scorekeeper.export.writers.picture_resource`); and the sheet with any that Qt cannot read marked damaged (the line then says so
    instead of drawing a broken picture)."""
    turns = []
    images: dict[str, QImage] = {}
    for turn in sheet.turns:
        photos = []
        for photo in turn.photos:
            if photo is not None and photo.shown:
                data = read_photo(photo.path)
                image = QImage.fromData(data) if data is not None else QImage()
                if image.isNull():
                    photo = replace(photo, status=PhotoStatus.DAMAGED)
                else:
                    images[picture_resource(photo)] = image
            photos.append(photo)
        turns.append(replace(turn, photos=tuple(photos)))
    return replace(sheet, turns=tuple(turns)), images


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


@dataclass(frozen=True)
class Measures:
    """Where the parts of a laid-out sheet lie, in the document's units from its top (a page is a
    stretch of :attr:`PrintedPages.height` of them)."""

    turns_heading: float
    """The top of the "Turns" heading."""
    table_top: float
    """The top of the (first) turns table."""
    rows: tuple[tuple[float, float], ...]
    """Each turn's row: the top and the bottom of its cells' text and pictures."""
    table_bottom: float
    """The bottom of the (last) turns table."""
    statistics: tuple[float, float]
    """The top of the statistics' heading and the bottom of their last paragraph."""
    rules: tuple[float, float]
    """The top of the rules' heading and the bottom of the last rule."""


def _blocks(first: QTextBlock, last: QTextBlock) -> Iterator[QTextBlock]:
    """The blocks from ``first`` to ``last``, both included."""
    block = first
    while block.isValid():
        yield block
        if block == last:
            return
        block = block.next()


def measure(document: QTextDocument) -> Measures:
    """Where the turns' rows and the closing sections of the sheet in ``document`` lie."""
    layout = document.documentLayout()
    tables = [frame for frame in document.rootFrame().childFrames() if isinstance(frame, QTextTable)]
    turns_tables = tables[1:-1]
    rows = []
    for table in turns_tables:
        for row in range(1, table.rows()):
            rects = [
                layout.blockBoundingRect(block)
                for column in range(table.columns())
                for block in _blocks(table.cellAt(row, column).firstCursorPosition().block(), table.cellAt(row, column).lastCursorPosition().block())
            ]
            rows.append((min(rect.top() for rect in rects), max(rect.bottom() for rect in rects)))
    headings = {}
    block = document.begin()
    previous = block
    while block.isValid():
        if block.blockFormat().headingLevel() == 2 and document.frameAt(block.position()) == document.rootFrame():
            headings[block.text()] = (layout.blockBoundingRect(block).top(), layout.blockBoundingRect(previous).bottom())
        previous = block
        block = block.next()
    end = layout.blockBoundingRect(document.lastBlock()).bottom()
    return Measures(
        turns_heading=headings["Turns"][0],
        table_top=layout.frameBoundingRect(turns_tables[0]).top(),
        rows=tuple(rows),
        table_bottom=layout.frameBoundingRect(turns_tables[-1]).bottom(),
        statistics=(headings["Statistics"][0], headings["Rules in force"][1]),
        rules=(headings["Rules in force"][0], end),
    )


def row_spans(measures: Measures) -> list[float]:
    """How far each turn's row reaches down the page, to the next row's top (the last: to the
    table's bottom)."""
    tops = [top for top, _ in measures.rows] + [measures.table_bottom]
    return [below - top for top, below in zip(tops, tops[1:])]


def plan_pages(measures: Measures, height: float, slack: float, across: Mapping[int, int]) -> PageBreaks:
    """Where a sheet measured without pages (``measures``) starts new pages of ``height`` units,
    each kept ``slack`` short, so that no row and no closing section is cut (a row taller than a
    page starts one, and what follows it starts the next)."""
    turns: set[int] = set()
    head = measures.rows[0][0] - measures.table_top if measures.rows else 0.0
    y = measures.rows[0][0] if measures.rows else measures.table_bottom
    after_tall = False
    for place, span in enumerate(row_spans(measures)):
        tall = span > height - head - slack
        page = math.floor(y / height)
        if after_tall or tall or y + span > (page + 1) * height - slack:
            turns.add(place)
            y = (page + 1) * height + (measures.rows[0][0] - measures.turns_heading if place == 0 else head)
        y += span
        after_tall = tall
    breaks = []
    gap = measures.statistics[0] - measures.table_bottom
    for top, bottom in (measures.statistics, measures.rules):
        size = bottom - top
        page = math.floor(y / height)
        new = after_tall or (y + gap + size > (page + 1) * height - slack and size <= height - slack)
        y = ((page + 1) * height if new else y + gap) + size
        breaks.append(new)
        after_tall = False
        gap = measures.rules[0] - measures.statistics[1]
    return PageBreaks(frozenset(turns), breaks[0], breaks[1], dict(across))


def cut_across_pages(measures: Measures, height: float) -> list[str]:
    """What a paginated layout (``measures``) cuts across two pages, of what fits on one: the turns
    (by their place) and the closing sections."""
    def cut(top: float, bottom: float) -> bool:
        return bottom - top < height and math.floor(top / height) != math.floor((bottom - 1) / height)

    cuts = [f"turn {place}" for place, (top, bottom) in enumerate(measures.rows) if cut(top, bottom)]
    return cuts + [name for name, part in (("statistics", measures.statistics), ("rules", measures.rules)) if cut(*part)]


@dataclass(frozen=True)
class PrintedPages:
    """The pages the sheet is printed on, and documents of the sheet laid out for them."""

    writer: QPdfWriter
    """Qt's PDF writer, whose device units the documents use."""
    sheet: ScoreSheet
    """The sheet, each picture checked readable."""
    images: dict[str, QImage]
    """The rolls' pictures, by the name the HTML gives them."""

    @property
    def height(self) -> float:
        """The height of a page's body, above the page number, in the writer's units."""
        return self.writer.height() - FOOTER_MM / 25.4 * self.writer.resolution()

    def document(self, pages: PageBreaks, paginated: bool) -> QTextDocument:
        """The sheet laid out with ``pages``' breaks on pages (or on one endless page, to measure)."""
        document = QTextDocument()
        for uri, image in self.images.items():
            document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(uri), image)
        document.documentLayout().setPaintDevice(self.writer)
        room = round(self.height * RACE_SHARE / (self.writer.resolution() / 96))
        document.setHtml(html_text(self.sheet, picture_width(len(self.sheet.players)), pages, embed=False, race_room=room))
        frame = document.rootFrame().frameFormat()
        frame.setMargin(0)
        document.rootFrame().setFrameFormat(frame)
        document.setPageSize(QSizeF(self.writer.width(), self.height if paginated else -1))
        return document


def planned_document(printed: PrintedPages) -> QTextDocument:
    """The sheet laid out on pages that cut no turn and no closing section that fits on one page
    (checked on the layout: where one is cut all the same the pages are planned again with more room
    spare, four times at most, and then printed as they are)."""
    across: dict[int, int] = {}
    measures = measure(printed.document(PageBreaks(), paginated=False))
    slack = SLACK_MM / 25.4 * printed.writer.resolution()
    head = measures.rows[0][0] - measures.table_top if measures.rows else 0.0
    while True:
        taller = [place for place, span in enumerate(row_spans(measures)) if span > printed.height - head - slack and across.get(place, 1) < MOST_ACROSS]
        if not taller:
            break
        across.update({place: across.get(place, 1) + 1 for place in taller})
        measures = measure(printed.document(PageBreaks(pictures_across=across), paginated=False))
    for _ in range(4):
        document = printed.document(plan_pages(measures, printed.height, slack, across), paginated=True)
        if not cut_across_pages(measure(document), printed.height):
            break
        slack *= 2
    return document


def race_area(document: QTextDocument) -> QRectF | None:
    """Where the laid-out ``document`` keeps room for the score race: under its heading, down to
    the next heading (None where the sheet has no race)."""
    layout = document.documentLayout()
    block = document.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() == 2 and block.text() == RACE_HEADING and block.next().isValid():
            top = layout.blockBoundingRect(block).bottom()
            bottom = layout.blockBoundingRect(block.next()).top() - block.next().blockFormat().topMargin()
            return QRectF(0, top, document.pageSize().width(), bottom - top)
        block = block.next()
    return None


def paint_pages(document: QTextDocument, printed: PrintedPages) -> None:
    """Paint the paginated ``document`` on the writer's pages, each numbered at its foot, and the
    score race, as vectors, in the room the document keeps for it."""
    height = printed.height
    width = printed.writer.width()
    count = document.pageCount()
    race = printed.sheet.race
    area = race_area(document)
    size = RACE_TYPE_POINTS / 72 * printed.writer.resolution()
    painter = QPainter(printed.writer)
    try:
        palette = QPalette()
        palette.setColor(QPalette.ColorRole.Text, Qt.GlobalColor.black)
        for page in range(count):
            if page:
                printed.writer.newPage()
            painter.save()
            painter.translate(0, -page * height)
            view = QRectF(0, page * height, width, height)
            painter.setClipRect(view)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.clip = view
            context.palette = palette
            document.documentLayout().draw(painter, context)
            if race is not None and area is not None and view.intersects(area):
                paint_race(painter, race, area, size)
            painter.restore()
            painter.setFont(QFont(document.defaultFont()))
            painter.setPen(Qt.GlobalColor.black)
            number = f"page {page + 1} of {count}"
            footer = QRectF(0, height, width, printed.writer.height() - height)
            painter.drawText(footer, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom), number)
    finally:
        painter.end()


def pdf_bytes(events: Sequence[Event], exported_at: str | None = None, journal: Path | None = None) -> bytes:
    """The game's score sheet as an A4 PDF; with each roll's picture kept beside ``journal`` beside
    its line, if given (then in landscape). Drawn in memory: nothing is written."""
    ensure_gui()
    sheet, images = with_pictures_loaded(score_sheet(events, exported_at, journal))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setTitle("Farkle score sheet")
    writer.setCreator("scorekeeper")
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), orientation(sheet), QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM)))
    printed = PrintedPages(writer, sheet, images)
    paint_pages(planned_document(printed), printed)
    del printed, writer
    data = bytes(buffer.data().data())
    if not data:
        raise ExportError("Qt's PDF writer drew nothing for the score sheet")
    return data

