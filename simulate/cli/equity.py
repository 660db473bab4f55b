"""``pokerjit equity``: each hand's share of the pot, exact or sampled."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Iterator
from typing import Any

from simulate.cli._util import (
    add_game,
    add_json,
    add_sampling_options,
    choice_line,
    emit_json,
    load_note,
    pct,
    plural,
    sampling_kwargs,
    table,
    with_choice,
)

NAME = "equity"
HELP = ("equity of 2 to 10 hands (Hold'em, Omaha 4-6, Pineapple, Crazy Pineapple), exact or "
        "Monte Carlo")
EXAMPLES = """examples:
  pokerjit equity AhKh QsQd
  pokerjit equity AhKh QsQd 7c7d --board Ks8h2c --json
  pokerjit equity AhAs KdKc QhQs JcJd --samples 2000000 --seed 7
  pokerjit equity AhKh QsQd --dead 2c3d --std-error 0.0005
  pokerjit equity AhAsKhKs QdJdTc9c --game omaha
  pokerjit equity AhKh2c 7s7d8c --game crazy_pineapple --discard-policy equity
  pokerjit equity AhKh 7s7d --game pineapple --board Ks8h2c --discards 3c8c
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.games import DISCARD_AFTER, POLICIES

    p.add_argument("hands", nargs="+", metavar="HAND",
                   help="a hand (AhKh; 4 to 6 cards for Omaha, 3 or 2 for Pineapple) or, for "
                        "Hold'em, a range")
    p.add_argument("--board", default="", help="board cards: 0, 3, 4 or 5 (e.g. Ks8h2c)")
    p.add_argument("--dead", default="", help="cards out of the deck (e.g. 2c3d)")
    add_game(p, note="Ranges are Hold'em only; Pineapple hands have 3 cards before the "
                     "discard, 2 after")
    p.add_argument("--discard-after", default=None, choices=tuple(DISCARD_AFTER),
                   help="pineapple games: the betting round after which each player "
                        "discards (default: preflop for pineapple, flop for crazy_pineapple)")
    p.add_argument("--discards", default="",
                   help="pineapple games after the discard: the cards thrown away (dead)")
    p.add_argument("--discard-policy", default=None, choices=tuple(POLICIES),
                   help="pineapple games before the discard: how each player discards: made "
                        "(default; best made hand with the board, else the preflop order) or "
                        "equity (best equity against a random hand on the board)")
    add_sampling_options(p)
    add_json(p)


def _top_categories(cats: dict[str, float], n: int = 3) -> str:
    top = sorted(((k, v) for k, v in cats.items() if v > 0), key=lambda kv: -kv[1])[:n]
    return ", ".join(f"{name} {100 * share:.1f}%" for name, share in top)


def format_result(doc: dict[str, Any]) -> str:
    """The human-readable table of an equity document (``EquityResult.to_dict()``, the
    ``--json`` document: the same text locally and through ``--server``)."""
    from simulate.sampling import switched_note

    rows = []
    hilo = bool(doc["players"]) and "high" in doc["players"][0]
    for p in doc["players"]:
        se = math.inf if p["std_error"] is None else p["std_error"]  # null: unknown
        err = "exact" if doc["exact"] else f"±{100 * se:.3f}%"
        halves = [pct(p["high"]).strip(), pct(p["low"]).strip()] if hilo else []
        rows.append([p["hand"], pct(p["equity"]).strip(), *halves, pct(p["win"]).strip(),
                     pct(p["tie"]).strip(), err, _top_categories(p["categories"])])
    # hi/lo: the shares won by the high and the low halves; "scoop" the pot won whole and
    # alone (the win column), "split" the deals with a part of it
    head = (["hand", "equity", "high", "low", "scoop", "split", "std error",
             "most likely high hands"] if hilo
            else ["hand", "equity", "win", "tie", "std error", "most likely hands"])
    out = [table(rows, head, align="lrrrrrrl" if hilo else "lrrrrl")]
    where = []
    if doc["board"]:
        where.append(f"board {doc['board']}")
    if doc["dead"]:
        where.append(f"dead {doc['dead']}")
    how = (("exact: the board is complete" if doc["samples"] == 1
            else f"exact: every one of {plural(doc['samples'], 'runout')}") if doc["exact"]
           else f"Monte Carlo: {plural(doc['samples'], 'deal')}")
    how += switched_note(doc)  # the result's extra keys are top-level keys of the document
    how += _discard_note(doc)
    seed = doc.get("seed")
    if not doc["exact"] and seed is not None:
        how += f", seed {seed}"
    how += f", {doc['elapsed_s']:.3f} s{load_note()}"
    out.append("")
    out.append("; ".join([*where, how]))
    return "\n".join(out)


