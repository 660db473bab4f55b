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
from evaluator.cards import CardError, cards_str, check_disjoint, parse_cards

from .games import GAMES, game_names
from .request import check_player_count, parse_board, parse_request
from .results import EquityResult, PlayerResult, std_error_of_mean
from .sampling import Sampling, sampling

PINEAPPLE_GAMES = game_names("pineapple")
#: Cards on the board when the discard happens, by ``discard_after``.
DISCARD_AFTER = {"preflop": 0, "flop": 3, "turn": 4}
#: The standard references' timing of each game (the rule text 002 reads one street later).
DEFAULT_DISCARD_AFTER = {n: GAMES[n].discard_after for n in PINEAPPLE_GAMES}
#: Discard policies by name (``made`` is the default).
POLICIES = {"made": 0, "equity": 1}
DEFAULT_POLICY = "made"
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

_STREET_TEXT = {"preflop": "the preflop betting", "flop": "the flop betting",
                "turn": "the turn betting"}


def is_pineapple(game: str) -> bool:
    return str(game).strip().lower() in PINEAPPLE_GAMES


def resolve_discard_after(game: str, discard_after: str | None) -> str:
    """The betting round after which ``game`` discards: ``discard_after`` checked, or the
    game's standard timing when None."""
    g = str(game).strip().lower()
    if g not in PINEAPPLE_GAMES:
        if discard_after is not None:
            raise CardError(f"discard_after applies to pineapple and crazy_pineapple only, "
                            f"not {game}")
        raise CardError(f"'{game}' is not a pineapple game")
    if discard_after is None:
        return DEFAULT_DISCARD_AFTER[g]
    d = str(discard_after).strip().lower()
    if d not in DISCARD_AFTER:
        raise CardError(f"unknown discard_after '{discard_after}' (expected one of: "
                        f"{', '.join(DISCARD_AFTER)})")
    return d


def check_policy(name: str) -> str:
    p = str(name).strip().lower()
    if p not in POLICIES:
        raise CardError(f"unknown discard policy '{name}' (expected one of: "
                        f"{', '.join(POLICIES)})")
    return p


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


