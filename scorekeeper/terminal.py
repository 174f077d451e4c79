"""Text for the terminal: what files and names hold, shown with its control characters made visible.

A player's name, a rules file's title or a note quoting a file can hold control characters, an
escape sequence among them (``\\x1b[2J`` clears the screen); printed raw, the terminal would act on
them. :func:`visible` writes each one out as its escape instead, and leaves every other character
(accents, CJK, emoji) as it is. Every command that prints such text to the terminal prints it
through :func:`visible`.

>>> visible("Zoë 山田 \\x1b[2J\\r\\x07")
'Zoë 山田 \\\\x1b[2J\\\\r\\\\x07'
>>> print(visible("line one\\nline two\\tend"))
line one
line two\\tend
"""

from __future__ import annotations

import unicodedata

_NAMED = {"\t": "\\t", "\r": "\\r"}

_SHOWN = {
    code: _NAMED.get(chr(code), f"\\x{code:02x}")
    for code in range(0x100)
    if unicodedata.category(chr(code)) == "Cc" and chr(code) != "\n"
}
"""Each control character (C0, DEL and C1) but the line break, and how it is shown."""


def visible(text: str) -> str:
    """``text`` with every control character but the line break written out as its escape
    (``\\x1b``, ``\\r``, ``\\t``), so the terminal shows it rather than acts on it."""
    return text.translate(_SHOWN)
