"""From a transcribed site hand to the hand the replay plays: the one builder.

:func:`build` takes a :class:`~simulate.notation.site_hand.SiteHand` (what a site reader
transcribed) and returns the :class:`~simulate.notation.phh_read.HandHistory` the PHH
reader would make of the same hand, through the PHH reader's own door
(:func:`~simulate.notation.phh_read.parse_hand` on PHH fields), so a site hand is checked,
replayed and written exactly as a PHH hand is. What it does, once for every site:

- **The chip check.** :meth:`SiteHand.check_chips`: what was committed must equal what was
  collected plus the rake and the fees, or the hand is a :class:`SiteError` naming its line.
  A returned uncalled bet printed larger than the bet is capped at the bet and noted in
  ``repairs`` (the contract's rule).
- **The players.** The seats dealt in (a seat listed but never named by an event, or marked
  out of the hand, sits out), in PHH's order: from the seat after the button round to the
  button (heads-up: the big blind, then the button). Without a button, the small blind's
  poster is first (the big blind's seat is second where there is no small blind).
- **The forced bets.** ``ante`` and ``dead`` are each seat's dead money (PHH ``antes``);
  ``small_blind``, ``big_blind`` and ``straddle`` are the seat's ``blinds_or_straddles``;
  a ``post`` is a negative entry there (PHH's live post). Heads-up, both lists are written
  in PHH's swapped order.
- **The actions**, in the file's order: each seat's hole cards dealt first (cards shown or
  mucked face up later are dealt as known, the rest ``??``), ``d db`` for each first-run
  board, ``f``, ``cc`` for a check or a call, ``cbr`` with the street total for a bet, raise
  or completion, ``pb`` for stud's bring-in, ``sd`` for a draw, ``sm`` for a show or muck.
- **The fields a PHH writer keeps**: ``players``, ``winnings`` (what each seat collected),
  ``rake``, and the site's facts (``hand``, ``table``, ``currency``, ``seats``, ...), so a
  converted hand reads back the same.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from simulate.games import GAMES
from simulate.notation.hand_facts import hand_number, hand_time, time_fields
from simulate.notation.phh_read import HandHistory, parse_hand
from simulate.notation.site_hand import (
    BETTING_KINDS,
    FORCED_KINDS,
    SiteHand,
    StreetBets,
    call_total,
)
from simulate.notation.site_text import SiteError, SiteInfo

__all__ = ["NON_ENGINE_VARIANTS", "build", "from_the_button", "keep_known", "phh_forced_order",
           "transcribe", "variant_of"]

#: PHH variant codes of the games the engine does not play (kept as chip accounting).
NON_ENGINE_VARIANTS = {
    ("stud", "fixed-limit"): "F7S", ("stud_hilo", "fixed-limit"): "F7S/8",
    ("razz", "fixed-limit"): "FR", ("2-7_triple_draw", "fixed-limit"): "F2L3D",
    ("2-7_single_draw", "no-limit"): "N2L1D", ("badugi", "fixed-limit"): "FB",
}
#: Games whose cards come round by round (stud's streets, a draw's new cards): their deals
#: are written where the file has them, not all at the start.
ROUND_DEALT_GAMES = frozenset({"stud", "stud_hilo", "razz", "2-7_triple_draw",
                               "2-7_single_draw", "badugi", "5_card_draw"})
#: Cards of the first deal in those games.
_FIRST_DEAL = {"stud": 3, "stud_hilo": 3, "razz": 3}
#: Hole cards of the games outside :data:`simulate.games.GAMES`.
_HOLE_CARDS = {"stud": 7, "stud_hilo": 7, "razz": 7, "2-7_triple_draw": 5,
               "2-7_single_draw": 5, "badugi": 4}


def variant_of(game: str, betting: str) -> str:
    """The PHH variant code of ``game`` played ``betting`` (raises :class:`SiteError`)."""
    g = GAMES.get(game)
    code = g.phh.get(betting) if g is not None else NON_ENGINE_VARIANTS.get((game, betting))
    if code is None:
        raise SiteError(f"{betting} {game} cannot be replayed (no variant code for it)")
    return code


def _order(hand: SiteHand, names: list[str]) -> list[str]:
    """The dealt-in players (``names``, in seat order) in PHH's order (module docstring)."""
    n = len(names)
    if hand.button is not None:
        return from_the_button(names, {s.name: s.seat for s in hand.seats}, hand.button)
    first = {e.kind: e.player for e in reversed(hand.events) if e.kind in
             ("small_blind", "big_blind")}
    if n > 2 and first.get("small_blind") in names:
        start = names.index(first["small_blind"])
    elif first.get("big_blind") in names:
        start = (names.index(first["big_blind"]) - (1 if n > 2 else 0)) % n
    else:
        start = 0
    return names[start:] + names[:start]


