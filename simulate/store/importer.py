"""Import hand histories into the database: bulk, idempotent, incremental, one writer.

:func:`import_hands` reads every file under the paths (files and folders, recursively; PHH
and every site export pokerjit reads, told from the content), replays each hand as
``pokerjit hand`` does (:func:`simulate.replay.fast_replay.replay_items`: validation,
results, all-in EV), counts its statistics (:mod:`simulate.store.counts`; the hands the
compiled replay settles, by its compiled twin :mod:`simulate.store.plain_walk`) and stores
it.

- **Bulk**: each file is cut into chunks of :data:`CHUNK` hands, made into rows on the one
  pool of pokerjit (:func:`simulate.run.executor`: in this process, or on ``workers``
  processes, which cut a large PHH file's byte ranges themselves;
  :mod:`simulate.store.chunks`), and stored :data:`BATCH` hands at a time in this
  process, each table's rows inserted from numpy columns in one statement.
- **Once**: ``(site, hand_id)`` is a hand's key; a hand already stored is counted as a
  duplicate and left out.
- **Incremental**: ``files`` remembers each file's size, modification time, digest and
  where the next reading starts (the start of the last hand read). A file read to its end
  and unchanged is not opened again; a file whose first bytes are unchanged (it grew, or an
  import stopped inside it) is read from there, so the last hand read before is read again
  (a duplicate; it may have been cut short then); a file written anew is read whole.
- **One writer**: a lock file beside the database (``FILE.lock``) is held while writing; a
  second import raises :class:`DatabaseBusy`, or waits with ``wait=True``.
- **Nothing half done**: each batch (its hands, their players and actions, the errors met
  and the files' reading positions) is one transaction; Ctrl-C or a killed process loses
  only the batch in progress, and the next import goes on from the last batch stored.
- A hand that cannot be read or replayed goes to ``errors`` (told to ``on_error``, one line)
  and never stops the import.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from simulate.store.schema import TABLES, connect, resolve_db

__all__ = ["BATCH", "CHUNK", "WORKER_CHUNK", "DatabaseBusy", "ImportResult", "import_hands",
           "writer_lock"]

#: Hands stored per transaction (fewer commits: 20,000 hands stored 2,000 at a time spent
#: 0.63 s in DuckDB's commits, 10,000 at a time 0.33 s, measured).
BATCH = 10_000


class DatabaseBusy(RuntimeError):
    """Another import holds the database's lock."""


@dataclass
class ImportResult:
    """What an import did (the ``--json`` document of ``pokerjit import``)."""

    db: str
    files: int = 0
    hands_read: int = 0
    hands_added: int = 0
    duplicates: int = 0
    errors: int = 0
    elapsed_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"files": self.files, "hands_read": self.hands_read,
                "hands_added": self.hands_added, "duplicates": self.duplicates,
                "errors": self.errors, "elapsed_s": round(self.elapsed_s, 3), "db": self.db}


@contextmanager
def writer_lock(db: Path, wait: bool = False) -> Iterator[int]:
    """Hold ``DB.lock`` (an OS lock, released however the process ends) while the block
    runs (it gets the lock file's descriptor); :class:`DatabaseBusy` when another process
    holds it (``wait``: wait for it), ValueError when the lock file cannot be made."""
    lock = Path(str(db) + ".lock")
    try:
        lock.parent.mkdir(parents=True, exist_ok=True)
        made = not lock.exists()
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise ValueError(f"cannot write the database's lock file {lock}: "
                         f"{exc.strerror or exc}") from None
    held = False
    try:
        _lock(fd, wait, db)
        held = True
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield fd
    except BaseException:
        if made and held:  # a refused or failed first import leaves nothing beside the file
            with contextlib.suppress(OSError):
                lock.unlink()
        raise
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _lock(fd: int, wait: bool, db: Path) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import msvcrt

        mode = msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK
        try:
            msvcrt.locking(fd, mode, 1)
        except OSError:
            raise DatabaseBusy(f"another import is writing {db} (--wait waits for it)") from None
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        pid = os.pread(fd, 32, 0).decode(errors="replace").strip()
        who = f" (process {pid})" if pid else ""
        raise DatabaseBusy(f"another import{who} is writing {db} (--wait waits for it)") from None


@dataclass
class _FileState:
    """One file's row of ``files`` as this import leaves it."""

    path: str
    size: int
    mtime_ns: int
    digest: str
    read_to: int
    line: int
    start: int  # where this import began reading it: its errors from there are replaced
    hands: int = 0
    errors: int = 0
    complete: bool = False
    cleared: bool = False


