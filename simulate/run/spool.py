"""Output that worker processes write themselves: a spool file beside the output.

With ``--workers N`` a chunk's output text is most of what a worker would send back (about
1 KB a heads-up line, 190 MB for 200,000 lines): pickled, piped and unpickled, it cost
the main process as much CPU as answering the lines cost a worker. Instead the main
process opens one spool file before it forks the workers (:class:`Spool`, unlinked at
once, so nothing is left behind however the run ends); a worker appends a chunk's text to
it (:meth:`Spool.put`, a place reserved under a lock shared by the processes, then one
``pwrite``) and sends back a :class:`SpoolRef` of a few bytes. The main process, writing
the chunks in input order, has the kernel copy each piece from the spool into the output
(:meth:`Spool.copy_to`: ``os.copy_file_range``, or reads and writes where that is
missing or refused) and frees the spool's blocks behind it (a punched hole, where the
file system has them), so the spool holds only the chunks in flight.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: Bytes read and written at a time where the kernel cannot copy between the files.
_PIECE = 1 << 20

#: The spools open in this process, by id: a :class:`SpoolRef` unpickled in the main
#: process finds its spool here.
_open: dict[tuple[int, int], Spool] = {}
_ids = itertools.count()


class SpoolRef:
    """A piece of a :class:`Spool`: ``length`` bytes from ``offset``. Pickles as its three
    numbers; in the process that opened the spool, :meth:`copy_to` and :meth:`read` reach
    it."""

    __slots__ = ("length", "offset", "spool_id")

    def __init__(self, spool_id: tuple[int, int], offset: int, length: int) -> None:
        self.spool_id, self.offset, self.length = spool_id, offset, length

    def __reduce__(self) -> tuple:
        return SpoolRef, (self.spool_id, self.offset, self.length)

    @property
    def spool(self) -> Spool:
        try:
            return _open[self.spool_id]
        except KeyError:
            raise ValueError("this spool is closed, or was opened by another process"
                             ) from None

    def copy_to(self, fd: int) -> None:
        """Append the piece to the file ``fd`` at its position (see :meth:`Spool.copy_to`)."""
        self.spool.copy_to(self, fd)

    def read(self) -> bytes:
        """The piece's bytes (see :meth:`Spool.read`)."""
        return self.spool.read(self)


class Spool:
    """An unlinked file in ``directory`` (the output's, so that the kernel can copy
    between the two), shared with the processes forked after it was opened: they
    :meth:`put` pieces, this process :meth:`copy_to` or :meth:`read` each once.
    ``close()`` (or the process's end) frees it."""

    def __init__(self, directory: str | Path) -> None:
        import multiprocessing as mp

        fd, path = tempfile.mkstemp(prefix=".pokerjit-spool-", dir=directory)
        try:
            os.unlink(path)
            # the end of the pieces reserved so far, shared with forked processes
            self._end = mp.get_context("fork").Value("q", 0)
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        self.id = (os.getpid(), next(_ids))
        self._kernel_copy = hasattr(os, "copy_file_range")
        self._punch = _hole_puncher()
        _open[self.id] = self

    def put(self, data: Any) -> SpoolRef:
        """Append ``data`` (bytes, or a uint8 array); safe from any process forked after
        the spool was opened."""
        view = memoryview(data).cast("B")
        n = len(view)
        with self._end.get_lock():
            offset = self._end.value
            self._end.value = offset + n
        at = offset
        while view:
            k = os.pwrite(self.fd, view, at)
            view, at = view[k:], at + k
        return SpoolRef(self.id, offset, n)

    def copy_to(self, ref: SpoolRef, fd: int) -> None:
        """Append ``ref``'s bytes to the file ``fd`` (at its position, which moves past
        them), then free them here."""
        offset, left = ref.offset, ref.length
        while left and self._kernel_copy:
            try:
                k = os.copy_file_range(self.fd, fd, left, offset)
            except OSError:  # another file system, an old kernel, a file it cannot copy
                k = 0
            if k == 0:
                self._kernel_copy = False
                break
            offset, left = offset + k, left - k
        for piece in self._pieces(offset, left):
            write_all(fd, piece)
        self._free(ref)

    def read(self, ref: SpoolRef) -> bytes:
        """``ref``'s bytes, then free them here."""
        data = b"".join(self._pieces(ref.offset, ref.length))
        self._free(ref)
        return data

    def _pieces(self, offset: int, left: int) -> Iterator[bytes]:
        """The ``left`` bytes from ``offset``, read :data:`_PIECE` bytes at a time."""
        while left:
            piece = os.pread(self.fd, min(left, _PIECE), offset)
            if not piece:
                raise OSError(f"the batch spool ends before its piece at {offset}")
            yield piece
            offset, left = offset + len(piece), left - len(piece)

    def _free(self, ref: SpoolRef) -> None:
        if self._punch is not None and ref.length:
            try:
                self._punch(self.fd, ref.offset, ref.length)
            except OSError:  # a file system without holes: the spool keeps its blocks
                self._punch = None

    def close(self) -> None:
        if self.fd >= 0:
            _open.pop(self.id, None)
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _hole_puncher() -> Any:
    """``punch(fd, offset, length)``, freeing a file's blocks there (Linux ``fallocate``
    with ``FALLOC_FL_PUNCH_HOLE``; OSError where the file system refuses), or None where
    the C library has no ``fallocate``."""
    import ctypes
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fallocate = libc.fallocate
    except (OSError, AttributeError):
        return None
    fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    fallocate.restype = ctypes.c_int
    mode = 0x01 | 0x02  # FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE

    def punch(fd: int, offset: int, length: int) -> None:
        if fallocate(fd, mode, offset, length) != 0:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))

    return punch


def write_all(fd: int, data: Any) -> None:
    """Write all of ``data`` (bytes, or any buffer such as a uint8 array) to the file
    ``fd`` at its position, however many ``os.write`` calls that takes."""
    view = memoryview(data).cast("B")
    while view:
        view = view[os.write(fd, view):]
