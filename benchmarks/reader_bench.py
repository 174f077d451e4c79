"""Dice reader benchmark: median latency at 640x480 and 1280x720 and accuracy, next to the classical
OpenCV reader (contours + blob counting), on rendered scenes and the byler test photos.

    nice -n 10 python benchmarks/reader_bench.py [--runs 300] [--scenes 200]

Prints the machine first; the numbers are ``scorekeeper bench``'s (same code).
"""

from __future__ import annotations

import os
import platform
import sys

from scorekeeper.cli import main

if __name__ == "__main__":
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs visible, python {platform.python_version()}")
    args = sys.argv[1:] or ["--runs", "300", "--scenes", "200"]
    sys.exit(main(["bench", *args]))
