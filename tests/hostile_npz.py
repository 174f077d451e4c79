"""Numpy files (``.npz``) made to hurt a reader: a member whose header claims an enormous shape, a
zip bomb, a zip directory that understates what a member inflates to, an object array."""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Mapping

import numpy as np
from numpy.lib import format as npy
from numpy.typing import NDArray

HUGE = (10**12,)
"""A shape no machine has the memory for."""


def npy_header(dtype: np.dtype[np.generic] | type[np.generic], shape: tuple[int, ...]) -> bytes:
    """The ``.npy`` header numpy writes for an array of ``dtype`` and ``shape``."""
    buffer = io.BytesIO()
    npy.write_array_header_1_0(buffer, {"descr": npy.dtype_to_descr(np.dtype(dtype)), "fortran_order": False, "shape": shape})
    return buffer.getvalue()


def npy_bytes(array: NDArray[np.generic], allow_pickle: bool = False) -> bytes:
    """``array`` as a ``.npy`` member."""
    buffer = io.BytesIO()
    np.save(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


def npz_of(members: Mapping[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive of ``members`` (name without ``.npy``: the member's bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as archive:
        for name, content in members.items():
            archive.writestr(f"{name}.npy", content)
    return buffer.getvalue()


def with_member(arrays: Mapping[str, NDArray[np.generic]], name: str, content: bytes) -> bytes:
    """An ``.npz`` of ``arrays`` but for member ``name``, which holds ``content``."""
    return npz_of({key: content if key == name else npy_bytes(value) for key, value in arrays.items()})


def huge_shape(arrays: Mapping[str, NDArray[np.generic]], name: str) -> bytes:
    """An ``.npz`` of ``arrays`` whose member ``name`` claims the shape ``HUGE`` (a few bytes follow)."""
    return with_member(arrays, name, npy_header(np.uint8, HUGE) + bytes(64))


def object_array(arrays: Mapping[str, NDArray[np.generic]], name: str) -> bytes:
    """An ``.npz`` of ``arrays`` whose member ``name`` is an array of Python objects (a pickle)."""
    return with_member(arrays, name, npy_bytes(np.array([{"a": 1}], dtype=object), allow_pickle=True))


def bomb(arrays: Mapping[str, NDArray[np.generic]], name: str, size: int) -> bytes:
    """An ``.npz`` of ``arrays`` whose member ``name`` is ``size`` zero bytes, deflated (about a
    thousandth of that on disk), its header and zip directory telling the truth."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, value in arrays.items():
            if key != name:
                archive.writestr(f"{key}.npy", npy_bytes(value))
                continue
            with archive.open(f"{key}.npy", "w", force_zip64=True) as stream:
                stream.write(npy_header(np.uint8, (size,)))
                block = bytes(1 << 22)
                for _ in range(size // len(block)):
                    stream.write(block)
                stream.write(bytes(size % len(block)))
    return buffer.getvalue()


def understated(size: int, claimed: int) -> bytes:
    """An ``.npz`` of one member ``a``: a header claiming ``claimed`` bytes, then ``size`` zero bytes
    deflated, its zip directory (and local header, and checksum) saying it holds only the header
    and ``claimed`` bytes."""
    header = npy_header(np.uint8, (claimed,))
    content = header + bytes(size)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(content) + packer.flush()
    told = len(header) + claimed
    crc = zlib.crc32(content[:told])
    name = b"a.npy"
    local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, zipfile.ZIP_DEFLATED, 0, 0x21, crc, len(packed), told, len(name), 0) + name
    directory = struct.pack(
        "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, zipfile.ZIP_DEFLATED, 0, 0x21, crc, len(packed), told, len(name), 0, 0, 0, 0, 0, 0
    ) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, 1, 1, len(directory), len(local) + len(packed), 0)
    return local + packed + directory + end
