"""Settling that holds: recordings of each condition met at real tables, played through the watch
loop with the default profile. Every rest of half a second or more is taken once with its roll, a
bounce under half a second never is, and no roll comes from moving dice.

Rendered clips script the dice exactly (camera drift and shake, exposure and white-balance jumps,
a hand passing over still dice, a recording that starts at rest); clips made from the real photos
in ``../shared/data`` move a photographed table as a handheld camera moves (homography jitter),
step its exposure and pass a hand over it. Those skip where the data is absent.
"""

from __future__ import annotations

import pytest

from conftest import shared_data_folder
from scorekeeper.testbed.settle_clips import PHOTO_CLIPS, RENDERED, settled


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RENDERED))
def test_every_rest_of_half_a_second_is_taken_once_with_its_roll_on_rendered_clips(name: str) -> None:
    clip = RENDERED[name]()
    assert [event.roll() for event in settled(clip)] == [sorted(roll) for roll in clip.rolls]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(PHOTO_CLIPS))
def test_every_rest_is_taken_once_on_clips_made_from_real_photos(name: str) -> None:
    shared_data_folder("byler_d6", "images", "labels")
    clip = PHOTO_CLIPS[name]()
    assert [event.roll() for event in settled(clip)] == clip.rolls
