"""The rulesets the companion plays, one module each."""
