"""View > Scoreboard on phones: the scoreboard server that follows the game on screen, whom it
reaches, and stopping it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QMainWindow, QMessageBox

from scorekeeper.errors import ScorekeeperError
from scorekeeper.serve import BackgroundServer, NoNetwork, Reach, Sharing
from scorekeeper.settings import load_settings, remember_phone_reach
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.phone_dialog import PhoneDialog


SAVED_REACH = {Reach.NETWORK: "network", Reach.THIS_MACHINE: "this machine"}
"""Each reach as the settings keep it."""


class PhoneSharing:
    """The window's scoreboard for the phones: started on request for the game on screen, then
    following whichever game the window shows, until stopped or the window closes."""

    def __init__(self, window: QMainWindow, controller: GameController, network: Callable[[], str | None]) -> None:
        """``network`` finds this machine's network address (None: no network)."""
        self._window = window
        self._controller = controller
        self._network = network
        self.server: BackgroundServer | None = None
        """The scoreboard server for the phones, while View > Scoreboard on phones has it running."""
        saved = {text: reach for reach, text in SAVED_REACH.items()}.get(load_settings(controller.home)[0].phone_reach)
        self.sharing: Sharing | None = None if saved is None else Sharing(saved, None)
        """Whom the phones' scoreboard reaches (this machine only, or the network): the last choice,
        kept in the settings for the next start."""

    def follow_game(self) -> None:
        """Point a running server at the game on screen (after a new game or a resume)."""
        if self.server is not None and self._controller.journal is not None:
            self.server.follow(self._controller.journal.path)

    def share(self) -> PhoneDialog | None:
        """View > Scoreboard on phones: start the server for the game on screen (it then follows
        whichever game the window shows), on the network where this machine has one (the dialog
        can make it this machine only), and show its address, whom it reaches and its QR code."""
        journal = self._controller.journal
        if journal is None:
            QMessageBox.information(self._window, "Scoreboard on phones", "Start or resume a game first (Game > New game).")
            return None
        if self.server is None:
            network = self._network()
            sharing = Sharing.first(network) if self.sharing is None else self.sharing.again(network)
            if not self._share_on(sharing, journal.path):
                return None
        assert self.server is not None and self.sharing is not None
        dialog = PhoneDialog(self.server.url, self.sharing, self.choose_reach, self.stop, self._window)
        dialog.open()
        return dialog

    def choose_reach(self, reach: Reach) -> tuple[str, Sharing] | None:
        """The dialog's choice of whom the scoreboard reaches: the server moves to the address
        that reaches them (a new address, so a page open on the old one stops following); the
        page's address and the choice, or None where it could not (said in a message)."""
        journal = self._controller.journal
        if journal is None or self.sharing is None:
            return None
        try:
            sharing = self.sharing.choose(reach, self._network())
        except NoNetwork as exc:
            QMessageBox.warning(self._window, "Scoreboard on phones", f"The scoreboard cannot be shared with {exc}")
            return None
        if self.server is None or sharing.host != self.sharing.host:
            old = self.server
            if not self._share_on(sharing, journal.path):
                return None
            if old is not None:
                old.stop()
        self.sharing = sharing
        self._remember(reach)
        assert self.server is not None
        return self.server.url, sharing

    def _remember(self, reach: Reach) -> None:
        """Keep the choice in the settings for the next start; says so where the disk refuses."""
        home = self._controller.home
        try:
            remember_phone_reach(home, SAVED_REACH[reach])
        except OSError as exc:
            self._window.statusBar().showMessage(f"Whom the phones' scoreboard reaches is not kept for the next start: {exc}", 15000)

    def _share_on(self, sharing: Sharing, game: Path) -> bool:
        """Start the phones' server where ``sharing`` says; says why not in a message box."""
        server = BackgroundServer(game, sharing.host)
        try:
            server.start()
        except ScorekeeperError as exc:
            QMessageBox.warning(self._window, "Scoreboard on phones", f"The scoreboard cannot be shared: {exc}")
            return False
        self.server, self.sharing = server, sharing
        self._window.statusBar().showMessage(f"Scoreboard at {server.url}: {sharing.said}", 8000)
        return True

    def stop(self) -> None:
        """Stop the phones' scoreboard: every open page loses its connection."""
        if self.server is not None:
            self.server.stop()
            self.server = None
            self._window.statusBar().showMessage("The scoreboard is no longer shared with the phones.", 8000)
