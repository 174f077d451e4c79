"""The pip reader's layer shapes, without torch: ``nets.PipReader`` is built from them and the model
card counts its multiply-adds from them (the card is written where the train extra is not installed)."""

from __future__ import annotations

from scorekeeper.vision.processing import CROP


def reader_layers(width: int) -> tuple[tuple[int, int, int, int], ...]:
    """(input channels, output channels, stride, output side) of each 3x3 convolution of the pip
    reader whose first layer is ``width`` channels wide; each later layer is 2, 4 or 6 times it.

    >>> reader_layers(16)[-1]
    (64, 96, 2, 4)
    """
    w = width
    return (
        (3, w, 1, CROP),
        (w, 2 * w, 2, CROP // 2),
        (2 * w, 2 * w, 1, CROP // 2),
        (2 * w, 4 * w, 2, CROP // 4),
        (4 * w, 4 * w, 1, CROP // 4),
        (4 * w, 6 * w, 2, CROP // 8),
    )


def reader_multiply_adds(width: int) -> int:
    """Multiply-adds of one crop through the pip reader's convolutions (the head is negligible).

    >>> reader_multiply_adds(16)
    8404992
    """
    return sum(cin * cout * 9 * side * side for cin, cout, _stride, side in reader_layers(width))
