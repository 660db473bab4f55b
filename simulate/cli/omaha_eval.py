"""``pokerjit eval --game omaha HOLE --board BOARD``: the best Omaha hand, explained.

Not a command of its own: :mod:`simulate.cli.eval` calls :func:`run_omaha`.
"""

from __future__ import annotations

from simulate.cli._util import emit_json


def run_omaha(hole_text: str, board_text: str, as_json: bool) -> int:
    """Print strength, category, best five, text and the two hole + three board cards used.

    ``hole_text``: 4, 5 or 6 hole cards; ``board_text``: 3, 4 or 5 board cards. Bad input
    raises :class:`evaluator.cards.CardError` (the CLI prints one ``error:`` line).
    """
    from evaluator.cards import CardError
    from evaluator.omaha import describe_omaha

    if not board_text.strip():
        raise CardError("Omaha needs a board: pokerjit eval --game omaha HOLE --board BOARD "
                        "(3 to 5 cards)")
    d = describe_omaha(hole_text, board_text)
    if as_json:
        emit_json(d.to_dict())
    else:
        print(f"hole:      {d.hole}")
        print(f"board:     {d.board}")
        print(f"strength:  {d.strength} of 7462")
        print(f"category:  {d.category}")
        print(f"best five: {d.best_five}")
        print(f"hand:      {d.text}")
        print(f"uses:      {d.hole_used} from the hand + {d.board_used} from the board")
    return 0
