"""Run benchmark cases: first call, a checked warm-up under memory tracing, timed repetitions
alternating with the peers; :func:`run_bench` returns the report (the ``--json`` document).
Spreads, the calls per short repetition and the paired ratios are :mod:`~simulate.bench.timing`'s,
the one timer the ``benchmarks/bench_*.py`` scripts use too.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .cases import CASE_NAMES, CASES
from .timing import inner_calls, paired_ratios, spread
from .work import Case, Config, PeerWork, Work, timed

#: Sizes of each mode. ``tiny`` is for the test suite (timings meaningless, checks real).
MODES = ("full", "quick", "tiny")
DEFAULT_REPEAT = {"full": 5, "quick": 3, "tiny": 1}

SPEEDUP_NOTE = ("speedup = peer time / pokerjit time for the same work (from rates when the "
                "work differs); > 1 means pokerjit is faster")
MEMORY_NOTE = ("memory: tracemalloc peak (Python + numpy allocations) and process peak RSS "
               "(VmHWM, reset via /proc/self/clear_refs) during one untimed full-size run of "
               "pokerjit's side only; rss_peak includes the interpreter, Numba and the tables")


def load_peers() -> Any:
    """The ``benchmarks/peers`` package of the source checkout, imported by path, or ``None``
    (not a source checkout, or the package fails to import)."""
    name = "pokerjit_bench_peers"
    if name in sys.modules:
        return sys.modules[name]
    import simulate

    folder = Path(simulate.__file__).resolve().parents[1] / "benchmarks" / "peers"
    init = folder / "__init__.py"
    if not init.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, init,
                                                  submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception:
        for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
            del sys.modules[key]
        return None
    return mod


def _rss_bytes(field_name: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _peak_rss_bytes() -> int | None:
    hwm = _rss_bytes("VmHWM")
    if hwm is not None:
        return hwm
    try:
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(r) * (1 if sys.platform == "darwin" else 1024)
    except Exception:
        return None


def _measure_memory(fn: Callable[[], Any]) -> tuple[Any, dict[str, Any]]:
    reset = _reset_peak_rss()
    start = _rss_bytes("VmRSS")
    tracemalloc.start()
    try:
        res = fn()
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rss_peak = _peak_rss_bytes()
    if rss_peak is not None and start is not None:
        # Linux moves VmHWM only when memory is unmapped (and at the reset): pages a run
        # touched and then handed back with madvise leave it below where the run started
        rss_peak = max(rss_peak, start)
    return res, {"tracemalloc_peak_bytes": int(peak), "rss_peak_bytes": rss_peak,
                 "rss_start_bytes": start, "rss_peak_is_per_case": reset}


def _run_case(case: Case, cfg: Config) -> dict[str, Any]:
    row: dict[str, Any] = {"name": case.name, "title": case.title, "unit": case.unit,
                           "status": "ok", "check": None, "peers": []}
    say = cfg.progress or (lambda s: None)
    try:
        w = case.make(cfg)
        row.update(detail=w.detail, work=w.work, threads=w.threads)
        say(f"{case.name}: first call")
        row["compile_s"], _ = timed(w.compile)
        say(f"{case.name}: warm-up run")
        warm_s, (res, row["memory"]) = timed(lambda: _measure_memory(w.run))
        ok, detail = w.check(res)
        checks = [(ok, detail)]
        for p in w.peers:
            if p.warm is not None:
                try:
                    p.warm()
                except Exception:
                    pass
        # Sub-100 ms work is repeated within one timed repetition (``inner`` calls) so that a
        # scheduler hiccup on a busy machine cannot dominate a short measurement.
        target = cfg.min_rep_s
        inner = w.inner or 1
        if w.inner is None and 0 < warm_s < 2 * target:
            t1, res = timed(w.run)
            checks.append(w.check(res))
            inner = inner_calls(t1, target)
        row["inner"] = inner
        times: list[float] = []
        peer_times: dict[str, list[tuple[float, int]]] = {p.peer: [] for p in w.peers}
        peer_inner: dict[str, int] = {}
        peer_answers: dict[str, Any] = {}
        peer_errors: dict[str, str] = {}
        reps = min(cfg.repeat, w.max_repeat or cfg.repeat) if ok else 0
        for r in range(reps):
            say(f"{case.name}: repetition {r + 1}/{reps}")
            t0 = time.perf_counter()
            for _ in range(inner):
                res = w.run()
            times.append((time.perf_counter() - t0) / inner)
            checks.append(w.check(res))
            for p in w.peers:
                if p.peer in peer_errors or (p.max_reps and len(peer_times[p.peer]) >= p.max_reps):
                    continue
                try:
                    if p.peer not in peer_inner:  # first call calibrates, not counted
                        secs, _units, ans = p.run()
                        peer_answers[p.peer] = ans
                        fast = target > 0 and secs < target and not p.max_reps
                        peer_inner[p.peer] = inner_calls(secs, target) if fast else 1
                        if not fast:
                            peer_times[p.peer].append((secs, _units))
                            continue
                    tot_s, tot_u = 0.0, 0
                    for _ in range(peer_inner[p.peer]):
                        secs, units, ans = p.run()
                        tot_s, tot_u = tot_s + secs, tot_u + units
                except Exception as exc:  # a peer failing never fails our case
                    peer_errors[p.peer] = f"{type(exc).__name__}: {exc}"
                    continue
                k = peer_inner[p.peer]
                peer_times[p.peer].append((tot_s / k, tot_u // k))
                peer_answers[p.peer] = ans
        bad = [d for o, d in checks if not o]
        row["check"] = {"ok": not bad, "detail": bad[0] if bad else checks[0][1],
                        "runs_checked": len(checks)}
        if bad:
            row["status"] = "FAILED"
        row["seconds"] = spread(times)
        row["rate"] = spread([w.work / t for t in times if t > 0])
        for p in w.peers:
            row["peers"].append(_peer_row(p, w, times, peer_times[p.peer],
                                          peer_answers.get(p.peer), peer_errors.get(p.peer)))
    except Exception as exc:
        row["status"] = "FAILED"
        row["check"] = {"ok": False, "detail": f"error: {type(exc).__name__}: {exc}"}
    return row


def _peer_row(p: PeerWork, w: Work, ours: list[float], runs: list[tuple[float, int]],
              answer: Any, error: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"peer": p.peer, "path": p.path, "note": p.note}
    if error is not None or not runs:
        out.update(status="error", error=error or "no run")
        return out
    rates = [u / s for s, u in runs if s > 0]
    our_rates = [w.work / t for t in ours if t > 0]
    paired = paired_ratios(our_rates, rates)
    out.update(status="ok", seconds=spread([s for s, _ in runs]), work=runs[-1][1],
               rate=spread(rates), speedup=spread(paired))
    if p.check is not None and answer is not None:
        try:
            ok, detail = p.check(answer)
        except Exception as exc:
            ok, detail = False, f"error: {exc}"
        out["check"] = {"ok": ok, "detail": detail}
    return out


def machine_info(threads: int) -> dict[str, Any]:
    """CPU model, core count, load, Python/numpy/Numba versions and thread settings."""
    import numba

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        pj = version("pokerjit")
    except Exception:
        pj = "unknown"
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"cpu": cpu, "cores": os.cpu_count(), "load_average": load,
            "platform": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__,
            "numba_threads": int(numba.config.NUMBA_NUM_THREADS), "threads_all": threads,
            "numba_cache": os.environ.get("POKERJIT_CACHE", "1") != "0", "pokerjit": pj}


def run_bench(cases: Sequence[str] | None = None, *, mode: str = "full",
              repeat: int | None = None, threads: int | None = None, peers: bool = False,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run the benchmark cases and return the report (the ``--json`` document).

    ``cases``: names from :data:`CASE_NAMES` (default: all). ``mode``: ``full``, ``quick`` or
    ``tiny`` (test-suite sizes). ``threads``: the "all threads" count (default: every Numba
    thread). ``peers``: also run the peer libraries (needs ``benchmarks/peers/``).
    Returns ``{"machine", "mode", "repeat", "tables_bytes", "peers_available", "notes",
    "cases": [...], "ok"}``; ``ok`` is False when any case FAILED its check.
    """
    from evaluator._jit import resolve_threads
    from evaluator._tables import get_tables

    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    names = list(cases) if cases else list(CASE_NAMES)
    unknown = [n for n in names if n not in CASE_NAMES]
    if unknown:
        raise ValueError(f"unknown case {unknown[0]!r}; choose from {', '.join(CASE_NAMES)}")
    rep = DEFAULT_REPEAT[mode] if repeat is None else int(repeat)
    if rep < 1:
        raise ValueError(f"repeat must be at least 1, got {rep}")
    n_threads = resolve_threads(threads)
    P = load_peers() if peers else None
    notes = [SPEEDUP_NOTE, MEMORY_NOTE,
             "compile_s: first call on a tiny input (JIT compile, or a load from Numba's "
             "cache when warm); excluded from every timing"]
    if peers and P is None:
        notes.append("peers: benchmarks/peers/ not found (install from a source checkout "
                      "with pokerjit[peers] to compare against the peer libraries)")
    cfg = Config(mode=mode, repeat=rep, threads=n_threads, peers=P, progress=progress,
                 min_rep_s={"full": 0.1, "quick": 0.03, "tiny": 0.0}[mode])
    t0 = time.perf_counter()
    rows = [_run_case(c, cfg) for c in CASES if c.name in names]
    return {
        "machine": machine_info(n_threads),
        "mode": mode,
        "repeat": rep,
        "tables_bytes": int(get_tables().nbytes),
        "peers_available": ({p: bool(P.available(p)) for p in P.PEERS} if P is not None
                            else None),
        "notes": notes,
        "cases": rows,
        "elapsed_s": time.perf_counter() - t0,
        "ok": all(r["status"] != "FAILED" for r in rows),
    }
