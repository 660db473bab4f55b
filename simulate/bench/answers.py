"""Pinned answers of the benchmark cases, and the checks that compare a result with them.

Every value here comes from outside the code being timed: exact equities as fractions of
integer counts (computed once and cross-checked with OMPEval and poker-equity), all-in payouts
built pot by pot from such equities, and the known category counts of the exhaustive walks.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

C48_5 = math.comb(48, 5)  # heads-up preflop runouts
C46_5 = math.comb(46, 5)  # three-way preflop runouts
C44_5 = math.comb(44, 5)  # Omaha heads-up / 4-player Hold'em preflop runouts
C40_5 = math.comb(40, 5)  # six-player preflop runouts
C32_5 = math.comb(32, 5)  # short-deck heads-up preflop runouts (36 cards)

#: Exact equities (pot shares), pinned as fractions of integer counts. Computed with
#: OMPEval and poker-equity (both agree to the last digit) and with pokerjit.
EXACT = {
    "hu": (["AhKh", "QsQd"],
           [Fraction(1582664, 2 * C48_5), Fraction(1841944, 2 * C48_5)], C48_5),
    "3way": (["AhAs", "KdKc", "QhQs"],
             [Fraction(5469756, 6 * C46_5), Fraction(1552416, 6 * C46_5),
              Fraction(1202352, 6 * C46_5)], C46_5),
    "6way": (["AhKh", "QsQd", "JcTc", "9d9s", "8h7h", "2c2d"],
             [Fraction(x, 60 * C40_5) for x in
              (8701160, 9575840, 6210740, 5267600, 4593380, 5131760)], C40_5),
    # ranges: pinned to 1e-9 (equal to OMPEval's exact answer), deal counts exact
    "range-pre": (["AKs", "random"],
                  [Fraction(0.6704463230923519), Fraction(0.3295536769076481)], 8_390_289_600),
    "range-flop": (["QQ+,AKs", "random"],
                   [Fraction(0.7739227486368181), Fraction(0.2260772513631819)], 23_544_180),
    "omaha": (["AhAsKhKs", "QdJdTc9c"],
              [Fraction(1338564, 2 * C44_5), Fraction(2 * C44_5 - 1338564, 2 * C44_5)], C44_5),
    # short deck (game="short_deck"): pot shares in 1/2520 units, equal to a plain walk that
    # scores every runout with evaluate_batch (tests/test_equity_short_deck.py)
    "short-deck-hu": (["AhKh", "QsQd"], [Fraction(275439780, 2520 * C32_5),
                                         Fraction(232027740, 2520 * C32_5)], C32_5),
    # Omaha hi/lo (game="omaha_hilo") on HILO_BOARD, every C(41, 2) turn and river: equal
    # to tests/reference.py's hilo_equity_walk (five-card high and eight-or-better low
    # written out from the rule); both hold an A-2 low, so the low half is often split
    "omaha-hilo-hu": (["AhAs2c3d", "Ad2dKcQh"], [Fraction(133, 164), Fraction(31, 164)],
                      math.comb(41, 2)),
    # the same before the flop, a low hand against a high one (issue 41's spot), and the
    # same hands as Omaha high: every board scored by the evaluator's Omaha high and low
    # batch kernels (no triple table, no scorer) and the rule applied in integers
    "omaha-hilo-pre": (["Ah2h3c4d", "KsKdQcJh"], [Fraction(619417, C44_5),
                                                  Fraction(466591, C44_5)], C44_5),
    "omaha-hilo-pre-high": (["Ah2h3c4d", "KsKdQcJh"], [Fraction(487439, C44_5),
                                                       Fraction(598569, C44_5)], C44_5),
}
HILO_BOARD = "4s8h9c"
#: the boards of the hi/lo cases (none: before the flop)
HILO_BOARDS = {"omaha-hilo-hu": HILO_BOARD, "omaha-hilo-pre": ""}
#: the same walks' high and low halves of the pot (equity is their sum)
HILO_HALVES = {"omaha-hilo-hu": ([Fraction(397, 656), Fraction(161, 3280)],
                                 [Fraction(135, 656), Fraction(459, 3280)]),
               "omaha-hilo-pre": ([Fraction(282497, C44_5), Fraction(466591, C44_5)],
                                  [Fraction(42115, 135751), Fraction(0)])}


def _pots_ev(parts: Sequence[tuple[int, Sequence[int], Sequence[Fraction]]],
             n_seats: int) -> list[Fraction]:
    """Expected payout per seat: sum over pots of amount x exact equity among its eligible."""
    out = [Fraction(0)] * n_seats
    for amount, seats, eqs in parts:
        for s, e in zip(seats, eqs, strict=True):
            out[s] += amount * e
    return out


#: All-in spots and their exact expected payouts, pot by pot from exact equities (OMPEval,
#: the players outside a pot counted as dead cards); pot sizes divide evenly among any ties.
ALLIN = {
    "pre": (["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:100"], "", _pots_ev([
        (120, (0, 1, 2, 3), [Fraction(x, 12 * C44_5)
                             for x in (7119882, 2419866, 1859274, 1633074)]),
        (90, (0, 1, 3), [Fraction(x, 6 * C44_5) for x in (4272052, 1241320, 1002676)]),
        (80, (0, 3), [Fraction(x, 2 * C44_5) for x in (1727784, 444232)]),
    ], 4), C44_5),
    "flop": (["AhAs:100", "KdKc:100", "QhQs:50"], "Jc8d2h", _pots_ev([
        (150, (0, 1, 2), [Fraction(x, 6 * 903) for x in (4398, 474, 546)]),
        (100, (0, 1), [Fraction(x, 2 * 903) for x in (1648, 158)]),
    ], 3), 903),
}

#: Seven-card category counts over all C(52, 7) hands, and the five-card ones.
WALK_COUNTS = {
    7: {"High Card": 23_294_460, "One Pair": 58_627_800, "Two Pair": 31_433_400,
        "Three of a Kind": 6_461_620, "Straight": 6_180_020, "Flush": 4_047_644,
        "Full House": 3_473_184, "Four of a Kind": 224_848, "Straight Flush": 41_584},
    5: {"High Card": 1_302_540, "One Pair": 1_098_240, "Two Pair": 123_552,
        "Three of a Kind": 54_912, "Straight": 10_200, "Flush": 5_108,
        "Full House": 3_744, "Four of a Kind": 624, "Straight Flush": 40},
}
WALK_DISTINCT = {7: 4824, 5: 7462}


def passed(cond: bool, detail: str) -> tuple[bool, str]:
    """A check's verdict: ``(bool(cond), detail)``."""
    return bool(cond), detail


