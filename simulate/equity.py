"""The equity dispatcher: :func:`equity` parses a request once and hands it to its engine.

The request becomes a :class:`~simulate.request.Spot` (:func:`simulate.request.parse_spot`)
and the options a :class:`~simulate.sampling.Sampling`; :func:`run_equity` then picks the
engine by the game's family and the hands:

* Pineapple and Crazy Pineapple: :mod:`simulate.pineapple`;
* Omaha (4, 5 or 6 hole cards): :mod:`simulate.omaha`;
* Hold'em with a range anywhere: :mod:`simulate.range_equity`;
* Hold'em with exact hands: :mod:`simulate.holdem`.

Engines import nothing from here, so this module imports none of them at load time
(``import simulate`` stays light).
"""

from __future__ import annotations

from collections.abc import Sequence

from .request import Spot, check_game, parse_spot
from .results import EquityResult
from .sampling import Sampling, sampling

HandsLike = Sequence[str | Sequence[int]]


def equity(hands: HandsLike, board: str | Sequence[int] = "", dead: str | Sequence[int] = "",
           *, game: str = "holdem", exact: bool | None = None, samples: int | None = None,
           target_std_error: float | None = None, seed: int | None = None,
           threads: int | None = None, discard_after: str | None = None,
           discards: str | Sequence[int] = "", discard_policy: str | None = None
           ) -> EquityResult:
    """Each player's share of the pot, ties split.

    ``hands``: 2..10 entries, each an exact hand (``"AhKh"``; four cards for Omaha) or,
    for Hold'em, a range (``"QQ+,AKs"``, ``"random"``, ``"top 15%"``, ``"AhKh,AsKs"``).
    ``board``: 0, 3, 4 or 5 cards; ``dead``: cards out of the deck. ``exact=True`` walks
    every runout, ``False`` samples (``samples`` deals, default 1,000,000, or until every
    player's standard error is at most ``target_std_error``; with both, whichever comes
    first), ``None`` walks every runout when that is quick (always, for exact Hold'em hands)
    and samples otherwise. ``seed``: the same seed gives the same answer on any thread
    count (a random one is drawn and reported in ``extra["seed"]`` when omitted).
    ``threads``: Numba threads (default all).

    ``game="short_deck"`` / ``"short_deck_triton"``: Hold'em on the 36 cards from 6 to A,
    scored on that game's own scale (hands and ranges as Hold'em's; a card below the six is
    an error).
    ``game="pineapple"`` / ``"crazy_pineapple"``: three cards each before the discard, two
    after; ``discard_after`` (``"preflop"``, ``"flop"``, ``"turn"``; default the game's
    standard timing), ``discards`` (cards thrown away, after the discard) and
    ``discard_policy`` (``"made"``, default, or ``"equity"``): see :mod:`simulate.pineapple`.
    """
    g = check_game(game)
    opts = sampling(exact, samples, target_std_error, seed, threads)
    spot = parse_spot(hands, board, dead, game=g, discard_after=discard_after,
                      discards=discards, discard_policy=discard_policy)
    return run_equity(spot, opts)


def run_equity(spot: Spot, opts: Sampling) -> EquityResult:
    """The equity of a parsed ``spot`` with checked ``opts``, by the engine of its game and
    hands (see the module docstring)."""
    if spot.game.is_pineapple:
        from .pineapple import pineapple_run

        return pineapple_run(spot, opts)
    if spot.game.is_omaha:
        from .omaha import omaha_run

        return omaha_run(spot, opts)
    if spot.ranged:
        from .range_equity import analyze_spot

        return analyze_spot(spot, opts).result
    from .holdem import holdem_equity

    return holdem_equity(spot, opts)
