"""The window's start-up check of Qt's X11 plugin (no Qt started: ldd's answer is faked), and the
OpenCV the program depends on: the headless build, whose wheel brings no Qt plugins of its own."""

from __future__ import annotations

import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.cli import qt_platform
from scorekeeper.cli.qt_platform import missing_libraries, packages_for, uses_xcb, xcb_problem

ROOT = Path(__file__).resolve().parent.parent

# what ldd printed for PySide6 6.11's libqxcb.so on a Debian 12 machine without two xcb utility libraries
LDD_TWO_MISSING = """\
\tlinux-vdso.so.1 (0x00007ffd0b7f5000)
\tlibQt6XcbQpa.so.6 => /venv/lib/python3.11/site-packages/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x00007f2a1c000000)
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f2a1bff0000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-util.so.1 => /lib/x86_64-linux-gnu/libxcb-util.so.1 (0x00007f2a1bfe0000)
\tlibxcb-keysyms.so.1 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2a1b800000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f2a1c400000)
"""

LDD_ALL_FOUND = "\tlibxcb-icccm.so.4 => /lib/x86_64-linux-gnu/libxcb-icccm.so.4 (0x1)\n\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x2)\n"

ON_X = {"DISPLAY": ":99"}


def plugin_file(tmp_path: Path) -> Path:
    plugin = tmp_path / "libqxcb.so"
    plugin.write_bytes(b"\x7fELF")
    return plugin


def ldd_saying(output: str | None, asked: list[Path]) -> Callable[[Path], str | None]:
    def ldd(path: Path) -> str | None:
        asked.append(path)
        return output

    return ldd


def test_the_libraries_ldd_does_not_find_are_named_once_each() -> None:
    assert missing_libraries(LDD_TWO_MISSING) == ["libxcb-icccm.so.4", "libxcb-keysyms.so.1"]
    assert missing_libraries(LDD_ALL_FOUND) == []
    assert missing_libraries("\tnot a dynamic executable\n") == []


def test_each_missing_library_is_named_by_its_debian_package() -> None:
    packages, unknown = packages_for(["libxcb-keysyms.so.1", "libglib-2.0.so.0", "libxcb-icccm.so.4", "libgthread-2.0.so.0"])
    assert packages == ["libglib2.0-0", "libxcb-icccm4", "libxcb-keysyms1"]
    assert unknown == []
    assert packages_for(["libsomething-new.so.7"]) == ([], ["libsomething-new.so.7"])


def test_a_plugin_missing_libraries_gives_one_line_naming_the_packages_to_install(tmp_path: Path) -> None:
    asked: list[Path] = []
    plugin = plugin_file(tmp_path)
    problem = xcb_problem(ON_X, "linux", plugin, ldd_saying(LDD_TWO_MISSING, asked))
    assert asked == [plugin]
    assert problem is not None and "\n" not in problem
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in problem
    assert "libxcb-icccm.so.4" in problem and "libxcb-keysyms.so.1" in problem
    assert str(plugin) in problem


def test_a_library_of_no_known_package_is_still_named(tmp_path: Path) -> None:
    output = LDD_TWO_MISSING + "\tlibsomething-new.so.7 => not found\n"
    problem = xcb_problem(ON_X, "linux", plugin_file(tmp_path), ldd_saying(output, []))
    assert problem is not None
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in problem and "libsomething-new.so.7" in problem
    alone = xcb_problem(ON_X, "linux", plugin_file(tmp_path), ldd_saying("\tlibsomething-new.so.7 => not found\n", []))
    assert alone is not None and "apt-get" not in alone and "libsomething-new.so.7" in alone


