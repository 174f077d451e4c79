"""Latency figures say which machine took them and how busy the rest of it was meanwhile."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.vision import Detections
from scorekeeper.evaluation.assessment import cpu_seconds_used, machine_name, measure_latency

pytestmark = pytest.mark.skipif(cpu_seconds_used() is None, reason="the machine's CPU use is read from Linux's /proc/stat")
FRAMES = [np.zeros((16, 16, 3), np.uint8)]


def _read_taking(seconds: float, burn: bool) -> Callable[[NDArray[np.uint8]], Detections]:
    def read(frame: NDArray[np.uint8]) -> Detections:
        end = time.perf_counter() + seconds
        if burn:
            while time.perf_counter() < end:
                pass
        else:
            time.sleep(seconds)
        return Detections.empty()

    return read


def test_processes_hogging_the_cpus_show_as_busy_elsewhere() -> None:
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        time.sleep(0.3)
        measured = measure_latency(_read_taking(0.01, burn=False), FRAMES, 40)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert measured.busy_elsewhere is not None and measured.busy_elsewhere >= 0.6
    assert measured.median_s >= 0.01


def test_the_reads_own_work_is_not_counted_as_busy_elsewhere() -> None:
    resting = measure_latency(_read_taking(0.01, burn=False), FRAMES, 40).busy_elsewhere
    working = measure_latency(_read_taking(0.01, burn=True), FRAMES, 40).busy_elsewhere
    assert resting is not None and working is not None
    # counted, the read's own busy loop would add a whole CPU's share
    assert working - resting < 0.5 / (os.cpu_count() or 1)


def test_the_machine_is_named_by_its_cpu_model_and_count() -> None:
    with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
        model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    name = machine_name()
    assert name.endswith(f"{platform.machine()}, {os.cpu_count()} CPUs")
    assert name.startswith(model)