def from_the_button(names: list[str], seat_no: Mapping[str, int], button: int) -> list[str]:
    """``names`` (in seat order; ``seat_no``: each one's seat number) from the first seat
    after the ``button`` round to the button: PHH's order."""
    start = next((i for i, p in enumerate(names) if seat_no[p] > button), 0)
    return names[start:] + names[:start]


def phh_forced_order(values: list[Any]) -> list[Any]:
    """Seat order to PHH's order of a forced-bet list (heads-up: swapped)."""
    return [values[1], values[0]] if len(values) == 2 else values


def _num(x: Decimal) -> int | Decimal:
    """An amount as PHH writes it (an int where it is whole)."""
    return int(x) if x == x.to_integral_value() else x.normalize()


def _cap_uncalled(hand: SiteHand, repairs: list[str]) -> None:
    """Cap each ``uncalled`` return at what its player bet beyond the next largest
    commitment on that street (the contract's repair), noting each cap in ``repairs``."""
    if not any(e.kind == "uncalled" for e in hand.events):
        return
    bets = StreetBets()
    for e in hand.events:
        if e.kind == "uncalled" and e.player is not None and e.amount is not None:
            mine = bets.bet(e.player)
            others = max((v for p, v in bets.bets.items() if p != e.player), default=0)
            most = max(mine - others, Decimal(0))
            if e.amount > most:
                repairs.append(f"line {e.line}: uncalled bet of {e.amount} returned to "
                               f"{e.player} capped at the {most} not called")
                e.amount = most
        bets.see(e)


