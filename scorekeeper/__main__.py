"""``python -m scorekeeper`` runs the same command line as ``scorekeeper``."""

from scorekeeper.cli import main

raise SystemExit(main())
