"""The rules in force, in plain words, viewable at any time."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget

from scorekeeper.rules import RuleSet, describe_rules


def rules_text(rules: RuleSet, target: int | None = None) -> str:
    """The rules as short paragraphs, the game's own target in place of the rules' when it differs."""
    return "\n\n".join(describe_rules(rules, target))


class RulesDialog(QDialog):
    """A window with the rules in force: their name as its heading, the rules straight under it
    (they scroll where they are longer than the window)."""

    def __init__(self, rules: RuleSet, target: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Rules in force: {rules.title}")
        heading, *lines = describe_rules(rules, target)
        self.heading = QLabel(heading)
        """The rules' name."""
        self.text = QLabel("\n\n".join(lines))
        """The rules, a paragraph each."""
        for label, extra in ((self.heading, 4), (self.text, 2)):
            label.setWordWrap(True)
            label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            font = label.font()
            font.setPointSize(max(font.pointSize(), 10) + extra)
            font.setBold(label is self.heading)
            label.setFont(font)
        view = QScrollArea()
        view.setWidget(self.text)
        view.setWidgetResizable(True)
        view.setFrameShape(QFrame.Shape.NoFrame)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(view, 1)
        layout.addWidget(buttons)
        self.resize(600, 640)
