"""The strategy coach: the best play for any turn, solved from the rules in force.

For a rule set the coach solves, once, the solitaire-optimal turn policy:
which keep, then roll or bank, to bank the most points on average, for every
turn total, number of dice, board entry and Farkle streak (and under the
wild-die variant whether the wild die is among the dice). In the last lap
it plays for the chance to finish above the leader instead. Under piggyback
it weighs taking on the last bank's pot against six fresh dice. Where it
cannot know the odds (the card edition, spicy) it says so and advises nothing.

Not a pure package (it uses numpy), and it imports no Qt.

>>> from scorekeeper.rules import Dice, load_rules
>>> policy = Policy.solve(load_rules("retail"))
>>> print(advise(policy, Situation(total=300, dice=3, roll=Dice.from_str("1 2 3"))))
Keep 1 for 100, then bank: rolling 2 dice farkles 44.4% of the time; expected -69 if you roll
"""

from scorekeeper.coach.advice import Advice, Goal, KeepValue, PotAdvice, Situation, advise, advise_state, hint_text, pot_text
from scorekeeper.coach.cache import CACHE_ENV, cache_dir, policy_for, rules_key
from scorekeeper.coach.odds import RollOdds, farkle_chance, roll_odds
from scorekeeper.coach.policy import CoachError, Policy, cannot_advise, not_counted

__all__ = [
    "CACHE_ENV",
    "Advice",
    "CoachError",
    "Goal",
    "KeepValue",
    "Policy",
    "PotAdvice",
    "RollOdds",
    "Situation",
    "advise",
    "advise_state",
    "cannot_advise",
    "cache_dir",
    "farkle_chance",
    "hint_text",
    "not_counted",
    "policy_for",
    "pot_text",
    "roll_odds",
    "rules_key",
]
