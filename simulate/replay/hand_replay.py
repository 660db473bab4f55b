"""Play a PHH hand history through: pots, winners, finishing stacks, all-in EV.

Three modules: :mod:`simulate.replay.accounting` (the chip accounting, for every variant, in
the hand's integer units), :mod:`simulate.replay.engine_check` (the same hand through the
rules engine) and this one (the document :class:`HandReplay`, both put together, the all-in
EV).

:func:`replay` takes a :class:`simulate.notation.phh_read.HandHistory` and returns a
:class:`HandReplay`. Nothing here needs to know whose turn it is: each action
names its player, so the replay only tracks the chips each seat has put in on
the current street and in total, who folded, who mucked, the hole cards and
the board. That is enough for every variant's chip accounting (no-limit,
pot-limit and fixed-limit alike: the file states every ``cbr`` total).

Rules, as in the PHH convention:

- Heads-up (two players), the first seat posts the *second* entry of
  ``antes`` and ``blinds_or_straddles`` and vice versa (seat 2 is the button
  and small blind).
- Antes are posted first, capped at the stack; blinds and straddles next,
  capped at what is left. ``cbr X`` brings the seat's street total to ``X``;
  ``cc`` matches the largest street total (or all-in for less); ``pb`` posts
  the bring-in. A street ends at a board deal (``d db``), a later hole-card
  deal (stud) or a draw (``sd``).
- A negative ``blinds_or_straddles`` entry is a *post*: a player who has just sat down
  pays that amount as a live bet to play at once (as a big blind would, without moving
  the first actor or the minimum raise; ``Rules.posts`` in the engine).
- A starting stack of 0 is the hand's error (the engine seats nobody without chips, and
  the chip accounting accepts nothing the engine refuses).
- Antes are dead money in the main pot that nobody has to match. When
  ``ante_trimming_status`` is true *and* every seat posts the same ante,
  antes count as part of each seat's contribution instead (so a short-stacked
  seat's ante forms its own level). A big-blind ante (only one seat antes) is
  never trimmed: read as trimmed, that seat would get its ante back as an
  uncalled bet, which is not how the game is played and not what the recorded
  finishing stacks say (see ``data/phh/README.md``).
- Pots come from :func:`simulate.pots.build_pots` (uncalled chips go back);
  ``rake`` (if the file has it) comes out of the main pot first. A seat that
  shows no cards (``pN sm`` alone) mucks and gives up its claim.
- Each contested pot goes to the best eligible hand: Hold'em (``NT``, ``FT``,
  ``PT``) best five of hole + board; Omaha high (``NO``, ``FO``, ``PO``)
  exactly two hole and three board cards; seven-card stud high (``F7S``) best
  five of the seat's seven cards; short deck (``NS``, and the project's ``NST`` for the
  Triton rules) best five on that game's scale. Other variants (razz, stud or Omaha
  hi-lo, draw, ...) replay fine while at most one seat contests
  each pot; a real showdown in them is reported as not supported. Odd chips go
  one at a time to the tied winners in seat order starting left of the button
  (:func:`simulate.pots.settle`).
- The button: PHH lists the seats in order from the small blind round to the
  button, and the blinds say who the small blind is. With three or more
  players the button is the seat before the first seat that posts a blind
  (the small blind): the last seat when, as usual, the first seat posts the
  small blind, and when the last seat alone posts (a button blind, as pokerkit
  reads it). Heads-up the button *is* the small blind: the second seat
  (which posts the first entry of ``blinds_or_straddles``). With no blinds
  (stud) the last seat is used.

All-in EV: when at most one live seat still has chips behind before the board
is complete (Hold'em and Omaha), the board at that moment is recorded and
each seat's expected payout over every runout of the rest of the deck is
computed by :func:`simulate.allin.allin_run` on the spot parsed once
(:func:`simulate.request.parse_allin_spot`, as :func:`simulate.allin.allin_ev`
parses it) with the same pots: the seats'
contributions (seats that put nothing in included, ``allow_zero``), antes
that are not part of the contributions as ``dead_money`` in the main pot,
the button above for odd chips, and the hole cards of folded seats known
anywhere in the file as dead cards (they are out of the deck). Rake is not
taken from the expected payouts. A runout walk larger than the engine's
exact rule (:func:`simulate.allin.spot_walks_exactly`: the spots ``equity`` walks exactly)
is sampled instead
(:data:`EV_SAMPLES` runouts, seed 0) and marked ``exact: false``.

Amounts in the file may be decimal (``1720.35``); the replay works in integer
units of the smallest decimal place used and converts back for output.

Through the engine: Hold'em and Omaha high (:data:`ENGINE_VARIANTS`) are also
played action by action through :class:`simulate.engine.Hand` (manual deals), so
an illegal action, a bet beyond the stack, a card dealt twice, a shown hand that
differs from the dealt one, or a history that stops before the hand is over is
that hand's ``error``, naming the action; the engine's commitments and (when it
can settle) finishing stacks must agree with the accounting below, and the hand
is marked ``validated``. Other variants, and hands whose forced bets the engine
cannot post (antes that are neither uniform nor a big-blind ante, blinds that are
not small/big/straddles, a ``min_bet`` other than the big blind, more than 10
seats), are replayed by the chip accounting only (``validated`` False).

Gaps in real exports: a starting stack written ``inf`` (unknown) is played as
:data:`UNKNOWN_STACK` chips, its finishing stack is ``None`` and its ``net`` is
still given. A contested pot where an eligible seat's cards were never shown
(``????``) cannot be settled: that is not an error, ``outcome_known`` is False and
the pot's ``winners`` and the payouts, winnings, net and finishing stacks of the
seats eligible for it are ``None``. Recorded ``winnings`` are kept as information
and never checked against.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from evaluator.cards import UNKNOWN, cards_str, cards_text
from simulate.notation.phh_read import HandHistory, PHHError
from simulate.notation.site_text import SiteInfo
from simulate.pots import PotStructure, settle
from simulate.replay.accounting import (  # noqa: F401 - the variant tables, re-exported
    ENGINE_VARIANTS,
    HILO_VARIANTS,
    HOLDEM_VARIANTS,
    MAX_UNITS,
    OMAHA_VARIANTS,
    PINEAPPLE_VARIANTS,
    SHORT_DECK_VARIANTS,
    STUD_HIGH_VARIANTS,
    UNKNOWN_STACK,
    VARIANT_NAMES,
    ChipState,
    ReplayError,
    Units,
    antes_trimmed,
    big_blind_of,
    button_seat,
    has_lows,
    play_hand,
    pot_structure,
    scale_of,
    showdown_low,
    showdown_strength,
    take_rake,
)
from simulate.replay.engine_check import (
    BettingRefused,
    EngineCannotPost,
    IncompleteHistory,
    cross_check,
    engine_replay,
)

__all__ = [
    "EV_SAMPLES",
    "HOLDEM_VARIANTS",
    "OMAHA_VARIANTS",
    "STUD_HIGH_VARIANTS",
    "HandReplay",
    "ReplayError",
    "replay_document",
    "replay",
]

#: Runouts drawn when the all-in EV walk is larger than the engine's exact limit.
EV_SAMPLES = 200_000


@dataclass
class HandReplay:
    """Outcome of one hand. Amounts are in the file's units (int or float).

    ``pots``: ``[{"amount", "eligible", "winners"}]`` (seats 0-based);
    ``payouts``: chips each seat takes from the table (pot winnings plus its
    returned uncalled chips); ``winnings``: pot winnings only (the PHH
    ``winnings`` field's meaning); ``net``: finishing minus starting stack;
    ``allin_ev``: per seat ``{"committed", "expected_payout", "ev"}`` or None;
    ``committed``: chips each seat put in (antes, blinds, bets), None when not known.
    ``complete`` False: the history stops before the hand is over (a player still to act,
    cards still due); ``error`` says where, ``outcome_known`` is False, and ``pots`` and
    ``committed`` are the chips in so far (no winners).
    """

    source: str
    variant: str = ""
    players: list[str] = field(default_factory=list)
    starting_stacks: list[Any] = field(default_factory=list)
    finishing_stacks: list[Any] | None = None
    pots: list[dict[str, Any]] = field(default_factory=list)
    payouts: list[Any] = field(default_factory=list)
    winnings: list[Any] = field(default_factory=list)
    net: list[Any] = field(default_factory=list)
    board: str = ""
    hole_cards: list[str] = field(default_factory=list)
    rake: Any = 0
    allin_ev: list[dict[str, Any]] | None = None
    allin_board: str | None = None
    allin_exact: bool | None = None
    allin_error: str | None = None
    recorded_finishing_stacks: list[Any] | None = None
    recorded_winnings: list[Any] | None = None
    validated: bool = False
    not_validated: str | None = None
    outcome_known: bool = True
    complete: bool = True
    committed: list[Any] | None = None
    repairs: list[str] = field(default_factory=list)
    big_blind: Any = None
    error: str | None = None
    #: A site hand's facts (None for PHH): the document gains the site keys.
    site: SiteInfo | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form for ``pokerjit hand --json`` (:func:`replay_document`, and
        :func:`site_keys` for a site hand)."""
        doc = replay_document(
            source=self.source, variant=self.variant, players=self.players,
            starting_stacks=self.starting_stacks, finishing_stacks=self.finishing_stacks,
            net=self.net, pots=self.pots, committed=self.committed, winnings=self.winnings,
            allin_ev=self.allin_ev, validated=self.validated, not_validated=self.not_validated,
            outcome_known=self.outcome_known, complete=self.complete, error=self.error,
            board=self.board, hole_cards=self.hole_cards, rake=self.rake,
            big_blind=self.big_blind, allin_board=self.allin_board,
            allin_exact=self.allin_exact, allin_error=self.allin_error,
            recorded_finishing_stacks=self.recorded_finishing_stacks,
            recorded_winnings=self.recorded_winnings, repairs=self.repairs)
        if self.site is not None:
            doc.update(site_keys(self, self.site))
        return doc

    @property
    def matches_record(self) -> bool | None:
        """True/False when the file records finishing stacks, else None."""
        if self.recorded_finishing_stacks is None or self.finishing_stacks is None:
            return None
        pairs = [(a, b) for a, b in zip(self.finishing_stacks, self.recorded_finishing_stacks,
                                        strict=True) if a is not None and b is not None]
        if not pairs:
            return None
        return all(Decimal(str(a)) == Decimal(str(b)) for a, b in pairs)


def replay_document(*, source: str, variant: str, players: list[str], starting_stacks: list[Any],
                  finishing_stacks: list[Any] | None, net: list[Any],
                  pots: list[dict[str, Any]], committed: list[Any] | None,
                  winnings: list[Any], allin_ev: list[dict[str, Any]] | None,
                  validated: bool, not_validated: str | None, outcome_known: bool,
                  complete: bool, error: str | None, board: str, hole_cards: list[str],
                  rake: Any, big_blind: Any, allin_board: str | None,
                  allin_exact: bool | None, allin_error: str | None,
                  recorded_finishing_stacks: list[Any] | None,
                  recorded_winnings: list[Any] | None, repairs: list[str]) -> dict[str, Any]:
    """The JSON document of one replayed hand (the fields of :class:`HandReplay`), keys in
    their one order: the single builder of :meth:`HandReplay.to_dict` and of the compiled
    path's documents (:mod:`simulate.replay.fast_replay`), so both are equal, key order
    included."""
    return {
        "source": source, "variant": variant, "players": players,
        "starting_stacks": starting_stacks, "finishing_stacks": finishing_stacks, "net": net,
        "pots": pots, "committed": committed, "winnings": winnings, "allin_ev": allin_ev,
        "validated": validated, "not_validated": not_validated,
        "outcome_known": outcome_known, "complete": complete, "error": error,
        "board": board, "hole_cards": hole_cards, "rake": rake, "big_blind": big_blind,
        "allin_board": allin_board, "allin_exact": allin_exact, "allin_error": allin_error,
        "recorded_finishing_stacks": recorded_finishing_stacks,
        "recorded_winnings": recorded_winnings, "repairs": repairs, "site": "phh",
    }


def _money(x: Decimal | int) -> int | float:
    if type(x) is int:
        return x
    return int(x) if x == x.to_integral_value() else float(x)


def _dec(x: Any) -> Decimal:
    """An amount of a document as a Decimal (an int directly; a float by its text)."""
    return Decimal(x) if type(x) is int else Decimal(str(x))


def site_keys(r: HandReplay, info: SiteInfo) -> dict[str, Any]:
    """The keys a site hand's document adds or gives a site meaning (the contract's
    "Site hand histories"): the site's facts; ``committed`` without the uncalled bets
    returned; ``winnings`` what each player collected as the site prints it (every board of
    a hand run more than once, and cash-outs); ``net`` = winnings - committed; ``fees``,
    ``boards``, ``cashout``; the builder's ``repairs``. Where the showdown the replay
    settled gives a player other chips than the site paid (one board, outcome known, more
    than the rake apart), ``error`` says so, naming the hand's line."""
    out: dict[str, Any] = {
        "site": info.site, "hand_id": info.hand_id, "table": info.table, "time": info.time,
        "currency": info.currency,
        "tournament": None if info.tournament is None else info.tournament.to_dict(),
        "game": info.game, "betting": info.betting, "seats": list(info.seats),
        "hero": info.hero, "boards": list(info.boards),
        "fees": {k: _money(v) for k, v in info.fees.items()},
        "cashout": {k: _money(info.cashout.get(k, Decimal(0))
                              - info.cashout_paid.get(k, Decimal(0)))
                    for k in {**info.cashout, **info.cashout_paid}},
    }
    if info.repairs:
        out["repairs"] = [*r.repairs, *info.repairs]
    rec = r.recorded_winnings or []
    if len(rec) != len(r.players) or r.committed is None:
        return out
    # whole chips and no cash-out (most hands): the same sums in ints, no Decimal made
    whole = (not info.cashout and not info.cashout_paid
             and all(type(v) is int for v in (*r.committed, *r.payouts, *r.winnings))
             and len(r.payouts) == len(r.winnings) == len(rec)
             and all(float(v).is_integer() for v in rec))
    num: Callable[[Any], Any] = int if whole else _dec
    collected = [int(v) if whole else Decimal(str(v)) for v in rec]
    zero = 0 if whole else Decimal(0)
    cash = [info.cashout.get(p, zero) for p in r.players]
    paid = [info.cashout_paid.get(p, zero) for p in r.players]
    returned = [num(p) - num(w) if p is not None and w is not None
                else zero for p, w in zip(r.payouts or [None] * len(r.players),
                                          r.winnings or [None] * len(r.players),
                                          strict=True)]
    committed = [num(c) - ret for c, ret in zip(r.committed, returned, strict=True)]
    # a cash-out or insurance paid to the player counts as winnings; a premium the player
    # paid outside the pot (a negative cash-out) comes off the net only
    won = [c + x for c, x in zip(collected, cash, strict=True)]
    out["committed"] = [_money(c) for c in committed]
    out["winnings"] = [_money(w) for w in won]
    out["net"] = [_money(w - c - x) for w, c, x in zip(won, committed, paid, strict=True)]
    if (r.error is None and r.outcome_known and len(info.boards) <= 1 and r.winnings
            and None not in r.winnings):
        rake = _dec(r.rake or 0) + sum(info.fees.values(), Decimal(0))
        for p, mine, site, v in zip(r.players, r.winnings, collected, rec, strict=True):
            if abs(num(mine) - site) > rake:
                site = Decimal(str(v))  # as the site's record reads
                out["error"] = (f"line {info.line}: {p} collected {site} by the site's "
                                f"record, but the showdown gives {mine}")
                break
    return out


def _named_seats(message: str, hand: HandHistory) -> str:
    """``message`` about a site hand with the players it names by PHH seat (``p3``) given
    by name at its end (``[p3 = LovID]``): a site's user knows the names, not our seat
    order. A PHH hand's message is left as it is."""
    if hand.site is None:
        return message
    seats = sorted({int(m) for m in re.findall(r"\bp(\d+)\b", message)
                    if 0 < int(m) <= len(hand.players)})
    if not seats:
        return message
    return message + " [" + ", ".join(f"p{s} = {hand.players[s - 1]}" for s in seats) + "]"


def replay(hand: HandHistory | PHHError, source: str | None = None, *,
           fast: bool = True) -> HandReplay:
    """Play ``hand`` through; never raises for a bad hand: ``.error`` says what went wrong.
    ``fast=False`` plays every action through the engine one call at a time (the reference
    the compiled fast path is tested against; same results, slower)."""
    if isinstance(hand, PHHError):
        return HandReplay(source=source or "<hand>", error=str(hand))
    if not _first:
        _first.append(True)
        _compile_beside()
    out = HandReplay(source=source or hand.source, variant=hand.variant,
                     players=list(hand.players), site=hand.site)
    try:
        _replay(hand, out, fast)
    except IncompleteHistory as exc:  # what is known: the chips in so far
        out.error = _named_seats(str(exc), hand)
        out.finishing_stacks = None
        out.allin_ev = None
        out.complete = out.outcome_known = False
        h, u = exc.hand, exc.units
        out.pots = [{"amount": u.out(p.amount), "eligible": list(p.eligible), "winners": None}
                    for p in h.pots]
        out.committed = [u.out(c) for c in h.committed]
    except (ReplayError, PHHError) as exc:
        out.error = _named_seats(str(exc), hand)
        out.finishing_stacks = None
        out.allin_ev = None
    except Exception as exc:  # noqa: BLE001 - one broken hand must not stop a folder
        out.error = f"internal error: {type(exc).__name__}: {exc}".split("\n")[0]
        out.finishing_stacks = None
        out.allin_ev = None
    return out


def _cap_reached(hand: HandHistory, u: Units, cap: Any) -> bool:
    """Whether a seat of ``hand`` put ``cap`` (the site's amount) or more into the pot. (A
    site hand's cards were checked when it was built: each is dealt once.)"""
    st = play_hand(hand, u)
    return max(st.total, default=0) >= u.to_int(cap)


#: Non-empty once this process has replayed a hand (:func:`replay`).
_first: list[bool] = []


def _compile_beside() -> None:
    """A process's first replay, where the disk cache lacks the kernels: a forked copy
    (:func:`evaluator._first_run.compile_beside`) compiles, one after another, the engine's
    ``act`` (which the compiled replay calls), the showdown's settle and pot builder
    (a high-only showdown's: hi/lo hands compile theirs here) and the small all-in walk
    (:func:`simulate._kernels.allin.exact_runouts`), while this process compiles the
    engine's start and the replay loop. A kernel's first compile here, from a call or
    while typing a kernel that calls it, waits for that kernel alone, then loads it. A
    copy still compiling when this process ends (a file with no all-in never waits for the
    last kernel) finishes on its own and
    leaves the kernel cached for the next run. Nothing happens where the cache holds them or
    the program did not allow it (a library user's process)."""
    import numpy as np

    from evaluator._first_run import compile_beside
    from evaluator._tables import get_tables
    from simulate._kernels.allin import exact_runouts
    from simulate._kernels.award import settle_high
    from simulate._kernels.engine import act
    from simulate._kernels.pots import build_pots

    n = 2
    i64, u8, flags = np.zeros(n, np.int64), np.zeros(n, np.uint8), np.zeros((n, n), np.bool_)
    table = np.zeros((n, n), np.int64)
    compile_beside(
        act, (i64, np.int64(0), np.int64(0), u8, u8),
        (settle_high, (i64, i64, flags, i64, i64)),
        (build_pots, (i64, np.zeros(n, np.bool_), i64, flags, i64)),
        (exact_runouts, (np.int64(0), np.int64(0), np.int64(0), u8, i64, i64, i64, table,
                         table, flags, i64, get_tables().kernel_args, table)))


def _replay(hand: HandHistory, out: HandReplay, fast: bool = True) -> None:
    u = Units(scale_of(hand))
    for s, v in enumerate(hand.starting_stacks):
        if v == 0:  # what the engine refuses, the chip accounting does not accept either
            raise ReplayError(f"p{s + 1}'s starting stack is 0 (a seat in the hand needs "
                              "chips)")
    if hand.variant in ENGINE_VARIANTS:
        try:
            engine = engine_replay(hand, u, out, fast)
        except EngineCannotPost as exc:
            engine = None
            out.not_validated = f"the engine cannot post this hand's forced bets: {exc}"
        except BettingRefused as exc:
            # A site's record is what happened at its table (its chips were checked when it
            # was read): where our rules refuse a betting action of it (a fold with nothing
            # to call, a short all-in blind called in full), the hand stands on its chip
            # accounting, not validated, and says why. A PHH hand's refusal, and any card
            # fault, stay the hand's error.
            if hand.site is None:
                raise
            engine = None
            out.not_validated = _named_seats(
                f"the rules engine refuses the site's record: {exc}", hand)
        except ReplayError:
            # a capped game (PokerStars' "$80 Cap"): a player who reaches the cap bets no
            # more, as if all in, which the engine does not know; such a hand stands on its
            # chip accounting. Elsewhere, or below the cap, the engine's error stands.
            cap = hand.site.cap if hand.site is not None else None
            if cap is None or not _cap_reached(hand, u, cap):
                raise
            engine = None
            out.not_validated = (f"a capped game whose betting reached the cap of {cap}: the "
                                 "rules engine plays no cap")
    else:
        engine = None
        name = VARIANT_NAMES.get(hand.variant)
        out.not_validated = (f"variant {hand.variant}" + (f" ({name})" if name else "")
                             + " is not played by the engine")
    out.starting_stacks = [None if v.is_infinite() else u.out(u.to_int(v))
                           for v in hand.starting_stacks]
    out.big_blind = big_blind_of(hand, u)
    if hand.finishing_stacks is not None:
        out.recorded_finishing_stacks = [
            None if v.is_infinite() else u.out(u.to_int(v)) if (v * u.scale) % 1 == 0
            else float(v) for v in hand.finishing_stacks]
    if hand.winnings is not None:
        out.recorded_winnings = [float(v) for v in hand.winnings]
    st = play_hand(hand, u)
    n = st.n
    out.board = cards_text(st.board)
    out.hole_cards = [cards_text([UNKNOWN if c is None else c for c in h]) for h in st.holes]
    trim = antes_trimmed(hand)
    live = [not (st.folded[s] or st.mucked[s]) for s in range(n)]
    if not any(live) and any(not f for f in st.folded):
        # Everyone still in mucked: the last one to muck is the only claimant left.
        raise ReplayError("every remaining seat mucked: nobody showed a hand")
    structure = pot_structure(st, live, trim)
    rake = u.to_int(hand.rake) if hand.rake is not None else 0
    structure = take_rake(structure, rake)
    contested = [p for p in structure.pots if len(p.eligible) > 1 and p.amount > 0]
    strengths: list[int | None] = [None] * n
    lows: list[int] | None = [0] * n if has_lows(hand.variant) else None
    hidden: set[int] = set()
    for s in sorted({s for p in contested for s in p.eligible}):
        if not st.holes[s] or any(c is None for c in st.holes[s]):
            hidden.add(s)  # never shown: the pots it contests cannot be settled
            continue
        strengths[s] = showdown_strength(hand.variant, st.holes[s], st.board,
                                 f"p{s + 1} ({hand.players[s]})")
        if lows is not None:
            lows[s] = showdown_low(hand.variant, st.holes[s], st.board)
    unknown_pots = [p for p in contested if hidden.intersection(p.eligible)]
    unknown_seats = {s for p in unknown_pots for s in p.eligible}
    known = PotStructure(pots=[p for p in structure.pots if p not in unknown_pots],
                         returned=structure.returned, committed=structure.committed,
                         live=structure.live)
    button = button_seat(hand)
    payouts = settle(known, [0 if v is None else v for v in strengths], button, lows=lows)
    pots_out = []
    for p in structure.pots:
        winners: list[int] | None
        if p in unknown_pots:
            winners = None
        elif len(p.eligible) > 1:
            best = max(strengths[s] or 0 for s in p.eligible)
            winners = [s for s in p.eligible if strengths[s] == best]
            low = max(lows[s] for s in p.eligible) if lows is not None else 0
            if low:  # hi/lo: the best high(s) and the best low(s) share the pot
                winners = sorted(set(winners) | {s for s in p.eligible if lows[s] == low})
        else:
            winners = list(p.eligible)
        pots_out.append({"amount": u.out(p.amount), "eligible": list(p.eligible),
                         "winners": winners})
    finishing = [st.stack[s] + payouts[s] for s in range(n)]
    start = [u.to_int(v) for v in hand.starting_stacks]
    if not unknown_pots and sum(finishing) + rake != sum(start):
        raise ReplayError("internal error: chips not conserved")
    inf_stack = [v.is_infinite() for v in hand.starting_stacks]

    def seat_value(s: int, x: int, null_if_inf: bool = False) -> Any:
        if s in unknown_seats or (null_if_inf and inf_stack[s]):
            return None
        return u.out(x)

    out.outcome_known = not unknown_pots
    out.committed = [u.out(st.total[s] + st.ante[s]) for s in range(n)]
    out.pots = pots_out
    out.rake = u.out(rake)
    out.payouts = [seat_value(s, payouts[s]) for s in range(n)]
    out.winnings = [seat_value(s, payouts[s] - structure.returned[s]) for s in range(n)]
    out.finishing_stacks = [seat_value(s, finishing[s], True) for s in range(n)]
    out.net = [seat_value(s, finishing[s] - start[s]) for s in range(n)]
    if engine is not None:
        cross_check(engine, st, finishing, rake or trim, unknown_seats)
        out.validated = True
    if st.allin_board is not None:
        try:
            _allin(hand, st, trim, u, out)
        except Exception as exc:  # noqa: BLE001 - the stacks stand without the EV
            out.allin_ev = None
            out.allin_error = f"{type(exc).__name__}: {exc}".split("\n")[0]


def _allin(hand: HandHistory, st: ChipState, trim: bool, u: Units, out: HandReplay) -> None:
    """Expected payouts over the runouts from the board at the moment of the all-in."""
    n = st.n
    board = st.allin_board or []
    live = [not st.folded[s] for s in range(n)]
    for s in range(n):
        if live[s] and (not st.holes[s] or any(c is None for c in st.holes[s])):
            return  # a live hand is unknown: no EV
    from simulate.allin import allin_run, spot_walks_exactly
    from simulate.request import parse_allin_spot
    from simulate.sampling import CHIPS, sampling

    omaha = hand.variant in OMAHA_VARIANTS or hand.variant in HILO_VARIANTS
    contrib = [st.total[s] + (st.ante[s] if trim else 0) for s in range(n)]
    dead_cards = [c for s in range(n) if not live[s] for c in st.holes[s] if c is not None]
    seats = [(st.holes[s] if live[s] else None, contrib[s]) for s in range(n)]
    game = ENGINE_VARIANTS[hand.variant][0] if hand.variant in ENGINE_VARIANTS else "holdem"
    # the spot is parsed once: the walk-size test and the run take the same object
    spot = parse_allin_spot(seats, board, dead_cards, button_seat(hand), game=game,
                            allow_zero=True, dead_money=0 if trim else sum(st.ante))
    # Hold'em seats here are exact hands, which allin_ev always walks (its exact=None rule;
    # tests/test_phh_fast.py checks the largest spot): only Omaha needs the walk-size test.
    walk = True if not omaha else spot_walks_exactly(spot)
    res = allin_run(spot, sampling(walk, None if walk else EV_SAMPLES,
                                   seed=None if walk else 0, unit=CHIPS))
    committed = [st.total[s] + st.ante[s] for s in range(n)]
    out.allin_board = cards_str(board)
    out.allin_exact = res.exact
    out.allin_ev = [{"committed": u.out(committed[s]),
                     "expected_payout": p.expected_payout / u.scale,
                     "ev": (p.expected_payout - committed[s]) / u.scale}
                    for s, p in enumerate(res.players)]
