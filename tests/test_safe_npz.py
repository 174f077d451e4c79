"""Issue 62 (2, 3): the program's numpy files are checked from their headers, within a bound on what
they inflate to, before any array is made (scorekeeper/safe_npz.py)."""

from __future__ import annotations

import io
import random
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.safe_input import InputFileError
from scorekeeper.safe_npz import MAX_MEMBERS, read_npz
from tests.hostile_npz import bomb, huge_shape, npy_bytes, npy_header, npz_of, object_array, understated

ARRAYS = {
    "format": np.array(1),
    "model": np.array("0123abcd"),
    "crops": np.arange(2 * 4 * 4 * 3, dtype=np.uint8).reshape(2, 4, 4, 3),
    "empty": np.zeros((4, 0, 0), np.float32),
    "fortran": np.asfortranarray(np.arange(6, dtype=">f8").reshape(2, 3)),
    "flags": np.array([True, False]),
}


class MadeUpError(ValueError):
    """The caller's own error."""


def saved(tmp_path: Path, content: bytes, name: str = "kitchen.table.npz") -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("compressed", [False, True])
def test_what_numpy_writes_is_read_back_whole(tmp_path: Path, compressed: bool) -> None:
    buffer = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(buffer, **ARRAYS)  # type: ignore[arg-type]
    arrays = read_npz(saved(tmp_path, buffer.getvalue()), "table file")
    assert arrays.keys() == ARRAYS.keys()
    for name, array in ARRAYS.items():
        assert arrays[name].dtype == array.dtype and arrays[name].shape == array.shape
        np.testing.assert_array_equal(arrays[name], array)
    arrays["crops"][0, 0, 0, 0] = 7


def test_a_member_claiming_a_shape_no_memory_holds_is_refused_from_its_header(tmp_path: Path) -> None:
    path = saved(tmp_path, huge_shape(ARRAYS, "crops"))
    with pytest.raises(MadeUpError) as caught:
        read_npz(path, "table file", MadeUpError, advice="forget it")
    assert str(caught.value).startswith(f"table file {str(path)!r} is damaged or not a table file: 'crops.npy' claims the shape (1000000000000,)")
    assert str(caught.value).endswith("; forget it")


def peak_refusing(path: Path, match: str) -> int:
    """The most memory, bytes, that reading ``path`` as a table file within 1 MB took before it was refused saying ``match``."""
    tracemalloc.start()
    try:
        with pytest.raises(InputFileError, match=match):
            read_npz(path, "table file", limit=1_000_000)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_zip_bomb_is_refused_from_its_directory_before_it_is_inflated(tmp_path: Path) -> None:
    path = saved(tmp_path, bomb(ARRAYS, "crops", 40_000_000))
    assert path.stat().st_size < 100_000
    assert peak_refusing(path, "its arrays would take 40,00[0-9,]+ bytes once inflated \\(at most 1,000,000\\)") < 3_000_000


def test_a_zip_directory_that_understates_what_a_member_inflates_to_is_refused(tmp_path: Path) -> None:
    content = understated(50_000_000, 16)
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert archive.infolist()[0].file_size < 200, "the directory lies"
    path = saved(tmp_path, content)
    assert peak_refusing(path, "'a.npy' is [0-9,]+ bytes packed, more than 144 bytes could ever pack to") < 3_000_000


def test_a_member_holding_more_than_its_header_claims_is_refused(tmp_path: Path) -> None:
    path = saved(tmp_path, npz_of({"a": npy_header(np.uint8, (4,)) + bytes(10)}))
    with pytest.raises(InputFileError, match="'a.npy' claims the shape \\(4,\\) of uint8 \\(4 bytes\\) but holds 10"):
        read_npz(path, "table file")


