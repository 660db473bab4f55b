"""``pokerjit hand``: replay PHH hand histories (pots, winners, finishing stacks, all-in EV)."""

from __future__ import annotations

import argparse
from typing import Any

NAME = "hand"
HELP = "replay PHH hand histories (.phh, .phhs or a folder): pots, winners, stacks, all-in EV"
EXAMPLES = """examples:
  pokerjit hand dwan-ivey-2009.phh
  pokerjit hand hands.phhs --json
  pokerjit hand data/phh/            (every .phh/.phhs below, sorted)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a .phh file, a .phhs file or a folder")
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def _num(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:,.2f}"
    return f"{x:,}"


def _print_hand(r: Any) -> None:
    print(f"== {r.source}")
    if r.error:
        print(f"   error: {r.error}")
        return
    from simulate.cli._util import table

    recorded = r.recorded_finishing_stacks
    rows = []
    for s, name in enumerate(r.players):
        row = [f"p{s + 1}", name[:22], r.hole_cards[s] or "-", _num(r.starting_stacks[s]),
               _num(r.winnings[s]), _num(r.finishing_stacks[s])]
        if recorded is not None:
            row.append("ok" if recorded[s] == r.finishing_stacks[s]
                       else f"recorded {_num(recorded[s])}")
        if r.allin_ev is not None:
            row.append(f"{r.allin_ev[s]['ev']:+,.2f}")
        rows.append(row)
    header = ["seat", "player", "cards", "start", "won", "finish"]
    if recorded is not None:
        header.append("record")
    if r.allin_ev is not None:
        header.append("all-in EV")
    print(f"   {r.variant}  board {r.board or '-'}")
    for i, p in enumerate(r.pots):
        kind = "main pot" if i == 0 else f"side pot {i}"
        elig = ", ".join(f"p{s + 1}" for s in p["eligible"])
        won = ", ".join(f"p{s + 1}" for s in p["winners"])
        print(f"   {kind}: {_num(p['amount'])} (eligible {elig}; won by {won})")
    if r.rake:
        print(f"   rake: {_num(r.rake)}")
    if r.allin_ev is not None:
        how = "exact" if r.allin_exact else "sampled"
        print(f"   all-in with board {r.allin_board or '(none)'}: EV over the runouts ({how})")
    print("\n".join("   " + line for line in table(rows, header).splitlines()))


def run(args: argparse.Namespace) -> int:
    from simulate.cli._util import UsageError, emit_json
    from simulate.phh.parse import load_hands
    from simulate.phh.replay import replay

    try:
        hands = load_hands(args.file)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    if not hands:
        raise UsageError(f"no .phh or .phhs files in {args.file}")
    results = [replay(h, src) for src, h in hands]
    if args.json:
        emit_json({"hands": [r.to_dict() for r in results]})
        return 0
    for r in results:
        _print_hand(r)
    n_err = sum(1 for r in results if r.error)
    checked = [r.matches_record for r in results if r.matches_record is not None]
    print(f"{len(results)} hands, {n_err} with errors; "
          f"{sum(checked)}/{len(checked)} match the recorded finishing stacks")
    return 0
