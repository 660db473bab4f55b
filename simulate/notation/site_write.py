"""Writing hands in other formats than PHH: Open Hand History JSON and PokerStars text.

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
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from simulate.notation.hand_facts import in_utc
from simulate.notation.site_build import ROUND_DEALT_GAMES
from simulate.notation.site_hand import SETS_BET, SiteHand, StreetBets
from simulate.notation.site_text import CURRENCY_SIGNS

__all__ = ["OHH_ACTIONS", "OHH_GAMES", "OHH_VERSION", "ohh_dict", "stars_text", "write_ohh",
           "write_pokerstars"]

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
    shared = {r: len(cards) for r, (cards, _) in hand.board_runs().items()}
    board: dict[int, int] = {}  # cards on each run's board so far
    bets = StreetBets()
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
        put = bets.see(e)  # OHH: an action's amount is what it puts in
        if k == "board":
            board[e.run] = board.get(e.run, shared[e.run]) + len(e.cards)
            cur = new_round(_STREETS.get(board[e.run], f"Board {board[e.run]}"),
                            list(e.cards), e.run)
            continue
        if k == "street":
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
        amount = put if k in SETS_BET else e.amount
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
        "bet_limit": {"bet_cap": _num(info.cap) if info.cap is not None else 0,
                      "bet_type": OHH_BETTING.get(info.betting, info.betting)},
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


# ----------------------------------------------------------------------------- PokerStars
#: Currency signs PokerStars prints before an amount.
_SIGNS = {code: sign for sign, code in CURRENCY_SIGNS.items()}  # the sign a code prints
_STREET_NAMES = {3: "FLOP", 4: "TURN", 5: "RIVER"}
_STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "7th STREET")
_DRAW_STREETS = ("FIRST DRAW", "SECOND DRAW", "THIRD DRAW")
_RUNS = ("", "FIRST ", "SECOND ", "THIRD ", "FOURTH ")
_TIMES = {2: "twice", 3: "three times", 4: "four times"}


def _stars_amount(x: Decimal | None, sign: str) -> str:
    """``$1``, ``$0.50``, ``1500``: whole amounts without decimals, others with at least
    two."""
    x = Decimal(0) if x is None else x
    if x == x.to_integral_value():
        return f"{sign}{int(x)}"
    t = format(x.normalize(), "f")
    if len(t.split(".")[1]) < 2:
        t += "0"
    return f"{sign}{t}"


def _stars_time(iso: str | None) -> str:
    """`` - 2020/01/02 03:04:05 UTC`` from ISO 8601 (UTC when it has an offset; no zone
    when it has none), or nothing."""
    got = in_utc(iso)
    if got is None:
        return ""
    t, utc = got
    return " - " + t.strftime("%Y/%m/%d %H:%M:%S") + (" UTC" if utc else "")


def stars_text(hand: SiteHand) -> str:
    """One hand as PokerStars writes it (its header, seats, forced bets, each street's
    actions, the showdown and the summary); the PokerStars reader
    (:mod:`simulate.notation.site_pokerstars`) reads it back to the same hand."""
    from simulate.notation.site_pokerstars import GAME_NAMES, LIMITS

    info, st = hand.info, hand.stakes
    sign = "" if info.tournament is not None else _SIGNS.get(info.currency or "", "")
    cur = "" if sign or info.tournament is not None or not info.currency or \
        info.currency == "chips" else f" {info.currency}"

    def amt(x: Decimal | None) -> str:
        return _stars_amount(x, sign)

    game = {v: k for k, v in GAME_NAMES.items()}.get(info.game)
    limit = {v: k for k, v in LIMITS.items() if k != "Fixed Limit"}.get(info.betting)
    if game is None or limit is None:
        raise ValueError(f"PokerStars has no name for {info.betting} {info.game}")
    small, big = st.small_blind, st.big_blind
    if info.betting == "fixed-limit" and st.small_bet is not None:
        small, big = st.small_bet, st.big_bet
    stakes = f"{amt(small)}/{amt(big)}"
    if info.tournament is not None:
        t = info.tournament
        buy_in = f"{t.buy_in} " if t.buy_in else ""  # (unknown: none, not "Freeroll")
        head = (f"Tournament #{t.id}, {buy_in}{game} {limit} - Level {t.level or 'I'} "
                f"({stakes})")
    else:  # a capped game's cap where the site prints it (the reader takes it from there)
        cap = f" - {amt(info.cap)} Cap -" if info.cap is not None else ""
        head = f"{game} {limit} ({stakes}{cap}{cur})"
    lines = [f"PokerStars Hand #{info.hand_id or 0}: {head}{_stars_time(info.time)}"]
    seats = sorted(hand.seats, key=lambda s: s.seat)
    size = hand.max_seats or max(len(seats), max(s.seat for s in seats))
    button = f" Seat #{hand.button} is the button" if hand.button is not None else ""
    lines.append(f"Table '{info.table or 'pokerjit'}' {size}-max{button}")
    for s in seats:
        out = "" if s.in_hand else " is sitting out"
        lines.append(f"Seat {s.seat}: {s.name} ({amt(s.stack)} in chips){out}")
    board_runs = hand.board_runs()
    runs = max(board_runs, default=1)
    board: dict[int, list[str]] = {}
    stud = info.game in ("stud", "stud_hilo", "razz")
    rounds = 0
    hole_header = False
    shown_run = 0  # the run whose SHOW DOWN header is written (0: none yet)
    fees_paid: dict[str, Decimal] = {}  # cash-outs paid (negative), by player
    for e in hand.events:
        if e.kind == "cashout" and e.player is not None and e.amount < 0:
            fees_paid[e.player] = fees_paid.get(e.player, Decimal(0)) - e.amount
    dead: dict[str, Decimal] = {}
    allin = {True: " and is all-in", False: ""}
    bets = StreetBets()
    lines_of = {"ante": "posts the ante", "small_blind": "posts small blind",
                "big_blind": "posts big blind", "straddle": "posts straddle",
                "call": "calls", "bet": "bets", "complete": "completes it to",
                "bring_in": "brings in for"}
    for e in hand.events:
        k, p = e.kind, e.player
        before = bets.top  # the largest bet before this one: a raise is by the rest
        bets.see(e)
        if k in ("hole", "fold", "check", "call", "bet", "raise", "complete") and \
                not hole_header and not stud:
            lines.append("*** HOLE CARDS ***")
            hole_header = True
        if k in lines_of:
            lines.append(f"{p}: {lines_of[k]} {amt(e.amount)}{allin[e.allin]}")
        elif k == "dead":
            dead[p or ""] = dead.get(p or "", Decimal(0)) + (e.amount or 0)
        elif k == "post":
            extra = dead.pop(p or "", None)
            if extra is not None:
                lines.append(f"{p}: posts small & big blinds {amt((e.amount or 0) + extra)}")
            else:
                lines.append(f"{p}: posts big blind {amt(e.amount)}{allin[e.allin]}")
        elif k == "hole":
            if stud and rounds == 0:
                lines.append(f"*** {_STUD_STREETS[0]} ***")
                rounds = 1
            if any(c != "??" for c in e.cards):
                lines.append(f"Dealt to {p} [{' '.join(e.cards)}]")
        elif k == "street":
            names = _STUD_STREETS if stud else _DRAW_STREETS
            lines.append(f"*** {names[min(rounds, len(names) - 1)]} ***")
            rounds += 1
        elif k == "board":
            prev = list(board.get(e.run) or board_runs[e.run][0])  # a run's shared cards
            board[e.run] = prev + list(e.cards)
            name = _STREET_NAMES.get(len(board[e.run]), "BOARD")
            run = _RUNS[e.run] if runs > 1 else ""
            old = f"[{' '.join(prev)}] " if prev else ""
            lines.append(f"*** {run}{name} *** {old}[{' '.join(e.cards)}]")
        elif k == "fold":
            lines.append(f"{p}: folds")
        elif k == "check":
            lines.append(f"{p}: checks")
        elif k == "raise":
            lines.append(f"{p}: raises {amt((e.amount or 0) - before)} to {amt(e.amount)}"
                         f"{allin[e.allin]}")
        elif k == "discard":
            lines.append(f"{p}: discards {len(e.cards)} card{'s' if len(e.cards) != 1 else ''}"
                         + (f" [{' '.join(e.cards)}]" if any(c != '??' for c in e.cards)
                            else ""))
        elif k == "stand":
            lines.append(f"{p}: stands pat")
        elif k in ("show", "muck"):
            if not shown_run:
                shown_run = e.run
                lines.append(f"*** {_RUNS[e.run] if runs > 1 else ''}SHOW DOWN ***")
            lines.append(f"{p}: shows [{' '.join(e.cards)}]" if k == "show" and e.cards
                         and any(c != "??" for c in e.cards) else f"{p}: mucks hand")
        elif k == "uncalled":
            lines.append(f"Uncalled bet ({amt(e.amount)}) returned to {p}")
        elif k == "collect":
            if runs > 1 and e.run != shown_run:  # each board's pots under its own header
                shown_run = e.run
                lines.append(f"*** {_RUNS[e.run]}SHOW DOWN ***")
            lines.append(f"{p} collected {amt(e.amount)} from {e.pot or 'pot'}")
        elif k == "cashout" and (e.amount >= 0 or p in fees_paid):
            # as PokerStars prints one: what was paid (a fee) on the same line, once
            fee = fees_paid.pop(p, None)
            lines.append(f"{p} cashed out the hand for {amt(max(e.amount, Decimal(0)))}"
                         + (f" | Cash Out Fee {amt(fee)}" if fee else ""))
    took = sum((e.amount or Decimal(0) for e in hand.events if e.kind == "collect"),
               Decimal(0))
    rake = hand.rake or Decimal(0)
    fees = sum(info.fees.values(), Decimal(0))
    lines.append("*** SUMMARY ***")
    extra = "".join(f" | {name.capitalize()} {amt(v)}" for name, v in info.fees.items())
    lines.append(f"Total pot {amt(took + rake + fees)} | Rake {amt(rake)}{extra}")
    if runs > 1:  # as PokerStars prints a hand run more than once
        lines.append(f"Hand was run {_TIMES.get(runs, f'{runs} times')}")
        lines += [f"{_RUNS[r]}Board [{' '.join(shared + own)}]"
                  for r, (shared, own) in board_runs.items()]
    elif board:
        lines.append(f"Board [{' '.join(board[1])}]")
    if runs == 1 and info.game not in ROUND_DEALT_GAMES:
        lines += _stars_seat_lines(hand, amt)
    else:
        number = {st_.name: st_.seat for st_ in hand.seats}
        for e in hand.events:  # cards mucked face up: the summary names them
            if e.kind == "muck" and e.cards and any(c != "??" for c in e.cards):
                lines.append(f"Seat {number[e.player or '']}: {e.player} mucked "
                             f"[{' '.join(e.cards)}]")
    return "\n".join(lines) + "\n"


#: Where a seat folded, in PokerStars' words, by the boards dealt before the fold.
_FOLDED_ON = ("before Flop", "on the Flop", "on the Turn", "on the River")
#: The blinds a summary line names as a seat's roles, by the event that posts them.
_ROLES = {"small_blind": "small blind", "big_blind": "big blind"}


def _stars_seat_lines(hand: SiteHand, amt: Callable[[Decimal | None], str]) -> list[str]:
    """The summary's line for each seat dealt in, as PokerStars ends a board game's hand run
    once (trackers read them; stud, draw games and hands run twice keep the lines of the
    pot, the boards and the cards mucked face up): the seat's roles (button, blinds), then
    where it folded (``(didn't bet)``: before the flop, having put in nothing but an ante),
    or the cards it showed and what it won or that it lost, or that it mucked (a hand shown
    in part too), or what it collected (a hand won without a showdown, shown or not)."""
    roles: dict[str, list[str]] = {}
    street = 0
    folded: dict[str, int] = {}
    put: set[str] = set()
    shown: dict[str, list[str]] = {}
    mucked: dict[str, list[str]] = {}
    won: dict[str, Decimal] = {}
    for e in hand.events:
        p = e.player or ""
        if e.kind == "board":
            street = min(street + 1, 3)
        elif e.kind == "fold":
            folded.setdefault(p, street)
        elif e.kind in ("small_blind", "big_blind", "straddle", "post", "dead", "call", "bet",
                        "raise"):
            put.add(p)
            role = _ROLES.get(e.kind)
            if role and role not in roles.setdefault(p, []):
                roles[p].append(role)
        elif e.kind == "show" and e.cards and "??" not in e.cards:
            shown[p] = list(e.cards)
        elif e.kind in ("show", "muck"):  # a hand shown in part is mucked, as PokerStars says
            mucked[p] = [c for c in e.cards if c != "??"] if e.kind == "muck" else []
        elif e.kind == "collect" and e.amount:
            won[p] = won.get(p, Decimal(0)) + e.amount
    # no showdown (everyone else folded): the winner collected, whatever it showed
    named = {e.player for e in hand.events}
    showdown = sum(1 for st_ in hand.seats if st_.name in named and st_.name not in folded) > 1
    out = []
    for st_ in sorted(hand.seats, key=lambda x: x.seat):
        if not st_.in_hand and st_.name not in named:  # sitting out, and out of this hand
            continue
        name = st_.name
        tags = (["button"] if hand.button == st_.seat else []) + roles.get(name, [])
        head = f"Seat {st_.seat}: {name}" + "".join(f" ({t})" for t in tags)
        if name in folded:
            where = folded[name]
            quiet = " (didn't bet)" if where == 0 and name not in put else ""
            out.append(f"{head} folded {_FOLDED_ON[where]}{quiet}")
        elif not showdown:  # the one seat left: it collected (nothing, when no bet was called)
            out.append(f"{head} collected ({amt(won.get(name, Decimal(0)))})")
        elif name in shown:
            cards = " ".join(shown[name])
            result = f"won ({amt(won[name])})" if name in won else "lost"
            out.append(f"{head} showed [{cards}] and {result}")
        elif name in mucked:
            cards = f" [{' '.join(mucked[name])}]" if mucked[name] else ""
            out.append(f"{head} mucked{cards}")
        elif name in won:
            out.append(f"{head} collected ({amt(won[name])})")
        else:  # at a showdown, a hand not shown is mucked
            out.append(f"{head} mucked")
    return out


def write_pokerstars(hands: list[SiteHand]) -> str:
    """``hands`` as PokerStars-format text, separated by two blank lines."""
    return "\n\n".join(stars_text(h) for h in hands)
