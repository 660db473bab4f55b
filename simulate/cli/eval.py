"""``pokerjit eval``: strength, category, best five and text of one hand.

Hold'em and the Pineapple games (scored as Hold'em: the cards kept after the discard with
the board) take 5 to 7 cards; the Omaha games take the hole cards and ``--board``."""

from __future__ import annotations

import argparse
from typing import Any

from simulate.cli._util import add_game, add_json, emit_json
from simulate.documents import PINEAPPLE_NOTE
from simulate.documents import eval_document as document  # noqa: F401 - the command's document

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
    add_game(p, note="holdem: the best 5 of the cards; omaha games: exactly 2 of the hole "
                     f"cards + 3 of the board; {PINEAPPLE_NOTE}")
    add_json(p)


_LABELS = {"holdem": [("cards", "cards"), ("strength", "strength"), ("category", "category"),
                      ("best_five", "best five"), ("text", "hand")],
           "omaha": [("hole", "hole"), ("board", "board"), ("strength", "strength"),
                     ("category", "category"), ("best_five", "best five"), ("text", "hand"),
                     ("uses", "uses")]}


def _spaced(cards: str) -> str:
    """``AhKhQd`` -> ``Ah Kh Qd`` (canonical card text is two characters a card)."""
    return " ".join(cards[i:i + 2] for i in range(0, len(cards), 2))


def _top(game: str) -> int:
    """The top of ``game``'s strength scale (7462; short deck 1404)."""
    from evaluator.hands import max_strength
    from simulate.games import GAMES

    g = GAMES.get(game)
    return max_strength(g.scale) if g is not None else 7462


def format_text(doc: dict[str, Any]) -> str:
    """The text ``pokerjit eval`` prints for its ``--json`` document (locally and through
    ``--server``)."""
    from simulate.games import GAMES

    d = dict(doc)
    if "hole" in d:
        d["hole"], d["board"] = _spaced(str(d["hole"])), _spaced(str(d["board"]))
        d["uses"] = f"{d['hole_used']} from the hand + {d['board_used']} from the board"
    labels = _LABELS["omaha" if "hole" in d else "holdem"]
    width = max(len(label) for _, label in labels) + 2
    lines = []
    for key, label in labels:
        value = d[key]
        if key == "strength":
            value = f"{value} of {_top(str(doc['game']))}"
        lines.append(f"{label + ':':<{width}}{value}")
    game = GAMES.get(str(doc["game"]))
    if game is not None and game.is_pineapple:
        lines.append(f"({PINEAPPLE_NOTE})")
    if "low" in d:  # hi/lo: the eight-or-better low beside the high
        lines.append(f"{'low:':<{width}}{d['low'] or 'none (no five ranks of 8 or lower)'}")
    return "\n".join(lines)


def request(args: argparse.Namespace) -> dict[str, Any]:
    """The ``POST /api/v1/eval`` body of these arguments (``pokerjit serve``)."""
    return {"cards": " ".join(args.cards), "board": args.board, "game": args.game}


def print_document(args: argparse.Namespace, doc: dict[str, Any]) -> None:
    if args.json:
        emit_json(doc)
    else:
        print(format_text(doc))


def run(args: argparse.Namespace) -> int:
    print_document(args, document(" ".join(args.cards), args.board, args.game))
    return 0
