"""A PDF read back as a reader sees it: page sizes and text lines (Qt's own PDF reader). Tests only."""

from __future__ import annotations

from pathlib import Path

A4_POINTS = (210 / 25.4 * 72, 297 / 25.4 * 72)
"""A4, 210 x 297 mm, in PDF points (1/72 inch): about 595.3 x 841.9 (Letter is 612 x 792)."""


def read_pdf(path: Path) -> tuple[list[tuple[float, float]], list[str]]:
    """Each page's size in points, and the text lines of all pages, as a PDF reader sees them."""
    from PySide6.QtPdf import QPdfDocument

    from scorekeeper.export.pdf import ensure_gui

    ensure_gui()
    document = QPdfDocument()
    assert document.load(str(path)) == QPdfDocument.Error.None_
    sizes = [(document.pagePointSize(page).width(), document.pagePointSize(page).height()) for page in range(document.pageCount())]
    lines = [line.strip() for page in range(document.pageCount()) for line in document.getAllText(page).text().splitlines()]
    document.close()
    return sizes, lines
