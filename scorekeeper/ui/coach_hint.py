"""The coach's hint line under the current roll, switchable off for players who want no help.

It follows a game source (the window's controller: a ``changed`` signal and a
``state``) or is shown states one by one with :meth:`CoachHint.show_state`.
The best keep goes out on :attr:`CoachHint.best_keep_changed` so the turn
panel can highlight it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from scorekeeper.coach import Advice, Goal, Policy, advise_state, cannot_advise, not_counted, policy_for, rules_key
from scorekeeper.game import GameState
from scorekeeper.rules import KeepOption, RuleSet

GOALS = {
    Goal.POINTS: "Coach (most points):",
    Goal.FINISH_ABOVE_LEADER: "Coach (last lap, to finish above the leader):",
}
"""What the label before the hint says the advice plays for."""


class CoachHint(QWidget):
    """One line of advice for the turn on the table, and a switch to turn it off."""

    best_keep_changed = Signal(object)
    """The keep to highlight changed: a :class:`~scorekeeper.rules.KeepOption`, or None (no roll, or coach off)."""
    coaching_toggled = Signal(bool)
    """The players switched the coach on (True) or off (False)."""

    def __init__(self, source: Any = None, policy: Policy | None = None, parent: QWidget | None = None) -> None:
        """``source``: an object with a ``changed`` signal and a ``state`` (GameState or None), e.g. the
        window's GameController; None to feed states with :meth:`show_state`. ``policy``: the solved
        policy to use; None looks up (and on first use solves) the policy of each game's rules."""
        super().__init__(parent)
        self._source = source
        self._policy = policy
        self._policies: dict[str, Policy] = {}
        self._state: GameState | None = None
        self._advice: Advice | None = None
        self._best: KeepOption | None = None
        self.goal = QLabel()
        self.goal.setStyleSheet("color: #555")
        self.goal.setWordWrap(True)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setStyleSheet("color: #1a5276")
        self.switch = QCheckBox("Coach")
        self.switch.setChecked(True)
        self.switch.setToolTip("Show the best play for this turn")
        self.switch.toggled.connect(self._toggled)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.goal)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.switch)
        if source is not None:
            source.changed.connect(self.refresh)
        self.refresh()

    def coaching(self) -> bool:
        """Whether the hint is switched on."""
        return self.switch.isChecked()

    def set_coaching(self, on: bool) -> None:
        """Switch the hint on or off (as the players' checkbox does)."""
        self.switch.setChecked(on)

    def advice(self) -> Advice | None:
        """The advice shown (None when off, or when there is none for this turn)."""
        return self._advice

    def best_keep(self) -> KeepOption | None:
        """The keep the coach advises for the roll on the table, to highlight (None when off or no roll)."""
        return self._best

    def hint_text(self) -> str:
        """The hint as shown."""
        return self.text.text()

    def refresh(self) -> None:
        """Read the source's state again."""
        if self._source is not None:
            self.show_state(self._source.state)
        else:
            self.show_state(self._state)

    def show_state(self, state: GameState | None) -> None:
        """Advise on ``state``'s current turn."""
        self._state = state
        advice = None
        message = ""
        if state is not None and self.coaching():
            why = cannot_advise(state.rules)
            if why is not None:
                message = why
            else:
                advice = advise_state(self._policy_for(state.rules), state)
                message = str(advice) if advice is not None else ""
        self._advice = advice
        self.goal.setText(GOALS[advice.goal] if advice is not None else "")
        left_out = " ".join(not_counted(state.rules)) if advice is not None and state is not None else ""
        self.goal.setToolTip(f"Not counted: {left_out}" if left_out else "")
        self.goal.setVisible(advice is not None)
        self.text.setText(message)
        self.text.setVisible(bool(message))
        best = advice.best_keep if advice is not None else None
        if best != self._best:
            self._best = best
            self.best_keep_changed.emit(best)

    def _policy_for(self, rules: RuleSet) -> Policy:
        """The solved policy of ``rules`` (which the coach can advise under: :func:`cannot_advise`)."""
        if self._policy is not None and rules_key(self._policy.rules) == rules_key(rules):
            return self._policy
        key = rules_key(rules)
        if key not in self._policies:
            self._policies[key] = policy_for(rules)
        return self._policies[key]

    def _toggled(self, on: bool) -> None:
        self.refresh()
        self.coaching_toggled.emit(on)
