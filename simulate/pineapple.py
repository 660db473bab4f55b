"""Pineapple and Crazy Pineapple equity: three hole cards, one discarded.

Every player is dealt three cards and, after the betting round the rules name
(``discard_after``: ``"preflop"``, ``"flop"`` or ``"turn"``), throws one away, dead; the rest
is Hold'em with two. ``pineapple`` discards after the preflop round and ``crazy_pineapple``
after the flop round by default (the standard references); the rule text in the project's
rules (002) reads one street later: pass ``discard_after="flop"`` / ``"turn"`` for that.

* **After the discards** (two cards each; the discards as ``dead`` or ``discards``): exactly
  Hold'em with the discards dead -- routed to :func:`simulate.equity.holdem_equity`.
* **Before the discards** (three cards each): each player's discard is chosen by a policy
  (:data:`POLICIES`) that sees only that player's three cards and the board at the discard
  point. When the board is already at the discard point the discards are fixed and the
  rest is Hold'em again; otherwise :mod:`simulate._kernels.pineapple` walks every
  completion of the board to the discard point (exact) or samples whole boards.

Policies: ``made`` (cheap, the default): no board -> keep the best pair by the shipped
preflop 169 order; a board -> keep the pair making the best hand with it (ties by the
preflop order). ``equity`` (strong): keep the pair with the highest equity against one
random hand on the board so far (exact: preflop by the 169 order, which is exactly that
equity; a flop from the flop table -- 1,755 flop classes x 1,326 pairs, int32, 9.3 MB --
and a turn from the turn table -- 16,432 turn classes x 1,326 pairs, int32, 87 MB -- each
row built the first time it is needed and cached on disk, :func:`board_table`).
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from evaluator._jit import work_clock
from evaluator.cards import CardError, cards_str, parse_cards

from .games import GAMES, game_names
from .request import (  # noqa: F401 - the discard rule, read here by its users too
    DEFAULT_POLICY,
    DISCARD_AFTER,
    POLICIES,
    Spot,
    check_hole_counts,
    check_policy,
    parse_spot,
    resolve_discard_after,
)
from .results import SHARE_UNIT, EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling, sampling

PINEAPPLE_GAMES = game_names("pineapple")
#: The standard references' timing of each game (the rule text 002 reads one street later).
DEFAULT_DISCARD_AFTER = {n: GAMES[n].discard_after for n in PINEAPPLE_GAMES}
POLICY_RULES = {
    "made": "keep the pair making the best hand with the board at the discard (no board: "
            "the best pair by the preflop 169 order); ties by the preflop order",
    "equity": "keep the pair with the highest exact equity against one random hand on the "
              "board at the discard (no board: the preflop 169 order, which is that equity)",
}
#: ``exact=None`` walks every deal when the estimated player-evaluations are at most this
#: (about a second on one thread).
EXACT_BUDGET = 60_000_000
#: Extra work per player and completion when the strong policy reads the turn table (three
#: reads at random places of 87 MB; measured: the exact walk from preflop takes 2.5 times
#: the ``made`` policy's heads-up).
_TURN_TABLE_WORK = 160


def is_pineapple(game: str) -> bool:
    return str(game).strip().lower() in PINEAPPLE_GAMES


# ----------------------------------------------------------------------------- policy tables
@functools.lru_cache(maxsize=1)
def preflop_scores() -> np.ndarray:
    """``int64[1326]``: each combo's preflop class score, 168 (AA) .. 0 (the worst class),
    from the shipped 169 order (:func:`simulate.ranges.preflop_order`)."""
    from .ranges import HAND_CLASSES, combo_class_index, preflop_order

    rank = {h: r for h, _e, r in preflop_order()}
    by_class = np.array([169 - rank[n] for n in HAND_CLASSES], dtype=np.int64)
    return by_class[combo_class_index().astype(np.int64)]


@functools.lru_cache(maxsize=1)
def flop_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flops up to suit permutation: ``(flop_id, flop_class, flop_perm, canon)``.

    ``flop_id`` int32[52**3]: index 0..22099 of the flop ``(a, b, c)`` in any order at
    ``(a * 52 + b) * 52 + c``; ``flop_class`` int32[22100]: its class 0..1754;
    ``flop_perm`` uint8[22100, 4]: the suit map taking it to its class's canonical flop;
    ``canon`` uint8[1755, 3]: the canonical flop of each class."""
    import itertools

    trip = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)  # [22100, 3]
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # [24, 4]
    mapped = (trip[None] & ~3) | perms[np.arange(24)[:, None, None], (trip & 3)[None]]
    mapped = np.sort(mapped, axis=2)
    codes = (mapped[..., 0] * 52 + mapped[..., 1]) * 52 + mapped[..., 2]  # [24, 22100]
    best = codes.argmin(axis=0)
    canon_code = codes[best, np.arange(trip.shape[0])]
    uniq, cls = np.unique(canon_code, return_inverse=True)
    flop_id = np.full(52 ** 3, -1, dtype=np.int32)
    for order in itertools.permutations(range(3)):
        t = trip[:, list(order)]
        flop_id[(t[:, 0] * 52 + t[:, 1]) * 52 + t[:, 2]] = np.arange(trip.shape[0])
    canon = np.stack([uniq // 2704, uniq // 52 % 52, uniq % 52], axis=1).astype(np.uint8)
    return (flop_id, cls.astype(np.int32), perms[best].astype(np.uint8), canon)


@functools.lru_cache(maxsize=1)
def turn_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Turns (four board cards) up to suit permutation: ``(turn_class, turn_perm, canon)``.

    A turn ``a < b < c < d`` has index ``a + C(b, 2) + C(c, 3) + C(d, 4)`` (0..270724);
    ``turn_class`` int32[270725]: its class 0..16431; ``turn_perm`` uint8[270725, 4]: the
    suit map taking it to its class's canonical turn; ``canon`` uint8[16432, 4]: the
    canonical turn of each class. Kept in a cache file beside the tables (computing them
    takes a second or more)."""
    path = _cache_file("turn_classes")
    try:
        with np.load(path) as z:
            got = (z["turn_class"], z["turn_perm"], z["canon"])
        if got[0].shape == (270725,) and got[2].shape == (16432, 4):
            return got
    except (OSError, KeyError, ValueError):
        pass
    import itertools

    quad = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 4)),
                       np.int64).reshape(-1, 4)
    perms = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # [24, 4]
    best = np.zeros(quad.shape[0], np.int64)
    best_mask = np.full(quad.shape[0], np.iinfo(np.int64).max)
    for i, perm in enumerate(perms):  # a set's card mask needs no sorting; the least wins
        mask = (np.int64(1) << ((quad & ~3) | perm[quad & 3])).sum(axis=1)
        better = mask < best_mask
        best[better], best_mask[better] = i, mask[better]
    uniq, cls = np.unique(best_mask, return_inverse=True)
    a, b, c, d = quad.T
    index = (a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
             + d * (d - 1) * (d - 2) * (d - 3) // 24)
    turn_class = np.zeros(quad.shape[0], np.int32)
    turn_perm = np.zeros((quad.shape[0], 4), np.uint8)
    turn_class[index] = cls
    turn_perm[index] = perms[best]
    bits = (uniq[:, None] >> np.arange(52)) & 1
    canon = np.nonzero(bits)[1].reshape(-1, 4).astype(np.uint8)
    _save(path, turn_class=turn_class, turn_perm=turn_perm, canon=canon)
    return turn_class, turn_perm, canon


def _cache_file(street: str) -> Path:
    base = os.environ.get("POKERJIT_DATA_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pokerjit")
    return Path(base) / f"pineapple_{street}_v1.npz"


_BOARD_TABLES: dict[str, dict[str, np.ndarray]] = {}
#: Seconds per table row on one thread, for parts of about a quarter second (measured: the
#: 1,755 flop rows take about a minute; the 16,432 turn rows 2.4-12 ms each, 40 s to 3 min
#: on one thread by how busy the machine is).
ROW_S = {"flop": 0.035, "turn": 0.006}


def board_table(street: str, classes: Sequence[int] | None = None, *,
                threads: int | None = None) -> np.ndarray:
    """``int32[K, 1326]``: twice the wins plus the ties of each pair against one random hand
    over every runout and opponent on each class of ``street`` (``"flop"``:
    :func:`flop_classes`, K = 1,755; ``"turn"``: :func:`turn_classes`, K = 16,432), rows
    filled for ``classes`` (None: all). Rows are computed once (:data:`ROW_S` each on one
    thread; in parts, with progress on the command line and Ctrl-C between parts) and kept
    in memory and in a cache file (``$POKERJIT_DATA_CACHE`` or ``~/.cache/pokerjit``;
    unwritable: memory only). The opponent is drawn from every card not on the board or in
    the pair (the player's own third card included: the table does not depend on it)."""
    from evaluator._jit import resolve_threads
    from evaluator._jit import threads as _threads
    from evaluator._tables import get_tables

    from ._kernels.pineapple import fill_board_table

    canon = flop_classes()[3] if street == "flop" else turn_classes()[2]
    if street not in _BOARD_TABLES:
        table = np.zeros((canon.shape[0], 1326), dtype=np.int32)
        done = np.zeros(canon.shape[0], dtype=np.bool_)
        try:
            with np.load(_cache_file(street)) as z:  # rows of these very classes only
                same = "canon" not in z or np.array_equal(z["canon"], canon)
                if z["table"].shape == table.shape and same:
                    table, done = z["table"], z["done"]  # fresh arrays, ours to fill
        except (OSError, KeyError, ValueError):
            pass
        _BOARD_TABLES[street] = {"table": table, "done": done}
    table, done = _BOARD_TABLES[street]["table"], _BOARD_TABLES[street]["done"]
    want = np.arange(canon.shape[0]) if classes is None else np.asarray(classes, np.int64)
    missing = np.unique(want[~done[want]])
    if missing.size:
        from .sampling import walk_parts, walk_progress

        n_threads = resolve_threads(threads)
        estimate = missing.size * ROW_S[street] / n_threads
        parts = walk_parts(estimate, missing.size, least=1)
        chunks = np.array_split(missing, parts)
        try:
            with walk_progress(estimate, f"pineapple {street} table (once)",
                               "parts") as report:
                for i, chunk in enumerate(chunks):
                    rows = np.zeros((chunk.size, 1326), dtype=np.int32)
                    with _threads(n_threads):
                        fill_board_table(canon[chunk], get_tables().kernel_args, rows)
                    table[chunk] = rows
                    done[chunk] = True
                    if report is not None:
                        report(i + 1, len(chunks))
        finally:  # rows built before a Ctrl-C are kept
            _save(_cache_file(street), table=table, done=done, canon=canon)
    return table


def _save(path: Path, **arrays: np.ndarray) -> None:
    """Write ``arrays`` to the cache file ``path`` whole (a temporary file renamed into
    place); a place that cannot be written keeps them in memory only."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass


def flop_table(classes: Sequence[int] | None = None, *, threads: int | None = None
               ) -> np.ndarray:
    """``int32[1755, 1326]``: :func:`board_table` of the flop classes."""
    return board_table("flop", classes, threads=threads)


def turn_table(classes: Sequence[int] | None = None, *, threads: int | None = None
               ) -> np.ndarray:
    """``int32[16432, 1326]``: :func:`board_table` of the turn classes."""
    return board_table("turn", classes, threads=threads)


def _flop_class(f: Sequence[int]) -> int:
    flop_id, flop_class = flop_classes()[:2]
    a, b, c = (int(x) for x in f[:3])
    return int(flop_class[flop_id[(a * 52 + b) * 52 + c]])


def _turn_class(t: Sequence[int]) -> int:
    a, b, c, d = sorted(int(x) for x in t)
    return int(turn_classes()[0][a + math.comb(b, 2) + math.comb(c, 3) + math.comb(d, 4)])


def placeholder_tables(pre: np.ndarray) -> tuple[np.ndarray, ...]:
    """A ``ptab`` tuple of the kernels' types with empty tables (the ``made`` rule reads
    only ``pre``, the preflop scores int64[1326])."""
    return (pre, np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros((1, 4), np.uint8),
            np.zeros((1, 1326), np.int32), np.zeros(1, np.int32), np.zeros((1, 4), np.uint8),
            np.zeros((1, 1326), np.int32))


def policy_tables(policy: int, dlen: int, board: Sequence[int],
                   threads: int | None) -> tuple[np.ndarray, ...]:
    """The ``ptab`` tuple of the kernels: ``(pre, flop_id, flop_class, flop_perm,
    flop_table, turn_class, turn_perm, turn_table)``, the strong policy's table rows filled
    for every board the discard after ``dlen`` cards can see from the known ``board``: the
    flop (or every flop), the turn, the 49 turns of a flop (or every turn)."""
    flop_id, flop_class, flop_perm, _canon = flop_classes()
    empty = placeholder_tables(preflop_scores())
    ftab, ttab = empty[4], empty[7]
    tclass, tperm = empty[5], empty[6]
    if policy == POLICIES["equity"] and dlen == 3:
        ftab = flop_table([_flop_class(board[:3])] if len(board) >= 3 else None,
                          threads=threads)
    elif policy == POLICIES["equity"] and dlen == 4:
        tclass, tperm = turn_classes()[:2]
        if len(board) >= 4:
            classes: list[int] | None = [_turn_class(board[:4])]
        elif len(board) == 3:
            seen = {int(c) for c in board}
            classes = sorted({_turn_class([*seen, c]) for c in range(52) if c not in seen})
        else:
            classes = None
        ttab = turn_table(classes, threads=threads)
    return (preflop_scores(), flop_id, flop_class, flop_perm, ftab, tclass, tperm, ttab)


def choose_discards(hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
                    *, discard_after: str = "preflop", policy: str = DEFAULT_POLICY,
                    threads: int | None = None) -> list[int]:
    """The card id each three-card hand throws away under ``policy``, seeing only its own
    cards and the first 0, 3 or 4 cards of ``board`` (by ``discard_after``): cards of the
    board past the discard point are never read. ``board`` must reach the discard point."""
    dlen = DISCARD_AFTER[resolve_discard_after("pineapple", discard_after)]
    pol = POLICIES[check_policy(policy)]
    b = parse_cards(board or "", what="board")
    if len(b) < dlen:
        raise CardError(f"a discard after {discard_after} sees {dlen} board cards, "
                        f"got {len(b)}")
    ids = [parse_cards(h, what=f"hand {i}") for i, h in enumerate(hands, 1)]
    return discard_ids(ids, b, dlen, pol, threads)


def discard_ids(hands: Sequence[Sequence[int]], board: Sequence[int], dlen: int, pol: int,
                threads: int | None = None) -> list[int]:
    """:func:`choose_discards` of parsed three-card ``hands`` (card ids) on the first
    ``dlen`` cards of ``board`` under policy code ``pol`` (:data:`POLICIES`)."""
    from evaluator._tables import get_tables

    from ._kernels.pineapple import choose_discards as kernel

    seen = list(board[:dlen])
    arr = np.array(hands, dtype=np.uint8).reshape(len(hands), -1)
    if arr.shape[1] != 3:
        raise CardError("choose_discards takes three-card hands")
    ptab = policy_tables(pol, dlen, seen, threads)
    out = np.zeros(len(hands), dtype=np.int64)
    kernel(arr, np.array(seen + [0] * (5 - dlen), dtype=np.int64), dlen, pol, ptab,
           get_tables().kernel_args, out)
    return [int(c) for c in out]


def discard_now(spot: Spot, threads: int | None = None) -> tuple[Spot, list[int]]:
    """A spot of three-card hands at its discard point, after every live hand has discarded
    by the spot's policy: ``(the spot with the kept pairs and the discards dead, discards)``
    (the discards in the order of the live hands)."""
    pol = POLICIES[spot.discard_policy or DEFAULT_POLICY]
    live = [s for s, h in enumerate(spot.hands) if isinstance(h, list)]
    thrown = discard_ids([spot.hands[s] for s in live], spot.board,  # type: ignore[misc]
                         DISCARD_AFTER[spot.discard_after or "preflop"], pol, threads)
    hands = list(spot.hands)
    for s, t in zip(live, thrown, strict=True):
        hands[s] = [c for c in hands[s] if c != t]  # type: ignore[union-attr]
    return replace(spot, hands=hands, dead=spot.dead + thrown, discard_policy=None), thrown


# ----------------------------------------------------------------------------- equity
def pineapple_equity(hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
                     dead: str | Sequence[int] = "", *, game: str = "pineapple",
                     discard_after: str | None = None, discards: str | Sequence[int] = "",
                     discard_policy: str = DEFAULT_POLICY, exact: bool | None = None,
                     samples: int | None = None, target_std_error: float | None = None,
                     seed: int | None = None, threads: int | None = None) -> EquityResult:
    """Equity of 2..10 Pineapple or Crazy Pineapple hands (:func:`simulate.equity` with a
    Pineapple ``game``; see the module docstring and :func:`pineapple_run`).

    ``hands``: three cards each before the discard, two after; ``discards``: cards thrown
    away (after the discard; the same as adding them to ``dead``); ``discard_policy``:
    ``made`` or ``equity`` (:data:`POLICY_RULES`). Sampling options as
    :func:`simulate.equity`."""
    g = str(game).strip().lower()
    resolve_discard_after(g, discard_after)
    opts = sampling(exact, samples, target_std_error, seed, threads)
    return pineapple_run(parse_spot(hands, board, dead, game=g, discard_after=discard_after,
                                    discards=discards, discard_policy=discard_policy), opts)


def pineapple_run(spot: Spot, opts: Sampling) -> EquityResult:
    """Equity of a parsed Pineapple ``spot``. ``extra`` holds ``discard_after``,
    ``discard_policy`` (three-card hands), ``discards`` (each player's discard, when the
    board shows it is fixed)."""
    from .holdem import holdem_equity

    holdem = GAMES["holdem"]
    da = spot.discard_after or DEFAULT_DISCARD_AFTER[spot.game.name]
    extra: dict[str, object] = {"discard_after": da}
    if spot.discard_policy is None:  # two cards each: Hold'em with the discards dead
        dead = spot.dead + spot.discards
        res = holdem_equity(replace(spot, game=holdem, dead=dead, discards=[]), opts)
        return _relabel(res, spot, dead, extra)
    extra["discard_policy"] = spot.discard_policy
    dlen = DISCARD_AFTER[da]
    if len(spot.board) == dlen:  # at the discard point: the discards are fixed, the rest is Hold'em
        kept, thrown = discard_now(spot, opts.threads)
        extra["discards"] = [cards_str([t]) for t in thrown]
        res = holdem_equity(replace(kept, game=holdem), opts)
        return _relabel(res, spot, spot.dead, extra)
    return _before_discard(spot, dlen, POLICIES[spot.discard_policy], opts, extra)


def _relabel(res: EquityResult, spot: Spot, dead: list[int],
             extra: dict[str, object]) -> EquityResult:
    """A Hold'em result as the Pineapple spot's: its hands' texts, game, board and ``dead``."""
    players = [replace(p, hand=t) for p, t in zip(res.players, spot.texts, strict=True)]
    return replace(res, players=players, game=spot.game.name, board=spot.board_text,
                   dead=cards_str(dead), extra={**res.extra, **extra})


def exact_work(n_players: int, n_board: int, deck_size: int, dlen: int, policy: int) -> int:
    """Estimated player-evaluations of the exact walk before the discard (completions to
    the discard point x the reduced Hold'em walk of each)."""
    from .holdem import reduced_walk_work

    f = dlen - n_board
    rest = deck_size - f
    per = reduced_walk_work([c for c in range(rest)], 5 - dlen, n_players)
    if policy == POLICIES["equity"] and dlen == 4:
        per += _TURN_TABLE_WORK * n_players
    return math.comb(deck_size, f) * per


def _before_discard(spot: Spot, dlen: int, pol: int, opts: Sampling,
                    extra: dict[str, object]) -> EquityResult:
    """Three-card hands before the discard point: the walk or the sampler of
    :mod:`simulate._kernels.pineapple` (each discard by policy code ``pol``)."""
    from evaluator._jit import threads as _threads
    from evaluator._tables import get_tables
    from evaluator.hands import category_table

    from ._kernels import pineapple as K
    from ._kernels.score import equity_block_scorer
    from .holdem import categories as _categories

    hands: list[list[int]] = spot.hands  # type: ignore[assignment]
    board, dead = spot.board, spot.dead
    n_players = len(hands)
    deck = spot.remaining_deck()
    exact = opts.exact
    if exact is None:
        exact = (not opts.wants_sampling
                 and exact_work(n_players, len(board), len(deck), dlen, pol) <= EXACT_BUDGET)
    n_threads = opts.n_threads()
    t0 = work_clock()
    ptab = policy_tables(pol, dlen, board, opts.threads)
    tables = get_tables().kernel_args
    cat_of = category_table()
    hand_arr = np.array(hands, dtype=np.uint8)
    board_arr = np.array(board, dtype=np.uint8)
    if exact:
        rows = len(deck) if dlen > len(board) else 1
        bsc = equity_block_scorer(n_players, cat_of, rows)
        with _threads(n_threads):
            per_row = K.exact_pre(hand_arr, board_arr, deck, dlen, pol, ptab, tables, bsc,
                                  n_threads)
        total = int(per_row.sum())
        f = dlen - len(board)
        expect = math.comb(len(deck), f) * math.comb(len(deck) - f, 5 - dlen)
        if total != expect:
            raise AssertionError(f"pineapple walk counted {total} deals, expected {expect}")
        share = bsc[5][:, 0].sum(axis=0)
        stats, cats = bsc[7].sum(axis=0), bsc[8].sum(axis=0)
        players = [PlayerResult(hand=cards_str(h), equity=int(share[p]) / (SHARE_UNIT * total),
                                win=int(stats[p, 0]) / total, tie=int(stats[p, 1]) / total,
                                std_error=0.0, categories=_categories(cats[p], total, True))
                   for p, h in enumerate(hands)]
        n = total
    else:
        from .sampling import BLOCK, run_blocks

        s = opts.resolved_seed()
        extra["seed"] = s
        share = np.zeros(n_players, np.int64)
        win = np.zeros(n_players, np.int64)
        tie = np.zeros(n_players, np.int64)
        cat = np.zeros((n_players, 9), np.int64)
        sq = np.zeros(n_players, np.int64)

        def run(lo: int, hi: int) -> None:
            bsc = equity_block_scorer(n_players, cat_of, hi - lo)
            rsq = np.zeros((hi - lo, n_players), np.int64)
            with _threads(n_threads):
                K.sample_pre(np.uint64(s), opts.cap, BLOCK, lo, hi, hand_arr, board_arr, deck,
                             dlen, pol, ptab, tables, bsc, rsq)
            share[:] += bsc[5][:, 0].sum(axis=0)
            stats = bsc[7].sum(axis=0)
            win[:] += stats[:, 0]
            tie[:] += stats[:, 1]
            cat[:] += bsc[8].sum(axis=0)
            sq[:] += rsq.sum(axis=0)

        def errors(n: int) -> np.ndarray:
            return std_error_of_mean(share / SHARE_UNIT, sq / SHARE_UNIT ** 2, n)

        n = run_blocks(opts, run, errors, min_round=n_threads)
        se = errors(n)
        players = [PlayerResult(hand=cards_str(h), equity=int(share[p]) / (SHARE_UNIT * n),
                                win=int(win[p]) / n, tie=int(tie[p]) / n,
                                std_error=float(se[p]),
                                categories=_categories(cat[p], n, False))
                   for p, h in enumerate(hands)]
    return EquityResult(players=players, exact=bool(exact), samples=int(n),
                        elapsed_s=work_clock() - t0, game=spot.game.name,
                        board=cards_str(board), dead=cards_str(dead), extra=extra)
