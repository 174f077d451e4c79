"""Writing a score sheet in any of its formats: the one place that picks the writer by format.

The window's Export menu, ``scorekeeper export`` and ``watch --sheet`` all write through
:func:`write_sheet`. The PDF is drawn by Qt, so :mod:`scorekeeper.export.pdf` is imported only when
a PDF is asked for: the command line starts, and writes CSV and HTML, without Qt.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from scorekeeper.export.sheet import score_sheet
from scorekeeper.export.writers import FORMATS, ExportError, check_sheet_target, csv_text, html_text, write_sheet_file
from scorekeeper.game import Event
from scorekeeper.safe_input import quote


@contextmanager
def interrupts_held() -> Iterator[Callable[[], bool]]:
    """Within the block Ctrl+C only takes note, and the block runs to its end (Qt must not be
    interrupted in the middle of a call: that ends in a fatal error); yields whether it was pressed.
    Where Ctrl+C is ignored, or off the main thread, nothing changes."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield lambda: bool(pressed)
    finally:
        signal.signal(signal.SIGINT, previous)


def sheet_bytes(events: Sequence[Event], kind: str, exported_at: str | None = None, journal: Path | None = None) -> bytes:
    """The score sheet of ``events`` as ``kind`` (one of :data:`~scorekeeper.export.writers.FORMATS`),
    with the pictures of the rolls kept beside ``journal`` if it is given. Drawn in memory: nothing
    is written."""
    if kind == "csv":
        return csv_text(score_sheet(events, exported_at, journal)).encode("utf-8")
    if kind == "html":
        return html_text(score_sheet(events, exported_at, journal)).encode("utf-8")
    if kind == "pdf":
        from scorekeeper.export.pdf import pdf_bytes

        return pdf_bytes(events, exported_at, journal)
    raise ExportError(f"score sheet format {quote(kind)}: the formats are {', '.join(FORMATS)}")


def write_sheet(
    events: Sequence[Event],
    path: Path,
    kind: str,
    journal: Path | None = None,
    exported_at: str | None = None,
    hold_interrupts: bool = False,
) -> None:
    """Write the score sheet of ``events`` to ``path`` as ``kind``, whole or not at all, where a sheet
    may go (:func:`~scorekeeper.export.writers.check_sheet_target` is asked before anything is drawn),
    with the pictures of the rolls kept beside ``journal`` if it is given. With ``hold_interrupts``
    (the command line), Ctrl+C while the sheet is drawn stops it before anything is written
    (:class:`KeyboardInterrupt`)."""
    check_sheet_target(path)
    if hold_interrupts:
        with interrupts_held() as pressed:
            data = sheet_bytes(events, kind, exported_at, journal)
        if pressed():
            raise KeyboardInterrupt
    else:
        data = sheet_bytes(events, kind, exported_at, journal)
    write_sheet_file(path, data)


def export_csv(events: Sequence[Event], path: str | Path, exported_at: str | None = None, journal: Path | None = None) -> None:
    """Write the game's score sheet as CSV; naming each roll's picture kept beside ``journal``, if given."""
    write_sheet(events, Path(path), "csv", journal, exported_at)


def export_html(events: Sequence[Event], path: str | Path, exported_at: str | None = None, journal: Path | None = None) -> None:
    """Write the game's score sheet as one self-contained HTML page; with each roll's picture kept
    beside ``journal``, if given, inside it (a click on one shows it larger)."""
    write_sheet(events, Path(path), "html", journal, exported_at)


def export_pdf(events: Sequence[Event], path: str | Path, exported_at: str | None = None, journal: Path | None = None) -> None:
    """Write the game's score sheet as an A4 PDF (see :func:`scorekeeper.export.pdf.pdf_bytes`)."""
    write_sheet(events, Path(path), "pdf", journal, exported_at)
