"""Doctest collection imports every module: skip the torch ones where the train extra is not installed."""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("torch") else ["nets.py", "train.py"]