def _max_err(got: Sequence[float], want: Sequence[Fraction]) -> float:
    """The largest ``|got - want|``."""
    return max(abs(g - float(w)) for g, w in zip(got, want, strict=True))


def _worst_z(res: Any, got: Sequence[float], want: Sequence[Fraction],
             who: Callable[[Any], object]) -> tuple[float, str]:
    """The largest ``|got - want| / std_error`` over ``res.players`` and ``""``, or
    ``(nan, why)`` for the first player (named by ``who``) whose standard error is not
    positive."""
    worst = 0.0
    for p, g, w in zip(res.players, got, want, strict=True):
        if not p.std_error > 0:
            return math.nan, f"{who(p)}: std_error {p.std_error} (want > 0)"
        worst = max(worst, abs(g - float(w)) / p.std_error)
    return worst, ""


def equity_check(res: Any, want: Sequence[Fraction], runouts: int | None,
                  exact: bool) -> tuple[bool, str]:
    """Exact: every equity equals the pinned fraction to 1e-9 and the deal count is right.
    Monte Carlo: every equity within 4 of its own standard errors of the exact value."""
    got = [p.equity for p in res.players]
    if len(got) != len(want):
        return False, f"{len(got)} players in the answer, want {len(want)}"
    if exact:
        err = _max_err(got, want)
        ok = err <= 1e-9 and (runouts is None or res.samples == runouts) and bool(res.exact)
        return ok, (f"equity {got[0]:.9f} vs exact {float(want[0]):.9f} (max err {err:.1e}), "
                    f"{res.samples:,} runouts")
    worst, bad = _worst_z(res, got, want, lambda p: p.hand)
    if bad:
        return False, bad
    ok = worst <= 4.0 and (runouts is None or res.samples == runouts)
    return ok, (f"equity {got[0]:.5f} vs exact {float(want[0]):.5f}; worst |z| = {worst:.2f} "
                f"(<= 4), {res.samples:,} deals")


def peer_equity_check(want: Sequence[Fraction], exact: bool
                       ) -> Callable[[Any], tuple[bool, str]]:
    def check(res: Any) -> tuple[bool, str]:
        got = res.equities
        if exact:
            err = _max_err(got, want)
            return passed(err <= 1e-7, f"{got[0]:.9f} (max err {err:.1e})")
        n = max(1, int(res.samples or 1))
        worst = max(abs(g - float(w)) / max(math.sqrt(float(w) * (1 - float(w)) / n), 1e-12)
                    for g, w in zip(got, want, strict=True))
        return passed(worst <= 4.5, f"{got[0]:.5f}, worst |z| ~ {worst:.2f} ({n:,} deals)")

    return check


def allin_check(spot: str, exact: bool, n: int | None) -> Callable[[Any], tuple[bool, str]]:
    specs, _board, want, runouts = ALLIN[spot]
    total = sum(int(s.split(":")[1]) for s in specs)

    def check(res: Any) -> tuple[bool, str]:
        got = [p.expected_payout for p in res.players]
        cons = abs(sum(got) - total)
        if exact:
            err = _max_err(got, want)
            ok = err <= 1e-9 * total and res.samples == runouts and cons <= 1e-9 * total
            return ok, (f"payouts {', '.join(f'{g:.4f}' for g in got)} vs exact (max err "
                        f"{err:.1e}), chips conserved, {res.samples:,} runouts")
        worst, bad = _worst_z(res, got, want, lambda p: f"seat {p.seat}")
        if bad:
            return False, bad
        ok = worst <= 4.0 and cons <= 1e-6 * total and res.samples == n
        return ok, (f"payouts {', '.join(f'{g:.3f}' for g in got)}; worst |z| vs exact = "
                    f"{worst:.2f} (<= 4), chips conserved, {res.samples:,} runouts")

    return check
