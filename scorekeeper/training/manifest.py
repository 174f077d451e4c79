"""Writing a model folder's manifest (the checksums and settings ``OnnxDiceReader`` checks at load):
always whole, then moved into place, so a crash never leaves half a manifest."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from typing import Any

from scorekeeper.safe_input import parse_json, read_text
from scorekeeper.safe_output import write_atomically
from scorekeeper.vision.reader import MANIFEST_FILE, MAX_MANIFEST_BYTES, ModelError


def read_manifest(model_dir: Path) -> Any:
    """The folder's manifest as JSON, read within bounds (raises :class:`ModelError` saying why not)."""
    path = model_dir / MANIFEST_FILE
    return parse_json(read_text(path, "model manifest", ModelError, limit=MAX_MANIFEST_BYTES), str(path), ModelError)


def write_manifest(model_dir: Path, manifest: Mapping[str, object]) -> None:
    """Write ``manifest`` as the folder's manifest, replacing any there."""
    write_atomically(model_dir / MANIFEST_FILE, json.dumps(manifest, indent=2) + "\n")


def update_manifest(model_dir: Path, changes: Mapping[str, object]) -> None:
    """Set top-level entries of the folder's manifest."""
    manifest = read_manifest(model_dir)
    write_manifest(model_dir, {**manifest, **changes})
