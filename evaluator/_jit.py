"""Numba settings in one place: the decorators every kernel module uses, the cache
switch and thread resolution.

- :func:`serial` compiles a serial kernel, :func:`parallel` one that uses
  ``numba.prange``, :func:`inline` a small helper inlined into its callers. All
  three cache compiled code on disk unless ``POKERJIT_CACHE=0`` is set (the cache
  is what lets a fresh CLI process answer without compiling).
- :func:`resolve_threads` turns a user's ``threads`` argument into a thread count;
  :class:`threads` runs a ``with`` block on that many Numba threads.

Numba is imported only when a decorator or a thread helper is used, so importing the
packages and scalar evaluation stay free of Numba's start-up cost. ``tests`` fail on a
bare ``numba.njit(`` anywhere else.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

CACHE = os.environ.get("POKERJIT_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")


def _njit(fn: Callable[..., Any] | None, opts: dict[str, Any]) -> Any:
    import numba

    opts.setdefault("cache", CACHE)
    deco = numba.njit(**opts)
    return deco if fn is None else deco(fn)


def serial(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a serial Numba kernel (``@serial`` or ``@serial(...)``)."""
    return _njit(fn, dict(opts))


def parallel(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a parallel (``prange``) Numba kernel."""
    return _njit(fn, dict(opts, parallel=True))


def inline(fn: Callable[..., Any] | None = None, **opts: Any) -> Any:
    """Compile ``fn`` as a helper that Numba inlines into every caller."""
    return _njit(fn, dict(opts, inline="always"))


def max_threads() -> int:
    """The most Numba threads this process may use (``NUMBA_NUM_THREADS``)."""
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)


def resolve_threads(threads: int | None) -> int:
    """``threads`` (None = all) as a thread count in ``1..max_threads()``.

    Raises ValueError for anything but a positive integer.
    """
    import numpy as np

    if threads is None:
        return max_threads()
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ValueError(f"threads must be a positive integer, got {threads!r}")
    return min(int(threads), max_threads())


class threads:
    """Context manager running Numba parallel code on ``n`` threads."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __enter__(self) -> None:
        import numba

        self.old = numba.get_num_threads()
        numba.set_num_threads(self.n)

    def __exit__(self, *exc: object) -> None:
        import numba

        numba.set_num_threads(self.old)
