"""Hand histories at scale: stream hands from files, folders and ``.phhs`` collections,
replay them (in this process or on worker processes, in fixed chunks), and keep
per-player totals.

:func:`analyze` yields one JSON-ready dict per hand (the :class:`HandReplay`
document, see :meth:`simulate.phh.replay.HandReplay.to_dict`) in input order. Input
is cut into hands by :func:`simulate.phh.parse.iter_sections` one line at a time,
so memory stays bounded whatever the input's size: in this process hands are replayed
:data:`LOCAL_CHUNK` at a time, and with workers at most ``4 * workers`` chunks of
:data:`CHUNK` hands are in flight. Within a chunk, the plain hands are settled together in
one compiled call (:mod:`simulate.phh.many`).

:class:`Totals` adds hands up per player name (``players`` in the file, else
``p1``, ``p2``, ...): hands played, chips won (``net``), all-in-adjusted chips
won (in a hand where the money went in before the river with every live hand
known, the seat's all-in EV replaces its result) and both per 100 big blinds.
Hands whose result for a seat is unknown (hidden cards at a showdown) count in
``hands`` but add nothing to the sums (``unknown_net`` counts them).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from simulate.phh.parse import PHHError, iter_hand_files, iter_sections

__all__ = ["CHUNK", "PlayerTotals", "Totals", "analyze", "replay_item"]

#: Hands per task sent to a worker process.
CHUNK = 500
#: Hands replayed together in this process (one compiled call for the plain ones, see
#: :mod:`simulate.phh.many`): small, so that memory does not grow with the input.
LOCAL_CHUNK = 64

Item = tuple[str, int, "bytes | str"]
#: A function of one hand's document (see :func:`analyze`'s ``render``).
Render = Callable[[dict[str, Any]], Any]


def replay_item(src: str, line: int, data: bytes | str) -> dict[str, Any]:
    """Parse and replay one hand's text (``str`` = an error already found while reading);
    returns the hand's JSON document. Never raises for a bad hand."""
    from simulate.phh.parse import _hand_from_bytes
    from simulate.phh.replay import replay

    hand = _hand_from_bytes(src, line, PHHError(data) if isinstance(data, str) else data)
    d = replay(hand, src).to_dict()
    d["readable"] = not isinstance(hand, PHHError)
    return d


def _replay_chunk(items: list[Item] | _Range, render: Render | None = None,
                  threads: int = 1) -> list[Any]:
    """The documents of a chunk of hands (:func:`simulate.phh.many.replay_items`: the plain
    ones settled in one compiled call, the rest by :func:`replay_item`), each passed
    through ``render`` when one is given. A :class:`_Range` is read here first.
    ``threads``: the batch runner's task form (the replay is serial)."""
    from simulate.phh.many import replay_items

    docs = replay_items(_range_items(items) if isinstance(items, _Range) else items)
    return docs if render is None else [render(d) for d in docs]


def _items(paths: Iterable[str | Path]) -> Iterator[Item]:
    for top in paths:
        for f in iter_hand_files(top):
            yield from _file_items(f)


def _file_items(f: Path) -> Iterator[Item]:
    try:
        fh = open(f, "rb")
    except OSError as exc:
        yield str(f), 1, f"cannot read file: {exc.strerror or exc}"
        return
    with fh:
        try:
            for src, line, data in iter_sections(fh, str(f)):
                yield src, line, (str(data) if isinstance(data, PHHError) else data)
        except OSError as exc:
            yield str(f), 1, f"cannot read file: {exc.strerror or exc}"


class _Range(NamedTuple):
    """Bytes ``start:end`` of the file ``path``, whose first line is line ``line``: whole
    sections, cut where :func:`simulate.phh.parse.iter_sections` starts one."""

    path: str
    start: int
    end: int
    line: int


