"""Slow, obvious references the tests compare the fast code with, written from the rules
and independently of the lookup tables and kernels.

* Hands: a five-card hand is scored as a tuple ``(category, tiebreak ranks...)`` straight
  from the rules (category 0 = high card .. 8 = straight flush); 6 and 7 cards take the max
  over every five-card subset; Omaha the max over every 2 hole + 3 board choice.
* Boards: every completion of a board from the cards nobody holds.
* Equity: pure-Python walks of every runout over the scalar evaluator (Hold'em counts of
  wins, ties and pot shares; Omaha equities as fractions).
* Pots: built by peeling one chip at a time off every commitment, and settled by dealing
  chips one at a time round the tied winners starting left of the button (the odd-chip rule).
* Whole walks too long for pure Python (preflop spots): every runout as one numpy array,
  every hand of every runout scored in one call of the public ``evaluate_batch`` (checked
  against :func:`five_card_tuple` in ``test_hands``), then the pots dealt out with numpy
  (:func:`holdem_walk`, :func:`allin_walk`), so they share nothing with the engines'
  reduced walks or their scorer, and compile nothing.

Only public names of the code under test are imported here.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from fractions import Fraction

import numpy as np

from evaluator import CATEGORIES, category, evaluate_batch
from evaluator.cards import CardError, parse_cards
from evaluator.hands import strength_of_ids
from simulate.ranges import parse_range

#: Pot share unit: the least common multiple of 1..10, so a k-way split of one pot among
#: up to ten players is a whole number of units.
SHARE_UNIT = math.lcm(*range(1, 11))


# -------------------- hands
def five_card_tuple(cards: Sequence[int], wheel: tuple[int, ...] = (12, 3, 2, 1, 0)
                    ) -> tuple[int, ...]:
    """``(category, tiebreak ranks...)`` of five cards, categories numbered 0 (high card) to
    8 (straight flush) in Hold'em's order; ``wheel`` is the deck's lowest straight, ace
    first (it plays as high as its second card)."""
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    # groups ordered by (count, rank), both descending
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len(suits) == 1
    distinct = sorted(counts, reverse=True)
    straight_high = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_high = distinct[0]
        elif tuple(distinct) == wheel:  # A-2-3-4-5 plays five high
            straight_high = wheel[1]
    if straight_high is not None and flush:
        return (8, straight_high)
    if groups[0][1] == 4:
        return (7, groups[0][0], groups[1][0])
    if groups[0][1] == 3 and groups[1][1] == 2:
        return (6, groups[0][0], groups[1][0])
    if flush:
        return (5, *ranks)
    if straight_high is not None:
        return (4, straight_high)
    if groups[0][1] == 3:
        return (3, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2 and groups[1][1] == 2:
        return (2, groups[0][0], groups[1][0], groups[2][0])
    if groups[0][1] == 2:
        return (1, groups[0][0], *[g[0] for g in groups[1:]])
    return (0, *ranks)


def best_tuple(cards: Sequence[int]) -> tuple[int, ...]:
    """Best five-card tuple among ``cards`` (5..7 card ids)."""
    return max(five_card_tuple(f) for f in itertools.combinations(cards, 5))


def omaha_tuple(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...]:
    """Best Omaha hand: max of :func:`five_card_tuple` over exactly 2 hole + 3 board cards."""
    return max(five_card_tuple(list(p) + list(t)) for p in itertools.combinations(hole, 2)
               for t in itertools.combinations(board, 3))


def omaha_strength(hole: list[int], board: list[int]) -> int:
    """Best Omaha strength (1..7462) by the scalar evaluator: max over 2 hole x 3 board."""
    return max(strength_of_ids(p + t) for p in itertools.combinations(hole, 2)
               for t in itertools.combinations(board, 3))


def omaha_batch(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """``ndarray[N]``: max over all 2 x 3 combinations of ``holes[N, h]`` and ``boards[N, b]``,
    each scored by the five-card batch evaluator (numpy over every combination at once)."""
    pairs = list(itertools.combinations(range(holes.shape[1]), 2))
    triples = list(itertools.combinations(range(boards.shape[1]), 3))
    combos = [np.concatenate([holes[:, list(p)], boards[:, list(t)]], axis=1)
              for p in pairs for t in triples]
    five = np.stack(combos, axis=1).reshape(-1, 5)
    return evaluate_batch(five, check=False).reshape(len(holes), -1).max(axis=1)


@functools.cache
def category_of_strength() -> np.ndarray:
    """``ndarray[7463] uint8``: category index 0..8 (in ``CATEGORIES`` order) of each strength
    1..7462, by the public :func:`evaluator.category` one strength at a time (index 0 unused)."""
    out = np.zeros(7463, np.uint8)
    for s in range(1, 7463):
        out[s] = CATEGORIES.index(category(s))
    return out


def first_bad_row(cards: np.ndarray) -> int:
    """The first row of ``cards`` (``[N, k]`` ids) holding an id over 51 or a repeated id,
    else -1: what ``evaluate_batch``'s check must report."""
    for i, row in enumerate(cards.tolist()):
        if max(row) > 51 or len(set(row)) < len(row):
            return i
    return -1


