"""The Game menu's files: a new game, resuming one (offered at start or picked), deleting one,
and exporting the score sheet of the game on screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMessageBox

from scorekeeper.errors import ScorekeeperError
from scorekeeper.export import write_sheet
from scorekeeper.export.writers import SHEET_FILES, written_words
from scorekeeper.game.photos import delete_game
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import FarkleError
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.new_game import NewGameDialog
from scorekeeper.ui.resume_dialog import ResumeChoice, ResumeDialog


class GameFiles:
    """Starts, resumes, deletes and exports the window's games through their dialogs; says on the
    window's status bar, or in a message box, what was done or why it could not be."""

    def __init__(self, window: QMainWindow, controller: GameController) -> None:
        self._window = window
        self._controller = controller

    def startup(self) -> None:
        """On start: offer the unfinished games, else ask for a new one."""
        found = unfinished_summaries(self._controller.home)
        if found:
            dialog = ResumeDialog(found, on_start=True, parent=self._window)
            dialog.exec()
            chosen = dialog.chosen()
            if dialog.choice is ResumeChoice.RESUME and chosen is not None:
                self.resume(chosen)
                return
            if dialog.choice is ResumeChoice.SET_ASIDE and chosen is not None:
                try:
                    self._controller.shelve(chosen)
                except FarkleError as exc:
                    QMessageBox.warning(self._window, "Cannot set the game aside", str(exc))
        self.new_game()

    def new_game(self) -> None:
        """Game > New game: the players of the game on screen offered again."""
        names = tuple(p.name for p in self._controller.state.players) if self._controller.state else ()
        dialog = NewGameDialog(names, parent=self._window)
        if dialog.exec() != NewGameDialog.DialogCode.Accepted:
            return
        setup = dialog.setup()
        if setup is not None:
            self._controller.start(setup.rules, setup.players, setup.target)

    def choose_resume(self) -> None:
        """Game > Resume a game: the unfinished games listed, or any journal picked by its file."""
        dialog = ResumeDialog(unfinished_summaries(self._controller.home), on_start=False, parent=self._window)
        dialog.exec()
        chosen = dialog.chosen()
        if dialog.choice is ResumeChoice.RESUME and chosen is not None:
            self.resume(chosen)
        elif dialog.choice is ResumeChoice.DELETE and chosen is not None:
            answer = QMessageBox.question(
                self._window, "Delete the game?", f"Delete the game in {chosen.name} with its roll pictures? This cannot be undone."
            )
            if answer == QMessageBox.StandardButton.Yes:
                self.delete_game(chosen)
        elif dialog.choice is ResumeChoice.OTHER_FILE:
            folder = self._controller.home / "games"
            name, _ = QFileDialog.getOpenFileName(self._window, "Resume a game", str(folder), "Game journals (*.jsonl)")
            if name:
                self.resume(Path(name))

    def delete_game(self, path: Path) -> bool:
        """Delete the game in ``path``, its journal and its roll pictures; never the game on screen."""
        journal = self._controller.journal
        if journal is not None and path.resolve() == journal.path.resolve():
            self._say("That is the game on the table: start or resume another one before deleting it.")
            return False
        try:
            delete_game(path)
        except FarkleError as exc:
            QMessageBox.warning(self._window, "Cannot delete the game", str(exc))
            return False
        except OSError as exc:
            QMessageBox.warning(self._window, "Cannot delete the game", f"{path}: {exc.strerror or exc}")
            return False
        self._say(f"Deleted the game in {path.name} and its roll pictures.")
        return True

    def resume(self, path: Path) -> None:
        """Go on with the game in the journal ``path``; damage found in it is told once the window is up."""
        try:
            damage = self._controller.resume(path)
        except FarkleError as exc:
            QMessageBox.warning(self._window, "Cannot resume", str(exc))
            return
        if damage is not None:
            QTimer.singleShot(0, lambda: QMessageBox.warning(self._window, "The journal was damaged", str(damage)))

    def choose_export(self, kind: str) -> None:
        """Game > Export score sheet: pick the file for a sheet of format ``kind`` and write it."""
        if not self._controller.events:
            QMessageBox.information(self._window, "Export", "There is no game to export yet.")
            return
        words = SHEET_FILES[kind]
        name, _ = QFileDialog.getSaveFileName(
            self._window, f"Export the score sheet: {words}", f"farkle-score-sheet.{kind}", f"{words[0].upper()}{words[1:]} (*.{kind})"
        )
        if name:
            self.export_sheet(Path(name), kind)

    def export_sheet(self, path: Path, kind: str) -> bool:
        """Write the score sheet; says on screen where it went or why it could not."""
        journal = self._controller.journal
        try:
            write_sheet(self._controller.events, path, kind, journal.path if journal is not None else None)
        except (ScorekeeperError, OSError) as exc:
            QMessageBox.warning(self._window, "Export failed", str(exc))
            return False
        self._say(written_words(path, kind))
        return True

    def _say(self, text: str) -> None:
        self._window.statusBar().showMessage(text, 8000)
