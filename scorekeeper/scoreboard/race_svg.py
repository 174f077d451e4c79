"""The score race as SVG text, for the phone page and the HTML sheet (no Qt here).

The SVG holds shapes and text only, each styled by its own presentation attributes: no ``style``
attribute or element, no script, no link, so it shows under the phone page's content security
policy (``default-src 'none'; style-src 'self'``) and in any HTML file.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> from scorekeeper.scoreboard.race import score_race
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob <3"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> svg = race_svg(score_race(game.events))
>>> svg.startswith("<svg"), svg.count("<polyline"), "Bob &lt;3" in svg, "<3" in svg
(True, 2, True, False)
"""

from __future__ import annotations

from html import escape

from scorekeeper.scoreboard.race import Cross, Label, Race, RaceDrawing, Rule, Shade, Trace, race_drawing

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
"""The namespace every SVG element is in."""

def _number(value: float) -> str:
    """A coordinate as short as it stays exact to a tenth."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _part(part: Shade | Rule | Trace | Cross | Label) -> str:
    n = _number
    if isinstance(part, Shade):
        return (
            f'<rect x="{n(part.x)}" y="{n(part.y)}" width="{n(part.width)}" height="{n(part.height)}" '
            f'fill="{part.colour}" fill-opacity="{part.opacity}"/>'
        )
    if isinstance(part, Rule):
        dash = f' stroke-dasharray="{n(part.width * 4)} {n(part.width * 3)}"' if part.dashed else ""
        return (
            f'<line x1="{n(part.x1)}" y1="{n(part.y1)}" x2="{n(part.x2)}" y2="{n(part.y2)}" '
            f'stroke="{part.colour}" stroke-width="{n(part.width)}"{dash}/>'
        )
    if isinstance(part, Trace):
        points = " ".join(f"{n(x)},{n(y)}" for x, y in part.points)
        return (
            f'<polyline class="race-line" data-player="{escape(part.name)}" points="{points}" fill="none" '
            f'stroke="{part.colour}" stroke-width="{n(part.width)}" stroke-linejoin="round" stroke-linecap="round"/>'
        )
    if isinstance(part, Cross):
        s = part.size
        return (
            f'<path class="farkle" d="M{n(part.x - s)},{n(part.y - s)}L{n(part.x + s)},{n(part.y + s)}'
            f'M{n(part.x - s)},{n(part.y + s)}L{n(part.x + s)},{n(part.y - s)}" '
            f'stroke="{part.colour}" stroke-width="{n(part.width)}"/>'
        )
    weight = ' font-weight="bold"' if part.bold else ""
    return (
        f'<text x="{n(part.x)}" y="{n(part.y)}" font-size="{n(part.size)}" fill="{part.colour}" '
        f'text-anchor="{part.anchor}"{weight}>{escape(part.text)}</text>'
    )


def drawing_svg(drawing: RaceDrawing) -> str:
    """A laid-out race as one ``<svg>`` element, ``drawing.width`` x ``drawing.height`` user units;
    every name is escaped."""
    width, height = _number(drawing.width), _number(drawing.height)
    title = escape(drawing.description)
    body = "".join(_part(part) for part in drawing.parts)
    return (
        f'<svg xmlns="{SVG_NAMESPACE}" class="race" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{title}" font-family="sans-serif"><title>{title}</title>{body}</svg>'
    )


def race_svg(race: Race, width: float = 640, height: float = 360, size: float = 14) -> str:
    """The race as SVG, laid out in ``width`` x ``height`` with type ``size`` high."""
    return drawing_svg(race_drawing(race, width, height, size))
