"""``pokerjit icm``: each player's ICM equity (Malmuth-Harville) from stacks and payouts."""

from __future__ import annotations

import argparse
from typing import Any

from simulate.cli._util import UsageError, add_json, emit_json, table

NAME = "icm"
HELP = "tournament equity (ICM): each player's expected prize from the stacks and payouts"
EXAMPLES = """Stacks are chip counts (0 = busted: the lowest places, in the order given); payouts
are the prizes of places 1, 2, ... (places beyond them pay nothing). Exact
(Malmuth-Harville) for any field size.

examples:
  pokerjit icm 5000 3000 2000 --payouts 50 30 20
  pokerjit icm 4200 3100 1500 900 300 --payouts 500 300 200 --json
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("stacks", nargs="+", metavar="STACK", help="each player's chips")
    p.add_argument("--payouts", nargs="+", required=True, metavar="P",
                   help="the prize of place 1, 2, ...")
    add_json(p)


def numbers(words: list[str], option: str) -> list[float]:
    """``words`` as finite numbers (commas also separate them); :class:`UsageError` naming
    ``option`` and the first word that is not one."""
    out = []
    for w in words:
        for part in w.replace(",", " ").split():
            shown = f"'{part}'" if len(part) <= 40 else f"'{part[:20]}...' ({len(part)} characters)"
            try:
                x = float(part)
            except ValueError:
                raise UsageError(f"{option}: {shown} is not a number") from None
            if x != x or x in (float("inf"), float("-inf")):
                why = "not a finite number" if part.strip("+-").isalpha() else "too large"
                raise UsageError(f"{option}: {shown} is {why}")
            out.append(x)
    if not out:
        raise UsageError(f"{option}: no numbers given")
    return out


def document(stacks: list[float], payouts: list[float]) -> dict[str, Any]:
    """The ``pokerjit icm --json`` document: ``{"model", "payouts", "players": [{"stack",
    "chip_share", "equity", "equity_share"}...]}``."""
    from simulate.icm import icm

    eq = icm(stacks, payouts)
    chips = sum(stacks)
    pool = sum(payouts)
    players = [{"stack": _num(s), "chip_share": s / chips, "equity": float(e),
                "equity_share": float(e) / pool if pool > 0 else 0.0}
               for s, e in zip(stacks, eq.tolist(), strict=True)]
    return {"model": "malmuth-harville", "payouts": [_num(p) for p in payouts],
            "players": players}


def _num(x: float) -> float | int:
    """``x``, as an int when it is a whole number a float holds exactly (1e300 stays 1e300)."""
    return int(x) if float(x).is_integer() and abs(x) <= 2 ** 53 else x


def run(args: argparse.Namespace) -> int:
    doc = document(numbers(args.stacks, "STACK"), numbers(args.payouts, "--payouts"))
    if args.json:
        emit_json(doc)
    else:
        print(format_text(doc))
    return 0


def format_text(doc: dict[str, Any]) -> str:
    """The text ``pokerjit icm`` prints for its document."""
    pool = sum(doc["payouts"])
    rows = [[str(i + 1), f"{p['stack']:,}", f"{100 * p['chip_share']:.2f}%",
             f"{p['equity']:,.2f}", f"{100 * p['equity_share']:.2f}%"]
            for i, p in enumerate(doc["players"])]
    head = (f"ICM (Malmuth-Harville): {len(doc['players'])} players, "
            f"{len(doc['payouts'])} places paid, prize pool {pool:,g}")
    return head + "\n\n" + table(rows, ["player", "stack", "chips", "equity", "of pool"])
