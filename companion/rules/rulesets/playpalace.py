"""PlayPalace's Senet."""

from __future__ import annotations

from companion.rules.base import Ruleset
from companion.rules.position import Player


class PlayPalace(Ruleset):
    """The rules of the PlayPalace game platform ("Rules Of Senet", PlayPalace team, 2026).

    Source: seed 000; checked against PlayPalace's own Senet module, whose decisions settle what
    the page leaves open:

    - No backward moves. A piece below 26 may not pass 26 ("You cannot jump over square 26").
      A move beyond 30 is illegal, so a piece on 26 cannot use a 5.
    - Pieces on 28, 29 and 30 only bear off, with exactly 3, 2 and 1, and cannot be captured
      ("locked in place and safe from capture").
    - A wall is three or more opponent pieces in a row strictly between start and target.
    - Protection is an adjacent piece of the same player in track order, so 10-11 and 20-21
      protect each other too ("Two or more of the same player's pieces on adjacent squares").
    - The House of Water sends the piece to 15, or the first free square of 14, 13, ..., 1,
      looked for while the moving piece still stands on its start square.
    - Throws of 1, 4 and 5 throw again even when no move is possible ("you lose that move (but
      still get a bonus throw if the roll was 1, 4, or 5)").
    """

    name = "playpalace"
    title = "PlayPalace"
    source = "Rules Of Senet, PlayPalace team (seed 000)"
    author = "PlayPalace team"
    year = "2026"
    summary = "A modern online ruleset: swaps, pairs protect, walls of three block, 27 sends to 15."
    reference = "PlayPalace11 server/games/senet"
    first_side = Player.W
    bonus_on_pass = True
    exact_bear_off = False
    exits = {28: frozenset({3}), 29: frozenset({2}), 30: frozenset({1})}
    safe = frozenset({28, 29, 30})
    square_names = {
        15: "House of Rebirth",
        26: "House of Happiness",
        27: "House of Water",
        28: "House of Three Truths",
        29: "House of Re-Atum",
        30: "the last square",
    }
