"""The rules in force, in plain words, viewable at any time."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from scorekeeper.rules import RuleSet, describe_rules


def rules_text(rules: RuleSet, target: int | None = None) -> str:
    """The rules as short paragraphs, the game's own target in place of the rules' when it differs."""
    return "\n\n".join(describe_rules(rules, target))


class RulesDialog(QDialog):
    """A window with the rules in force."""

    def __init__(self, rules: RuleSet, target: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Rules in force: {rules.title}")
        self.text = QLabel(rules_text(rules, target))
        self.text.setWordWrap(True)
        font = self.text.font()
        font.setPointSize(max(font.pointSize(), 10) + 2)
        self.text.setFont(font)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text)
        layout.addWidget(buttons)
        self.resize(560, 520)
