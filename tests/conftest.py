"""Shared test fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

REPO = Path(__file__).resolve().parents[1]


def shared_dir() -> Path:
    """The rules sources and vectors: ``../shared`` beside the checkout, or ``$SENET_SHARED``."""
    path = Path(os.environ.get("SENET_SHARED") or REPO.parent / "shared")
    if not (path / "vectors").is_dir():
        pytest.fail(
            f"the test vectors are missing: expected {path}/vectors "
            "(check out 'shared' beside the repository or set SENET_SHARED)"
        )
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    return shared_dir()


# CI runs the property-based tests with a fixed seed, so a run is reproducible.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
