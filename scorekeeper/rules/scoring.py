"""Scoring a roll: every legal keep, its points, the best keep, or Farkle.

A keep is a part of one roll whose dice can all be split into combinations of
that roll alone ("Combinations only count when they come up in a single roll",
farkle-rules-and-scoring.txt). Its points are those of the best split, which is
the player's to take: under the retail chart four 1s are three 1s and a 1
(1,100), not four of a kind (1,000).

>>> from scorekeeper.rules import load_rules
>>> scored = score_roll(load_rules("retail"), Dice.from_str("1 1 5 3 4 6"))
>>> print(scored.best)
1 1 5 for 250
>>> [str(option) for option in scored.options]
['1 1 5 for 250', '1 1 for 200', '1 5 for 150', '1 for 100', '5 for 50']
>>> score_roll(load_rules("retail"), Dice.from_str("2 2 3 4 6 6")).farkle
True
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper.rules.errors import IllegalKeep, IllegalRoll
from scorekeeper.rules.ruleset import RuleSet, Scoring
from scorekeeper.safe_input import quote

FACES = (1, 2, 3, 4, 5, 6)
MAX_DICE = 6
MARKS = ("", "r", "w", "wr")
"""The marks a die may carry, in the order dice of one face sort: plain, red pips showing (the spicy
variant), the wild die (the wild-die variant), the wild die showing a red-pip face."""

DieToken = int | str
"""One die as a game's events write it: its face as an int when it is plain, else the face followed by
its mark letters as a string (``"1w"``, ``"5r"``, ``"1wr"``)."""


def die_token(face: int, mark: str = "") -> DieToken:
    """The token of a die showing ``face`` with ``mark``: the plain int, or the face and its letters.

    >>> die_token(5), die_token(1, "w"), die_token(3, "wr")
    (5, '1w', '3wr')
    """
    return face if not mark else f"{face}{mark}"


def read_die(token: object) -> tuple[int, str]:
    """The face and mark of a die token (an int 1-6, or a string such as ``"1w"``, ``"5r"``, ``"2"``);
    :class:`IllegalRoll` quoting it when it is none. Mark letters may come in either order or case.

    >>> read_die(4), read_die("1w"), read_die("6RW")
    ((4, ''), (1, 'w'), (6, 'wr'))
    >>> read_die("7w")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalRoll: die '7w' is not a face of a die (1-6) with its marks (w: the wild die, r: red pips)
    """
    if isinstance(token, int) and not isinstance(token, bool) and 1 <= token <= 6:
        return token, ""
    if isinstance(token, str) and 1 <= len(token) <= 3 and token[0] in "123456":
        letters = token[1:].lower()
        if len(set(letters)) == len(letters) and set(letters) <= {"w", "r"}:
            return int(token[0]), "".join(sorted(letters, reverse=True))
    raise IllegalRoll(f"die {quote(token)} is not a face of a die (1-6) with its marks (w: the wild die, r: red pips)")


@dataclass(frozen=True, order=True, repr=False)
class Dice:
    """A handful of dice: a roll, or the dice kept from one. Always sorted, by face and then mark.

    A die may carry a mark (:data:`MARKS`): written after its face, ``1w`` is the wild die showing
    1, ``5r`` a 5 whose pips are red, ``1wr`` both. A roll holds at most one wild die.

    >>> Dice.from_str("6 1 5")
    Dice(values=(1, 5, 6))
    >>> str(Dice.from_str("615"))
    '1 5 6'
    >>> marked = Dice.from_str("1w 1 5r 3")
    >>> marked, str(marked), marked.tokens()
    (Dice(values=(1, 1, 3, 5), marks=('', 'w', '', 'r')), '1 1w 3 5r', [1, '1w', 3, '5r'])
    >>> marked.counts()
    (2, 0, 1, 0, 1, 0)
    >>> Dice.from_str("1 7")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalRoll: die 7 in '1 7' is not a face of a die (1-6)
    """

    values: tuple[int, ...]
    """The faces, sorted ascending."""
    marks: tuple[str, ...]
    """Each die's mark (one of :data:`MARKS`), aligned with :attr:`values`; all ``""`` for plain dice."""

    def __init__(self, values: Iterable[int], marks: Iterable[str] | None = None) -> None:
        given = tuple(values)
        for value in given:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise IllegalRoll(f"die {quote(value)} in {quote(list(given))} is not a face of a die (1-6)")
        if marks is None:
            if len(given) > MAX_DICE:
                shown = " ".join(str(value) for value in given)
                raise IllegalRoll(f"{quote(shown)} has {len(given):,} dice; Farkle is played with six")
            object.__setattr__(self, "values", tuple(sorted(given)))
            object.__setattr__(self, "marks", ("",) * len(given))
            return
        signs = tuple(marks)
        if len(signs) != len(given):
            raise IllegalRoll(f"{quote(list(given))} has {len(given):,} dice but {len(signs):,} marks {quote(list(signs))}")
        for sign in signs:
            if sign not in MARKS:
                raise IllegalRoll(f"mark {quote(sign)} in {quote(list(signs))} is not a die's mark (w: the wild die, r: red pips)")
        if len(given) > MAX_DICE:
            raise IllegalRoll(f"{quote(_shown(given, signs))} has {len(given):,} dice; Farkle is played with six")
        if sum("w" in sign for sign in signs) > 1:
            raise IllegalRoll(f"{quote(_shown(given, signs))} has more than one wild die; mark only the die of the other colour with w")
        dice = sorted(zip(given, signs))
        object.__setattr__(self, "values", tuple(face for face, _ in dice))
        object.__setattr__(self, "marks", tuple(sign for _, sign in dice))

    @classmethod
    def from_str(cls, text: str) -> Dice:
        """Read faces written as digits, with or without spaces or commas, each followed by its mark
        letters if it has any (``1w 1 5r 3``)."""
        dice: list[tuple[int, str]] = []
        for char in text:
            if char.isspace() or char == ",":
                continue
            if char in "123456":
                dice.append((int(char), ""))
            elif char.lower() in ("w", "r") and dice and char.lower() not in dice[-1][1]:
                face, sign = dice[-1]
                dice[-1] = read_die(f"{face}{sign}{char}")
            elif char.lower() in ("w", "r"):
                raise IllegalRoll(
                    f"mark {char} in {quote(text)} follows no die or repeats; write it right after the die's face, "
                    "e.g. 1w for the wild die showing 1 or 5r for a 5 with red pips"
                )
            else:
                raise IllegalRoll(f"die {char} in {quote(text)} is not a face of a die (1-6)")
        return cls.from_dice(dice)

    @classmethod
    def from_tokens(cls, tokens: Iterable[object]) -> Dice:
        """Dice from die tokens (:data:`DieToken`), as the events write them.

        >>> Dice.from_tokens([5, "1w", 1]) == Dice.from_str("1 1w 5")
        True
        """
        given = list(tokens)
        try:
            dice = [read_die(token) for token in given]
        except IllegalRoll as exc:
            raise IllegalRoll(f"{exc} in {quote(given)}") from None
        return cls.from_dice(dice)

    @classmethod
    def from_dice(cls, dice: Iterable[tuple[int, str]]) -> Dice:
        """Dice from each die's face and mark (as :attr:`dice` gives them)."""
        given = list(dice)
        return cls((face for face, _ in given), (mark for _, mark in given))

    def tokens(self) -> list[DieToken]:
        """The dice as die tokens: plain ones as ints, so plain dice write as they always have."""
        return [die_token(face, sign) for face, sign in zip(self.values, self.marks)]

    def __str__(self) -> str:
        return " ".join(str(token) for token in self.tokens())

    def __repr__(self) -> str:
        if not self.marked:
            return f"Dice(values={self.values!r})"
        return f"Dice(values={self.values!r}, marks={self.marks!r})"

    def __len__(self) -> int:
        return len(self.values)

    @property
    def marked(self) -> bool:
        """Whether any die carries a mark."""
        return any(self.marks)

    @property
    def dice(self) -> tuple[tuple[int, str], ...]:
        """Each die as its face and mark, in order."""
        return tuple(zip(self.values, self.marks))

    def counts(self) -> tuple[int, ...]:
        """How many dice show each face 1-6, whatever their marks."""
        return tuple(self.values.count(face) for face in FACES)

    def contains(self, other: Dice) -> bool:
        """Whether ``other`` can be taken out of these dice, each die with its mark."""
        if not self.marked and not other.marked:
            return all(mine >= theirs for mine, theirs in zip(self.counts(), other.counts()))
        mine = self.dice
        return all(mine.count(die) >= count for die, count in _tally(other.dice).items())

    def without(self, other: Dice) -> Dice:
        """These dice less ``other`` (which must be among them, marks and all)."""
        left = list(self.dice)
        for die in other.dice:
            left.remove(die)
        return Dice.from_dice(left)


