"""The one benchmark timer: sides of a comparison run alternately, medians and paired ratios.

``pokerjit bench`` (:mod:`simulate.bench.runner`) and the ``benchmarks/bench_*.py`` scripts
time the same way, with the pieces here:

* :func:`spread` -- median, min and max of repeated measurements;
* :func:`inner_calls` -- how many calls of a short piece of work one timed repetition makes,
  so that a scheduler hiccup on a busy machine cannot dominate a short measurement;
* :func:`paired_ratios` -- ratios taken round by round (this round's peer against this
  round's pokerjit), so a machine whose speed drifts (shared cores) still compares fairly;
* :func:`compare` -- a list of :class:`Comparison` s, each a few :class:`Side` s (pokerjit
  first) timed in rounds: one run of every side per round, in turn. Each side reports its
  seconds and rate per run (``spread``) and ``vs_first``: its time per unit of work over
  the first side's, paired per round (> 1: the first side, pokerjit, is faster);
* :func:`format_comparisons` -- the text table of :func:`compare`'s rows, and
  :func:`script_main` -- the command line every ``benchmarks/bench_*.py`` script runs
  (``--json``, ``--repeat N``, ``--quick`` and the script's own options).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Comparison", "Side", "compare", "format_comparisons", "inner_calls",
           "paired_ratios", "script_main", "spread"]

MAX_INNER = 1000  # most calls of a short piece of work in one timed repetition


def spread(xs: Sequence[float]) -> dict[str, float] | None:
    """``{"median", "min", "max", "runs"}`` of ``xs``, or None when there are none."""
    if not xs:
        return None
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": len(xs)}


def inner_calls(seconds: float, target: float) -> int:
    """Calls of work that takes ``seconds`` per call to make one timed repetition last at
    least ``target`` seconds (1 when ``target`` is 0; at most :data:`MAX_INNER`)."""
    if target <= 0:
        return 1
    return max(1, min(MAX_INNER, math.ceil(target / max(seconds, 1e-7))))


def paired_ratios(ours: Sequence[float], theirs: Sequence[float]) -> list[float]:
    """Round-by-round ratios ``ours[i] / theirs[i]`` (rounds where ``theirs[i]`` is not
    positive are left out; extra rounds of the longer list too). With rates, ours over the
    peer's is the speedup (> 1: pokerjit faster)."""
    return [a / b for a, b in zip(ours, theirs, strict=False) if b > 0]


@dataclass(frozen=True)
class Side:
    """One side of a comparison.

    ``run()`` does the work once (its result is passed to ``seconds``, ``info`` and
    ``check``). ``work``: units of work per run (for the rate; None: rates are runs/s).
    ``seconds(result)``: the run's own time when the work times itself (a process that
    reports what it measured); default the wall clock around ``run()``. ``info(result)``:
    extra numbers kept from the last run (e.g. CPU seconds). ``check(result)``: raises when
    the answer is wrong. ``available``: False leaves the side out (a peer not installed).
    """

    name: str
    run: Callable[[], Any]
    work: float | None = None
    seconds: Callable[[Any], float] | None = None
    info: Callable[[Any], dict[str, Any]] | None = None
    check: Callable[[Any], None] | None = None
    available: bool = True


@dataclass(frozen=True)
class Comparison:
    """Sides timed against each other (the first is the reference, usually pokerjit).

    ``unit`` names the work (``hands``, ``spots``, ``runs``); ``repeat`` overrides the
    caller's number of rounds (e.g. 1 for a one-off such as a table build); ``warm`` runs each
    side once, untimed, first (compile, cache load, peer library load); ``min_rep_s``: short
    runs are repeated within one timed repetition until it lasts this long (0: never).
    """

    title: str
    sides: Sequence[Side]
    unit: str = "runs"
    repeat: int | None = None
    warm: bool = True
    min_rep_s: float = 0.0


def _timed_run(side: Side, inner: int) -> tuple[float, Any]:
    total, res = 0.0, None
    for _ in range(inner):
        t0 = time.perf_counter()
        res = side.run()
        dt = time.perf_counter() - t0
        total += side.seconds(res) if side.seconds is not None else dt
        if side.check is not None:
            side.check(res)
    return total / inner, res


