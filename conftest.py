"""Shared test set-up, for tests and doctests alike: Qt without a screen, and no
writes into the user's own cache folder."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SCOREKEEPER_CACHE_DIR", tempfile.mkdtemp(prefix="scorekeeper-test-cache-"))