@dataclass
class _Run:
    con: Any
    result: ImportResult
    on_error: Callable[[str], None] | None
    on_bytes: Callable[[int], None] | None
    batch_size: int
    chunk: int = 64
    spans: bool = False  # large PHH files sent to worker processes as byte ranges
    batch: Any = None  # a simulate.store.chunks.Pending
    touched: dict[str, _FileState] = field(default_factory=dict)
    states: dict[str, _FileState] = field(default_factory=dict)
    at: dict[str, int] = field(default_factory=dict)  # bytes told to on_bytes, per file


def import_hands(paths: str | Path | Iterable[str | Path], db: str | Path | None = None, *,
                 wait: bool = False, on_error: Callable[[str], None] | None = None,
                 on_skip: Callable[[str], None] | None = None,
                 on_bytes: Callable[[int], None] | None = None,
                 on_total: Callable[[int], None] | None = None,
                 batch: int = BATCH, chunk: int | None = None,
                 workers: int = 1, scheduler: str | None = None) -> ImportResult:
    """Import every hand under ``paths`` into the database ``db`` (:func:`resolve_db`); see
    the module docstring. ``on_error(line)``: each hand that cannot be stored;
    ``on_skip(line)``: each file skipped; ``on_total(bytes)`` once the files are listed,
    then ``on_bytes(n)`` as ``n`` more bytes are read. ``batch``: hands a transaction;
    ``chunk``: hands replayed together (default :data:`CHUNK`, :data:`WORKER_CHUNK` on
    workers); ``workers``: processes that read, replay and count the hands
    (:func:`simulate.run.executor`; this process stores them); ``scheduler``
    (``local[:N]`` or ``tcp://HOST:PORT``, the ``distributed`` extra): on a Dask cluster
    instead, the hands sent from here. Raises FileNotFoundError or
    ValueError for a path that does not exist or is not a file or folder (before writing
    anything), :class:`DatabaseBusy` when another import holds the lock."""
    from simulate.replay.hand_files import STDIN, check_inputs

    t0 = time.perf_counter()
    paths = check_inputs(paths)
    if any(str(p) == STDIN for p in paths):
        raise ValueError("import reads files and folders, not standard input")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        from simulate.run import parse_scheduler

        parse_scheduler(scheduler)
    path = resolve_db(db)
    result = ImportResult(db=str(path))
    with writer_lock(path, wait) as lock_fd:
        con = connect(path)
        try:
            remote = workers > 1 or scheduler is not None
            run = _Run(con, result, on_error, on_bytes, batch,
                       chunk or (WORKER_CHUNK if remote else CHUNK),
                       spans=scheduler is None and workers > 1)  # a cluster may not see files
            files = list(_files(paths, on_skip))
            plans = [(f, st) for f in files if (st := _plan(con, f)) is not None]
            result.files = len(files)
            if on_total is not None:
                on_total(sum(st.size - st.start for _, st in plans))
            run.states = dict(plans)
            _run_chunks(run, plans, workers, lock_fd, scheduler)
            _flush(run)
        finally:
            con.close()
    result.elapsed_s = time.perf_counter() - t0
    return result


def _files(paths: list[Any], on_skip: Callable[[str], None] | None) -> Iterator[str]:
    """The files to read, each once, absolute; a file in a folder that holds no hand
    history is skipped (told to ``on_skip``)."""
    from simulate.notation.phh_read import SUFFIXES, iter_hand_files
    from simulate.replay.hand_files import NOT_HANDS, file_kind

    seen: set[tuple[int, int]] = set()
    explicit = {os.path.abspath(p) for p in paths}
    for top in paths:
        for f in iter_hand_files(top, seen=seen, on_skip=on_skip, every_file=True):
            name = os.path.abspath(f)
            if name not in explicit and not name.endswith(SUFFIXES):
                try:
                    with open(f, "rb") as fh:
                        head = fh.read(8192)
                except OSError:
                    head = b""
                if file_kind(head) is None:
                    if on_skip is not None:
                        on_skip(f"skipped {f}: {NOT_HANDS}")
                    continue
            yield name


def _plan(con: Any, name: str) -> _FileState | None:
    """Where to read ``name`` from this time (None: nothing new in it)."""
    from simulate.store.reading import file_digest

    st = os.stat(name)
    row = con.execute("SELECT size, mtime_ns, digest, read_to, line, complete, hands, errors "
                      "FROM files WHERE path = ?", [name]).fetchall()
    row = row[0] if row else None
    if row is not None:
        size, mtime, digest, read_to, line, complete, hands, errors = row
        if complete and size == st.st_size and mtime == st.st_mtime_ns:
            return None
        if st.st_size >= size:
            prefix, full = file_digest(name, size, st.st_size)
            if prefix == digest:
                return _FileState(name, st.st_size, st.st_mtime_ns, full, read_to, line,
                                  read_to, hands, errors)
    full = file_digest(name, 0, st.st_size)[1]
    return _FileState(name, st.st_size, st.st_mtime_ns, full, 0, 1, 0)


