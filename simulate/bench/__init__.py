"""``pokerjit bench``: evaluator and equity speed on this machine, every answer checked.

Each case builds its inputs, then

1. **first call** -- the case's function on a tiny input, timed on its own: that is the JIT
   compile (or the load of Numba's on-disk cache when it is warm), reported as ``compile_s``;
2. **warm-up** -- one full-size run, untimed, under :mod:`tracemalloc` (peak of the Python and
   numpy allocations it made) with the process peak RSS reset just before it (Linux
   ``/proc/self/clear_refs``), so ``memory`` is the run's own peak; its answer is checked;
3. **timed repetitions** -- ``repeat`` runs, each answer checked again; with peers, every
   repetition of ours is followed by one of each peer on the same work (alternating, so a
   noisy neighbour hurts both sides alike).

Every case checks its own answer against a value that does not come from the code being
timed: pinned exact fractions (exact equities, computed once and cross-checked with OMPEval
and poker-equity), the known category counts of the exhaustive walks, a pure-Python scalar
evaluation of a sample of the batch, and "within 4 standard errors of the exact value" for
Monte Carlo. A failed check marks the case ``FAILED`` and :func:`run_bench` reports
``ok = False`` (the command exits 1).

Speed-ups against a peer are ``peer seconds / pokerjit seconds`` for the same work (computed
from rates where the work differs, e.g. a slow peer timed on fewer hands): **greater than 1
means pokerjit is faster**. The median and min..max of the per-repetition (paired) ratios are
reported.

The peer adapters live in ``benchmarks/peers.py`` of a source checkout; :func:`load_peers`
loads that file by path and returns ``None`` when it is not there (e.g. installed from a
wheel).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

#: Sizes of each mode. ``tiny`` is for the test suite (timings meaningless, checks real).
MODES = ("full", "quick", "tiny")
DEFAULT_REPEAT = {"full": 5, "quick": 3, "tiny": 1}

SPEEDUP_NOTE = ("speedup = peer time / pokerjit time for the same work (from rates when the "
                "work differs); > 1 means pokerjit is faster")
MEMORY_NOTE = ("memory: tracemalloc peak (Python + numpy allocations) and process peak RSS "
               "(VmHWM, reset via /proc/self/clear_refs) during one untimed full-size run of "
               "pokerjit's side only; rss_peak includes the interpreter, Numba and the tables")


class Unavailable(Exception):
    """The case cannot run here (a module it needs is not built or installed yet)."""


# --------------------------------------------------------------------------- known answers
C48_5 = math.comb(48, 5)  # heads-up preflop runouts
C46_5 = math.comb(46, 5)  # three-way preflop runouts
C44_5 = math.comb(44, 5)  # Omaha heads-up / 4-player Hold'em preflop runouts
C40_5 = math.comb(40, 5)  # six-player preflop runouts

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
}


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


# --------------------------------------------------------------------------- structures
@dataclass
class PeerWork:
    """One peer's version of a case's work.

    ``run() -> (seconds, work, answer)``: seconds of the peer call(s) alone (conversion to the
    peer's format is done beforehand), the units of work done, and an answer for ``check``.
    ``warm``: an optional first call on a tiny input (not timed). ``max_reps``: cap on timed
    repetitions (slow peers). ``check(answer) -> (ok, detail)``: is the peer's answer right?
    """

    peer: str
    path: str
    note: str
    run: Callable[[], tuple[float, int, Any]]
    check: Callable[[Any], tuple[bool, str]] | None = None
    warm: Callable[[], Any] | None = None
    max_reps: int | None = None


@dataclass
class Work:
    """A case made ready to run: see the module docstring for the protocol."""

    compile: Callable[[], Any]
    run: Callable[[], Any]
    work: int
    check: Callable[[Any], tuple[bool, str]]
    threads: int
    inner: int | None = None  # calls of ``run`` per timed repetition; None = calibrate
    max_repeat: int | None = None  # fewer repetitions for a slow case (quick mode)
    peers: list[PeerWork] = field(default_factory=list)
    detail: str = ""


@dataclass
class Config:
    """What the runner was asked for."""

    mode: str = "full"
    repeat: int = 5
    threads: int = 1  # "all threads" count
    peers: Any = None  # the benchmarks/peers.py module, or None
    progress: Callable[[str], None] | None = None
    min_rep_s: float = 0.1  # shortest timed repetition (short work is repeated within one)

    def size(self, full: int, quick: int, tiny: int) -> int:
        return {"full": full, "quick": quick, "tiny": tiny}[self.mode]


@dataclass(frozen=True)
class Case:
    """A benchmark case: ``make(cfg) -> Work`` (raises :class:`Unavailable`)."""

    name: str
    title: str
    unit: str
    make: Callable[[Config], Work]


# --------------------------------------------------------------------------- helpers
def load_peers() -> Any:
    """``benchmarks/peers.py`` of the source checkout, imported by path, or ``None``."""
    name = "pokerjit_bench_peers"
    if name in sys.modules:
        return sys.modules[name]
    import simulate

    path = Path(simulate.__file__).resolve().parents[1] / "benchmarks" / "peers.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    except Exception:
        del sys.modules[name]
        return None
    return mod


def _module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name and (exc.name == name or name.startswith(exc.name + ".")):
            raise Unavailable(f"{name} is not built yet") from exc
        raise


def _equity_fn() -> Callable[..., Any]:
    fn = getattr(_module("simulate.equity"), "equity", None)
    if fn is None:
        raise Unavailable("simulate.equity has no equity() yet")
    return fn


def _omaha_equity_fn() -> Callable[..., Any]:
    try:
        eq = _equity_fn()
        return lambda hands, **kw: eq(hands, game="omaha", **kw)
    except Unavailable:
        fn = getattr(_module("simulate.omaha"), "omaha_equity", None)
        if fn is None:
            raise Unavailable("simulate.omaha has no omaha_equity() yet") from None
        return fn


def _random_cards(n: int, k: int, seed: int) -> np.ndarray:
    """``ndarray[n, k] uint8``: n rows of k distinct random cards."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    step = 200_000
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        out[lo:hi] = rng.random((hi - lo, 52)).argpartition(k, axis=1)[:, :k]
    return out


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    res = fn()
    return time.perf_counter() - t0, res


def _spread(xs: Sequence[float]) -> dict[str, float] | None:
    if not xs:
        return None
    return {"median": statistics.median(xs), "min": min(xs), "max": max(xs), "runs": len(xs)}


def _ok(cond: bool, detail: str) -> tuple[bool, str]:
    return bool(cond), detail


def _equity_check(res: Any, want: Sequence[Fraction], runouts: int | None,
                  exact: bool) -> tuple[bool, str]:
    """Exact: every equity equals the pinned fraction to 1e-9 and the deal count is right.
    Monte Carlo: every equity within 4 of its own standard errors of the exact value."""
    got = [p.equity for p in res.players]
    if len(got) != len(want):
        return False, f"{len(got)} players in the answer, want {len(want)}"
    if exact:
        err = max(abs(g - float(w)) for g, w in zip(got, want, strict=True))
        ok = err <= 1e-9 and (runouts is None or res.samples == runouts) and bool(res.exact)
        return ok, (f"equity {got[0]:.9f} vs exact {float(want[0]):.9f} (max err {err:.1e}), "
                    f"{res.samples:,} runouts")
    worst = 0.0
    for p, w in zip(res.players, want, strict=True):
        if not p.std_error > 0:
            return False, f"{p.hand}: std_error {p.std_error} (want > 0)"
        worst = max(worst, abs(p.equity - float(w)) / p.std_error)
    ok = worst <= 4.0 and (runouts is None or res.samples == runouts)
    return ok, (f"equity {got[0]:.5f} vs exact {float(want[0]):.5f}; worst |z| = {worst:.2f} "
                f"(<= 4), {res.samples:,} deals")


def _peer_equity_check(want: Sequence[Fraction], exact: bool
                       ) -> Callable[[Any], tuple[bool, str]]:
    def check(res: Any) -> tuple[bool, str]:
        got = res.equities
        if exact:
            err = max(abs(g - float(w)) for g, w in zip(got, want, strict=True))
            return _ok(err <= 1e-7, f"{got[0]:.9f} (max err {err:.1e})")
        n = max(1, int(res.samples or 1))
        worst = max(abs(g - float(w)) / max(math.sqrt(float(w) * (1 - float(w)) / n), 1e-12)
                    for g, w in zip(got, want, strict=True))
        return _ok(worst <= 4.5, f"{got[0]:.5f}, worst |z| ~ {worst:.2f} ({n:,} deals)")

    return check


def _peer_equity_work(peer: str, path: str, note: str, call: Callable[[], Any],
                      check: Callable[[Any], tuple[bool, str]], *,
                      warm: Callable[[], Any] | None = None,
                      max_reps: int | None = None) -> PeerWork:
    def run() -> tuple[float, int, Any]:
        res = call()
        return res.elapsed_s, int(res.samples or 0), res

    return PeerWork(peer, path, note, run, check, warm, max_reps)


# --------------------------------------------------------------------------- cases
def _make_batch(cfg: Config, all_threads: bool, validate: bool = False) -> Work:
    from evaluator import evaluate_batch
    from evaluator.hands import strength_of_ids

    n = cfg.size(10_000_000, 2_000_000, 20_000)
    threads = cfg.threads if all_threads else 1
    cards = _random_cards(n, 7, 12345)
    sample = np.random.default_rng(7).choice(n, size=min(n, 2000), replace=False)
    ref = np.array([strength_of_ids(cards[i].tolist()) for i in sample], dtype=np.int64)
    # the first call takes the same kernel as the timed runs (parallel from 50,000 rows)
    tiny = _random_cards(64 if not all_threads else 50_000, 7, 1)

    def check(out: np.ndarray) -> tuple[bool, str]:
        if out.shape != (n,) or out.min() < 1 or out.max() > 7462:
            return False, "strengths out of 1..7462 or wrong shape"
        bad = int(np.count_nonzero(out[sample] != ref))
        return _ok(bad == 0, f"{len(sample)} sampled rows vs pure-Python scalar evaluation: "
                             f"{bad} differ; checksum {int(out.sum(dtype=np.int64))}")

    peers = []
    if cfg.peers is not None and not all_threads and not validate:
        peers = _batch_peers(cfg, cards, n)
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
            dt, res = _timed(lambda: ev.run(native))
            return dt, m, res

        def check(res: np.ndarray, ev: Any = ev, peer: str = peer,
                  probe: np.ndarray = probe) -> tuple[bool, str]:
            from evaluator import evaluate_batch

            ours = evaluate_batch(probe, threads=1).astype(np.int64)
            head = np.asarray(res[: len(probe)], dtype=np.int64)
            if ev.contract is not None:
                return _ok(np.array_equal(ev.contract(head), ours),
                           f"same strengths as ours on {len(probe)} hands")
            oriented = head if ev.higher_is_better else -head
            return _ok(P.same_order(oriented, ours), f"same order as ours on {len(probe)} hands")

        out.append(PeerWork(peer, ev.path, ev.note, run, check,
                            warm=lambda ev=ev: ev.run(ev.prepare(cards[:100])),
                            max_reps=None if cap is None or cap >= 100_000 else 2))
    return out


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
    equity = _equity_fn()
    hands, want, runouts = EXACT[key]

    def check(res: Any) -> tuple[bool, str]:
        return _equity_check(res, want, runouts, exact=True)

    peers: list[PeerWork] = []
    P = cfg.peers
    if P is not None:
        have = set(P.available_peers())
        pc = _peer_equity_check(want, exact=True)
        if "ompeval" in have:
            peers.append(_peer_equity_work(
                "ompeval", "native (C++)", "OMPEval exact enumeration, threads=1",
                lambda: P.ompeval_equity(hands, exact=True, threads=1), pc,
                warm=lambda: P.ompeval_equity(hands, "2c3d4h5s", exact=True, threads=1)))
        if "poker_equity" in have:
            peers.append(_peer_equity_work(
                "poker_equity", "native (Rust)", "exact_from_text, single-threaded",
                lambda: P.poker_equity_exact(hands), pc,
                warm=lambda: P.poker_equity_exact(hands, "2c3d4h5s")))
        if "eval7" in have and len(hands) == 2 and cfg.mode == "full":
            peers.append(_peer_equity_work(
                "eval7", "Python loop over runouts", "py_hand_vs_range_exact once per runout "
                "(eval7 has no preflop enumeration)",
                lambda: P.eval7_equity_exact(hands[0], hands[1]), pc, max_reps=1))
    return Work(compile=lambda: equity(hands, board="2c3d4h5s", exact=True, threads=1),
                run=lambda: equity(hands, exact=True, threads=1),
                work=runouts, check=check, threads=1, peers=peers,
                detail=f"{' vs '.join(hands)} preflop, exact, {runouts:,} runouts")


def _make_range_exact(cfg: Config, key: str) -> Work:
    equity = _equity_fn()
    hands, want, deals = EXACT[key]
    board = RANGE_BOARDS[key]

    def check(res: Any) -> tuple[bool, str]:
        return _equity_check(res, want, deals, exact=True)

    peers: list[PeerWork] = []
    P = cfg.peers
    if P is not None and "ompeval" in set(P.available_peers()):
        peers.append(_peer_equity_work(
            "ompeval", "native (C++)", "OMPEval range enumeration, threads=1",
            lambda: P.range_equity("ompeval", hands, board, ""), _peer_equity_check(want, True)))
    return Work(compile=lambda: equity(hands, board="2c3d4h5s6s", exact=True, threads=1),
                run=lambda: equity(hands, board=board, exact=True, threads=1),
                work=deals, check=check, threads=1, peers=peers,
                detail=f"{' vs '.join(hands)} {'on ' + board if board else 'preflop'}, exact, "
                       f"{deals:,} combo-and-runout deals")


def _make_mc(cfg: Config, key: str, all_threads: bool = False) -> Work:
    equity = _equity_fn()
    hands, want, _ = EXACT[key]
    full = 2_000_000 if key == "hu" else 1_000_000
    n = cfg.size(full, 200_000, 20_000) * (4 if all_threads else 1)
    threads = cfg.threads if all_threads else 1

    def run() -> Any:
        return equity(hands, exact=False, samples=n, seed=2024, threads=threads)

    def check(res: Any) -> tuple[bool, str]:
        return _equity_check(res, want, n, exact=False)

    peers: list[PeerWork] = []
    P = cfg.peers if not all_threads else None
    if P is not None:
        have = set(P.available_peers())
        pc = _peer_equity_check(want, exact=False)
        if "eval7" in have and len(hands) == 2:
            peers.append(_peer_equity_work(
                "eval7", "native (Cython)", "py_hand_vs_range_monte_carlo, one thread",
                lambda: P.eval7_equity_monte_carlo(hands[0], hands[1], iterations=n), pc))
        if "ompeval" in have:
            peers.append(_peer_equity_work(
                "ompeval", "native (C++)", "Monte Carlo to a std-error target (no sample "
                "count; stops at its ~0.2 s check), threads=1; compared by deals/s",
                lambda: P.monte_carlo_equity("ompeval", hands, samples=n, threads=1), pc))
        if "poker_equity" in have:
            peers.append(_peer_equity_work(
                "poker_equity", "native (Rust)", "chunk_from_text, exact sample count, threads=1",
                lambda: P.poker_equity_monte_carlo(hands, samples=n, threads=1), pc))
        if "pokerkit" in have:
            m = cfg.size(2_000 if key == "hu" else 500, 300, 50)
            peers.append(_peer_equity_work(
                "pokerkit", "pure Python", f"calculate_equities, one process ({m:,} deals)",
                lambda: P.pokerkit_equity_monte_carlo(hands, samples=m), pc, max_reps=1))
    return Work(compile=lambda: equity(hands, exact=False, samples=1000, seed=1, threads=threads),
                run=run, work=n, check=check, threads=threads, peers=peers,
                detail=f"{' vs '.join(hands)} preflop, {n:,} Monte Carlo deals, seed 2024 "
                       f"(one deal = one showdown of all {len(hands)} hands)")


def _make_omaha_eval(cfg: Config) -> Work:
    om = _module("evaluator.omaha")
    n = cfg.size(2_000_000, 300_000, 5_000)
    cards = _random_cards(n, 9, 99)
    holes = np.ascontiguousarray(cards[:, :4])
    boards = np.ascontiguousarray(cards[:, 4:])
    sample = np.random.default_rng(3).choice(n, size=min(n, 500), replace=False)
    ref = np.array([om.omaha_best(holes[i].tolist(), boards[i].tolist())[0] for i in sample])

    def check(out: np.ndarray) -> tuple[bool, str]:
        bad = int(np.count_nonzero(np.asarray(out)[sample] != ref))
        return _ok(out.shape == (n,) and bad == 0,
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
                dt, res = _timed(lambda: fn(holes[:m], boards[:m]))
                return dt, m, res

            def pcheck(res: np.ndarray, m: int = m) -> tuple[bool, str]:
                k = min(m, 1000)
                ours = om.evaluate_omaha_batch(holes[:k], boards[:k], threads=1)
                return _ok(np.array_equal(np.asarray(res[:k]), ours),
                           f"same strengths as ours on {k} hands")

            peers.append(PeerWork(peer, path, f"{peer} Omaha evaluation per hand ({m:,} hands)",
                                  prun, pcheck, max_reps=None if m >= 100_000 else 2))
    return Work(compile=lambda: om.evaluate_omaha_batch(holes[:16], boards[:16], threads=1),
                run=lambda: om.evaluate_omaha_batch(holes, boards, threads=1, check=False),
                work=n, check=check, threads=1, peers=peers,
                detail=f"{n:,} random Omaha hands (4 hole + 5 board), one thread")


def _make_omaha_exact(cfg: Config) -> Work:
    equity = _omaha_equity_fn()
    hands, want, runouts = EXACT["omaha"]
    peers: list[PeerWork] = []
    P = cfg.peers
    if P is not None and "poker_equity" in P.available_peers():
        peers.append(_peer_equity_work(
            "poker_equity", "native (Rust)", "exact_from_text('omaha'), single-threaded",
            lambda: P.poker_equity_exact(hands, game="omaha"), _peer_equity_check(want, True),
            warm=lambda: P.poker_equity_exact(hands, "2c3d4h5s", game="omaha")))
    return Work(compile=lambda: equity(hands, board="2c3d4h5s", exact=True, threads=1),
                run=lambda: equity(hands, exact=True, threads=1), work=runouts,
                check=lambda r: _equity_check(r, want, runouts, exact=True), threads=1,
                peers=peers, detail=f"{' vs '.join(hands)} preflop, exact, {runouts:,} runouts")


def _make_omaha_mc(cfg: Config) -> Work:
    equity = _omaha_equity_fn()
    hands, want, _ = EXACT["omaha"]
    n = cfg.size(1_000_000, 100_000, 10_000)
    peers: list[PeerWork] = []
    P = cfg.peers
    if P is not None:
        have = set(P.available_peers())
        pc = _peer_equity_check(want, exact=False)
        if "poker_equity" in have:
            peers.append(_peer_equity_work(
                "poker_equity", "native (Rust)", "chunk_from_text('omaha'), threads=1",
                lambda: P.poker_equity_monte_carlo(hands, samples=n, game="omaha", threads=1),
                pc))
        if "pokerkit" in have:
            m = cfg.size(500, 100, 30)
            peers.append(_peer_equity_work(
                "pokerkit", "pure Python", f"calculate_equities (Omaha), {m:,} deals",
                lambda: P.pokerkit_equity_monte_carlo(hands, samples=m, game="omaha"), pc,
                max_reps=1))
    return Work(compile=lambda: equity(hands, exact=False, samples=1000, seed=1, threads=1),
                run=lambda: equity(hands, exact=False, samples=n, seed=2024, threads=1),
                work=n, check=lambda r: _equity_check(r, want, n, exact=False), threads=1,
                peers=peers, detail=f"{' vs '.join(hands)} preflop, {n:,} Monte Carlo deals")


def _allin_check(spot: str, exact: bool, n: int | None) -> Callable[[Any], tuple[bool, str]]:
    specs, _board, want, runouts = ALLIN[spot]
    total = sum(int(s.split(":")[1]) for s in specs)

    def check(res: Any) -> tuple[bool, str]:
        got = [p.expected_payout for p in res.players]
        cons = abs(sum(got) - total)
        if exact:
            err = max(abs(g - float(w)) for g, w in zip(got, want, strict=True))
            ok = err <= 1e-9 * total and res.samples == runouts and cons <= 1e-9 * total
            return ok, (f"payouts {', '.join(f'{g:.4f}' for g in got)} vs exact (max err "
                        f"{err:.1e}), chips conserved, {res.samples:,} runouts")
        worst = 0.0
        for p, w in zip(res.players, want, strict=True):
            if not p.std_error > 0:
                return False, f"seat {p.seat}: std_error {p.std_error} (want > 0)"
            worst = max(worst, abs(p.expected_payout - float(w)) / p.std_error)
        ok = worst <= 4.0 and cons <= 1e-6 * total and res.samples == n
        return ok, (f"payouts {', '.join(f'{g:.3f}' for g in got)}; worst |z| vs exact = "
                    f"{worst:.2f} (<= 4), chips conserved, {res.samples:,} runouts")

    return check


def _make_allin_mc(cfg: Config) -> Work:
    allin_ev = getattr(_module("simulate.allin"), "allin_ev", None)
    if allin_ev is None:
        raise Unavailable("simulate.allin has no allin_ev() yet")
    specs, board, _want, _ = ALLIN["pre"]
    n = cfg.size(1_000_000, 200_000, 20_000)
    return Work(compile=lambda: allin_ev(specs, board="2c3d4h5s", threads=1),
                run=lambda: allin_ev(specs, board, exact=False, samples=n, seed=2024,
                                     threads=1),
                work=n, check=_allin_check("pre", False, n), threads=1,
                detail=f"{' '.join(specs)} preflop (main + 2 side pots), {n:,} Monte Carlo "
                       f"runouts, seed 2024; no peer computes side-pot EV")


def _make_allin_exact(cfg: Config) -> Work:
    allin_ev = getattr(_module("simulate.allin"), "allin_ev", None)
    if allin_ev is None:
        raise Unavailable("simulate.allin has no allin_ev() yet")
    specs, board, _want, runouts = ALLIN["flop"]
    return Work(compile=lambda: allin_ev(specs, board=board + "5s4s", threads=1),
                run=lambda: allin_ev(specs, board, exact=True, threads=1),
                work=runouts, check=_allin_check("flop", True, None), threads=1,
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
    Case("allin-mc", "all-in EV, 4 players preflop, 2 side pots", "runouts/s", _make_allin_mc),
    Case("allin-exact", "all-in EV, 3-way on the flop, exact", "runouts/s", _make_allin_exact),
)
CASE_NAMES = tuple(c.name for c in CASES)


# --------------------------------------------------------------------------- runner
def _rss_bytes(field_name: str) -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _reset_peak_rss() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _peak_rss_bytes() -> int | None:
    hwm = _rss_bytes("VmHWM")
    if hwm is not None:
        return hwm
    try:
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return int(r) * (1 if sys.platform == "darwin" else 1024)
    except Exception:
        return None


def _measure_memory(fn: Callable[[], Any]) -> tuple[Any, dict[str, Any]]:
    reset = _reset_peak_rss()
    start = _rss_bytes("VmRSS")
    tracemalloc.start()
    try:
        res = fn()
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    rss_peak = _peak_rss_bytes()
    return res, {"tracemalloc_peak_bytes": int(peak), "rss_peak_bytes": rss_peak,
                 "rss_start_bytes": start, "rss_peak_is_per_case": reset}


def _run_case(case: Case, cfg: Config) -> dict[str, Any]:
    row: dict[str, Any] = {"name": case.name, "title": case.title, "unit": case.unit,
                           "status": "ok", "check": None, "peers": []}
    say = cfg.progress or (lambda s: None)
    try:
        w = case.make(cfg)
    except Unavailable as exc:
        row.update(status="unavailable", reason=str(exc))
        return row
    row.update(detail=w.detail, work=w.work, threads=w.threads)
    try:
        say(f"{case.name}: first call")
        row["compile_s"], _ = _timed(w.compile)
        say(f"{case.name}: warm-up run")
        warm_s, (res, row["memory"]) = _timed(lambda: _measure_memory(w.run))
        ok, detail = w.check(res)
        checks = [(ok, detail)]
        for p in w.peers:
            if p.warm is not None:
                try:
                    p.warm()
                except Exception:
                    pass
        # Sub-100 ms work is repeated within one timed repetition (``inner`` calls) so that a
        # scheduler hiccup on a busy machine cannot dominate a short measurement.
        target = cfg.min_rep_s
        inner = w.inner or 1
        if w.inner is None and 0 < warm_s < 2 * target:
            t1, res = _timed(w.run)
            checks.append(w.check(res))
            inner = max(1, min(1000, math.ceil(target / max(t1, 1e-7))))
        row["inner"] = inner
        times: list[float] = []
        peer_times: dict[str, list[tuple[float, int]]] = {p.peer: [] for p in w.peers}
        peer_inner: dict[str, int] = {}
        peer_answers: dict[str, Any] = {}
        peer_errors: dict[str, str] = {}
        reps = min(cfg.repeat, w.max_repeat or cfg.repeat) if ok else 0
        for r in range(reps):
            say(f"{case.name}: repetition {r + 1}/{reps}")
            t0 = time.perf_counter()
            for _ in range(inner):
                res = w.run()
            times.append((time.perf_counter() - t0) / inner)
            checks.append(w.check(res))
            for p in w.peers:
                if p.peer in peer_errors or (p.max_reps and len(peer_times[p.peer]) >= p.max_reps):
                    continue
                try:
                    if p.peer not in peer_inner:  # first call calibrates, not counted
                        secs, _units, ans = p.run()
                        peer_answers[p.peer] = ans
                        fast = target > 0 and secs < target and not p.max_reps
                        peer_inner[p.peer] = (max(1, min(1000, math.ceil(target / max(secs, 1e-7))))
                                              if fast else 1)
                        if not fast:
                            peer_times[p.peer].append((secs, _units))
                            continue
                    tot_s, tot_u = 0.0, 0
                    for _ in range(peer_inner[p.peer]):
                        secs, units, ans = p.run()
                        tot_s, tot_u = tot_s + secs, tot_u + units
                except Exception as exc:  # a peer failing never fails our case
                    peer_errors[p.peer] = f"{type(exc).__name__}: {exc}"
                    continue
                k = peer_inner[p.peer]
                peer_times[p.peer].append((tot_s / k, tot_u // k))
                peer_answers[p.peer] = ans
        bad = [d for o, d in checks if not o]
        row["check"] = {"ok": not bad, "detail": bad[0] if bad else checks[0][1],
                        "runs_checked": len(checks)}
        if bad:
            row["status"] = "FAILED"
        row["seconds"] = _spread(times)
        row["rate"] = _spread([w.work / t for t in times if t > 0])
        for p in w.peers:
            row["peers"].append(_peer_row(p, w, times, peer_times[p.peer],
                                          peer_answers.get(p.peer), peer_errors.get(p.peer)))
    except Exception as exc:
        row["status"] = "FAILED"
        row["check"] = {"ok": False, "detail": f"error: {type(exc).__name__}: {exc}"}
    return row


def _peer_row(p: PeerWork, w: Work, ours: list[float], runs: list[tuple[float, int]],
              answer: Any, error: str | None) -> dict[str, Any]:
    out: dict[str, Any] = {"peer": p.peer, "path": p.path, "note": p.note}
    if error is not None or not runs:
        out.update(status="error", error=error or "no run")
        return out
    rates = [u / s for s, u in runs if s > 0]
    our_rates = [w.work / t for t in ours if t > 0]
    paired = [a / b for a, b in zip(our_rates, rates, strict=False) if b > 0]
    out.update(status="ok", seconds=_spread([s for s, _ in runs]), work=runs[-1][1],
               rate=_spread(rates), speedup=_spread(paired))
    if p.check is not None and answer is not None:
        try:
            ok, detail = p.check(answer)
        except Exception as exc:
            ok, detail = False, f"error: {exc}"
        out["check"] = {"ok": ok, "detail": detail}
    return out


def machine_info(threads: int) -> dict[str, Any]:
    """CPU model, core count, load, Python/numpy/Numba versions and thread settings."""
    import numba

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        from importlib.metadata import version

        pj = version("pokerjit")
    except Exception:
        pj = "unknown"
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {"cpu": cpu, "cores": os.cpu_count(), "load_average": load,
            "platform": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__,
            "numba_threads": int(numba.config.NUMBA_NUM_THREADS), "threads_all": threads,
            "numba_cache": os.environ.get("POKERJIT_CACHE", "1") != "0", "pokerjit": pj}


def run_bench(cases: Sequence[str] | None = None, *, mode: str = "full",
              repeat: int | None = None, threads: int | None = None, peers: bool = False,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run the benchmark cases and return the report (the ``--json`` document).

    ``cases``: names from :data:`CASE_NAMES` (default: all). ``mode``: ``full``, ``quick`` or
    ``tiny`` (test-suite sizes). ``threads``: the "all threads" count (default: every Numba
    thread). ``peers``: also run the peer libraries (needs ``benchmarks/peers.py``).
    Returns ``{"machine", "mode", "repeat", "tables_bytes", "peers_available", "notes",
    "cases": [...], "ok"}``; ``ok`` is False when any case FAILED its check.
    """
    from evaluator._jit import resolve_threads
    from evaluator._tables import get_tables

    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    names = list(cases) if cases else list(CASE_NAMES)
    unknown = [n for n in names if n not in CASE_NAMES]
    if unknown:
        raise ValueError(f"unknown case {unknown[0]!r}; choose from {', '.join(CASE_NAMES)}")
    rep = DEFAULT_REPEAT[mode] if repeat is None else int(repeat)
    if rep < 1:
        raise ValueError(f"repeat must be at least 1, got {rep}")
    n_threads = resolve_threads(threads)
    P = load_peers() if peers else None
    notes = [SPEEDUP_NOTE, MEMORY_NOTE,
             "compile_s: first call on a tiny input (JIT compile, or a load from Numba's "
             "cache when warm); excluded from every timing"]
    if peers and P is None:
        notes.append("peers: benchmarks/peers.py not found (install from a source checkout "
                      "with pokerjit[peers] to compare against the peer libraries)")
    cfg = Config(mode=mode, repeat=rep, threads=n_threads, peers=P, progress=progress,
                 min_rep_s={"full": 0.1, "quick": 0.03, "tiny": 0.0}[mode])
    t0 = time.perf_counter()
    rows = [_run_case(c, cfg) for c in CASES if c.name in names]
    return {
        "machine": machine_info(n_threads),
        "mode": mode,
        "repeat": rep,
        "tables_bytes": int(get_tables().nbytes),
        "peers_available": ({p: bool(P.available(p)) for p in P.PEERS} if P is not None
                            else None),
        "notes": notes,
        "cases": rows,
        "elapsed_s": time.perf_counter() - t0,
        "ok": all(r["status"] != "FAILED" for r in rows),
    }


# --------------------------------------------------------------------------- text output
def _si(x: float | None) -> str:
    if x is None:
        return "-"
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suf}"
    return f"{x:.3g}"


def _secs(x: float | None) -> str:
    if x is None:
        return "-"
    if x < 1e-3:
        return f"{x * 1e6:.0f} us"
    if x < 1:
        return f"{x * 1e3:.1f} ms"
    return f"{x:.2f} s"


def _mb(x: int | None) -> str:
    return "-" if x is None else f"{x / 2**20:.1f}"


def format_report(rep: dict[str, Any]) -> str:
    """The human-readable tables of a :func:`run_bench` report."""
    from simulate.cli._util import table

    m = rep["machine"]
    lines = [f"machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']}; "
             f"numba {m['numba']}, threads {m['threads_all']}; mode {rep['mode']}, "
             f"{rep['repeat']} repetitions",
             f"lookup tables: {rep['tables_bytes']:,} bytes", ""]
    rows = []
    for c in rep["cases"]:
        if c["status"] == "unavailable":
            rows.append([c["name"], "-", "-", "-", "-", "-", "-", "-",
                         f"unavailable: {c.get('reason', '')}"])
            continue
        s, r, mem = c.get("seconds"), c.get("rate"), c.get("memory") or {}
        rss = _mb(mem.get("rss_peak_bytes"))
        if mem.get("rss_peak_bytes") and mem.get("rss_start_bytes"):
            rss += f" (+{_mb(mem['rss_peak_bytes'] - mem['rss_start_bytes'])})"
        spread = f"{_secs(s['min'])}..{_secs(s['max'])}" if s else "-"
        rows.append([c["name"], str(c.get("threads", "-")),
                     _secs(s["median"]) if s else "-", spread,
                     f"{_si(r['median'])} {c['unit']}" if r else "-",
                     _secs(c.get("compile_s")), _mb(mem.get("tracemalloc_peak_bytes")),
                     rss,
                     ("ok" if c["status"] == "ok" else c["status"]) + ": "
                     + (c["check"] or {}).get("detail", "")])
    lines.append(table(rows, ["case", "thr", "median", "min..max", "rate", "first call",
                              "alloc MB", "peak RSS MB", "check"]))
    prow = []
    for c in rep["cases"]:
        for p in c.get("peers", []):
            if p["status"] != "ok":
                prow.append([c["name"], p["peer"], p["path"], "-", "-", "-",
                             f"error: {p.get('error')}"])
                continue
            sp = p["speedup"]
            chk = p.get("check")
            prow.append([c["name"], p["peer"], p["path"], f"{_si(p['rate']['median'])}",
                         f"{sp['median']:.2f}x" if sp else "-",
                         f"{sp['min']:.2f}..{sp['max']:.2f}" if sp else "-",
                         ("" if chk is None else ("answer ok" if chk["ok"] else "ANSWER WRONG: "
                                                  + chk["detail"]))])
    if prow:
        lines += ["", "peers (" + SPEEDUP_NOTE + "):",
                  table(prow, ["case", "peer", "peer API", "peer rate", "speedup",
                               "min..max", "peer answer"])]
    elif rep.get("peers_available") is None and any("peers:" in n for n in rep["notes"]):
        lines += ["", [n for n in rep["notes"] if n.startswith("peers:")][0]]
    lines += ["", "notes:"] + [f"- {n}" for n in rep["notes"]]
    status = "all checks passed" if rep["ok"] else "SOME CASES FAILED their checks"
    lines.append(f"\n{status} ({rep['elapsed_s']:.1f} s)")
    return "\n".join(lines)


def markdown_table(rep: dict[str, Any]) -> str:
    """The README's performance table (markdown) of a report made with peers."""
    out = ["| case | pokerjit (median) | rate | vs peers (speedup, > 1 = pokerjit faster) |",
           "|---|---|---|---|"]
    for c in rep["cases"]:
        if c["status"] != "ok":
            out.append(f"| {c['title']} | {c['status']} | | |")
            continue
        peers = ", ".join(f"{p['peer']} {p['speedup']['median']:.2f}x"
                          for p in c.get("peers", []) if p["status"] == "ok" and p["speedup"])
        thr = "" if c["threads"] == 1 else f" ({c['threads']} threads)"
        out.append(f"| {c['title']}{thr} | {_secs(c['seconds']['median'])} | "
                   f"{_si(c['rate']['median'])} {c['unit']} | {peers or '-'} |")
    return "\n".join(out)