def _shown(values: Iterable[int], marks: Iterable[str]) -> str:
    """Dice as typed, in the order given: ``"1w 3 5r"``."""
    return " ".join(str(die_token(face, mark)) for face, mark in zip(values, marks))


def _sorted_dice(dice: tuple[tuple[int, str], ...]) -> Dice:
    """Dice already checked and sorted (a part of a roll's dice, taken in order), made without checking again."""
    made = object.__new__(Dice)
    object.__setattr__(made, "values", tuple(face for face, _ in dice))
    object.__setattr__(made, "marks", tuple(mark for _, mark in dice))
    return made


def _tally(dice: Iterable[tuple[int, str]]) -> dict[tuple[int, str], int]:
    counted: dict[tuple[int, str], int] = {}
    for die in dice:
        counted[die] = counted.get(die, 0) + 1
    return counted


class CombinationKind(enum.Enum):
    """The scoring combinations of the charts."""

    SINGLE = "single"
    THREE_OF_A_KIND = "three of a kind"
    FOUR_OF_A_KIND = "four of a kind"
    FIVE_OF_A_KIND = "five of a kind"
    SIX_OF_A_KIND = "six of a kind"
    STRAIGHT = "straight"
    THREE_PAIRS = "three pairs"
    FOUR_OF_A_KIND_AND_PAIR = "four of a kind and a pair"
    TWO_TRIPLETS = "two triplets"


