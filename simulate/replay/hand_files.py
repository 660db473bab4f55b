"""Hand histories at scale: stream hands from files, folders and ``.phhs`` collections,
replay them (in this process or on worker processes, in fixed chunks), and keep
per-player totals.

:func:`analyze` yields one JSON-ready dict per hand (the :class:`HandReplay`
document, see :meth:`simulate.replay.hand_replay.HandReplay.to_dict`) in input order. Input
is cut into hands by :func:`simulate.notation.phh_read.iter_sections` one line at a time,
so memory stays bounded whatever the input's size: in this process hands are replayed
:data:`LOCAL_CHUNK` at a time, and with workers at most ``4 * workers`` chunks of
:data:`CHUNK` hands are in flight. Within a chunk, the plain hands are settled together in
one compiled call (:mod:`simulate.replay.fast_replay`).

:class:`Totals` adds hands up per player name (``players`` in the file, else
``p1``, ``p2``, ...): hands played, chips won (``net``), all-in-adjusted chips
won (in a hand where the money went in before the river with every live hand
known, the seat's all-in EV replaces its result) and both per 100 big blinds.
Hands whose result for a seat is unknown (hidden cards at a showdown) count in
``hands`` but add nothing to the sums (``unknown_net`` counts them).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, NamedTuple

from simulate.notation.phh_read import PHHError, iter_hand_files, iter_sections
from simulate.replay.fast_replay import Item, replay_item

__all__ = ["CHUNK", "STDIN", "PlayerTotals", "Totals", "TotalsInput", "analyze", "replay_item",
           "totals_input"]

#: Hands per task sent to a worker process.
CHUNK = 500
#: Hands replayed together in this process (one compiled call for the plain ones, see
#: :mod:`simulate.replay.fast_replay`): small, so that memory does not grow with the input.
LOCAL_CHUNK = 64
#: The path that means standard input (read only when asked for), and its hands' source.
STDIN = "-"
STDIN_SOURCE = "<stdin>"

#: A function of one hand's document (see :func:`analyze`'s ``render``).
Render = Callable[[dict[str, Any]], Any]
#: Told of each input skipped (:func:`simulate.notation.phh_read.iter_hand_files`): one line.
OnSkip = Callable[[str], None]


def _replay_chunk(items: list[Item] | _Range, render: Render | None = None,
                  threads: int | None = 1) -> list[Any]:
    """The documents of a chunk of hands (:func:`simulate.replay.fast_replay.replay_items`: the
    plain ones settled in one compiled call, the rest by :func:`replay_item`), each passed
    through ``render`` when one is given. A :class:`_Range` is read here first.
    ``threads``: the executor's task form (the replay is serial)."""
    from simulate.replay.fast_replay import replay_items

    docs = replay_items(_range_items(items) if isinstance(items, _Range) else items)
    return docs if render is None else [render(d) for d in docs]


def _replay_chunk_lazily(items: list[Item], render: Render | None = None,
                         threads: int | None = 1) -> Iterator[Any]:
    """:func:`_replay_chunk` in this process: each document made as it is taken
    (:func:`simulate.replay.fast_replay.iter_replay_items`), so that at most one is held at a
    time."""
    from simulate.replay.fast_replay import iter_replay_items

    for d in iter_replay_items(items):
        yield d if render is None else render(d)


class _Inputs:
    """The hand files under the input paths, each real file once (shared ``seen``), in
    order; :data:`STDIN` as itself."""

    def __init__(self, paths: list[str | Path], on_skip: OnSkip | None) -> None:
        self.paths, self.on_skip = paths, on_skip

    def __iter__(self) -> Iterator[Path | str]:
        seen: set[tuple[int, int]] = set()
        stdin_read = False
        for top in self.paths:
            if str(top) == STDIN:
                if stdin_read:
                    if self.on_skip is not None:
                        self.on_skip("skipped -: standard input is read once")
                    continue
                stdin_read = True
                yield STDIN
                continue
            yield from iter_hand_files(top, seen=seen, on_skip=self.on_skip)


def _items(paths: Iterable[str | Path], on_skip: OnSkip | None = None) -> Iterator[Item]:
    for f in _Inputs(list(paths), on_skip):
        yield from _file_items(f)


def _file_items(f: Path | str) -> Iterator[Item]:
    """The hands of one file (:func:`simulate.notation.phh_read.iter_sections`: each hand's text
    bounded, see :data:`simulate.notation.phh_read.MAX_HAND_BYTES`), or of standard input."""
    if str(f) == STDIN:
        yield from _stream_items(sys.stdin.buffer, STDIN_SOURCE)
        return
    try:
        fh = open(f, "rb")
    except OSError as exc:
        yield str(f), 1, f"cannot read file: {exc.strerror or exc}"
        return
    with fh:
        yield from _stream_items(fh, str(f))


def _stream_items(fh: IO[bytes], name: str) -> Iterator[Item]:
    try:
        for src, line, data in iter_sections(fh, name):
            yield src, line, (str(data) if isinstance(data, PHHError) else data)
    except OSError as exc:
        yield name, 1, f"cannot read file: {exc.strerror or exc}"


