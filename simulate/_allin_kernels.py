"""Numba kernels of the all-in expected-value engine (private; see ``simulate.allin``).

Every kernel works in *live index* space: the ``L`` players still holding cards,
numbered ``0..L-1`` in seat order. Shared inputs:

- ``hole_key``, ``hole_mask``: ``int64[L]``, the sum of each player's two
  ``card_key`` entries and the OR of their ``card_mask`` entries.
- ``board_key``, ``board_mask``: int64 scalars, ``KEY_INIT`` plus the known
  board cards' keys, and their mask.
- ``deck``: ``uint8[M]``, the cards that can still come (not in a hand, on the
  board or dead); ``k``: how many board cards are still to come (0..5).
- ``amounts``: ``int64[P]`` chips of each *contested* pot (two or more
  eligible players); ``members``: ``int64[P, L]``, row ``p`` lists the live
  indices eligible for pot ``p`` in its first ``n_members[p]`` entries
  (``int64[P]``); ``elig``: ``bool[P, L]``, the same as a mask.
- ``order``: ``int64[L]``, the live indices in odd-chip order (first live
  seat left of the button first).
- ``tables``: :attr:`evaluator._tables.Tables.kernel_args`.

Outputs are integer chip totals, summed over runouts: ``win[p, i]`` is what
live player ``i`` took from pot ``p``. Monte Carlo kernels also return
``sumsq[i]`` (float64), the sum over runouts of the square of player ``i``'s
chips from all contested pots on that runout, for standard errors. Callers
divide in Python.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import CACHE
from evaluator._kernels import flush_strength, rank_strength
from simulate._rng import below, next_u64, stream_state

#: Monte Carlo runouts per random stream (a block); a seed's answer does not
#: depend on the thread count because block ``b`` always uses stream ``b``.
MC_BLOCK = 16384


# The per-runout helpers are inlined at the Numba IR level: a plain call passes a
# dozen arrays and pays reference counting on each, which measured about twice the
# cost of the whole walk (evaluation and settlement) for a four-way preflop spot.
@nb.njit(cache=CACHE, inline="always")
def _strengths(bkey, bmask, hole_key, hole_mask, st, row_offsets, rank_table, flush_table):
    """Fill ``st`` (uint16[L]) with each live player's strength on a full board."""
    for i in range(hole_key.shape[0]):
        key = bkey + hole_key[i]
        if (key >> 32) & 0x8888:
            st[i] = flush_strength(key, bmask | hole_mask[i], flush_table)
        else:
            st[i] = rank_strength(key, row_offsets, rank_table)


@nb.njit(cache=CACHE, inline="always")
def _settle(st, amounts, members, n_members, elig, order, win, pay):
    """Award every contested pot on one runout: add to ``win[p, i]`` and ``pay[i]``.

    Each pot goes to the best strength among its members; a split is even and the
    odd chips go one each to the tied winners in ``order``.
    """
    for p in range(amounts.shape[0]):
        best = st[members[p, 0]]
        n_win = 1
        w0 = members[p, 0]
        for j in range(1, n_members[p]):
            i = members[p, j]
            v = st[i]
            if v > best:
                best = v
                n_win = 1
                w0 = i
            elif v == best:
                n_win += 1
        amount = amounts[p]
        if n_win == 1:
            win[p, w0] += amount
            pay[w0] += amount
            continue
        share = amount // n_win
        odd = amount - share * n_win
        for j in range(n_members[p]):
            i = members[p, j]
            if st[i] == best:
                win[p, i] += share
                pay[i] += share
        for j in range(order.shape[0]):
            if odd == 0:
                break
            i = order[j]
            if elig[p, i] and st[i] == best:
                win[p, i] += 1
                pay[i] += 1
                odd -= 1


@nb.njit(cache=CACHE, inline="always")
def _one_runout(bkey, bmask, hole_key, hole_mask, st, amounts, members, n_members, elig, order,
                win, pay, row_offsets, rank_table, flush_table):
    _strengths(bkey, bmask, hole_key, hole_mask, st, row_offsets, rank_table, flush_table)
    _settle(st, amounts, members, n_members, elig, order, win, pay)


