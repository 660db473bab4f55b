"""Many equity requests from a JSON-lines file: ``pokerjit batch IN.jsonl -o OUT.jsonl``.

Input: one JSON object per line, ``{"id", "hands", "board", "dead", "game",
"exact", "samples", "seed"}`` (also ``"std_error"``); only ``id`` and
``hands`` are required. ``hands`` is a list of hands/ranges (a string is split
on spaces). Blank lines and lines starting with ``#`` are skipped.

Output: one JSON object per input line, ``{"id", "line", "result"}`` with the
``pokerjit equity --json`` document, or ``{"id", "line", "error"}`` with a
one-line message. ``line`` is the 1-based input line number. A bad line
(bad JSON, a missing or unknown field, bad cards) gets an error line and the
run goes on.

Rules:

- **Resume.** If OUT exists, its complete lines are read first and every
  request already answered there (same ``id``; for lines without a usable id,
  same line number) is skipped; new lines are appended. A last line cut short
  by a crash (no newline, or not valid JSON) is dropped, rewriting the file
  without it, and that request runs again.
- **Duplicate ids.** The first line with an id is the request; any later line
  with the same id gets ``{"error": "duplicate id ... (first on line N)"}``.
- **Order.** Output lines are written in input order, also with several
  workers (results that finish early wait for the ones before them); ``id``
  and ``line`` identify each line anyway.
- **Workers.** ``workers=1`` runs in this process with all Numba threads;
  ``workers=N`` runs N spawned processes with one Numba thread each. The same
  ``seed`` gives the same result either way.
- **Durability.** Each output line is written whole and flushed at once; the
  file is fsynced at least every second and at the end.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["BatchSummary", "read_finished", "run_batch", "run_request"]

FIELDS = ("id", "hands", "board", "dead", "game", "exact", "samples", "seed", "std_error")
FSYNC_EVERY_S = 1.0

Runner = Callable[[dict[str, Any], int | None], dict[str, Any]]


@dataclass
class BatchSummary:
    """What a :func:`run_batch` call did: lines in the input, skipped as already done,
    answered now (``done``), of which ``errors`` were error lines."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    errors: int = 0
    elapsed_s: float = 0.0


class _BadRequest(ValueError):
    pass


def _id_key(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        return None
    return json.dumps(value)


def _opt_int(req: dict[str, Any], name: str, positive: bool = False) -> int | None:
    v = req.get(name)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _BadRequest(f"{name} must be an integer, got {v!r}")
    if positive and v <= 0:
        raise _BadRequest(f"{name} must be positive, got {v}")
    return v


def _cards_field(req: dict[str, Any], name: str) -> str:
    v = req.get(name, "")
    if v is None:
        return ""
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v)
    if not isinstance(v, str):
        raise _BadRequest(f"{name} must be a string of cards, got {v!r}")
    return v


def _equity_kwargs(req: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(req) - set(FIELDS))
    if unknown:
        raise _BadRequest(f"unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})")
    if "hands" not in req:
        raise _BadRequest("missing field 'hands'")
    hands = req["hands"]
    if isinstance(hands, str):
        hands = hands.split()
    if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
        raise _BadRequest(f"hands must be a list of strings, got {req['hands']!r}")
    game = req.get("game", "holdem")
    if game is None:
        game = "holdem"
    if not isinstance(game, str):
        raise _BadRequest(f"game must be a string, got {game!r}")
    exact = req.get("exact")
    if exact is not None and not isinstance(exact, bool):
        raise _BadRequest(f"exact must be true, false or null, got {exact!r}")
    std_error = req.get("std_error")
    if std_error is not None and (isinstance(std_error, bool)
                                  or not isinstance(std_error, (int, float))):
        raise _BadRequest(f"std_error must be a number, got {std_error!r}")
    return {"hands": hands, "board": _cards_field(req, "board"),
            "dead": _cards_field(req, "dead"), "game": game, "exact": exact,
            "samples": _opt_int(req, "samples", positive=True),
            "target_std_error": std_error, "seed": _opt_int(req, "seed")}


