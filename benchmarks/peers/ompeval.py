"""OMPEval (C++), as compiled into the ``pokerfast`` wheel, called through its plain C ABI
with ctypes: a native evaluation batch, and exact or Monte Carlo Hold'em equity (hands or
ranges, 1..6 players; Monte Carlo stops at a standard-error or time target, not a count)."""

from __future__ import annotations

import ctypes
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _common
from ._common import Cards, PeerEquity, PeerEvaluator, cards_text, import_peer

_OMP: Any = None


_OMP_SUIT = np.array([2, 3, 1, 0], dtype=np.uint8)


_OMP_ERRORS = {-1: "malformed arguments", -2: "no valid deal", -3: "internal error"}


def _omp() -> Any:
    """ctypes handle on pokerfast's OMPEval library (its plain C ABI), with argtypes set.

    pokerfast's public ``equity.equity`` drops the number of deals OMPEval did and its
    ``equity.evaluate`` only takes card text, so we call the same exported C functions
    directly (after ``pokerfast.equity.available()`` has loaded and initialised the library).
    """
    global _OMP
    if _OMP is None:
        mod = import_peer("ompeval")
        lib = ctypes.CDLL(mod.find_library())
        lib.pf_evaluate.restype = ctypes.c_int
        lib.pf_evaluate.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_void_p]
        lib.pf_equity.restype = ctypes.c_int
        lib.pf_equity.argtypes = [
            ctypes.POINTER(ctypes.c_char_p),
            ctypes.c_uint,
            ctypes.c_char_p,
            ctypes.c_char_p,
            ctypes.c_int,
            ctypes.c_double,
            ctypes.c_uint,
            ctypes.c_double,
            ctypes.POINTER(ctypes.c_double),
            ctypes.POINTER(ctypes.c_uint64),
        ]
        _OMP = lib
    return _OMP


def make_evaluator() -> PeerEvaluator:
    lib = _omp()

    def prepare(cards: np.ndarray) -> tuple[np.ndarray, int, int]:
        arr = _common.check_batch(cards)
        omp = np.ascontiguousarray(4 * (arr >> 2) + _OMP_SUIT[arr & 3], dtype=np.uint8)
        return omp, arr.shape[0], arr.shape[1]

    def run(prepared: tuple[np.ndarray, int, int]) -> np.ndarray:
        buf, n, k = prepared
        out = np.empty(n, dtype=np.uint16)
        if n:
            rc = lib.pf_evaluate(buf.ctypes.data, n, k, out.ctypes.data)
            if rc != 0:
                raise RuntimeError(f"OMPEval pf_evaluate: {_OMP_ERRORS.get(rc, rc)}")
        return out.astype(np.int64)

    return PeerEvaluator(
        "ompeval",
        prepare,
        run,
        True,
        "native batch",
        "pokerfast's OMPEval C ABI (pf_evaluate): one call for all N hands; higher is better, "
        "order only (values are category*4096 + ..., not 1..7462)",
    )


def ompeval_equity(hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                   exact: bool = True, stdev: float = 5e-5, time_limit: float = 0.0,
                   threads: int = 1) -> PeerEquity:
    """Hold'em equity through OMPEval (pokerfast's build), 1..6 players.

    ``hands``: per player an exact hand (``"AhKh"``) or an OMPEval range (``"QQ+,AKs"``,
    ``"random"``). ``exact=True`` enumerates every deal (``threads=1``: one thread; ``0``: all
    cores). ``exact=False`` is Monte Carlo stopping when player 1's standard error is below
    ``stdev`` or after ``time_limit`` seconds (checked about every 0.2 s); OMPEval cannot be
    asked for a fixed number of samples -- ``samples`` in the result says how many it did.
    """
    lib = _omp()
    if not 1 <= len(hands) <= 6:
        raise _common.PeerUnsupported("ompeval: 1..6 players")
    specs = [cards_text(h) if _common.is_exact_hand(h) else _common.norm_range(h) for h in hands]
    b, d = _common.board_dead(board, dead)
    if not exact and stdev <= 0 and time_limit <= 0:
        raise ValueError("Monte Carlo needs stdev > 0 or time_limit > 0")
    n = len(specs)
    rs = (ctypes.c_char_p * n)(*[s.encode("ascii") for s in specs])
    out = (ctypes.c_double * n)()
    count = ctypes.c_uint64()
    t0 = time.perf_counter()
    rc = lib.pf_equity(
        rs,
        n,
        cards_text(b).encode(),
        cards_text(d).encode(),
        int(bool(exact)),
        float(stdev),
        int(threads),
        float(time_limit),
        out,
        ctypes.byref(count),
    )
    dt = time.perf_counter() - t0
    if rc != 0:
        raise ValueError(f"ompeval: {_OMP_ERRORS.get(rc, rc)} for {specs} board={cards_text(b)}")
    return PeerEquity(
        "ompeval", list(out), bool(exact), int(count.value), dt, note=f"threads={threads}"
    )


def ompeval_equity_vs_random(
    queries: Sequence[tuple[str, str]],
) -> tuple[list[float], float]:
    """Exact equity of each ``(hole, board)`` against one random hand, in one native batch call
    (``pokerfast.equity.equity_vs_random_many``, single-threaded). Returns (equities, seconds).
    """
    mod = import_peer("ompeval")
    qs = [(cards_text(h), cards_text(b)) for h, b in queries]
    t0 = time.perf_counter()
    res = mod.equity_vs_random_many(qs)
    return list(res), time.perf_counter() - t0
