"""The window's banner, without Qt: nothing while a game is under way, the last lap once a player
reaches the target, the winners once it is over."""

from __future__ import annotations

from scorekeeper.game import Game
from scorekeeper.rules import load_rules
from scorekeeper.scoreboard.banner import Banner, BannerKind, banner_of


def test_the_banner_says_the_last_lap_then_the_winner() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    assert banner_of(None) is None and banner_of(game.state) is None
    while not game.state.final_lap:
        game.roll("1 1 1 1 1 1")
        game.keep("1 1 1 1 1 1")
        game.bank()
        if not game.state.final_lap:
            game.roll("2 2 3 3 4 6")
            game.farkle()
    assert banner_of(game.state) == Banner(BannerKind.LAST_LAP, "LAST LAP: Ann reached 10,000; everyone else has one more turn")
    game.roll("2 2 3 3 4 6")
    game.farkle()
    assert game.state.over and banner_of(game.state) == Banner(BannerKind.WON, "Ann wins the game!")
