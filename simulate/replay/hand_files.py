"""Hand histories at scale: stream hands from files, folders, ``.phhs`` collections and
site exports, and replay them (in this process or on worker processes, in fixed chunks).

:func:`analyze` yields one JSON-ready dict per hand (the :class:`HandReplay`
document, see :meth:`simulate.replay.hand_replay.HandReplay.to_dict`) in input order. Input
is cut into hands by :func:`simulate.notation.phh_read.iter_sections` a block at a time,
so memory stays bounded whatever the input's size: in this process hands are replayed
:data:`LOCAL_CHUNK` at a time, and with workers at most ``4 * workers`` chunks of
:data:`CHUNK` hands are in flight. Within a chunk, the plain hands are settled together in
one compiled call (:mod:`simulate.replay.fast_replay`).

A file's format is told from its content (:func:`file_kind`): a site export is read by
its reader (:mod:`simulate.notation.sites`), whose hands travel as the
:class:`~simulate.notation.phh_read.HandHistory` records it made. Per-player totals of the
documents are :mod:`simulate.replay.totals`'.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, NamedTuple

from simulate.notation.phh_read import (
    SUFFIXES,
    HandHistory,
    PHHError,
    iter_hand_files,
    iter_sections,
)
from simulate.notation.site_text import PlainSiteHand
from simulate.replay.fast_replay import Item, replay_item

__all__ = ["CHUNK", "NOT_HANDS", "RANGE_MIN_BYTES", "STDIN", "FileSlice", "PhhRange", "analyze",
           "check_inputs", "file_kind", "phh_ranges", "read_hands", "replay_item"]

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


def _replay_chunk(items: list[Item] | PhhRange, render: Render | None = None,
                  threads: int | None = 1) -> list[Any]:
    """The documents of a chunk of hands (:func:`simulate.replay.fast_replay.replay_items`: the
    plain ones settled in one compiled call, the rest by :func:`replay_item`), each passed
    through ``render`` when one is given. A :class:`PhhRange` is read here first.
    ``threads``: the executor's task form (the replay is serial)."""
    from simulate.replay.fast_replay import replay_items

    docs = replay_items(_task_items(items))
    return docs if render is None else [render(d) for d in docs]


