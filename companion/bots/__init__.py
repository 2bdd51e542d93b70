"""Computer opponents, hints, teaching and statistics, built on the rules engine.

>>> import random
>>> from companion.bots import get_bot
>>> from companion.rules import get_ruleset
>>> rules = get_ruleset("playpalace")
>>> bot = get_bot("simple", rules, rng=random.Random(1))
>>> str(bot.choose(rules.start(), 2).move)
'9-11'
"""

from companion.bots.errors import BotError, NoChoice, UnknownBot, UnplayableRuleset
from companion.bots.game import Bot, GameRecord, Ply, draw_throw, play_game
from companion.bots.players import LEVELS, RandomBot, SimpleBot, StrongBot, get_bot

__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "GameRecord",
    "NoChoice",
    "Ply",
    "RandomBot",
    "SimpleBot",
    "StrongBot",
    "UnknownBot",
    "UnplayableRuleset",
    "draw_throw",
    "get_bot",
    "play_game",
]
