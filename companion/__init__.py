"""senet-companion: the rules engine, game loop, board tracker, bots, web page and command line."""

__version__ = "0.1.0"