_OF_A_KIND = {
    3: CombinationKind.THREE_OF_A_KIND,
    4: CombinationKind.FOUR_OF_A_KIND,
    5: CombinationKind.FIVE_OF_A_KIND,
    6: CombinationKind.SIX_OF_A_KIND,
}


@dataclass(frozen=True)
class Combination:
    """One combination of a split: which dice and what they score."""

    kind: CombinationKind
    """Which combination of the chart."""
    dice: Dice
    """The dice it is made of."""
    points: int
    """What it scores under the rules in force."""
    wild_as: int | None = None
    """Wild-die variant: the face the wild die showing 1 stands for in this combination, when it is
    not a 1; None otherwise."""
    doubled: bool = False
    """Spicy variant: the combination holds a red-pip face, so :attr:`points` are double its value."""

    @property
    def notes(self) -> list[str]:
        """What the variants did to it, in words: the wild die's stand-in, the doubling."""
        return ([f"the wild 1 as a {self.wild_as}"] if self.wild_as is not None else []) + (
            ["doubled: red pips"] if self.doubled else []
        )

    def __str__(self) -> str:
        return f"{self.kind.value} {self.dice} ({'; '.join([str(self.points), *self.notes])})"


@dataclass(frozen=True)
class KeepOption:
    """One legal keep of a roll, scored by its best split."""

    keep: Dice
    """The dice set aside."""
    points: int
    """Points of the best split."""
    split: tuple[Combination, ...]
    """The best split into combinations."""

    def __str__(self) -> str:
        return f"{self.keep} for {self.points}"


