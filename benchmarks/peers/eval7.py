"""eval7 (Cython): ``evaluate`` per hand; heads-up equity only (hero an exact hand or a
range). Its exact call scores a complete board only, so the exact adapters walk the runouts in
Python and call it once per runout."""

from __future__ import annotations

import math
import time
from itertools import combinations, islice
from typing import Any

import numpy as np

from . import _common
from ._common import Cards, PeerEquity, PeerUnsupported, import_peer, mask, parse_cards


def _cards() -> list[Any]:
    """eval7's ``Card`` of each of our card ids (index = id)."""
    e7 = import_peer("eval7")
    return [e7.Card(n) for n in _common.CARD_NAMES]


def _range(table: list[Any], combos: list[tuple[int, int]]
           ) -> list[tuple[tuple[Any, Any], float]]:
    """Two-card combos (our ids) as an eval7 range list, weight 1 each (eval7's equity code
    ignores weights)."""
    return [((table[a], table[b]), 1.0) for a, b in combos]


def make_evaluator() -> _common.PeerEvaluator:
    e7 = import_peer("eval7")
    table = _cards()
    return _common.per_hand_evaluator(
        "eval7", lambda row: [table[c] for c in row], e7.evaluate, higher_is_better=True,
        path="per-call Python overhead",
        note="eval7.evaluate(list of eval7.Card) per hand; higher is better, order only")


def _eval7_options(spec: str, excluded_mask: int) -> list[tuple[int, int]]:
    """Villain/hero two-card options as (id, id) pairs, unweighted, minus card conflicts."""
    if spec.strip().lower() == "random":
        combos = list(combinations(range(52), 2))
    elif _common.is_exact_hand(spec):
        a, b = parse_cards(spec).tolist()
        combos = [(a, b)]
    else:
        e7 = import_peer("eval7")
        try:
            hr = e7.HandRange(spec)
        except Exception as exc:
            raise ValueError(f"eval7 cannot parse range {spec!r}: {exc}") from exc
        seen: set[tuple[int, int]] = set()
        combos = []
        for (c1, c2), _weight in hr.hands:  # eval7 ignores weights in its equity code
            ids = tuple(sorted(parse_cards(str(c1) + str(c2)).tolist()))
            if ids not in seen:
                seen.add(ids)
                combos.append(ids)
    return [c for c in combos if not (mask(c) & excluded_mask)]


