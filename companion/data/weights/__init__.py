"""Fitted evaluation weights, one JSON file per ruleset (written by bench/bots.py)."""
