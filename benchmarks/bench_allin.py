"""All-in EV speed: ``simulate.allin_ev`` against the peers, one thread each.

No peer library settles side pots, so the peer side does what a user of one would:
one equity call per pot (the pot's eligible hands, every other live hand as dead
cards) and ``amount x equity`` summed per seat. That ignores odd chips and, sampled,
deals each pot its own runouts (three pots = three times the deals).

* four players all in preflop with two side pots (``SPOT4``), 1,000,000 Monte Carlo
  runouts: ours (target <= 0.5 s, one thread) vs poker-equity's seeded Monte Carlo
  with 1,000,000 deals per pot; also the exact walk (1,086,008 runouts) vs OMPEval's
  exact enumeration per pot;
* three-way all in on the flop (``SPOT3``), exact: ours (target <= 10 ms) vs OMPEval
  and poker-equity exact per pot;
* the issue's spots: ``SPOT4X`` exact preflop (target <= 2 ms on one thread, against
  OMPEval's exact call per pot), ``SPOTRX`` ranged on the turn (exact, within 2x of
  ``equity`` on the same ranges), and 120 synthetic all-in hand histories (2 to 6
  players, side pots) replayed in process (target <= 0.25 s);
* ranges (``SPOTR``: ``QQ+`` vs ``AhKh`` vs ``random``, equal stacks, so one pot and the
  peers' range equity x pot is the same answer): exact on the turn (397,320 deals) vs
  OMPEval and poker-equity exact, and 1,000,000 Monte Carlo deals preflop vs
  poker-equity's 1,000,000.

``pytest benchmarks/bench_allin.py --benchmark-enable`` times each piece with
pytest-benchmark; in the normal test run (``--benchmark-disable``) each runs once as a
smoke test. ``python benchmarks/bench_allin.py [--json] [--repeat N] [--quick]`` prints
the side-by-side medians and per-round ratios (:func:`simulate.bench.script_main`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import peers  # noqa: E402

from simulate import allin_ev  # noqa: E402
from simulate.bench import Comparison, Side, script_main  # noqa: E402
from simulate.notation.phh_synth import allin_hands  # noqa: E402

SPOT4 = ["AhAs:100", "KdKc:60", "QhQs:30", "JcJd:100"]  # main pot + two side pots
SPOT3 = ["AhAs:100", "KdKc:60", "QhQs:30"]  # main pot + one side pot (+40 returned)
FLOP = "Ks8h2c"
SPOTR = ["QQ+:100", "AhKh:100", "random:100"]  # ranges, one pot of 300
TURN = "Ks8h2c4d"


def _need(peer: str) -> None:
    if not peers.available(peer):
        pytest.skip(f"{peer} not installed")


def per_pot_ev(specs: list[str], board: str, equity_call: Callable[..., peers.PeerEquity]
               ) -> list[float]:
    """Expected payout per seat from one peer equity call per pot (no odd chips)."""
    from simulate.pots import build_pots

    hands = [s.rsplit(":", 1)[0] for s in specs]
    chips = [int(s.rsplit(":", 1)[1]) for s in specs]
    structure = build_pots(chips, [True] * len(specs))
    payout = [float(r) for r in structure.returned]
    for pot in structure.pots:
        live = [hands[s] for s in pot.eligible]
        dead = "".join(hands[s] for s in range(len(hands)) if s not in pot.eligible)
        if len(live) == 1:
            payout[pot.eligible[0]] += pot.amount
            continue
        eq = equity_call(live, board, dead).equities
        for s, e in zip(pot.eligible, eq, strict=True):
            payout[s] += pot.amount * e
    return payout


def ours_mc4() -> list[float]:
    r = allin_ev(SPOT4, samples=1_000_000, seed=1, threads=1)
    return [p.expected_payout for p in r.players]


def ours_exact4() -> list[float]:
    r = allin_ev(SPOT4, exact=True, threads=1)
    return [p.expected_payout for p in r.players]


def ours_flop3() -> list[float]:
    r = allin_ev(SPOT3, FLOP, exact=True, threads=1)
    return [p.expected_payout for p in r.players]


def pe_mc4() -> list[float]:
    return per_pot_ev(SPOT4, "", lambda h, b, d: peers.poker_equity_monte_carlo(
        h, b, d, samples=1_000_000, seed=1, threads=1))


def omp_exact4() -> list[float]:
    return per_pot_ev(SPOT4, "", lambda h, b, d: peers.ompeval_equity(h, b, d, exact=True,
                                                                      threads=1))


def omp_flop3() -> list[float]:
    return per_pot_ev(SPOT3, FLOP, lambda h, b, d: peers.ompeval_equity(h, b, d, exact=True,
                                                                        threads=1))


def pe_flop3() -> list[float]:
    return per_pot_ev(SPOT3, FLOP, peers.poker_equity_exact)


def ours_range_turn() -> list[float]:
    r = allin_ev(SPOTR, TURN, exact=True, threads=1)
    return [p.expected_payout for p in r.players]


def ours_range_mc() -> list[float]:
    r = allin_ev(SPOTR, samples=1_000_000, seed=1, threads=1)
    return [p.expected_payout for p in r.players]


def _range_hands() -> list[str]:
    return [s.rsplit(":", 1)[0] for s in SPOTR]


def omp_range_turn() -> list[float]:
    return [300 * e for e in peers.ompeval_equity(_range_hands(), TURN, exact=True,
                                                 threads=1).equities]


def pe_range_turn() -> list[float]:
    return [300 * e for e in peers.poker_equity_exact(_range_hands(), TURN).equities]


def pe_range_mc() -> list[float]:
    return [300 * e for e in peers.poker_equity_monte_carlo(
        _range_hands(), "", samples=1_000_000, seed=1, threads=1).equities]


EXACT4 = [188.2039, 39.4274, 17.1203, 45.2484]

# ---------------------------------------------------------------- the spots
SPOT4X = ["AhAs:60", "KdKc:120", "QhQs:240", "JcTc:500"]  # 3 pots, 260 returned to JcTc
SPOTRX = ["QQ+,AKs:100", "AhKh:60", "random:30"]          # ranged, on TURN


def ours_exact4x() -> list[float]:
    """Exact, one thread: the reduced walk into the pots scorer (target <= 2 ms)."""
    return [p.expected_payout for p in allin_ev(SPOT4X, exact=True, threads=1).players]


def omp_exact4x() -> list[float]:
    return per_pot_ev(SPOT4X, "", lambda h, b, d: peers.ompeval_equity(h, b, d, exact=True,
                                                                       threads=1))


def ours_ranged_x() -> list[float]:
    """Exact (the default picks it), one thread; target: within 2x of ``equity``."""
    r = allin_ev(SPOTRX, TURN, threads=1)
    assert r.exact
    return [p.expected_payout for p in r.players]


def equity_ranged_x() -> list[float]:
    from simulate import equity

    r = equity([s.rsplit(":", 1)[0] for s in SPOTRX], TURN, threads=1)
    assert r.exact
    return [p.equity for p in r.players]


def replay_hands(hands: list[object]) -> int:
    """Replay parsed hands in process (``pokerjit hand``'s work without the process start);
    returns how many got an exact all-in EV."""
    from simulate.replay.hand_replay import replay

    return sum(bool(replay(h, "bench").allin_exact) for h in hands)  # type: ignore[arg-type]


def parsed_allin_hands(count: int = 120) -> list[object]:
    from simulate.notation.phh_read import parse_text

    return [parse_text(t)[0][1] for t in allin_hands(count)]
RANGE_PREFLOP = [166.2, 91.5, 42.3]  # about: 300 x range equity preflop


# ---------------------------------------------------------------- pytest-benchmark
def _near(want: list[float], tol: float) -> Callable[[list[float]], None]:
    def check(got: list[float]) -> None:
        assert got == pytest.approx(want, abs=tol)

    return check


def _near_ours(ours: Callable[[], list[float]]) -> Callable[[list[float]], None]:
    def check(got: list[float]) -> None:
        assert got == pytest.approx(ours(), abs=0.01)  # odd chips aside

    return check


def _total(chips: float) -> Callable[[list[float]], None]:
    def check(got: list[float]) -> None:
        assert sum(got) == pytest.approx(chips)

    return check


#: Every timed piece: (pytest-benchmark group after ``allin-``, ``ours`` or the peer library,
#: the function, pedantic rounds or None for pytest-benchmark's own choice, the answer's check).
PIECES = [
    ("preflop-4way-mc", "ours", ours_mc4, None, _near(EXACT4, 0.6)),
    ("preflop-4way-mc", "poker_equity", pe_mc4, 1, _near(EXACT4, 0.6)),
    ("preflop-4way-exact", "ours", ours_exact4, 3, _near(EXACT4, 1e-4)),
    ("preflop-4way-exact", "ompeval", omp_exact4, 3, _near(EXACT4, 1e-4)),
    ("flop-3way-exact", "ours", ours_flop3, None, _total(190)),
    ("flop-3way-exact", "ompeval", omp_flop3, None, _near_ours(ours_flop3)),
    ("flop-3way-exact", "poker_equity", pe_flop3, None, _near_ours(ours_flop3)),
    ("ranges-turn-exact", "ours", ours_range_turn, None, _total(300)),
    ("ranges-turn-exact", "ompeval", omp_range_turn, None, _near_ours(ours_range_turn)),
    ("ranges-preflop-mc", "ours", ours_range_mc, 1, _near(RANGE_PREFLOP, 0.6)),
    ("ranges-preflop-mc", "poker_equity", pe_range_mc, 1, _near(RANGE_PREFLOP, 0.6)),
    ("preflop-4way-exact-issue", "ours", ours_exact4x, None, _total(920)),
    ("preflop-4way-exact-issue", "ompeval", omp_exact4x, 3, _near_ours(ours_exact4x)),
    ("ranged-turn-issue", "ours", ours_ranged_x, None, _total(190)),
    ("ranged-turn-issue", "equity", equity_ranged_x, None, _total(1)),
]


@pytest.mark.parametrize(("group", "side", "fn", "rounds", "check"),
                         [pytest.param(*p, id=f"{p[0]}-{p[1]}",
                                       # the peer's side of a piece: the slow set
                                       marks=[pytest.mark.slow] if p[1] != "ours" else [])
                          for p in PIECES])
def test_piece(benchmark, group: str, side: str, fn: Callable[[], list[float]],
               rounds: int | None, check: Callable[[list[float]], None]) -> None:
    """Each piece timed in its group, ours and the peers' side by side; every answer checked
    (a peer that is not installed is skipped)."""
    if side not in ("ours", "equity"):
        _need(side)
    benchmark.group = f"allin-{group}"
    check(benchmark(fn) if rounds is None else benchmark.pedantic(fn, rounds=rounds,
                                                                  iterations=1))


@pytest.mark.benchmark(group="allin-replay-120")
def test_replay_120_allin_hands(benchmark):
    hands = parsed_allin_hands(120)
    assert benchmark.pedantic(replay_hands, (hands,), rounds=3, iterations=1) == 120


# ---------------------------------------------------------------- side-by-side report
def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    """Every spot, ours first and then each available peer, alternating round by round."""
    hands = parsed_allin_hands(120)

    def peer(name: str, fn: Callable[[], object], lib: str) -> Side:
        return Side(name, fn, available=peers.available(lib))

    one_m = 1 if args.quick else max(1, args.repeat // 2)  # the 1M-deal spots: fewer rounds
    return [
        Comparison("issue spot AhAs:60 KdKc:120 QhQs:240 JcTc:500, exact (target <= 2 ms)",
                   [Side("pokerjit", ours_exact4x),
                    peer("ompeval (per pot)", omp_exact4x, "ompeval")], min_rep_s=0.05),
        Comparison("QQ+,AKs:100 AhKh:60 random:30 on Ks8h2c4d, exact (target <= 2x equity)",
                   [Side("pokerjit", ours_ranged_x),
                    Side("pokerjit equity, same ranges", equity_ranged_x)], min_rep_s=0.05),
        Comparison("replay 120 all-in hand histories in process (target <= 0.25 s)",
                   [Side("pokerjit", lambda: replay_hands(hands), work=120,
                         check=lambda n: _expect(n == 120, f"{n} exact all-in EVs"))],
                   unit="hands"),
        Comparison("preflop 4-way, 2 side pots, 1M Monte Carlo runouts",
                   [Side("pokerjit", ours_mc4),
                    peer("poker_equity (1M per pot)", pe_mc4, "poker_equity")], repeat=one_m),
        Comparison("preflop 4-way, 2 side pots, exact (1,086,008 runouts)",
                   [Side("pokerjit", ours_exact4),
                    peer("ompeval (per pot)", omp_exact4, "ompeval")]),
        Comparison("flop 3-way, exact (903 runouts)",
                   [Side("pokerjit", ours_flop3), peer("ompeval (per pot)", omp_flop3, "ompeval"),
                    peer("poker_equity (per pot)", pe_flop3, "poker_equity")], min_rep_s=0.05),
        Comparison("ranges QQ+/AhKh/random, turn, exact (397,320 deals)",
                   [Side("pokerjit", ours_range_turn), peer("ompeval", omp_range_turn, "ompeval"),
                    peer("poker_equity", pe_range_turn, "poker_equity")]),
        Comparison("ranges QQ+/AhKh/random, preflop, 1M Monte Carlo deals",
                   [Side("pokerjit", ours_range_mc),
                    peer("poker_equity (1M)", pe_range_mc, "poker_equity")], repeat=one_m),
    ]


def _expect(ok: bool, what: str) -> None:
    if not ok:
        raise AssertionError(what)


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons, repeat=5))
