"""A house rules file at the edges of what it may say: each limit taken at its edge and refused one step
past it, with the message a player needs to fix the file. The limits are the ones the messages state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import KindValue, RuleFileError, load_rules, rules_to_toml, variant_names

CHANGED = "preset 'retail' with changed options"


def changed(section: str, **fields: Any) -> Any:
    return load_rules("retail", overrides={section: fields})


def file_refused(path: Path, text: str) -> str:
    """The refusal of a rules file holding ``text``."""
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    return str(caught.value)


def refused(section: str, **fields: Any) -> str:
    with pytest.raises(RuleFileError) as caught:
        changed(section, **fields)
    return str(caught.value)


@pytest.mark.parametrize(
    "section, field, value",
    [
        ("turn", "farkle_penalty_streak", 1),
        ("turn", "farkle_penalty_streak", 100),
        ("end", "short_targets_min_players", 100),
        ("scoring", "straight", 100_000),
        ("scoring", "one", 50),
        ("scoring", "four_of_a_kind", "triple x64"),
        ("scoring", "four_of_a_kind", "triple x1"),
        ("scoring", "four_of_a_kind", 100_000),
        ("turn", "entry_minimum", 10_000),  # as much as the target: hard, but someone can win
        ("title", None, "T" * 200),
    ],
)
def test_each_limit_is_taken_at_its_edge(section: str, field: str | None, value: Any) -> None:
    if field is None:
        rules = load_rules("retail", overrides={section: value})  # type: ignore[dict-item]
        assert rules.title == value
        return
    got = getattr(getattr(changed(section, **{field: value}), section), field)
    assert got == (KindValue.from_str(str(value)) if field == "four_of_a_kind" else value)


@pytest.mark.parametrize(
    "section, field, value, expected",
    [
        ("turn", "farkle_penalty_streak", 0, "a whole number >= 1, at most 100"),
        ("turn", "farkle_penalty_streak", 101, "a whole number >= 1, at most 100"),
        ("scoring", "straight", 100_050, "a whole number of points >= 0, a multiple of 50, at most 100,000"),
        ("turn", "hot_dice", "yes", "true or false"),
        ("end", "final_lap", "twice", "one of 'none', 'one-lap', 'extend'"),
        ("scoring", "four_of_a_kind", "triple x65", 'points such as 1000 (a multiple of 50, at most 100,000), "triple xN" (N times the three of a kind, N at most 64) or "none"'),
        ("scoring", "four_of_a_kind", 100_050, 'points such as 1000 (a multiple of 50, at most 100,000), "triple xN" (N times the three of a kind, N at most 64) or "none"'),
        ("scoring", "four_of_a_kind", "lots", 'points such as 1000 (a multiple of 50, at most 100,000), "triple xN" (N times the three of a kind, N at most 64) or "none"'),
        # a list: the bad item is quoted, with the end's higher limit
        ("end", "short_targets", [5000, 5025], "a whole number of points >= 0, a multiple of 50, at most 1,000,000"),
    ],
)
def test_one_step_past_each_limit_is_refused_saying_what_is_allowed(section: str, field: str, value: Any, expected: str) -> None:
    message = refused(section, **{field: value})
    assert message.startswith(f"{CHANGED}: [{section}] {field} = ")
    assert message.endswith(f": expected {expected}")


def test_a_title_too_long_or_not_text_is_refused() -> None:
    for title in ("T" * 201, 5):
        with pytest.raises(RuleFileError) as caught:
            load_rules("retail", overrides={"title": title})  # type: ignore[dict-item]
        assert str(caught.value).startswith(f"{CHANGED}: title = ")
        assert str(caught.value).endswith(": expected text of at most 200 characters")


@pytest.mark.parametrize("field", ["one", "five", "three_ones", "three_of_a_kind"])
def test_a_chart_without_its_basic_scores_is_refused(field: str) -> None:
    assert refused("scoring", **{field: 0}) == f"{CHANGED}: [scoring] {field} must be above 0 (every rule text scores it)"


def test_a_target_of_nothing_or_an_entry_above_the_target_is_refused() -> None:
    assert refused("end", target=0) == f"{CHANGED}: [end] target must be above 0"
    message = refused("turn", entry_minimum=10_050)
    assert message == f"{CHANGED}: [turn] entry_minimum = 10,050 is above the target 10,000; no one could win"


def test_a_kind_value_is_read_from_text_or_a_number() -> None:
    assert KindValue.from_str("none") == KindValue()
    assert KindValue.from_str(" 1000 ") == KindValue(points=1000)
    assert KindValue.from_str("Triple X3") == KindValue(triple_times=3)
    assert [str(KindValue.from_str(text)) for text in ("none", "1000", "triple x2")] == ["none", "1000", "triple x2"]
    for text in ("0", "lots", "triple x0", "triple 2", "1000 points"):
        with pytest.raises(RuleFileError) as caught:
            KindValue.from_str(text)
        assert str(caught.value) == f"kind value '{text}' is not one of: points such as 1000, \"triple xN\" (N times the three of a kind), or \"none\""


def test_a_rules_file_based_on_an_unknown_preset_is_refused_naming_the_presets(tmp_path: Path) -> None:
    unknown = tmp_path / "ours.toml"
    message = file_refused(unknown, 'base = "retial"\n')
    assert message == f"{unknown}: base = 'retial': expected one of flip, house-2009, pocket, retail"


def test_a_title_in_any_language_survives_the_round_trip() -> None:
    rules = load_rules("retail", overrides={"title": "Règles de la maison"})  # type: ignore[dict-item]
    text = rules_to_toml(rules)
    assert 'title = "Règles de la maison"' in text


def test_the_end_takes_targets_up_to_a_million() -> None:
    assert changed("end", target=1_000_000).end.target == 1_000_000  # above the 100,000 of other points
    message = refused("end", target=1_000_050)
    assert message == f"{CHANGED}: [end] target = 1000050: expected a whole number of points >= 0, a multiple of 50, at most 1,000,000"


def test_a_rules_file_is_named_by_its_name_field_or_else_by_its_file_name(tmp_path: Path) -> None:
    named = tmp_path / "ours.toml"
    named.write_text(f'name = "{"k" * 200}"\n', encoding="utf-8")
    assert load_rules(named).name == "k" * 200
    plain = tmp_path / "kitchen.toml"
    plain.write_text('base = "house-2009"\n', encoding="utf-8")
    assert load_rules(plain).name == "kitchen"


def test_a_rules_file_is_found_by_any_path_that_looks_like_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ours.toml").write_text('title = "Ours"\n', encoding="utf-8")
    (tmp_path / "house_rules").write_text('title = "House"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert load_rules("ours.toml").title == "Ours"  # a .toml name in the current folder
    assert load_rules(f"{tmp_path}/house_rules").title == "House"  # a path without the .toml ending
    assert load_rules(tmp_path / "house_rules").title == "House"
    with pytest.raises(RuleFileError) as caught:
        load_rules(f"{tmp_path}/missing.toml")
    assert "rules file" in str(caught.value) and "missing.toml" in str(caught.value)


def test_a_rules_file_with_a_name_too_long_or_an_unknown_field_is_refused(tmp_path: Path) -> None:
    message = file_refused(tmp_path / "long.toml", f'name = "{"k" * 201}"\n')
    assert message.endswith("is longer than 200 characters") and "k" * 50 in message
    odd = tmp_path / "odd.toml"
    message = file_refused(odd, 'colour = "red"\n')
    assert message == f"{odd}: unknown field colour; allowed at the top: base, title, kind, [scoring], [turn], [end]"


def test_each_variant_is_offered_with_the_rule_it_changes_in_words() -> None:
    # what the setup dialog lists beside each variant: its own words, not a placeholder
    described = variant_names()
    assert "2,500" in described["straight-2500"]
    assert "500" in described["entry-500"] and "board" in described["entry-500"]
    assert "1,000" in described["three-farkle-penalty"]
    assert "double" in described["doubling"]
    assert "last lap" in described["extend-final-lap"]
