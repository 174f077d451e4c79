"""The rules in force, in plain words for the table."""

from __future__ import annotations

from scorekeeper.rules.ruleset import FinalLap, GameKind, KindValue, RuleSet, Ties


def _points(value: int) -> str:
    return f"{value:,}"


def _kind(value: KindValue, count: str) -> str:
    if value.points:
        return f"{count} of a kind: {_points(value.points)}"
    if value.triple_times:
        return f"{count} of a kind: {value.triple_times} times the three of a kind"
    return f"{count} of a kind: no extra score"


def describe_rules(rules: RuleSet, target: int | None = None) -> list[str]:
    """One line per rule, as a player would say it; ``target``: the game's own, said in place of the
    rules' where it differs.

    >>> from scorekeeper.rules import load_rules
    >>> lines = describe_rules(load_rules("house-2009"))
    >>> lines[0]
    'House rules of 2009: 1,000 to get on the board, six of a kind wins (house-2009)'
    >>> [line for line in lines if "wins the game" in line]
    ['Six of a kind wins the game on the spot, before it is scored.']
    >>> [line for line in describe_rules(load_rules("retail"), 3000) if line.startswith("This game")]
    ["This game is played to 3,000 (the rules' own target: 10,000)."]
    """
    s, t, e = rules.scoring, rules.turn, rules.end
    lines = [f"{rules.title} ({rules.name})"]
    if rules.kind is GameKind.CARDS:
        lines.append("Played with the Farkle Flip cards: combinations are entered as points.")
    lines += [
        f"Each 1: {_points(s.one)}. Each 5: {_points(s.five)}.",
        f"Three 1s: {_points(s.three_ones)}. Three of any other face: the face times {s.three_of_a_kind}.",
        _kind(s.four_of_a_kind, "Four") + ". " + _kind(s.five_of_a_kind, "Five") + ". "
        + _kind(s.six_of_a_kind, "Six") + ".",
    ]
    six_dice = [
        ("Straight 1-6", s.straight),
        ("Three pairs", s.three_pairs),
        ("Four of a kind and a pair", s.four_of_a_kind_and_pair),
        ("Two triplets", s.two_triplets),
    ]
    lines.append(". ".join(f"{name}: {_points(v)}" for name, v in six_dice if v) + ".")
    missing = [name.lower() for name, v in six_dice if not v]
    if missing:
        lines.append(
            f"Not on this chart: {', '.join(missing)}; such dice score only as the smaller combinations they hold."
        )
    if s.three_pairs:
        lines.append(
            "Four of a kind counts as two pairs toward three pairs."
            if s.four_of_a_kind_as_two_pairs
            else "Four of a kind does not count as two pairs."
        )
    lines.append("Combinations only count within one roll.")
    if s.wild_die:
        lines.append(
            "Wild die: the die of another colour (typed 1w) counts as any face when it shows a 1, "
            "whichever scores best, a straight included; showing 2-6 it is that face."
        )
    if s.spicy:
        lines.append(
            "Spicy: each die has one face with red pips (typed 5r); a combination holding a red face scores double."
        )
    if rules.kind is GameKind.DICE:
        lines.append(
            "Hot dice: score with all six and roll all six again."
            if t.hot_dice
            else "No hot dice: once all six score, the turn must be banked."
        )
    if t.entry_minimum:
        lines.append(f"Bank at least {_points(t.entry_minimum)} in one turn to get on the board.")
        if t.farkle_card_value:
            counts = "count" if t.farkle_cards_count_toward_entry else "do not count"
            lines.append(f"Farkle cards {counts} toward getting on the board.")
    else:
        lines.append("No minimum to get on the board.")
    floor = " (it may take a score below zero)" if t.penalty_below_zero else " (never below zero)"
    if t.each_farkle_penalty:
        lines.append(f"Each Farkle costs {_points(t.each_farkle_penalty)} off the score{floor}.")
    if t.farkle_penalty:
        more = " more" if t.each_farkle_penalty else ""
        lines.append(
            f"{t.farkle_penalty_streak} Farkles in a row cost {_points(t.farkle_penalty)}{more}"
            f"{'' if t.each_farkle_penalty else floor}."
        )
    if t.piggyback:
        lines.append(
            "Piggyback: after a bank that left dice to roll, the next player may roll only those dice; "
            "scoring with them adds the banked points to the turn, a Farkle loses them all (or roll six fresh dice)."
        )
    if t.six_of_a_kind_wins:
        when = "after the turn is banked" if t.instant_win_banks_turn else "before it is scored"
        lines.append(f"Six of a kind wins the game on the spot, {when}.")
    if t.farkle_card_value:
        lines.append(
            f"Each Farkle card held adds {_points(t.farkle_card_value)} when its holder next banks; "
            "drawing one ends the turn."
        )
    if target is not None and target != e.target:
        lines.append(f"This game is played to {_points(target)} (the rules' own target: {_points(e.target)}).")
    else:
        plays_to = f"Play to {_points(e.target)}"
        if e.short_targets:
            shorts = " or ".join(_points(v) for v in e.short_targets)
            plays_to += f" ({shorts} with {e.short_targets_min_players} or more players)"
        lines.append(plays_to + ".")
    lines.append(
        {
            FinalLap.NONE: "The first to reach the target wins at once.",
            FinalLap.ONE_LAP: "Once someone reaches it, everyone else gets one last turn; the highest total wins.",
            FinalLap.EXTEND: (
                "Once someone reaches it, everyone else gets one last turn, and again each time "
                "someone beats the leader; the highest total wins."
            ),
        }[e.final_lap]
    )
    lines.append(
        "A tie at the end is shared."
        if e.ties is Ties.SHARED
        else "A tie at the end is played off: the tied players take one more turn each."
    )
    return lines
