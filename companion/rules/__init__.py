"""The Senet rules engine: positions, moves, throws and rulesets. Standard library only."""
