"""Load rule sets from the shipped TOML presets, named variants and user files.

A file is read whole, checked whole, and only then turned into a
:class:`RuleSet`; any problem raises :class:`RuleFileError` naming the file,
the field and the values allowed, and nothing of the file is used.

A user file names the preset it starts from with ``base`` (``retail`` when
left out) and changes only what differs::

    base = "retail"
    title = "Our kitchen table"
    [scoring]
    straight = 2500
    [turn]
    entry_minimum = 500
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from scorekeeper.rules.errors import RuleFileError
from scorekeeper.safe_input import is_plain_number, parse_toml, quote, read_text, shorten
from scorekeeper.rules.ruleset import MAX_TARGET, EndRules, GameKind, KindValue, RuleSet, Scoring, TurnRules

Table = dict[str, Any]

SECTIONS: dict[str, type[Any]] = {"scoring": Scoring, "turn": TurnRules, "end": EndRules}
"""The TOML table each part of a rule set is read from."""

_TOP_FIELDS = ("title", "kind")
_PRESET_DIR = "presets"
_VARIANTS_FILE = "variants.toml"
DEFAULT_BASE = "retail"
COUNT = "count"
"""Marks the whole-number fields that count things rather than points."""
_COUNT_FIELDS = {"farkle_penalty_streak", "short_targets_min_players"}
MAX_POINTS = 100_000
"""The most points any rule value but the target may be: ten times the usual target of 10,000, far
above any rule text, and small enough for the coach to solve (a larger entry minimum made it run
for minutes)."""
NUMBER = "N"
"""In a numbered variant (named ``...-N`` in the variants file) the value that stands for the number
given in its place: ``farkle-penalty-500`` sets what ``farkle-penalty-N`` sets to ``"N"`` to 500."""
ADDED_FIELDS: dict[str, dict[str, Any]] = {
    "scoring": {"wild_die": False, "spicy": False},
    "turn": {"each_farkle_penalty": 0, "piggyback": False},
}
"""Fields added since games were first saved, with what a complete table written before them
(an older game's journal) means by leaving them out."""
MAX_TEXT = 200
"""The longest title or name of a rule set."""
MAX_COUNT = 100
"""The most a counting field (Farkles in a row, players) may be."""
MAX_TRIPLE_TIMES = 64
"""The largest N of a "triple xN" value (the rule texts go up to x8)."""


def _preset_files() -> dict[str, Any]:
    folder = resources.files("scorekeeper.rules").joinpath(_PRESET_DIR)
    return {
        entry.name.removesuffix(".toml"): entry
        for entry in folder.iterdir()
        if entry.name.endswith(".toml") and entry.name != _VARIANTS_FILE
    }


def preset_names() -> list[str]:
    """Names of the presets shipped with the program.

    >>> preset_names()
    ['flip', 'house-2009', 'pocket', 'retail']
    """
    return sorted(_preset_files())


def _read_toml(text: str, where: str) -> Table:
    return parse_toml(text, where, RuleFileError)


def _variant_tables() -> dict[str, Table]:
    entry = resources.files("scorekeeper.rules").joinpath(_PRESET_DIR, _VARIANTS_FILE)
    return _read_toml(entry.read_text(encoding="utf-8"), f"variants file {_VARIANTS_FILE}")


def variant_names() -> dict[str, str]:
    """Named variants that can be laid over any rule set, with what each does.

    A numbered variant is named with ``-N`` for its number (see :func:`numbered_variants`).

    >>> print(" ".join(sorted(variant_names())))
    below-zero doubling entry-500 extend-final-lap farkle-penalty-N piggyback spicy straight-2500 three-farkle-penalty wild-die
    """
    return {name: str(table.get("description", "")) for name, table in _variant_tables().items()}


def numbered_variants() -> list[str]:
    """The variants that take a number in place of their ``N``.

    >>> numbered_variants()
    ['farkle-penalty-N']
    """
    return sorted(name for name in _variant_tables() if name.endswith(f"-{NUMBER}"))


def _put_number(changes: Table, number: int) -> Table:
    return {
        key: _put_number(value, number) if isinstance(value, dict) else number if value == NUMBER else value
        for key, value in changes.items()
    }


def _variant_changes(variant: str, known: dict[str, Table], where: str) -> Table:
    """What ``variant`` lays over a rule set: a named variant's table, or a numbered one's with its number put in."""
    stem, _, number = variant.rpartition("-")
    if variant in known and number != NUMBER:
        table = known[variant]
    elif f"{stem}-{NUMBER}" in known and is_plain_number(number):
        table = _put_number(known[f"{stem}-{NUMBER}"], int(number))
    else:
        numbered = ", ".join(f"{name} (a number for {NUMBER}: {name[:-1]}500)" for name in numbered_variants())
        raise RuleFileError(
            f"{where}: no variant named {quote(variant)}; variants: "
            + ", ".join(sorted(name for name in known if not name.endswith(f"-{NUMBER}")))
            + (f", {numbered}" if numbered else "")
        )
    return {key: value for key, value in table.items() if key != "description"}


def _merge(base: Table, changes: Mapping[str, Any]) -> Table:
    merged = dict(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _allowed(hint: Any, limit: int = MAX_POINTS) -> str:
    if hint is bool:
        return "true or false"
    if hint is int:
        return f"a whole number of points >= 0, a multiple of 50, at most {limit:,}"
    if hint == COUNT:
        return f"a whole number >= 1, at most {MAX_COUNT}"
    if hint is str:
        return f"text of at most {MAX_TEXT} characters"
    if hint is KindValue:
        return (
            f'points such as 1000 (a multiple of 50, at most {MAX_POINTS:,}), "triple xN" (N times the three '
            f'of a kind, N at most {MAX_TRIPLE_TIMES}) or "none"'
        )
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "one of " + ", ".join(repr(member.value) for member in hint)
    return f"a list of whole numbers of points, multiples of 50, at most {limit:,}"


def _convert(value: Any, hint: Any, where: str, limit: int = MAX_POINTS) -> Any:
    """Turn one TOML value into the field's type (points at most ``limit``), or say what is allowed."""
    bad = RuleFileError(f"{where} = {quote(value)}: expected {_allowed(hint, limit)}")
    if hint is bool:
        if not isinstance(value, bool):
            raise bad
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit or value % 50:
            raise bad
        return value
    if hint == COUNT:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_COUNT:
            raise bad
        return value
    if hint is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise bad
        return value
    if hint is KindValue:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise bad
        try:
            kind = KindValue.from_str(value)
        except RuleFileError:
            raise bad from None
        if kind.points % 50 or kind.points > MAX_POINTS or kind.triple_times > MAX_TRIPLE_TIMES:
            raise bad
        return kind
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise bad from None
    if not isinstance(value, list):
        raise bad
    return tuple(_convert(item, int, where, limit) for item in value)


_FIELDS: dict[str, tuple[Mapping[str, Any], tuple[str, ...]]] = {}
"""What :func:`_fields_of` found, by the dataclass's name: the rules' classes never change."""


def _fields_of(cls: type[Any]) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    """The type each field of the rules' dataclass ``cls`` takes in a rule file, and the fields in order."""
    key = f"{cls.__module__}.{cls.__qualname__}"
    if key not in _FIELDS:
        hints = typing.get_type_hints(cls)
        hints.update({name: COUNT for name in _COUNT_FIELDS if name in hints})
        _FIELDS[key] = types.MappingProxyType(hints), tuple(field.name for field in dataclasses.fields(cls))
    return _FIELDS[key]


def _build(cls: type[Any], table: Table, where: str, section: str) -> Any:
    hints, names = _fields_of(cls)
    unknown = sorted(set(table) - set(names))
    if unknown:
        raise RuleFileError(
            f"{where}: unknown field [{section}] {shorten(unknown[0])}; allowed fields: {', '.join(names)}"
        )
    missing = [name for name in names if name not in table]
    if missing:
        raise RuleFileError(f"{where}: [{section}] is missing {', '.join(missing)}")
    return cls(
        **{
            name: _convert(table[name], hints[name], f"{where}: [{section}] {name}", MAX_TARGET if section == "end" else MAX_POINTS)
            for name in names
        }
    )


def _check(rules: RuleSet, where: str) -> None:
    """Cross-field checks that no single field's type can express."""
    scoring, turn, end = rules.scoring, rules.turn, rules.end
    for name in ("one", "five", "three_ones", "three_of_a_kind"):
        if getattr(scoring, name) <= 0:
            raise RuleFileError(f"{where}: [scoring] {name} must be above 0 (every rule text scores it)")
    if end.target <= 0:
        raise RuleFileError(f"{where}: [end] target must be above 0")
    if turn.entry_minimum > end.target:
        raise RuleFileError(
            f"{where}: [turn] entry_minimum = {turn.entry_minimum:,} is above the target {end.target:,}; no one could win"
        )
    if turn.six_of_a_kind_wins and rules.kind is not GameKind.DICE:
        raise RuleFileError(f"{where}: [turn] six_of_a_kind_wins needs kind = 'dice'")
    if turn.piggyback and rules.kind is not GameKind.DICE:
        raise RuleFileError(f"{where}: [turn] piggyback needs kind = 'dice' (the next player rolls the dice left)")
    if scoring.wild_die and rules.kind is not GameKind.DICE:
        raise RuleFileError(f"{where}: [scoring] wild_die needs kind = 'dice' (the wild die is a die of another colour)")
    if scoring.spicy and rules.kind is not GameKind.DICE:
        raise RuleFileError(f"{where}: [scoring] spicy needs kind = 'dice' (the red pips are on the dice)")


def rules_from_table(table: Table, name: str, where: str) -> RuleSet:
    """Build a rule set from a complete table (every section, every field).

    >>> rules = load_rules("retail")
    >>> rules_from_table(rules_to_table(rules), "retail", "round trip") == rules
    True
    """
    if len(name) > MAX_TEXT:
        raise RuleFileError(f"{where}: the name {quote(name)} is longer than {MAX_TEXT} characters")
    extra = sorted(set(table) - set(SECTIONS) - set(_TOP_FIELDS) - {"name", "base"})
    if extra:
        allowed = ", ".join(("base", *_TOP_FIELDS, *(f"[{s}]" for s in SECTIONS)))
        raise RuleFileError(f"{where}: unknown field {shorten(extra[0])}; allowed at the top: {allowed}")
    for section in SECTIONS:
        if not isinstance(table.get(section), dict):
            raise RuleFileError(f"{where}: missing the [{section}] table")
    table = {**table, **{section: {**added, **table[section]} for section, added in ADDED_FIELDS.items()}}
    parts = {section: _build(cls, table[section], where, section) for section, cls in SECTIONS.items()}
    if "title" not in table or "kind" not in table:
        raise RuleFileError(f"{where}: needs both 'title' and 'kind' at the top")
    rules = RuleSet(
        name=name,
        title=_convert(table["title"], str, f"{where}: title"),
        kind=_convert(table["kind"], GameKind, f"{where}: kind"),
        **parts,
    )
    _check(rules, where)
    return rules


def rules_to_table(rules: RuleSet) -> Table:
    """The rule set as a TOML-shaped table (plain strings, numbers, lists)."""

    def plain(value: Any) -> Any:
        if isinstance(value, enum.Enum):
            return value.value
        if isinstance(value, KindValue):
            return str(value)
        if isinstance(value, tuple):
            return list(value)
        return value

    table: Table = {"name": rules.name, "title": rules.title, "kind": rules.kind.value}
    for section in SECTIONS:
        part = getattr(rules, section)
        table[section] = {f.name: plain(getattr(part, f.name)) for f in dataclasses.fields(part)}
    return table


def rules_to_toml(rules: RuleSet) -> str:
    """The rule set as a complete TOML file that :func:`load_rules` reads back.

    >>> print(rules_to_toml(load_rules("pocket")).splitlines()[0])
    title = "Pocket Farkel: the retail chart with three 1s = 300"
    """

    def literal(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            # JSON's string escapes are all valid in a TOML basic string, line breaks included.
            return json.dumps(value, ensure_ascii=False)
        if isinstance(value, list):
            return "[" + ", ".join(literal(item) for item in value) + "]"
        return str(value)

    table = rules_to_table(rules)
    lines = [f"title = {literal(table['title'])}", f"kind = {literal(table['kind'])}"]
    for section in SECTIONS:
        lines += ["", f"[{section}]"]
        lines += [f"{key} = {literal(value)}" for key, value in table[section].items()]
    return "\n".join(lines) + "\n"


def _with_base(table: Table, base: Any, where: str, seen: tuple[str, ...]) -> Table:
    """Lay ``table`` over the preset it names as its base."""
    if not isinstance(base, str) or base not in _preset_files():
        raise RuleFileError(f"{where}: base = {quote(base)}: expected one of {', '.join(preset_names())}")
    if base in seen:
        raise RuleFileError(f"{where}: base = {base!r} goes round in a circle")
    for section in SECTIONS:
        if section in table and not isinstance(table[section], dict):
            raise RuleFileError(f"{where}: {section} must be a [{section}] table")
    return _merge(_preset_table(base, seen), table)


def _preset_table(name: str, seen: tuple[str, ...] = ()) -> Table:
    files = _preset_files()
    if name not in files:
        raise RuleFileError(
            f"no rules preset named {name!r}; presets: {', '.join(sorted(files))} "
            "(or give the path of a .toml rules file)"
        )
    where = f"preset {name!r}"
    table = _read_toml(files[name].read_text(encoding="utf-8"), where)
    if "base" in table:
        table = _with_base(table, table.pop("base"), where, (*seen, name))
    return table


def _file_table(path: Path) -> tuple[str, Table]:
    where = str(path)
    table = _read_toml(read_text(path, "rules file", RuleFileError, limit=1_000_000), where)
    name = str(table.pop("name", path.stem))
    return name, _with_base(table, table.pop("base", DEFAULT_BASE), where, ())


def _is_path(name_or_path: str | Path) -> bool:
    text = str(name_or_path)
    return isinstance(name_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text


def load_rules(
    name_or_path: str | Path,
    variants: Iterable[str] = (),
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
) -> RuleSet:
    """Load a preset by name or a user rules file by path, then lay variants and overrides over it.

    A preset's name may carry its variants after ``+`` signs, as rule sets are named.

    >>> load_rules("retail", variants=["doubling"]).scoring.four_of_a_kind
    KindValue(points=0, triple_times=2)
    >>> load_rules("retail+doubling") == load_rules("retail", variants=["doubling"])
    True
    >>> load_rules("retail", overrides={"scoring": {"straight": 2500}}).scoring.straight
    2500
    >>> load_rules("retial")
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.RuleFileError: no rules preset named 'retial'; presets: flip, house-2009, pocket, retail (or give the path of a .toml rules file)
    """
    if _is_path(name_or_path):
        name, table = _file_table(Path(name_or_path))
        where = str(name_or_path)
    else:
        name, *named = str(name_or_path).split("+")
        variants = [*named, *variants]
        where = f"preset {name!r}"
        table = _preset_table(name)
    known = _variant_tables()
    for variant in variants:
        table = _merge(table, _variant_changes(variant, known, where))
        name, where = f"{name}+{variant}", f"{where} with variant {variant!r}"
    if overrides:
        table = _merge(table, overrides)
        where = f"{where} with changed options"
    return rules_from_table(table, name, where)