def build(hand: SiteHand, source: str) -> HandHistory:
    """The :class:`HandHistory` of a transcribed site hand (see the module docstring);
    raises :class:`SiteError` (naming the hand's line) when it cannot be replayed or its
    chips do not add up."""
    info = hand.info
    where = f"line {info.line}"
    repairs: list[str] = []
    _cap_uncalled(hand, repairs)
    hand.check_chips()
    variant = variant_of(info.game, info.betting)
    named = {e.player for e in hand.events if e.player is not None}
    # dealt in: every seat an event names (a sitting-out seat that still posts and folds
    # included); a seat no event names sits out
    seats = [s for s in hand.seats if s.name in named]
    for p in named:
        hand.seat_of(p)  # every name that acts has a seat
    names = _order(hand, [s.name for s in seats])
    n = len(names)
    if n < 2:
        raise SiteError(f"{where}: a hand needs two players dealt in, found {n}")
    idx = {p: i for i, p in enumerate(names)}
    by_name = {s.name: s for s in seats}
    ante = [Decimal(0)] * n
    blind = [Decimal(0)] * n
    bring_in = None
    for e in hand.events:
        if e.kind not in FORCED_KINDS or e.player is None:
            continue
        i = idx.get(e.player)
        if i is None:
            raise SiteError(f"line {e.line}: {e.player} posts but is not dealt in")
        a = e.amount or Decimal(0)
        if e.kind in ("ante", "dead"):
            ante[i] += a
        elif e.kind == "post":
            blind[i] = -(abs(blind[i]) + a)
        elif e.kind == "bring_in":
            bring_in = a
        else:
            blind[i] = (blind[i] + a) if blind[i] >= 0 else blind[i] - a
    _full_blinds(hand, idx, by_name, ante, blind)
    holes = _hole_cards(hand, names, info.game)
    actions = _actions(hand, idx, holes, info.game)
    collected = hand.collected()
    for e in hand.events:
        if e.kind == "cashout" and e.player is not None and e.amount is not None:
            # received (positive) and paid (negative) kept apart: the one counts as
            # winnings, the other comes off the net only
            book = info.cashout if e.amount > 0 else info.cashout_paid
            book[e.player] = book.get(e.player, Decimal(0)) + abs(e.amount)
    st = hand.stakes
    fields: dict[str, Any] = {
        "variant": variant,
        "ante_trimming_status": False,
        "antes": [_num(x) for x in phh_forced_order(ante)],
        "blinds_or_straddles": [_num(x) for x in phh_forced_order(blind)],
    }
    if info.betting == "fixed-limit":
        small = st.small_bet or st.big_blind
        if small is None:
            raise SiteError(f"{where}: a fixed-limit hand needs its bet sizes")
        fields["small_bet"] = _num(small)
        fields["big_bet"] = _num(st.big_bet or 2 * small)
        if bring_in is not None or st.bring_in is not None:
            fields["bring_in"] = _num(bring_in if bring_in is not None else st.bring_in)
    else:
        bb = st.big_blind or max((abs(b) for b in blind), default=Decimal(0))
        if bb:
            fields["min_bet"] = _num(bb)
    fields["starting_stacks"] = [_num(by_name[p].stack) for p in names]
    fields["actions"] = actions
    fields["players"] = list(names)
    fields["winnings"] = [_num(collected.get(p, Decimal(0))) for p in names]
    if hand.rake is not None:
        fields["rake"] = _num(hand.rake)
    fields.update(_site_fields(hand, names, by_name))
    try:
        hh = parse_hand(fields, source)
    except SiteError:
        raise
    except ValueError as exc:
        raise SiteError(f"{where}: {exc}") from None
    info.seats = [by_name[p].seat for p in names]
    info.repairs = repairs
    info.boards = _boards(hand)
    if info.game not in ROUND_DEALT_GAMES:
        _check_cards_dealt_once(hand, holes, where)
    hh.site = info
    return hh


def _check_cards_dealt_once(hand: SiteHand, holes: dict[str, list[str]], where: str) -> None:
    """Every card a board game's hand shows is dealt once: each player's hole cards (dealt,
    shown or mucked face up) and each run's board cards, the later runs' own cards
    included (the engine plays the first board only, so it would never see those). Raises
    :class:`SiteError` naming the card and the two places it stands. The one check of a
    site hand's cards: the replay's capped-game fallback, which the engine does not
    check, relies on it."""
    place: dict[str, str] = {}

    def put(card: str, where_now: str) -> None:
        if card == "??":
            return
        before = place.get(card)
        if before is not None:
            raise SiteError(f"{where}: card {card} is dealt twice ({before} and {where_now})")
        place[card] = where_now

    for p, cards in holes.items():
        for c in cards:
            put(c, f"{p}'s hand")
    runs = hand.board_runs()
    for run, (_, own) in runs.items():
        for c in own:
            put(c, f"board {run}" if len(runs) > 1 else "the board")


def _full_blinds(hand: SiteHand, idx: dict[str, int], by_name: dict[str, Any],
                 ante: list[Decimal], blind: list[Decimal]) -> None:
    """A blind posted short by a seat all in on it is written at its full amount (the
    stakes'), as PHH writes a blind (the engine posts what the stack holds): the players
    who call still call the full big blind (Robert's Rules)."""
    full = {"small_blind": hand.stakes.small_blind, "big_blind": hand.stakes.big_blind}
    for e in hand.events:
        i = idx.get(e.player or "")
        nominal = full.get(e.kind)
        if i is None or nominal is None or not 0 < blind[i] < nominal:
            continue
        if ante[i] + blind[i] == by_name[e.player].stack:  # all in on its forced bets
            blind[i] = nominal


