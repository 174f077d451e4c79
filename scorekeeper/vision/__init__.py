"""Seeing the dice: camera frames in, detections (box, pip value, confidence) out. No Qt here."""

from scorekeeper.vision.detections import DEFAULT_UNSURE_BELOW, DiceReader, Detections

__all__ = ["DEFAULT_UNSURE_BELOW", "DiceReader", "Detections"]