# -------------------- boards and equity walks
def runouts(board: Sequence[int], used: Iterable[int]) -> Iterator[list[int]]:
    """Every five-card completion of ``board`` from the cards not in ``used`` (the board's
    own cards are excluded too), in ``itertools.combinations`` order."""
    gone = set(used) | set(board)
    deck = [c for c in range(52) if c not in gone]
    for extra in itertools.combinations(deck, 5 - len(board)):
        yield list(board) + list(extra)


def holdem_counts(hands, board="", dead=""):
    """Pure-Python walk of every runout over ``strength_of_ids``: (res int[P,3], cats int[P,9],
    runouts) with res = wins, ties, pot share in 1/2520 units."""
    holes = [parse_cards(h) for h in hands]
    b = parse_cards(board)
    used = set(parse_cards(dead)) | {c for h in holes for c in h}
    cat_of = category_of_strength()
    res = np.zeros((len(hands), 3), np.int64)
    cats = np.zeros((len(hands), 9), np.int64)
    n = 0
    for full in runouts(b, used):
        s = [strength_of_ids(h + full) for h in holes]
        best = max(s)
        k = s.count(best)
        for p, v in enumerate(s):
            cats[p, cat_of[v]] += 1
            if v == best:
                res[p, 0 if k == 1 else 1] += 1
                res[p, 2] += SHARE_UNIT // k
        n += 1
    return res, cats, n


def holdem_equities(hands, board=(), dead=()) -> list[float]:
    """Pot share per hand over every runout (:func:`holdem_counts` divided out)."""
    res, _cats, n = holdem_counts(hands, board, dead)
    return [int(r[2]) / SHARE_UNIT / n for r in res]


def omaha_equity_walk(hands: list[str], board: str, dead: str = ""):
    """Pure-Python walk over every runout: (equity, win, tie, categories) as Fractions."""
    hs = [parse_cards(h) for h in hands]
    b = parse_cards(board)
    used = set(parse_cards(dead)) | {c for h in hs for c in h}
    n_p = len(hs)
    eq = [Fraction(0)] * n_p
    win = [0] * n_p
    tie = [0] * n_p
    cats: list[dict[str, int]] = [{} for _ in hs]
    runs = list(runouts(b, used))
    for full in runs:
        s = [omaha_strength(h, full) for h in hs]
        top = max(s)
        winners = [i for i, v in enumerate(s) if v == top]
        for i in range(n_p):
            c = category(s[i])
            cats[i][c] = cats[i].get(c, 0) + 1
        for i in winners:
            eq[i] += Fraction(1, len(winners))
            if len(winners) == 1:
                win[i] += 1
            else:
                tie[i] += 1
    n = len(runs)
    return ([e / n for e in eq], [Fraction(w, n) for w in win], [Fraction(t, n) for t in tie],
            [{k: Fraction(v, n) for k, v in c.items()} for c in cats], n)


def runout_boards(board: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """``uint8[R, 5]``: ``board`` (uint8[B]) completed with every ``5 - B`` cards of ``deck``
    (uint8[M]), in ``itertools.combinations`` order."""
    k = 5 - len(board)
    n = math.comb(len(deck), k)
    idx = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(len(deck)), k)),
                      np.int64, count=n * k).reshape(n, k)
    return np.concatenate([np.broadcast_to(np.asarray(board, np.uint8), (len(idx), len(board))),
                           np.asarray(deck, np.uint8)[idx]], axis=1)


def runout_strengths(hole: np.ndarray, board: np.ndarray, deck: np.ndarray,
                     game: str = "holdem") -> np.ndarray:
    """``int64[R, P]``: the strength of each hand ``hole[p]`` (uint8[P, 2]) on every runout
    of :func:`runout_boards`, by one ``evaluate_batch`` call over every seven-card hand
    (``game``: the evaluator's scale)."""
    runs = runout_boards(board, deck)
    n_p = len(hole)
    seven = np.concatenate([np.broadcast_to(runs[:, None, :], (len(runs), n_p, 5)),
                            np.broadcast_to(np.asarray(hole, np.uint8)[None], (len(runs), n_p, 2))],
                           axis=2)
    return evaluate_batch(seven.reshape(-1, 7), check=False,
                          game=game).astype(np.int64).reshape(-1, n_p)


