"""Hand engine speed: ``simulate.engine.play`` against the ACPC dealer's C engine, and the
interactive ``Hand`` against pokerkit.

Workloads (the ACPC dealer's own game definitions: no-limit Hold'em, blinds 50/100, stacks
20,000 = 200 big blinds):

* ``play`` on one thread, heads-up and 6-max, policies ``call`` (always check or call)
  and ``random`` (the contract's: 15 % fold -- a check when there is nothing to call --,
  65 % check or call, 20 % raise, half to the minimum and half all in). The C column is
  ``benchmarks/acpc_driver.cc`` (pokerjit's own driver) built in a temporary folder against
  ``game.cc``/``rng.cc``/``net.cc`` from ``../shared/peers/acpc/`` (or ``$POKERJIT_ACPC``):
  it plays each hand as the dealer does (``initState``, ``dealCards``, ``isValidAction``
  before every ``doAction``, ``valueOfState`` for every seat). Without a C++ compiler or
  the ACPC sources that column is skipped; none of the ACPC code is part of pokerjit.
* ``play`` on two threads: the scaling over one thread (target >= 1.8x).
* ``Hand``: a scripted 6-max hand with 20 actions, built and played to the end (target
  <= 0.5 ms and >= 50x pokerkit playing the same script).
* a fresh ``pokerjit play --players 2 --hands 1000000`` process after a first run
  (target < 3 s wall).

``pytest benchmarks/bench_engine.py --benchmark-enable`` times each piece with
pytest-benchmark; in the normal test run (``--benchmark-disable``) each runs once, small,
as a smoke test. ``python benchmarks/bench_engine.py [--json] [--quick]`` prints the
side-by-side medians, rates and per-round ratios (:func:`simulate.bench.script_main`).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from simulate.bench import Comparison, Side, script_main
from simulate.engine import Hand, Rules, play

HERE = Path(__file__).resolve().parent
RULES = Rules(blinds=(50, 100))
STACK = 20_000
WORKLOADS = {  # name: (seats, ACPC game file, policy)
    "hu-call": (2, "holdem.nolimit.2p.reverse_blinds.game", "call"),
    "hu-random": (2, "holdem.nolimit.2p.reverse_blinds.game", "random"),
    "6max-call": (6, "holdem.nolimit.6p.game", "call"),
    "6max-random": (6, "holdem.nolimit.6p.game", "random"),
}
TARGETS = {"hu": 2_000_000, "6max": 400_000}  # hands/s on one thread (issue 11)


# ---------------------------------------------------------------- the ACPC dealer (C)
def acpc_dir() -> Path | None:
    """The ACPC dealer's sources: ``$POKERJIT_ACPC`` or ``../shared/peers/acpc``."""
    env = os.environ.get("POKERJIT_ACPC")
    d = Path(env) if env else HERE.parent.parent / "shared" / "peers" / "acpc"
    return d if (d / "game.cc").is_file() else None


def compiler() -> str | None:
    return shutil.which(os.environ.get("CXX", "g++")) or shutil.which("c++") \
        or shutil.which("clang++")


@functools.lru_cache(maxsize=1)
def acpc_driver() -> tuple[Path, Path] | None:
    """Build the driver once per process in a temporary folder; (binary, sources) or None."""
    src, cxx = acpc_dir(), compiler()
    if src is None or cxx is None:
        return None
    out = Path(tempfile.mkdtemp(prefix="pokerjit-acpc-")) / "acpc_driver"
    cmd = [cxx, "-O2", "-w", "-I", str(src), "-o", str(out), str(HERE / "acpc_driver.cc"),
           str(src / "game.cc"), str(src / "rng.cc"), str(src / "net.cc")]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)
    return out, src


def acpc_run(workload: str, hands: int, seed: int = 1) -> dict:
    """One driver run: ``{"hands", "actions", "seconds", "hands_per_s", "net"}``."""
    built = acpc_driver()
    if built is None:
        raise RuntimeError("no ACPC sources or no C++ compiler")
    binary, src = built
    _, game, policy = WORKLOADS[workload]
    p = subprocess.run([str(binary), str(src / game), str(hands), policy, str(seed)],
                       check=True, capture_output=True, text=True, timeout=600)
    return json.loads(p.stdout)


