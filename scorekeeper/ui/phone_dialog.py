"""View > Scoreboard on phones: the page's address and its QR code, to scan at the table."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from scorekeeper.serve.qr import qr_png


class PhoneDialog(QDialog):
    """Shows where the phones find the scoreboard; Stop sharing closes the page for every phone."""

    def __init__(self, url: str, on_stop: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Scoreboard on the phones")
        self.url = url
        """The page's address, token included."""
        self._on_stop = on_stop
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Scan the code with a phone on the same network as this computer: the page shows the scores "
            "and follows the game by itself. Nobody can change the game from it."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.code = QLabel()
        """The QR code of :attr:`url`."""
        picture = QPixmap()
        picture.loadFromData(qr_png(url), "PNG")
        self.code.setPixmap(picture)
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.code)
        self.address = QLabel(url)
        """The address in words, selectable to copy."""
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.address.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.address.setStyleSheet("font-family: monospace; font-size: 11pt")
        layout.addWidget(self.address)
        note = QLabel("Anyone who has the address can read the scores: stop sharing when the game is over.")
        note.setWordWrap(True)
        layout.addWidget(note)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("Copy address")
        self.stop_button = QPushButton("Stop sharing")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.stop_button, QDialogButtonBox.ButtonRole.DestructiveRole)
        self.copy_button.clicked.connect(self.copy)
        self.stop_button.clicked.connect(self.stop)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def copy(self) -> None:
        """Put the address on the clipboard."""
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(self.url)

    def stop(self) -> None:
        """Stop the server and close."""
        self._on_stop()
        self.accept()
