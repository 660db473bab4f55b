"""Running a batch: chunks of lines on this process, on worker processes, or on Dask.

The main process splits the input into chunks of consecutive lines (reading only the
lines an earlier run answered) and writes the answers in input order, settling the ids
as it writes (duplicates, lines answered before, changed requests). The work, reading and
answering the lines, is :func:`simulate.batch.chunks.answer_chunk`, run by one of three
backends:

* in this process, with all Numba threads (``workers=1``, the default);
* ``workers=N`` forked processes, one Numba thread each. The main process loads the
  compiled kernels once before the fork (on one thread, so no thread pool is forked), so
  the workers start with them instead of compiling or loading them N times; kernels for
  other kinds of line are compiled in the main process the first time such a line comes
  (the workers then load them from the cache rather than compiling at once). A worker
  writes a chunk's output text to a spool file beside the output and sends back where
  it lies; the main process copies it into the output (:mod:`simulate.run.spool`);
* ``scheduler="local[:N]"`` (a ``dask.distributed`` LocalCluster of N worker processes)
  or ``scheduler="tcp://HOST:PORT"`` (a running Dask scheduler): chunks are Dask tasks,
  workers are warmed with ``Client.run``, and results stream back with ``as_completed``.

Every backend gives the same output lines: each line's answer depends only on the line
(and the run's defaults), never on where or with how many threads it ran.

The backends are the one pool of pokerjit, :func:`simulate.run.executor`
(``pokerjit hand`` runs its chunks of hands on it too).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simulate.run import Executor, Spool, Stopped, chunked, executor, parse_scheduler, stopped

from .chunks import Answer, BlockAnswers, Item, Resumed, answer_chunk, warm_lines
from .files import Input, Output, Resume, count_lines, format_record
from .requests import DEFAULTABLE, BadRequest, check_id, digest, effective

MAX_CHUNK_LINES = 4096  # lines per chunk at most (a chunk is one task)
TASKS_PER_WORKER = 8  # aim for at least this many chunks per worker


@dataclass
class BatchSummary:
    """What a run did: input lines (not blank or comments), ``skipped`` as answered before,
    ``done`` now, of which ``errors`` are error lines."""

    total: int = 0
    skipped: int = 0
    done: int = 0
    errors: int = 0
    elapsed_s: float = 0.0


# ----------------------------------------------------------------------------- backends
_EQUITY_SIGNS = (b"+", b"%", b"random", b"any", b"std_error", b"-", b":")


def _kind_of(payload: Any, defaults: dict[str, Any]) -> str:
    """Which warm-up a line needs (:func:`~simulate.batch.chunks.warm_lines`), guessed from its
    bytes without reading them as JSON (a wrong guess costs a compile in a worker, no
    more)."""
    if isinstance(payload, dict):
        payload = json.dumps(payload, default=str).encode()
    if not isinstance(payload, bytes):
        return "fast"
    raw = payload.lower().replace(b'":', b'"')  # a key's colon is no card text
    kind = defaults.get("kind") or "equity"
    if b'"allin"' in raw or (kind == "allin" and b'"kind"' not in raw):
        return "allin"
    if b'"range"' in raw or (kind == "range" and b'"kind"' not in raw):
        return "range"
    if b"omaha" in raw or str(defaults.get("game", "")).lower().startswith("omaha"):
        return "omaha"
    if any(t in raw for t in _EQUITY_SIGNS):
        return "equity"
    return "fast"


def _kinds_of(items: list[Item], defaults: dict[str, Any]) -> set[str]:
    """The warm-ups a chunk needs (:func:`_kind_of` of each line): ``{"fast"}`` from one
    look at the whole chunk when no line shows a sign of anything else (the common case:
    exact hands), else line by line."""
    if (defaults.get("kind") or "equity") == "equity" and not any(
            isinstance(p, dict) for _, p in items) and not str(
            defaults.get("game", "")).lower().startswith("omaha"):
        raw = b"\n".join([p for _, p in items if isinstance(p, bytes)])
        raw = raw.lower().replace(b'":', b'"')
        if not any(t in raw for t in (b'"allin"', b'"range"', b"omaha", *_EQUITY_SIGNS)):
            return {"fast"}
    return {_kind_of(payload, defaults) for _, payload in items}


def _batch_executor(workers: int, scheduler: str | None, threads: int | None,
                    defaults: dict[str, Any], close_fd: int = -1,
                    spool: Spool | None = None) -> Executor:
    """:func:`executor` for batch lines: the grouped kernels first, the others as lines
    that need them come (:func:`_kinds_of`), each warmed by
    :func:`~simulate.batch.chunks.warm_lines`."""
    def kinds_of(items: list[Item]) -> set[str]:
        return _kinds_of(items, defaults)

    return executor(workers, scheduler, threads, warm=warm_lines, warm_kinds=("fast",),
                    kinds_of=kinds_of, close_fd=close_fd, spool=spool)


@contextlib.contextmanager
def _spool_for(workers: int, scheduler: str | None, out_path: Path) -> Iterator[Spool | None]:
    """A :class:`~simulate.run.spool.Spool` beside the output for forked workers to
    write their chunks' text to (None for one worker or Dask, or where none can be made:
    the text then travels back to this process), closed at the end of the run."""
    spool = None
    if workers > 1 and not scheduler and hasattr(os, "fork"):
        try:
            spool = Spool(out_path.resolve().parent)
        except (OSError, ValueError):  # a folder it cannot write to, no fork context
            spool = None
    try:
        yield spool
    finally:
        if spool is not None:
            spool.close()


def check_options(workers: Any, scheduler: str | None, defaults: dict[str, Any] | None
                  ) -> dict[str, Any]:
    """Check the run's options before any work; returns the defaults (ValueError if bad)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        parse_scheduler(scheduler)
    d = dict(defaults or {})
    bad = sorted(set(d) - set(DEFAULTABLE))
    if bad:
        raise ValueError(f"no default can be given for {bad[0]!r} "
                         f"(defaults: {', '.join(DEFAULTABLE)})")
    d = {k: v for k, v in d.items() if v is not None}
    if d:  # the same checks as a line's fields, and the game and cards themselves
        from evaluator.cards import CardError, check_disjoint, parse_cards
        from simulate.games import check_game
        from simulate.request import parse_board

        probe = {"id": 0, "kind": d.get("kind"), "players" if d.get("kind") == "allin"
                 else "hands": ["AhKh", "QsQd"]}
        try:
            eff = effective(probe, d)
            if "game" in d:
                check_game(d["game"])
            check_disjoint([("board", parse_board(eff["board"])),
                            ("dead cards", parse_cards(eff["dead"], what="dead cards"))])
        except (BadRequest, CardError, ValueError) as e:
            raise ValueError(f"default {e}") from None
    return d


