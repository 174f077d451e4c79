"""The Farkle rules engine: rule sets as data, and scoring of any roll.

Pure Python: nothing here imports Qt, OpenCV, onnxruntime or numpy.

>>> rules = load_rules("retail")
>>> print(score_roll(rules, Dice.from_str("1 1 1 1")).best)
1 1 1 1 for 1100
"""

from scorekeeper.rules.describe import describe_rules
from scorekeeper.rules.errors import (
    FarkleError,
    GameOver,
    IllegalAction,
    IllegalBank,
    IllegalKeep,
    IllegalRoll,
    RuleFileError,
)
from scorekeeper.rules.loading import (
    load_rules,
    numbered_variants,
    preset_names,
    rules_from_table,
    rules_to_table,
    rules_to_toml,
    variant_names,
)
from scorekeeper.rules.ruleset import ANY_TARGET_FROM, MAX_TARGET, EndRules, FinalLap, GameKind, KindValue, RuleSet, Scoring, Ties, TurnRules
from scorekeeper.rules.scoring import (
    MARKS,
    Combination,
    CombinationKind,
    Dice,
    DieToken,
    KeepOption,
    RollScore,
    best_split,
    check_marks,
    die_token,
    most_points,
    read_die,
    score_roll,
)

__all__ = [
    "ANY_TARGET_FROM",
    "MARKS",
    "MAX_TARGET",
    "Combination",
    "CombinationKind",
    "Dice",
    "DieToken",
    "EndRules",
    "FarkleError",
    "FinalLap",
    "GameKind",
    "GameOver",
    "IllegalAction",
    "IllegalBank",
    "IllegalKeep",
    "IllegalRoll",
    "KeepOption",
    "KindValue",
    "RollScore",
    "RuleFileError",
    "RuleSet",
    "Scoring",
    "Ties",
    "TurnRules",
    "best_split",
    "check_marks",
    "describe_rules",
    "die_token",
    "load_rules",
    "most_points",
    "numbered_variants",
    "preset_names",
    "read_die",
    "rules_from_table",
    "rules_to_table",
    "rules_to_toml",
    "score_roll",
    "variant_names",
]
