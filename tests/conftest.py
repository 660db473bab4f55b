"""Shared test setup: make the benchmarks/peers package importable; the shared/ folder fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    p = ROOT.parent / "shared"
    if not p.is_dir():
        pytest.skip("../shared is not beside the repository")
    return p