@nb.njit(cache=CACHE)
def _walk_rest(key0, mask0, deck, start, k_rest, hole_key, hole_mask, st, amounts, members,
               n_members, elig, order, win, pay, tables):
    """Every way to add ``k_rest`` (0..3) cards from ``deck[start:]`` to a board prefix."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    m = deck.shape[0]
    if k_rest == 0:
        _one_runout(key0, mask0, hole_key, hole_mask, st, amounts, members, n_members, elig,
                    order, win, pay, row_offsets, rank_table, flush_table)
        return 1
    count = 0
    for a in range(start, m - k_rest + 1):
        ka = key0 + card_key[deck[a]]
        ma = mask0 | card_mask[deck[a]]
        if k_rest == 1:
            _one_runout(ka, ma, hole_key, hole_mask, st, amounts, members, n_members, elig,
                        order, win, pay, row_offsets, rank_table, flush_table)
            count += 1
            continue
        for b in range(a + 1, m - k_rest + 2):
            kb = ka + card_key[deck[b]]
            mb = ma | card_mask[deck[b]]
            if k_rest == 2:
                _one_runout(kb, mb, hole_key, hole_mask, st, amounts, members, n_members, elig,
                            order, win, pay, row_offsets, rank_table, flush_table)
                count += 1
                continue
            for c in range(b + 1, m):
                _one_runout(kb + card_key[deck[c]], mb | card_mask[deck[c]], hole_key,
                            hole_mask, st, amounts, members, n_members, elig, order, win, pay,
                            row_offsets, rank_table, flush_table)
                count += 1
    return count


@nb.njit(cache=CACHE)
def exact_task(task, n_tasks, heads, n_head, k, board_key, board_mask, deck, hole_key, hole_mask,
               amounts, members, n_members, elig, order, tables, win):
    """Walk the runouts whose first ``n_head`` new cards are ``heads[h]`` for
    ``h = task, task + n_tasks, ...``, adding chips to ``win`` (int64[P, L]).

    ``heads``: ``int64[H, 2]`` deck indices (increasing within a row; only the
    first ``n_head`` columns, 0..2, are used). The remaining ``k - n_head`` cards
    come from the deck after the head's last index. Returns the runout count.
    """
    card_key = tables[0]
    card_mask = tables[1]
    n_live = hole_key.shape[0]
    st = np.zeros(n_live, np.uint16)
    pay = np.zeros(n_live, np.int64)
    count = 0
    for h in range(task, heads.shape[0], n_tasks):
        key = board_key
        mask = board_mask
        start = 0
        for j in range(n_head):
            c = deck[heads[h, j]]
            key += card_key[c]
            mask |= card_mask[c]
            start = heads[h, j] + 1
        count += _walk_rest(key, mask, deck, start, k - n_head, hole_key, hole_mask, st,
                            amounts, members, n_members, elig, order, win, pay, tables)
    return count


@nb.njit(cache=CACHE)
def exact_serial(heads, n_head, k, board_key, board_mask, deck, hole_key, hole_mask, amounts,
                 members, n_members, elig, order, tables, win):
    """Every runout on one thread; ``win``: ``int64[P, L]``. Returns the runout count."""
    return exact_task(0, 1, heads, n_head, k, board_key, board_mask, deck, hole_key, hole_mask,
                      amounts, members, n_members, elig, order, tables, win)


@nb.njit(cache=CACHE, parallel=True)
def exact_parallel(heads, n_head, k, board_key, board_mask, deck, hole_key, hole_mask, amounts,
                   members, n_members, elig, order, tables, wins, counts):
    """Every runout, heads dealt round-robin to ``wins.shape[0]`` tasks over threads.

    ``wins``: ``int64[T, P, L]`` (zeroed), one accumulator per task;
    ``counts``: ``int64[T]`` runouts per task.
    """
    n_tasks = wins.shape[0]
    for t in nb.prange(n_tasks):
        counts[t] = exact_task(t, n_tasks, heads, n_head, k, board_key, board_mask, deck,
                               hole_key, hole_mask, amounts, members, n_members, elig, order,
                               tables, wins[t])


@nb.njit(cache=CACHE)
def mc_block(seed, block, n, k, board_key, board_mask, deck, hole_key, hole_mask, amounts,
             members, n_members, elig, order, tables, win, sumsq):
    """``n`` random runouts from stream ``block`` of ``seed`` (uint64): deal ``k`` cards
    without replacement from ``deck`` (partial Fisher-Yates on a private copy), settle,
    add to ``win`` (int64[P, L]) and ``sumsq`` (float64[L])."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n_live = hole_key.shape[0]
    m = deck.shape[0]
    d = deck.copy()
    st = np.zeros(n_live, np.uint16)
    pay = np.zeros(n_live, np.int64)
    state = stream_state(seed, block)
    for _ in range(n):
        key = board_key
        mask = board_mask
        for j in range(k):
            state, u = next_u64(state)
            r = j + below(u, m - j)
            c = d[r]
            d[r] = d[j]
            d[j] = c
            key += card_key[c]
            mask |= card_mask[c]
        for i in range(n_live):
            pay[i] = 0
        _one_runout(key, mask, hole_key, hole_mask, st, amounts, members, n_members, elig,
                    order, win, pay, row_offsets, rank_table, flush_table)
        for i in range(n_live):
            x = np.float64(pay[i])
            sumsq[i] += x * x


@nb.njit(cache=CACHE)
def mc_serial(seed, first_block, n_total, block_size, k, board_key, board_mask, deck, hole_key,
              hole_mask, amounts, members, n_members, elig, order, tables, wins, sumsqs):
    """Blocks ``first_block .. first_block + B - 1`` on one thread, where ``B =
    wins.shape[0]``; block ``b`` (0-based within the call) does ``block_size`` runouts,
    fewer for the last so that the call does ``n_total`` in all.

    ``wins``: ``int64[B, P, L]``, ``sumsqs``: ``float64[B, L]`` (zeroed), per block.
    """
    for b in range(wins.shape[0]):
        n = min(block_size, n_total - b * block_size)
        mc_block(seed, first_block + b, n, k, board_key, board_mask, deck, hole_key, hole_mask,
                 amounts, members, n_members, elig, order, tables, wins[b], sumsqs[b])


@nb.njit(cache=CACHE, parallel=True)
def mc_parallel(seed, first_block, n_total, block_size, k, board_key, board_mask, deck,
                hole_key, hole_mask, amounts, members, n_members, elig, order, tables, wins,
                sumsqs):
    """As :func:`mc_serial`, blocks spread over threads (same answer, any thread count)."""
    for b in nb.prange(wins.shape[0]):
        n = min(block_size, n_total - b * block_size)
        mc_block(seed, first_block + b, n, k, board_key, board_mask, deck, hole_key, hole_mask,
                 amounts, members, n_members, elig, order, tables, wins[b], sumsqs[b])
