"""Package data: fitted bot weights and cached ruleset statistics (JSON)."""