def run_request(req: dict[str, Any], threads: int | None = None) -> dict[str, Any]:
    """Answer one parsed request: ``{"result": {...}}`` or ``{"error": "..."}`` (never raises
    for bad input; an unexpected exception becomes ``"internal error: ..."``)."""
    try:
        kwargs = _equity_kwargs(req)
        from simulate.equity import equity

        hands = kwargs.pop("hands")
        res = equity(hands, threads=threads, **kwargs)
        return {"result": res.to_dict()}
    except (_BadRequest, ValueError, TypeError) as exc:
        return {"error": " ".join(str(exc).split()) or type(exc).__name__}
    except Exception as exc:  # noqa: BLE001 - one bad request must not stop the run
        return {"error": f"internal error: {type(exc).__name__}: {exc}".split("\n")[0]}


def _worker(args: tuple[dict[str, Any], int | None]) -> dict[str, Any]:
    return run_request(*args)


def read_finished(out_path: str | Path) -> tuple[set[str], set[int]]:
    """Read an existing output file: ``(finished id keys, finished line numbers)``.

    Drops a cut-short last line (a run stopped mid-write: no newline), rewriting the file
    (atomically) without it. Raises ``ValueError`` if any other line is not a JSON object
    with ``result`` or ``error``: the file is not a batch output, and is left as it is.
    """
    p = Path(out_path)
    if not p.exists():
        return set(), set()
    data = p.read_bytes()
    keep: list[bytes] = []
    ids: set[str] = set()
    lines: set[int] = set()
    dirty = False
    raws = data.split(b"\n")
    last = max((i for i, r in enumerate(raws) if r.strip()), default=-1)
    for i, raw in enumerate(raws):
        if not raw.strip():
            continue
        try:
            rec = json.loads(raw)
            ok = isinstance(rec, dict) and ("result" in rec or "error" in rec)
        except ValueError:
            ok = False
        if not ok:
            if i != last or data.endswith(b"\n"):  # only a cut-short last line may go
                raise ValueError(f"{p}: line {i + 1} is not a batch result; not touching this "
                                 "file (give another output file)")
            dirty = True
            continue
        keep.append(raw)
        key = _id_key(rec.get("id"))
        if key is not None and "duplicate id" not in str(rec.get("error", "")):
            ids.add(key)
        if isinstance(rec.get("line"), int):
            lines.add(rec["line"])
    if data and not data.endswith(b"\n"):
        dirty = True
    if dirty:
        tmp = p.with_name(p.name + ".tmp")
        with open(tmp, "wb") as f:
            f.write(b"".join(r + b"\n" for r in keep))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    return ids, lines


@dataclass
class _Job:
    line: int
    id: Any
    request: dict[str, Any] | None  # None: the answer is already known
    answer: dict[str, Any] | None = None


def _jobs(in_path: Path, done_ids: set[str], done_lines: set[int],
          summary: BatchSummary) -> Iterator[_Job]:
    seen: dict[str, int] = {}
    with open(in_path, encoding="utf-8", errors="replace") as f:
        for lineno, text in enumerate(f, start=1):
            s = text.strip()
            if not s or s.startswith("#"):
                continue
            summary.total += 1
            try:
                req = json.loads(s)
            except ValueError as exc:
                req, err = None, f"bad JSON: {exc}"
            else:
                err = None if isinstance(req, dict) else "a request must be a JSON object"
            rid = req.get("id") if isinstance(req, dict) else None
            key = _id_key(rid)
            if err is None and "id" not in req:  # type: ignore[operator]
                err = "missing field 'id'"
            elif err is None and key is None:
                err = f"id must be a string or a number, got {rid!r}"
            if err is not None:  # no usable id: known by its line number
                if lineno in done_lines:
                    summary.skipped += 1
                else:
                    yield _Job(lineno, rid if key is not None else None, None, {"error": err})
                continue
            assert key is not None and isinstance(req, dict)
            if key in seen:
                if lineno in done_lines:
                    summary.skipped += 1
                else:
                    err = f"duplicate id {rid!r} (first on line {seen[key]})"
                    yield _Job(lineno, rid, None, {"error": err})
                continue
            seen[key] = lineno
            if key in done_ids:
                summary.skipped += 1
                continue
            try:
                _equity_kwargs(req)
            except _BadRequest as exc:
                yield _Job(lineno, rid, None, {"error": str(exc)})
                continue
            yield _Job(lineno, rid, req)