#: Hands a chunk (:mod:`simulate.store.chunks`: replayed, walked and made into columns
#: together), in this process and sent to a worker: 256 pays each chunk's set-up less often
#: (in this process 20,000 hands 3.9 s at 64 a chunk, 3.6 s at 256, 4.1 s at 512; on two
#: workers, fewer round trips: 4.7 s -> 4.05 s at 64 -> 256, measured).
CHUNK, WORKER_CHUNK = 256, 256
#: Chunks in flight per worker: enough work queued for the workers to keep busy while
#: this process stores a batch (a transaction of :data:`BATCH` hands takes about as long
#: as a worker's 16 chunks; with the pool's usual 3, the workers waited: 50,000 hands on
#: two workers, see benchmarks/README.md).
AHEAD = 16


def _chunks(run: _Run, plans: list[tuple[str, _FileState]]) -> Iterator[Any]:
    """Each file's hands, :attr:`_Run.chunk` at a time, as
    :class:`simulate.store.chunks.Chunk` s (PHH text left for the worker to read); the
    last chunk of a file says so (it may be empty). With :attr:`_Run.spans`, a large PHH
    file's chunks are byte ranges that the workers cut themselves
    (:func:`simulate.replay.hand_files.phh_ranges`): this process reads no hand of it."""
    from simulate.replay.hand_files import RANGE_MIN_BYTES, PhhRange, phh_ranges
    from simulate.store.chunks import Chunk, span_items

    for name, st in plans:
        if run.spans and st.size - st.start >= RANGE_MIN_BYTES and _is_phh(name):
            ranges = list(phh_ranges(name, run.chunk, st.start, st.line, st.size))
            for k, r in enumerate(ranges):
                last = k == len(ranges) - 1
                yield (Chunk(name, [], last, (r.start, r.end, r.line))
                       if isinstance(r, PhhRange) else
                       Chunk(name, [(*it, st.start, st.line) for it in r], last))
            continue
        items: list[tuple[str, int, Any, int, int]] = []
        try:
            for it in span_items(name, st.start, st.size, st.line):
                items.append(it)
                if len(items) >= run.chunk:
                    yield Chunk(name, items, False)
                    items = []
        except OSError as exc:
            items.append((name, 1, f"cannot read file: {exc.strerror or exc}", st.start,
                          st.line))
        yield Chunk(name, items, True)


def _is_phh(name: str) -> bool:
    """Whether the file ``name`` is PHH (:func:`simulate.store.reading.file_format`)."""
    from simulate.store.reading import file_format

    try:
        return file_format(name) == "phh"
    except OSError:
        return False


def _run_chunks(run: _Run, plans: list[tuple[str, _FileState]], workers: int,
                lock_fd: int, scheduler: str | None = None) -> None:
    """Every chunk made into rows (:func:`simulate.store.chunks.prepare_chunk`, on the one
    pool of pokerjit) and stored in order, a batch at a time."""
    from simulate.run import executor
    from simulate.store.chunks import failed_chunk, prepare_chunk, warm_import

    remote = workers > 1 or scheduler is not None
    ex = executor(workers, scheduler, warm=warm_import if remote else None,
                  warm_kinds=("import",), close_fd=lock_fd, ahead=AHEAD)
    try:
        for chunk, rows in ex.map_ordered(_chunks(run, plans), (), prepare_chunk,
                                          on_error=failed_chunk):
            _merge(run, chunk, rows)
    except BaseException:
        ex.close(abort=True)
        raise
    ex.close()


def _merge(run: _Run, chunk: Any, rows: Any) -> None:
    """Add a chunk's rows and errors to the batch; store the batch when it is full."""
    from simulate.store.chunks import Pending

    st = run.states[chunk.path]
    run.touched[chunk.path] = st
    res = run.result
    if run.batch is None:
        run.batch = Pending()
    for (source, line, offset, offset_line), (kind, what) in zip(
            rows.items_read(chunk), rows.outcomes, strict=True):
        res.hands_read += 1
        st.read_to, st.line = offset, offset_line
        if kind == "error":
            _error(run, st, source, line, offset, what)
    res.duplicates += run.batch.add(chunk.path, rows)
    told = run.at.get(chunk.path, st.start)
    now = st.size if chunk.last else st.read_to
    if run.on_bytes is not None and now > told:
        run.on_bytes(now - told)
    run.at[chunk.path] = max(now, told)
    if chunk.last:
        st.complete = True
    if len(run.batch) >= run.batch_size:
        _flush(run)