def _policy_tables(policy: int, dlen: int, board: Sequence[int],
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
    from evaluator._tables import get_tables

    from ._kernels.pineapple import choose_discards as kernel

    dlen = DISCARD_AFTER[resolve_discard_after("pineapple", discard_after)]
    pol = POLICIES[check_policy(policy)]
    b = parse_cards(board or "", what="board")
    if len(b) < dlen:
        raise CardError(f"a discard after {discard_after} sees {dlen} board cards, "
                        f"got {len(b)}")
    seen = b[:dlen]
    arr = np.array([parse_cards(h, what=f"hand {i}") for i, h in enumerate(hands, 1)],
                   dtype=np.uint8).reshape(len(hands), -1)
    if arr.shape[1] != 3:
        raise CardError("choose_discards takes three-card hands")
    ptab = _policy_tables(pol, dlen, seen, threads)
    out = np.zeros(len(hands), dtype=np.int64)
    kernel(arr, np.array(seen + [0] * (5 - dlen), dtype=np.int64), dlen, pol, ptab,
           get_tables().kernel_args, out)
    return [int(c) for c in out]


# ----------------------------------------------------------------------------- equity
def _parse_hands(hands: Sequence[str | Sequence[int]], game: str, da: str,
                 n_board: int) -> tuple[list[list[int]], int]:
    """Parse ``hands`` and check their card counts (:func:`check_hole_counts`). Returns
    ``(ids, cards per hand)``."""
    if isinstance(hands, str):
        raise CardError("hands must be a list, e.g. ['AhKhQd', 'QsQdJc']")
    check_player_count(len(hands))
    parsed = [parse_cards(h, what=f"hand {i}") for i, h in enumerate(hands, 1)]
    return parsed, check_hole_counts(parsed, game, da, n_board)


def check_hole_counts(hands: Sequence[Sequence[int] | None], game: str, da: str,
                      n_board: int, what: str = "hand", first: int = 1) -> int:
    """All hands (None: a folded seat, skipped) must hold 3 cards before the discard point,
    2 after it, and the same count at it; returns that count. ``what``/``first``: how
    messages name the hands (``hand 1``, ``seat 0``)."""
    dlen = DISCARD_AFTER[da]
    when = _STREET_TEXT[da]
    counts = set()
    for i, ids in enumerate(hands, first):
        if ids is None:
            continue
        n = len(ids)
        if n not in (2, 3):
            raise CardError(f"{what} {i} has {n} cards; {game} hands have 3 before the discard "
                            f"(after {when}) and 2 after it")
        if n == 2 and n_board < dlen:
            raise CardError(f"{what} {i} has 2 cards but the board ({n_board} cards) is before "
                            f"the discard (after {when}): {game} hands have 3 there")
        if n == 3 and n_board > dlen:
            raise CardError(f"{what} {i} has 3 cards but the board ({n_board} cards) is past "
                            f"the discard (after {when}): {game} hands have 2 there")
        counts.add(n)
    if len(counts) > 1:
        raise CardError(f"hands have 2 and 3 cards: at the discard either every {game} hand "
                        "has discarded (2 cards) or none has (3)")
    return counts.pop() if counts else 2


def pineapple_equity(hands: Sequence[str | Sequence[int]], board: str | Sequence[int] = "",
                     dead: str | Sequence[int] = "", *, game: str = "pineapple",
                     discard_after: str | None = None, discards: str | Sequence[int] = "",
                     discard_policy: str = DEFAULT_POLICY, exact: bool | None = None,
                     samples: int | None = None, target_std_error: float | None = None,
                     seed: int | None = None, threads: int | None = None) -> EquityResult:
    """Equity of 2..10 Pineapple or Crazy Pineapple hands (see the module docstring).

    ``hands``: three cards each before the discard, two after; ``discards``: cards thrown
    away (after the discard; the same as adding them to ``dead``); ``discard_policy``:
    ``made`` or ``equity`` (:data:`POLICY_RULES`). Sampling options as
    :func:`simulate.equity`. ``extra`` holds ``discard_after``, ``discard_policy`` (three-card
    hands), ``discards`` (each player's discard, when the board shows it is fixed)."""
    g = str(game).strip().lower()
    da = resolve_discard_after(g, discard_after)
    pol_name = check_policy(discard_policy)
    opts = sampling(exact, samples, target_std_error, seed, threads)
    b = parse_board(board)
    parsed, n_hole = _parse_hands(hands, g, da, len(b))
    d = parse_cards(dead or "", what="dead cards")
    disc = parse_cards(discards or "", what="discards")
    if disc and n_hole == 3:
        raise CardError("discards are given after the discard: hands then have 2 cards")
    check_disjoint([*[(f"hand {i}", h) for i, h in enumerate(parsed, 1)], ("board", b),
                    ("dead cards", d), ("discards", disc)])
    dlen = DISCARD_AFTER[da]
    extra: dict[str, object] = {"discard_after": da}
    if n_hole == 2:
        res = _holdem(parsed, b, d + disc, opts)
        return _relabel(res, g, [cards_str(h) for h in parsed], b, d + disc, extra)
    extra["discard_policy"] = pol_name
    pol = POLICIES[pol_name]
    if len(b) == dlen:  # at the discard point: the discards are fixed, the rest is Hold'em
        thrown = choose_discards(parsed, b, discard_after=da, policy=pol_name,
                                 threads=threads)
        kept = [[c for c in h if c != t] for h, t in zip(parsed, thrown, strict=True)]
        extra["discards"] = [cards_str([t]) for t in thrown]
        res = _holdem(kept, b, d + thrown, opts)
        return _relabel(res, g, [cards_str(h) for h in parsed], b, d, extra)
    return _before_discard(parsed, b, d, dlen, pol, opts, g, extra)


def _holdem(hands: list[list[int]], board: list[int], dead: list[int],
            opts: Sampling) -> EquityResult:
    from .equity import holdem_equity

    req = parse_request(hands, board, dead, game="holdem")
    return holdem_equity(req, **opts.kwargs())


def _relabel(res: EquityResult, game: str, texts: list[str], board: list[int],
             dead: list[int], extra: dict[str, object]) -> EquityResult:
    players = [replace(p, hand=t) for p, t in zip(res.players, texts, strict=True)]
    return replace(res, players=players, game=game, board=cards_str(board),
                   dead=cards_str(dead), extra={**res.extra, **extra})


def exact_work(n_players: int, n_board: int, deck_size: int, dlen: int, policy: int) -> int:
    """Estimated player-evaluations of the exact walk before the discard (completions to
    the discard point x the reduced Hold'em walk of each)."""
    from .equity import reduced_walk_work

    f = dlen - n_board
    rest = deck_size - f
    per = reduced_walk_work([c for c in range(rest)], 5 - dlen, n_players)
    if policy == POLICIES["equity"] and dlen == 4:
        per += _TURN_TABLE_WORK * n_players
    return math.comb(deck_size, f) * per


def _before_discard(hands: list[list[int]], board: list[int], dead: list[int], dlen: int,
                    pol: int, opts: Sampling, game: str,
                    extra: dict[str, object]) -> EquityResult:
    from evaluator._jit import threads as _threads
    from evaluator._tables import get_tables

    from ._kernels import pineapple as K
    from ._kernels.score import equity_block_scorer
    from .equity import SHARE_UNIT, _cat_of, _categories

    n_players = len(hands)
    used = set(board) | set(dead) | {c for h in hands for c in h}
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    if len(deck) < 5 - len(board):
        raise CardError(f"not enough cards: the board needs {5 - len(board)} more but only "
                        f"{len(deck)} remain in the deck")
    exact = opts.exact
    if exact is None:
        exact = (not opts.wants_sampling
                 and exact_work(n_players, len(board), len(deck), dlen, pol) <= EXACT_BUDGET)
    n_threads = opts.n_threads()
    t0 = work_clock()
    ptab = _policy_tables(pol, dlen, board, opts.threads)
    tables = get_tables().kernel_args
    cat_of = _cat_of()
    hand_arr = np.array(hands, dtype=np.uint8)
    board_arr = np.array(board, dtype=np.uint8)
    if exact:
        rows = len(deck) if dlen > len(board) else 1
        bsc = equity_block_scorer(n_players, cat_of, rows)
        with _threads(n_threads):
            per_row = K.exact_pre(hand_arr, board_arr, deck, dlen, pol, ptab, tables, bsc)
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
                        elapsed_s=work_clock() - t0, game=game, board=cards_str(board),
                        dead=cards_str(dead), extra=extra)