#: Files at least this large are sent to worker processes as byte ranges (:class:`_Range`,
#: the workers read and cut them) rather than as hands read by the main process.
RANGE_MIN_BYTES = 1 << 20
_HEADER_START = re.compile(rb"^[ \t]*\[", re.M)
_BLOCK = 1 << 20


def _range_items(r: _Range) -> list[Item]:
    """The hands of a :class:`_Range`, as :func:`_file_items` reads them."""
    import io

    try:
        with open(r.path, "rb") as fh:
            fh.seek(r.start)
            data = fh.read(r.end - r.start)
    except OSError as exc:
        return [(r.path, r.line, f"cannot read file: {exc.strerror or exc}")]
    shift = r.line - 1
    return [(src, line + shift, str(d) if isinstance(d, PHHError) else d)
            for src, line, d in iter_sections(io.BytesIO(data), r.path)]


def _file_ranges(f: Path, chunk: int) -> Iterator[_Range | list[Item]]:
    """``f`` cut into ranges of ``chunk`` sections (the first range also holds whatever
    comes before the first header). A cut is made only at a line that
    :func:`simulate.phh.parse.iter_sections` reads as a header (a line of at most its
    64 KiB piece that its header pattern matches), so each range's hands are the ones a
    reading of the whole file gives; a header missed here only makes a range longer."""
    from simulate.phh.parse import _HEADER_RE

    try:
        fh = open(f, "rb")
    except OSError as exc:
        yield [(str(f), 1, f"cannot read file: {exc.strerror or exc}")]
        return
    path = str(f)
    start, start_line, seen = 0, 1, 0
    base, line = 0, 1  # file offset of buf[0], its line number
    buf = b""
    mid = False  # buf[0] is inside a line (the start of a long line was dropped)
    with fh:
        while True:
            try:
                block = fh.read(_BLOCK)
            except OSError as exc:
                yield [(path, 1, f"cannot read file: {exc.strerror or exc}")]
                return
            buf += block
            last = buf.rfind(b"\n") + 1 if block else len(buf)  # whole lines only
            at = 0
            for m in _HEADER_START.finditer(buf, 0, last):
                p = m.start()
                if p == 0 and mid:
                    continue
                e = buf.find(b"\n", p, p + 65536)
                piece = buf[p:e + 1] if e >= 0 else buf[p:min(last, p + 65536)]
                if _HEADER_RE.match(piece) is None:
                    continue
                line += buf.count(b"\n", at, p)
                at = p
                seen += 1
                if seen > chunk:
                    yield _Range(path, start, base + p, start_line)
                    start, start_line, seen = base + p, line, 1
            line += buf.count(b"\n", at, last)
            base += last
            buf = buf[last:]
            if last:
                mid = False
            if not block:
                break
            if len(buf) > 1 << 17:  # inside a long line: no header can start before its end
                base += len(buf) - (1 << 16)
                buf = buf[-(1 << 16):]
                mid = True
    if base > start or start == 0:  # (an empty file is one empty hand, as read whole)
        yield _Range(path, start, base, start_line)


def _tasks(paths: Iterable[str | Path], chunk: int) -> Iterator[_Range | list[Item]]:
    """Work for worker processes: large files as :class:`_Range` s, other files' hands read
    here, ``chunk`` hands a task."""
    import os

    pending: list[Item] = []
    for top in paths:
        for f in iter_hand_files(top):
            try:
                big = os.path.getsize(f) >= RANGE_MIN_BYTES
            except OSError:
                big = False
            if big:
                if pending:
                    yield pending
                    pending = []
                yield from _file_ranges(f, chunk)
                continue
            for it in _file_items(f):
                pending.append(it)
                if len(pending) >= chunk:
                    yield pending
                    pending = []
    if pending:
        yield pending