@dataclass(frozen=True)
class RollScore:
    """Everything the rules say about one roll."""

    roll: Dice
    """The dice rolled."""
    options: tuple[KeepOption, ...]
    """Every legal keep: most points first, then fewer dice (more left to roll)."""
    wins: bool
    """The roll holds six of a kind and six of a kind wins the game under these rules."""

    @property
    def farkle(self) -> bool:
        """No die of the roll scores."""
        return not self.options

    @property
    def winning_keep(self) -> KeepOption | None:
        """On a winning roll, the keep of all six dice that claims the win; None otherwise."""
        if not self.wins:
            return None
        return next(option for option in self.options if len(option.keep) == MAX_DICE)

    @property
    def best(self) -> KeepOption | None:
        """The winning keep, else the option worth the most points; None on a Farkle."""
        return self.winning_keep or (self.options[0] if self.options else None)

    def matched(self, keep: Dice) -> Dice:
        """The dice of the roll that ``keep`` names. A die named with its mark is that die; a die named
        without one is a plain die of that face where the roll has one left, else a marked one (the
        choice that scores the most, where there is one), so ``1 5`` keeps ``1w 5`` from ``1w 5 3``.

        >>> from scorekeeper.rules import load_rules
        >>> scored = score_roll(load_rules("retail+wild-die+spicy"), Dice.from_str("1w 1 5r 3"))
        >>> str(scored.matched(Dice.from_str("1 1 5"))), str(scored.matched(Dice.from_str("1")))
        ('1 1w 5r', '1')
        """
        if not self.roll.marked or self.roll.contains(keep):
            return keep
        left = list(self.roll.dice)
        named = [die for die in keep.dice if die[1]]
        for die in named:
            if die not in left:
                return keep
            left.remove(die)
        picks: list[list[Dice]] = [[Dice.from_dice(named)]]
        for face, count in zip(FACES, Dice(face for face, mark in keep.dice if not mark).counts()):
            plain = min(count, left.count((face, "")))
            marked = sorted(die for die in left if die[0] == face and die[1])
            if count - plain > len(marked):
                return keep
            picks.append(
                [Dice.from_dice([(face, "")] * plain + list(rest)) for rest in set(itertools.combinations(marked, count - plain))]
            )
        choices = [Dice.from_dice(die for part in parts for die in part.dice) for parts in itertools.product(*picks)]
        points = {option.keep: option.points for option in self.options}
        return max(sorted(choices), key=lambda choice: points.get(choice, -1))

    def option_for(self, keep: Dice) -> KeepOption:
        """The option for ``keep`` (matched to the roll's dice, :meth:`matched`), or :class:`IllegalKeep`
        saying why there is none."""
        if not len(keep):
            raise IllegalKeep("keep: no dice named; say which dice to set aside, e.g. 1 5")
        keep = self.matched(keep)
        if not self.roll.contains(keep):
            raise IllegalKeep(f"keep {str(keep)!r} is not in the roll {str(self.roll)!r}")
        for option in self.options:
            if option.keep == keep:
                return option
        faces = sorted(set(keep.values))
        dead = [face for face in faces if not any(face in option.keep.values for option in self.options)]
        if dead:
            raise IllegalKeep(f"keep {str(keep)!r} holds non-scoring die {dead[0]}")
        short = [face for face in faces if not _face_can_score(keep, face, self)]
        if short:
            face, count = short[0], keep.values.count(short[0])
            some = "a single" if count == 1 else ("two", "three", "four", "five", "six")[count - 2]
            raise IllegalKeep(
                f"keep {str(keep)!r}: {some} {face}{'s score' if count > 1 else ' scores'} nothing on "
                f"{'their' if count > 1 else 'its'} own; "
                f"{face}s score only as three of a kind or more, or in a six-dice combination"
            )
        raise IllegalKeep(f"keep {str(keep)!r} holds dice that do not split into combinations")


