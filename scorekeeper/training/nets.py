"""The two networks, in torch: the dice finder (centre heatmap + size + offset) and the pip reader
(crop classifier: not a die, 1-6)."""

from __future__ import annotations

import torch
from torch import nn

from scorekeeper.training.shapes import reader_layers


def _conv(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class Finder(nn.Module):
    """Tiny CenterNet-style dice finder on the scaled-down frame.

    Output (n, 5, H/4, W/4): sigmoid centre heatmap, log box width and height in cells, centre
    offset in cells. A small feature pyramid brings stride-16 context (big dice, side faces) back
    to the stride-4 grid.
    """

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(_conv(3, w // 2, 2), _conv(w // 2, w, 2), _conv(w, w))  # stride 4
        self.down8 = nn.Sequential(_conv(w, 2 * w, 2), _conv(2 * w, 2 * w))
        self.down16 = nn.Sequential(_conv(2 * w, 3 * w, 2), _conv(3 * w, 3 * w), _conv(3 * w, 3 * w))
        self.lat8 = nn.Conv2d(3 * w, 2 * w, 1)
        self.fuse8 = _conv(2 * w, 2 * w)
        self.lat4 = nn.Conv2d(2 * w, w, 1)
        self.fuse4 = _conv(w, w)
        self.head = nn.Conv2d(w, 5, 1)
        with torch.no_grad():
            bias = self.head.bias
            assert bias is not None
            bias.zero_()
            bias[0] = -4.0  # start with a low heatmap everywhere (CenterNet's prior)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.stem(x)
        f8 = self.down8(f4)
        f16 = self.down16(f8)
        p8 = self.fuse8(f8 + nn.functional.interpolate(self.lat8(f16), scale_factor=2.0, mode="nearest"))
        p4 = self.fuse4(f4 + nn.functional.interpolate(self.lat4(p8), scale_factor=2.0, mode="nearest"))
        out = self.head(p4)
        return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)


class PipReader(nn.Module):
    """Small CNN over a 32x32 crop of one die: seven logits (not a die, 1 ... 6 pips)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        layers = reader_layers(width)
        self.body = nn.Sequential(*(_conv(cin, cout, stride) for cin, cout, stride, _side in layers), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(layers[-1][1], 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.body(x))
        return logits