def test_the_bound_counts_every_member_together(tmp_path: Path) -> None:
    path = saved(tmp_path, npz_of({"a": npy_bytes(np.zeros(600, np.uint8)), "b": npy_bytes(np.zeros(600, np.uint8))}))
    assert read_npz(path, "table file", limit=1500)["b"].shape == (600,)
    with pytest.raises(InputFileError, match="once inflated \\(at most 1,300\\)"):
        read_npz(path, "table file", limit=1300)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (object_array(ARRAYS, "crops"), "'crops.npy' holds an array of object \\(only numbers and text are read\\)"),
        (npz_of({"a": npy_bytes(np.zeros(2, [("x", "<i4"), ("y", "<f4")]))}), "'a.npy' holds an array of \\[\\('x', '<i4'\\), \\('y', '<f4'\\)\\]"),
        (npz_of({"a": npy_bytes(np.array(["2024-01-01"], "datetime64[D]"))}), "'a.npy' holds an array of datetime64\\[D\\]"),
        (npz_of({"a": b"\x93NUMPY\x03\x00" + bytes(20)}), "'a.npy' is a .npy file of version 3.0"),
        (npz_of({"a": b"not an array at all"}), "'a.npy' has no readable array header"),
        (npz_of({"a": npy_header(np.uint8, (4,))[:-20]}), "'a.npy' has no readable array header"),
        (npz_of({"a": npy_header(np.uint8, (-4, -4))}), "'a.npy' claims the shape \\(-4, -4\\)"),
        (b"PK\x03\x04 not really", "not a readable zip archive"),
        (b"", "not a readable zip archive"),
    ],
)
def test_a_damaged_or_foreign_member_is_refused_naming_it(tmp_path: Path, content: bytes, message: str) -> None:
    path = saved(tmp_path, content)
    with pytest.raises(MadeUpError, match=message) as caught:
        read_npz(path, "table file", MadeUpError)
    assert str(path) in str(caught.value)


def test_a_member_that_is_not_an_array_or_comes_twice_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", "hello")
    with pytest.raises(InputFileError, match="holds 'notes.txt', which is not an array"):
        read_npz(saved(tmp_path, buffer.getvalue()), "table file")
    buffer = io.BytesIO()
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.npy", npy_bytes(np.zeros(2)))
        archive.writestr("a.npy", npy_bytes(np.ones(2)))
    with pytest.raises(InputFileError, match="holds 'a.npy' twice"):
        read_npz(saved(tmp_path, buffer.getvalue()), "table file")


def test_too_many_members_are_refused_before_the_zip_directory_is_read(tmp_path: Path) -> None:
    content = npz_of({f"a{i}": npy_bytes(np.zeros(1)) for i in range(MAX_MEMBERS + 1)}, zipfile.ZIP_STORED)
    with pytest.raises(InputFileError, match=f"holds more than {MAX_MEMBERS} members"):
        read_npz(saved(tmp_path, content), "table file")


def test_a_member_packed_another_way_than_numpy_packs_is_refused(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_LZMA) as archive:
        archive.writestr("a.npy", npy_bytes(np.zeros(2)))
    with pytest.raises(InputFileError, match="'a.npy' is packed by zip method 14, not stored or deflated"):
        read_npz(saved(tmp_path, buffer.getvalue()), "table file")


GOOD = npz_of({name: npy_bytes(array) for name, array in ARRAYS.items()})


def test_any_damage_to_a_file_is_refused_or_read_never_a_traceback(tmp_path: Path) -> None:
    rng = random.Random(62)
    path = tmp_path / "kitchen.table.npz"
    outcomes = set()
    for _ in range(3000):
        content = bytearray(GOOD)
        for _ in range(rng.randint(1, 4)):
            # half the damage in the zip directory at the end, where the offsets and sizes are
            at = rng.randrange(len(content)) if rng.random() < 0.5 else len(content) - 1 - rng.randrange(200)
            content[at] = rng.randrange(256)
        path.write_bytes(bytes(content[: rng.randint(1, len(content))] if rng.random() < 0.1 else content))
        try:
            arrays = read_npz(path, "table file", MadeUpError, limit=100_000)
        except MadeUpError as exc:
            assert str(path) in str(exc)
            outcomes.add("refused")
        else:
            assert sum(array.nbytes for array in arrays.values()) <= 100_000
            outcomes.add("read")
    assert outcomes == {"refused", "read"}