# ----------------------------------------------------------------------------- file runs
def run_batch(in_path: str | Path, out_path: str | Path, *, workers: int = 1,
              scheduler: str | None = None, defaults: dict[str, Any] | None = None,
              threads: int | None = None, quiet: bool = False,
              progress_stream: Any = None, chunk_lines: int | None = None) -> BatchSummary:
    """Answer every request of ``in_path``, appending to ``out_path`` (see the package doc).

    ``workers``: processes (1 = this process, ``threads`` Numba threads); ``scheduler``:
    ``local[:N]`` or ``tcp://HOST:PORT`` for Dask; ``defaults``: values for fields a line
    leaves out (:data:`~simulate.batch.requests.DEFAULTABLE`); ``chunk_lines``: lines per
    chunk of work (default: up to 4,096, at least 8 chunks per worker; the output does not
    depend on it). Progress goes to stderr (a bar on a terminal, plain lines otherwise)
    unless ``quiet``, which also silences a long line's own progress (an exact walk, a
    Monte Carlo run: :func:`simulate.progress.report_progress`). Raises ValueError or
    OSError, before any work, for a bad option, a missing input, an output that is the
    input, a folder, a device or pipe, not a batch output, or in use by another run.
    """
    from simulate.progress import progress, progress_on, report_progress

    d = check_options(workers, scheduler, defaults)
    if chunk_lines is not None and (isinstance(chunk_lines, bool)
                                    or not isinstance(chunk_lines, int) or chunk_lines < 1):
        raise ValueError(f"chunk_lines must be a positive integer, got {chunk_lines!r}")
    in_path, out_path = Path(in_path), Path(out_path)
    if not in_path.is_file():
        if in_path.exists():
            raise ValueError(f"{in_path}: not a regular file")
        raise FileNotFoundError(f"no such input file: {in_path}")
    if out_path.exists() and out_path.resolve() == in_path.resolve():
        raise ValueError(f"the output file is the input file: {out_path}")
    t0 = time.perf_counter()
    summary = BatchSummary()
    inp = Input(in_path)  # refuses a file that is not UTF-8 text at once
    n_lines = count_lines(in_path)
    with Output(out_path) as out, _spool_for(workers, scheduler, out_path) as spool, \
            report_progress(progress_on() and not quiet), \
            progress(n_lines, "batch", "lines", quiet=quiet, stream=progress_stream) as bar:
        backend = _batch_executor(workers, scheduler, threads, d, out.fd, spool)
        writer = _Writer(out)
        try:
            chunk = chunk_lines or _chunk_size(n_lines, backend.workers)
            settle = _Settler(out.resume, out.fmt, str(out_path))
            last = 0
            for items, answers in backend.map_ordered(_chunks(inp, out, d, chunk),
                                                      (d, out.fmt, inp.header), answer_chunk):
                lines, errors, skipped = settle(answers)
                writer.put(lines, len(answers) - skipped)
                summary.total += len(answers)
                summary.done += len(answers) - skipped  # every other answer is written
                summary.errors += errors
                summary.skipped += skipped
                bar.update(items[-1][0] - last)  # physical lines, as counted for the total
                last = items[-1][0]
        except BaseException as exc:
            try:
                backend.close(abort=True)
            finally:
                writer.close(quiet=True)  # the lines answered so far are kept
            raise _stopped_run(exc, writer, out_path, len(out.resume.lines)) from None
        try:
            backend.close()
        finally:
            try:
                writer.close()
            except OSError as exc:
                raise _stopped_run(exc, writer, out_path, len(out.resume.lines)) from None
    summary.elapsed_s = time.perf_counter() - t0
    return summary


