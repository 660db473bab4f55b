"""Canonical boards under suit symmetry (private kernel; :mod:`simulate.symmetry` wraps it):
the boards an exact range walk visits, each standing for its orbit under the suit
permutations that leave the spot unchanged."""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial
from simulate._kernels.holdem_exact import next_subset


@serial
def enumerate_boards(fixed, avail, n_add, perms, out, out_w):
    """Every completion of the board ``fixed`` (uint8[k]) by ``n_add`` cards of ``avail``
    (uint8[m], sorted) that is canonical under the suit permutations ``perms``
    (int64[h, 4], ``perms[j, s]`` = image of suit s; the set of fixed cards and of available
    cards must be invariant). Canonical = lexicographically largest tuple of the four suits'
    rank masks among its images. Writes rows to ``out`` (uint8[>=count, 5]) and orbit sizes to
    ``out_w`` (int64); returns the count."""
    k = fixed.shape[0]
    m = avail.shape[0]
    h = perms.shape[0]
    base = np.zeros(4, np.int64)
    for i in range(k):
        base[fixed[i] & 3] |= np.int64(1) << (fixed[i] >> 2)
    sm = np.zeros(4, np.int64)
    img = np.zeros(4, np.int64)
    cnt = 0
    idx = np.empty(max(n_add, 1), np.int64)
    if n_add > m:
        return 0
    for i in range(n_add):
        idx[i] = i
    while True:
        for s in range(4):
            sm[s] = base[s]
        for i in range(n_add):
            c = avail[idx[i]]
            sm[c & 3] |= np.int64(1) << (c >> 2)
        canonical = True
        stab = 0
        for j in range(h):
            for s in range(4):
                img[perms[j, s]] = sm[s]
            cmp = 0
            for s in range(4):
                if img[s] != sm[s]:
                    cmp = 1 if img[s] > sm[s] else -1
                    break
            if cmp > 0:
                canonical = False
                break
            if cmp == 0:
                stab += 1
        if canonical:
            for i in range(k):
                out[cnt, i] = fixed[i]
            for i in range(n_add):
                out[cnt, k + i] = avail[idx[i]]
            out_w[cnt] = h // stab
            cnt += 1
        if not next_subset(idx, n_add, m, 0):
            return cnt
