"""``pokerjit eval``: strength, category, best five and text of one hand.

Hold'em and the Pineapple games (scored as Hold'em: the cards kept after the discard with
the board) take 5 to 7 cards; the Omaha games take the hole cards and ``--board``."""

from __future__ import annotations

import argparse

from simulate.cli._util import UsageError, add_game, add_json, emit_json

NAME = "eval"
HELP = "evaluate one hand of 5, 6 or 7 cards (or Omaha hole cards with --board)"
EXAMPLES = """examples:
  pokerjit eval AsKsQsJsTs
  pokerjit eval 'Ah Ad 4c 4s Kh 2d 3c' --json
  pokerjit eval --game omaha AhKhQd2c --board Jh9h3h5s7c
"""
PINEAPPLE_NOTE = ("pineapple and crazy_pineapple hands are scored as Hold'em: give the two "
                  "cards kept after the discard with the board")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("cards", nargs="+", help="the cards, e.g. AsKsQsJsTs (spaces allowed)")
    p.add_argument("--board", default="", help="board cards (Hold'em: added to CARDS)")
    add_game(p, note="holdem: the best 5 of the cards; omaha games: exactly 2 of the hole "
                     f"cards + 3 of the board; {PINEAPPLE_NOTE}")
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
    from simulate.games import GAMES

    game = GAMES[args.game]
    if game.is_omaha:
        d, labels = _omaha(text, args.board, args.game)
    else:
        from evaluator import describe

        hand = parse_cards(text, what="cards")
        board = parse_cards(args.board, what="board")
        check_disjoint([("cards", hand), ("board", board)])
        if game.is_pineapple and len(hand) == 3 and len(board) < 3:
            raise UsageError(f"{args.game}: give the 2 cards kept after the discard with the "
                             f"board (a 3-card hand is not scored: {PINEAPPLE_NOTE})")
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
        if game.is_pineapple:
            print(f"({PINEAPPLE_NOTE})")
    return 0
