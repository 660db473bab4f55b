"""pytest setup for ``benchmarks/``: make the ``peers`` package importable, collect ``bench_*``.

The benchmark modules are named ``bench_*.py`` (not ``test_*.py``); this hook collects
them unless the pytest configuration already does (``python_files`` listing ``bench_*.py``),
so ``pytest`` runs them once as smoke tests (``--benchmark-disable``) and
``pytest benchmarks --benchmark-enable`` times them, grouped per case.
"""

from __future__ import annotations

import fnmatch
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    if file_path.suffix != ".py" or not file_path.name.startswith("bench_"):
        return None
    patterns = parent.config.getini("python_files")
    if any(fnmatch.fnmatch(file_path.name, pat) for pat in patterns):
        return None  # pytest collects it already
    return pytest.Module.from_parent(parent, path=file_path)


def synthetic_hands(factory: pytest.TempPathFactory, request: pytest.FixtureRequest,
                    timed: int) -> Path:
    """A ``.phhs`` collection of synthetic 6-max hands (seed 1): ``timed`` hands where
    timing is on (``--benchmark-enable``), 300 in the normal test run (a smoke test)."""
    from simulate.notation.phh_synth import write_synthetic_phhs

    enabled = not request.config.getoption("benchmark_disable", False)
    n = timed if enabled else 300
    f = factory.mktemp("hands") / f"synthetic_{n}.phhs"
    write_synthetic_phhs(str(f), n, seed=1)
    return f


@pytest.fixture(scope="module")
def hands_file(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    """:func:`synthetic_hands` of the module's ``TIMED_HANDS``."""
    return synthetic_hands(tmp_path_factory, request, request.module.TIMED_HANDS)
