"""The one list of benchmark cases (:data:`CASES`), used by ``pokerjit bench``, the
pytest-benchmark suite ``benchmarks/bench_cases.py`` and ``tests/test_bench.py``.

Each case's ``make(cfg)`` builds its inputs and returns a :class:`~simulate.bench.work.Work`:
the function to time, a tiny first call (the compile), the check of its answer against
:mod:`simulate.bench.answers`, and, with peers, the same work through each peer library.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .answers import (
    ALLIN,
    EXACT,
    HILO_BOARDS,
    HILO_HALVES,
    WALK_COUNTS,
    WALK_DISTINCT,
    allin_check,
    equity_check,
    passed,
    peer_equity_check,
)
from .work import Case, Config, PeerWork, Work, timed


def _omaha_equity(hands: list[str], **kw: Any) -> Any:
    from simulate.equity import equity

    return equity(hands, game="omaha", **kw)


def random_cards(n: int, k: int, seed: int) -> np.ndarray:
    """``ndarray[n, k] uint8``: n rows of k distinct random cards (card ids), the same rows
    for the same ``seed`` (the benchmark inputs, and the tests' random hands)."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        out[lo:hi] = rng.random((hi - lo, 52)).argpartition(k, axis=1)[:, :k]
    return out


def _peer_equity_work(peer: str, path: str, note: str, call: Callable[[], Any],
                      check: Callable[[Any], tuple[bool, str]], *,
                      warm: Callable[[], Any] | None = None,
                      max_reps: int | None = None) -> PeerWork:
    def run() -> tuple[float, int, Any]:
        res = call()
        return res.elapsed_s, int(res.samples or 0), res

    return PeerWork(peer, path, note, run, check, warm, max_reps)


class _EquityPeers:
    """The peers that do a case's equity work: :meth:`add` keeps each one that is installed
    (none without peers), every answer checked against ``want`` (``exact`` or sampled)."""

    def __init__(self, P: Any, want: Any, exact: bool) -> None:
        self.have = set(P.available_peers()) if P is not None else set()
        self.check = peer_equity_check(want, exact)
        self.works: list[PeerWork] = []

    def add(self, peer: str, path: str, note: str, call: Callable[[], Any], *,
            warm: Callable[[], Any] | None = None, max_reps: int | None = None) -> None:
        if peer in self.have:
            self.works.append(_peer_equity_work(peer, path, note, call, self.check, warm=warm,
                                                max_reps=max_reps))


def _make_batch(cfg: Config, all_threads: bool, validate: bool = False) -> Work:
    from evaluator import evaluate_batch
    from evaluator.hands import strength_of_ids

    n = cfg.size(10_000_000, 2_000_000, 20_000)
    threads = cfg.threads if all_threads else 1
    cards = random_cards(n, 7, 12345)
    sample = np.random.default_rng(7).choice(n, size=min(n, 2000), replace=False)
    ref = np.array([strength_of_ids(cards[i].tolist()) for i in sample], dtype=np.int64)
    # the first call takes the same kernel as the timed runs (parallel from 50,000 rows)
    tiny = random_cards(64 if not all_threads else 50_000, 7, 1)

    def check(out: np.ndarray) -> tuple[bool, str]:
        if out.shape != (n,) or out.min() < 1 or out.max() > 7462:
            return False, "strengths out of 1..7462 or wrong shape"
        bad = int(np.count_nonzero(out[sample] != ref))
        return passed(bad == 0, f"{len(sample)} sampled rows vs pure-Python scalar evaluation: "
                             f"{bad} differ; checksum {int(out.sum(dtype=np.int64))}")

    peers = []
    if cfg.peers is not None and not all_threads:
        peers = _batch_peers(cfg, cards, n) if not validate else [_unchecked_work(cards)]
    return Work(compile=lambda: evaluate_batch(tiny, threads=threads, check=validate),
                run=lambda: evaluate_batch(cards, threads=threads, check=validate),
                work=n, check=check, threads=threads, peers=peers,
                detail=f"{n:,} random 7-card hands, evaluate_batch(check={validate})")


#: Largest batch each peer is timed on per mode (full, quick, tiny); rates are compared.
_PEER_CAPS = {"ompeval": (None, None, None), "phevaluator": (2_000_000, 300_000, 5_000),
              "eval7": (500_000, 100_000, 5_000), "poker_equity": (500_000, 100_000, 5_000),
              "treys": (100_000, 20_000, 1_000), "pokerkit": (5_000, 1_000, 200),
              "pokerfast_py": (100_000, 20_000, 1_000)}


def _batch_peers(cfg: Config, cards: np.ndarray, n: int) -> list[PeerWork]:
    P = cfg.peers
    out = []
    for peer in P.available_peers():
        ev = P.evaluator(peer)
        cap = cfg.size(*_PEER_CAPS.get(peer, (100_000, 20_000, 1_000)))
        sub = cards if cap is None else cards[: min(cap, n)]
        native = ev.prepare(sub)
        probe = np.ascontiguousarray(sub[:2000])

        def run(ev: Any = ev, native: Any = native, m: int = len(sub)) -> tuple[float, int, Any]:
            dt, res = timed(lambda: ev.run(native))
            return dt, m, res

        def check(res: np.ndarray, ev: Any = ev, peer: str = peer,
                  probe: np.ndarray = probe) -> tuple[bool, str]:
            from evaluator import evaluate_batch

            ours = evaluate_batch(probe, threads=1).astype(np.int64)
            head = np.asarray(res[: len(probe)], dtype=np.int64)
            if ev.contract is not None:
                return passed(np.array_equal(ev.contract(head), ours),
                           f"same strengths as ours on {len(probe)} hands")
            oriented = head if ev.higher_is_better else -head
            return passed(P.same_order(oriented, ours), f"same order as ours on {len(probe)} hands")

        out.append(PeerWork(peer, ev.path, ev.note, run, check,
                            warm=lambda ev=ev: ev.run(ev.prepare(cards[:100])),
                            max_reps=None if cap is None or cap >= 100_000 else 2))
    return out


def _unchecked_work(cards: np.ndarray) -> PeerWork:
    """``evaluate_batch(check=False)`` as the side-by-side of the checked batch case: its
    "speedup" is the unchecked time over the checked one, i.e. what the check leaves of
    the speed (issue target: at least 0.9)."""
    from evaluator import evaluate_batch

    def run() -> tuple[float, int, Any]:
        dt, res = timed(lambda: evaluate_batch(cards, threads=1, check=False))
        return dt, len(cards), res

    def check(res: np.ndarray) -> tuple[bool, str]:
        ours = evaluate_batch(cards[:2000], threads=1)
        return passed(np.array_equal(res[:2000], ours), "same strengths on 2000 hands")

    return PeerWork("check=False", "pokerjit evaluate_batch(check=False)",
                    "pokerjit itself without the card check", run, check,
                    warm=lambda: evaluate_batch(cards[:100], threads=1, check=False))


def _make_walk(cfg: Config, all_threads: bool) -> Work:
    from evaluator import strength_histogram
    from evaluator._tables import get_tables
    from evaluator.tablegen import CATEGORIES

    k = 5 if cfg.mode == "tiny" else 7
    threads = cfg.threads if all_threads else 1
    starts = get_tables().category_start

    def check(hist: np.ndarray) -> tuple[bool, str]:
        counts = {CATEGORIES[c]: int(hist[starts[c]:starts[c + 1]].sum()) for c in range(9)}
        distinct = int(np.count_nonzero(hist))
        total = int(hist.sum())
        bad = [c for c, v in WALK_COUNTS[k].items() if counts.get(c) != v]
        ok = not bad and distinct == WALK_DISTINCT[k] and total == math.comb(52, k)
        return ok, (f"{total:,} {k}-card hands, {distinct} distinct strengths, category counts "
                    + ("all equal the known totals" if not bad else f"WRONG for {bad}"))

    return Work(compile=lambda: strength_histogram(5, threads=threads),
                run=lambda: strength_histogram(k, threads=threads),
                work=math.comb(52, k), check=check, threads=threads,
                max_repeat=2 if cfg.mode == "quick" else None,
                detail=f"strength_histogram({k}): every C(52, {k}) hand, incremental keys")


RANGE_BOARDS = {"range-pre": "", "range-flop": "Td9d2c"}


def _make_exact(cfg: Config, key: str) -> Work:
    if key in RANGE_BOARDS:
        return _make_range_exact(cfg, key)
    from simulate.equity import equity

    hands, want, runouts = EXACT[key]

    def check(res: Any) -> tuple[bool, str]:
        return equity_check(res, want, runouts, exact=True)

    P = cfg.peers
    peers = _EquityPeers(P, want, exact=True)
    peers.add("ompeval", "native (C++)", "OMPEval exact enumeration, threads=1",
              lambda: P.ompeval_equity(hands, exact=True, threads=1),
              warm=lambda: P.ompeval_equity(hands, "2c3d4h5s", exact=True, threads=1))
    peers.add("poker_equity", "native (Rust)", "exact_from_text, single-threaded",
              lambda: P.poker_equity_exact(hands),
              warm=lambda: P.poker_equity_exact(hands, "2c3d4h5s"))
    if len(hands) == 2 and cfg.mode == "full":
        peers.add("eval7", "Python loop over runouts", "py_hand_vs_range_exact once per runout "
                  "(eval7 has no preflop enumeration)",
                  lambda: P.eval7_equity_exact(hands[0], hands[1]), max_reps=1)
    return Work(compile=lambda: equity(hands, board="2c3d4h5s", exact=True, threads=1),
                run=lambda: equity(hands, exact=True, threads=1),
                work=runouts, check=check, threads=1, peers=peers.works,
                detail=f"{' vs '.join(hands)} preflop, exact, {runouts:,} runouts")


def _make_short_deck_exact(_cfg: Config) -> Work:
    from simulate.equity import equity

    hands, want, runouts = EXACT["short-deck-hu"]

    def check(res: Any) -> tuple[bool, str]:
        return equity_check(res, want, runouts, exact=True)

    return Work(compile=lambda: equity(hands, board="6c7d8h", game="short_deck", exact=True,
                                       threads=1),
                run=lambda: equity(hands, game="short_deck", exact=True, threads=1),
                work=runouts, check=check, threads=1,
                detail=f"{' vs '.join(hands)} preflop, short deck, exact, {runouts:,} runouts")


def _make_hilo_exact(_cfg: Config, key: str = "omaha-hilo-hu") -> Work:
    from simulate.equity import equity

    hands, want, runouts = EXACT[key]
    highs, lows = HILO_HALVES[key]
    board = HILO_BOARDS[key]
    first = (board + "Ts9h8s7c")[:8]  # the compile: a board with one card to come

    def check(res: Any) -> tuple[bool, str]:
        ok, detail = equity_check(res, want, runouts, exact=True)
        pairs = [(p.high, h) for p, h in zip(res.players, highs, strict=False)]
        pairs += [(p.low, lo) for p, lo in zip(res.players, lows, strict=False)]
        err = max((math.inf if g is None else abs(g - float(w)) for g, w in pairs),
                  default=math.inf)
        return passed(ok and err <= 1e-9, f"{detail}; high/low halves max err {err:.1e}")

    sides = []
    if key + "-high" in EXACT:  # Omaha high on the same hands, timed in turn with hi/lo
        _h, high_want, _r = EXACT[key + "-high"]
        sides.append(_peer_equity_work(
            "omaha (high)", "pokerjit equity(game='omaha')",
            "Omaha high on the same hands, in turn with hi/lo: its 'speedup' is high's time "
            "over hi/lo's, 1 / (hi/lo / high); issue 41's target at least 0.4 (2.5x)",
            lambda: _omaha_equity(hands, board=board, exact=True, threads=1),
            lambda r: equity_check(r, high_want, runouts, exact=True),
            warm=lambda: _omaha_equity(hands, board=first, exact=True, threads=1)))
    return Work(compile=lambda: equity(hands, board=first, game="omaha_hilo", exact=True,
                                       threads=1),
                run=lambda: equity(hands, board=board, game="omaha_hilo", exact=True,
                                   threads=1),
                work=runouts, check=check, threads=1, peers=sides,
                detail=f"{' vs '.join(hands)} {'on ' + board if board else 'preflop'}, "
                       f"Omaha hi/lo, exact, {runouts:,} runouts")


def _make_hilo_mc(cfg: Config) -> Work:
    """Heads-up Omaha hi/lo Monte Carlo before the flop, Omaha high on the same hands and
    deals timed in turn (its "speedup" is high's time over hi/lo's)."""
    from simulate.equity import equity

    hands, want, _ = EXACT["omaha-hilo-pre"]
    _h, high_want, _r = EXACT["omaha-hilo-pre-high"]
    n = cfg.size(1_000_000, 100_000, 10_000)
    side = _peer_equity_work(
        "omaha (high)", "pokerjit equity(game='omaha')",
        "Omaha high on the same hands and deals, in turn with hi/lo: its 'speedup' is "
        "high's time over hi/lo's (at least 0.5 for hi/lo within 2x)",
        lambda: _omaha_equity(hands, exact=False, samples=n, seed=2024, threads=1),
        lambda r: equity_check(r, high_want, n, exact=False),
        warm=lambda: _omaha_equity(hands, exact=False, samples=1000, seed=1, threads=1))
    return Work(compile=lambda: equity(hands, game="omaha_hilo", exact=False, samples=1000,
                                       seed=1, threads=1),
                run=lambda: equity(hands, game="omaha_hilo", exact=False, samples=n,
                                   seed=2024, threads=1),
                work=n, check=lambda r: equity_check(r, want, n, exact=False), threads=1,
                peers=[side],
                detail=f"{' vs '.join(hands)} preflop, Omaha hi/lo, {n:,} Monte Carlo deals")


def _make_range_exact(cfg: Config, key: str) -> Work:
    from simulate.equity import equity

    hands, want, deals = EXACT[key]
    board = RANGE_BOARDS[key]

    def check(res: Any) -> tuple[bool, str]:
        return equity_check(res, want, deals, exact=True)

    P = cfg.peers
    peers = _EquityPeers(P, want, exact=True)
    peers.add("ompeval", "native (C++)", "OMPEval range enumeration, threads=1",
              lambda: P.range_equity("ompeval", hands, board, ""))
    return Work(compile=lambda: equity(hands, board="2c3d4h5s6s", exact=True, threads=1),
                run=lambda: equity(hands, board=board, exact=True, threads=1),
                work=deals, check=check, threads=1, peers=peers.works,
                detail=f"{' vs '.join(hands)} {'on ' + board if board else 'preflop'}, exact, "
                       f"{deals:,} combo-and-runout deals")


def _make_mc(cfg: Config, key: str, all_threads: bool = False) -> Work:
    from simulate.equity import equity

    hands, want, _ = EXACT[key]
    full = 2_000_000 if key == "hu" else 1_000_000
    n = cfg.size(full, 200_000, 20_000) * (4 if all_threads else 1)
    threads = cfg.threads if all_threads else 1

    def run() -> Any:
        return equity(hands, exact=False, samples=n, seed=2024, threads=threads)

    def check(res: Any) -> tuple[bool, str]:
        return equity_check(res, want, n, exact=False)

    P = cfg.peers if not all_threads else None
    peers = _EquityPeers(P, want, exact=False)
    if len(hands) == 2:
        peers.add("eval7", "native (Cython)", "py_hand_vs_range_monte_carlo, one thread",
                  lambda: P.eval7_equity_monte_carlo(hands[0], hands[1], iterations=n))
    peers.add("ompeval", "native (C++)", "Monte Carlo to a std-error target (no sample count; "
              "stops at its ~0.2 s check), threads=1; compared by deals/s",
              lambda: P.monte_carlo_equity("ompeval", hands, samples=n, threads=1))
    peers.add("poker_equity", "native (Rust)", "chunk_from_text, exact sample count, threads=1",
              lambda: P.poker_equity_monte_carlo(hands, samples=n, threads=1))
    m = cfg.size(2_000 if key == "hu" else 500, 300, 50)
    peers.add("pokerkit", "pure Python", f"calculate_equities, one process ({m:,} deals)",
              lambda: P.pokerkit_equity_monte_carlo(hands, samples=m), max_reps=1)
    return Work(compile=lambda: equity(hands, exact=False, samples=1000, seed=1, threads=threads),
                run=run, work=n, check=check, threads=threads, peers=peers.works,
                detail=f"{' vs '.join(hands)} preflop, {n:,} Monte Carlo deals, seed 2024 "
                       f"(one deal = one showdown of all {len(hands)} hands)")


def _make_omaha_eval(cfg: Config) -> Work:
    import evaluator.omaha as om
    n = cfg.size(2_000_000, 300_000, 5_000)
    cards = random_cards(n, 9, 99)
    holes = np.ascontiguousarray(cards[:, :4])
    boards = np.ascontiguousarray(cards[:, 4:])
    sample = np.random.default_rng(3).choice(n, size=min(n, 500), replace=False)
    ref = np.array([om.omaha_best(holes[i].tolist(), boards[i].tolist())[0] for i in sample])

    def check(out: np.ndarray) -> tuple[bool, str]:
        bad = int(np.count_nonzero(np.asarray(out)[sample] != ref))
        return passed(out.shape == (n,) and bad == 0,
                   f"{len(sample)} sampled rows vs pure-Python max over 2x3 choices: {bad} differ")

    peers: list[PeerWork] = []
    P = cfg.peers
    if P is not None:
        have = set(P.available_peers())
        for peer, fn, path, cap in (
            ("phevaluator", getattr(P, "omaha_strengths_phevaluator", None),
             "per-call Python overhead", cfg.size(300_000, 50_000, 1_000)),
            ("pokerkit", getattr(P, "omaha_strengths_pokerkit", None), "pure Python",
             cfg.size(2_000, 500, 100)),
        ):
            if peer not in have or fn is None:
                continue
            m = min(n, cap)

            def prun(fn: Any = fn, m: int = m) -> tuple[float, int, Any]:
                dt, res = timed(lambda: fn(holes[:m], boards[:m]))
                return dt, m, res

            def pcheck(res: np.ndarray, m: int = m) -> tuple[bool, str]:
                k = min(m, 1000)
                ours = om.evaluate_omaha_batch(holes[:k], boards[:k], threads=1)
                return passed(np.array_equal(np.asarray(res[:k]), ours),
                           f"same strengths as ours on {k} hands")

            peers.append(PeerWork(peer, path, f"{peer} Omaha evaluation per hand ({m:,} hands)",
                                  prun, pcheck, max_reps=None if m >= 100_000 else 2))
    return Work(compile=lambda: om.evaluate_omaha_batch(holes[:16], boards[:16], threads=1),
                run=lambda: om.evaluate_omaha_batch(holes, boards, threads=1, check=False),
                work=n, check=check, threads=1, peers=peers,
                detail=f"{n:,} random Omaha hands (4 hole + 5 board), one thread")


def _make_omaha_exact(cfg: Config) -> Work:
    equity = _omaha_equity
    hands, want, runouts = EXACT["omaha"]
    P = cfg.peers
    peers = _EquityPeers(P, want, exact=True)
    peers.add("poker_equity", "native (Rust)", "exact_from_text('omaha'), single-threaded",
              lambda: P.poker_equity_exact(hands, game="omaha"),
              warm=lambda: P.poker_equity_exact(hands, "2c3d4h5s", game="omaha"))
    return Work(compile=lambda: equity(hands, board="2c3d4h5s", exact=True, threads=1),
                run=lambda: equity(hands, exact=True, threads=1), work=runouts,
                check=lambda r: equity_check(r, want, runouts, exact=True), threads=1,
                peers=peers.works,
                detail=f"{' vs '.join(hands)} preflop, exact, {runouts:,} runouts")


def _make_omaha_mc(cfg: Config) -> Work:
    equity = _omaha_equity
    hands, want, _ = EXACT["omaha"]
    n = cfg.size(1_000_000, 100_000, 10_000)
    P = cfg.peers
    peers = _EquityPeers(P, want, exact=False)
    peers.add("poker_equity", "native (Rust)", "chunk_from_text('omaha'), threads=1",
              lambda: P.poker_equity_monte_carlo(hands, samples=n, game="omaha", threads=1))
    m = cfg.size(500, 100, 30)
    peers.add("pokerkit", "pure Python", f"calculate_equities (Omaha), {m:,} deals",
              lambda: P.pokerkit_equity_monte_carlo(hands, samples=m, game="omaha"), max_reps=1)
    return Work(compile=lambda: equity(hands, exact=False, samples=1000, seed=1, threads=1),
                run=lambda: equity(hands, exact=False, samples=n, seed=2024, threads=1),
                work=n, check=lambda r: equity_check(r, want, n, exact=False), threads=1,
                peers=peers.works, detail=f"{' vs '.join(hands)} preflop, {n:,} Monte Carlo deals")




def _make_allin_mc(cfg: Config) -> Work:
    from simulate.allin import allin_ev

    specs, board, _want, _ = ALLIN["pre"]
    n = cfg.size(1_000_000, 200_000, 20_000)
    return Work(compile=lambda: allin_ev(specs, board="2c3d4h5s", threads=1),
                run=lambda: allin_ev(specs, board, exact=False, samples=n, seed=2024,
                                     threads=1),
                work=n, check=allin_check("pre", False, n), threads=1,
                detail=f"{' '.join(specs)} preflop (main + 2 side pots), {n:,} Monte Carlo "
                       f"runouts, seed 2024; no peer computes side-pot EV")


def _make_allin_exact(cfg: Config) -> Work:
    from simulate.allin import allin_ev

    specs, board, _want, runouts = ALLIN["flop"]
    return Work(compile=lambda: allin_ev(specs, board=board + "5s4s", threads=1),
                run=lambda: allin_ev(specs, board, exact=True, threads=1),
                work=runouts, check=allin_check("flop", True, None), threads=1,
                detail=f"{' '.join(specs)} on {board} (main + side pot), exact, "
                       f"{runouts} runouts")


CASES: tuple[Case, ...] = (
    Case("batch", "random 7-card batch, 1 thread", "hands/s", lambda c: _make_batch(c, False)),
    Case("batch-mt", "random 7-card batch, all threads", "hands/s",
         lambda c: _make_batch(c, True)),
    Case("batch-checked", "random 7-card batch, 1 thread, card check on (the default)",
         "hands/s", lambda c: _make_batch(c, False, True)),
    Case("walk", "walk all 7-card hands, 1 thread", "hands/s", lambda c: _make_walk(c, False)),
    Case("walk-mt", "walk all 7-card hands, all threads", "hands/s",
         lambda c: _make_walk(c, True)),
    Case("exact-hu", "exact AhKh vs QsQd preflop", "runouts/s", lambda c: _make_exact(c, "hu")),
    Case("exact-hu-short-deck", "exact AhKh vs QsQd preflop, short deck", "runouts/s",
         _make_short_deck_exact),
    Case("exact-hu-omaha-hilo", "exact AhAs2c3d vs Ad2dKcQh on 4s8h9c, Omaha hi/lo",
         "runouts/s", _make_hilo_exact),
    Case("exact-hu-omaha-hilo-pre", "exact Ah2h3c4d vs KsKdQcJh preflop, Omaha hi/lo beside "
         "Omaha high", "runouts/s", lambda c: _make_hilo_exact(c, "omaha-hilo-pre")),
    Case("exact-3way", "exact AhAs vs KdKc vs QhQs preflop", "runouts/s",
         lambda c: _make_exact(c, "3way")),
    Case("mc-hu", "Monte Carlo AhKh vs QsQd", "showdowns/s", lambda c: _make_mc(c, "hu")),
    Case("mc-6way", "Monte Carlo 6 players", "deals/s", lambda c: _make_mc(c, "6way")),
    Case("mc-6way-mt", "Monte Carlo 6 players, all threads", "deals/s",
         lambda c: _make_mc(c, "6way", True)),
    Case("range-pre", "exact AKs vs random preflop", "deals/s",
         lambda c: _make_exact(c, "range-pre")),
    Case("range-flop", "exact QQ+,AKs vs random on Td9d2c", "deals/s",
         lambda c: _make_exact(c, "range-flop")),
    Case("omaha-eval", "Omaha 4+5 evaluation batch", "hands/s", _make_omaha_eval),
    Case("omaha-exact", "Omaha exact AhAsKhKs vs QdJdTc9c", "runouts/s", _make_omaha_exact),
    Case("omaha-mc", "Omaha Monte Carlo heads-up", "deals/s", _make_omaha_mc),
    Case("mc-hu-omaha-hilo-pre", "Monte Carlo Ah2h3c4d vs KsKdQcJh preflop, Omaha hi/lo "
         "beside Omaha high", "deals/s", _make_hilo_mc),
    Case("allin-mc", "all-in EV, 4 players preflop, 2 side pots", "runouts/s", _make_allin_mc),
    Case("allin-exact", "all-in EV, 3-way on the flop, exact", "runouts/s", _make_allin_exact),
)
CASE_NAMES = tuple(c.name for c in CASES)
