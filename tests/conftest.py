"""Shared test set-up: Qt without a screen."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
