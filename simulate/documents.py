"""The JSON documents that a command prints with ``--json`` and ``pokerjit serve`` answers
with: the builders of the kinds that have no library function of their own (``eval``,
``chart``, ``hand``; equity, range and all-in documents come from
:mod:`simulate.batch.requests`), the one bad-input exception, the one JSON text, and the
clock of time spent compiling or loading kernels (``load_s``), kept out of every result's
``elapsed_s``.

Library code: the command line (:mod:`simulate.cli`) and the server (:mod:`simulate.serve`)
both build on it; it imports neither. Only the standard library at import time.
"""

from __future__ import annotations

import json
from typing import Any


class UsageError(Exception):
    """Bad input to a command or an API request: the command line prints it as one ``error: ...``
    line (exit status 2), ``pokerjit serve`` answers it with HTTP 400."""



_load_mark = (0.0, 0.0)


def start_load_clock() -> None:
    """Mark the start of a command for :func:`load_seconds` (``main`` calls it)."""
    global _load_mark
    from evaluator._jit import compile_seconds

    _load_mark = compile_seconds()


def load_seconds() -> tuple[float, float]:
    """``(compiling and loading, compiling)``: seconds this command spent getting compiled
    kernels ready (kept out of every result's ``elapsed_s``)."""
    from evaluator._jit import compile_seconds

    total, compiling = compile_seconds()
    return total - _load_mark[0], compiling - _load_mark[1]


def load_note() -> str:
    """``""``, or a footer note on the time spent compiling or loading kernels."""
    total, compiling = load_seconds()
    if total < 0.05:
        return ""
    if compiling >= total / 2:
        return f" (+ {total:.1f} s compiling kernels, first run)"
    return f" (+ {total:.2f} s loading compiled kernels)"


def json_text(obj: Any) -> str:
    """One JSON document as text, as every command writes it (stdout or a file). Numbers
    that JSON cannot hold (NaN, infinities) are refused here rather than written."""
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def with_load_s(obj: Any) -> Any:
    """The document as ``--json`` prints it: one that times its work (``elapsed_s``) also
    gets ``load_s``, this command's seconds compiling or loading kernels (a document that
    has one already, such as a server's answer, keeps it)."""
    if isinstance(obj, dict) and "elapsed_s" in obj and "load_s" not in obj:
        obj = {**obj, "load_s": load_seconds()[0]}
    return obj


def error_line(e: BaseException) -> str:
    """The one line a bad input's exception becomes (``error: ...`` on the command line,
    ``{"error": ...}`` from ``pokerjit serve``): its message's first line. Python's refusal
    to convert a number of thousands of digits (whose message is advice on its own limit)
    becomes a plain one."""
    if isinstance(e, ValueError) and "integer string conversion" in str(e):
        return "a number is too large (thousands of digits)"
    return str(e).splitlines()[0] if str(e) else type(e).__name__


# ------------------------------------------------------------------------ the builders
PINEAPPLE_NOTE = ("pineapple and crazy_pineapple hands are scored as Hold'em: give the two "
                  "cards kept after the discard with the board")


def _omaha(hole_text: str, board_text: str, game: str) -> dict[str, object]:
    from evaluator.cards import parse_cards
    from evaluator.omaha import describe_omaha
    from simulate.games import GAMES

    if not board_text.strip():
        raise UsageError(f"{game} needs a board: pokerjit eval --game {game} HOLE --board "
                         "BOARD (3 to 5 cards)")
    n = len(parse_cards(hole_text, what="hole cards"))
    if n != GAMES[game].hole_cards:
        raise UsageError(f"{game} hands have {GAMES[game].hole_cards} hole cards, got {n}")
    return describe_omaha(hole_text, board_text).to_dict()


def eval_document(text: str, board: str = "", game: str = "holdem") -> dict[str, object]:
    """The ``pokerjit eval --json`` document of ``text`` (the cards) with ``board``; raises
    :class:`UsageError`, CardError or ValueError for bad input."""
    from evaluator.cards import cards_str, check_disjoint, parse_cards
    from simulate.games import check_game

    g = check_game(game)
    board_text = cards_str(parse_cards(board, what="board"))  # canonical, as in equity
    if g.is_omaha:
        d = _omaha(text, board, g.name)
        d["hole"] = str(d["hole"]).replace(" ", "")  # compact card text, as equity writes hands
        if g.hilo:
            from evaluator.low import describe_low, evaluate_low

            v = evaluate_low(text, board)
            d["low_value"], d["low"] = v, (describe_low(v) if v else None)
    else:
        from evaluator import describe

        hand = parse_cards(text, what="cards")
        b = parse_cards(board, what="board")
        check_disjoint([("cards", hand), ("board", b)])
        if g.is_pineapple and len(hand) == 3 and len(b) < 3:
            raise UsageError(f"{g.name}: give the 2 cards kept after the discard with the "
                             f"board (a 3-card hand is not scored: {PINEAPPLE_NOTE})")
        d = describe(hand + b, game=g.scale).to_dict()
    d.pop("game", None)  # the describer's family ("omaha" for omaha5 or hi/lo): the game asked
    return {"game": g.name, **d, "board": board_text}


def chart_document(opponents: list[int], *, samples: int | None = None,
             target_std_error: float | None = None, seed: int | None = None,
             threads: int | None = None, quiet: bool = True) -> dict[str, Any]:
    """The ``pokerjit chart --json`` document (:func:`simulate.chart.chart_rows`)."""
    from simulate.chart import chart_rows

    rows = chart_rows(opponents, samples=samples, target_std_error=target_std_error,
                      seed=seed, threads=threads, quiet=quiet)
    return {"game": "holdem", "board": "", "dead": "", "rows": rows}


def hand_document(text: str, source: str = "request") -> dict[str, Any]:
    """The ``--json`` document of PHH text (one hand, or a ``.phhs`` collection) or of a
    site's export (:mod:`simulate.notation.sites`): what
    ``pokerjit hand FILE --json`` prints for a file holding ``text``, with ``source`` for
    the file's path (``POST /api/v1/hand`` of ``pokerjit serve``). Raises UsageError when no
    hand can be read at all."""
    import io

    from simulate.notation.phh_read import PHHError, iter_sections
    from simulate.notation.sites import detect_site, read_site
    from simulate.replay.fast_replay import replay_items
    from simulate.replay.totals import Totals

    if detect_site(text) is not None:  # a site's export: its reader
        items = [(f"{source}:{line}", line, str(d) if isinstance(d, PHHError) else d)
                 for line, d in read_site(text, source)]
    else:
        items = [(src, line, str(d) if isinstance(d, PHHError) else d)
                 for src, line, d in iter_sections(io.BytesIO(text.encode("utf-8")), source)]
    docs = replay_items(items)
    if not docs:
        raise UsageError(f"no .phh or .phhs hands in {source}")
    if not any(d.get("readable", True) for d in docs):
        raise UsageError(f"{source}: no PHH hand could be read ({docs[0]['error']})")
    totals = Totals()
    for d in docs:
        d.pop("readable", None)
        totals.add(d)
    return {"hands": docs, "totals": totals.to_list(), "summary": totals.summary()}
