"""Push/fold with ICM, 3 to 10 players: :func:`pushfold_icm`.

The game: stacks in big blinds, positions from the button (button, small blind 0.5, big
blind 1, then the first to act, ...), ``ante`` each. Preflop the first player to act jams
or folds; once someone has jammed, each later player calls or folds (over-calls allowed, up
to :data:`MAX_ALLIN` players all in: later players then fold); if everyone folds to the big
blind it wins the blinds. Each player's payoff is its ICM equity (:func:`simulate.icm.icm`)
of the stacks after the hand, with the pots built and settled by :mod:`simulate.pots` (the
players a hand busts placed by the chips they started it with).

Strategies are frequencies per hand class (the 169) for every decision: a position's jam
when folded to, and its call against each jammer with each set of earlier callers. Solved
by CFR+ (regret matching+ per class with iteration-weighted averages) over a fixed sample
of deals of every player's two cards and a board (card removal included; each hand's
strength on its board evaluated once; the deals cached per player count, number and seed).
Heads-up all-ins take their outcome **exactly** from the classes (the shipped 169 x 169
table's win and tie chances); the multi-way all-in equities (three and four players) are
**seeded Monte Carlo**: the order of the players' strengths on the deal's board. The ICM
payoff of every all-in outcome is computed once per solve. The sample of deals is also what
weighs the players' classes against each other, so classes close to indifferent are
noisy: more ``deals`` give smoother ranges. The reported ``exploitability`` is the largest
gain any player has from a best response to the others' strategies in that sampled game,
as a fraction of the prize pool.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simulate.icm import check_amounts, check_payouts, icm_after_hand
from simulate.pushfold import MAX_STACK_BB, strategy_dict

__all__ = ["DEALS", "MAX_ALLIN", "IcmPushFoldResult", "pushfold_icm", "position_names"]

#: Deals sampled x tree nodes per pass: the default number of deals is this over the nodes
#: (40,000 deals 6-handed, about 5,800 10-handed), at most :data:`DEALS`.
WORK = 4_500_000
DEALS = 40_000
MAX_ALLIN = 4
ITERATIONS = 100
SEED = 40
UNIT = 1000  # chip units per big blind for the pot builder


def position_names(n: int) -> list[str]:
    """Names of ``n`` positions from the button: BTN, SB, BB, then UTG .. HJ, CO."""
    rest = n - 3
    mids = [f"UTG+{k}" if k else "UTG" for k in range(rest)]
    if rest >= 1:
        mids[-1] = "CO"
    if rest >= 3:
        mids[-2] = "HJ"
    return ["BTN", "SB", "BB", *mids]


@dataclass
class IcmPushFoldResult:
    """:func:`pushfold_icm`'s answer: ``jam[p]`` float64[169] per position (from the button;
    the big blind's is all zero), ``calls``: ``(caller, jammer, earlier callers, float64[169])``
    for every call decision, ``icm_equity`` per position at the equilibrium, the
    ``exploitability`` (fraction of the prize pool) and how it was solved."""

    stacks: list[float]
    payouts: list[float]
    ante: float
    jam: list[np.ndarray]
    calls: list[tuple[int, int, tuple[int, ...], np.ndarray]]
    icm_equity: list[float]
    exploitability: float
    deals: int
    seed: int
    iterations: int
    elapsed_s: float

    def to_dict(self) -> dict[str, Any]:
        """The ``pokerjit pushfold --players N --json`` document."""
        names = position_names(len(self.stacks))
        positions = []
        for p, name in enumerate(names):
            calls = [{"jammer": names[j], "callers": [names[c] for c in before],
                      **strategy_dict(f)} for (q, j, before, f) in self.calls if q == p]
            positions.append({"name": name, "stack": self.stacks[p],
                              "jam": strategy_dict(self.jam[p]), "calls": calls,
                              "icm_equity": self.icm_equity[p]})
        return {"players": len(self.stacks), "stacks": self.stacks, "payouts": self.payouts,
                "ante": self.ante, "positions": positions,
                "exploitability": self.exploitability,
                "equities": f"seeded Monte Carlo, {self.deals:,} deals (seed {self.seed})",
                "deals": self.deals, "seed": self.seed, "iterations": self.iterations,
                "elapsed_s": self.elapsed_s}


@functools.lru_cache(maxsize=4)
def sampled_deals(n_players: int, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(cls, strength)`` int64[deals, n_players]: each player's hand class and its
    strength on the deal's board, for ``deals`` random deals of ``seed`` (cached)."""
    from evaluator import evaluate_batch
    from simulate.ranges import combo_class_index

    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((deals, 52)), axis=1)[:, : 2 * n_players + 5].astype(np.uint8)
    board = cards[:, 2 * n_players:]
    cls = np.zeros((deals, n_players), np.int64)
    strength = np.zeros((deals, n_players), np.int64)
    index = combo_class_index()
    for p in range(n_players):
        hole = cards[:, 2 * p: 2 * p + 2].astype(np.int64)
        lo, hi = hole.min(axis=1), hole.max(axis=1)
        cls[:, p] = index[hi * (hi - 1) // 2 + lo]
        strength[:, p] = evaluate_batch(np.concatenate([cards[:, 2 * p: 2 * p + 2], board],
                                                       axis=1), check=False)
    return cls, strength


class _Tree:
    """The betting tree in arrays (see :func:`simulate._kernels.pushfold.tree_values`), with
    its decisions: ``rows[c] = (player, jammer or -1 for a jam decision, earlier callers)``
    and its terminals: ``ends[t] = (members all in, jammer or -1 for the walk)``."""

    def __init__(self, n: int) -> None:
        self.order = [*range(3, n), 0, 1, 2]  # who acts, in turn
        self.rows: list[tuple[int, int, tuple[int, ...]]] = []
        self.ends: list[tuple[tuple[int, ...], int]] = []
        self.actor: list[int] = []
        self.ctx: list[int] = []
        self.act: list[int] = []
        self.fold: list[int] = []
        self.term: list[int] = []
        self._open(0)

    def _node(self) -> int:
        for a in (self.actor, self.ctx, self.act, self.fold, self.term):
            a.append(-1)
        return len(self.actor) - 1

    def _end(self, members: tuple[int, ...], jammer: int) -> int:
        v = self._node()
        self.term[v] = len(self.ends)
        self.ends.append((members, jammer))
        return v

    def _decision(self, player: int, row: tuple[int, int, tuple[int, ...]]) -> int:
        v = self._node()
        self.actor[v] = player
        self.ctx[v] = len(self.rows)
        self.rows.append(row)
        return v

    def _open(self, k: int) -> int:
        """The node where the ``k``-th to act is folded to."""
        p = self.order[k]
        if k == len(self.order) - 1:  # folded to the big blind: it wins the blinds
            return self._end((p,), -1)
        v = self._decision(p, (p, -1, ()))
        self.act[v] = self._facing(k, k + 1, (p,))
        self.fold[v] = self._open(k + 1)
        return v

    def _facing(self, jam_k: int, k: int, allin: tuple[int, ...]) -> int:
        """The node where the ``k``-th to act faces the jam of the ``jam_k``-th, with the
        players ``allin`` in so far."""
        if k == len(self.order) or len(allin) == MAX_ALLIN:
            return self._end(allin, self.order[jam_k])
        p = self.order[k]
        v = self._decision(p, (p, self.order[jam_k], allin[1:]))
        self.act[v] = self._facing(jam_k, k + 1, (*allin, p))
        self.fold[v] = self._facing(jam_k, k + 1, allin)
        return v

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(np.array(a, np.int64) for a in (self.actor, self.ctx, self.act, self.fold,
                                                     self.term))


def _payoffs(tree: _Tree, stacks: np.ndarray, pay: np.ndarray, ante: float) -> np.ndarray:
    """float64[T, 256, N]: each player's ICM equity at each terminal for each outcome code
    (members ranked by strength; see :func:`simulate._kernels.pushfold.tree_values`)."""
    from simulate.pots import build_pots, settle

    n = stacks.size
    chips = np.round(stacks * UNIT).astype(np.int64)
    forced = np.full(n, int(round(ante * UNIT)), np.int64)
    forced[1] += UNIT // 2
    forced[2] += UNIT
    forced = np.minimum(forced, chips)
    start = stacks.astype(np.float64)
    out = np.zeros((len(tree.ends), 4 ** MAX_ALLIN, n))
    for t, (members, _) in enumerate(tree.ends):
        committed = forced.copy()
        committed[list(members)] = chips[list(members)]
        live = [s in members for s in range(n)]
        structure = build_pots(committed.tolist(), live, allow_zero=True)
        m = len(members)
        for ranks in itertools.product(range(m), repeat=m):
            above = list(ranks)
            # a valid outcome: `above` counts the members strictly stronger
            if any(sum(1 for b in above if b < a) != a for a in above):
                continue
            strengths = [0] * n
            for i, s in enumerate(members):
                strengths[s] = m - above[i]
            back = settle(structure, strengths, button=0)
            final = (chips - committed + np.array(back)) / UNIT
            code = sum(a * 4 ** i for i, a in enumerate(above))
            out[t, code] = icm_after_hand(final, start, pay)
    return out


def pushfold_icm(stacks: Sequence[float], payouts: Sequence[float], *, players: int | None = None,
                 ante: float = 0.0, iterations: int = ITERATIONS, deals: int | None = None,
                 seed: int = SEED) -> IcmPushFoldResult:
    """The ICM push/fold equilibrium of 3..10 players (module docstring). ``stacks``: big
    blinds per position from the button, each at least 1 + ``ante``; ``payouts``: places
    1, 2, ... (at most one per player); ``players``: must match ``len(stacks)`` when given;
    ``deals``: how many to sample (default: :data:`WORK` over the tree's nodes, at most
    :data:`DEALS`), with ``seed``. One-line ValueError on bad input."""
    from simulate._kernels.pushfold import tree_values
    from simulate.preflop_table import preflop_table

    t0 = time.perf_counter()
    s = check_amounts(stacks, "stacks")
    n = s.size
    if players is not None and players != n:
        raise ValueError(f"--players {players} but {n} stacks given")
    if not 3 <= n <= 10:
        raise ValueError(f"the ICM push/fold game takes 3 to 10 players, got {n}")
    if not np.isfinite(ante) or ante < 0:
        raise ValueError(f"ante must be >= 0, got {ante:g}")
    low = np.flatnonzero(s < 1 + ante)
    if low.size:
        raise ValueError(f"stacks: player {int(low[0]) + 1} has {s[low[0]]:g} bb, less than "
                         f"the big blind and the ante ({1 + ante:g})")
    high = np.flatnonzero(s > MAX_STACK_BB)
    if high.size:
        raise ValueError(f"stacks: player {int(high[0]) + 1} has {s[high[0]]:g} bb, more than "
                         f"{MAX_STACK_BB:g}")
    pay = check_payouts(payouts, n)
    if pay.sum() <= 0:
        raise ValueError("payouts: the prize pool is empty")
    tree = _Tree(n)
    arrays = tree.arrays()
    if deals is None:
        deals = min(DEALS, WORK // len(tree.actor))
    members = np.full((len(tree.ends), MAX_ALLIN), -1, np.int64)
    n_members = np.zeros(len(tree.ends), np.int64)
    for t, (m, _) in enumerate(tree.ends):
        members[t, : len(m)] = m
        n_members[t] = len(m)
    payoff = _payoffs(tree, s, pay, ante)
    cls, strength = sampled_deals(n, deals, seed)
    table = preflop_table()
    win, tie = table.equity - table.tie / 2, np.ascontiguousarray(table.tie)
    n_rows = len(tree.rows)
    strat = np.full((n_rows, 169), 0.5)
    r_act = np.zeros((n_rows, 169))
    r_fold = np.zeros((n_rows, 169))
    avg = np.zeros((n_rows, 169))
    weight = 0.0

    def values(sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        qa = np.zeros((n_rows, 169))
        qf = np.zeros((n_rows, 169))
        root = np.zeros(n)
        tree_values(cls, strength, *arrays, members, n_members, payoff, win, tie, sigma, qa,
                    qf, root)
        return qa / deals, qf / deals, root / deals

    for it in range(1, iterations + 1):
        qa, qf, _ = values(strat)
        v = strat * qa + (1 - strat) * qf
        r_act = np.maximum(r_act + qa - v, 0)
        r_fold = np.maximum(r_fold + qf - v, 0)
        total = r_act + r_fold
        strat = np.where(total > 0, r_act / np.where(total > 0, total, 1), 0.5)
        avg += it * strat
        weight += it
    avg /= weight
    qa, qf, root = values(avg)
    gain = np.zeros(n)
    best = np.maximum(qa, qf) - (avg * qa + (1 - avg) * qf)
    for c, (p, _, _) in enumerate(tree.rows):
        gain[p] += best[c].sum()
    jam = [np.zeros(169) for _ in range(n)]
    calls = []
    for c, (p, j, before) in enumerate(tree.rows):
        if j < 0:
            jam[p] = avg[c]
        else:
            calls.append((p, j, before, avg[c]))
    return IcmPushFoldResult(
        stacks=[float(x) for x in s], payouts=[float(x) for x in pay], ante=float(ante),
        jam=jam, calls=calls, icm_equity=[float(x) for x in root],
        exploitability=float(gain.max() / pay.sum()), deals=deals, seed=seed,
        iterations=iterations, elapsed_s=time.perf_counter() - t0)