@pytest.mark.parametrize(
    "environ",
    [
        {"DISPLAY": ":99", "QT_QPA_PLATFORM": "offscreen"},
        {"DISPLAY": ":99", "QT_QPA_PLATFORM": "minimal"},
        {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"},
        {"QT_QPA_PLATFORM": "wayland"},
        {},
    ],
)
def test_no_check_where_qt_will_not_load_the_x11_plugin(environ: dict[str, str], tmp_path: Path) -> None:
    asked: list[Path] = []
    assert xcb_problem(environ, "linux", plugin_file(tmp_path), ldd_saying(LDD_TWO_MISSING, asked)) is None
    assert asked == []


def test_the_x11_plugin_is_checked_when_asked_for_by_name() -> None:
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb"})
    assert uses_xcb({"QT_QPA_PLATFORM": "xcb:nograb", "WAYLAND_DISPLAY": "w"})
    assert uses_xcb({"DISPLAY": ":0"})
    assert not uses_xcb({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"})


def test_nothing_is_said_where_nothing_is_known_to_be_missing(tmp_path: Path) -> None:
    plugin = plugin_file(tmp_path)
    assert xcb_problem(ON_X, "linux", plugin, ldd_saying(LDD_ALL_FOUND, [])) is None
    assert xcb_problem(ON_X, "linux", plugin, ldd_saying(None, [])) is None, "no ldd: Qt has its say"
    assert xcb_problem(ON_X, "linux", None, ldd_saying(LDD_TWO_MISSING, [])) is None, "no plugin found"
    assert xcb_problem(ON_X, "darwin", plugin, ldd_saying(LDD_TWO_MISSING, [])) is None


def test_a_plugin_path_set_for_qt_is_the_one_checked(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    other = plugin_file(elsewhere)
    asked: list[Path] = []
    environ = {"DISPLAY": ":1", "QT_QPA_PLATFORM_PLUGIN_PATH": str(elsewhere)}
    assert xcb_problem(environ, "linux", plugin_file(tmp_path), ldd_saying(LDD_TWO_MISSING, asked)) is not None
    assert asked == [other]


def test_the_gui_opencv_pointing_qt_at_its_own_plugins_is_named_with_its_remedy(tmp_path: Path) -> None:
    cv2_plugins = tmp_path / "site-packages" / "cv2" / "qt" / "plugins"
    (cv2_plugins / "platforms").mkdir(parents=True)
    (cv2_plugins / "platforms" / "libqxcb.so").write_bytes(b"\x7fELF")
    asked: list[Path] = []
    environ = {"DISPLAY": ":1", "QT_QPA_PLATFORM_PLUGIN_PATH": str(cv2_plugins)}
    problem = xcb_problem(environ, "linux", plugin_file(tmp_path), ldd_saying(LDD_ALL_FOUND, asked))
    assert problem is not None and "\n" not in problem
    assert "opencv-python" in problem and str(cv2_plugins) in problem
    assert "pip uninstall opencv-python && pip install --force-reinstall --no-deps opencv-python-headless" in problem
    assert xcb_problem({**environ, "QT_QPA_PLATFORM": "offscreen"}, "linux", plugin_file(tmp_path), ldd_saying(LDD_ALL_FOUND, [])) is None


def test_the_window_command_stops_with_the_packages_to_install_before_qt_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from scorekeeper.cli import main

    def no_window(*args: object) -> int:
        raise AssertionError("the window was started")

    monkeypatch.setattr("scorekeeper.ui.app.run_window", no_window)
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("QT_QPA_PLATFORM_PLUGIN_PATH", raising=False)
    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(sys, "platform", "linux")
    plugin = plugin_file(tmp_path)
    monkeypatch.setattr(qt_platform, "xcb_plugin", lambda: plugin)
    monkeypatch.setattr(qt_platform, "run_ldd", ldd_saying(LDD_TWO_MISSING, []))
    assert main(["--source", "demo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "apt-get install libxcb-icccm4 libxcb-keysyms1" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ldd and the xcb plugin are Linux's")
def test_pyside6s_own_x11_plugin_is_found_and_ldd_reads_it() -> None:
    plugin = qt_platform.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so" and "PySide6" in plugin.parts
    output = qt_platform.run_ldd(plugin)
    assert output is not None and "libQt6XcbQpa.so.6" in output


def requirement_names(requirements: list[str]) -> list[str]:
    return [re.split(r"[<>=!~\[ ;]", requirement)[0].lower() for requirement in requirements]


def test_the_program_depends_on_the_headless_opencv_and_no_extra_brings_the_gui_one() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "opencv-python-headless" in requirement_names(project["dependencies"])
    every = requirement_names(project["dependencies"]) + [
        name for extra in project["optional-dependencies"].values() for name in requirement_names(extra)
    ]
    assert "opencv-python" not in every, "the GUI build points Qt at its own plugins, and the window cannot load"
    assert "opencv-contrib-python" not in every


def test_no_code_calls_an_opencv_window_function() -> None:
    gui = re.compile(r"\bcv2\.(imshow|waitKey|pollKey|namedWindow|destroyWindow|destroyAllWindows|createTrackbar|setMouseCallback|selectROI|moveWindow|resizeWindow)\b")
    callers = [
        str(path.relative_to(ROOT))
        for folder in ("scorekeeper", "benchmarks")
        for path in (ROOT / folder).rglob("*.py")
        if gui.search(path.read_text(encoding="utf-8"))
    ]
    assert callers == [], "the headless OpenCV has no windows: the Qt window shows the pictures"
