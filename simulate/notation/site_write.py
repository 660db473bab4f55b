"""Writing hands in other formats than PHH: Open Hand History JSON.

Each writer takes :class:`~simulate.notation.site_hand.SiteHand` records (a site reader's, or
a PHH hand's told as one by :func:`simulate.notation.site_build.transcribe`), so the amounts
already carry the meanings a site's text needs (a call's increment, a raise's total, the
uncalled bet, each pot's winner), and the matching reader reads the text back to the same
hand.

**Open Hand History** (``hh-specs.handhistory.org``, spec 1.4): one JSON object per hand,
``{"ohh": {...}}``, written one per line (JSON lines). Players get ``id`` 0, 1, ... in seat
order; rounds are ``Preflop``, ``Flop``, ``Turn``, ``River`` (stud's and draw games' later
rounds ``Round 2``, ``Round 3``, ...; a second run's board is a round ``Flop``/``Turn``/
``River`` with ``"run": 2``, pokerjit's own key) and ``Showdown``; an action's ``amount`` is
what the action puts in (the spec's meaning: a raise to 20 over a bet of 2 is 18); each pot
lists ``player_wins``. The spec has no action for an uncalled bet returned: the reader
works it out (:meth:`SiteHand.return_uncalled`).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from simulate.notation.site_hand import SiteHand

__all__ = ["OHH_ACTIONS", "OHH_GAMES", "OHH_VERSION", "ohh_dict", "write_ohh"]

#: The spec version written.
OHH_VERSION = "1.4.7"
#: ``game_type`` by game name (games without a spec name are written by their own name).
OHH_GAMES = {"holdem": "Holdem", "omaha": "Omaha", "omaha_hilo": "OmahaHiLo",
             "omaha5": "Omaha5", "omaha6": "Omaha6", "short_deck": "ShortDeck"}
#: ``bet_type`` by betting.
OHH_BETTING = {"no-limit": "NL", "pot-limit": "PL", "fixed-limit": "FL"}
#: OHH action names by event kind.
OHH_ACTIONS = {"ante": "Post Ante", "small_blind": "Post SB", "big_blind": "Post BB",
               "straddle": "Straddle", "post": "Post Extra Blind", "dead": "Post Dead",
               "bring_in": "Post Bring In", "hole": "Dealt Cards", "fold": "Fold",
               "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise",
               "complete": "Raise", "discard": "Discards", "stand": "Stands Pat",
               "show": "Shows Cards", "muck": "Mucks Cards"}
_STREETS = {0: "Preflop", 3: "Flop", 4: "Turn", 5: "River"}


def _num(x: Decimal | None) -> int | float | None:
    if x is None:
        return None
    return int(x) if x == x.to_integral_value() else float(x)


def ohh_dict(hand: SiteHand) -> dict[str, Any]:
    """The ``{"ohh": {...}}`` object of one hand (module docstring)."""
    info, st = hand.info, hand.stakes
    ids = {s.name: i for i, s in enumerate(hand.seats)}
    rounds: list[dict[str, Any]] = []
    board = {1: 0}
    street: dict[str, Decimal] = {}
    cur: dict[str, Any] = {"id": 0, "street": "Preflop", "cards": [], "actions": []}
    rounds.append(cur)
    pots: dict[str, dict[str, Any]] = {}
    number = 0

    def new_round(name: str, cards: list[str], run: int = 1) -> dict[str, Any]:
        r: dict[str, Any] = {"id": len(rounds), "street": name, "cards": cards, "actions": []}
        if run > 1:
            r["run"] = run
        rounds.append(r)
        return r

    for e in hand.events:
        k = e.kind
        if k == "board":
            board[e.run] = board.get(e.run, board[1] if e.run > 1 else 0) + len(e.cards)
            if e.run == 1:
                street = {}
            cur = new_round(_STREETS.get(board[e.run], f"Board {board[e.run]}"),
                            list(e.cards), e.run)
            continue
        if k == "street":
            street = {}
            cur = new_round(f"Round {len(rounds) + 1}", [])
            continue
        if k == "collect" and e.player is not None:
            pot = pots.setdefault(e.pot or "pot", {"number": len(pots), "amount": Decimal(0),
                                                   "player_wins": []})
            pot["amount"] += e.amount or 0
            pot["player_wins"].append({"player_id": ids[e.player],
                                       "win_amount": _num(e.amount)})
            continue
        if k in ("uncalled", "cashout") or e.player is None:
            if k == "cashout" and e.player is not None:
                pots.setdefault("pot", {"number": len(pots), "amount": Decimal(0),
                                        "player_wins": []})["player_wins"].append(
                    {"player_id": ids[e.player], "win_amount": 0,
                     "cashout_amount": _num(e.amount)})
            continue  # an uncalled return is not an OHH action: the reader works it out
        if k in ("show", "muck") and cur["street"] != "Showdown":
            cur = new_round("Showdown", [])
        amount = e.amount
        if k in ("raise", "complete") and amount is not None:  # OHH: what it puts in
            amount = amount - street.get(e.player, Decimal(0))
            street[e.player] = e.amount or Decimal(0)
        elif k in ("small_blind", "big_blind", "straddle", "post", "bring_in", "call", "bet"):
            street[e.player] = street.get(e.player, Decimal(0)) + (amount or 0)
        act: dict[str, Any] = {"action_number": number, "player_id": ids[e.player],
                               "action": OHH_ACTIONS[k]}
        if amount is not None:
            act["amount"] = _num(amount)
        if e.allin:
            act["is_allin"] = True
        if e.cards:  # "??" for a card nobody saw
            act["cards"] = list(e.cards)
        cur["actions"].append(act)
        number += 1
    pot_list = sorted(pots.values(), key=lambda p: p["number"])
    if pot_list:
        pot_list[0]["rake"] = _num(hand.rake or Decimal(0))
        if info.fees:
            pot_list[0]["jackpot"] = _num(sum(info.fees.values(), Decimal(0)))
    for p in pot_list:
        p["amount"] = _num(p["amount"] + (Decimal(str(p.get("rake", 0))) if p["number"] == 0
                                          else 0))
    hero = ids.get(info.hero) if info.hero else None
    out: dict[str, Any] = {
        "spec_version": OHH_VERSION, "internal_version": "pokerjit",
        "network_name": info.site, "site_name": info.site,
        "game_type": OHH_GAMES.get(info.game, info.game),
        "table_name": info.table or "", "table_size": hand.max_seats or len(hand.seats),
        "game_number": info.hand_id, "start_date_utc": info.time or "",
        "currency": info.currency or "",
        "ante_amount": _num(st.ante or Decimal(0)),
        "small_blind_amount": _num(st.small_blind or Decimal(0)),
        "big_blind_amount": _num(st.big_blind or Decimal(0)),
        "bet_limit": {"bet_cap": 0, "bet_type": OHH_BETTING.get(info.betting, info.betting)},
        "dealer_seat": hand.button if hand.button is not None else 0,
        "players": [{"id": i, "seat": s.seat, "name": s.name,
                     "starting_stack": _num(s.stack)} for i, s in enumerate(hand.seats)],
        "rounds": rounds, "pots": pot_list,
    }
    if st.small_bet is not None:
        out["bet_limit"]["small_bet"] = _num(st.small_bet)
        out["bet_limit"]["big_bet"] = _num(st.big_bet)
    if st.bring_in is not None:
        out["bring_in_amount"] = _num(st.bring_in)
    if hero is not None:
        out["hero_player_id"] = hero
    if info.tournament is not None:
        out["tournament"] = True
        out["tournament_info"] = {"tournament_number": info.tournament.id,
                                  "buyin": info.tournament.buy_in,
                                  "level": info.tournament.level}
    return {"ohh": out}


def write_ohh(hands: list[SiteHand]) -> str:
    """``hands`` as Open Hand History JSON lines (one ``{"ohh": ...}`` per line)."""
    return "".join(json.dumps(ohh_dict(h), ensure_ascii=False, separators=(",", ":")) + "\n"
                   for h in hands)
