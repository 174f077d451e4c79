"""Each roll the camera took kept as a picture beside the journal: drawn, written whole before the
journal names it, found again per roll through taps, undo and history edits, deleted with the game."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.game import DiceRolled, DieCorrected, EventFormatError, Game, event_from_dict, event_to_dict
from scorekeeper.game.games_folder import STALE_SECONDS, games_folder, new_journal_path
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.game.photos import (
    PhotoStatus,
    delete_game,
    last_roll_photo,
    photo_file,
    photos_folder,
    roll_photo,
    tidy_photo_folders,
    turn_photos,
)
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import Dice, load_rules
from scorekeeper.table_session import TableSession
from scorekeeper.table_session.roll_pictures import LEAST_SIDE, LONG_SIDE, NOT_A_DIE, TAPPED, TARGET_BYTES, draw_roll, encode_jpeg, write_photo
from scorekeeper.vision.detections import Detections
from tests.camera_rolls import JournalPlay, load_scene, settle


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, Detections]:
    """A rendered roll of four dice at 640x480 and its true dice."""
    return load_scene()


def test_events_name_their_picture_and_old_journal_lines_still_read() -> None:
    name = "ab" * 32
    rolled = DiceRolled(Dice.from_str("1 2 3"), "camera", name)
    assert event_to_dict(rolled) == {"type": "rolled", "dice": [1, 2, 3], "source": "camera", "photo": name}
    assert event_from_dict(event_to_dict(rolled)) == rolled
    tap = DieCorrected(2, 5, "tap.png", name)
    assert event_from_dict(event_to_dict(tap)) == tap
    # lines written before pictures existed carry no "photo" and read as rolls without one
    assert event_from_dict({"type": "rolled", "dice": [1, 2, 3], "source": "camera"}).photo is None
    assert event_from_dict({"type": "corrected", "was": 2, "now": 5}).photo is None
    assert "photo" not in event_to_dict(DiceRolled(Dice.from_str("1 2 3")))
    for bad in ("../../etc/passwd", "AB" * 32, "a" * 63, 7):
        with pytest.raises(EventFormatError, match="'photo' must be a picture's SHA-256"):
            event_from_dict({"type": "rolled", "dice": [1, 2, 3], "photo": bad})


def test_a_roll_taken_keeps_its_picture_on_disk_before_the_journal_names_it(tmp_path: Path, scene: tuple[np.ndarray, Detections]) -> None:
    frame, truth = scene
    play = JournalPlay(tmp_path)
    session = TableSession(play, tmp_path / "corrections")
    settle(session, truth, frame)
    assert play.game is not None and play.game.state.turn is not None
    assert play.game.state.turn.roll == Dice(int(v) for v in truth.values)
    assert play.journal is not None
    [(name, on_disk)] = play.lines_naming
    assert on_disk, "the picture must be whole on disk before the journal line naming it"
    path = photo_file(play.journal.path, name)
    data = path.read_bytes()
    assert hashlib.sha256(data).hexdigest() == name
    assert len(data) <= TARGET_BYTES
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and max(image.shape[:2]) <= LONG_SIDE
    assert not list(photos_folder(play.journal.path).glob("*.tmp")), "no temporary file is left behind"
    # the journal on disk names it, and the game read back finds it as the roll's picture
    lines = [json.loads(line) for line in play.journal.path.read_text().splitlines()[1:]]
    assert [line.get("photo") for line in lines if line["type"] == "rolled"] == [name]
    found = last_roll_photo(play.journal.path, read_journal(play.journal.path).events)
    assert found is not None and found.status is PhotoStatus.OK and found.path == path


def test_a_tap_keeps_a_picture_with_the_corrected_die_marked_and_undo_brings_back_the_first(
    tmp_path: Path, scene: tuple[np.ndarray, Detections]
) -> None:
    frame, truth = scene
    play = JournalPlay(tmp_path)
    session = TableSession(play, tmp_path / "corrections")
    settle(session, truth, frame)
    taken = session.taken
    assert taken is not None and play.game is not None and play.journal is not None
    index = 0
    was = taken.values[index]
    now = 1 if was != 1 else 5
    session.correct(taken, index, now)
    assert play.game.state.turn is not None and now in play.game.state.turn.roll.values
    (first, _), (second, on_disk) = play.lines_naming
    assert on_disk and first != second
    picture = cv2.imread(str(photo_file(play.journal.path, second)))
    before = cv2.imread(str(photo_file(play.journal.path, first)))
    # the tapped die is boxed in the tap colour in the new picture, and was not in the first
    tapped = np.all(np.abs(picture.astype(int) - TAPPED) < 40, axis=2).sum()
    assert tapped > 100 and np.all(np.abs(before.astype(int) - TAPPED) < 40, axis=2).sum() < tapped / 10
    assert last_roll_photo(play.journal.path, play.game.events).name == second  # type: ignore[union-attr]
    play.game.undo()
    session.game_changed()
    assert last_roll_photo(play.journal.path, play.game.events).name == first  # type: ignore[union-attr]


def test_the_picture_shows_the_values_as_scored_and_crosses_out_a_find_that_is_no_die() -> None:
    frame = np.full((480, 640, 3), 120, np.uint8)
    read_boxes = [(100.0, 100.0, 150.0, 150.0), (300.0, 100.0, 350.0, 150.0)]
    image = draw_roll(frame, [read_boxes[0]], [3], read_boxes, [3, 4])
    crossed = np.all(np.abs(image.astype(int) - NOT_A_DIE) < 30, axis=2)
    assert crossed[100:150, 300:350].sum() > 50 and crossed[100:150, 100:150].sum() == 0


def test_the_picture_is_cut_to_the_rolling_area_and_kept_small() -> None:
    frame = np.random.default_rng(1).integers(0, 255, (720, 1280, 3), np.uint8)
    image = draw_roll(frame, [], [], [], [], area=((0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)))
    assert image.shape[0] < 720 * 0.6 and image.shape[1] < 1280 * 0.6
    big = draw_roll(frame, [], [], [], [])
    assert max(big.shape[:2]) == LONG_SIDE
    # noise is the hardest case for JPEG: the quality steps down, then the picture gets smaller, until it fits
    noise = np.random.default_rng(2).integers(0, 255, (480, 640, 3), np.uint8)
    noisy = encode_jpeg(noise)
    assert len(noisy) <= TARGET_BYTES < len(encode_jpeg(noise, target=10**9))
    shrunk = cv2.imdecode(np.frombuffer(noisy, np.uint8), cv2.IMREAD_COLOR)
    assert LEAST_SIDE <= max(shrunk.shape[:2]) < LONG_SIDE


def test_no_pictures_are_kept_when_switched_off_or_without_a_journal(tmp_path: Path, scene: tuple[np.ndarray, Detections]) -> None:
    frame, truth = scene
    play = JournalPlay(tmp_path)
    session = TableSession(play, tmp_path / "corrections")
    session.keep_photos = False
    settle(session, truth, frame)
    assert play.game is not None and play.game.state.turn is not None and play.game.state.turn.roll is not None
    assert play.journal is not None and not photos_folder(play.journal.path).exists()
    assert all(getattr(event, "photo", None) is None for event in play.game.events)


def test_a_picture_that_cannot_be_written_does_not_stop_the_roll(tmp_path: Path, scene: tuple[np.ndarray, Detections]) -> None:
    frame, truth = scene
    play = JournalPlay(tmp_path)
    assert play.journal is not None
    photos_folder(play.journal.path).write_text("a file where the folder should be")
    session = TableSession(play, tmp_path / "corrections")
    settle(session, truth, frame)
    assert play.game is not None and play.game.state.turn is not None and play.game.state.turn.roll is not None
    assert play.lines_naming == []


def test_missing_and_damaged_pictures_are_told_apart(tmp_path: Path) -> None:
    journal = games_folder(tmp_path) / "g.jsonl"
    journal.parent.mkdir(parents=True)
    name = write_photo(journal, b"\xff\xd8 not much of a picture")
    assert roll_photo(journal, name).status is PhotoStatus.OK
    assert write_photo(journal, b"\xff\xd8 not much of a picture") == name, "the same picture is kept once"
    photo_file(journal, name).write_bytes(b"\xff\xd8 changed")
    assert roll_photo(journal, name).status is PhotoStatus.DAMAGED
    assert write_photo(journal, b"\xff\xd8 not much of a picture") == name
    assert roll_photo(journal, name).status is PhotoStatus.OK, "a damaged picture is written again whole"
    photo_file(journal, name).write_bytes(b"\xff\xd8 changed")
    photo_file(journal, name).unlink()
    assert roll_photo(journal, name).status is PhotoStatus.MISSING
    assert "picture missing" in roll_photo(journal, name).note()
    # a damaged journal kept aside shares the original's pictures
    assert photos_folder(journal.with_name("g.damaged-20260101-200000.jsonl")) == photos_folder(journal)


def test_each_turn_lists_its_rolls_pictures_and_a_history_edit_keeps_a_roll_left_as_it_was() -> None:
    from scorekeeper.game import Banked, Kept
    from scorekeeper.game.history_edits import carry_pictures, with_turn_replaced

    a, b = "a" * 64, "b" * 64
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", a))
    game.keep("1")
    game.act(DiceRolled(Dice.from_str("5 2 3 4 6"), "camera", b))
    game.keep("5")
    game.bank()
    game.roll("2 2 3 3 4 6")
    game.farkle()
    assert turn_photos(game.events) == [(a, b), (None,)]
    before = [
        DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", a),
        Kept(Dice.from_str("1")),
        DiceRolled(Dice.from_str("5 2 3 4 6"), "camera", b),
    ]
    edit = carry_pictures(before, [DiceRolled(Dice.from_str("1 2 3 4 6 6")), Kept(Dice.from_str("1")), Banked()])
    assert turn_photos(with_turn_replaced(game.events, 0, edit))[0] == (a,)


def test_deleting_a_game_deletes_its_pictures_and_orphan_folders_are_tidied(tmp_path: Path) -> None:
    journal = Journal.create(new_journal_path(tmp_path))
    game = Game.new(load_rules("retail"), ["Ann"], sink=journal.write)
    name = write_photo(journal.path, b"picture")
    game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", name))
    journal.close()
    left = photos_folder(journal.path) / ".0123456789abcdef.x.tmp"
    left.write_bytes(b"half a picture, its writer killed")
    os.utime(left, (time.time() - STALE_SECONDS - 1,) * 2)
    writing = photos_folder(journal.path) / ".fedcba9876543210.y.tmp"
    writing.write_bytes(b"a picture being written now")
    other = games_folder(tmp_path) / "gone.photos"
    other.mkdir()
    (other / "x.jpg").write_bytes(b"left by a game deleted by hand")
    assert [s.path for s in unfinished_summaries(tmp_path)] == [journal.path]
    assert not other.exists() and photos_folder(journal.path).is_dir()
    assert not left.exists() and writing.exists(), "a killed write's file goes once stale, one being written stays"
    delete_game(journal.path)
    assert not journal.path.exists() and not photos_folder(journal.path).exists()
    tidy_photo_folders(tmp_path)
    assert list(games_folder(tmp_path).iterdir()) == []


def test_a_resumed_game_finds_the_pictures_of_its_rolls(tmp_path: Path, scene: tuple[np.ndarray, Detections]) -> None:
    frame, truth = scene
    play = JournalPlay(tmp_path)
    settle(TableSession(play, tmp_path / "corrections"), truth, frame)
    assert play.journal is not None
    play.journal.close()
    recovered = open_journal(play.journal.path)
    found = last_roll_photo(play.journal.path, recovered.game.events)
    assert found is not None and found.shown
    recovered.journal.close()


def test_a_roll_waiting_for_a_tap_is_taken_with_a_picture_as_read_and_one_as_tapped(
    tmp_path: Path, scene: tuple[np.ndarray, Detections]
) -> None:
    frame, truth = scene
    doubted = Detections(truth.boxes, truth.values, np.array([0.95, 0.1, 0.95, 0.95], np.float32))
    play = JournalPlay(tmp_path)
    session = TableSession(play, tmp_path / "corrections")
    settle(session, doubted, frame)
    pending = session.pending
    assert pending is not None and play.lines_naming == [], "no picture before the roll is taken"
    was = pending.values[1]
    now = 6 if was != 6 else 2
    session.correct(pending, 1, now)
    assert play.game is not None and play.journal is not None and play.game.state.turn is not None
    assert play.game.state.turn.roll is not None and now in play.game.state.turn.roll.values
    (as_read, _), (as_tapped, on_disk) = play.lines_naming
    assert on_disk and as_read != as_tapped
    rolled, corrected = [e for e in play.game.events if isinstance(e, (DiceRolled, DieCorrected))]
    assert (rolled.photo, corrected.photo) == (as_read, as_tapped)
    assert turn_photos(play.game.events) == [], "no turn has ended yet"
    found = last_roll_photo(play.journal.path, play.game.events)
    assert found is not None and found.name == as_tapped
    picture = cv2.imread(str(found.path))
    assert np.all(np.abs(picture.astype(int) - TAPPED) < 40, axis=2).sum() > 100, "the tapped die is marked"
