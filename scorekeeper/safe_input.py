"""Reading files that come from outside (journals, saves, rule files, labels) within bounds.

Every reader of a user's file goes through here, so a damaged, hostile or simply wrong file
gets a clear ``ValueError`` naming the file (and the line, where there is one) instead of a
traceback: only a regular file is opened (a named pipe, a device or a folder is refused from what
``os.stat`` says, so nothing waits on a pipe or reads ``/dev/zero`` for ever), its size is bounded
before it is read, a link that loops or leads nowhere is called that, text must be UTF-8 (a
byte-order mark first is dropped), JSON and TOML may nest only so deep and hold only so many
digits in a whole number, and errors quote at most a short piece of the bad input. Nothing here
writes anything.

>>> parse_json('{"a": [1, 2]}', "f.json")
{'a': [1, 2]}
>>> parse_json("[" * 100 + "]" * 100, "f.json")
Traceback (most recent call last):
...
scorekeeper.safe_input.InputFileError: f.json:1: nested more than 32 deep; not a file this program wrote
>>> parse_json('{"points": ' + "9" * 50 + "}", "f.json", line=3)
Traceback (most recent call last):
...
scorekeeper.safe_input.InputFileError: f.json:3: a whole number of 50 digits (at most 20 allowed)
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

MAX_DEPTH = 32
"""How deep JSON and TOML may nest: this program's files nest at most 6 deep."""
MAX_INT_DIGITS = 20
"""The most digits a whole number in a file may have (a 64-bit number has 19 or 20)."""
MAX_FILE_BYTES = 64_000_000
"""The largest journal, save or rules file read: a long evening's journal is well under 1 MB."""
MAX_QUOTE = 80
"""The most characters of bad input an error message quotes."""

_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\[\]{}]|\n')
_LONG_NUMBER = re.compile(r"[0-9]{%d}" % (MAX_INT_DIGITS + 1))
"""A run of digits longer than a whole number may be: without one, no number needs checking."""


class InputFileError(ValueError):
    """A file that cannot be read as what it should be; the message names the file and says why."""


def quote(value: object, limit: int = MAX_QUOTE) -> str:
    """``repr(value)``, cut to about ``limit`` characters so an error message stays readable.

    >>> quote("Ann")
    "'Ann'"
    >>> quote("1" * 1000)
    "'11111111111111111111111111111111111111111111111111111111111111111111111111111... (1,002 characters)"
    """
    return shorten(repr(value), limit)


