"""The batch simulator behind :func:`simulate.engine.play`.

Hand ``i`` of a run (``i = 0, 1, ...``) is dealt from its own random stream under the seed
by the real procedure, with the button on seat ``(button + i) % n`` and every stack reset
to the starting stacks; the policies draw their random numbers from the same stream. The
compiled loop (:mod:`simulate._kernels.play`) and the Python loop (used when a seat's
policy is a plain Python callable, and by :func:`replay_hands`) call the same kernels, so
the same seed gives the same hands either way and on any number of threads.

Policies (one for every seat, or one per seat):

- ``"call"``, ``"random"``, ``"allin"``, ``"top N%"`` (e.g. ``"top 15%"``, also ``top15``):
  the built-ins of :mod:`simulate._kernels.policies`.
- a compiled policy: a function decorated with :func:`compiled_policy`, called as
  ``fn(seat, S, hole, board, legal, rnd) -> (kind, amount)`` inside the compiled loop
  (``S`` int64 state, ``hole`` uint8[10, 6], ``board`` uint8[5], ``legal`` int64[6]
  = fold, check, call (-1 none), min raise-to, max raise-to (-1 none), reason; ``rnd`` a
  fresh random uint64; ``kind`` one of :data:`FOLD`, :data:`CHECK`, :data:`CALL`,
  :data:`CHECK_CALL`, :data:`RAISE` with ``amount`` the raise-to total). An illegal choice
  is played as a check or call: a fold with nothing to call among them (self-play, like
  ``legal``, offers the check; only a replayed record's fold facing a check is taken).
- any other callable: ``fn(hand) -> str``, given the :class:`simulate.engine.Hand` and
  returning a PHH action (``"f"``, ``"cc"``, ``"cbr 300"``; in Pineapple games, when
  ``hand.legal.discard``, ``"sd CARD"``); the slower Python loop.

Pineapple discards: every seat whose policy is a built-in or a compiled policy discards by
the cheap ``made`` rule (:func:`simulate._kernels.policies.discard_slot`), with no random
draw.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evaluator._jit import work_clock
from simulate.engine.hand_state import Hand, check_table, omaha_tables_of
from simulate.engine.rules import Rules, chips
from simulate.games import MAX_PLAYERS, MIN_PLAYERS
from simulate.sampling import resolve_seed

__all__ = ["CALL", "CHECK", "CHECK_CALL", "FOLD", "RAISE", "PlayResult", "compiled_policy",
           "play", "replay_hands"]

FOLD, CHECK, CALL, CHECK_CALL, RAISE = 0, 1, 2, 3, 4
BLOCK = 2048  # hands per block (each block has its own accumulator row)
ROUND_S = 0.5  # seconds of work between progress updates / Ctrl-C checks
MAX_HANDS = 10**12

_TOP = re.compile(r"^top\s*(\d+(?:\.\d+)?)\s*%?$", re.IGNORECASE)
_BUILTIN = {"call": 0, "random": 1, "allin": 2, "push": 2}


@dataclass
class PlayResult:
    """Result of :func:`play`: per seat, net chips, bb/100 and its standard error."""

    hands: int
    elapsed_s: float
    policies: list[str]
    net: list[int]
    bb_per_100: list[float]
    std_error: list[float]
    seed: int | None = None
    rules: Rules | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.elapsed_s if self.elapsed_s > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        from simulate.results import json_number

        d: dict[str, Any] = {
            "hands": self.hands, "elapsed_s": self.elapsed_s,
            "hands_per_s": json_number(self.hands_per_s), "seed": self.seed,
            "rules": self.rules.to_dict() if self.rules else None,
            "players": [{"seat": i, "policy": self.policies[i], "net": self.net[i],
                         "bb_per_100": self.bb_per_100[i],
                         "std_error": json_number(self.std_error[i])}
                        for i in range(len(self.net))],
        }
        d.update(self.extra)
        return d


def compiled_policy(fn: Callable[..., Any]) -> Any:
    """Compile ``fn(seat, S, hole, board, legal, rnd) -> (kind, amount)`` as a policy that
    :func:`play` runs inside its compiled loop (see the module docstring)::

        from simulate.engine.self_play import compiled_policy, RAISE, CHECK_CALL

        @compiled_policy
        def min_raiser(seat, S, hole, board, legal, rnd):
            if legal[3] >= 0 and rnd % 4 == 0:
                return RAISE, legal[3]
            return CHECK_CALL, 0

        play(Rules(), [200] * 6, 100_000, policy=[min_raiser, "call", ...])
    """
    from evaluator._jit import serial

    jitted = serial(fn, cache=False)
    jitted._pokerjit_policy = True
    return jitted


class _Policies:
    """Parsed policies: kernel codes and parameters, charts, and the per-seat labels."""

    def __init__(self, policy: Any, n: int, game: str) -> None:
        specs = list(policy) if isinstance(policy, (list, tuple)) else [policy] * n
        if len(specs) != n:
            raise ValueError(f"policy gives {len(specs)} entries for {n} seats")
        self.codes = np.zeros(n, np.int64)
        self.params = np.zeros(n, np.int64)
        self.labels: list[str] = []
        self.python: dict[int, Callable[..., Any]] = {}
        self.custom: Any = None
        charts: list[np.ndarray] = []
        chart_of: dict[float, int] = {}
        for s, p in enumerate(specs):
            if callable(p):
                if getattr(p, "_pokerjit_policy", False):
                    if self.custom is not None and self.custom is not p:
                        raise ValueError("at most one compiled policy per run (it gets the "
                                         "seat as its first argument)")
                    self.custom = p
                    self.codes[s] = 9
                else:
                    self.python[s] = p
                    self.codes[s] = -1
                self.labels.append(getattr(p, "__name__", "custom"))
                continue
            if not isinstance(p, str):
                raise ValueError(f"seat {s}: a policy is a name or a function, got {p!r}")
            name = p.strip().lower()
            m = _TOP.match(name)
            if name in _BUILTIN:
                self.codes[s] = _BUILTIN[name]
                self.labels.append("allin" if name == "push" else name)
            elif m:
                pct = float(m.group(1))
                if not 0 < pct <= 100:
                    raise ValueError(f"seat {s}: policy {p!r}: the percentage must be in "
                                     "(0, 100]")
                if game != "holdem":
                    raise ValueError(f"seat {s}: policy {p!r}: preflop charts are Hold'em only")
                if pct not in chart_of:
                    chart_of[pct] = len(charts)
                    charts.append(_chart(pct))
                self.codes[s] = 3
                self.params[s] = chart_of[pct]
                self.labels.append(f"top {m.group(1)}%")
            else:
                raise ValueError(f"seat {s}: unknown policy {p!r} (call, random, allin, "
                                 "top N%, or a function)")
        self.charts = np.array(charts, np.bool_) if charts else np.zeros((1, 1326), np.bool_)


_DISCARD_TABLES: dict[bool, tuple[np.ndarray, ...]] = {}


def _discard_tables(rules: Rules) -> tuple[np.ndarray, ...]:
    """The ``ptab`` argument of the play kernels in a Pineapple game (None in the others):
    the Pineapple policy tables the built-in discard rule reads (only the preflop scores,
    :func:`simulate.pineapple.preflop_scores`); placeholders of the same types otherwise."""
    pine = rules.discard_after is not None
    if pine not in _DISCARD_TABLES:
        pre = np.zeros(1326, np.int64)
        if pine:
            from simulate.pineapple import preflop_scores

            pre = np.ascontiguousarray(preflop_scores(), np.int64)
        from simulate.pineapple import placeholder_tables

        _DISCARD_TABLES[pine] = placeholder_tables(pre)
    return _DISCARD_TABLES[pine]


def loop_tables(rules: Rules) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """``(otables, ptab)``: the Omaha tables and the Pineapple discard tables of ``rules``'
    game, placeholders of the same types where the game reads none."""
    return omaha_tables_of(rules.game.name), _discard_tables(rules)


def variant_args(rules: Rules) -> tuple[Any, Any]:
    """``(otables, ptab)`` of the play kernels, which pick the compiled loop: two loops serve
    every game and betting structure (the betting, the seats and the game are read from the
    rules header at run time):

    * plain Hold'em: ``(None, None)``, a loop without the Omaha evaluator and the discard
      code (they cost a Hold'em hand about a third more time when compiled in);
    * every other game: the one general loop (:func:`loop_tables`: real tables and
      placeholders), so the first ``play`` of Omaha compiles it once and Pineapple, Crazy
      Pineapple and the other Omaha games then compile nothing.

    ``benchmarks/bench_play_loop.py`` measures this against one loop for all games and a
    loop per game family (speed and first-run compile time)."""
    if not rules.game.is_omaha and rules.discard_after is None:
        return None, None
    return loop_tables(rules)


def _chart(pct: float) -> np.ndarray:
    from simulate.ranges import combo_index, parse_range

    r = parse_range(f"top {pct:g}%")
    out = np.zeros(1326, np.bool_)
    for a, b in r.combos:
        out[combo_index(int(a), int(b))] = True
    return out


def _setup(rules: Rules, stacks: Sequence[int] | int, n_players: int | None = None
           ) -> list[int]:
    if isinstance(stacks, (int, np.integer)) and not isinstance(stacks, bool):
        if n_players is None:
            raise ValueError("give one stack per seat (a list)")
        stacks = [int(stacks)] * n_players
    if isinstance(stacks, (str, bytes)):
        raise ValueError("stacks must be a list of chip counts, one per seat")
    out = [chips(x, f"seat {i}'s stack", allow_zero=False) for i, x in enumerate(stacks)]
    if not MIN_PLAYERS <= len(out) <= MAX_PLAYERS:
        raise ValueError(f"play needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {len(out)}")
    return check_table(rules, out)  # what a Hand checks (straddles, cards), nothing compiled


def replay_hands(rules: Rules, stacks: Sequence[int], indices: Sequence[int] | int, *,
                 policy: Any = "call", seed: int, button: int = 0) -> Iterator[Hand]:
    """The finished :class:`Hand` of each hand index of a :func:`play` run with the same
    arguments (same cards, same actions), for inspection or PHH output."""
    stacks = _setup(rules, stacks)
    n = len(stacks)
    pol = _Policies(policy, n, rules.game.name)
    if isinstance(indices, (int, np.integer)):
        indices = range(int(indices))
    for i in indices:
        yield _play_python(rules, stacks, int(i), seed, button, pol)


def _play_python(rules: Rules, stacks: list[int], index: int, seed: int, button: int,
                 pol: _Policies) -> Hand:
    from evaluator._tables import get_tables
    from simulate._kernels import engine as K
    from simulate._kernels.policies import decide, discard_slot
    from simulate._kernels.rng import next_u64

    n = len(stacks)
    h = Hand(rules, stacks, button=(button + index) % n, seed=seed, hand_index=index)
    tables = get_tables(rules.scale)
    ptab = None
    state = np.uint64(h._rng_state)
    lg = h._legal_buf
    while not h.done:
        s = h.actor
        if s is None:  # pragma: no cover - seeded hands never wait for a deal
            break
        code = int(pol.codes[s])
        if h._S[K.DISCING] and code != -1:  # Pineapple: the built-in discard rule
            if ptab is None:
                ptab = _discard_tables(rules)
            slot = discard_slot(h._S, s, h._hole, h._board, ptab, tables.kernel_args)
            h.discard(int(h._hole[s, slot]))
            continue
        K.legal(h._S, lg)
        if code == -1:
            text = pol.python[s](h)
            if text is not None:
                h.act(text)
            continue
        if code == 9:
            state, v = next_u64(state)
            kind, amount = pol.custom(s, h._S, h._hole, h._board, lg, np.uint64(v))
        else:
            kind, amount, state = decide(code, int(pol.params[s]), h._S, s, h._hole, h._board,
                                         lg, state, pol.charts, tables.category_start,
                                         tables.kernel_args)
        state = np.uint64(state)
        try:
            h._do(int(kind), int(amount))
        except ValueError:
            h._do(CHECK_CALL, 0)
    return h


def play(rules: Rules, stacks: Sequence[int] | int, hands: int, *, policy: Any = "call",
         seed: int | None = None, threads: int | None = None, button: int = 0,
         progress: bool = False) -> PlayResult:
    """Play ``hands`` independent hands and report each seat's result.

    ``stacks``: one starting stack per seat (reset every hand); ``policy``: a policy for
    every seat or a list with one per seat (module docstring); ``button``: the first
    hand's button (it moves one seat a hand). Returns a :class:`PlayResult`: net chips,
    bb/100 and its standard error per seat (:func:`simulate.results.std_error_of_mean`
    over the hands' net results).
    """
    from evaluator._first_run import ready
    from evaluator._jit import resolve_threads
    from evaluator._tables import get_tables
    from simulate.progress import progress as _progress
    from simulate.results import std_error_of_mean

    if not isinstance(rules, Rules):
        raise ValueError("rules must be a simulate.engine.Rules")
    stacks = _setup(rules, stacks)
    n = len(stacks)
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 1:
        raise ValueError(f"hands must be a positive integer, got {hands!r}")
    if hands > MAX_HANDS:
        raise ValueError(f"hands must be at most {MAX_HANDS:.0e}, got {hands}")
    if isinstance(button, bool) or not isinstance(button, (int, np.integer)) \
            or not 0 <= button < n:
        raise ValueError(f"button must be a seat 0..{n - 1}, got {button!r}")
    hands = int(hands)
    seed = resolve_seed(seed)
    n_threads = resolve_threads(threads)
    pol = _Policies(policy, n, rules.game.name)
    t0 = work_clock()
    net = np.zeros(n, np.int64)
    sq = np.zeros(n, np.float64)
    if pol.python:
        with _progress(hands, "hands", "hands", quiet=not progress) as bar:
            for i in range(hands):
                h = _play_python(rules, stacks, i, seed, button, pol)
                x = np.asarray(h.net, np.int64)
                net += x
                sq += x.astype(np.float64) ** 2
                bar.update(1)
    else:
        from simulate._kernels import play as P

        S0 = rules.header()
        S0[0] = n  # N
        st = np.asarray(stacks, np.int64)
        tables = get_tables(rules.scale)
        args = (pol.charts, tables.category_start, tables.kernel_args, *variant_args(rules))
        if pol.custom is None and not ready(P.play_block):
            _compile_callees_beside(pol.charts, tables.category_start, tables.kernel_args)
        total_blocks = -(-hands // BLOCK)
        done_blocks = 0
        per_round = max(1, n_threads)
        with _progress(hands, "hands", "hands", quiet=not progress) as bar:
            while done_blocks < total_blocks:
                k = min(per_round, total_blocks - done_blocks)
                bnet = np.zeros((k, n), np.int64)
                bsq = np.zeros((k, n), np.float64)
                r0 = work_clock()
                _run_blocks(P, pol, n_threads, S0, st, done_blocks, k, hands, seed, button,
                            args, bnet, bsq)
                net += bnet.sum(axis=0)
                sq += bsq.sum(axis=0)
                done_blocks += k
                bar.update(min(hands, done_blocks * BLOCK) - bar.done)
                dt = work_clock() - r0
                if dt < ROUND_S / 4:
                    per_round *= 2
                elif dt > ROUND_S and per_round > n_threads:
                    per_round = max(n_threads, per_round // 2)
    elapsed = work_clock() - t0
    bb = rules.blinds[1]
    se = std_error_of_mean(net.astype(np.float64), sq, hands) * 100.0 / bb
    return PlayResult(
        hands=hands, elapsed_s=elapsed, policies=pol.labels, net=[int(x) for x in net],
        bb_per_100=[float(x) * 100.0 / bb / hands for x in net],
        std_error=[float(x) if math.isfinite(x) else math.inf for x in se],
        seed=seed, rules=rules, extra={"threads": n_threads, "button": int(button),
                                       "stacks": list(stacks)})


_CUSTOM_KERNELS: dict[int, Any] = {}


def _custom_kernel(fn: Any) -> Any:
    """A (not cached) serial loop over blocks calling the compiled policy ``fn``."""
    key = id(fn)
    if key not in _CUSTOM_KERNELS:
        from evaluator._jit import serial
        from simulate._kernels.play import play_block

        @serial(cache=False)
        def run(S0, stacks, first_block, n_blocks, block, total, seed, button, codes, params,
                charts, cat_start, tables, otables, ptab, net, sq):
            for k in range(n_blocks):
                lo = (first_block + k) * block
                cnt = min(block, total - lo)
                if cnt > 0:
                    play_block(S0, stacks, lo, cnt, seed, button, codes, params, charts,
                               cat_start, tables, otables, fn, ptab, net[k], sq[k])

        _CUSTOM_KERNELS[key] = (fn, run)
    return _CUSTOM_KERNELS[key][1]


def _compile_callees_beside(charts: np.ndarray, cat_start: np.ndarray,
                            kernel_tables: tuple[np.ndarray, ...]) -> None:
    """Before a play loop compiles here (a first run): its callees that are kernels of their
    own compile in a forked copy meanwhile (:func:`evaluator._first_run.compile_beside`),
    in the order the loop's typing reaches them; this process loads each from the disk
    cache when it gets there, waiting for the copy if it must. Arguments of the types the
    loop passes (C-contiguous arrays of its dtypes, int64 and uint64 scalars)."""
    from evaluator._first_run import compile_beside
    from simulate._kernels import award as A
    from simulate._kernels import engine as E
    from simulate._kernels import policies as Pol
    from simulate._kernels import pots, rng

    i64 = np.zeros(1, np.int64)
    u8 = np.zeros(1, np.uint8)
    u64 = np.zeros(1, np.uint64)
    elig = np.zeros((1, 1), np.bool_)
    compile_beside(
        rng.deal_setup, (0, 0, u64, u64),
        (E.end_street, (i64, u8, u8)),
        (Pol.decide, (0, 0, i64, 0, np.zeros((1, 1), np.uint8), u8, i64, np.uint64(0), charts,
                      cat_start, kernel_tables)),
        (A.split_tables_hilo, (i64, elig)),
        (pots.settle_hilo, (0, i64, i64, i64, elig, i64)))


def _run_blocks(P: Any, pol: _Policies, n_threads: int, S0: np.ndarray, st: np.ndarray,
                first: int, k: int, hands: int, seed: int, button: int,
                args: tuple[Any, ...], bnet: np.ndarray, bsq: np.ndarray) -> None:
    """Blocks ``first .. first+k-1`` of the run, block ``j`` adding into row ``j`` of
    ``bnet``/``bsq``: a compiled policy's serial loop, or :func:`play_block` per block,
    on ``n_threads`` threads at once (it releases the GIL; each block writes its own
    rows, so any thread count gives the same bits)."""
    if pol.custom is not None:
        _custom_kernel(pol.custom)(S0, st, first, k, BLOCK, hands, np.uint64(seed), button,
                                   pol.codes, pol.params, *args, bnet, bsq)
        return
    charts, cat_start, tables, otables, ptab = args
    seed64 = np.uint64(seed)

    def block(j: int) -> None:
        lo = (first + j) * BLOCK
        P.play_block(S0, st, lo, min(BLOCK, hands - lo), seed64, button, pol.codes, pol.params,
                     charts, cat_start, tables, otables, None, ptab, bnet[j], bsq[j])

    if n_threads == 1 or k == 1:
        for j in range(k):
            block(j)
        return
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(n_threads, k)) as pool:
        list(pool.map(block, range(k)))
