"""Shared test set-up: Qt without a screen, for tests and doctests alike."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
