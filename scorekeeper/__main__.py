"""``python -m scorekeeper`` runs the same command line as ``scorekeeper``."""

from scorekeeper.cli import main

# Guarded, as a process that reads games for the history may load this module again where it is started by spawn.
if __name__ == "__main__":
    raise SystemExit(main())
