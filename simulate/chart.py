"""The preflop chart: every one of the 169 starting hands against N random hands.

One opponent is exact, read from the shipped heads-up table (:mod:`simulate.preflop_table`:
each class's row of the 169 x 169 exact matchups weighted by their card-disjoint combo
pairs, the same fractions as one walk of every board,
:func:`simulate.range_equity.preflop_vs_random`, in milliseconds instead of seconds); two or
more are sampled, one Monte Carlo run per hand (a representative combo of the class against
N ``random`` ranges, so card removal is exact). ``pokerjit chart`` is a thin wrapper around
:func:`chart_rows`.
"""

from __future__ import annotations

from collections.abc import Sequence

DEFAULT_SAMPLES = 100_000  # Monte Carlo deals per hand when neither samples nor a target is given
MAX_OPPONENTS = 9
SEED_STRIDE = 1000  # hand k against n opponents is sampled with seed + SEED_STRIDE * n + k


def check_opponents(opponents: Sequence[int]) -> list[int]:
    """The opponent counts as a list, each once (in the order first named: a chart is not
    repeated for a repeated count); ValueError unless each is 1..MAX_OPPONENTS."""
    from simulate.games import number_text

    out: list[int] = []
    for n in opponents:
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_OPPONENTS:
            shown = number_text(n) if isinstance(n, int) else repr(n)
            raise ValueError(f"opponents must be 1..{MAX_OPPONENTS}, got {shown}")
        if n not in out:
            out.append(n)
    if not out:
        raise ValueError("name at least one number of opponents")
    return out


def chart_rows(opponents: Sequence[int] = (1,), *, samples: int | None = None,
               target_std_error: float | None = None, seed: int | None = None,
               threads: int | None = None, quiet: bool = True) -> list[dict[str, object]]:
    """Rows ``{"hand", "opponents", "equity", "std_error", "exact", "samples"}`` (plus
    ``"seed"`` when sampled), the 169 hands in grid order for each count in ``opponents``.

    ``samples`` / ``target_std_error`` (a fraction of the pot; with both, whichever comes
    first) / ``seed`` apply to the sampled counts (2+); hand ``k`` against ``n`` opponents uses seed
    ``seed + 1000 n + k`` (mod 2**64), so every row is reproducible on its own. Progress
    goes to stderr through :mod:`simulate.progress` unless ``quiet``.
    """
    from evaluator.cards import cards_str
    from simulate.preflop_table import preflop_table
    from simulate.progress import progress
    from simulate.range_equity import range_equity
    from simulate.ranges import HAND_CLASSES, class_combos
    from simulate.results import json_number

    rows: list[dict[str, object]] = []
    for n in check_opponents(opponents):
        if n == 1:
            eq = preflop_table().vs_random()
            rows += [{"hand": h, "opponents": 1, "equity": float(eq[i]), "std_error": 0.0,
                      "exact": True, "samples": None} for i, h in enumerate(HAND_CLASSES)]
            continue
        with progress(len(HAND_CLASSES), f"chart, {n} opponents", "hands", quiet=quiet) as bar:
            for k, h in enumerate(HAND_CLASSES):
                lo, hi = class_combos(h)[0]
                hand_seed = None if seed is None else (seed + SEED_STRIDE * n + k) % 2**64
                r = range_equity(
                    [cards_str([hi, lo])] + ["random"] * n, exact=False,
                    samples=samples or (None if target_std_error else DEFAULT_SAMPLES),
                    target_std_error=target_std_error, seed=hand_seed, threads=threads)
                rows.append({"hand": h, "opponents": n, "equity": r.players[0].equity,
                             "std_error": json_number(r.players[0].std_error), "exact": False,
                             "samples": r.samples, "seed": r.extra.get("seed")})
                bar.update(1)
    return rows


def chart_csv(rows: Sequence[dict[str, object]]) -> str:
    """The chart as CSV text: ``hand,opponents,equity,std_error,exact`` (an unknown
    standard error, from a single deal, is an empty cell)."""
    lines = ["hand,opponents,equity,std_error,exact"]
    lines += [f"{r['hand']},{r['opponents']},{r['equity']:.6f},"
              f"{'' if r['std_error'] is None else format(r['std_error'], '.6f')},"
              f"{str(r['exact']).lower()}" for r in rows]
    return "\n".join(lines) + "\n"