def _need_acpc() -> None:
    if acpc_dir() is None:
        pytest.skip("the ACPC sources (../shared/peers/acpc) are not here")
    if compiler() is None:
        pytest.skip("no C++ compiler")


# ---------------------------------------------------------------- pokerjit
def ours_run(workload: str, hands: int, threads: int = 1, seed: int = 1):
    n, _, policy = WORKLOADS[workload]
    return play(RULES, [STACK] * n, hands, policy=policy, seed=seed, threads=threads)


# a 6-max hand with 20 actions (blinds 1/2, 400 chips each, button on seat 0): PHH actions
# in the engine's seat numbers (seat s = player p{s+1}); pokerkit's players start at the
# small blind, so its player i is seat i + 1.
SCRIPT = ["p4 cbr 6", "p5 cc", "p6 cc", "p1 f", "p2 cc", "p3 cbr 20", "p4 cc", "p5 f",
          "p6 cc", "p2 f",                               # preflop
          "p3 cc", "p4 cbr 30", "p6 cc", "p3 cc",        # flop
          "p3 cc", "p4 cbr 80", "p6 cc", "p3 f",         # turn
          "p4 cc", "p6 cc"]                              # river
SCRIPT_HOLE = ["2c3d", "4h5s", "7c7d", "AhKh", "9s9d", "QcJc"]
SCRIPT_BOARD = "Kd8s2h5c3s"
# the same table played as a call-down (24 actions, a six-way showdown): pokerkit's slow case
CALL_DOWN = [f"p{(3 + k) % 6 + 1} cc" for k in range(6)] + \
    [f"p{(1 + k) % 6 + 1} cc" for k in range(18)]


def ours_scripted_hand(script: list[str] = SCRIPT) -> list[int]:
    h = Hand(Rules(), [400] * 6, button=0, hole=SCRIPT_HOLE, board=SCRIPT_BOARD)
    for a in script:
        h.act(a)
    assert h.done
    return h.finishing_stacks


def pokerkit_scripted_hand(script: list[str] = SCRIPT) -> list[int]:
    from pokerkit import Automation, NoLimitTexasHoldem

    auto = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
            Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
            Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    st = NoLimitTexasHoldem.create_state(auto, True, 0, (1, 2), 2, [400] * 6, 6)
    for i in range(6):
        st.deal_hole(SCRIPT_HOLE[(i + 1) % 6])
    board = [SCRIPT_BOARD[:6], SCRIPT_BOARD[6:8], SCRIPT_BOARD[8:]]
    for a in script:
        while st.can_burn_card():
            st.burn_card("??")
            st.deal_board(board.pop(0))
        who, *rest = a.split()
        assert st.actor_index == (int(who[1:]) - 2) % 6
        if rest[0] == "f":
            st.fold()
        elif rest[0] == "cc":
            st.check_or_call()
        else:
            st.complete_bet_or_raise_to(int(rest[1]))
    assert not st.status
    return [st.stacks[(s - 1) % 6] for s in range(6)]


# ---------------------------------------------------------------- pytest-benchmark
SMOKE_HANDS = 20_000


@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_play_one_thread(benchmark, workload):
    ours_run(workload, 2_048)  # compile / load outside the timing
    benchmark.group = f"engine-play-{workload}"
    r = benchmark.pedantic(ours_run, args=(workload, SMOKE_HANDS), rounds=3, iterations=1)
    assert r.hands == SMOKE_HANDS and sum(r.net) == 0


@pytest.mark.slow  # builds and runs the ACPC dealer (a peer): the slow set
@pytest.mark.parametrize("workload", list(WORKLOADS))
def test_acpc_dealer(benchmark, workload):
    _need_acpc()
    benchmark.group = f"engine-play-{workload}"
    r = benchmark.pedantic(acpc_run, args=(workload, SMOKE_HANDS), rounds=3, iterations=1)
    assert r["hands"] == SMOKE_HANDS and abs(sum(r["net"])) < 1e-6


