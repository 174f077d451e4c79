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
from PySide6.QtWidgets import QMenu, QMessageBox
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.ui.phone_dialog import PhoneDialog

LOCAL = "127.0.0.1"


def page(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        return str(response.read().decode("utf-8"))


def no_camera(spec: str, profile: object) -> object:
    from scorekeeper.pipeline.sources import SourceError

    raise SourceError(f"no camera at {spec}")


@pytest.fixture
def window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    shown = MainWindow(
        GameController(tmp_path / "home"),
        WindowOptions(source="none", phones_host=LOCAL),
        reader=lambda: None,  # type: ignore[arg-type, return-value]
        opener=no_camera,
    )
    qtbot.addWidget(shown)
    shown.show()
    return shown


def decoded(dialog: PhoneDialog) -> str:
    """What a phone's camera reads off the dialog's QR code (OpenCV's decoder)."""
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert dialog.code.pixmap().save(buffer, "PNG")
    image = cv2.imdecode(np.frombuffer(bytes(buffer.data().data()), np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def test_the_scoreboard_is_not_shared_until_asked(window: MainWindow) -> None:
    assert window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert window.phones is None
    assert window.phones_action.text() == "Scoreboard on &phones..."
    view = next(action.menu() for action in window.menuBar().actions() if action.text() == "&View")
    assert isinstance(view, QMenu) and window.phones_action in view.actions()


def test_with_no_game_on_screen_the_window_says_to_start_one(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: said.append(text))
    assert window.share_with_phones() is None
    assert said == ["Start or resume a game first (Game > New game)."] and window.phones is None


def test_the_view_menu_shares_the_game_on_screen_with_a_qr_code_of_its_address(window: MainWindow, qtbot: QtBot) -> None:
    controller = window.controller
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.phones_action.trigger()
    dialog = window.findChild(PhoneDialog)
    assert dialog is not None and dialog.isVisible()
    assert window.phones is not None
    url = window.phones.url
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
    assert window.phones is not None and window.phones.url == url, "the phones keep the same address"

    dialog.stop_button.click()
    assert window.phones is None and not dialog.isVisible()
    with pytest.raises(urllib.error.URLError):
        page(url)


def test_closing_the_window_stops_the_server(window: MainWindow) -> None:
    assert window.controller.start(load_rules("retail"), ["Ann"])
    dialog = window.share_with_phones()
    assert dialog is not None and window.phones is not None
    url = window.phones.url
    assert "Ann to play" in page(url)
    window.close()
    with pytest.raises(urllib.error.URLError):
        page(url)