class _Writer:
    def __init__(self, f: IO[str], summary: BatchSummary, progress: IO[str] | None,
                 t0: float) -> None:
        self.f, self.summary, self.progress, self.t0 = f, summary, progress, t0
        self.last_sync = time.monotonic()
        self.last_report = 0.0

    def write(self, job: _Job) -> None:
        ans = job.answer or {"error": "internal error: no answer"}
        rec = {"id": job.id, "line": job.line, **ans}
        self.f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        self.f.flush()
        self.summary.done += 1
        if "error" in ans:
            self.summary.errors += 1
        now = time.monotonic()
        if now - self.last_sync >= FSYNC_EVERY_S:
            os.fsync(self.f.fileno())
            self.last_sync = now
        if self.progress is not None and now - self.last_report >= 1.0:
            self.report()
            self.last_report = now

    def report(self, final: bool = False) -> None:
        if self.progress is None:
            return
        s = self.summary
        dt = max(time.perf_counter() - self.t0, 1e-9)
        msg = (f"batch: {s.done + s.skipped}/{s.total if final else '?'} lines "
               f"({s.done} now, {s.skipped} already done, {s.errors} errors), "
               f"{s.done / dt:.1f} lines/s")
        self.progress.write(msg + "\n")
        self.progress.flush()


def run_batch(in_path: str | Path, out_path: str | Path, *, workers: int = 1,
              progress: IO[str] | None = sys.stderr,
              runner: Runner | None = None) -> BatchSummary:
    """Answer every request in ``in_path``, appending to ``out_path`` (see the module doc).

    ``workers``: processes to use (1 = this process). ``progress``: where progress lines go
    (``None`` for silence). ``runner``: replaces :func:`run_request` (tests; only with
    ``workers=1``). Raises ``FileNotFoundError``/``ValueError`` only for a missing input
    file, bad ``workers``, or an output file that is the input, a folder, or not a batch
    output (see :func:`read_finished`); bad requests become error lines.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    in_path, out_path = Path(in_path), Path(out_path)
    if not in_path.is_file():
        raise FileNotFoundError(f"no such input file: {in_path}")
    if out_path.exists() and out_path.resolve() == in_path.resolve():
        raise ValueError(f"the output file is the input file: {out_path}")
    if out_path.is_dir():
        raise ValueError(f"the output file is a folder: {out_path}")
    t0 = time.perf_counter()
    summary = BatchSummary()
    done_ids, done_lines = read_finished(out_path)
    run = runner or run_request
    with open(out_path, "a", encoding="utf-8") as f:
        w = _Writer(f, summary, progress, t0)
        jobs = _jobs(in_path, done_ids, done_lines, summary)
        if workers == 1:
            for job in jobs:
                if job.request is not None:
                    job.answer = run(job.request, None)
                w.write(job)
        else:
            _run_pool(jobs, w, workers)
        f.flush()
        os.fsync(f.fileno())
    summary.elapsed_s = time.perf_counter() - t0
    w.report(final=True)
    return summary


def _run_pool(jobs: Iterator[_Job], w: _Writer, workers: int) -> None:
    """Run jobs on ``workers`` spawned processes; write answers in input order."""
    import multiprocessing as mp
    from concurrent.futures import Future, ProcessPoolExecutor

    window: deque[tuple[_Job, Future[dict[str, Any]] | None]] = deque()
    limit = 4 * workers
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn")) as ex:
        for job in jobs:
            fut = ex.submit(_worker, (job.request, 1)) if job.request is not None else None
            window.append((job, fut))
            while len(window) > limit or (window and window[0][1] is None):
                _drain_one(window, w)
        while window:
            _drain_one(window, w)


def _drain_one(window: deque[Any], w: _Writer) -> None:
    job, fut = window.popleft()
    if fut is not None:
        try:
            job.answer = fut.result()
        except Exception as exc:  # noqa: BLE001 - a dead worker is one error line
            job.answer = {"error": f"internal error: {type(exc).__name__}: {exc}"}
    w.write(job)
