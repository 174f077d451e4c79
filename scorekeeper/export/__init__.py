"""Score sheets out of a game's log: CSV and HTML here, the PDF in :mod:`scorekeeper.ui.pdf_export`.

Plain functions of the log, outside any widget, so the window, the command line
and the tests all export the same sheet. No Qt here.
"""

from scorekeeper.export.sheet import ScoreSheet, SheetTurn, load_events, score_sheet
from scorekeeper.export.writers import FORMATS, ExportError, csv_text, export_csv, export_html, html_text

__all__ = [
    "FORMATS",
    "ExportError",
    "ScoreSheet",
    "SheetTurn",
    "csv_text",
    "export_csv",
    "export_html",
    "html_text",
    "load_events",
    "score_sheet",
]
