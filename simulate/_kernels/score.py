"""Numba kernel that settles a showdown's pots (private; see ``simulate.pots``).

The kernel is pure integer arithmetic over arrays so that a jitted all-in EV
runner can call it once per dealt runout without touching Python objects.
Build its inputs with :func:`simulate.pots.build_pots`,
:func:`simulate.pots.pots_to_arrays` and :func:`simulate.pots.odd_chip_order`.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial


@serial
def settle_kernel(strengths, amounts, eligible, odd_order, payout_out):
    """Award every pot to its best eligible hand(s), adding chips to ``payout_out``.

    Parameters (all arrays are C-contiguous or not, any layout works):

    - ``strengths``: ``ndarray[n_seats]`` of an integer dtype (``int32`` or
      ``uint16`` in practice; any integer dtype compiles). Higher is better;
      equal values tie. Values of seats that are not eligible for any pot
      (folded seats) are never read.
    - ``amounts``: ``ndarray[P] int64``, the chips in each pot (``>= 0``).
    - ``eligible``: ``ndarray[P, n_seats] bool``, ``eligible[p, s]`` is True
      when seat ``s`` can win pot ``p``.
    - ``odd_order``: ``ndarray[n_seats] int64``, a permutation of the seat
      indices in odd-chip order: the seat left of the button first, i.e.
      ``button + 1, button + 2, ...`` wrapping, the button last.
    - ``payout_out``: ``ndarray[n_seats] int64``, **added to** (not cleared),
      so one buffer can accumulate many runouts.

    Semantics: for each pot, the winners are the eligible seats holding the
    highest strength among the eligible seats. Each winner gets
    ``amount // n_winners``; the ``amount % n_winners`` odd chips go one at a
    time to the winners in ``odd_order`` (first tied winner left of the
    button first). Every pot is split on its own, so chips are conserved pot
    by pot: the kernel adds exactly ``amounts.sum()`` to ``payout_out``.

    Raises ``ValueError`` if a pot holding chips has no eligible seat (cannot
    happen for pots built by ``build_pots``). Returns nothing.
    """
    n_pots = amounts.shape[0]
    n_seats = eligible.shape[1]
    for p in range(n_pots):
        amount = np.int64(amounts[p])
        best = np.int64(0)
        n_win = 0
        for s in range(n_seats):
            if eligible[p, s]:
                v = np.int64(strengths[s])
                if n_win == 0 or v > best:
                    best = v
                    n_win = 1
                elif v == best:
                    n_win += 1
        if n_win == 0:
            if amount != 0:
                raise ValueError("settle_kernel: a pot holding chips has no eligible seat")
            continue
        share = amount // n_win
        odd = amount - share * n_win
        if share != 0:
            for s in range(n_seats):
                if eligible[p, s] and np.int64(strengths[s]) == best:
                    payout_out[s] += share
        for i in range(odd_order.shape[0]):
            if odd == 0:
                break
            s = odd_order[i]
            if eligible[p, s] and np.int64(strengths[s]) == best:
                payout_out[s] += 1
                odd -= 1
        if odd != 0:
            raise ValueError("settle_kernel: odd_order does not list every tied winner")
