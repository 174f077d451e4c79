"""The window: the only package that imports Qt (PySide6), besides the PDF writer of :mod:`scorekeeper.export.pdf`
and the race painter it shares with the window (:mod:`scorekeeper.export.race_painter`).

Views take model objects: the :class:`~scorekeeper.ui.controller.GameController`
owns the game and its journal, tables are ``QAbstractTableModel`` s, and capture
and detection run in a ``QThread`` worker that talks by signals.
"""
