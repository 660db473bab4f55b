"""Reading Open Hand History JSON (``{"ohh": {...}}`` objects, one per line or separated by
blank lines, as :mod:`simulate.notation.site_write` writes them and as the spec's
storage format has them) into :class:`~simulate.notation.site_hand.SiteHand` records.

The site is the object's ``site_name`` (lower case); an action's ``amount`` is what it puts
in (the spec's meaning), so a ``Raise`` becomes the player's street total; the uncalled
part of the last bet is worked out (:meth:`SiteHand.return_uncalled`), the spec having no
action for it; each pot's ``player_wins`` are ``collect`` events (``cashout_amount`` a
``cashout``), ``rake`` and ``jackpot`` the rake and a fee.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from simulate.notation.site_hand import Event, Seat, SiteHand, Stakes, StreetBets
from simulate.notation.site_text import SiteError, SiteInfo, Tournament, card_text
from simulate.notation.site_write import OHH_ACTIONS, OHH_BETTING, OHH_GAMES

__all__ = ["detect", "read"]

_START = re.compile(r'\A\s*\{\s*"ohh"\s*:')
_KINDS = {v: k for k, v in OHH_ACTIONS.items() if k != "complete"}
_KINDS.update({"Post Dead Blind": "dead", "Post Straddle": "straddle"})
_GAMES = {v: k for k, v in OHH_GAMES.items()}
_BETTING = {v: k for k, v in OHH_BETTING.items()}


def detect(head: str) -> bool:
    """Whether ``head`` starts with an ``{"ohh": ...}`` object."""
    return _START.match(head) is not None


def read(text: str, source: str) -> Iterator[tuple[int, SiteHand | SiteError]]:
    """Each ``{"ohh": ...}`` object of ``text`` as a :class:`SiteHand` (or its error)."""
    dec = json.JSONDecoder(parse_float=Decimal)
    pos, n = 0, len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            return
        line = text.count("\n", 0, pos) + 1
        try:
            obj, end = dec.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            yield line, SiteError(f"line {line}: not an OHH object ({exc.msg})")
            nxt = text.find("\n{", pos + 1)
            if nxt < 0:
                return
            pos = nxt + 1
            continue
        pos = end
        try:
            yield line, _hand(obj, line)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            why = exc if isinstance(exc, SiteError) else f"{type(exc).__name__}: {exc}"
            yield line, SiteError(f"line {line}: OHH hand not read ({why})")


def _dec(x: Any) -> Decimal | None:
    return None if x is None else Decimal(str(x))


def _hand(obj: dict[str, Any], line: int) -> SiteHand:
    h = obj["ohh"]
    site = str(h.get("site_name") or h.get("network_name") or "ohh").lower()
    tour = None
    if h.get("tournament"):
        ti = h.get("tournament_info") or {}
        tour = Tournament(str(ti.get("tournament_number", "")), ti.get("buyin"),
                          ti.get("level"))
    bet_limit = h.get("bet_limit") or {}
    info = SiteInfo(site=site, hand_id=str(h["game_number"]),
                    game=_GAMES.get(h["game_type"], h["game_type"]),
                    betting=_BETTING.get(bet_limit.get("bet_type"), "no-limit"),
                    table=h.get("table_name") or None, time=h.get("start_date_utc") or None,
                    currency=h.get("currency") or None, tournament=tour, line=line)
    cap = _dec(bet_limit.get("bet_cap"))
    if cap:  # a capped game (0: none)
        info.cap = cap
    players = h["players"]
    names = {p["id"]: str(p["name"]) for p in players}
    seats = [Seat(int(p["seat"]), str(p["name"]), _dec(p["starting_stack"]) or Decimal(0),
                  not p.get("is_sitting_out", False)) for p in players]
    if "hero_player_id" in h:
        info.hero = names.get(h["hero_player_id"])
    stakes = Stakes(small_blind=_dec(h.get("small_blind_amount")),
                    big_blind=_dec(h.get("big_blind_amount")),
                    ante=_dec(h.get("ante_amount")) or None,
                    small_bet=_dec(bet_limit.get("small_bet")),
                    big_bet=_dec(bet_limit.get("big_bet")),
                    bring_in=_dec(h.get("bring_in_amount")))
    events: list[Event] = []
    bets = StreetBets()
    for r in h.get("rounds", []):
        name, cards = r.get("street", ""), [card_text(c) for c in r.get("cards") or []]
        run = int(r.get("run", 1))
        start = (Event("board", cards=tuple(cards), run=run) if cards
                 else Event("street") if name not in ("Preflop", "Showdown") and r.get("actions")
                 else None)
        if start is not None:
            events.append(start)
            bets.see(start)
        for a in r.get("actions", []):
            kind = _KINDS.get(a["action"])
            if kind is None:
                raise SiteError(f"line {line}: unknown OHH action {a['action']!r}")
            p = names[a["player_id"]]
            amount = _dec(a.get("amount"))
            got = tuple("??" if c == "??" else card_text(c) for c in a.get("cards") or [])
            if kind == "hole" and not got:
                continue  # no cards named: the builder deals them as unknown
            if kind == "raise" and amount is not None:  # OHH gives what it puts in
                amount = bets.bet(p) + amount
            events.append(Event(kind, p, amount, got, line=line,
                                allin=bool(a.get("is_allin"))))
            bets.see(events[-1])
    rake = Decimal(0)
    for pot in h.get("pots", []):
        rake += _dec(pot.get("rake")) or 0
        jackpot = _dec(pot.get("jackpot"))
        if jackpot:
            info.fees["jackpot"] = info.fees.get("jackpot", Decimal(0)) + jackpot
        for w in pot.get("player_wins", []):
            p = names[w["player_id"]]
            if _dec(w.get("win_amount")):
                events.append(Event("collect", p, _dec(w["win_amount"]),
                                    pot=f"pot {pot.get('number', 0)}"))
            if _dec(w.get("cashout_amount")):
                events.append(Event("cashout", p, _dec(w["cashout_amount"])))
    hand = SiteHand(info=info, seats=seats, stakes=stakes, events=events,
                    button=h.get("dealer_seat"), rake=rake if h.get("pots") else None,
                    max_seats=h.get("table_size"))
    hand.return_uncalled()
    return hand
