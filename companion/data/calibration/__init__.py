"""Fitted win-chance scales, one JSON file per ruleset (written by bench/bots.py)."""