def _boards(hand: SiteHand) -> list[str]:
    """One board text per run (:meth:`SiteHand.board_runs`: the shared cards, then the
    run's own)."""
    return ["".join(shared + own) for shared, own in hand.board_runs().values()]


def _hole_cards(hand: SiteHand, names: list[str], game: str) -> dict[str, list[str]]:
    """Each player's hole cards as known by the hand's end (dealt, shown or mucked face
    up), ``??`` where never seen; stud's are built street by street in :func:`_actions`."""
    count = GAMES[game].hole_cards if game in GAMES else _HOLE_CARDS.get(game, 0)
    known: dict[str, tuple[str, ...]] = {}
    for e in hand.events:
        if e.player is None or not e.cards:
            continue
        if e.kind in ("hole", "show", "muck"):
            keep_known(known, e.player, e.cards)
    return {p: (list(known.get(p, ())) + ["??"] * count)[:count] for p in names}


def keep_known(known: dict[str, tuple[str, ...]], player: str, cards: tuple[str, ...]) -> None:
    """The rule for a player's hole cards as a hand's events go by (dealt, shown, mucked
    face up): the cards seen (``??`` left out), a list at least as long as the one kept
    before taking its place."""
    if "??" in cards:
        cards = tuple(c for c in cards if c != "??")
    if len(cards) >= len(known.get(player, ())):
        known[player] = cards


def _actions(hand: SiteHand, idx: dict[str, int], holes: dict[str, list[str]],
             game: str) -> list[str]:
    """The PHH action strings of the hand (module docstring)."""
    out: list[str] = []
    by_round = game in ROUND_DEALT_GAMES
    if not by_round:
        # hole cards first, in PHH's seat order
        for p, i in sorted(idx.items(), key=lambda t: t[1]):
            out.append(f"d dh p{i + 1} {''.join(holes[p])}")
    dealt: set[str] = set()
    bets = StreetBets()
    simple = {"fold": "f", "check": "cc", "call": "cc", "stand": "sd", "muck": "sm"}
    for e in hand.events:
        k, p = e.kind, e.player
        bets.see(e)
        if k == "board":
            if e.run == 1:
                out.append(f"d db {''.join(e.cards)}")
            continue
        if p is None or p not in idx:
            continue
        seat = f"p{idx[p] + 1}"
        if (k in BETTING_KINDS or k == "bring_in") and by_round and len(dealt) < len(idx):
            # a seat the file shows no first deal for gets unseen cards before the betting
            first = _FIRST_DEAL.get(game, len(holes[p]))
            for q, i in sorted(idx.items(), key=lambda t: t[1]):
                if q not in dealt:
                    out.append(f"d dh p{i + 1} {'??' * first}")
                    dealt.add(q)
        if k in simple:
            out.append(f"{seat} {simple[k]}")
        elif k == "hole" and by_round:
            out.append(f"d dh {seat} {''.join(e.cards)}")
            dealt.add(p)
        elif k == "bring_in":
            out.append(f"{seat} pb")
        elif k in ("bet", "raise", "complete"):
            out.append(f"{seat} cbr {_num(bets.bet(p))}")
        elif k == "discard":
            out.append(f"{seat} sd {''.join(e.cards)}")
        elif k == "show":
            out.append(f"{seat} sm {''.join(e.cards) if e.cards else ''.join(holes[p])}")
    return out


def _site_fields(hand: SiteHand, names: list[str], by_name: dict[str, Any]) -> dict[str, Any]:
    """The PHH fields that carry the site's facts (PHH's own optional keys where it has
    one: ``hand``, ``table``, ``seats``, ``seat_count``, ``currency``, and the time as
    ``year``, ``month``, ``day``, ``time`` and ``time_zone``)."""
    info = hand.info
    out: dict[str, Any] = {"venue": info.site, "hand": info.hand_id,
                           "seats": [by_name[p].seat for p in names]}
    if info.table is not None:
        out["table"] = info.table
    if hand.max_seats is not None:
        out["seat_count"] = hand.max_seats
    if info.currency is not None:
        out["currency"] = info.currency
    out.update(time_fields(info.time))
    if info.tournament is not None:
        out["event"] = info.tournament.id
    return out