def analyze(paths: str | Path | Iterable[str | Path], *, workers: int = 1,
            chunk: int = CHUNK, scheduler: str | None = None,
            render: Render | None = None) -> Iterator[Any]:
    """Replay every hand under ``paths`` (files or folders), yielding each hand's document
    (:meth:`HandReplay.to_dict` plus ``readable``: False when the hand's text could not
    be read as PHH at all) in input order. ``workers`` > 1 replays on that many processes
    (spawned, one chunk of ``chunk`` hands per task, a bounded number of tasks in flight);
    ``scheduler``
    (``local``, ``local:N`` or ``tcp://HOST:PORT``) sends the chunks to a Dask cluster
    instead, through the batch runner's Dask backend (:mod:`simulate.batch.runner`; needs
    ``pokerjit[distributed]``). ``render``: a module-level function (it travels to the
    workers) applied to each document where it was made, on the worker; ``analyze`` then
    yields what it returns (``pokerjit hand`` formats its output there, so that the main
    process only writes). Raises FileNotFoundError (before yielding anything) for a path
    that does not exist, ValueError for bad options."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = list(paths)
    for p in paths:
        if not Path(p).exists():
            raise FileNotFoundError(f"no such file or folder: {p}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        from simulate.batch.runner import _chunked, parse_scheduler

        parse_scheduler(scheduler)
        return _dask(_chunked(_items(paths), chunk), scheduler, workers, render)
    return _analyze(paths, workers, chunk, render)


def _analyze(paths: list[str | Path], workers: int, chunk: int, render: Render | None,
             ) -> Iterator[Any]:
    if workers == 1:
        from simulate.batch.runner import _chunked
        from simulate.phh.many import iter_replay_items

        for c in _chunked(_items(paths), min(chunk, LOCAL_CHUNK)):
            if render is None:
                yield from iter_replay_items(c)
            else:
                for d in iter_replay_items(c):
                    yield render(d)
        return
    yield from _pool(_tasks(paths, chunk), workers, render)


def _pool(chunks: Iterator[list[Item] | _Range], workers: int, render: Render | None,
          ) -> Iterator[Any]:
    """Chunks replayed on ``workers`` processes, documents in input order. As the batch
    runner's worker processes (:mod:`simulate.batch.runner`): the compiled replay is loaded
    here once (:func:`warm`, serial kernels only) and the workers are forked with it, so
    none of them imports or loads anything; when Numba's thread pool has already started
    in this process (forking it is unsafe) they are spawned and warm themselves."""
    import multiprocessing as mp
    from concurrent.futures import Future, ProcessPoolExecutor

    from simulate.batch.runner import _numba_threads_started, _worker_init

    fork = not _numba_threads_started()
    if fork:
        warm()
    window: deque[tuple[list[Item] | _Range, Future[list[Any]]]] = deque()
    with ProcessPoolExecutor(max_workers=workers,
                             mp_context=mp.get_context("fork" if fork else "spawn"),
                             initializer=_worker_init if fork else warm,
                             initargs=(-1,) if fork else ()) as ex:
        for c in chunks:
            window.append((c, ex.submit(_replay_chunk, c, render)))
            while len(window) > 4 * workers:
                yield from _collect(*window.popleft(), render)
        while window:
            yield from _collect(*window.popleft(), render)


def _collect(items: list[Item] | _Range, fut: Any, render: Render | None = None,
             result: Any = None) -> list[Any]:
    """A chunk's documents (``result(fut)``, by default ``fut.result()``); a worker that
    died makes each of its hands an error."""
    try:
        return fut.result() if result is None else result(fut)
    except Exception as exc:  # noqa: BLE001 - a lost worker is an error per hand, not a crash
        from simulate.phh.replay import HandReplay

        if isinstance(items, _Range):
            items = _range_items(items)
        why = f"internal error: worker process failed ({type(exc).__name__}: {exc})"
        docs = [dict(HandReplay(source=src, error=why.splitlines()[0]).to_dict(),
                     readable=True) for src, _, _ in items]
        return docs if render is None else [render(d) for d in docs]


def _dask(chunks: Iterator[list[Item]], scheduler: str, workers: int, render: Render | None,
          ) -> Iterator[Any]:
    """Chunks as Dask tasks on the batch runner's cluster/client, results in input order."""
    from simulate.batch.runner import _Dask, _dask_task, _Whole

    backend = _Dask(scheduler, workers, {})
    try:
        client = backend.client
        client.run(warm)
        window: deque[Any] = deque()
        for c in chunks:
            # a chunk and its documents travel as one pickle each (see _Whole)
            fut = client.submit(_dask_task, _replay_chunk, _Whole(c), (render,), 1,
                                pure=False)
            window.append((c, fut))
            while len(window) > 4 * backend.workers:
                yield from _collect(*window.popleft(), render, backend.result)
        while window:
            yield from _collect(*window.popleft(), render, backend.result)
    finally:
        backend.close()