class _Range(NamedTuple):
    """Bytes ``start:end`` of the file ``path``, whose first line is line ``line``: whole
    sections, cut where :func:`simulate.notation.phh_read.iter_sections` starts one."""

    path: str
    start: int
    end: int
    line: int


#: Files at least this large are sent to worker processes as byte ranges (:class:`_Range`,
#: the workers read and cut them) rather than as hands read by the main process.
RANGE_MIN_BYTES = 1 << 20
_HEADER_START = re.compile(rb"^[ \t]*\[", re.M)
_BLOCK = 1 << 20


class _Slice:
    """Bytes ``start:end`` of an open file as a stream for
    :func:`simulate.notation.phh_read.iter_sections` (``readline(n)`` only): a range is read a
    line piece at a time, never whole, so a hand past the size bound costs no memory."""

    def __init__(self, fh: IO[bytes], start: int, end: int) -> None:
        fh.seek(start)
        self.fh, self.left = fh, end - start

    def readline(self, n: int = -1) -> bytes:
        if self.left <= 0:
            return b""
        b = self.fh.readline(self.left if n < 0 else min(n, self.left))
        self.left -= len(b)
        return b


def _range_items(r: _Range) -> list[Item]:
    """The hands of a :class:`_Range`, as :func:`_file_items` reads them."""
    try:
        with open(r.path, "rb") as fh:
            return [(src, line, str(d) if isinstance(d, PHHError) else d) for src, line, d
                    in iter_sections(_Slice(fh, r.start, r.end), r.path, r.line)]
    except OSError as exc:
        return [(r.path, r.line, f"cannot read file: {exc.strerror or exc}")]


def _file_ranges(f: Path, chunk: int) -> Iterator[_Range | list[Item]]:
    """``f`` cut into ranges of ``chunk`` sections (the first range also holds whatever
    comes before the first header). A cut is made only at a line that
    :func:`simulate.notation.phh_read.iter_sections` reads as a header (a line of at most its
    64 KiB piece that its header pattern matches), so each range's hands are the ones a
    reading of the whole file gives; a header missed here only makes a range longer."""
    from simulate.notation.phh_read import HEADER_RE

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
                if HEADER_RE.match(piece) is None:
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


def _tasks(paths: Iterable[str | Path], chunk: int, on_skip: OnSkip | None = None,
           ) -> Iterator[_Range | list[Item]]:
    """Work for worker processes: large files as :class:`_Range` s, other files' hands read
    here, ``chunk`` hands a task (the hands of consecutive small files pooled)."""
    import itertools
    import os

    from simulate.run import chunked

    def big(f: str | Path) -> bool:
        try:
            return f != STDIN and os.path.getsize(f) >= RANGE_MIN_BYTES
        except OSError:
            return False

    for is_big, files in itertools.groupby(_Inputs(list(paths), on_skip), key=big):
        if is_big:
            for f in files:
                yield from _file_ranges(Path(f), chunk)
        else:
            yield from chunked((it for f in files for it in _file_items(f)), chunk)


def check_inputs(paths: Iterable[str | Path]) -> list[str | Path]:
    """``paths`` as a list, each checked without opening it (a pipe is never waited on):
    FileNotFoundError for one that does not exist, ValueError for one that is neither a
    folder nor a regular file (``/dev/zero``, a pipe) nor :data:`STDIN`."""
    import os
    import stat

    out = [paths] if isinstance(paths, (str, Path)) else list(paths)
    for p in out:
        if str(p) == STDIN:
            continue
        try:
            st = os.stat(p)
        except OSError:
            raise FileNotFoundError(f"no such file or folder: {p}") from None
        if not (stat.S_ISDIR(st.st_mode) or stat.S_ISREG(st.st_mode)):
            raise ValueError(f"{p}: not a regular file (a device or pipe?); hand histories "
                             f"are read from files, folders or {STDIN} (standard input)")
    return out


