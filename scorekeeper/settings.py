"""The window's settings that outlive a session, kept as ``settings.json`` in the scorekeeper home folder.

A file that cannot be read leaves every setting at its default and says why; saving replaces the
file whole (:func:`~scorekeeper.safe_output.write_atomically`).

>>> import tempfile
>>> home = Path(tempfile.mkdtemp())
>>> load_settings(home)
(Settings(keep_photos=True, stream_address='', phone_reach=''), '')
>>> save_settings(home, Settings(keep_photos=False))
>>> load_settings(home)[0].keep_photos
False
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from scorekeeper.safe_input import parse_json, read_text
from scorekeeper.safe_output import write_atomically

FILE = "settings.json"
"""The settings file's name in the home folder."""
MAX_SETTINGS_BYTES = 100_000
"""The largest settings file read: the window writes well under 1,000 bytes."""
MAX_ADDRESS = 2_000
"""The longest camera address kept: a phone's is some 30 characters."""
PHONE_REACHES = ("", "network", "this machine")
"""What :attr:`Settings.phone_reach` may be."""


@dataclass(frozen=True)
class Settings:
    """What the players chose in the window, for every later start."""

    keep_photos: bool = True
    """Whether each roll the camera takes keeps a picture beside the game's journal."""
    stream_address: str = ""
    """The IP camera's address last typed in the Camera menu (a phone's ``http://PHONE:8080/video``); "" if none."""
    phone_reach: str = ""
    """Whom the phones' scoreboard was last shared with: "network" (the phones on this machine's
    network) or "this machine" (only it); "" if never chosen."""


def load_settings(home: Path) -> tuple[Settings, str]:
    """The settings saved in ``home`` (the defaults where there are none), and what was wrong with
    the file if it could not be used ("" if nothing)."""
    path = home / FILE
    if not os.path.lexists(path):
        return Settings(), ""
    try:
        data = parse_json(read_text(path, "settings file", limit=MAX_SETTINGS_BYTES), str(path))
    except ValueError as exc:
        return Settings(), f"{exc}; the default settings are used"
    keep = data.get("keep_photos", True) if isinstance(data, dict) else None
    if not isinstance(keep, bool):
        return Settings(), f"{path}: 'keep_photos' must be true or false; the default settings are used"
    address = data.get("stream_address", "")
    if not isinstance(address, str) or len(address) > MAX_ADDRESS:
        return Settings(keep_photos=keep), f"{path}: 'stream_address' must be a camera's address (text); it is not used"
    reach = data.get("phone_reach", "")
    if reach not in PHONE_REACHES:
        return Settings(keep_photos=keep, stream_address=address), (
            f"{path}: 'phone_reach' is {reach!r}, not \"network\" or \"this machine\"; the phones' scoreboard is shared as if never chosen"
        )
    return Settings(keep_photos=keep, stream_address=address, phone_reach=reach), ""


def save_settings(home: Path, settings: Settings) -> None:
    """Save ``settings`` in ``home`` for the next start (raises OSError when the disk refuses)."""
    home.mkdir(parents=True, exist_ok=True)
    write_atomically(home / FILE, json.dumps(asdict(settings), indent=2) + "\n")


def remember_phone_reach(home: Path, reach: str) -> None:
    """Keep whom the phones' scoreboard reaches (one of :data:`PHONE_REACHES`) in ``home``'s settings,
    the others as they are (raises OSError when the disk refuses)."""
    if reach not in PHONE_REACHES:
        raise ValueError(f"phone reach {reach!r}: not one of {PHONE_REACHES}")
    save_settings(home, replace(load_settings(home)[0], phone_reach=reach))