def warm() -> None:
    """Load the replay's modules and compiled kernels (from Numba's cache): one plain hand
    through :func:`simulate.phh.many.replay_items`, one through the per-hand path."""
    from simulate.phh.many import replay_items

    text = (b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            b"starting_stacks = [200, 200]\nactions = ['d dh p1 AhKh', 'd dh p2 7c7d', "
            b"'p2 cbr 6', 'p1 cc', 'd db Ks8h2c', 'p1 cc', 'p2 cc', 'd db 4d', 'p1 cc', "
            b"'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'p1 sm AhKh', 'p2 sm 7c7d']\n")
    replay_items([("warm-up", 1, text), ("warm-up", 1, text.replace(b"sm AhKh", b"sm AhKh#"))])


def _dec(x: Any) -> Decimal:
    """An amount of a document (int or float) as the Decimal it was written from; ints
    remembered (most results repeat)."""
    if type(x) is int:
        got = _INTS.get(x)
        if got is None:
            if len(_INTS) >= 65536:
                _INTS.clear()
            got = _INTS[x] = Decimal(x)
        return got
    return Decimal(x) if isinstance(x, int) else Decimal(str(x))


_INTS: dict[int, Decimal] = {}


_PER_BB: dict[tuple[Any, ...], Decimal] = {}


def _per_bb(net: Any, n: Decimal, bb: Any, bbd: Decimal) -> Decimal:
    """``n / bbd`` (a seat's result in big blinds), remembered by the raw values: most
    results of a collection repeat."""
    key = (type(net), net, type(bb), bb)
    got = _PER_BB.get(key)
    if got is None:
        if len(_PER_BB) >= 65536:
            _PER_BB.clear()
        got = _PER_BB[key] = n / bbd
    return got


def totals_input(d: dict[str, Any]) -> tuple[Any, ...]:
    """What :meth:`Totals.add` reads of a hand's document, as a small tuple (cheap to send
    from a worker): ``(False, readable, incomplete)`` for a hand with an error, else ``(True,
    validated, outcome unknown, matches the recorded stacks (None: nothing to compare),
    big blind, each seat's all-in EV or None, players, nets)``. The players tuple is shared
    by the hands that seat the same players (a chunk sends it once)."""
    if d.get("error"):
        return (False, bool(d.get("readable", True)), not d.get("complete", True))
    match = None
    rec, fin = d.get("recorded_finishing_stacks"), d.get("finishing_stacks")
    if rec is not None and fin is not None:
        pairs = [(a, b) for a, b in zip(fin, rec, strict=False) if a is not None and b is not None]
        if pairs:
            match = all(_dec(a) == _dec(b) for a, b in pairs)
    ev = d.get("allin_ev")
    names = tuple(d["players"])
    shared = _NAMES.get(names)
    if shared is None:
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        shared = _NAMES[names] = names
    nets = d["net"]
    if len(nets) != len(shared):
        raise ValueError("a document's players and net differ in length")
    return (True, bool(d.get("validated")), not d.get("outcome_known", True), match,
            d.get("big_blind"), None if ev is None else [e["ev"] for e in ev], shared,
            tuple(nets))