def _error(run: _Run, state: _FileState, source: str, line: int, byte: int, msg: str) -> None:
    from simulate.store.chunks import Pending

    msg = str(msg).splitlines()[0] if msg else "unknown error"
    run.result.errors += 1
    state.errors += 1
    if run.batch is None:
        run.batch = Pending()
    run.batch.errors.append((state.path, source, line, byte, msg))
    if run.on_error is not None:
        run.on_error(f"{source}: {msg}")


def _flush(run: _Run) -> None:
    """Store the batch and the files' positions in one transaction, Ctrl-C, SIGTERM and
    SIGHUP held until it ends (:func:`simulate.run.stop.signals_held`): DuckDB turns a stop
    that comes during a query into its own error, the stop lost and the error a
    traceback."""
    from simulate.run.stop import signals_held

    with signals_held():
        _store(run)


def _store(run: _Run) -> None:
    import numpy as np

    from simulate.store.rows import columns

    b, con = run.batch, run.con
    if b is None and not run.touched:
        return
    now = datetime.now(timezone.utc).replace(tzinfo=None).isoformat(sep=" ")
    con.begin()
    try:
        added = 0
        if b is not None and len(b):
            hands = b.table("hands")
            con.register("pj_new", {"ord": hands["ord"], "site": hands["site"],
                                    "hand_id": hands["hand_id"]})
            fresh = con.execute("SELECT n.ord FROM pj_new n WHERE NOT EXISTS (SELECT 1 FROM "
                                "hands h WHERE h.site = n.site AND h.hand_id = n.hand_id)"
                                ).fetchnumpy()["ord"]
            con.unregister("pj_new")
            added = len(fresh)
            if added:
                base = con.execute("SELECT coalesce(max(hand_no), 0) FROM hands").fetchall()[0][0]
                keep = np.zeros(len(b), bool)
                keep[np.asarray(fresh, dtype=np.int64)] = True
                no = np.cumsum(keep) + base
                hands["hand_no"] = no
                for table, cols in (("hands", hands), ("hand_players", b.table("hand_players")),
                                    ("actions", b.table("actions"))):
                    del_ord = cols.pop("ord")
                    if added < len(b):  # leave out the rows of the hands already stored
                        mask = keep[np.asarray(del_ord, dtype=np.int64)]
                        cols = {k: v[mask] for k, v in cols.items()}
                    _insert(con, table, cols)
            run.result.hands_added += added
            run.result.duplicates += len(b) - added
        for st in run.touched.values():
            if not st.cleared:
                con.execute("DELETE FROM errors WHERE file = ? AND byte >= ?",
                            [st.path, st.start])
                st.cleared = True
        if b is not None and b.errors:
            names = [name for name, _, _ in TABLES["errors"]]
            _insert(con, "errors", columns("errors", dict(zip(
                names, zip(*[(*e, now) for e in b.errors], strict=True), strict=True))))
        if b is not None and added:
            for i in np.asarray(fresh, dtype=np.int64):
                run.touched[b.files[i]].hands += 1
        if run.touched:
            got = dict(con.execute("SELECT file, count(*) FROM errors WHERE file IN "
                                   "(SELECT unnest(?)) GROUP BY file",
                                   [list(run.touched)]).fetchall())
            for st in run.touched.values():
                st.errors = int(got.get(st.path, 0))
        rows = {name: [] for name, _, _ in TABLES["files"]}
        for st in run.touched.values():
            for k, v in (("path", st.path), ("size", st.size), ("mtime_ns", st.mtime_ns),
                         ("digest", st.digest), ("read_to", st.read_to), ("line", st.line),
                         ("complete", st.complete), ("hands", st.hands),
                         ("errors", st.errors), ("imported_at", now)):
                rows[k].append(v)
        if rows["path"]:
            con.execute("DELETE FROM files WHERE path IN (SELECT unnest(?))", [rows["path"]])
            _insert(con, "files", columns("files", rows))
        con.commit()
    except BaseException:
        con.rollback()
        raise
    run.batch = None
    run.touched = {k: v for k, v in run.touched.items() if not v.complete}


def _insert(con: Any, table: str, cols: dict[str, Any]) -> None:
    """One bulk insert of numpy columns into ``table`` (each cast to its SQL type)."""
    types = {name: sql for name, sql, _ in TABLES[table]}
    names = list(cols)
    select = ", ".join(f"CAST({n} AS {types[n]})" for n in names)
    # no finally: DuckDB refuses the unregister of a failed transaction, which hid the error
    con.register("pj_rows", cols)
    con.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT {select} FROM pj_rows")
    con.unregister("pj_rows")
