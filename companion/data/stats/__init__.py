"""Cached ruleset statistics, one JSON file per ruleset (written by bench/bots.py)."""