def shorten(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` cut to about ``limit`` characters, saying how long it was.

    >>> shorten("x" * 100, 10)
    'xxxxxxxxx... (100 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[: limit - 1]}... ({len(text):,} characters)"


def is_plain_number(text: str) -> bool:
    """Whether ``text`` is a whole number of at most 9 plain digits, as typed numbers are
    (``str.isdigit`` also takes ``²``, which ``int`` refuses, and ``int`` refuses 5,000 digits).

    >>> is_plain_number("400"), is_plain_number("²"), is_plain_number("9" * 5000)
    (True, False, False)
    """
    return text.isascii() and text.isdecimal() and len(text) <= 9


def _where(where: str, line: int | None) -> str:
    return where if line is None else f"{where}:{line}"


def what_it_is(mode: int) -> str | None:
    """What a file of ``mode`` (``os.stat``'s) is when not a regular file, in words (None: a regular file).

    >>> what_it_is(os.stat("/dev/null").st_mode), what_it_is(os.stat("/").st_mode)
    ('a device', 'a folder')
    """
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def why_unreadable(path: Path, what: str, exc: OSError) -> str:
    """Why ``path`` (a ``what``) could not be looked at or opened, in words that say what to do.

    >>> why_unreadable(Path("r.toml"), "rules file", PermissionError(13, "Permission denied"))
    'r.toml: permission denied: this user may not read the rules file; give it read permission (chmod u+r) or copy it somewhere readable'
    """
    if exc.errno == errno.ENOENT:
        if path.is_symlink():
            return f"{path}: a symbolic link to {os.readlink(path)!r}, which does not exist; point it at a {what}"
        return f"{path}: no such {what}"
    if exc.errno == errno.ELOOP:
        return f"{path}: a loop of symbolic links (each leads to the next and back); point the link at a {what}"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return (
            f"{path}: permission denied: this user may not read the {what}; give it read permission (chmod u+r) "
            "or copy it somewhere readable"
        )
    if exc.errno == errno.ENOTDIR:
        return f"{path}: a part of the path before the name is a file, not a folder; no such {what}"
    return f"{path}: cannot read the {what}: {exc.strerror or exc}"


def check_file(path: str | Path, what: str, error: type[ValueError] = InputFileError, limit: int | None = MAX_FILE_BYTES) -> int:
    """The size of ``path`` if it is a regular file (a link to one counts) of at most ``limit`` bytes
    (None: any size), else ``error`` saying why not. Looks without opening, so a named pipe or a
    device is refused before anything could wait on it or read it forever.

    >>> check_file("/dev/zero", "rules file")
    Traceback (most recent call last):
    ...
    scorekeeper.safe_input.InputFileError: /dev/zero: a device, not a rules file; give the path of a rules file (a regular file)
    """
    path = Path(path)
    try:
        status = os.stat(path)
    except OSError as exc:
        raise error(why_unreadable(path, what, exc)) from None
    _check_status(path, status, what, error, limit)
    if not os.access(path, os.R_OK):
        raise error(why_unreadable(path, what, PermissionError(errno.EACCES, "Permission denied")))
    return status.st_size


def check_folder(path: str | Path, what: str, error: type[ValueError] = InputFileError) -> None:
    """Refuse with ``error`` a ``path`` that is not a folder (a link to one counts) this user may list.

    >>> check_folder("/dev/null", "folder of photos")
    Traceback (most recent call last):
    ...
    scorekeeper.safe_input.InputFileError: /dev/null: a device, not a folder of photos
    """
    path = Path(path)
    try:
        status = os.stat(path)
    except OSError as exc:
        raise error(why_unreadable(path, what, exc)) from None
    kind = what_it_is(status.st_mode)
    if kind != "a folder":
        raise error(f"{path}: {kind or 'a file'}, not a {what}")
    if not os.access(path, os.R_OK | os.X_OK):
        raise error(why_unreadable(path, what, PermissionError(errno.EACCES, "Permission denied")))


def _check_status(path: Path, status: os.stat_result, what: str, error: type[ValueError], limit: int | None) -> None:
    kind = what_it_is(status.st_mode)
    if kind == "a folder":
        raise error(f"{path}: is a folder, not a {what}")
    if kind is not None:
        raise error(f"{path}: {kind}, not a {what}; give the path of a {what} (a regular file)")
    if limit is not None and status.st_size > limit:
        raise error(f"{path}: too big for a {what} ({status.st_size:,} bytes; at most {limit:,})")


def _read(path: Path, what: str, error: type[ValueError], limit: int | None, size: int) -> bytes:
    """At most ``size`` bytes from the start of ``path``, checked as :func:`check_file` checks it
    both before it is opened and once it is open."""
    check_file(path, what, error, limit)
    try:
        # O_NONBLOCK: a file swapped for a named pipe since it was looked at must not make the open wait
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise error(why_unreadable(path, what, exc)) from None
    with os.fdopen(handle, "rb") as stream:
        _check_status(path, os.fstat(handle), what, error, limit)
        try:
            return stream.read(size)
        except OSError as exc:
            raise error(why_unreadable(path, what, exc)) from None


def read_file(
    path: str | Path, what: str, error: type[ValueError] = InputFileError, limit: int = MAX_FILE_BYTES
) -> bytes:
    """The bytes of ``path``, a ``what`` ("journal", "rules file" ...), or ``error`` saying why not:
    a regular file of at most ``limit`` bytes (see :func:`check_file`), read no further than that.

    >>> read_file("/no/such/file", "saved game")
    Traceback (most recent call last):
    ...
    scorekeeper.safe_input.InputFileError: /no/such/file: no such saved game
    """
    path = Path(path)
    data = _read(path, what, error, limit, limit + 1)
    if len(data) > limit:
        raise error(f"{path}: too big for a {what} (over {limit:,} bytes)")
    return data


def read_head(path: str | Path, what: str, size: int, error: type[ValueError] = InputFileError) -> bytes:
    """The first ``size`` bytes of ``path`` (all of a shorter file), a regular file of any length,
    or ``error`` saying why not (see :func:`check_file`): enough to tell what kind of file it is."""
    return _read(Path(path), what, error, None, size)


def decode_text(data: bytes, where: str, error: type[ValueError] = InputFileError, line: int | None = None) -> str:
    """``data`` as UTF-8 text, or ``error`` naming the line of the first byte that is not.

    >>> decode_text(b"ok\\nbad \\xff", "labels/a.txt")
    Traceback (most recent call last):
    ...
    scorekeeper.safe_input.InputFileError: labels/a.txt:2: not UTF-8 text (byte 0xff at column 5); save the file as UTF-8
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        number = before.count(b"\n") + 1 if line is None else line
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise error(
            f"{where}:{number}: not UTF-8 text (byte 0x{data[exc.start]:02x} at column {column}); save the file as UTF-8"
        ) from None


def read_text(path: str | Path, what: str, error: type[ValueError] = InputFileError, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (see :func:`read_file` and :func:`decode_text`), less the byte-order
    mark some editors (Windows Notepad) put first."""
    return decode_text(read_file(path, what, error, limit), str(path), error).removeprefix("\ufeff")


def check_depth(text: str, where: str, error: type[ValueError] = InputFileError, line: int | None = None) -> None:
    """Refuse JSON or TOML text whose brackets nest deeper than :data:`MAX_DEPTH` (before a parser
    recurses into them)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    number = 1
    for token in _TOKENS.finditer(text):
        kind = token.group()
        if kind == "\n":
            number += 1
        elif kind in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                at = line if line is not None else number
                raise error(f"{where}:{at}: nested more than {MAX_DEPTH} deep; not a file this program wrote")
        elif kind in "]}":
            depth -= 1


def _bounded_int(where: str, error: type[ValueError]) -> Any:
    def parse(digits: str) -> int:
        count = len(digits.lstrip("-"))
        if count > MAX_INT_DIGITS:
            raise error(f"{where}: a whole number of {count:,} digits (at most {MAX_INT_DIGITS} allowed)")
        return int(digits)

    return parse


def parse_json(text: str, where: str, error: type[ValueError] = InputFileError, line: int | None = None) -> Any:
    """The JSON value of ``text``, or ``error`` naming ``where`` (and ``line``, for a JSON line)."""
    place = _where(where, line)
    check_depth(text, where, error, line)
    try:
        if _LONG_NUMBER.search(text) is None:
            return json.loads(text)
        return json.loads(text, parse_int=_bounded_int(place, error))
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}, column {exc.colno}" if line is None else f"column {exc.colno}"
        raise error(f"{place}: not valid JSON at {at} ({exc.msg})") from None
    except RecursionError:
        raise error(f"{place}: nested too deep; not a file this program wrote") from None


def parse_toml(text: str, where: str, error: type[ValueError] = InputFileError) -> dict[str, Any]:
    """The table of TOML ``text``, or ``error`` naming ``where``."""
    check_depth(text, where, error)
    for match in re.finditer(r"[0-9_]{%d,}" % (MAX_INT_DIGITS + 1), text):
        digits = match.group().replace("_", "")
        if len(digits) > MAX_INT_DIGITS:
            number = text.count("\n", 0, match.start()) + 1
            raise error(f"{where}:{number}: a number of {len(digits):,} digits (at most {MAX_INT_DIGITS} allowed)")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from None
    except (RecursionError, ValueError) as exc:
        raise error(f"{where}: not a usable TOML file: {quote(str(exc))}") from None
