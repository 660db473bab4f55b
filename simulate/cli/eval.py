"""``pokerjit eval``: strength, category, best five and text of one hand."""

from __future__ import annotations

import argparse

from simulate.cli._util import add_json, emit_json

NAME = "eval"
HELP = "evaluate one hand of 5, 6 or 7 cards (or Omaha hole cards with --board)"
EXAMPLES = """examples:
  pokerjit eval AsKsQsJsTs
  pokerjit eval 'Ah Ad 4c 4s Kh 2d 3c' --json
  pokerjit eval --game omaha AhKhQd2c --board Jh9h3h5s7c
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", help="the cards, e.g. AsKsQsJsTs (spaces allowed)")
    p.add_argument("--board", default="", help="board cards (Hold'em: added to CARDS)")
    p.add_argument("--game", default="holdem", choices=("holdem", "omaha"),
                   help="holdem (best 5 of the cards) or omaha (exactly 2 hole + 3 board)")
    add_json(p)


def run(args: argparse.Namespace) -> int:
    from evaluator.cards import check_disjoint, parse_cards

    text = " ".join(args.cards)
    if args.game == "omaha":
        from simulate.cli.omaha_eval import run_omaha  # provided by the Omaha module

        return run_omaha(text, args.board, args.json)
    from evaluator import describe

    hand = parse_cards(text, what="cards")
    board = parse_cards(args.board, what="board")
    check_disjoint([("cards", hand), ("board", board)])
    d = describe(hand + board)
    if args.json:
        emit_json(d.to_dict())
    else:
        print(f"cards:     {d.cards}")
        print(f"strength:  {d.strength} of 7462")
        print(f"category:  {d.category}")
        print(f"best five: {d.best_five}")
        print(f"hand:      {d.text}")
    return 0