def transcribe(hh: HandHistory) -> SiteHand:
    """The other direction: a :class:`HandHistory` (PHH's or a site's) told as a
    :class:`SiteHand`, the record the site writers write (:mod:`simulate.notation.site_write`).

    Seats are the site's numbers where the hand came from a site, else 1, 2, ... in PHH's
    order (the button is the last seat). Each ``cc`` becomes a check or a call of what it
    adds (capped at the stack), each ``cbr`` a bet (nothing to match on the street) or a
    raise to its total, a show or a muck from ``sm``; the excess of a street's largest
    bet over the next one is returned as ``uncalled`` when the street ends
    (:meth:`SiteHand.return_uncalled`); ``winnings``
    become ``collect`` events, the site's cash-outs (received and paid) ``cashout`` events
    and ``rake`` the rake. Antes and dead money are both
    ``ante`` events (PHH does not tell them apart)."""
    from simulate.notation.site_hand import Event, Seat, Stakes

    n = hh.n_players
    info = hh.site or SiteInfo(site="phh", hand_id="",
                               game=_game_of(hh.variant)[0], betting=_game_of(hh.variant)[1],
                               table=_text(hh.fields.get("table")),
                               currency=_text(hh.fields.get("currency")),
                               time=hand_time(hh.fields))
    if not info.hand_id:  # PHH's number, else one from the hand (a tracker needs one)
        info = dataclasses.replace(info, hand_id=hand_number(hh.fields))
    numbers = list(info.seats) if len(info.seats) == n else list(range(1, n + 1))
    names = list(hh.players)
    seats = [Seat(numbers[i], names[i], hh.starting_stacks[i]) for i in range(n)]
    antes, blinds = (phh_forced_order(list(hh.antes)),
                     phh_forced_order(list(hh.blinds_or_straddles)))
    positive = [b for b in blinds if b > 0]
    stakes = Stakes(small_blind=blinds[1] if n == 2 else (blinds[0] or None),
                    big_blind=max(positive) if positive else hh.min_bet,
                    ante=max(antes) if any(antes) else None, small_bet=hh.small_bet,
                    big_bet=hh.big_bet, bring_in=hh.bring_in)
    if n > 2 and len(positive) >= 2:
        stakes.big_blind = blinds[1] if blinds[1] > 0 else stakes.big_blind
    stack = [Decimal(x) for x in hh.starting_stacks]
    street = [Decimal(0)] * n
    folded = [False] * n
    forced = max(positive, default=Decimal(0))  # a call's floor before the first deal
    ev: list[Event] = []

    def put(i: int, x: Decimal) -> Decimal:
        x = min(x, stack[i]) if stack[i].is_finite() else x
        stack[i] -= x
        street[i] += x
        return x

    for i, a in enumerate(antes):
        if a:
            ev.append(Event("ante", names[i], put(i, a), allin=stack[i] == 0))
    street = [Decimal(0)] * n
    kinds = (("small_blind", 0), ("big_blind", 1)) if n > 2 else (("small_blind", 1),
                                                                  ("big_blind", 0))
    for kind, i in kinds:
        if blinds[i] > 0:
            ev.append(Event(kind, names[i], put(i, blinds[i]), allin=stack[i] == 0))
    for i, b in enumerate(blinds):
        if (n > 2 and i >= 2 and b > 0) or b < 0:
            ev.append(Event("straddle" if b > 0 else "post", names[i], put(i, abs(b)),
                            allin=stack[i] == 0))

    bet_seen = False
    for act in hh.actions:
        k, i = act.kind, act.actor
        if k == "db":
            street = [Decimal(0)] * n
            bet_seen = False
            forced = Decimal(0)
            ev.append(Event("board", cards=_cards(act.cards)))
            continue
        if k == "dh":
            assert act.target is not None
            if bet_seen:  # a later deal (stud's streets, a draw's new cards)
                street = [Decimal(0)] * n
                bet_seen = False
                forced = Decimal(0)
                ev.append(Event("street"))
            ev.append(Event("hole", names[act.target], cards=_cards(act.cards)))
            continue
        assert i is not None
        p = names[i]
        if k == "f":
            folded[i] = True
            ev.append(Event("fold", p))
        elif k == "cc":
            alone = all(folded[j] or not stack[j] for j in range(n) if j != i)
            owe = call_total(street, i, forced, alone) - street[i]
            if owe > 0:
                ev.append(Event("call", p, put(i, owe), allin=stack[i] == 0))
            else:
                ev.append(Event("check", p))
        elif k == "cbr":
            total = Decimal(act.amount or 0)
            kind = "raise" if max(street) > 0 else "bet"
            added = put(i, total - street[i])
            ev.append(Event(kind, p, added if kind == "bet" else street[i],
                            allin=stack[i] == 0))
        elif k == "pb":
            ev.append(Event("bring_in", p, put(i, Decimal(hh.bring_in or 0))))
        elif k == "sd":
            if bet_seen:  # a draw ends the betting round before it
                street = [Decimal(0)] * n
                bet_seen = False
                forced = Decimal(0)
                ev.append(Event("street"))
            ev.append(Event("discard", p, cards=_cards(act.cards)) if act.cards
                      else Event("stand", p))
        elif k == "sm":
            ev.append(Event("show", p, cards=_cards(act.cards)) if act.cards
                      else Event("muck", p))
        if k in ("f", "cc", "cbr", "pb"):
            bet_seen = True
    _later_runs(ev, info.boards)
    for i, w in enumerate(hh.winnings or []):
        if w:
            ev.append(Event("collect", names[i], Decimal(w), pot="pot"))
    # money paid outside the pots: received (a cash-out) and paid (its fee, a premium)
    ev += [Event("cashout", p, x) for p, x in info.cashout.items()]
    ev += [Event("cashout", p, -x) for p, x in info.cashout_paid.items()]
    count = hh.fields.get("seat_count")
    out = SiteHand(info=info, seats=seats, stakes=stakes, events=ev, button=numbers[-1],
                   rake=hh.rake, max_seats=count if isinstance(count, int) else None)
    out.return_uncalled()
    return out


