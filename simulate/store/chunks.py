"""A chunk of a file's hands made into table rows, in this process or on a worker process.

The importer (:mod:`simulate.store.importer`) cuts each file into :class:`Chunk` s of a few
dozen hands (their text, or a site hand's record; for a large PHH file on workers, a byte
range the worker cuts itself, :func:`span_items`) and hands them to the one pool of
pokerjit (:func:`simulate.run.executor`: in this process, or on ``workers`` processes).
:func:`prepare_chunk` replays the chunk (:func:`simulate.replay.fast_replay.iter_replay_read`:
the plain PHH hands settled in one compiled call, their fields kept), counts the statistics
and builds the rows: the settled hands are walked together by the compiled counting walk
(:func:`simulate.store.plain_walk.walk_plain`, :meth:`simulate.store.rows.Batch.add_walked`),
each without reading it again; every other hand is read in full
(:meth:`~simulate.store.rows.Batch.add_hand`, the Python walk). It returns a
:class:`ChunkRows`: each hand's outcome and the chunk's columns as numpy arrays (cheap to
send back). :class:`Pending` gathers chunks' rows until they are stored in one
transaction, leaving out the hands seen twice.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

__all__ = ["ROW_TABLES", "Chunk", "ChunkRows", "Pending", "prepare_chunk", "span_items",
           "warm_import"]

#: The tables a hand's rows go to.
ROW_TABLES = ("hands", "hand_players", "actions")


class Chunk(NamedTuple):
    """Consecutive hands of the file ``path``: ``items`` ``(source, line, data, offset,
    offset_line)`` with ``data`` a PHH hand's text, a site hand's record or an error
    message (:func:`span_items`), or, with ``span`` ``(start, end, line)``, the hands of
    those bytes of a PHH file, cut where the chunk is prepared; ``last``: the file ends
    with this chunk."""

    path: str
    items: list[tuple[str, int, Any, int, int]]
    last: bool
    span: tuple[int, int, int] | None = None


def span_items(path: str, start: int, end: int, line: int,
               ) -> Iterator[tuple[str, int, Any, int, int]]:
    """The :attr:`Chunk.items` of bytes ``start:end`` of ``path`` (``line``: the line number
    of byte ``start``), by :func:`simulate.store.reading.file_hands` (a PHH hand's text
    left unread). Raises OSError when the file cannot be read."""
    from simulate.notation.phh_read import PHHError
    from simulate.store.reading import file_hands

    for fh in file_hands(path, start, end, line, parse=False):
        # PHH text (read where the chunk is prepared), a site hand's record, or an error
        data = (fh.data if fh.hand is None else str(fh.hand)
                if isinstance(fh.hand, PHHError) else fh.hand)
        yield fh.source, fh.line, data, fh.offset, fh.offset_line


def _span_chunk(chunk: Chunk) -> Chunk:
    """``chunk`` with its span cut into items (a file that cannot be read: one error)."""
    if chunk.span is None:
        return chunk
    start, end, line = chunk.span
    try:
        items = list(span_items(chunk.path, start, end, line))
    except OSError as exc:
        items = [(chunk.path, line, f"cannot read file: {exc.strerror or exc}", start, line)]
    return Chunk(chunk.path, items, chunk.last)


@dataclass
class ChunkRows:
    """What :func:`prepare_chunk` makes of a chunk: per item ``("ok", (site, hand_id))`` or
    ``("error", message)``; ``tables``: the rows of the ``ok`` hands, in their order, as
    columns (``ord``: the hand's place among them)."""

    outcomes: list[tuple[str, Any]]
    tables: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    #: For a chunk given as a span: each item's ``(source, line, offset, offset_line)``.
    items: list[tuple[str, int, int, int]] | None = None

    def items_read(self, chunk: Chunk) -> list[tuple[str, int, int, int]]:
        """Each item's ``(source, line, offset, offset_line)``, in order."""
        return self.items if self.items is not None else _places(chunk.items)


def _places(items: list[tuple[str, int, Any, int, int]]) -> list[tuple[str, int, int, int]]:
    """Each item's ``(source, line, offset, offset_line)``: where it is, without its data."""
    return [(it[0], it[1], it[3], it[4]) for it in items]


def prepare_chunk(chunk: Chunk, threads: int | None = 1) -> ChunkRows:
    """Read, replay, count and make rows of every hand of ``chunk`` (a module-level
    function: it runs on the workers; ``threads``: the executor's task form, unused)."""
    from simulate.notation.phh_read import PHHError, hand_from_bytes
    from simulate.replay.fast_replay import iter_replay_read
    from simulate.store.plain_walk import walk_plain
    from simulate.store.rows import Batch, hand_key

    cut = _span_chunk(chunk)
    items = cut.items
    done = list(iter_replay_read([(it[0], it[1], it[2]) for it in items
                                  if not isinstance(it[2], str)]))
    settled = [(doc, fields) for doc, fields in done if fields is not None]
    walked = None
    _settled_seen[0] += len(settled)
    if settled and (_settled_seen[0] >= WALK_MIN or _walk_ready()):
        try:
            walked = walk_plain([f for _, f in settled], [d["winnings"] for d, _ in settled])
        except Exception:  # noqa: BLE001 - each hand is then walked on its own, errors its own
            walked = None
    batch = Batch()
    outcomes: list[tuple[str, Any]] = []
    k = j = 0
    for source, line, data, offset, _ in items:
        if isinstance(data, str):
            outcomes.append(("error", data))
            continue
        doc, fields = done[k]
        k += 1
        try:
            key = None
            if fields is not None:  # settled by the compiled path: not read again
                j += 1
                key = (batch.add_walked(fields, doc, source, chunk.path, offset, walked, j - 1)
                       if walked is not None and walked.walked(j - 1) else
                       batch.add_plain(fields, doc, source, chunk.path, offset))
            if key is None:
                hand = hand_from_bytes(source, line, data) if isinstance(data, bytes) else data
                if isinstance(hand, PHHError):
                    outcomes.append(("error", str(hand)))
                    continue
                if doc.get("error"):
                    outcomes.append(("error", doc["error"]))
                    continue
                key = hand_key(hand, doc)
                batch.add_hand(hand, doc, key, source, chunk.path, offset)
        except Exception as exc:  # noqa: BLE001 - one hand's fault never stops the import
            outcomes.append(("error", f"internal error: {type(exc).__name__}: {exc}"
                             .splitlines()[0]))
            continue
        outcomes.append(("ok", key))
    return ChunkRows(outcomes, {t: batch.arrays(t) for t in ROW_TABLES},
                     None if chunk.span is None else _places(items))


#: Settled hands a process walks in Python before it compiles the compiled walk (when its
#: disk cache lacks it): its compile (about 4 s on the 2-core VM) pays off only over tens
#: of thousands of hands. ``pokerjit warmup`` and the import's workers compile it at once.
WALK_MIN = 20_000
_settled_seen = [0]


def _walk_ready() -> bool:
    from evaluator._first_run import ready
    from simulate._kernels.walk import walk_many

    return ready(walk_many)


def warm_import(kinds: tuple[str, ...] = ("import",)) -> None:
    """What a worker of ``pokerjit import`` runs per chunk, on one thread (a process may
    fork after it): the replay's warm-up (:func:`simulate.replay.worker_warmup.warm_hands`)
    and its sample hand through the compiled counting walk
    (:func:`simulate.store.plain_walk.walk_plain`). ``kinds`` (the executor's warm kinds)
    is not read."""
    from simulate.replay.worker_warmup import SAMPLE_HAND, warm_hands
    from simulate.store.plain_walk import walk_plain

    warm_hands()
    actions = SAMPLE_HAND.decode().split("actions = ", 1)[1].strip()
    walk_plain([{"variant": "NT", "starting_stacks": (200, 200), "blinds_or_straddles": (1, 2),
                 "antes": (0, 0), "actions": actions}], [[0, 12]])


def failed_chunk(chunk: Chunk, exc: BaseException) -> ChunkRows:
    """The result of a chunk whose worker failed: each of its hands an error."""
    why = f"internal error: worker process failed ({type(exc).__name__}: {exc})"
    cut = _span_chunk(chunk)
    return ChunkRows([("error", why.splitlines()[0])] * len(cut.items), {},
                     None if chunk.span is None else _places(cut.items))


class Pending:
    """Chunks' rows waiting to be stored: the hands kept (a hand seen before in them is
    left out), and their rows gathered into one set of columns per table."""

    def __init__(self) -> None:
        self.parts: list[tuple[ChunkRows, np.ndarray]] = []
        self.keys: set[tuple[str, str]] = set()
        self.hands = 0
        self.errors: list[tuple[Any, ...]] = []
        self.files: list[str] = []  # the file of each hand kept, in order

    def __len__(self) -> int:
        return self.hands

    def add(self, path: str, rows: ChunkRows) -> int:
        """Keep ``rows``' hands not seen in this batch yet; returns how many were seen."""
        oks = [key for kind, key in rows.outcomes if kind == "ok"]
        keep = np.ones(len(oks), dtype=bool)
        seen = 0
        for i, key in enumerate(oks):
            if key in self.keys:
                keep[i] = False
                seen += 1
            else:
                self.keys.add(key)
        if oks:
            self.parts.append((rows, keep))
            kept = int(keep.sum())
            self.hands += kept
            self.files += [path] * kept
        return seen

    def table(self, name: str) -> dict[str, np.ndarray]:
        """One table's columns over the hands kept, ``ord`` renumbered 0, 1, ... in order."""
        cols: dict[str, list[np.ndarray]] = {}
        base = 0
        for rows, keep in self.parts:
            t = rows.tables[name]
            ords = np.asarray(t["ord"], dtype=np.int64)
            mask = keep[ords]
            new_ord = np.cumsum(keep) - 1 + base
            base += int(keep.sum())
            for k, v in t.items():
                cols.setdefault(k, []).append(new_ord[ords][mask] if k == "ord" else v[mask])
        out = {}
        for k, parts in cols.items():
            masked = any(isinstance(p, np.ma.MaskedArray) for p in parts)
            out[k] = np.ma.concatenate(parts) if masked else np.concatenate(parts)
        return out
