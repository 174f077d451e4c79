"""The QR code of the page's address, for the phones to scan off the window (made by segno)."""

from __future__ import annotations

import io

import segno

SCALE = 8
"""Pixels per module of the code: about 300 px for an address with its token, easy to scan off a screen."""


def qr_png(text: str) -> bytes:
    """A PNG of the QR code of ``text``, black on white with the quiet zone the standard asks for.

    >>> qr_png("http://192.168.1.20:8765/abc/")[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=SCALE, border=4)
    return out.getvalue()