def test_play_two_threads(benchmark):
    benchmark.group = "engine-play-6max-random-2-threads"
    r = benchmark.pedantic(ours_run, args=("6max-random", SMOKE_HANDS, 2), rounds=3,
                           iterations=1)
    assert r.net == ours_run("6max-random", SMOKE_HANDS, 1).net  # same bits


def test_hand_api_ours(benchmark):
    benchmark.group = "engine-hand-6max-20-actions"
    got = benchmark(ours_scripted_hand)
    assert sum(got) == 2400 and got[3] > 400  # AhKh wins with a pair of kings


def test_hand_api_pokerkit(benchmark):
    benchmark.group = "engine-hand-6max-20-actions"
    got = benchmark.pedantic(pokerkit_scripted_hand, rounds=5, iterations=1)
    assert got == ours_scripted_hand()


def test_call_down_hand_ours_and_pokerkit_agree():
    assert ours_scripted_hand(CALL_DOWN) == pokerkit_scripted_hand(CALL_DOWN)


# ---------------------------------------------------------------- side-by-side report
def fresh_play(hands: int = 1_000_000) -> Callable[[], object]:
    """A fresh ``pokerjit play --players 2 --hands N`` process, start to exit."""
    cmd = [sys.executable, "-m", "simulate", "play", "--players", "2", "--hands", str(hands),
           "--stacks", str(STACK), "--blinds", "50/100", "--seed", "1", "--json"]
    return lambda: subprocess.run(cmd, check=True, capture_output=True, timeout=600)


def comparisons(args: argparse.Namespace, _tmp: Path) -> list[Comparison]:
    """Per workload: ours on one thread, the ACPC dealer (its own timing of the hands) and
    ours on two threads, round by round; the scripted hands against pokerkit; a fresh
    ``pokerjit play`` process (not with ``--quick``)."""
    acpc = acpc_dir() is not None and compiler() is not None
    out = []
    for w, (n, _, _) in WORKLOADS.items():
        hands = (200_000 if n == 2 else 50_000) if args.quick else \
            (2_000_000 if n == 2 else 500_000)
        out.append(Comparison(
            f"play {w}, no-limit 50/100, 200 BB stacks (target 1 thread >= "
            f"{TARGETS[w.split('-')[0]]:,} hands/s)",
            [Side("pokerjit 1 thread", functools.partial(ours_run, w, hands, 1), work=hands,
                  seconds=_elapsed),
             Side("ACPC dealer (C)", functools.partial(acpc_run, w, hands), work=hands,
                  seconds=lambda r: r["seconds"], available=acpc),
             Side("pokerjit 2 threads", functools.partial(ours_run, w, hands, 2), work=hands,
                  seconds=_elapsed)], unit="hands"))
    out.append(Comparison("Hand, scripted 6-max hand of 20 actions (target <= 0.5 ms, >= 50x "
                          "pokerkit)", [Side("pokerjit", ours_scripted_hand),
                                        Side("pokerkit", pokerkit_scripted_hand)],
                          min_rep_s=0.3))
    out.append(Comparison("Hand, 6-max call-down (24 actions, six-way showdown)",
                          [Side("pokerjit", functools.partial(ours_scripted_hand, CALL_DOWN)),
                           Side("pokerkit", functools.partial(pokerkit_scripted_hand,
                                                              CALL_DOWN))], min_rep_s=0.3))
    if not args.quick:
        out.append(Comparison("fresh `pokerjit play --players 2 --hands 1000000` (target < 3 s)",
                              [Side("pokerjit", fresh_play())]))
    return out


def _elapsed(r: object) -> float:
    return r.elapsed_s  # type: ignore[attr-defined]


if __name__ == "__main__":
    raise SystemExit(script_main(__doc__, comparisons))
