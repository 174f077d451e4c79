"""View > Scoreboard on phones: off until asked; then the same server as ``scorekeeper serve`` for the
game on screen, its address and a QR code that reads back as that address."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import cv2
import numpy as np
import pytest
from PySide6.QtCore import QBuffer, QIODevice
from PySide6.QtWidgets import QLabel, QMenu, QMessageBox
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from scorekeeper.serve import Reach
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.ui.phone_dialog import PhoneDialog

LOCAL = "127.0.0.1"


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode("utf-8"))


def no_camera(spec: str, profile: object) -> object:
    from scorekeeper.camera.sources import SourceError

    raise SourceError(f"no camera at {spec}")


def window_with_network(qtbot: QtBot, home: Path, network: str | None) -> MainWindow:
    """The window, on a machine whose network address is ``network`` (None: no network)."""
    shown = MainWindow(
        GameController(home),
        WindowOptions(source="none"),
        reader=lambda: None,  # type: ignore[arg-type, return-value]
        opener=no_camera,
        network=lambda: network,
    )
    qtbot.addWidget(shown)
    shown.show()
    return shown


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """The window on a machine with no network: its scoreboard listens on the loopback."""
    return window_with_network(qtbot, tmp_path / "home", None)


def decoded(dialog: PhoneDialog) -> str:
    """What a phone's camera reads off the dialog's QR code.

    OpenCV's ArUco-based detector reads every code segno makes for these addresses; its classic
    QRCodeDetector misses the finder patterns of about 2 in 100 of them, which a phone reads fine.
    """
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert dialog.code.pixmap().save(buffer, "PNG")
    image = cv2.imdecode(np.frombuffer(bytes(buffer.data().data()), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    text, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    return str(text)


def test_the_scoreboard_is_not_shared_until_asked(window: MainWindow) -> None:
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert window.phone_sharing.server is None
    assert window.menus.phones.text() == "Scoreboard on &phones..."
    view = next(action.menu() for action in window.menuBar().actions() if action.text() == "&View")
    assert isinstance(view, QMenu) and window.menus.phones in view.actions()


def test_with_no_game_on_screen_the_window_says_to_start_one(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: said.append(text))
    assert window.phone_sharing.share() is None
    assert said == ["Start or resume a game first (Game > New game)."] and window.phone_sharing.server is None


def test_the_view_menu_shares_the_game_on_screen_with_a_qr_code_of_its_address(window: MainWindow, qtbot: QtBot) -> None:
    controller = window.controller
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.menus.phones.trigger()
    dialog = window.findChild(PhoneDialog)
    assert dialog is not None and dialog.isVisible()
    assert window.phone_sharing.server is not None
    url = window.phone_sharing.server.url
    assert url.startswith(f"http://{LOCAL}:") and dialog.address.text() == url
    assert decoded(dialog) == url
    assert "Ann to play" in page(url)

    assert controller.game is not None
    controller.game.roll("5 5 5 2 3 4")
    controller.game.keep("5 5 5")
    controller.game.bank()
    qtbot.waitUntil(lambda: "Bob to play" in page(url), timeout=3000)

    assert controller.start(load_rules("retail"), ["Zoe", "Yan"])
    qtbot.waitUntil(lambda: "Zoe to play" in page(url), timeout=3000)
    assert window.phone_sharing.server is not None and window.phone_sharing.server.url == url, "the phones keep the same address"

    dialog.stop_button.click()
    assert window.phone_sharing.server is None and not dialog.isVisible()
    with pytest.raises(urllib.error.URLError):
        page(url)


def test_closing_the_window_stops_the_server(window: MainWindow) -> None:
    assert window.controller.start(load_rules("retail"), ["Ann"])
    dialog = window.phone_sharing.share()
    assert dialog is not None and window.phone_sharing.server is not None
    url = window.phone_sharing.server.url
    assert "Ann to play" in page(url)
    window.close()
    with pytest.raises(urllib.error.URLError):
        page(url)


STAND_IN_NETWORK = "127.0.0.2"
"""This machine's "network address" in these tests: a second loopback address (Linux answers on
all of 127.0.0.0/8), so that no test listens on a real network."""


def test_the_phones_sharing_chooses_the_network_or_this_machine_only_and_says_which(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_with_network(qtbot, tmp_path / "home", STAND_IN_NETWORK)
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    dialog = window.phone_sharing.share()
    assert dialog is not None and window.phone_sharing.server is not None
    on_network = window.phone_sharing.server.url
    assert on_network.startswith(f"http://{STAND_IN_NETWORK}:"), "the network where this machine has one"
    network, only_here = dialog.choices[Reach.NETWORK], dialog.choices[Reach.THIS_MACHINE]
    assert network.isChecked() and network.isEnabled() and not only_here.isChecked()
    assert network.text() == f"Phones on the same network ({STAND_IN_NETWORK})"
    assert only_here.text() == f"This machine only ({LOCAL})"
    assert dialog.reach.text() == f"Any phone on the same network as this machine ({STAND_IN_NETWORK}) can open that address."
    assert decoded(dialog) == on_network and "Ann to play" in page(on_network)

    only_here.click()
    assert window.phone_sharing.server is not None
    here = window.phone_sharing.server.url
    assert here.startswith(f"http://{LOCAL}:") and dialog.address.text() == here and decoded(dialog) == here
    assert only_here.isChecked() and not network.isChecked()
    assert dialog.reach.text() == (
        f"Only this machine can open that address ({LOCAL} is its loopback), not the phones; "
        f"its address on the network is {STAND_IN_NETWORK}."
    )
    assert "Ann to play" in page(here)
    with pytest.raises(urllib.error.URLError):
        page(on_network)

    network.click()
    assert window.phone_sharing.server is not None and window.phone_sharing.server.url.startswith(f"http://{STAND_IN_NETWORK}:")
    assert "Ann to play" in page(window.phone_sharing.server.url)
    with pytest.raises(urllib.error.URLError):
        page(here)
    dialog.stop_button.click()
    assert window.phone_sharing.server is None
    again = window.phone_sharing.share()
    assert again is not None and again.choices[Reach.NETWORK].isChecked(), "the last choice holds"
    window.close()


def test_with_no_network_the_phones_sharing_says_only_this_machine_can_open_it(window: MainWindow, qtbot: QtBot) -> None:
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    dialog = window.phone_sharing.share()
    assert dialog is not None and window.phone_sharing.server is not None
    assert window.phone_sharing.server.url.startswith(f"http://{LOCAL}:")
    network, only_here = dialog.choices[Reach.NETWORK], dialog.choices[Reach.THIS_MACHINE]
    assert only_here.isChecked() and not network.isEnabled()
    assert network.text() == "Phones on the same network (this machine has no network now)"
    assert dialog.reach.text() == f"This machine has no network, so only it can open that address ({LOCAL} is its loopback), not the phones."
    assert "same network as this computer" not in " ".join(label.text() for label in dialog.findChildren(QLabel))
    window.close()


def test_the_network_chosen_when_it_has_gone_is_refused_saying_so(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found: list[str | None] = [STAND_IN_NETWORK]
    window = MainWindow(
        GameController(tmp_path / "home"),
        WindowOptions(source="none"),
        reader=lambda: None,  # type: ignore[arg-type, return-value]
        opener=no_camera,
        network=lambda: found[0],
    )
    qtbot.addWidget(window)
    assert window.controller.start(load_rules("retail"), ["Ann"])
    dialog = window.phone_sharing.share()
    assert dialog is not None
    dialog.choices[Reach.THIS_MACHINE].click()
    here = dialog.url
    found[0] = None
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: said.append(text))
    dialog.choices[Reach.NETWORK].click()
    assert said == [
        "The scoreboard cannot be shared with 'the network': this machine has no network now; "
        "connect it to the phones' network (their Wi-Fi) and choose again"
    ]
    assert dialog.choices[Reach.THIS_MACHINE].isChecked() and dialog.url == here and "Ann to play" in page(here)
    window.close()


def test_the_choice_of_this_machine_only_is_remembered_at_the_next_start(qtbot: QtBot, tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = window_with_network(qtbot, home, STAND_IN_NETWORK)
    assert first.controller.start(load_rules("retail"), ["Ann", "Bob"])
    dialog = first.phone_sharing.share()
    assert dialog is not None
    dialog.choices[Reach.THIS_MACHINE].click()
    first.close()

    again = window_with_network(qtbot, home, STAND_IN_NETWORK)
    assert again.controller.start(load_rules("retail"), ["Ann", "Bob"])
    shown = again.phone_sharing.share()
    assert shown is not None and again.phone_sharing.server is not None
    assert shown.choices[Reach.THIS_MACHINE].isChecked(), "the choice made before the window closed"
    assert again.phone_sharing.server.url.startswith(f"http://{LOCAL}:")
    shown.choices[Reach.NETWORK].click()
    again.close()
    third = window_with_network(qtbot, home, None)
    assert third.controller.start(load_rules("retail"), ["Ann"])
    alone = third.phone_sharing.share()
    assert alone is not None and alone.choices[Reach.THIS_MACHINE].isChecked(), "the network remembered, but there is none now"
    third.close()


def test_a_settings_file_with_an_unknown_reach_says_so_and_keeps_the_other_settings(tmp_path: Path) -> None:
    from scorekeeper.settings import FILE, Settings, load_settings

    (tmp_path / FILE).write_text('{"keep_photos": false, "stream_address": "http://phone:8080/video", "phone_reach": "everyone"}')
    settings, problem = load_settings(tmp_path)
    assert settings == Settings(keep_photos=False, stream_address="http://phone:8080/video")
    assert "'phone_reach' is 'everyone', not \"network\" or \"this machine\"" in problem
