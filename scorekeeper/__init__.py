"""scorekeeper: keeps score in real games of Farkle.

Packages, in the order the data flows: ``vision`` (camera frames to dice),
``rules`` (what a roll scores), ``game`` (the log of a game and its state),
``cli`` (the command line). ``rules`` and ``game`` are pure Python.
"""

__version__ = "0.1.0"