def compare(comparisons: Sequence[Comparison], *, repeat: int = 3,
            progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Time every comparison; returns one row per comparison::

        {"title", "unit", "rounds", "sides": [{"name", "work", "inner", "seconds": spread,
         "rate": spread (work per second), "vs_first": spread or None, "info": {...}}]}

    Each round runs every available side once, in turn (alternating, so a noisy neighbour
    hurts every side alike); ``vs_first`` is the per-round ratio of the side's seconds per
    unit of work to the first side's."""
    rows = []
    for comp in comparisons:
        sides = [s for s in comp.sides if s.available]
        rounds = comp.repeat if comp.repeat is not None else repeat
        say = progress or (lambda msg: None)
        inner: dict[str, int] = {}
        for s in sides:
            if comp.warm:
                say(f"{comp.title}: {s.name}: warm-up")
                secs, _ = _timed_run(s, 1)
                inner[s.name] = inner_calls(secs, comp.min_rep_s)
            else:
                inner[s.name] = 1
        times: dict[str, list[float]] = {s.name: [] for s in sides}
        info: dict[str, dict[str, Any]] = {s.name: {} for s in sides}
        for r in range(rounds):
            for s in sides:
                say(f"{comp.title}: {s.name}: round {r + 1}/{rounds}")
                secs, res = _timed_run(s, inner[s.name])
                times[s.name].append(secs)
                if s.info is not None:
                    info[s.name] = s.info(res)
        first = sides[0] if sides else None
        out = []
        for s in sides:
            work = s.work if s.work is not None else 1.0
            per_unit = [t / work for t in times[s.name]]
            vs = None
            if first is not None and s is not first:
                base = [t / (first.work if first.work is not None else 1.0)
                        for t in times[first.name]]
                vs = spread(paired_ratios(per_unit, base))
            out.append({"name": s.name, "work": s.work, "inner": inner[s.name],
                        "seconds": spread(times[s.name]),
                        "rate": spread([work / t for t in times[s.name] if t > 0]),
                        "vs_first": vs, "info": info[s.name]})
        rows.append({"title": comp.title, "unit": comp.unit, "rounds": rounds, "sides": out})
    return rows


def _secs(x: float) -> str:
    if x < 1e-3:
        return f"{x * 1e6:.0f} us"
    if x < 1:
        return f"{x * 1e3:.2f} ms"
    return f"{x:.2f} s"


def _rate(x: float) -> str:
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suf}"
    return f"{x:.3g}"


def format_comparisons(rows: Sequence[dict[str, Any]], extra: dict[str, Any] | None = None
                       ) -> str:
    """The text of :func:`compare`'s rows: one table per comparison (median seconds,
    min..max, rate, ``x first``: time per unit of work over the first side's, median and
    range of the per-round ratios), then ``extra`` as ``name: value`` lines."""
    from simulate.texttable import table

    blocks = []
    for row in rows:
        cells = []
        for s in row["sides"]:
            sec, rate, vs = s["seconds"], s["rate"], s["vs_first"]
            cells.append([
                s["name"], _secs(sec["median"]) if sec else "-",
                f"{_secs(sec['min'])}..{_secs(sec['max'])}" if sec else "-",
                f"{_rate(rate['median'])} {row['unit']}/s" if rate and s["work"] else "-",
                f"{vs['median']:.2f}x" if vs else "-",
                f"{vs['min']:.2f}..{vs['max']:.2f}" if vs else "-",
                ", ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}"
                          for k, v in s["info"].items())])
        blocks.append(f"{row['title']} ({row['rounds']} rounds)\n" + table(
            cells, ["side", "median", "min..max", "rate", "x first", "range", "info"]))
    if extra:
        blocks.append("\n".join(f"{k}: {json.dumps(v)}" for k, v in extra.items()))
    note = ("x first: this side's time per unit of work / the first side's, per round "
            "(> 1: the first side is faster)")
    return "\n\n".join(blocks + [note])


def script_main(description: str, comparisons: Callable[[argparse.Namespace, Path],
                                                        Sequence[Comparison]], *,
                argv: Sequence[str] | None = None,
                add_arguments: Callable[[argparse.ArgumentParser], None] | None = None,
                extra: Callable[[argparse.Namespace, Path], dict[str, Any]] | None = None,
                repeat: int = 3) -> int:
    """The command line of a ``benchmarks/bench_*.py`` script: parse ``argv`` (``--json``,
    ``--repeat N``, ``--quick`` and ``add_arguments``'s options), build the comparisons with
    ``comparisons(args, tmp)`` (``tmp``: a temporary folder for input files, removed at the
    end), time them with :func:`compare`, add ``extra(args, tmp)`` (numbers that are not
    timings) and print the table (or the JSON ``{"comparisons": rows, "extra": {...}}``).
    Returns the exit status."""
    ap = argparse.ArgumentParser(description=description.strip().split("\n\n")[0])
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--repeat", type=int, default=repeat, metavar="N",
                    help=f"timed rounds per comparison (default {repeat})")
    ap.add_argument("--quick", action="store_true", help="smaller work, for a quick look")
    if add_arguments is not None:
        add_arguments(ap)
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error(f"--repeat must be at least 1, got {args.repeat}")
    with tempfile.TemporaryDirectory(prefix="pokerjit-bench-") as d:
        tmp = Path(d)
        rows = compare(comparisons(args, tmp), repeat=args.repeat)
        more = extra(args, tmp) if extra is not None else {}
    if args.json:
        print(json.dumps({"comparisons": rows, "extra": more}, indent=2))
    else:
        print(format_comparisons(rows, more))
    return 0