_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


@dataclass
class PlayerTotals:
    """One player's sums; chips in the files' units, big blinds as ``net / big_blind``."""

    player: str
    hands: int = 0
    unknown_net: int = 0
    net: Decimal = Decimal(0)
    allin_adjusted_net: Decimal = Decimal(0)
    net_bb: Decimal = Decimal(0)
    adjusted_bb: Decimal = Decimal(0)
    bb_hands: int = 0

    def to_dict(self) -> dict[str, Any]:
        def num(d: Decimal) -> int | float:
            return int(d) if d == d.to_integral_value() else float(d)

        per100 = (lambda x: float(100 * x / self.bb_hands)) if self.bb_hands else (lambda x: None)
        return {"player": self.player, "hands": self.hands, "net": num(self.net),
                "allin_adjusted_net": num(self.allin_adjusted_net),
                "bb_per_100": per100(self.net_bb),
                "allin_adjusted_bb_per_100": per100(self.adjusted_bb),
                "unknown_net": self.unknown_net}


@dataclass
class Totals:
    """Per-player totals over the hands added (see the module docstring)."""

    players: dict[str, PlayerTotals] = field(default_factory=dict)
    hands: int = 0
    errors: int = 0
    unreadable: int = 0
    incomplete: int = 0  # of the errors: histories that stop before the hand is over
    validated: int = 0
    outcome_unknown: int = 0
    matched: int = 0
    checked: int = 0

    def add(self, d: dict[str, Any]) -> list[tuple[str, Decimal, Decimal]] | None:
        """Count one hand's document; returns ``[(player, net, adjusted net)]`` for the
        seats whose result is known (None for a hand with an error)."""
        return self.add_input(totals_input(d))

    def add_input(self, t: tuple[Any, ...]) -> list[tuple[str, Decimal, Decimal]] | None:
        """:meth:`add` of a hand's :func:`totals_input` (made where the document was)."""
        self.hands += 1
        if not t[0]:
            self.errors += 1
            if not t[1]:
                self.unreadable += 1
            self.incomplete += len(t) > 2 and t[2]
            return None
        _, validated, unknown, match, bb, evs, names, nets = t
        self.validated += validated
        self.outcome_unknown += unknown
        if match is not None:
            self.checked += 1
            self.matched += match
        bbd = _dec(bb) if bb else None
        out = []
        players = self.players
        for s, name in enumerate(names):
            net = nets[s]
            pt = players.get(name)
            if pt is None:
                pt = players[name] = PlayerTotals(name)
            pt.hands += 1
            if net is None:
                pt.unknown_net += 1
                continue
            n = _dec(net)
            pt.net += n
            if evs is None:
                a = n
                pt.allin_adjusted_net += n
                if bbd:
                    pt.bb_hands += 1
                    q = _per_bb(net, n, bb, bbd)
                    pt.net_bb += q
                    pt.adjusted_bb += q
            else:
                a = _dec(evs[s])
                pt.allin_adjusted_net += a
                if bbd:
                    pt.bb_hands += 1
                    pt.net_bb += _per_bb(net, n, bb, bbd)
                    pt.adjusted_bb += a / bbd
            out.append((name, n, a))
        return out

    def summary(self) -> dict[str, Any]:
        """The ``summary`` of ``pokerjit hand --json``: counts over the hands added."""
        return {"hands": self.hands, "replayed": self.hands - self.errors, "errors": self.errors,
                "incomplete": self.incomplete,
                "validated": self.validated, "outcome_unknown": self.outcome_unknown,
                "recorded_checked": self.checked, "recorded_matched": self.matched}

    def to_list(self) -> list[dict[str, Any]]:
        """The contract's ``totals``: one entry per player, most hands first."""
        ps = sorted(self.players.values(), key=lambda t: (-t.hands, t.player))
        return [t.to_dict() for t in ps]
