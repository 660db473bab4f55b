"""Shared test helpers: make benchmarks/peers.py importable, random hands."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """``ndarray[n, k] uint8`` of random distinct cards per row."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        out[lo:hi] = rng.random((hi - lo, 52)).argpartition(k, axis=1)[:, :k]
    return out


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    p = ROOT.parent / "shared"
    if not p.is_dir():
        pytest.skip("../shared is not beside the repository")
    return p
