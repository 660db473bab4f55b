"""The ``pokerjit bench`` cases under pytest-benchmark: one group per case, pokerjit and
every peer that can do the same work side by side.

The cases are :data:`simulate.bench.CASES`, the one list shared with ``pokerjit bench`` and
``tests/test_bench.py``: each case builds its inputs, its tiny first call (the compile, done
before timing), its answer check and its peer versions. Every timed result is checked.

* ``pytest benchmarks/bench_cases.py --benchmark-enable`` times the full-size cases, ours and
  the peers' (``-k exact-hu`` for one case). A peer timed on fewer hands than ours (the slow
  pure-Python ones) says so in ``extra_info["work"]``: compare rates, not times, there.
* In the normal test run (``--benchmark-disable``) each case runs once at the test-suite size,
  pokerjit's side only (``tests/test_bench.py`` and ``tests/test_peers.py`` cover the peers).
"""

from __future__ import annotations

import pytest

from evaluator._jit import resolve_threads
from simulate.bench import CASES, Case, Config, Work, load_peers

_WORK: dict[tuple[str, str], Work] = {}


def _mode(config: pytest.Config) -> str:
    """``full`` when pytest-benchmark times (``--benchmark-enable`` overrides the project's
    ``--benchmark-disable``), else the test-suite size."""
    disabled = (config.getoption("benchmark_disable", default=True)
                and not config.getoption("benchmark_enable", default=False))
    return "tiny" if disabled else "full"


def _work(case: Case, mode: str) -> Work:
    """The case made ready once per session (inputs are large in full mode)."""
    key = (case.name, mode)
    if key not in _WORK:
        peers = load_peers() if mode == "full" else None
        cfg = Config(mode=mode, repeat=1, threads=resolve_threads(None), peers=peers)
        _WORK[key] = case.make(cfg)
    return _WORK[key]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise over (case, side): ``pokerjit`` and, when timing, each peer of the case."""
    if "case" not in metafunc.fixturenames:
        return
    mode = _mode(metafunc.config)
    params = []
    for case in CASES:
        params.append(pytest.param(case, "pokerjit", id=f"{case.name}-pokerjit"))
        if mode == "full":
            params += [pytest.param(case, p.peer, id=f"{case.name}-{p.peer}")
                       for p in _work(case, mode).peers]
    metafunc.parametrize(("case", "side"), params)


def test_case(benchmark, request, case: Case, side: str) -> None:
    w = _work(case, _mode(request.config))
    benchmark.group = f"{case.name}: {case.title}"
    if side == "pokerjit":
        w.compile()
        res = benchmark(w.run)
        ok, detail = w.check(res)
        benchmark.extra_info.update(work=w.work, unit=case.unit, threads=w.threads)
    else:
        (p,) = [p for p in w.peers if p.peer == side]
        if p.warm is not None:
            p.warm()
        _secs, units, res = benchmark(p.run)
        ok, detail = p.check(res) if p.check is not None else (True, "")
        benchmark.extra_info.update(work=units, unit=case.unit, path=p.path, note=p.note)
    assert ok, f"{case.name} ({side}): {detail}"