def _discard_note(extra: dict[str, Any]) -> str:
    """Pineapple results: when the discard is and how it was chosen."""
    if "discard_after" not in extra:
        return ""
    note = f", discard after the {extra['discard_after']} betting"
    if "discards" in extra:
        note += f" (discards {' '.join(str(d) for d in extra['discards'])}"
        note += f" by the {extra['discard_policy']} policy)"
    elif "discard_policy" in extra:
        note += f" by the {extra['discard_policy']} policy"
    return note


@contextlib.contextmanager
def skip_blas_probe() -> Iterator[None]:
    """Keep Numba's one-time BLAS probe from importing ``scipy.linalg``.

    When Numba loads its CPU target (the first kernel call of a process) it imports
    ``scipy.linalg`` only to learn whether ``np.dot`` can be compiled; with SciPy
    installed that costs ~0.3 s of a ~1 s command. Our kernels use no BLAS, so a
    command process hides ``scipy.linalg`` for that moment and restores it after.
    A no-op when Numba's target or SciPy is already loaded.
    """
    if "scipy.linalg" in sys.modules or "numba.np.arraymath" in sys.modules:
        yield
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]
    try:
        yield
    finally:
        if "scipy.linalg" in sys.modules and sys.modules["scipy.linalg"] is None:
            del sys.modules["scipy.linalg"]


def _discard_kwargs(args: argparse.Namespace) -> dict[str, object]:
    """The pineapple options given (none for other games, so their errors name them)."""
    kw: dict[str, object] = {}
    if args.discard_after is not None:
        kw["discard_after"] = args.discard_after
    if args.discards:
        kw["discards"] = args.discards
    if args.discard_policy is not None:
        kw["discard_policy"] = args.discard_policy
    return kw


def run(args: argparse.Namespace) -> int:
    from simulate.equity import run_equity
    from simulate.request import parse_spot
    from simulate.sampling import Sampling, default_choices

    opts = Sampling(**sampling_kwargs(args))  # checked there, by the options' names
    with skip_blas_probe(), default_choices() as chosen:
        spot = parse_spot(args.hands, args.board, args.dead, game=args.game,
                          **_discard_kwargs(args))  # type: ignore[arg-type]
        res = run_equity(spot, opts)
    print_document(args, with_choice(res.to_dict(), chosen))
    return 0


def request(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``POST /api/v1/equity`` body of these arguments (``pokerjit serve``), or None when
    they need options a request does not carry (the pineapple discard options)."""
    kw = sampling_kwargs(args)
    if _discard_kwargs(args):
        return None
    return {"hands": list(args.hands), "board": args.board, "dead": args.dead,
            "game": args.game, "exact": kw["exact"], "samples": kw["samples"],
            "std_error": kw["target_std_error"], "seed": kw["seed"]}


def print_document(args: argparse.Namespace, doc: dict[str, Any]) -> None:
    """Print an equity document as ``--json`` or as the text table (local or remote)."""
    if args.json:
        emit_json(doc)
    else:
        line = choice_line([doc["default_samples"]] if "default_samples" in doc else [])
        sys.stdout.write(format_result(doc) + "\n" + (line + "\n" if line else ""))