def _task_items(task: list[Item] | PhhRange | Any) -> list[Item]:
    """The hands of a worker's task: a :class:`PhhRange` of a PHH file or a
    :class:`~simulate.notation.sites.SitePart` of a site file read here, a list as it is."""
    from simulate.notation.sites import SitePart

    if isinstance(task, PhhRange):
        return _range_items(task)
    if isinstance(task, SitePart):
        return list(_part_items(task))  # (its plain hands as PlainSiteHand records)
    return task


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
    order; :data:`STDIN` as itself. In a folder every regular file is tried (site exports
    have any name); :attr:`explicit` holds the files named on the command line (one that
    holds no hand history is an error, not a skip)."""

    def __init__(self, paths: list[str | Path], on_skip: OnSkip | None,
                 plain: bool = False) -> None:
        self.paths, self.on_skip, self.plain = paths, on_skip, plain
        self.explicit = {str(p) for p in paths}

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
            yield from iter_hand_files(top, seen=seen, on_skip=self.on_skip, every_file=True)

    def items(self, f: Path | str) -> Iterator[Item]:
        """The hands of one input (:func:`_file_items`)."""
        return _file_items(f, str(f) in self.explicit, self.on_skip, self.plain)


def _items(paths: Iterable[str | Path], on_skip: OnSkip | None = None,
           plain: bool = False) -> Iterator[Item]:
    """The hands under ``paths`` (:meth:`_Inputs.items`; ``plain`` as there)."""
    inputs = _Inputs(list(paths), on_skip, plain)
    for f in inputs:
        yield from inputs.items(f)


def read_hands(paths: str | Path | Iterable[str | Path], *, on_skip: OnSkip | None = None,
               ) -> Iterator[tuple[str, HandHistory | PHHError]]:
    """Every hand under ``paths`` (files, folders, ``-``; PHH and site exports, as
    :func:`analyze` reads them) as ``(source, record or the hand's error)``, in input order,
    one hand in memory at a time (a site file is read whole). Raises as :func:`analyze`
    does for a path that does not exist."""
    from simulate.notation.phh_read import hand_from_bytes

    for src, line, data in _items(check_inputs(paths), on_skip):
        if isinstance(data, HandHistory):
            yield src, data
        elif isinstance(data, str):
            yield src, PHHError(data)
        else:
            yield src, hand_from_bytes(src, line, data)


#: The message of a file in a folder that holds no hand history (the CLI counts them).
NOT_HANDS = "holds no hand history"
#: How much of a file the format is told from.
_HEAD = 8192
#: A control character TOML allows nowhere (NUL aside, which decoding drops): a file whose
#: start holds one is binary, never PHH, however its first bytes happen to read.
_BINARY = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def _file_items(f: Path | str, explicit: bool = True, on_skip: OnSkip | None = None,
                plain: bool = False) -> Iterator[Item]:
    """The hands of one file, or of standard input. The format is told from the content
    (a ``.phh``/``.phhs`` name is always PHH): PHH is cut by
    :func:`simulate.notation.phh_read.iter_sections` (each hand's text bounded, see
    :data:`simulate.notation.phh_sections.MAX_HAND_BYTES`), a site export is read by its
    reader (:func:`simulate.notation.sites.read_site`; items carry the
    :class:`HandHistory`). A file in a folder that is neither is skipped, told to
    ``on_skip`` (``... holds no hand history``); named on its own, it is read as PHH (whose
    error says what is wrong). ``plain``: a site hand its family's plain-hand lane takes
    is a :class:`~simulate.notation.site_text.PlainSiteHand` (for the replay, which knows
    it; :func:`simulate.notation.sites.read_site`)."""
    if str(f) == STDIN:
        stdin = sys.stdin.buffer
        head = stdin.read(_HEAD)
        if file_kind(head) == "site":
            yield from _site_items(io.BytesIO(head + stdin.read()), STDIN_SOURCE, True, on_skip,
                                   plain)
        else:
            yield from _stream_items(_Prefixed(head, stdin), STDIN_SOURCE)
        return
    try:
        fh = open(f, "rb")
    except OSError as exc:
        yield str(f), 1, f"cannot read file: {exc.strerror or exc}"
        return
    with fh:
        name = str(f)
        if not name.endswith(SUFFIXES):
            try:
                head = fh.read(_HEAD)
                fh.seek(0)
            except OSError as exc:
                yield name, 1, f"cannot read file: {exc.strerror or exc}"
                return
            kind = file_kind(head)
            if kind == "site":
                yield from _site_items(fh, name, explicit, on_skip, plain)
                return
            if kind is None and not explicit:
                if on_skip is not None:
                    on_skip(f"skipped {name}: {NOT_HANDS}")
                return
        yield from _stream_items(fh, name)


def file_kind(head: bytes) -> str | None:
    """``"phh"``, ``"site"`` or None, from the first bytes of a file (the first
    :data:`_HEAD` bytes are enough)."""
    from simulate.notation import FORMATS
    from simulate.notation.site_text import decode
    from simulate.notation.sites import detect_site

    text = decode(head)
    if detect_site(text) is not None:
        return "site"
    if any(fmt.detect(text) for fmt in FORMATS if fmt.name == "phh") and not _BINARY.search(text):
        return "phh"
    return None


def _site_items(fh: IO[bytes], name: str, explicit: bool,
                on_skip: OnSkip | None, plain: bool = False) -> Iterator[Item]:
    """The hands of a site export, as items holding their :class:`HandHistory` (or the
    hand's error as text). A file of summaries only is skipped as holding no hands."""
    from simulate.notation.sites import read_site

    try:
        data = fh.read()
    except OSError as exc:
        yield name, 1, f"cannot read file: {exc.strerror or exc}"
        return
    n = 0
    for item in _site_hand_items(read_site(data, name, plain=plain), name):
        n += 1
        yield item
    if n == 0:
        if explicit:
            yield name, 1, f"{name} holds no hands (a summary, or hands the site cut short)"
        elif on_skip is not None:
            on_skip(f"skipped {name}: {NOT_HANDS} (summaries only)")


def _site_hand_items(hands: Iterable[tuple[int, HandHistory | PlainSiteHand | PHHError]], name: str,
                     ) -> Iterator[Item]:
    """Items of a site reader's hands (:func:`simulate.notation.sites.read_site`)."""
    for line, got in hands:
        yield f"{name}:{line}", line, (f"{got}" if isinstance(got, PHHError) else got)


def _part_items(part: Any) -> Iterator[Item]:
    """The hands of a :class:`~simulate.notation.sites.SitePart` (a worker reads it)."""
    from simulate.notation.sites import read_site_part

    return _site_hand_items(read_site_part(part, plain=True), part.source)


def _site_tasks(f: Path | str, chunk: int, inputs: _Inputs) -> Iterator[Any]:
    """A large site export as parts of ``chunk`` hands that the workers read
    (:func:`simulate.notation.sites.site_parts`), or its hands read here where it cannot be
    cut so."""
    from simulate.notation.sites import site_parts
    from simulate.run import chunked

    try:
        with open(f, "rb") as fh:
            parts = site_parts(fh.read(), str(f), chunk)
    except OSError:
        parts = None
    if parts is None:
        yield from chunked(inputs.items(f), chunk)
    else:
        yield from parts


class _Prefixed:
    """A stream whose first bytes (``head``, read to tell its format) were taken from it,
    put back before the rest: for :func:`simulate.notation.phh_read.iter_sections`
    (``read(n)`` only)."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self.head, self.rest = io.BytesIO(head), rest

    def read(self, n: int = -1) -> bytes:
        b = self.head.read(n)
        if n >= 0 and len(b) >= n:
            return b
        return b + self.rest.read(n - len(b) if n >= 0 else -1)


def _stream_items(fh: Any, name: str) -> Iterator[Item]:
    try:
        for src, line, data in iter_sections(fh, name):
            yield src, line, (str(data) if isinstance(data, PHHError) else data)
    except OSError as exc:
        yield name, 1, f"cannot read file: {exc.strerror or exc}"


class PhhRange(NamedTuple):
    """Bytes ``start:end`` of the file ``path``, whose first line is line ``line``: whole
    sections, cut where :func:`simulate.notation.phh_read.iter_sections` starts one."""

    path: str
    start: int
    end: int
    line: int


#: Files at least this large are sent to worker processes as byte ranges (:class:`PhhRange`,
#: the workers read and cut them) rather than as hands read by the main process.
RANGE_MIN_BYTES = 1 << 20


class FileSlice:
    """Bytes ``start:end`` of an open file as a stream for
    :func:`simulate.notation.phh_read.iter_sections` (``read(n)`` only): a range is read a
    block at a time, never whole, so a hand past the size bound costs no memory."""

    def __init__(self, fh: IO[bytes], start: int, end: int) -> None:
        fh.seek(start)
        self.fh, self.left = fh, end - start
        self.read_bytes = 0  # how many it has given

    def read(self, n: int = -1) -> bytes:
        if self.left <= 0:
            return b""
        b = self.fh.read(self.left if n < 0 else min(n, self.left))
        self.left -= len(b)
        self.read_bytes += len(b)
        return b


def _range_items(r: PhhRange) -> list[Item]:
    """The hands of a :class:`PhhRange`, as :func:`_file_items` reads them."""
    try:
        with open(r.path, "rb") as fh:
            return [(src, line, str(d) if isinstance(d, PHHError) else d) for src, line, d
                    in iter_sections(FileSlice(fh, r.start, r.end), r.path, r.line)]
    except OSError as exc:
        return [(r.path, r.line, f"cannot read file: {exc.strerror or exc}")]


def phh_ranges(f: Path | str, chunk: int, start: int = 0, line: int = 1,
               end: int | None = None) -> Iterator[PhhRange | list[Item]]:
    """``f`` from byte ``start`` (the start of a line, line number ``line``) to byte
    ``end`` (default: its end) cut into ranges of ``chunk`` sections (the first range also
    holds whatever comes before the first header), at least one. A cut is made only where
    :func:`simulate.notation.phh_sections.scan` finds a header, the one mechanism
    :func:`simulate.notation.phh_read.iter_sections` cuts with, so each range's hands are
    the ones a reading of the whole span gives. A file that cannot be read gives one item
    list: its error."""
    from simulate.notation.phh_sections import Header, scan

    try:
        fh = open(f, "rb")
    except OSError as exc:
        yield [(str(f), 1, f"cannot read file: {exc.strerror or exc}")]
        return
    path = str(f)
    first = start
    start_line, seen = line, 0
    with fh:
        stream = FileSlice(fh, start, os.fstat(fh.fileno()).st_size if end is None else end)
        try:
            for x in scan(stream, line, text=False):
                assert isinstance(x, Header)
                seen += 1
                if seen > chunk:
                    yield PhhRange(path, start, first + x.at, start_line)
                    start, start_line, seen = first + x.at, x.line, 1
        except OSError as exc:
            yield [(path, 1, f"cannot read file: {exc.strerror or exc}")]
            return
    stop = first + stream.read_bytes
    if stop > start or start == first:  # (an empty file is one empty hand, as read whole)
        yield PhhRange(path, start, stop, start_line)


def _tasks(paths: Iterable[str | Path], chunk: int, on_skip: OnSkip | None = None,
           ) -> Iterator[Any]:
    """Work for worker processes: large PHH files as :class:`PhhRange` s, large site exports
    as :class:`~simulate.notation.sites.SitePart` s (both read by the workers), other
    files' hands read here, ``chunk`` hands a task (the hands of consecutive small files pooled)."""
    import itertools
    import os

    from simulate.run import chunked

    def big(f: str | Path) -> str:  # a large PHH file, a large site export, or ""
        try:
            if f == STDIN or os.path.getsize(f) < RANGE_MIN_BYTES:
                return ""
            if str(f).endswith(SUFFIXES):
                return "phh"
            with open(f, "rb") as fh:
                return "site" if file_kind(fh.read(_HEAD)) == "site" else ""
        except OSError:
            return ""

    inputs = _Inputs(list(paths), on_skip, plain=True)
    for kind, files in itertools.groupby(inputs, key=big):
        if kind == "phh":
            for f in files:
                yield from phh_ranges(Path(f), chunk)
        elif kind == "site":
            for f in files:
                yield from _site_tasks(f, chunk, inputs)
        else:
            yield from chunked((it for f in files for it in inputs.items(f)), chunk)


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
    (:data:`simulate.notation.phh_sections.MAX_HAND_BYTES`): a longer one is that hand's error,
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
        chunks: Iterable[Any] = chunked(_items(paths, on_skip, plain=True), chunk)
    elif workers == 1:
        chunks = chunked(_items(paths, on_skip, plain=True), min(chunk, LOCAL_CHUNK))
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


def _failed(items: list[Item] | PhhRange, exc: BaseException, render: Render | None = None,
            ) -> list[Any]:
    """The documents of a chunk whose worker failed: each of its hands an error."""
    from simulate.replay.hand_replay import HandReplay

    items = _task_items(items)
    why = f"internal error: worker process failed ({type(exc).__name__}: {exc})"
    docs = [dict(HandReplay(source=src, error=why.splitlines()[0]).to_dict(),
                 readable=True) for src, _, _ in items]
    return docs if render is None else [render(d) for d in docs]
