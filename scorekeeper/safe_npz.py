"""Reading the program's own numpy files (``.npz``: the table file, the die colours file, the coach's
cache) within bounds, checked from their headers before any array is made.

An ``.npz`` file is a zip archive of ``.npy`` members, each a small header (dtype, shape) and the
array's bytes. :func:`read_npz` reads the file through :func:`~scorekeeper.safe_input.read_file`,
refuses it from its zip directory where it holds too many members, a member that is not an array,
or members that would inflate to more than the caller's bound; reads each member's ``.npy`` header
and refuses an object, structured or date dtype, a shape that does not fit the bytes the zip
directory gives, or more bytes than are left of the bound; then inflates the member in bounded
chunks, counting what comes out (a zip directory that lies about a member's size is damage, not
memory), and only then makes the array. Every refusal is the caller's ``ValueError`` subclass,
naming the file and saying what was wrong.
"""

from __future__ import annotations

import io
import math
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import numpy as np
from numpy.lib import format as npy
from numpy.typing import NDArray

from scorekeeper.safe_input import MAX_FILE_BYTES, InputFileError, quote, read_file, shorten

MAX_MEMBERS = 64
"""The most arrays a file may hold: the program's own files hold at most 16."""
MAX_HEADER = 10_000
"""The longest ``.npy`` header read (numpy's own bound): the program's headers are under 200 bytes."""
MAX_DIMENSIONS = 8
"""The most dimensions an array may have: the program's arrays have at most 4."""
KINDS = "biufcUS"
"""The dtype kinds an array may be of (numpy's ``dtype.kind``): booleans, numbers and text."""
CHUNK = 1 << 20
"""Bytes inflated at a time."""
_DIRECTORY_ENTRY = b"PK\x01\x02"
"""What starts each member's entry in a zip file's directory."""
_HEADERS = {(1, 0): npy.read_array_header_1_0, (2, 0): npy.read_array_header_2_0}
"""The ``.npy`` versions read (numpy writes 1.0, and 2.0 only for a header over 64 KB), each with its header's reader."""

_METHODS: dict[int, Callable[[int], int]] = {
    zipfile.ZIP_STORED: lambda size: size,
    zipfile.ZIP_DEFLATED: lambda size: size + size // 1000 + 64,
}
"""The zip methods read, each with the most bytes a member of a given size packs to (deflate's
bound: zlib's ``deflateBound`` is under a thousandth more, plus a few bytes)."""


class _Refused(Exception):
    """Why the file being read is refused (made the caller's error where it is caught)."""


def read_npz(
    path: str | Path, what: str, error: type[ValueError] = InputFileError, limit: int = MAX_FILE_BYTES, advice: str = ""
) -> dict[str, NDArray[Any]]:
    """The arrays of the ``.npz`` file ``path`` (a ``what``), by name, or ``error`` saying why not: at
    most ``limit`` bytes on disk and ``limit`` bytes of arrays in all once inflated. ``advice``, what
    to do about a damaged file, ends the message refusing one."""
    path = Path(path)
    data = read_file(path, what, error, limit)
    try:
        return _arrays(data, limit)
    except _Refused as exc:
        why = str(exc)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, struct.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError) as exc:
        why = f"not a readable zip archive ({_reason(exc)})"
    raise error(f"{what} {str(path)!r} is damaged or not a {what}: {why}" + (f"; {advice}" if advice else ""))


def _arrays(data: bytes, limit: int) -> dict[str, NDArray[Any]]:
    """The arrays of the ``.npz`` file ``data``, at most ``limit`` bytes of them in all."""
    if data.count(_DIRECTORY_ENTRY) > MAX_MEMBERS:
        raise _Refused(f"it holds more than {MAX_MEMBERS} members")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = archive.infolist()
        _check_directory(members, limit)
        arrays: dict[str, NDArray[Any]] = {}
        left = limit
        for member in members:
            with archive.open(member) as stream:
                array = _read_member(stream, member, left)
            arrays[member.filename.removesuffix(".npy")] = array
            left -= array.nbytes
        return arrays


def _reason(exc: BaseException) -> str:
    """What went wrong in ``exc``, in the library's words cut short."""
    return shorten(str(exc)) if str(exc) else type(exc).__name__


def _check_directory(members: list[zipfile.ZipInfo], limit: int) -> None:
    """Refuse a zip directory that names too many members, a member that is not an array, one
    name twice, or more bytes in all than ``limit``."""
    if len(members) > MAX_MEMBERS:
        raise _Refused(f"it holds {len(members):,} members (at most {MAX_MEMBERS})")
    names = [member.filename for member in members]
    strange = [name for name in names if not name.endswith(".npy")]
    if strange:
        raise _Refused(f"it holds {quote(strange[0])}, which is not an array (.npy)")
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise _Refused(f"it holds {quote(twice)} twice")
    total = sum(member.file_size for member in members)
    if total > limit:
        raise _Refused(f"its arrays would take {total:,} bytes once inflated (at most {limit:,})")
    for member in members:
        if member.compress_type not in _METHODS:
            raise _Refused(f"{quote(member.filename)} is packed by zip method {member.compress_type}, not stored or deflated as this program writes")
        if member.compress_size > _METHODS[member.compress_type](member.file_size):
            raise _Refused(
                f"{quote(member.filename)} is {member.compress_size:,} bytes packed, more than {member.file_size:,} bytes "
                "could ever pack to: the zip directory understates what it inflates to"
            )


def _read_member(stream: IO[bytes], member: zipfile.ZipInfo, left: int) -> NDArray[Any]:
    """The array of the ``.npy`` member ``member`` open as ``stream``, checked from its header
    before its bytes are inflated: at most ``left`` bytes (what the file's bound leaves)."""
    name = quote(member.filename)
    try:
        version = npy.read_magic(stream)
        read_header = _HEADERS.get(version)
        if read_header is not None:
            shape, fortran, dtype = read_header(stream, max_header_size=MAX_HEADER)
    except (ValueError, TypeError, SyntaxError, RecursionError) as exc:
        raise _Refused(f"{name} has no readable array header ({_reason(exc)})") from None
    if read_header is None:
        raise _Refused(f"{name} is a .npy file of version {version[0]}.{version[1]}, which this program does not write")
    if dtype.kind not in KINDS:
        raise _Refused(f"{name} holds an array of {dtype} (only numbers and text are read)")
    if len(shape) > MAX_DIMENSIONS or any(size < 0 for size in shape):
        raise _Refused(f"{name} claims the shape {quote(shape)}")
    count = math.prod(shape)
    size = count * dtype.itemsize
    if size > left or count > left:
        raise _Refused(f"{name} claims the shape {quote(shape)} of {dtype}: {size:,} bytes, more than the {left:,} the file may still hold")
    header = stream.tell()
    if header + size != member.file_size:
        raise _Refused(f"{name} claims the shape {quote(shape)} of {dtype} ({size:,} bytes) but holds {member.file_size - header:,}")
    body = bytearray()
    while len(body) <= size:
        chunk = stream.read(min(CHUNK, size + 1 - len(body)))
        if not chunk:
            break
        body += chunk
    if len(body) != size:
        raise _Refused(f"{name} holds {'more' if len(body) > size else 'fewer'} bytes than its header says ({size:,})")
    if size == 0:
        return np.zeros(shape, dtype, order="F" if fortran else "C")
    return np.frombuffer(body, dtype).reshape(shape, order="F" if fortran else "C")