def _face_can_score(keep: Dice, face: int, scored: RollScore) -> bool:
    return any(face in option.keep.values for option in scored.options if keep.contains(option.keep))


Split = tuple[int, tuple[Combination, ...]]


def _face_splits(scoring: Scoring, face: int, count: int) -> Split | None:
    """Best way to score ``count`` dice of one ``face`` on their own, or None."""
    if count == 0:
        return 0, ()
    best: Split | None = None
    if face in (1, 5):
        rest = _face_splits(scoring, face, count - 1)
        if rest is not None:
            single = Combination(CombinationKind.SINGLE, Dice([face]), scoring.one if face == 1 else scoring.five)
            best = (rest[0] + single.points, (single, *rest[1]))
    for size in range(3, count + 1):
        points = scoring.of_a_kind(face, size)
        rest = _face_splits(scoring, face, count - size)
        if points and rest is not None and (best is None or rest[0] + points > best[0]):
            group = Combination(_OF_A_KIND[size], Dice([face] * size), points)
            best = (rest[0] + points, (group, *rest[1]))
    return best


def _six_dice_combination(scoring: Scoring, keep: Dice) -> Combination | None:
    """The best combination that needs all six dice, or None."""
    counts = sorted((c for c in keep.counts() if c), reverse=True)
    found: list[tuple[CombinationKind, int]] = []
    if counts == [1] * 6:
        found.append((CombinationKind.STRAIGHT, scoring.straight))
    pairs = counts == [2, 2, 2] or (scoring.four_of_a_kind_as_two_pairs and all(c % 2 == 0 for c in counts))
    if pairs:
        found.append((CombinationKind.THREE_PAIRS, scoring.three_pairs))
    if counts == [4, 2]:
        found.append((CombinationKind.FOUR_OF_A_KIND_AND_PAIR, scoring.four_of_a_kind_and_pair))
    if counts == [3, 3]:
        found.append((CombinationKind.TWO_TRIPLETS, scoring.two_triplets))
    scoring_ones = [(kind, points) for kind, points in found if points]
    if not scoring_ones:
        return None
    kind, points = max(scoring_ones, key=lambda item: item[1])
    return Combination(kind, keep, points)


@functools.lru_cache(maxsize=None)
def best_split(scoring: Scoring, keep: Dice) -> Split | None:
    """Points and combinations of the best complete split of ``keep``, or None if it has none.

    >>> from scorekeeper.rules import load_rules
    >>> points, split = best_split(load_rules("retail").scoring, Dice.from_str("1111"))
    >>> points, [str(c) for c in split]
    (1100, ['single 1 (100)', 'three of a kind 1 1 1 (1000)'])
    """
    if keep.marked:
        return _marked_split(scoring, keep)
    total = 0
    parts: list[Combination] = []
    for face, count in zip(FACES, keep.counts()):
        face_split = _face_splits(scoring, face, count)
        if face_split is None:
            total, parts = -1, []
            break
        total += face_split[0]
        parts.extend(face_split[1])
    best: Split | None = (total, tuple(parts)) if total > 0 else None
    if len(keep) == MAX_DICE:
        whole = _six_dice_combination(scoring, keep)
        if whole is not None and (best is None or whole.points > best[0]):
            best = (whole.points, (whole,))
    return best


def _group_points(scoring: Scoring, face: int, size: int) -> int:
    """Points of ``size`` dice of ``face`` as one combination (size 1: a single 1 or 5), 0 if none."""
    if size == 1:
        return scoring.one if face == 1 else scoring.five if face == 5 else 0
    return scoring.of_a_kind(face, size) if size >= 3 else 0


