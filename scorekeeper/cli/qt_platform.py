"""Before the window starts: can Qt's xcb platform plugin load here? (Qt-free.)

PySide6's wheel brings Qt, but not the X11 libraries its xcb plugin links against; a machine
without one of them makes Qt abort ("Could not load the Qt platform plugin "xcb"", a core dump,
exit 134) with no word of what to install. So the window's command asks ``ldd`` first which of the
plugin's libraries are not found, and names the Debian packages that hold them.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

DEBIAN_PACKAGES: dict[str, str] = {
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libGLdispatch.so.0": "libglvnd0",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libgobject-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libexpat.so.1": "libexpat1",
    "libbrotlidec.so.1": "libbrotli1",
    "libbrotlicommon.so.1": "libbrotli1",
    "libbsd.so.0": "libbsd0",
    "libpcre2-8.so.0": "libpcre2-8-0",
}
"""The Debian (bookworm) package of each library Qt's xcb plugin and the Qt libraries under it link
against, beyond the C runtime (the README's set-up names those a fresh Debian lacks)."""

_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` reports as not found, each once, in the order it names them.

    >>> missing_libraries("\\tlibQt6Gui.so.6 => /x/libQt6Gui.so.6 (0x1)\\n\\tlibxcb-icccm.so.4 => not found\\n"
    ...                   "\\tlibxcb-icccm.so.4 => not found\\n\\tlibEGL.so.1 => not found\\n")
    ['libxcb-icccm.so.4', 'libEGL.so.1']
    """
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def packages_for(libraries: Iterable[str]) -> tuple[list[str], list[str]]:
    """The Debian packages holding ``libraries`` (each once, sorted), and the libraries of no known package."""
    libraries = list(libraries)
    packages = sorted({DEBIAN_PACKAGES[name] for name in libraries if name in DEBIAN_PACKAGES})
    unknown = [name for name in libraries if name not in DEBIAN_PACKAGES]
    return packages, unknown


def uses_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt will open the window through its xcb (X11) plugin: asked for by name, or left to
    choose on an X display with no Wayland one. Offscreen, Wayland or any other platform named is not xcb."""
    forced = environ.get("QT_QPA_PLATFORM", "")
    if forced:
        return forced.split(";")[0].split(":")[0].strip() == "xcb"
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, found without importing PySide6 (whose own libraries may not load)."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    plugin = Path(list(spec.submodule_search_locations)[0]) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def run_ldd(library: Path) -> str | None:
    """What ``ldd`` says of ``library``; None where there is no ``ldd`` or it fails to answer."""
    try:
        done = subprocess.run(["ldd", str(library)], capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout


def xcb_problem(
    environ: Mapping[str, str],
    platform: str,
    plugin: Path | None,
    ldd: Callable[[Path], str | None],
) -> str | None:
    """Why the window cannot start on this machine's X display, in one line naming what to install;
    None where nothing is known to be missing (or it is not xcb that Qt will load)."""
    if not platform.startswith("linux") or not uses_xcb(environ) or plugin is None:
        return None
    if environ.get("QT_QPA_PLATFORM_PLUGIN_PATH"):
        plugins = Path(environ["QT_QPA_PLATFORM_PLUGIN_PATH"])
        if "cv2" in plugins.parts:
            return (
                f"the window cannot open: OpenCV's GUI build (opencv-python) is installed and points Qt at its own "
                f"plugins ({plugins}), which do not fit PySide6's Qt; scorekeeper needs the headless build: "
                "pip uninstall opencv-python && pip install --force-reinstall --no-deps opencv-python-headless"
            )
        plugin = plugins / plugin.name
        if not plugin.is_file():
            return None
    output = ldd(plugin)
    if output is None:
        return None
    missing = missing_libraries(output)
    if not missing:
        return None
    packages, unknown = packages_for(missing)
    install = f"on Debian or Ubuntu: sudo apt-get install {' '.join(packages)}" if packages else ""
    unknown_part = f"{'; and ' if packages else 'install what holds '}{', '.join(unknown)}" if unknown else ""
    return (
        f"the window cannot open: Qt's X11 platform plugin ({plugin}) needs libraries this machine lacks "
        f"({', '.join(missing)}); {install}{unknown_part} (the README's set-up names every package the window needs); "
        "'scorekeeper play' keeps score in the terminal"
    )
