"""Shared test fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
