"""The one list of what to compile per kind of work, so that no later command pauses.

Numba compiles a kernel the first time it is called with new argument types and keeps the
result in its disk cache (``NUMBA_CACHE_DIR``, else ``__pycache__`` beside the sources of a
checkout, else a folder in the home: :func:`evaluator._jit.cache_locator_bases`). Each
step of :data:`STEPS` makes one tiny call per engine and path (exact and sampled, ranges,
Omaha, all-ins, the hand engine, hand histories) for one kind of work (:data:`KINDS`):
``pokerjit warmup`` runs them all after an install, and :func:`warm` runs one kind's,
the serial part of a step being what ``pokerjit batch`` and ``pokerjit hand`` warm
their worker processes with (:func:`simulate.batch.chunks.warm_lines`,
:func:`simulate.replay.worker_warmup.warm_hands`). Each step imports what it compiles
when it runs: importing this module loads neither the batch nor the replay package.
``serial=True`` keeps to what a worker runs: one Numba thread, so that no thread pool is
started in a process about to fork.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

BIG_BATCH = 60_000  # rows enough for the parallel batch kernels (smaller batches run serially)


def _evaluator() -> None:
    import numpy as np

    import evaluator as E

    hand = np.array([[0, 4, 8, 12, 17, 30, 51]], np.uint8)
    for rows in (hand, np.repeat(hand, BIG_BATCH, axis=0)):
        E.evaluate_batch(rows, threads=1)
        E.evaluate_batch(rows)
        E.evaluate_batch(rows, check=False)
    E.count_categories(5)


def _omaha_eval() -> None:
    import numpy as np

    from evaluator.omaha import evaluate_omaha_batch

    for n in (1, BIG_BATCH):
        evaluate_omaha_batch(np.repeat(np.array([[0, 4, 8, 12]], np.uint8), n, axis=0),
                             np.repeat(np.array([[20, 24, 28, 33, 46]], np.uint8), n, axis=0))


def _equity() -> None:
    from simulate.equity import equity

    equity(["AhKh", "QsQd"])
    equity(["AhKh", "QsQd", "7c7d"], "Ks8h2c")
    # two blocks or more of samples: the parallel loop (fewer run on one thread)
    equity(["AhKh", "QsQd", "7c7d"], "Ks8h2c", samples=100_000, seed=1)
    equity(["AhKh", "QsQd"], samples=1000, seed=1, threads=1)


def _ranges() -> None:
    from simulate.range_equity import analyze_ranges, range_equity

    range_equity(["QQ+,AKs", "random"], "Td9d2c", exact=True)
    range_equity(["AKs", "random"], "Td9d2c7h", exact=True)
    range_equity(["QQ+,AKs", "JJ", "AhKx"], "Td9d2c4s", exact=True)
    range_equity(["QQ+,AKs", "random", "AhKx"], "Td9d2c", samples=1000, seed=1)
    an = analyze_ranges(["QQ+,AKs", "random"], "Td9d2c", exact=True)
    an.to_dict()


def _omaha() -> None:
    from simulate.equity import equity

    equity(["AhAsKhKs", "QdJdTc9c"], "2c7d8h3s", game="omaha")
    equity(["AhAsKhKs", "QdJdTc9c"], game="omaha", samples=1000, seed=1)
    equity(["Ah2sKhKs", "QdJdTc9c"], "2c7d8h3s", game="omaha_hilo")  # the low columns


def _allin() -> None:
    from simulate.allin import allin_ev

    allin_ev(["AhAs:100", "KdKc:60", "QhQs:30", "fold:10"])
    allin_ev(["AhAs:100", "KdKc:60", "QhQs:30"], samples=1000, seed=1)
    allin_ev(["AhAs:100", "KdKc:60", "QhQs:30"], samples=100_000, seed=1)  # the parallel loop
    allin_ev(["AhAs:100", "KdKc:60", "QhQs:30"], "Ks8h2c")  # a flop all-in: board by board
    allin_ev(["QQ+:100", "AhKh:60", "random:30"], "Ks8h2c4d")
    allin_ev(["QQ+:100", "AhKh:60", "random:30"], "Ks8h2c", samples=1000, seed=1)
    allin_ev(["AhAsKhKs:100", "QdJdTc9c:60"], "7s8h2c", game="omaha")
    allin_ev(["AhAsKhKs:100", "QdJdTc9c:60"], game="omaha", samples=1000, seed=1)
    allin_ev(["Ah2sKhKs:100", "QdJdTc9c:60"], game="omaha_hilo", samples=1000, seed=1)


#: The batch line kind (:data:`simulate.batch.chunks.SAMPLE_LINES`) of each kind of work
#: whose worker processes answer batch lines.
_LINE_KIND = {"batch": "fast", "equity": "equity", "omaha": "omaha", "range": "range",
              "allin": "allin"}


def _lines(kind: str) -> Callable[[], None]:
    """The serial warm-up of ``kind``: what a batch worker answering such lines needs
    (:func:`simulate.batch.chunks.warm_lines`)."""
    def run() -> None:
        from simulate.batch.chunks import warm_lines

        warm_lines((_LINE_KIND[kind],))

    return run


def _many() -> None:
    import numpy as np

    from simulate.many import equity_many

    _lines("batch")()  # the serial many-spot kernels (pokerjit batch)
    spots = np.repeat(np.array([[[51, 50], [47, 46]]], np.uint8), 64, axis=0)
    board = np.repeat(np.array([[0, 5, 10]], np.uint8), 64, axis=0)
    equity_many(spots, board)
    equity_many(spots, board, exact=False, samples=10, seed=1)


def _engine() -> None:
    from simulate.engine import Hand, Rules, play
    from simulate.engine.self_play import BLOCK

    rules = Rules()
    play(rules, [200, 200], 10, seed=1)
    play(rules, [200] * 6, 10, policy="random", seed=1)
    play(Rules(game="omaha"), [200] * 3, 10, policy="random", seed=1)  # the other games' loop
    # two blocks or more on several threads: the parallel loops (a default `pokerjit play`)
    play(rules, [200, 200], 2 * BLOCK, seed=1, threads=2)
    play(Rules(game="omaha"), [200] * 3, 2 * BLOCK, policy="random", seed=1, threads=2)
    hand = Hand(rules, [200, 200], seed=1)
    while hand.actor is not None:
        hand.check() if hand.legal.check else hand.call()


def _phh_many() -> None:
    """What ``pokerjit hand`` runs per chunk (serial): one plain hand through the compiled
    many-hands replay, one through the per-hand path
    (:func:`simulate.replay.worker_warmup.warm_hands`)."""
    from simulate.replay.worker_warmup import warm_hands

    warm_hands()


def _phh() -> None:
    from simulate.notation.phh_read import parse_text
    from simulate.replay.fast_replay import replay_item
    from simulate.replay.hand_replay import replay
    from simulate.replay.worker_warmup import SAMPLE_HAND

    replay(parse_text(SAMPLE_HAND)[0][1])  # type: ignore[arg-type]  # the compiled replay
    # as `pokerjit hand` replays them: an Omaha showdown (its settle holds Omaha's
    # evaluator), and a showdown whose winner hangs on hidden cards (the pots read again)
    omaha = SAMPLE_HAND.replace(b"'NT'", b"'PO'").replace(b"AhKh", b"AhKhQdJd").replace(
        b"7c7d", b"7c7d6s5s")
    hidden = SAMPLE_HAND.replace(b"'d dh p2 7c7d'", b"'d dh p2 ????'").replace(
        b", 'p2 sm 7c7d'", b"")
    for text in (omaha, hidden):
        replay_item("warm-up", 1, text)  # one by one, its document made (the settle's call)
    from simulate.pots import build_pots, settle

    settle(build_pots([2, 2], [True, True]), [1, 2], lows=[2, 1])  # a hi/lo showdown's
    _phh_many()  # many hands in one compiled call


def _store() -> None:
    """What ``pokerjit import`` runs per chunk (serial): the hand replay's warm-up and the
    compiled counting walk (:func:`simulate.store.chunks.warm_import`)."""
    from simulate.store.chunks import warm_import

    warm_import()


def _pineapple() -> None:
    from simulate.allin import allin_ev
    from simulate.equity import equity

    equity(["AhKhQd", "7c7d2s"], game="pineapple", samples=1000, seed=1)
    equity(["AhKhQd", "7c7d2s"], "Ks8h2c", game="crazy_pineapple", samples=1000, seed=1)
    # before the flop: the discard sampled on the flop each deal
    equity(["AhKhQd", "7c7d2s"], game="crazy_pineapple", samples=20_000, seed=1)
    allin_ev(["AhKhQd:100", "7c7d2s:60"], game="crazy_pineapple", samples=20_000, seed=1)
    # the strong policy at the discard point (one flop-table row, not the whole table) and
    # the exact walk before the discard (the rule text's turn discard, a small deck)
    equity(["AhKhQd", "7c7d2s"], "Ks8h3c", game="crazy_pineapple", discard_policy="equity")
    equity(["AhKhQd", "7c7d2s"], "Ks8h3c", "3s4s5s6s8s9sTsJsQs", game="crazy_pineapple",
           discard_after="turn", exact=True)
    equity(["AhKh", "7c7d"], "Ks8h2c", game="pineapple", discards="Qd2s")


def _tournament() -> None:
    """``pokerjit icm`` (the subset walk, and the integral past
    :data:`simulate.icm.SUBSET_MAX` players), ``pushfold`` (heads-up and the ICM game)
    and ``allin`` with tournament stacks (each seat's ICM equity)."""
    from simulate.allin import allin_ev
    from simulate.icm import SUBSET_MAX, icm
    from simulate.pushfold import pushfold
    from simulate.pushfold_icm import pushfold_icm

    icm([5000, 3000, 2000], [50, 30, 20])
    icm([100 + k for k in range(SUBSET_MAX + 2)], [50, 30, 20])
    pushfold(10.0)
    pushfold_icm([10, 8, 6], [50, 30, 20])
    allin_ev(["AhAs:100", "KdKc:60", "QhQs:30"], "2c7d8h", stacks=[0, 40, 70],
             payouts=[50, 30, 20], posted=[0, 0, 10])


@dataclass
class Step:
    """One warm-up step: ``name``, the function making its calls, the kind of work it is
    for (:data:`KINDS`) and, for kinds that run on worker processes, ``serial``: the
    part a worker needs, on one thread (:func:`warm` with ``serial=True``)."""

    name: str
    run: Callable[[], None]
    kind: str
    serial: Callable[[], None] | None = None
    needs: str | None = None  # a module that must exist for the step to apply


#: The longest steps come early (the hand engine 100-150 s, Omaha 80-115 s on a 2-core
#: machine), so that `warmup --jobs N`, which hands the steps out in this order, does not
#: end with one process compiling the engine alone; a step that builds on another's
#: kernels (hand histories on the engine's, many spots on equity's) still comes after it.
STEPS = (
    Step("evaluator", _evaluator, "evaluator"),
    Step("omaha evaluator", _omaha_eval, "omaha"),
    Step("hand engine", _engine, "play", needs="simulate.engine"),
    Step("omaha equity", _omaha, "omaha", _lines("omaha")),
    Step("ranges", _ranges, "range", _lines("range")),
    Step("hand histories", _phh, "hand", _phh_many, needs="simulate.replay.hand_replay"),
    Step("equity", _equity, "equity", _lines("equity")),
    Step("all-in EV", _allin, "allin", _lines("allin")),
    Step("many spots and batch", _many, "batch", _lines("batch")),
    Step("pineapple equity", _pineapple, "pineapple", needs="simulate.pineapple"),
    Step("hand database", _store, "import", _store, needs="simulate.store.plain_walk"),
    Step("tournament", _tournament, "icm"),
)

#: The kinds of work :func:`warm` knows, in :data:`STEPS` order.
KINDS = tuple(dict.fromkeys(s.kind for s in STEPS))


def warm(kinds: str | Iterable[str], *, serial: bool = False,
         report: Callable[[str, float], None] | None = None) -> None:
    """Compile (or load from Numba's cache) the kernels of one or more kinds of work
    (:data:`KINDS`: ``evaluator``, ``omaha``, ``equity``, ``range``, ``allin``,
    ``pineapple``, ``batch``, ``play``, ``hand``), in :data:`STEPS` order. ``serial``: only
    what a worker process of that kind runs, on one thread (kinds without worker
    processes do nothing then). ``report(step name, seconds)`` after each step run.
    ValueError for an unknown kind."""
    want = [kinds] if isinstance(kinds, str) else list(kinds)
    bad = sorted(set(want) - set(KINDS))
    if bad:
        raise ValueError(f"no warm-up for {bad[0]!r} (kinds: {', '.join(KINDS)})")
    for step in STEPS:
        if step.kind not in want:
            continue
        fn = step.serial if serial else step.run
        if fn is not None and _applies(step):
            t0 = time.perf_counter()
            fn()
            if report is not None:
                report(step.name, time.perf_counter() - t0)


def _applies(step: Step) -> bool:
    return not (step.needs and importlib.util.find_spec(step.needs) is None)


def run_step(name: str) -> dict[str, object]:
    """Run the step called ``name``: ``{"name", "seconds", "compile_s", "compiled"}``
    (``compile_s``: the part spent compiling or loading kernels; ``compiled``: whether any
    kernel was compiled, not only loaded)."""
    from evaluator._jit import compile_seconds

    step = next(s for s in STEPS if s.name == name)
    (c0, k0), t0 = compile_seconds(), time.perf_counter()
    step.run()
    dt = time.perf_counter() - t0
    c1, k1 = compile_seconds()
    return {"name": step.name, "seconds": dt, "compile_s": c1 - c0, "compiled": k1 > k0}


def step_names() -> list[str]:
    """The names of the steps that apply here, in :data:`STEPS` order (a step whose extra
    is not installed is left out)."""
    return [s.name for s in STEPS if _applies(s)]


def run_steps(names: list[str], threads: int | None = None) -> list[dict[str, object]]:
    """:func:`run_step` of each name in turn: the chunk function of ``pokerjit warmup
    --jobs N``, which runs the steps on the one pool (:func:`simulate.run.executor`);
    ``threads`` is the pool's argument, unused (a step picks its own threads)."""
    return [run_step(n) for n in names]


def warmup(report: Callable[[str, float], None] | None = None) -> list[dict[str, object]]:
    """Run every step here, one after another; returns ``[{"name", "seconds", "compile_s",
    "compiled"}...]`` in :data:`STEPS` order (``compile_s``: the part spent compiling or
    loading kernels). ``report(name, seconds)`` is called after each step. ``pokerjit
    warmup --jobs N`` runs the same steps on N worker processes instead."""
    done = []
    for name in step_names():
        done.append(run_step(name))
        if report is not None:
            report(name, float(done[-1]["seconds"]))  # type: ignore[arg-type]
    return done