def analyze(paths: str | Path | Iterable[str | Path], *, workers: int = 1,
            chunk: int = CHUNK, scheduler: str | None = None,
            render: Render | None = None, on_skip: OnSkip | None = None) -> Iterator[Any]:
    """Replay every hand under ``paths`` (files, folders, or ``"-"`` for standard input),
    yielding each hand's document (:meth:`HandReplay.to_dict` plus ``readable``: False
    when the hand's text could not be read as PHH at all) in input order.

    Each real file is read once and each real folder visited once, and only regular files
    are read (:func:`simulate.notation.phh_read.iter_hand_files`); what is skipped (a link to a
    folder already read, a dangling link, a second name of a file) is told to
    ``on_skip(line)``. One hand's text is bounded
    (:data:`simulate.notation.phh_read.MAX_HAND_BYTES`): a longer one is that hand's error,
    and the rest goes on.

    The hands are replayed on the one pool of pokerjit
    (:func:`simulate.run.executor`): in this process (``workers=1``, :data:`LOCAL_CHUNK`
    hands a chunk), on ``workers`` processes (``chunk`` hands a task, files of at least
    :data:`RANGE_MIN_BYTES` sent as byte ranges the workers read) or, with ``scheduler``
    (``local``, ``local:N`` or ``tcp://HOST:PORT``; needs ``pokerjit[distributed]``), on
    Dask. A worker that fails makes each hand of its chunk an error. ``render``: a
    module-level function (it travels to the workers) applied to each document where it
    was made; ``analyze`` then yields what it returns (``pokerjit hand`` formats its
    output there, so that the main process only writes). Raises FileNotFoundError or
    ValueError (before yielding anything) for a path that does not exist or is not a file
    or folder, ValueError for bad options."""
    paths = check_inputs(paths)
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, got {workers!r}")
    from simulate.run import chunked, parse_scheduler

    if scheduler is not None:
        parse_scheduler(scheduler)
        chunks: Iterable[Any] = chunked(_items(paths, on_skip), chunk)
    elif workers == 1:
        chunks = chunked(_items(paths, on_skip), min(chunk, LOCAL_CHUNK))
    else:
        chunks = _tasks(paths, chunk, on_skip)
    return _run(chunks, workers, scheduler, render)


def _run(chunks: Iterable[Any], workers: int, scheduler: str | None, render: Render | None,
         ) -> Iterator[Any]:
    """The documents of ``chunks`` replayed on :func:`simulate.run.executor`, in order.
    Whatever ends the iteration early (Ctrl-C, SIGTERM, the caller closing it) stops the
    workers at once."""
    import functools

    from simulate.replay.worker_warmup import warm_hands
    from simulate.run import executor

    ex = executor(workers, scheduler, warm=warm_hands, warm_kinds=("hand",))
    fn = _replay_chunk_lazily if ex.workers == 1 and scheduler is None else _replay_chunk
    try:
        for _, docs in ex.map_ordered(chunks, (render,), fn,
                                      on_error=functools.partial(_failed, render=render)):
            yield from docs
    except BaseException:
        ex.close(abort=True)
        raise
    ex.close()


def _failed(items: list[Item] | _Range, exc: BaseException, render: Render | None = None,
            ) -> list[Any]:
    """The documents of a chunk whose worker failed: each of its hands an error."""
    from simulate.replay.hand_replay import HandReplay

    if isinstance(items, _Range):
        items = _range_items(items)
    why = f"internal error: worker process failed ({type(exc).__name__}: {exc})"
    docs = [dict(HandReplay(source=src, error=why.splitlines()[0]).to_dict(),
                 readable=True) for src, _, _ in items]
    return docs if render is None else [render(d) for d in docs]


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


class TotalsInput(NamedTuple):
    """What :meth:`Totals.add` reads of a hand's document (:func:`totals_input`), small and
    cheap to send from a worker. A hand with an error (``replayed`` False) fills in only
    ``readable`` and ``incomplete``; the rest keep their defaults."""

    #: False: the hand has an error.
    replayed: bool
    #: False: the hand's text could not be read as PHH.
    readable: bool = True
    #: The history stops before the hand is over (an error).
    incomplete: bool = False
    #: The engine validated the hand.
    validated: bool = False
    #: A showdown's hole cards are unknown: some seats' results are unknown.
    outcome_unknown: bool = False
    #: The result matches the recorded finishing stacks (None: nothing to compare).
    matches_record: bool | None = None
    #: The hand's big blind in its units (None: none).
    big_blind: Any = None
    #: Each seat's all-in EV, or None (no all-in EV).
    allin_evs: list[Any] | None = None
    #: The players, shared by the hands that seat the same ones (a chunk sends it once).
    players: tuple[str, ...] = ()
    #: Each seat's net (None: unknown).
    nets: tuple[Any, ...] = ()


def totals_input(d: dict[str, Any]) -> TotalsInput:
    """The :class:`TotalsInput` of a hand's document ``d``."""
    if d.get("error"):
        return TotalsInput(False, bool(d.get("readable", True)), not d.get("complete", True))
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
    return TotalsInput(True, validated=bool(d.get("validated")),
                       outcome_unknown=not d.get("outcome_known", True), matches_record=match,
                       big_blind=d.get("big_blind"),
                       allin_evs=None if ev is None else [e["ev"] for e in ev],
                       players=shared, nets=tuple(nets))


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

    def add_input(self, t: TotalsInput) -> list[tuple[str, Decimal, Decimal]] | None:
        """:meth:`add` of a hand's :func:`totals_input` (made where the document was)."""
        self.hands += 1
        if not t.replayed:
            self.errors += 1
            if not t.readable:
                self.unreadable += 1
            self.incomplete += t.incomplete
            return None
        match, bb, evs, names, nets = t.matches_record, t.big_blind, t.allin_evs, t.players, t.nets
        self.validated += t.validated
        self.outcome_unknown += t.outcome_unknown
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
