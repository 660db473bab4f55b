"""``pokerjit eval``: strength, category, best five and text of one hand (Hold'em or Omaha)."""

from __future__ import annotations

import argparse

from simulate.cli._util import UsageError, add_json, emit_json

NAME = "eval"
HELP = "evaluate one hand of 5, 6 or 7 cards (or Omaha hole cards with --board)"
EXAMPLES = """examples:
  pokerjit eval AsKsQsJsTs
  pokerjit eval 'Ah Ad 4c 4s Kh 2d 3c' --json
  pokerjit eval --game omaha AhKhQd2c --board Jh9h3h5s7c
"""
GAMES = ("holdem", "omaha", "omaha5", "omaha6")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", help="the cards, e.g. AsKsQsJsTs (spaces allowed)")
    p.add_argument("--board", default="", help="board cards (Hold'em: added to CARDS)")
    p.add_argument("--game", default="holdem", choices=GAMES,
                   help="holdem (best 5 of the cards) or omaha, omaha5, omaha6 (exactly 2 of "
                        "the 4, 5 or 6 hole cards + 3 of the board)")
    add_json(p)


def _print(d: dict[str, object], labels: list[tuple[str, str]]) -> None:
    width = max(len(label) for _, label in labels) + 2
    for key, label in labels:
        value = d[key]
        if key == "strength":
            value = f"{value} of 7462"
        print(f"{label + ':':<{width}}{value}")


def _omaha(hole_text: str, board_text: str, game: str) -> tuple[dict[str, object], list]:
    from evaluator.cards import parse_cards
    from evaluator.omaha import describe_omaha
    from simulate.request import GAMES as HOLE_CARDS

    if not board_text.strip():
        raise UsageError(f"{game} needs a board: pokerjit eval --game {game} HOLE --board "
                         "BOARD (3 to 5 cards)")
    n = len(parse_cards(hole_text, what="hole cards"))
    if n != HOLE_CARDS[game]:
        raise UsageError(f"{game} hands have {HOLE_CARDS[game]} hole cards, got {n}")
    d = describe_omaha(hole_text, board_text).to_dict()
    d["uses"] = f"{d['hole_used']} from the hand + {d['board_used']} from the board"
    return d, [("hole", "hole"), ("board", "board"), ("strength", "strength"),
               ("category", "category"), ("best_five", "best five"), ("text", "hand"),
               ("uses", "uses")]


def run(args: argparse.Namespace) -> int:
    from evaluator.cards import cards_str, check_disjoint, parse_cards

    text = " ".join(args.cards)
    board_text = cards_str(parse_cards(args.board, what="board"))  # canonical, as in equity
    if args.game != "holdem":
        d, labels = _omaha(text, args.board, args.game)
    else:
        from evaluator import describe

        hand = parse_cards(text, what="cards")
        board = parse_cards(args.board, what="board")
        check_disjoint([("cards", hand), ("board", board)])
        d = describe(hand + board).to_dict()
        labels = [("cards", "cards"), ("strength", "strength"), ("category", "category"),
                  ("best_five", "best five"), ("text", "hand")]
    if args.json:
        d.pop("uses", None)
        if "hole" in d:  # card lists in canonical compact text, as equity writes hands
            d["hole"] = str(d["hole"]).replace(" ", "")
        emit_json({"game": args.game, **d, "board": board_text})
    else:
        _print(d, labels)
    return 0