@functools.lru_cache(maxsize=None)
def _groupings(scoring: Scoring, face: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Every way to split ``count`` dice of one ``face`` wholly into combinations: the sizes of the
    combinations (1: a single), each way once, smallest first."""

    def ways(left: int, smallest: int) -> list[tuple[int, ...]]:
        if not left:
            return [()]
        found = []
        for size in range(smallest, left + 1):
            if _group_points(scoring, face, size):
                found += [(size, *rest) for rest in ways(left - size, size)]
        return found

    return tuple(ways(count, 1))


Stood = tuple[tuple[int, str], int]
"""A die of a keep (its face and mark) and the face it counts as (its own, or the wild die's stand-in)."""


def _face_split_marked(scoring: Scoring, face: int, dice: list[Stood]) -> Split | None:
    """Best way to score ``dice`` that all count as ``face`` on their own, each combination holding a
    red face doubled, the red dice dealt to the combinations worth the most."""
    reds = [stood for stood in dice if "r" in stood[0][1]]
    best: tuple[int, list[int]] | None = None
    for sizes in _groupings(scoring, face, len(dice)):
        ordered = sorted(sizes, key=lambda size: -_group_points(scoring, face, size))
        points = [_group_points(scoring, face, size) for size in ordered]
        value = sum(points) + sum(points[: len(reds)])
        if best is None or value > best[0]:
            best = (value, ordered)
    if best is None:
        return None
    value, ordered = best
    groups: list[list[Stood]] = [[] for _ in ordered]
    left = sorted(dice, key=lambda stood: "r" not in stood[0][1])
    for group in groups[: len(reds)]:
        group.append(left.pop(0))
    for group, size in zip(groups, ordered):
        while len(group) < size:
            group.append(left.pop(0))
    parts = tuple(_combination(scoring, face, group) for group in groups)
    return value, parts


def _combination(scoring: Scoring, face: int, group: list[Stood]) -> Combination:
    doubled = any("r" in die[1] for die, _ in group)
    kind = CombinationKind.SINGLE if len(group) == 1 else _OF_A_KIND[len(group)]
    points = _group_points(scoring, face, len(group)) * (2 if doubled else 1)
    return Combination(kind, Dice.from_dice(die for die, _ in group), points, _stand_in(group), doubled)


def _stand_in(group: list[Stood]) -> int | None:
    """The face the wild die stands for among ``group``, where it stands for another than its own."""
    return next((as_face for die, as_face in group if "w" in die[1] and as_face != die[0]), None)


def _marked_split(scoring: Scoring, keep: Dice) -> Split | None:
    """:func:`best_split` of a keep with marked dice: the wild die showing 1 as whichever face scores
    best, each combination holding a red face doubled."""
    _check_scoring_marks(scoring, keep)
    wild = next((i for i, (face, mark) in enumerate(keep.dice) if "w" in mark and face == 1), None)
    best: Split | None = None
    # every face the wild 1 may stand for; one pass, each die its own face, where there is no wild 1
    for stand_in in FACES if wild is not None else (0,):
        stood = [(die, stand_in if i == wild else die[0]) for i, die in enumerate(keep.dice)]
        total = 0
        parts: list[Combination] = []
        for face in FACES:
            mine = [one for one in stood if one[1] == face]
            face_split = _face_split_marked(scoring, face, mine) if mine else (0, ())
            if face_split is None:
                total, parts = -1, []
                break
            total += face_split[0]
            parts.extend(face_split[1])
        split: Split | None = (total, tuple(parts)) if total > 0 else None
        if len(keep) == MAX_DICE:
            whole = _six_dice_combination(scoring, Dice(as_face for _, as_face in stood))
            if whole is not None:
                doubled = any("r" in mark for mark in keep.marks)
                whole = Combination(whole.kind, keep, whole.points * (2 if doubled else 1), _stand_in(stood), doubled)
                if split is None or whole.points > split[0]:
                    split = (whole.points, (whole,))
        if split is not None and (best is None or split[0] > best[0]):
            best = split
    return best


@functools.lru_cache(maxsize=4096)
def _options(scoring: Scoring, roll: Dice) -> tuple[KeepOption, ...]:
    if roll.marked:
        return _marked_options(scoring, roll)
    found = []
    ranges = [range(count + 1) for count in roll.counts()]
    for taken in itertools.product(*ranges):
        keep = Dice(face for face, n in zip(FACES, taken) for _ in range(n))
        split = best_split(scoring, keep) if len(keep) else None
        if split is not None:
            found.append(KeepOption(keep, split[0], split[1]))
    found.sort(key=lambda option: (-option.points, len(option.keep), option.keep.values))
    return tuple(found)


def _marked_options(scoring: Scoring, roll: Dice) -> tuple[KeepOption, ...]:
    kinds = sorted(set(roll.dice))
    found = []
    for taken in itertools.product(*(range(roll.dice.count(die) + 1) for die in kinds)):
        keep = _sorted_dice(tuple(die for die, n in zip(kinds, taken) for _ in range(n)))
        split = best_split(scoring, keep) if len(keep) else None
        if split is not None:
            found.append(KeepOption(keep, split[0], split[1]))
    found.sort(key=lambda option: (-option.points, len(option.keep), option.keep.values, option.keep.marks))
    return tuple(found)


@functools.lru_cache(maxsize=None)
def most_points(scoring: Scoring) -> int:
    """The most one roll of six dice can score under ``scoring``: the ceiling of a card combination.

    >>> from scorekeeper.rules import load_rules
    >>> most_points(load_rules("flip").scoring)
    3000
    """
    rolls = itertools.combinations_with_replacement(FACES, MAX_DICE)
    return max(option.points for roll in rolls for option in _options(scoring, Dice(roll))[:1])


def check_marks(rules: RuleSet, dice: Dice) -> None:
    """Refuse, with :class:`IllegalRoll` quoting the die, a marked die the rules have no use for.

    >>> from scorekeeper.rules import load_rules
    >>> check_marks(load_rules("retail"), Dice.from_str("1w 5"))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalRoll: '1w': this game plays without a wild die; add the variant wild-die
    >>> check_marks(load_rules("retail+wild-die"), Dice.from_str("1w 5"))
    """
    _check_scoring_marks(rules.scoring, dice)


def _check_scoring_marks(scoring: Scoring, dice: Dice) -> None:
    for face, mark in dice.dice:
        if "w" in mark and not scoring.wild_die:
            raise IllegalRoll(f"{quote(die_token(face, mark))}: this game plays without a wild die; add the variant wild-die")
        if "r" in mark and not scoring.spicy:
            raise IllegalRoll(f"{quote(die_token(face, mark))}: this game plays without red-pip faces; add the variant spicy")


def _six_alike(scoring: Scoring, dice: Dice) -> bool:
    """Whether six ``dice`` are six of a kind, the wild die showing 1 standing for the others' face."""
    if len(dice) != MAX_DICE:
        return False
    others = {face for face, mark in dice.dice if not ("w" in mark and face == 1 and scoring.wild_die)}
    return len(others) <= 1


def score_roll(rules: RuleSet, roll: Dice | Iterable[int]) -> RollScore:
    """Every legal keep of ``roll`` under ``rules``, best first.

    >>> from scorekeeper.rules import load_rules
    >>> score_roll(load_rules("house-2009"), [4, 4, 4, 4, 4, 4]).wins
    True
    >>> score_roll(load_rules("retail"), [])
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalRoll: a roll needs at least one die
    """
    dice = roll if isinstance(roll, Dice) else Dice(roll)
    if not len(dice):
        raise IllegalRoll("a roll needs at least one die")
    check_marks(rules, dice)
    wins = rules.turn.six_of_a_kind_wins and _six_alike(rules.scoring, dice)
    return RollScore(dice, _options(rules.scoring, dice), wins)