def holdem_walk(hole, board, deck, cat_of, res, cats, game="holdem") -> int:
    """A plain walk of every runout (no reductions: each hand of each runout scored), apart
    from the engine's reduced walk and scorer: adds per player wins, ties and pot share in
    ``SHARE_UNIT`` units to ``res`` int64[P, 3] and a count per category (``cat_of``
    uint8[7463]) to ``cats`` int64[P, 9]; returns the runouts. ``hole`` uint8[P, 2],
    ``board`` uint8[B], ``deck`` uint8[M] (the cards left)."""
    st = runout_strengths(hole, board, deck, game)
    best = st == st.max(axis=1, keepdims=True)
    k = best.sum(axis=1, keepdims=True)
    res[:, 0] += (best & (k == 1)).sum(axis=0)
    res[:, 1] += (best & (k > 1)).sum(axis=0)
    res[:, 2] += (best * (SHARE_UNIT // k)).sum(axis=0)
    for p in range(st.shape[1]):
        cats[p] += np.bincount(np.asarray(cat_of)[st[:, p]], minlength=9)
    return len(st)


# -------------------- pots and all-in walks
def ref_pots(committed: Sequence[int], live: Sequence[bool]
             ) -> tuple[list[tuple[int, tuple[int, ...]]], list[int]]:
    """``(pots, returned)``: pots as ``(amount, eligible seats)`` from the bottom up, built by
    peeling one chip at a time off every commitment (one-chip layers with the same eligible
    seats merged); a chip nobody else matched goes back to its seat (``returned``)."""
    left = list(committed)
    pots: list[list] = []
    returned = [0] * len(committed)
    while any(left):
        payers = [s for s, c in enumerate(left) if c]
        for s in payers:
            left[s] -= 1
        if len(payers) == 1:
            returned[payers[0]] += 1
            continue
        elig = tuple(s for s in payers if live[s])
        assert elig, "reference: dead money above every live commitment"
        if pots and pots[-1][1] == elig:
            pots[-1][0] += len(payers)
        else:
            pots.append([len(payers), elig])
    return [(a, e) for a, e in pots], returned


def ref_settle_runout(pots: Sequence[tuple[int, Sequence[int]]], returned: Sequence[int],
                      strengths: Sequence, button: int) -> tuple[list[int], list[list[int]]]:
    """Chips back per seat, and per ``[pot][seat]``, for one finished board: each pot is dealt
    one chip at a time round its best eligible hands, starting left of the ``button``.
    ``strengths[s]``: any comparable value (higher wins), ``None`` for a folded seat."""
    n = len(returned)
    payout = list(returned)
    per_pot = [[0] * n for _ in pots]
    order = [(button + 1 + i) % n for i in range(n)]
    for p, (amount, elig) in enumerate(pots):
        best = max(strengths[s] for s in elig)
        winners = [s for s in order if s in elig and strengths[s] == best]
        for chip in range(amount):
            w = winners[chip % len(winners)]
            payout[w] += 1
            per_pot[p][w] += 1
    return payout, per_pot


def ref_score_rows(rows: Sequence[Sequence[int]], weights: Sequence[int],
                   amounts: Sequence[int], eligible: Sequence[Sequence[bool]],
                   order: Sequence[int], cat_of: Sequence[int] | None = None):
    """The showdown scorer, the slow way, in player space: each row of strengths (higher
    wins) with weight ``w`` deals every pot ``p`` of ``amounts[p]`` chips one chip at a time
    round its best eligible players, taken in ``order`` from the first; each chip counts
    ``w``. Returns ``(win [P][L], pay [L], stats [L][2], cats [L][9])``: chips x weight won
    per pot and in all, and (pot 0) the weight of rows each player won alone or tied, and of
    rows by the category ``cat_of[strength]`` of each player's hand (zeros without
    ``cat_of``)."""
    n_pots, n = len(amounts), len(order)
    win = [[0] * n for _ in range(n_pots)]
    stats = [[0, 0] for _ in range(n)]
    cats = [[0] * 9 for _ in range(n)]
    for st, w in zip(rows, weights, strict=True):
        for p in range(n_pots):
            elig = [i for i in range(n) if eligible[p][i]]
            if not elig:
                continue
            top = max(st[i] for i in elig)
            winners = [i for i in order if eligible[p][i] and st[i] == top]
            # dealt round the winners one chip at a time: every full round gives each one
            # chip, the chips of the last, short round go to the first winners in order
            rounds, left = divmod(amounts[p], len(winners))
            for j, i in enumerate(winners):
                win[p][i] += w * (rounds + (j < left))
            if p == 0:
                for i in winners:
                    stats[i][0 if len(winners) == 1 else 1] += w
        if cat_of is not None:
            for i in range(n):
                cats[i][cat_of[st[i]]] += w
    pay = [sum(win[p][i] for p in range(n_pots)) for i in range(n)]
    return win, pay, stats, cats


def ref_settle(committed: Sequence[int], live: Sequence[bool], strengths: Sequence,
               button: int) -> list[int]:
    """Chips back per seat for one finished board: :func:`ref_pots` of the commitments, then
    :func:`ref_settle_runout` (``strengths[s]`` comparable, higher wins; folded seats' values
    are ignored)."""
    return ref_settle_runout(*ref_pots(committed, live), strengths, button)[0]


def allin_totals(hands, committed, board, dead=(), button=0):
    """Every runout settled by the reference dealer, Hold'em hands by ``strength_of_ids``
    (``hands[s]``: two card ids, ``None`` for a folded seat): ``(payout sums per seat,
    per-pot sums [pot][seat], runouts, pots)``."""
    live = [h is not None for h in hands]
    pots, returned = ref_pots(committed, live)
    used = set(dead) | {c for h in hands if h for c in h}
    n = len(hands)
    totals = [0] * n
    pot_totals = [[0] * n for _ in pots]
    n_runs = 0
    for full in runouts(board, used):
        strengths = [strength_of_ids(full + h) if h else None for h in hands]
        pay, per_pot = ref_settle_runout(pots, returned, strengths, button)
        for s in range(n):
            totals[s] += pay[s]
            for p in range(len(pots)):
                pot_totals[p][s] += per_pot[p][s]
        n_runs += 1
    return totals, pot_totals, n_runs, pots


def allin_walk(hole, board, deck, amounts, eligible, order, win) -> int:
    """A plain walk of every runout (each hand of each runout scored), apart from the
    engine's reduced walk and scorer: each pot ``p`` of ``amounts[p]`` chips goes in equal
    shares to its best ``eligible[p]`` hands and its odd chips one each to the first of them
    in ``order`` (int64[L], the odd-chip order); adds the chip totals to ``win`` int64[P, L]
    and returns the runouts. ``hole`` uint8[L, 2], ``board``, ``deck`` as in
    :func:`holdem_walk`."""
    st = runout_strengths(hole, board, deck)
    order = np.asarray(order, np.int64)
    for p, amount in enumerate(np.asarray(amounts, np.int64).tolist()):
        elig = np.asarray(eligible[p], bool)
        masked = np.where(elig[None, :], st, -1)
        won = (masked == masked.max(axis=1, keepdims=True)) & elig[None, :]
        k = won.sum(axis=1, keepdims=True)
        in_order = won[:, order]
        first = in_order & (np.cumsum(in_order, axis=1) <= amount % k)
        odd = np.zeros_like(won)
        odd[:, order] = first
        win[p] += (won * (amount // k) + odd).sum(axis=0)
    return len(st)


# -------------------- ranges
_RANKS = "23456789TJQKA"


def expand_range(spec: str) -> dict[tuple[int, int], float]:
    """A tiny independent expander for the few shapes the brute-force spots use: exact hands,
    pairs 'QQ', classes 'AKs'/'AKo'/'AK', 'random', each optionally ':w', comma-joined."""
    out: dict[tuple[int, int], float] = {}
    for item in spec.split(","):
        body, _, w = item.partition(":")
        weight = float(w) if w else 1.0
        if body == "random":
            out.update({(a, b): weight for a in range(52) for b in range(a + 1, 52)})
            continue
        if len(body) == 4:
            a, b = parse_cards(body)
            out[(min(a, b), max(a, b))] = weight
            continue
        r1, r2 = _RANKS.index(body[0]), _RANKS.index(body[1])
        kind = body[2:] or "both"
        for a in range(52):
            for b in range(a + 1, 52):
                ra, rb = sorted((a >> 2, b >> 2))
                if (ra, rb) != tuple(sorted((r1, r2))):
                    continue
                suited = (a & 3) == (b & 3)
                if r1 != r2 and ((kind == "s" and not suited) or (kind == "o" and suited)):
                    continue
                out[(a, b)] = weight
    return out


def range_equity_walk(specs, board, dead=""):
    """Equities by walking every combo tuple and runout, pure Python, reference evaluator."""
    b = parse_cards(board)
    d = set(parse_cards(dead))
    rs = [{c: w for c, w in expand_range(s).items() if not (set(c) & (set(b) | d))} for s in specs]
    eq = [Fraction(0)] * len(specs)
    total = Fraction(0)
    memo = {}
    for tup in itertools.product(*(list(r.items()) for r in rs)):
        cards = [c for (combo, _) in tup for c in combo]
        if len(set(cards)) != len(cards):
            continue
        w = Fraction(1)
        for _, x in tup:
            w *= Fraction(x)
        for run in runouts(b, d | set(cards)):
            full = tuple(sorted(run))
            vals = []
            for combo, _ in tup:
                key = (combo, full)
                if key not in memo:
                    memo[key] = best_tuple(list(combo) + list(full))
                vals.append(memo[key])
            best = max(vals)
            winners = [i for i, v in enumerate(vals) if v == best]
            for i in winners:
                eq[i] += w / len(winners)
            total += w
    return [float(e / total) for e in eq]


def range_allin_payouts(specs, board, dead="", button=0, dead_money=0, omaha=False):
    """Expected payout per seat: (weighted tuple x runout) average, exact floats."""
    b, d = parse_cards(board), parse_cards(dead)
    seats = []
    for spec in specs:
        cards, chips = spec.rsplit(":", 1)
        if cards == "fold":
            seats.append((None, int(chips)))
            continue
        try:
            seats.append(([(tuple(parse_cards(cards)), 1.0)], int(chips)))
        except CardError:
            r = parse_range(cards)
            seats.append(([(tuple(c), w) for c, w in zip(r.combos.tolist(), r.weights.tolist(),
                                                         strict=True)], int(chips)))
    committed = [c for _, c in seats]
    live = [h is not None for h, _ in seats]
    pots, returned = ref_pots(committed, live)
    if dead_money:
        everyone = tuple(s for s in range(len(seats)) if live[s])
        pots = [(pots[0][0] + dead_money, everyone), *pots[1:]]
    live_seats = [s for s in range(len(seats)) if live[s]]
    total = [0.0] * len(seats)
    weight = 0.0
    for combo in itertools.product(*[seats[s][0] for s in live_seats]):
        cards = [c for hand, _ in combo for c in hand]
        if len(set(cards) | set(b) | set(d)) != len(cards) + len(b) + len(d):
            continue
        w = math.prod(wt for _, wt in combo)
        hands = dict(zip(live_seats, [h for h, _ in combo], strict=True))
        runs = list(runouts(b, set(cards) | set(d)))
        sums = [0] * len(seats)
        for full in runs:
            if omaha:
                st = {s: omaha_tuple(h, full) for s, h in hands.items()}
            else:
                st = {s: strength_of_ids(full + list(h)) for s, h in hands.items()}
            pay, _ = ref_settle_runout(pots, returned, [st.get(s) for s in range(len(seats))],
                                       button)
            for s in range(len(seats)):
                sums[s] += pay[s]
        for s in range(len(seats)):
            total[s] += w * sums[s] / len(runs)
        weight += w
    return [t / weight for t in total]


# -------------------- pineapple
def preflop_class_rank() -> dict[str, int]:
    """Rank 1..169 of each hand class by the shipped preflop order (1 = AA)."""
    from simulate.ranges import preflop_order

    return {h: r for h, _e, r in preflop_order()}


def pineapple_keep_made(hand: Sequence[int], seen: Sequence[int]) -> int:
    """The card the cheap ``made`` policy throws away, from the rules: among the pairs
    (c0, c1), (c0, c2), (c1, c2) of the sorted cards keep the best five-card hand (rules
    tuple, :func:`best_tuple`) with the board seen, then the better preflop class, then the
    first in that order."""
    from simulate.ranges import combo_class

    rank = preflop_class_rank()
    c = sorted(hand)
    best_key, throw = None, None
    for keep, t in (((c[0], c[1]), c[2]), ((c[0], c[2]), c[1]), ((c[1], c[2]), c[0])):
        made = best_tuple(list(keep) + list(seen)) if seen else ()
        key = (made, -rank[combo_class(*keep)])
        if best_key is None or key > best_key:
            best_key, throw = key, t
    return throw


def vs_random_twice_wins_ties(hand: Sequence[int], board: Sequence[int]) -> int:
    """2 x wins + ties of ``hand`` against every opponent hand over every runout of
    ``board`` (3 or 4 cards), the opponent drawn from the cards not in the hand, the board or
    the runout; every 7-card hand of a runout scored in one numpy batch."""
    used = set(hand) | set(board)
    deck = [c for c in range(52) if c not in used]
    k = 5 - len(board)
    total = 0
    for run in itertools.combinations(deck, k):
        full = list(board) + list(run)
        rest = [c for c in deck if c not in run]
        opp = np.array(list(itertools.combinations(rest, 2)), dtype=np.uint8)
        rows = np.concatenate([opp, np.tile(np.array(full, np.uint8), (len(opp), 1))], axis=1)
        theirs = evaluate_batch(rows, check=False)
        mine = strength_of_ids(list(hand) + full)
        total += 2 * int((theirs < mine).sum()) + int((theirs == mine).sum())
    return total


def pineapple_walk(hands: Sequence[Sequence[int]], board: Sequence[int], dead: Sequence[int],
                   dlen: int, discard) -> tuple[list[Fraction], int]:
    """Pot share of each three-card hand over every deal: every completion of ``board`` to
    ``dlen`` cards, each player's discard ``discard(hand, seen_board)``, then every runout;
    scored by :func:`strength_of_ids`. Returns ``(equities, deals)``."""
    used = set(board) | set(dead) | {c for h in hands for c in h}
    deck = [c for c in range(52) if c not in used]
    share = [0] * len(hands)
    n = 0
    for first in itertools.combinations(deck, dlen - len(board)):
        seen = list(board) + list(first)
        kept = []
        for h in hands:
            t = discard(list(h), seen)
            kept.append([c for c in h if c != t])
        rest = [c for c in deck if c not in first]
        for run in itertools.combinations(rest, 5 - dlen):
            full = seen + list(run)
            s = [strength_of_ids(k + full) for k in kept]
            best = max(s)
            w = s.count(best)
            for p, v in enumerate(s):
                if v == best:
                    share[p] += SHARE_UNIT // w
            n += 1
    return [Fraction(x, SHARE_UNIT * n) for x in share], n


# -------------------- short deck
def short_deck_tuple(cards: Sequence[int], triton: bool = False) -> tuple[int, ...]:
    """Comparable tuple of five short-deck cards, from the rules: A-6-7-8-9 is the lowest
    straight (nine high), a flush beats a full house, trips rank below a straight (above
    it with ``triton``). The first entry is the category's place in that order (0 high
    card .. 8 straight flush)."""
    code, *ties = five_card_tuple(cards, wheel=(12, 7, 6, 5, 4))
    # Hold'em's codes: 3 trips, 4 straight, 5 flush, 6 full house; short deck swaps 5 and
    # 6, and Triton also 3 and 4
    place = {5: 6, 6: 5, **({3: 4, 4: 3} if triton else {})}.get(code, code)
    return (place, *ties)


def short_deck_best(cards: Sequence[int], triton: bool = False) -> tuple[int, ...]:
    """Best short-deck tuple among 5..7 card ids."""
    return max(short_deck_tuple(f, triton) for f in itertools.combinations(cards, 5))


SHORT_DECK = tuple(range(16, 52))  # the 36 cards from 6 to A


def short_deck_walk(hands, board="", dead="", *, triton=False, committed=None, button=0):
    """Every runout of the 36-card deck, each hand scored by :func:`short_deck_best` (the
    rules, no tables): ``(equity, win, tie)`` per player as Fractions and the runouts; with
    ``committed`` (chips per seat; ``None`` in ``hands`` is a folded seat) also the
    expected payout per seat (Fractions), the pots built and settled by the reference
    dealer (:func:`ref_pots`, :func:`ref_settle_runout`)."""
    holes = [parse_cards(h) if h is not None else None for h in hands]
    b = parse_cards(board)
    used = set(parse_cards(dead)) | set(b) | {c for h in holes if h for c in h}
    deck = [c for c in SHORT_DECK if c not in used]
    n = len(holes)
    share, win, tie = [0] * n, [0] * n, [0] * n
    pay = [0] * n
    if committed is not None:
        pots, returned = ref_pots(committed, [h is not None for h in holes])
    runs = 0
    for extra in itertools.combinations(deck, 5 - len(b)):
        full = b + list(extra)
        st = [short_deck_best(h + full, triton) if h else None for h in holes]
        best = max(x for x in st if x is not None)
        won = [p for p in range(n) if st[p] == best]
        for p in won:
            share[p] += SHARE_UNIT // len(won)
            (win if len(won) == 1 else tie)[p] += 1
        if committed is not None:
            got, _ = ref_settle_runout(pots, returned, st, button)
            pay = [x + y for x, y in zip(pay, got, strict=True)]
        runs += 1
    eq = [Fraction(x, SHARE_UNIT * runs) for x in share]
    out = (eq, [Fraction(x, runs) for x in win], [Fraction(x, runs) for x in tie], runs)
    if committed is not None:
        return (*out, [Fraction(x, runs) for x in pay])
    return out


# -------------------- eight-or-better low
def low_tuple(cards: Sequence[int]) -> tuple[int, ...] | None:
    """Five cards' low as their ranks high to low (ace = 1), or None: written out from the
    rule (five different ranks, each eight or lower; straights and flushes ignored).
    A smaller tuple is a better low."""
    ranks = [1 if c // 4 == 12 else c // 4 + 2 for c in cards]
    if len(set(ranks)) != 5 or max(ranks) > 8:
        return None
    return tuple(sorted(ranks, reverse=True))


def omaha_low_tuple(hole: Sequence[int], board: Sequence[int]) -> tuple[int, ...] | None:
    """The best (smallest) low tuple using exactly two hole and three board cards."""
    lows = [low_tuple(p + t) for p in itertools.combinations(hole, 2)
            for t in itertools.combinations(board, 3)]
    lows = [x for x in lows if x is not None]
    return min(lows) if lows else None


# -------------------- hi/lo split (Omaha eight or better)
def _deal(chips: int, winners: Sequence[int], out: list[int]) -> None:
    """``chips`` dealt one at a time round ``winners`` (in odd-chip order, from the first)."""
    for chip in range(chips):
        out[winners[chip % len(winners)]] += 1


def ref_hilo_settle_runout(pots: Sequence[tuple[int, Sequence[int]]], returned: Sequence[int],
                           highs: Sequence, lows: Sequence, button: int
                           ) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """One finished hi/lo board, the slow way: each pot on its own goes whole to its best
    high hands when none of its eligible hands has a low; else its high half (the odd chip
    included, ``amount - amount // 2``) to the best highs and ``amount // 2`` to the best
    lows, each half dealt a chip at a time from the seat left of the ``button``. ``highs[s]``
    comparable (higher wins), ``lows[s]`` a :func:`low_tuple` (smaller wins) or None.
    Returns ``(payout per seat, high chips [pot][seat], low chips [pot][seat])``."""
    n = len(returned)
    payout = list(returned)
    order = [(button + 1 + i) % n for i in range(n)]
    hi_chips = [[0] * n for _ in pots]
    lo_chips = [[0] * n for _ in pots]
    for p, (amount, elig) in enumerate(pots):
        best = max(highs[s] for s in elig)
        hw = [s for s in order if s in elig and highs[s] == best]
        with_low = [s for s in elig if lows[s] is not None]
        if not with_low:
            _deal(amount, hw, hi_chips[p])
        else:
            best_low = min(lows[s] for s in with_low)
            lw = [s for s in order if s in elig and lows[s] == best_low]
            _deal(amount - amount // 2, hw, hi_chips[p])
            _deal(amount // 2, lw, lo_chips[p])
        for s in range(n):
            payout[s] += hi_chips[p][s] + lo_chips[p][s]
    return payout, hi_chips, lo_chips


def hilo_equity_walk(hands: list[str], board: str, dead: str = ""):
    """Every runout of an Omaha hi/lo spot by the rule, as Fractions of the pot per player:
    ``(equity, high, low, scoop, n)``; a pot with no low goes whole to the best high(s), else
    half to the best high(s) and half to the best low(s), each half split evenly."""
    hs = [parse_cards(h) for h in hands]
    b = parse_cards(board)
    used = set(parse_cards(dead)) | {c for h in hs for c in h}
    n_p = len(hs)
    high = [Fraction(0)] * n_p
    low = [Fraction(0)] * n_p
    scoop = [0] * n_p
    runs = list(runouts(b, used))
    for full in runs:
        hv = [omaha_tuple(h, full) for h in hs]
        lv = [omaha_low_tuple(h, full) for h in hs]
        hw = [i for i in range(n_p) if hv[i] == max(hv)]
        lows = [x for x in lv if x is not None]
        lw = [i for i in range(n_p) if lows and lv[i] == min(lows)]
        half = Fraction(1, 2) if lw else Fraction(1)
        for i in hw:
            high[i] += half / len(hw)
        for i in lw:
            low[i] += half / len(lw)
        if len(hw) == 1 and (not lw or lw == hw):
            scoop[hw[0]] += 1
    n = len(runs)
    return ([(h + lo) / n for h, lo in zip(high, low, strict=True)], [h / n for h in high],
            [lo / n for lo in low], [Fraction(s, n) for s in scoop], n)


def hilo_allin_totals(hands, committed, board, dead=(), button=0):
    """Every runout of a hi/lo all-in settled by :func:`ref_hilo_settle_runout` (Omaha
    hands as card ids, ``None`` for a folded seat): ``(payout sums per seat, runouts,
    pots)``."""
    live = [h is not None for h in hands]
    pots, returned = ref_pots(committed, live)
    used = set(dead) | {c for h in hands if h for c in h}
    totals = [0] * len(hands)
    n_runs = 0
    for full in runouts(list(board), used):
        highs = [omaha_tuple(h, full) if h else None for h in hands]
        lows = [omaha_low_tuple(h, full) if h else None for h in hands]
        pay, _, _ = ref_hilo_settle_runout(pots, returned, highs, lows, button)
        totals = [t + x for t, x in zip(totals, pay, strict=True)]
        n_runs += 1
    return totals, n_runs, pots


def gather_rows(text: bytes, start: Sequence[int], length: Sequence[int],
                idx: Sequence[Sequence[int]]) -> list[bytes]:
    """Each row of pieces ``idx[r]`` written out: piece ``p`` is
    ``text[start[p]:start[p] + length[p]]`` (:func:`simulate._kernels.text.gather_rows`)."""
    return [b"".join(text[start[p]:start[p] + length[p]] for p in row) for row in idx]


def batch_input_lines(path: str, max_line_bytes: int, skip_line: int = 0
                      ) -> list[tuple[int, bytes | str]]:
    """What :meth:`simulate.batch.files.Input.chunks` gives, read a line at a time:
    ``(line number, bytes)`` of each line that is not blank or a ``#`` comment, without
    its line end (``\\n``, ``\\r\\n`` or a lone ``\\r``; a byte-order mark off the
    first line), or
    ``(line number, message)`` for a line longer than ``max_line_bytes``; line
    ``skip_line`` (a CSV header) left out."""
    out: list[tuple[int, bytes | str]] = []
    with open(path, "rb") as f:
        data = f.read()
    lines = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    if lines[-1] == b"":  # the last line's newline, or an empty file
        lines.pop()
    for n, raw in enumerate(lines, 1):
        if len(raw) > max_line_bytes:
            out.append((n, f"line longer than {max_line_bytes >> 20} MiB"))
            continue
        if n == 1 and raw.startswith(b"\xef\xbb\xbf"):
            raw = raw[3:]
        s = raw.strip()
        if s and not s.startswith(b"#") and n != skip_line:
            out.append((n, raw))
    return out


# -------------------- tournaments
def icm_by_orders(stacks: Sequence[float], payouts: Sequence[float]) -> list[float]:
    """Malmuth-Harville ICM over every finishing order, straight from the rule: an order's
    chance is the product, place by place, of the player's chips over the chips of those
    not yet placed; busted players (0 chips) take the lowest places in the order given."""
    n = len(stacks)
    alive = [i for i in range(n) if stacks[i] > 0]
    busted = [i for i in range(n) if stacks[i] == 0]
    pay = list(payouts) + [0.0] * (n - len(payouts))
    out = [0.0] * n
    for order in itertools.permutations(alive):
        p = 1.0
        left = float(sum(stacks[i] for i in alive))
        for i in order:
            p *= stacks[i] / left
            left -= stacks[i]
        for place, i in enumerate(order):
            out[i] += p * pay[place]
    for place, i in enumerate(busted, start=len(alive)):
        out[i] = pay[place]
    return out


def allin_icm(hands, committed, board, stacks, payouts, dead=(), button=0) -> list[float]:
    """Each seat's ICM equity after an all-in, the slow way: every runout settled by the
    reference dealer (:func:`ref_settle_runout`), the stacks after it (chips behind plus
    chips back) valued by :func:`icm_by_orders`, the busted seats placed by the chips they
    started with (more first, then seat order), averaged over the runouts."""
    live = [h is not None for h in hands]
    pots, returned = ref_pots(committed, live)
    used = set(dead) | {c for h in hands if h for c in h}
    n = len(hands)
    start = [stacks[s] + committed[s] for s in range(n)]
    acc = [0.0] * n
    n_runs = 0
    for full in runouts(board, used):
        strengths = [strength_of_ids(full + h) if h else None for h in hands]
        pay, _ = ref_settle_runout(pots, returned, strengths, button)
        final = [stacks[s] + pay[s] for s in range(n)]
        order = [s for s in range(n) if final[s] > 0]
        order += sorted((s for s in range(n) if final[s] == 0), key=lambda s: (-start[s], s))
        eq = icm_by_orders([final[s] for s in order], payouts)
        for j, s in enumerate(order):
            acc[s] += eq[j]
        n_runs += 1
    return [x / n_runs for x in acc]
