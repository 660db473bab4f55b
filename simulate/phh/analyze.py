"""Hand histories at scale: stream hands from files, folders and ``.phhs`` collections,
replay them (in this process or on worker processes, in fixed chunks), and keep
per-player totals.

:func:`analyze` yields one JSON-ready dict per hand (the :class:`HandReplay`
document, see :meth:`simulate.phh.replay.HandReplay.to_dict`) in input order. Input
is cut into hands by :func:`simulate.phh.parse.iter_sections` one line at a time,
so memory stays bounded whatever the input's size: with workers, at most
``4 * workers`` chunks of :data:`CHUNK` hands are in flight.

:class:`Totals` adds hands up per player name (``players`` in the file, else
``p1``, ``p2``, ...): hands played, chips won (``net``), all-in-adjusted chips
won (in a hand where the money went in before the river with every live hand
known, the seat's all-in EV replaces its result) and both per 100 big blinds.
Hands whose result for a seat is unknown (hidden cards at a showdown) count in
``hands`` but add nothing to the sums (``unknown_net`` counts them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from simulate.phh.parse import PHHError, iter_hand_files, iter_sections

__all__ = ["CHUNK", "PlayerTotals", "Totals", "analyze", "replay_item"]

#: Hands per task sent to a worker process.
CHUNK = 500
#: Hands replayed together in this process (one compiled call for the plain ones, see
#: :mod:`simulate.phh.many`): small, so that memory does not grow with the input.
LOCAL_CHUNK = 64

Item = tuple[str, int, "bytes | str"]


def replay_item(src: str, line: int, data: bytes | str) -> dict[str, Any]:
    """Parse and replay one hand's text (``str`` = an error already found while reading);
    returns the hand's JSON document. Never raises for a bad hand."""
    from simulate.phh.parse import _hand_from_bytes
    from simulate.phh.replay import replay

    hand = _hand_from_bytes(src, line, PHHError(data) if isinstance(data, str) else data)
    d = replay(hand, src).to_dict()
    d["readable"] = not isinstance(hand, PHHError)
    return d


def _replay_chunk(items: list[Item]) -> list[dict[str, Any]]:
    """The documents of a chunk of hands (:func:`simulate.phh.many.replay_items`: the plain
    ones settled in one compiled call, the rest by :func:`replay_item`)."""
    from simulate.phh.many import replay_items

    return replay_items(items)


def _items(paths: Iterable[str | Path]) -> Iterator[Item]:
    for top in paths:
        for f in iter_hand_files(top):
            try:
                fh = open(f, "rb")
            except OSError as exc:
                yield str(f), 1, f"cannot read file: {exc.strerror or exc}"
                continue
            with fh:
                try:
                    for src, line, data in iter_sections(fh, str(f)):
                        yield src, line, (str(data) if isinstance(data, PHHError) else data)
                except OSError as exc:
                    yield str(f), 1, f"cannot read file: {exc.strerror or exc}"