def _later_runs(events: list[Any], boards: list[str]) -> None:
    """A site hand run more than once: each later run's own cards (those after the cards
    it shares with the first run) as one ``board`` event of that run, after the first
    run's last board (PHH's actions hold the first run only; :attr:`SiteInfo.boards` all)."""
    from evaluator.cards import card_str, ids_of_text
    from simulate.notation.site_hand import Event

    if len(boards) < 2:
        return

    def cards_of(text: str) -> list[str]:
        return [card_str(c) for c in ids_of_text(text) or ()]

    first = cards_of(boards[0])
    at = max((i + 1 for i, e in enumerate(events) if e.kind == "board"), default=len(events))
    later = []
    for run, text in enumerate(boards[1:], start=2):
        cards = cards_of(text)
        shared = 0
        while shared < min(len(cards), len(first)) and cards[shared] == first[shared]:
            shared += 1
        if cards[shared:]:
            later.append(Event("board", cards=tuple(cards[shared:]), run=run))
    events[at:at] = later


def _game_of(variant: str) -> tuple[str, str]:
    """(game, betting) of a PHH variant code."""
    for name, g in GAMES.items():
        for betting, code in g.phh.items():
            if code == variant:
                return name, betting
    for (game, betting), code in NON_ENGINE_VARIANTS.items():
        if code == variant:
            return game, betting
    raise SiteError(f"variant {variant} has no site game")


def _cards(slots: Any) -> tuple[str, ...]:
    from evaluator.cards import card_str

    return tuple("??" if c is None else card_str(c) for c in (slots or []))


def _text(x: Any) -> str | None:
    return None if x is None else str(x)