def _eval7_walk(
    hero: tuple[int, int],
    options: list[tuple[int, int]],
    board: list[int],
    dead_mask: int,
    max_evaluations: float,
) -> tuple[int, int, int]:
    """Walk every runout; returns (points, pairs, calls) where points = 2*wins + ties over
    every (villain option, runout) pair that shares no card, and pairs counts those pairs."""
    e7 = import_peer("eval7")
    table = _cards()
    hero_cards = [table[c] for c in hero]
    used = mask(hero) | mask(board) | dead_mask
    deck = [c for c in range(52) if not (used >> c) & 1]
    need = 5 - len(board)
    n_runouts = math.comb(len(deck), need)
    if n_runouts * max(1, len(options)) > max_evaluations:
        raise PeerUnsupported(
            f"eval7 exact: {n_runouts} runouts x {len(options)} combos is over max_evaluations"
        )
    if not options:
        return 0, 0, 0
    opt_masks = np.array([mask(o) for o in options], dtype=np.uint64)
    opt_list = _range(table, options)
    base = [table[c] for c in board]
    bits = np.array([1 << c for c in range(52)], dtype=np.uint64)
    chunk = max(1, 2_000_000 // len(options))
    points = pairs = calls = 0
    it = combinations(deck, need)
    evaluate_exact = e7.py_hand_vs_range_exact
    while True:
        block = list(islice(it, chunk))
        if not block:
            break
        if need:
            run_masks = np.bitwise_or.reduce(bits[np.array(block, dtype=np.intp)], axis=1)
            counts = ((run_masks[:, None] & opt_masks[None, :]) == 0).sum(axis=1).tolist()
        else:
            counts = [len(options)]
        for runout, n in zip(block, counts, strict=True):
            if n == 0:
                continue
            full = base + [table[c] for c in runout]
            e = evaluate_exact(hero_cards, opt_list, full)
            points += int(round(e * n * 2))  # float32 share * n -> exact 2*wins + ties
            pairs += n
            calls += 1
    return points, pairs, calls


def _heads_up(eq: float, exact: bool, samples: int, dt: float, note: str) -> PeerEquity:
    """eval7's answer: ``eq`` for the hero, the rest for the villain."""
    return PeerEquity("eval7", [eq, 1.0 - eq], exact, samples, dt, note=note)


def _exact_heads_up(heroes: list[tuple[int, int]], villain: str, b: np.ndarray, d: np.ndarray,
                    max_evaluations: float, note: str) -> PeerEquity:
    """The exact answer of :func:`_eval7_walk` for each hero combo of ``heroes`` (our ids)
    against the ``villain`` options that fit it, pooled over every (hero combo, villain combo,
    runout) that shares no card; ``max_evaluations`` bounds each hero combo's walk. ``note``
    says ``{calls}`` where the number of eval7 calls goes."""
    t0 = time.perf_counter()
    points = pairs = calls = 0
    for hc in heroes:
        options = _eval7_options(villain, mask(hc) | mask(b) | mask(d))
        p, n, c = _eval7_walk(hc, options, b.tolist(), mask(d), max_evaluations)
        points, pairs, calls = points + p, pairs + n, calls + c
    if pairs == 0:
        raise ValueError("eval7 exact: no valid deal")
    return _heads_up(points / (2 * pairs), True, pairs, time.perf_counter() - t0,
                     note.format(calls=calls))


def eval7_equity_exact(hero: str, villain: str, board: Cards = "", dead: Cards = "", *,
                       max_evaluations: float = 3e8) -> PeerEquity:
    """Heads-up exact equity through eval7: ``hero`` an exact hand, ``villain`` a hand, an
    (unweighted) eval7 range string or ``"random"``.

    eval7's ``py_hand_vs_range_exact`` only scores a *complete* board, so this walks every
    runout in Python and calls it once per runout (native loop over villain combos inside;
    Python overhead per runout: preflop hand-vs-hand is 1.7 M calls, seconds). Every
    (villain combo, runout) pair that shares no card counts once. Returns [hero, villain].
    """
    b, d = _common.board_dead(board, dead)
    h = parse_cards(hero)
    if h.size != 2:
        raise PeerUnsupported("eval7 exact: hero must be one exact two-card hand")
    return _exact_heads_up([tuple(h.tolist())], villain, b, d, max_evaluations,
                           "py_hand_vs_range_exact once per runout ({calls} calls)")


def eval7_range_equity_exact(hero_range: str, villain_range: str, board: Cards = "",
                             dead: Cards = "", *, max_evaluations: float = 3e8) -> PeerEquity:
    """Heads-up exact range-vs-range equity through eval7 (unweighted ranges): the walk of
    :func:`eval7_equity_exact` for every hero combo, pooled over every non-conflicting
    (hero combo, villain combo, runout). Fine on a flop or later; far too slow preflop.
    """
    b, d = _common.board_dead(board, dead)
    heroes = _eval7_options(hero_range, mask(b) | mask(d))
    return _exact_heads_up(heroes, villain_range, b, d, max_evaluations,
                           f"{len(heroes)} hero combos, {{calls}} py_hand_vs_range_exact calls")


def eval7_equity_monte_carlo(hero: str, villain: str, board: Cards = "", *,
                             iterations: int = 1_000_000) -> PeerEquity:
    """Heads-up Monte Carlo through eval7's native ``py_hand_vs_range_monte_carlo``.

    ``hero`` an exact hand; ``villain`` a hand, an eval7 range or ``"random"`` (weights
    ignored; combos are used in turn, not drawn). Always one thread, unseeded, no dead cards.
    ``iterations`` < 2**31. Returns [hero, villain].
    """
    e7 = import_peer("eval7")
    b = parse_cards(board)
    h = parse_cards(hero)
    if h.size != 2:
        raise PeerUnsupported("eval7: hero must be one exact two-card hand")
    table = _cards()
    options = _eval7_options(villain, mask(h) | mask(b))
    if not options:
        raise ValueError("eval7: no villain combo fits")
    opt_list = _range(table, options)
    hero_cards = [table[c] for c in h.tolist()]
    board_cards = [table[c] for c in b.tolist()]
    t0 = time.perf_counter()
    eq = float(e7.py_hand_vs_range_monte_carlo(hero_cards, opt_list, board_cards, int(iterations)))
    return _heads_up(eq, False, int(iterations), time.perf_counter() - t0,
                     "py_hand_vs_range_monte_carlo, one thread")


def eval7_range_equity_monte_carlo(hero_range: str, villain_range: str, board: Cards = "", *,
                                   iterations: int = 100_000) -> PeerEquity:
    """Heads-up range-vs-range Monte Carlo through eval7's ``py_all_hands_vs_range``
    (``iterations`` per hero combo; exact per combo on a complete board). Hero combos are
    pooled with weight = number of villain combos that fit them, the usual convention.
    """
    e7 = import_peer("eval7")
    b = parse_cards(board)
    table = _cards()
    heroes = _eval7_options(hero_range, mask(b))
    villains = _eval7_options(villain_range, mask(b))
    hero_list, vil_list = _range(table, heroes), _range(table, villains)
    board_cards = [table[c] for c in b.tolist()]
    t0 = time.perf_counter()
    res = e7.py_all_hands_vs_range(hero_list, vil_list, board_cards, int(iterations))
    dt = time.perf_counter() - t0
    vm = [mask(v) for v in villains]
    num = den = 0.0
    for (c1, c2), eq in res.items():
        hm = mask(parse_cards(str(c1) + str(c2)).tolist())
        w = sum(1 for m in vm if not m & hm)
        num += w * float(eq)
        den += w
    if den == 0:
        raise ValueError("eval7: no valid deal")
    return _heads_up(num / den, False, int(iterations) * len(res), dt,
                     "py_all_hands_vs_range, one thread")
