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
