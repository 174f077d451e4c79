"""Score sheets out of a game's log, in every format: CSV and HTML in :mod:`~scorekeeper.export.writers`,
the PDF in :mod:`~scorekeeper.export.pdf` (drawn by Qt), and :mod:`~scorekeeper.export.write`, which
picks the writer by format and writes the file.

Plain functions of the log, outside any widget, so the window, the command line and the tests all
export the same sheet. Loading the package loads no Qt: the PDF writer is imported only when a PDF
is asked for.
"""

from scorekeeper.export.sheet import ScoreSheet, SheetTurn, score_sheet
from scorekeeper.export.write import export_csv, export_html, export_pdf, sheet_bytes, write_sheet
from scorekeeper.export.writers import FORMATS, ExportError, csv_text, html_text

__all__ = [
    "FORMATS",
    "ExportError",
    "ScoreSheet",
    "SheetTurn",
    "csv_text",
    "export_csv",
    "export_html",
    "export_pdf",
    "html_text",
    "score_sheet",
    "sheet_bytes",
    "write_sheet",
]
