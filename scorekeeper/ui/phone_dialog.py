"""View > Scoreboard on phones: the page's address, whom it reaches (a choice: the phones on the
network, or this machine only) and its QR code, to scan at the table."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPixmap
from PySide6.QtWidgets import QButtonGroup, QDialog, QDialogButtonBox, QGroupBox, QLabel, QPushButton, QRadioButton, QVBoxLayout, QWidget

from scorekeeper.serve.address import Reach, Sharing
from scorekeeper.serve.qr import qr_png


class PhoneDialog(QDialog):
    """Shows where the phones find the scoreboard and whom that address reaches, lets the players
    choose that (the network, or this machine only); Stop sharing closes the page for every phone."""

    def __init__(
        self,
        url: str,
        sharing: Sharing,
        on_choose: Callable[[Reach], tuple[str, Sharing] | None],
        on_stop: Callable[[], None],
        parent: QWidget | None = None,
    ) -> None:
        """``on_choose`` moves the server to reach whom was chosen: the new address and choice, or
        None where it could not (the choice then goes back)."""
        super().__init__(parent)
        self.setWindowTitle("Scoreboard on the phones")
        self.url = url
        """The page's address, token included."""
        self.sharing = sharing
        """Whom the address reaches."""
        self._on_choose = on_choose
        self._on_stop = on_stop
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Scan the code with a phone: the page shows the scores and follows the game by itself. "
            "Nobody can change the game from it."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        box = QGroupBox("Who can open it")
        column = QVBoxLayout(box)
        self.choices: dict[Reach, QRadioButton] = {}
        """One button for each reach: the phones on the network, this machine only."""
        group = QButtonGroup(self)
        for reach in Reach:
            button = QRadioButton()
            button.clicked.connect(lambda _=False, chosen=reach: self.choose(chosen))
            group.addButton(button)
            column.addWidget(button)
            self.choices[reach] = button
        self.reach = QLabel()
        """Whom the address reaches, in a sentence."""
        self.reach.setWordWrap(True)
        column.addWidget(self.reach)
        layout.addWidget(box)
        self.code = QLabel()
        """The QR code of :attr:`url`."""
        self.code.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.code)
        self.address = QLabel()
        """The address in words, selectable to copy."""
        self.address.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.address.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.address.setStyleSheet("font-family: monospace; font-size: 11pt")
        layout.addWidget(self.address)
        self.show_sharing(url, sharing)
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

    def show_sharing(self, url: str, sharing: Sharing) -> None:
        """Show this address, its QR code and whom it reaches."""
        self.url, self.sharing = url, sharing
        picture = QPixmap()
        picture.loadFromData(qr_png(url), "PNG")
        self.code.setPixmap(picture)
        self.address.setText(url)
        self.reach.setText(sharing.said)
        for reach, button in self.choices.items():
            button.setText(sharing.label(reach))
            button.setEnabled(reach in sharing.choices)
            button.setChecked(reach is sharing.reach)

    def choose(self, reach: Reach) -> None:
        """Share with whom was chosen; the choice goes back where it could not be done."""
        if reach is self.sharing.reach:
            return
        moved = self._on_choose(reach)
        if moved is None:
            self.show_sharing(self.url, self.sharing)
        else:
            self.show_sharing(*moved)

    def copy(self) -> None:
        """Put the address on the clipboard."""
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(self.url)

    def stop(self) -> None:
        """Stop the server and close."""
        self._on_stop()
        self.accept()