def _stopped_run(exc: BaseException, writer: _Writer, out_path: Path, before: int
                 ) -> BaseException:
    """What a run that ``exc`` ended raises: for a stopping signal
    (:class:`~simulate.run.Stopped`) or an error writing the output (a full disk), the same
    kind of exception with one line naming the output and how many answers it keeps;
    anything else as it is."""
    kept = f"the {writer.written:,} lines answered by this run are kept in {out_path}, whole"
    if before:
        kept += f" (with the {before:,} lines answered before it)"
    if isinstance(exc, KeyboardInterrupt):
        stop = stopped(exc)
        return Stopped(stop.signum, f"{stop.line[:1].lower()}{stop.line[1:]}: {kept}; run the "
                                    "same command again to answer the rest")
    if isinstance(exc, OSError) and exc is writer.error:
        return OSError(exc.errno, f"{exc.strerror or exc} writing it: {kept}; make room and "
                                  "run the same command again to answer the rest",
                       str(out_path))
    return exc


class _Writer:
    """:meth:`Output.write` on a thread of its own, so a chunk's lines are written while
    the next chunk is answered (``os.write`` lets go of the GIL; 200,000 heads-up lines are
    190 MB, about a fifth of a run's time on the 2-core VM). At most two chunks wait;
    :meth:`close` waits for every write queued. An error writing stops the writes and is
    raised by the next :meth:`put` or by :meth:`close`. ``written``: the records written
    whole so far (a write that fails leaves none of its lines: :meth:`Output.write`)."""

    def __init__(self, out: Output) -> None:
        import queue
        import threading

        self.out = out
        self.error: BaseException | None = None
        self.written = 0
        self.queue: Any = queue.Queue(maxsize=2)
        self.thread = threading.Thread(target=self._run, name="pokerjit-batch-writer",
                                       daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while (job := self.queue.get()) is not None:
            if self.error is None:
                lines, n = job
                try:
                    self.out.write(lines)
                    self.written += n
                except BaseException as e:  # noqa: BLE001 - raised in the main thread
                    self.error = e

    def put(self, lines: list[Any], n: int) -> None:
        """Queue ``lines`` (``n`` records) to be written."""
        if self.error is not None:
            raise self.error
        self.queue.put((lines, n))

    def close(self, quiet: bool = False) -> None:
        """Wait for the writes queued; raise the error of one that failed (unless
        ``quiet``: the run is ending with another error)."""
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()
        if self.error is not None and not quiet:
            raise self.error


def _chunk_size(n_lines: int, workers: int) -> int:
    if workers == 1:
        return MAX_CHUNK_LINES
    return max(1, min(MAX_CHUNK_LINES, math.ceil(n_lines / (TASKS_PER_WORKER * workers))))


def _chunks(inp: Input, out: Output, defaults: dict[str, Any], size: int
            ) -> Iterator[list[Item]]:
    """The input lines in chunks of ``size`` items: a line's bytes, to be answered, or
    for a line an earlier run answered, ``Resumed(id, key, digest)`` (read here, in this
    process)."""
    done = out.resume.lines
    for chunk in inp.chunks(size):
        if done:
            chunk = [_resumed(n, payload, inp, out, defaults) if n in done else (n, payload)
                     for n, payload in chunk]
        yield chunk


def _resumed(lineno: int, payload: Any, inp: Input, out: Output, defaults: dict[str, Any]
             ) -> Item:
    """The item of a line an earlier run answered. A line is matched by its id: the same
    id as the record of its number in OUT is ``Resumed`` (the settler then skips it, or
    refuses it if its contents changed); a line that cannot be read now is answered (its
    error). Another id there means lines were inserted, removed or replaced above it
    since: the records in OUT would no longer name the input's lines (two requests on
    one ``line``), so the run stops here with a ValueError, before answering it."""
    if isinstance(payload, str):
        return lineno, payload
    rid = key = dg = None
    try:
        req = Input.decode(payload, lineno, inp.header)
        rid, _ = check_id(req)
        key = out.key_of(rid)
        dg = digest(effective(req, defaults))
    except BadRequest:
        pass
    if key is None:
        return lineno, payload  # a line that cannot be read (now): its error
    old_key, old_id = out.resume.lines[lineno]
    if key != old_key:
        raise ValueError(
            f"{inp.path}: line {lineno} is request {rid!r}, but {out.path} answered line "
            f"{lineno} as request {old_id!r}: lines were inserted, removed or replaced at or "
            f"above it since, and {out.path}'s line numbers would no longer match the input's; "
            "add new requests at the end of the input, or write to another output")
    if key not in out.resume.answered:  # only refusals of it in OUT: answer it
        return lineno, payload
    return lineno, Resumed((rid, key, dg))


class _Settler:
    """Decides, in input order, what of each answered line is written: the id bookkeeping
    (duplicates, lines answered before, changed requests) happens here, once per line."""

    def __init__(self, resume: Resume, fmt: str, out_name: str) -> None:
        self.resume, self.fmt, self.out_name = resume, fmt, out_name
        self.seen: dict[str, int] = {}

    def __call__(self, answers: list[Answer]) -> tuple[list[Any], int, int]:
        """``(output lines, errors among them, lines skipped)`` for a chunk's answers."""
        out: list[Any] = []
        errors = skipped = 0
        r, seen = self.resume, self.seen
        if isinstance(answers, BlockAnswers):
            if not r.answered and not r.errors:
                keys = answers.keys
                if seen.keys().isdisjoint(keys) and len(set(keys)) == len(keys):
                    seen.update(zip(keys, answers.lines, strict=True))  # new ids, each once
                    return [answers.text], 0, 0  # (a spooled text stays in the spool)
            answers.fetch()  # line by line: the text from the spool, if it is there
        for line, rid, key, dg, text, is_error in answers:
            refusal = None
            if key is None:
                if text is None:  # an unreadable line answered before
                    skipped += 1
                    continue
            elif key in seen:
                if text is None:
                    skipped += 1
                    continue
                refusal = {"error": f"duplicate id {rid!r} (first on line {seen[key]})",
                           "refused": "duplicate"}
            else:
                seen[key] = line
                if key in r.answered:
                    if (key, dg) in r.acknowledged:
                        skipped += 1
                        continue
                    refusal = {"error": f"request {rid!r} changed since it was answered (line "
                                        f"{r.answered[key][0]} of the input, in "
                                        f"{self.out_name}); give it a new id or write to "
                                        "another output", "refused": "changed"}
                elif text is None:  # answered before under a key no record holds now
                    skipped += 1
                    continue
            if refusal is not None:
                text, is_error = format_record(rid, line, dg, refusal, self.fmt), True
            elif r.errors and r.errors.get(line) == text:  # the same error as last time
                skipped += 1
                continue
            out.append(text)
            errors += is_error
        return out, errors, skipped


# ----------------------------------------------------------------------------- Python API
def run(requests: Iterable[dict[str, Any]], *, workers: int = 1, scheduler: str | None = None,
        defaults: dict[str, Any] | None = None, threads: int | None = None,
        chunk_lines: int = 1024) -> Iterator[dict[str, Any]]:
    """Answer requests (dicts, as batch lines) and yield one record each, in order:
    ``{"id", "line", "digest", "result"}`` or ``{..., "error"}`` (``line`` counts from 1).

    Runs in this process, on ``workers`` processes, or on Dask (``scheduler``), exactly
    as :func:`run_batch` does, but without files: nothing is resumed. Meant for notebooks::

        for rec in run([{"id": 1, "hands": ["AhKh", "QsQd"], "board": "Ks8h2c"}]):
            print(rec["result"]["players"][0]["equity"])
    """
    d = check_options(workers, scheduler, defaults)
    backend = _batch_executor(workers, scheduler, threads, d)
    settle = _Settler(Resume(), "dict", "")
    try:
        size = chunk_lines if backend.workers == 1 else max(1, chunk_lines // 4)
        items = ((n, req if isinstance(req, dict) else "a request must be a JSON object")
                 for n, req in enumerate(requests, 1))
        for _, answers in backend.map_ordered(chunked(items, size), (d, "dict", None),
                                              answer_chunk):
            yield from settle(answers)[0]
    except BaseException:
        backend.close(abort=True)
        raise
    backend.close()
