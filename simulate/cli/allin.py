"""``pokerjit allin``: expected payout of every seat in an all-in with side pots."""

from __future__ import annotations

import argparse
import math
from typing import Any

from simulate.cli._util import (
    UsageError,
    add_game,
    add_json,
    add_sampling_options,
    choice_line,
    emit_json,
    load_note,
    plural,
    sampling_kwargs,
    table,
    with_choice,
)
from simulate.games import whole_number

NAME = "allin"
HELP = "all-in expected value: main and side pots, each seat's expected payout"
EXAMPLES = """Each SPEC is CARDS:CHIPS (a live hand and the total chips it put in),
RANGE:CHIPS (a Hold'em range such as QQ+,AKs:0.5 or random; the chips follow the
last colon) or fold:CHIPS (dead money from a folded seat). Seats are numbered
0, 1, ... in the order given. A split pot's odd chips go one at a time to the
tied winners in seat order starting left of the button. With ranges every
combination of combos that shares no card counts by the product of its weights.
--dead-money adds chips nobody has to match (antes) to the main pot. --std-error
is in chips (the standard error of each seat's expected payout).

examples:
  pokerjit allin AhAs:100 KdKc:60 QhQs:30 --button 0
  pokerjit allin AhAs:200 KdKc:120 QhQs:50 JcJd:200 fold:10 --samples 1000000 --seed 7
  pokerjit allin AhKh:500 QsQd:320 7c7d:500 --board Ks8h2c --json
  pokerjit allin 'QQ+:100' AhKh:60 random:30 --board Ks8h2c4d
  pokerjit allin AhAsKhKs:100 QdJdTc9c:60 --game omaha --board 7s8h2c --dead-money 12
  pokerjit allin AhKh2c:100 7s7d8c:60 QcJc3d:100 --game crazy_pineapple --discard-policy equity
  pokerjit allin AhAs:100 KdKc:60 QhQs:30 --stacks 0 40 70 --payouts 50 30 20 --posted 0 0 10

With --stacks and --payouts (a tournament), each seat also gets its ICM equity after the
pot (exact over every outcome, exact Hold'em hands) and its ICM equity had it folded with
only its --posted chips in.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    from simulate.games import DISCARD_AFTER, POLICIES

    p.add_argument("specs", nargs="+", metavar="SPEC",
                   help="CARDS:CHIPS for a live seat, fold:CHIPS for dead money")
    p.add_argument("--board", default="", help="board cards so far (0, 3, 4 or 5)")
    p.add_argument("--dead", default="", help="cards known to be out of the deck")
    p.add_argument("--button", default="0", metavar="I",
                   help="the button's seat (default 0); fixes who gets odd chips")
    p.add_argument("--dead-money", default="0", metavar="N",
                   help="chips in the main pot that no seat has to match, e.g. antes")
    add_game(p, note="Ranges are Hold'em only; omaha takes 4 to 6 hole cards, omaha5 and "
                     "omaha6 exactly 5 and 6")
    p.add_argument("--discard-after", default=None, choices=tuple(DISCARD_AFTER),
                   help="pineapple games: the betting round after which each seat discards "
                        "(default: preflop for pineapple, flop for crazy_pineapple)")
    p.add_argument("--discard-policy", default=None, choices=tuple(POLICIES),
                   help="pineapple games before the discard: made (default) or equity")
    icm = p.add_argument_group("tournaments (ICM)")
    icm.add_argument("--stacks", nargs="+", metavar="S", default=None,
                     help="each seat's chips behind, not counting what it put in this pot")
    icm.add_argument("--payouts", nargs="+", metavar="P", default=None,
                     help="the prizes of places 1, 2, ...: adds each seat's ICM equity after "
                          "the pot and had it folded")
    icm.add_argument("--posted", nargs="+", metavar="C", default=None,
                     help="what each seat had been forced to post (blinds, antes; default 0)")
    add_sampling_options(p, unit="chips")
    add_json(p)


def _icm_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """``stacks``, ``payouts`` and ``posted`` of the command line (empty without them)."""
    from simulate.cli.icm import numbers

    if args.stacks is None and args.payouts is None and args.posted is None:
        return {}
    if args.stacks is None or args.payouts is None:
        raise UsageError("ICM equity needs both --stacks and --payouts")
    posted = None
    if args.posted is not None:
        posted = []
        for x in numbers(args.posted, "--posted"):
            if not x.is_integer() or x < 0:
                raise UsageError(f"--posted: '{x:g}' is not a whole number of chips")
            posted.append(int(x))
    return {"stacks": numbers(args.stacks, "--stacks"),
            "payouts": numbers(args.payouts, "--payouts"), "posted": posted}


def _button(text: str) -> int:
    t = text.strip()
    if not t.lstrip("-").isdigit():
        raise UsageError(f"--button must be a seat number, got '{text}'")
    return whole_number(t, "--button")


def _checked(args: argparse.Namespace) -> tuple[dict[str, Any], int, int]:
    """The checked sampling options, button and dead money of the command line."""
    kw = sampling_kwargs(args)
    dead_money = args.dead_money.strip()
    if not dead_money.isdigit():
        raise UsageError(f"--dead-money must be a whole number of chips, got '{args.dead_money}'")
    return kw, _button(args.button), whole_number(dead_money, "--dead-money")


def request(args: argparse.Namespace) -> dict[str, Any] | None:
    """The ``POST /api/v1/allin`` body of these arguments (``pokerjit serve``), or None when
    they need options a request does not carry (the pineapple discard options)."""
    kw, button, dead_money = _checked(args)
    if args.discard_after is not None or args.discard_policy is not None or _icm_kwargs(args):
        return None
    return {"players": list(args.specs), "board": args.board, "dead": args.dead,
            "button": button, "dead_money": dead_money, "game": args.game,
            "exact": kw["exact"], "samples": kw["samples"], "std_error": kw["target_std_error"],
            "seed": kw["seed"]}


def run(args: argparse.Namespace) -> int:
    from simulate.allin import allin_ev
    from simulate.batch.requests import allin_game
    from simulate.sampling import default_choices

    kw, button, dead_money = _checked(args)
    with default_choices() as chosen:
        r = allin_ev(args.specs, args.board, args.dead, button=button,
                     game=allin_game(args.game, args.specs), dead_money=dead_money,
                     discard_after=args.discard_after, discard_policy=args.discard_policy,
                     **kw, **_icm_kwargs(args))
    r.game = args.game
    print_document(args, with_choice(r.to_dict(), chosen))
    return 0


def print_document(args: argparse.Namespace, doc: dict[str, Any]) -> None:
    if args.json:
        emit_json(doc)
    else:
        print(format_text(doc))


def format_text(r: dict[str, Any]) -> str:
    """The text ``pokerjit allin`` prints for its ``--json`` document (locally and through
    ``--server``)."""
    out = []
    mode = (f"exact, {plural(r['samples'], 'runout')}" if r["exact"]
            else f"Monte Carlo, {plural(r['samples'], 'runout')}, seed {r.get('seed')}")
    game = "" if r["game"] == "holdem" else f"{r['game']}   "
    out.append(f"{game}board: {r['board'] or '-'}   dead: {r['dead'] or '-'}   "
               f"button: seat {r['button']}   {mode}   {r['elapsed_s']:.3f} s{load_note()}")
    if r["dead_money"]:
        out.append(f"dead money: {r['dead_money']} chips in the main pot")
    pots = r["pots"]
    names = [f"side pot {i}" if i else "main pot" for i in range(len(pots))]
    out.append("")
    out.append(table([[name, str(pot["amount"]), " ".join(str(s) for s in pot["eligible"])]
                      for name, pot in zip(names, pots, strict=True)],
                     ["pot", "chips", "eligible seats"], align="lrl"))
    for p in r["players"]:
        if p["returned"]:
            out.append(f"uncalled: {p['returned']} chips returned to seat {p['seat']}")
    out.append("")
    header = ["seat", "hand", "committed", "expected", "EV"]
    if not r["exact"]:
        header.append("± std err")
    header += [f"{'main' if i == 0 else f'side {i}'} eq" for i in range(len(pots))]
    rows = []
    for p in r["players"]:
        row = [str(p["seat"]), p["hand"], str(p["committed"]), f"{p['expected_payout']:.2f}",
               f"{p['ev']:.2f}"]
        if not r["exact"]:
            se = math.inf if p["std_error"] is None else p["std_error"]  # null: unknown
            row.append(f"{se:.2f}")
        row += [f"{100 * e:.2f}%" if (i < len(pots) and p["seat"] in pots[i]["eligible"])
                else "-" for i, e in enumerate(p["pot_equity"])]
        rows.append(row)
    out.append(table(rows, header, align="rlrrr" + "r" * (len(header) - 5)))
    if "icm_equity" in r["players"][0]:
        out.append("")
        out.append(table([[str(p["seat"]), p["hand"], f"{p['icm_equity']:.4f}",
                           "-" if p["icm_equity_if_folded"] is None
                           else f"{p['icm_equity_if_folded']:.4f}",
                           "-" if p["icm_equity_if_folded"] is None
                           else f"{p['icm_equity'] - p['icm_equity_if_folded']:+.4f}"]
                          for p in r["players"]],
                         ["seat", "hand", "ICM equity", "if folded", "difference"],
                         align="rlrrr"))
    if "default_samples" in r:
        out.append(choice_line([r["default_samples"]]))
    return "\n".join(out)
