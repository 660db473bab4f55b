"""Shared test setup: make the benchmarks/peers package importable, and the hypothesis
profiles.

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (default ``dev``):

* ``dev`` -- the quick local run: 30 examples per property test (unless a test sets its own
  ``max_examples``), random seeds;
* ``ci`` -- 100 examples (Hypothesis's default), derandomized (the same examples every
  run, so a failure reproduces), and no "too slow" health check (CI runners are slow).

Both turn the per-example deadline off: a loaded machine (or a first call that compiles a
kernel) would otherwise fail a correct test. Shared helpers live in ``tests/helpers.py``,
the slow references in ``tests/reference.py``; no test module imports another.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Keep what pytest rewrote (each test module's asserts) and what the run imports as
# bytecode in __pycache__ (git-ignored) even where PYTHONDONTWRITEBYTECODE is set: without
# it every process of every run rewrites all test modules again (collection 14.4 s -> 5.6
# s a process on the 2-core VM, and each xdist worker collects everything).
sys.dont_write_bytecode = False

# Numba's parallel kernels run on OpenMP here, whose idle threads spin for a while before
# they sleep. Under `pytest -n N` every worker process has its own team of threads, as many
# as cores, so N workers' spinning teams take the cores from each other's work: a parallel
# test that takes 1.7 s alone took 7 s beside another worker. Passive waiting (set before
# any parallel kernel loads the OpenMP library) makes an idle thread sleep at once; the
# kernels' results are the same on any thread count either way.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "benchmarks") not in sys.path:
    sys.path.insert(0, str(ROOT / "benchmarks"))

PROFILES = ("ci", "dev")
settings.register_profile("dev", max_examples=30, deadline=None)  # helpers.examples: 30 %
settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev").strip() or "dev"
if PROFILE not in PROFILES:
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE must be one of {', '.join(PROFILES)}, "
                            f"got {PROFILE!r}")
settings.load_profile(PROFILE)


def pytest_report_header(config: pytest.Config) -> str:
    return f"hypothesis profile: {PROFILE} (HYPOTHESIS_PROFILE: {', '.join(PROFILES)})"
