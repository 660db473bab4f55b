"""Suit symmetry of a range spot: the suit permutations that fix it, and its boards.

The suit permutations that fix the board, the dead cards and every player's weights form a
group H; the exact range walks visit one full board per H-orbit (:func:`boards`, weighted by
the orbit size) and average per-combo sums over H afterwards (:func:`symmetrise`).
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np

from .ranges import ALL_COMBOS

__all__ = ["boards", "boards_compile_job", "perms", "symmetrise", "symmetry"]


@functools.lru_cache(maxsize=1)
def perms() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All 24 suit permutations (int64[24, 4]), their action on card ids (int64[24, 52]) and on
    combo indices (int64[24, 1326]). Row 0 is the identity."""
    p = np.array(list(itertools.permutations(range(4))), dtype=np.int64)
    cards = np.arange(52)
    card_map = (cards >> 2)[None, :] * 4 + p[:, cards & 3]
    a = card_map[:, ALL_COMBOS[:, 0]]
    b = card_map[:, ALL_COMBOS[:, 1]]
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    combo_map = hi * (hi - 1) // 2 + lo
    return p, card_map, combo_map


def symmetry(board: list[int], dead: list[int], dense: list[np.ndarray]) -> np.ndarray:
    """Indices (into :func:`perms`) of the suit permutations fixing the board set, the dead set
    and every player's dense weight vector."""
    _, card_map, combo_map = perms()
    keep = []
    bset, dset = set(board), set(dead)
    for j in range(24):
        if set(card_map[j, board].tolist()) != bset or set(card_map[j, dead].tolist()) != dset:
            continue
        if all(np.array_equal(w[combo_map[j]], w) for w in dense):
            keep.append(j)
    return np.array(keep, dtype=np.int64)


_BOARD_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def boards(board: list[int], dead: list[int], group: np.ndarray) -> tuple[np.ndarray,
                                                                           np.ndarray]:
    """Canonical full boards (uint8[N, 5]) extending ``board`` and their orbit sizes."""
    from ._kernels.symmetry import enumerate_boards

    key = (tuple(board), tuple(sorted(dead)), tuple(group.tolist()))
    if key in _BOARD_CACHE:
        return _BOARD_CACHE[key]
    used = set(board) | set(dead)
    avail = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    n_add = 5 - len(board)
    total = math.comb(len(avail), n_add)
    out = np.zeros((total, 5), dtype=np.uint8)
    out_w = np.zeros(total, dtype=np.int64)
    n = enumerate_boards(np.array(board, dtype=np.uint8), avail, n_add, perms()[0][group],
                         out, out_w)
    res = (out[:n].copy(), out_w[:n].copy())
    if len(_BOARD_CACHE) > 8:
        _BOARD_CACHE.clear()
    _BOARD_CACHE[key] = res
    return res


def boards_compile_job() -> tuple[object, tuple[object, ...]]:
    """``(kernel, arguments)``: what :func:`boards` compiles, for
    :func:`evaluator._first_run.compile_beside`."""
    from ._kernels.symmetry import enumerate_boards

    return enumerate_boards, (np.zeros(0, np.uint8), np.zeros(0, np.uint8), 0,
                              perms()[0][np.zeros(1, np.int64)], np.zeros((0, 5), np.uint8),
                              np.zeros(0, np.int64))


def symmetrise(acc: np.ndarray, group: np.ndarray, cid: np.ndarray, pos: np.ndarray) -> None:
    """Average per-combo sums ``acc[n, ...]`` (combo indices ``cid[n]``, local positions
    ``pos[1326]``) over the suit permutations ``group``, in place."""
    if len(group) > 1:
        loc = pos[perms()[2][group][:, cid]]  # [h, n]
        acc[:] = acc[loc].mean(axis=0)
