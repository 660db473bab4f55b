"""The header line of a PokerStars-format hand (see :mod:`simulate.notation.site_pokerstars`
for the whole grammar): ``ROOM [Zoom |Home Game ]Hand|Game #ID: [{club}] `` then a cash
game ``GAME LIMIT (SB/BB[ - $CAP Cap - ][ CUR])``, a tournament ``Tournament #T, BUYIN[
CUR] GAME LIMIT - [Match Round R, ]Level L (SB/BB)`` or a mixed game ``MIX (GAME
LIMIT[, SB/BB CUR])``, then `` - DATE TIME ZONE[ [DATE TIME ZONE]]`` (older: ``DATE -
TIME (ZONE)``)."""

from __future__ import annotations

import re
from decimal import Decimal

from simulate.notation.site_hand import Stakes
from simulate.notation.site_text import CURRENCY_SIGNS, SiteError, SiteInfo, Tournament, amount_at
from simulate.notation.site_zones import LOCAL_ZONES, ZONE_OFFSETS, local_time

__all__ = ["GAME_NAMES", "LIMITS", "read_header"]

#: Game names as printed, to ours (longest first in the pattern).
GAME_NAMES = {
    "Hold'em": "holdem", "Omaha": "omaha", "Omaha Hi/Lo": "omaha_hilo",
    "5 Card Omaha": "omaha5", "5 Card Omaha Hi/Lo": "omaha5_hilo", "6 Card Omaha": "omaha6",
    "6+ Hold'em": "short_deck", "7 Card Stud": "stud", "7 Card Stud Hi/Lo": "stud_hilo",
    "Razz": "razz", "Triple Draw 2-7 Lowball": "2-7_triple_draw",
    "Single Draw 2-7 Lowball": "2-7_single_draw", "5 Card Draw": "5_card_draw",
    "Badugi": "badugi", "Triple Draw A-5 Lowball": "a-5_triple_draw",
    "Courchevel": "courchevel", "Courchevel Hi/Lo": "courchevel_hilo",
}
LIMITS = {"No Limit": "no-limit", "Pot Limit": "pot-limit", "Limit": "fixed-limit",
          "Fixed Limit": "fixed-limit"}
_GAME_RE = "|".join(re.escape(g) for g in sorted(GAME_NAMES, key=len, reverse=True))
_GAME = re.compile(rf"(?P<game>{_GAME_RE})\s+(?P<limit>No Limit|Pot Limit|Fixed Limit|Limit)"
                   r"(?:\s*,\s*(?P<mixstakes>[^)]*))?")
_HEADER = re.compile(r"^(?P<room>.*?)\s*(?:Hand|Game) #(?P<id>\w+):\s*(?P<rest>.*)$")
_TOURNEY = re.compile(r"Tournament #(?P<tid>\d+),?\s*(?P<buyin>.*?)\s*$")
_LEVEL = re.compile(r"Level (?P<level>[\w-]+)(?:\s*\((?P<sb>[^/)]+)/(?P<bb>[^/)]+)"
                    r"(?:/(?P<ante>[^)]+))?\))?")
_STAKES = re.compile(r"\(\s*(?P<sb>[^/\s()]+)/(?P<bb>[^/\s()]+)(?:/(?P<ante>[^\s()]+))?"
                     r"(?:\s*-\s*(?P<cap>\S+)\s+Cap\s*-)?\s*(?P<cur>[A-Z]{3})?\s*\)")
_DATE = re.compile(r"(?P<d>\d{4}/\d{1,2}/\d{1,2})(?:\s+-\s+|\s+)(?P<t>\d{1,2}:\d{2}(?::\d{2})?)"
                   r"(?:\s+\(?(?P<z>[A-Z]{1,5})\)?)?")




def _set_stakes(stakes: Stakes, betting: str, a: Decimal, b: Decimal) -> None:
    """The header's pair: the blinds, or fixed limit's small and big bet."""
    if betting == "fixed-limit":
        stakes.small_bet, stakes.big_bet = a, b
    else:
        stakes.small_blind, stakes.big_blind = a, b


def read_header(line: str, where: int) -> tuple[SiteInfo, Stakes]:
    """The site facts (a cap game's cap included) and the stakes of a header line."""
    m = _HEADER.match(line.strip().lstrip("\ufeff"))
    if m is None:
        raise SiteError(f"line {where}: not a PokerStars hand header: {line.strip()[:80]!r}")
    room = m["room"].strip("* ").split()[0].lower() if m["room"].strip("* ") else "pokerstars"
    site = {"pppoker": "pppoker", "upoker": "upoker"}.get(room, "pokerstars")
    rest = m["rest"]
    if rest.startswith("{"):  # a home game's club
        rest = rest[1:].partition("}")[2].strip()
    # the date (and maybe a second one in brackets) ends the line
    d = _DATE.search(rest)
    body, when = (rest[:d.start()], rest[d.start():]) if d else (rest, "")
    g = _GAME.search(body)
    if g is None:
        raise SiteError(f"line {where}: unknown game in {body[:60]!r}")
    game, betting = GAME_NAMES[g["game"]], LIMITS[g["limit"]]
    stakes = Stakes()
    currency = None
    tournament = None
    before = body[:g.start()]
    t = _TOURNEY.search(before)
    if t is not None:
        buyin = t["buyin"].strip()
        if buyin.endswith("("):  # a mixed game's name sits between the buy-in and the game
            mm = re.match(r"(?:\S*\d\S*|Freeroll)(?:\s+[A-Z]{3}\b)?", buyin)
            buyin = mm[0] if mm else buyin[:-1].strip()
        buyin = re.sub(r"\s+[A-Z]{3}$", "", buyin)  # "$3.19+$0.31 USD": the code is the sign's
        lv = _LEVEL.search(body, g.end())
        level = lv["level"] if lv else None
        tournament = Tournament(id=t["tid"], buy_in=buyin or None, level=level)
        currency = "chips"
        if lv and lv["sb"]:
            _set_stakes(stakes, betting, amount_at(lv["sb"], where), amount_at(lv["bb"], where))
    else:
        s = _STAKES.search(body, g.start())
        text = g["mixstakes"]
        if text and "/" in text:
            s = _STAKES.search(f"({text})")
        if s is not None:
            _set_stakes(stakes, betting, amount_at(s["sb"], where), amount_at(s["bb"], where))
            if s["ante"]:
                stakes.ante = amount_at(s["ante"], where)
            currency = s["cur"] or CURRENCY_SIGNS.get(s["sb"][0]) or "chips"
        if "Play Money" in line:
            currency = "chips"
    time = None
    dates = list(_DATE.finditer(when))
    if dates:
        pick = next((d for d in dates if d["z"] in LOCAL_ZONES or d["z"] in ZONE_OFFSETS),
                    dates[0])
        time = local_time(pick["d"], pick["t"], pick["z"])
    info = SiteInfo(site=site, hand_id=m["id"], game=game, betting=betting, time=time,
                    currency=currency, tournament=tournament, line=where)
    if tournament is None and s is not None and s["cap"]:  # s: the cash game's stakes
        info.cap = amount_at(s["cap"], where)
    return info, stakes