def _chunks(items: Iterator[Item], size: int) -> Iterator[list[Item]]:
    chunk: list[Item] = []
    for it in items:
        chunk.append(it)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def analyze(paths: str | Path | Iterable[str | Path], *, workers: int = 1,
            chunk: int = CHUNK, scheduler: str | None = None) -> Iterator[dict[str, Any]]:
    """Replay every hand under ``paths`` (files or folders), yielding each hand's document
    (:meth:`HandReplay.to_dict` plus ``readable``: False when the hand's text could not
    be read as PHH at all) in input order. ``workers`` > 1 replays on that many processes
    (spawned, one chunk of ``chunk`` hands per task, a bounded number of tasks in flight);
    ``scheduler``
    (``local``, ``local:N`` or ``tcp://HOST:PORT``) sends the chunks to a Dask cluster
    instead, through the batch runner's Dask backend (:mod:`simulate.batch.runner`; needs
    ``pokerjit[distributed]``). Raises FileNotFoundError (before yielding anything) for a
    path that does not exist, ValueError for bad options."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    paths = list(paths)
    for p in paths:
        if not Path(p).exists():
            raise FileNotFoundError(f"no such file or folder: {p}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    if scheduler is not None:
        from simulate.batch.runner import parse_scheduler

        parse_scheduler(scheduler)
        return _dask(_chunks(_items(paths), chunk), scheduler, workers)
    return _analyze(paths, workers, chunk)


def _analyze(paths: list[str | Path], workers: int, chunk: int) -> Iterator[dict[str, Any]]:
    if workers == 1:
        from simulate.phh.many import iter_replay_items

        for c in _chunks(_items(paths), min(chunk, LOCAL_CHUNK)):
            yield from iter_replay_items(c)
        return
    yield from _pool(_chunks(_items(paths), chunk), workers)


def _pool(chunks: Iterator[list[Item]], workers: int) -> Iterator[dict[str, Any]]:
    import multiprocessing as mp
    from concurrent.futures import Future, ProcessPoolExecutor

    window: deque[tuple[list[Item], Future[list[dict[str, Any]]]]] = deque()
    with ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                             initializer=_warm) as ex:
        for c in chunks:
            window.append((c, ex.submit(_replay_chunk, c)))
            while len(window) > 4 * workers:
                yield from _collect(*window.popleft())
        while window:
            yield from _collect(*window.popleft())


def _collect(items: list[Item], fut: Any) -> list[dict[str, Any]]:
    """A chunk's documents; a worker that died makes each of its hands an error."""
    try:
        return fut.result()
    except Exception as exc:  # noqa: BLE001 - a lost worker is an error per hand, not a crash
        from simulate.phh.replay import HandReplay

        why = f"internal error: worker process failed ({type(exc).__name__}: {exc})"
        return [dict(HandReplay(source=src, error=why.splitlines()[0]).to_dict(), readable=True)
                for src, _, _ in items]


def _dask(chunks: Iterator[list[Item]], scheduler: str, workers: int,
          ) -> Iterator[dict[str, Any]]:
    """Chunks as Dask tasks on the batch runner's cluster/client, results in input order."""
    from simulate.batch.runner import _Dask

    backend = _Dask(scheduler, workers, {})
    try:
        client = backend.client
        client.run(_warm)
        window: deque[Any] = deque()
        for c in chunks:
            window.append((c, client.submit(_replay_chunk, c, pure=False)))
            while len(window) > 4 * backend.workers:
                yield from _collect(*window.popleft())
        while window:
            yield from _collect(*window.popleft())
    finally:
        backend.close()


def _warm() -> None:
    """Load the replay's modules once per worker (the kernels come from Numba's cache)."""
    import simulate.phh.replay  # noqa: F401


def _dec(x: Any) -> Decimal:
    return Decimal(x) if isinstance(x, int) else Decimal(str(x))


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
    validated: int = 0
    outcome_unknown: int = 0
    matched: int = 0
    checked: int = 0

    def add(self, d: dict[str, Any]) -> list[tuple[str, Decimal, Decimal]] | None:
        """Count one hand's document; returns ``[(player, net, adjusted net)]`` for the
        seats whose result is known (None for a hand with an error)."""
        self.hands += 1
        if d.get("error"):
            self.errors += 1
            if not d.get("readable", True):
                self.unreadable += 1
            return None
        self.validated += bool(d.get("validated"))
        self.outcome_unknown += not d.get("outcome_known", True)
        rec, fin = d.get("recorded_finishing_stacks"), d.get("finishing_stacks")
        if rec is not None and fin is not None:
            pairs = [(a, b) for a, b in zip(fin, rec, strict=False)
                     if a is not None and b is not None]
            if pairs:
                self.checked += 1
                self.matched += all(_dec(a) == _dec(b) for a, b in pairs)
        bb = d.get("big_blind")
        bbd = _dec(bb) if bb else None
        ev = d.get("allin_ev")
        out = []
        for s, name in enumerate(d["players"]):
            t = self.players.get(name)
            if t is None:
                t = self.players[name] = PlayerTotals(name)
            t.hands += 1
            net = d["net"][s]
            if net is None:
                t.unknown_net += 1
                continue
            n = _dec(net)
            a = _dec(ev[s]["ev"]) if ev is not None else n
            t.net += n
            t.allin_adjusted_net += a
            if bbd:
                t.bb_hands += 1
                t.net_bb += n / bbd
                t.adjusted_bb += a / bbd
            out.append((name, n, a))
        return out

    def to_list(self) -> list[dict[str, Any]]:
        """The contract's ``totals``: one entry per player, most hands first."""
        ps = sorted(self.players.values(), key=lambda t: (-t.hands, t.player))
        return [t.to_dict() for t in ps]
