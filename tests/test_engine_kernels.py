"""The engine kernels' shortcuts give what the slow ways give (simulate/_kernels/engine.py).

The play loop leans on three shortcuts that must never change a result:

* the live and active seat counts kept in the state (``NLIVE``, ``NACTIVE``) equal a scan
  of the seats' status after every action;
* :func:`table_pots` takes one pot when every live seat put in the same chips: it must
  equal the chip-by-chip reference (antes, as dead money, in the main pot that every live
  seat may win) whether or not the shortcut applies;
* :func:`dealt_strengths`, evaluated from the deck right after the deal, equals
  :func:`holdem_strengths` at every showdown for the seats still in.
"""

from __future__ import annotations

import random

import numpy as np
from reference import ref_pots

from evaluator._tables import get_tables
from simulate._kernels import engine as K
from simulate._kernels.rng import deal_setup
from simulate.engine import Rules


def _counts(S: np.ndarray) -> tuple[int, int]:
    st = [int(S[K.STAT + s]) for s in range(int(S[K.N]))]
    return sum(x != K.OUT for x in st), sum(x == K.ACTIVE for x in st)


def test_counts_pots_and_dealt_strengths_on_random_hands():
    rng = random.Random(11)
    tabs = get_tables().kernel_args
    lg = np.empty(K.LEGAL_SIZE, np.int64)
    showdowns = 0
    for i in range(400):
        n = rng.randint(2, 9)
        rules = Rules(blinds=(5, 10), ante=rng.choice([0, 0, 2]),
                      betting=rng.choice(["no-limit", "pot-limit", "fixed-limit"]))
        S = rules.header()
        S[K.N] = n
        S[K.BUTTON] = rng.randrange(n)
        for s in range(n):
            S[K.STACK + s] = rng.randint(3, 400)
        hole = np.full((K.MAXS, K.MAXH), K.UNKNOWN, np.uint8)
        board = np.full(5, K.UNKNOWN, np.uint8)
        deck = np.empty(52, np.uint8)
        k = 2 * n + 8
        mul = np.empty((k + 4) // 5 * 5, np.uint64)
        thr = np.empty_like(mul)
        deal_setup(52, k, mul, thr)
        K.seeded_deck(np.uint64(3), i, k, deck, mul, thr)
        K.start(S, hole, board, deck)
        assert (int(S[K.NLIVE]), int(S[K.NACTIVE])) == _counts(S)
        early = np.zeros(n, np.int64)
        K.dealt_strengths(S, hole, deck, *tabs, early)
        while S[K.ACTOR] >= 0:
            K.legal(S, lg)
            options = [(K.CHECK_CALL, 0)]
            if lg[K.L_FOLD]:
                options.append((K.FOLD, 0))
            if lg[K.L_MIN] >= 0:
                options += [(K.RAISE, int(lg[K.L_MIN])), (K.RAISE, int(lg[K.L_MAX]))]
            kind, amount = rng.choice(options)
            assert K.act(S, kind, amount, board, deck) == K.OK
            assert (int(S[K.NLIVE]), int(S[K.NACTIVE])) == _counts(S)
        # the pots (the shortcut or build_pots) against the chip-by-chip reference
        committed = [int(S[K.COMM + s]) for s in range(n)]
        live = [bool(S[K.STAT + s]) for s in range(n)]
        want, want_ret = ref_pots(committed, live) if any(committed) else ([], [0] * n)
        dead = int(S[K.DEAD])
        every = tuple(s for s in range(n) if live[s])
        if dead and want and want[0][1] == every:
            want[0] = (want[0][0] + dead, every)
        elif dead:
            want.insert(0, (dead, every))
        amounts = np.zeros(n + 1, np.int64)
        elig = np.zeros((n + 1, n), np.bool_)
        ret = np.zeros(n, np.int64)
        m = K.table_pots(S, amounts, elig, ret)
        got = [(int(amounts[p]), tuple(int(s) for s in np.flatnonzero(elig[p])))
               for p in range(m)]
        assert got == want and list(ret) == want_ret, (committed, live, dead)
        if S[K.STREET] == 4:
            showdowns += 1
            late = np.zeros(n, np.int64)
            K.holdem_strengths(S, hole, board, *tabs, late)
            for s in range(n):
                assert late[s] == (early[s] if live[s] else 0)
    assert showdowns > 50


def test_one_pot_shortcut_edges():
    """Every live seat level: one pot; one live seat left: its unmatched chips go back;
    a live seat all in for less: side pots (the shortcut does not apply)."""
    S = Rules().header()
    S[K.N] = 3

    def pots(comm, stat, dead=0):
        S[K.COMM:K.COMM + 3] = comm
        S[K.STAT:K.STAT + 3] = stat
        S[K.DEAD] = dead
        S[K.NLIVE] = sum(x != K.OUT for x in stat)
        amounts = np.zeros(4, np.int64)
        elig = np.zeros((4, 3), np.bool_)
        ret = np.zeros(3, np.int64)
        m = K.table_pots(S, amounts, elig, ret)
        return ([(int(amounts[p]), tuple(int(s) for s in np.flatnonzero(elig[p])))
                 for p in range(m)], list(ret))

    A, I, O = K.ACTIVE, K.ALLIN, K.OUT
    assert pots([20, 20, 5], [A, I, O], dead=3) == ([(48, (0, 1))], [0, 0, 0])
    assert pots([5, 10, 0], [O, A, O], dead=10) == ([(20, (1,))], [0, 5, 0])
    assert pots([300, 50, 100], [A, I, I]) == ([(150, (0, 1, 2)), (100, (0, 2))],
                                               [200, 0, 0])
