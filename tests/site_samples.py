"""The site samples of tests/data/sites for the site-reader tests: each file of a family
(by index.json's content label), its records, and the checks every family's test makes."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from functools import cache
from pathlib import Path

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, decode, parse_amount
from simulate.notation.sites import DETECT_CHARS, SITE_FORMATS, detect_site

SITES = Path(__file__).parent / "data" / "sites"
_A = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/"


def sample(path: str) -> Path:
    """A sample's path; ``A:`` abbreviates source A's folder of sample hands."""
    return SITES / path.replace("A:", _A)


@cache
def index() -> dict[str, dict]:
    return json.loads((SITES / "index.json").read_text(encoding="utf-8"))


@cache
def expected() -> dict[str, dict]:
    return json.loads((SITES / "expected_from_sources.json").read_text(encoding="utf-8"))


def files_of(*labels: str) -> list[str]:
    """The sample files index.json labels with one of ``labels`` (by content)."""
    return sorted(k for k, v in index().items() if v["site"] in labels)


def text_of(path: str) -> str:
    return decode(sample(path).read_bytes())


@cache
def records(path: str) -> tuple[tuple[int, SiteHand | SiteError], ...]:
    """The file's records through the registry (its family's reader)."""
    text = text_of(path)
    fmt = detect_site(text)
    assert fmt is not None, f"{path}: no reader detects it"
    return tuple(fmt.read(text, path))


def hands(path: str) -> list[SiteHand]:
    return [r for _, r in records(path) if isinstance(r, SiteHand) and not r.summary_only]


def one(path: str) -> SiteHand:
    (h,) = hands(path)
    return h


def detected_only_by(path: str, name: str) -> list[str]:
    """The families other than ``name`` whose detector accepts the file (should be none),
    after checking that the registry picks ``name``."""
    text = text_of(path)
    fmt = detect_site(text)
    assert fmt is not None and fmt.name == name, (path, fmt and fmt.name)
    head = text[:DETECT_CHARS].lstrip("\ufeff \n\t")
    return [f.name for f in SITE_FORMATS if f.name != name and f.detect(head)]


def errors_of(path: str) -> list[tuple[int, str]]:
    return [(line, str(r)) for line, r in records(path) if isinstance(r, SiteError)]


def events(hand: SiteHand) -> list[tuple]:
    """A hand's events as plain tuples ``(kind, player, amount as text or None, cards)``."""
    return [(e.kind, e.player, None if e.amount is None else str(e.amount), e.cards)
            for e in hand.events]


# ----------------------------------------------------------------------------- the sources' values
_GAME_TYPES = {
    "NoLimitHoldem": ("holdem", "no-limit"), "FixedLimitHoldem": ("holdem", "fixed-limit"),
    "PotLimitHoldem": ("holdem", "pot-limit"), "PotLimitOmaha": ("omaha", "pot-limit"),
    "NoLimitOmaha": ("omaha", "no-limit"), "PotLimitOmahaHiLo": ("omaha_hilo", "pot-limit"),
    "FixedLimitOmahaHiLo": ("omaha_hilo", "fixed-limit"),
    "PotLimitFiveCardOmaha": ("omaha5", "pot-limit"),
}
_LIMITS = {"nolimit": "no-limit", "potlimit": "pot-limit", "fixedlimit": "fixed-limit"}
_CURRENCY = {"$": "USD", "€": "EUR", "£": "GBP"}


def _utc(iso: str | None) -> datetime | None:
    if iso is None:
        return None
    t = datetime.fromisoformat(iso)
    return t.astimezone(timezone.utc).replace(tzinfo=None) if t.tzinfo else t


def _num(x: Decimal | None) -> float | None:
    return None if x is None else float(x)


def _pair(h: SiteHand) -> tuple[float | None, float | None]:
    st = h.stakes
    if h.info.betting == "fixed-limit" and st.small_bet is not None:
        return _num(st.small_bet), _num(st.big_bet)
    return _num(st.small_blind), _num(st.big_blind)


def expected_mismatches(key: str, hand: SiteHand, n_records: int,
                        skip: dict[str, str] | None = None) -> list[str]:
    """Where a hand differs from the values its source's tests assert for ``key`` (an
    ``expected_from_sources.json`` key); ``skip``: keys not compared, with the reason."""
    want = expected()[key]
    info, out = hand.info, []

    def check(name: str, ours: object, theirs: object) -> None:
        if ours != theirs:
            out.append(f"{name}: ours {ours!r}, the source's {theirs!r}")

    for k, v in want.items():
        if k == "_from" or (skip and k in skip):
            continue
        if k in ("hand_id", "info.handid"):
            check(k, re.findall(r"\d+", info.hand_id), re.findall(r"\d+", str(v)))
        elif k == "date_utc":
            check(k, _utc(info.time), datetime.strptime(v, "%m/%d/%Y %H:%M:%S"))
        elif k in ("dealer_button_seat", "table.button"):
            check(k, hand.button, v)
        elif k == "number_of_players":
            check(k, len(hand.seats), v)
        elif k == "rake":
            if v is not None:
                check(k, _num(hand.rake), v)
        elif k == "total_pot":
            if v is not None:
                check(k, _num(hand.total_pot), v)
        elif k == "limit":
            check(k, _pair(hand), tuple(float(re.sub(r"[^\d.]", "", x))
                                        for x in v.split("-")[:2]))
        elif k in ("table_name", "table.table"):
            # the name as printed; a source may keep the table size (" 6 Max") with it
            check(k, info.table, re.sub(r" \d+ Max$", "", v))
        elif k == "hero":
            check(k, info.hero, v)
        elif k == "game_type":
            check(k, (info.game, info.betting), _GAME_TYPES[v])
        elif k == "max_players":
            check(k, hand.max_seats, v)
        elif k == "number_of_hands":
            check(k, n_records, v)
        elif k == "is_valid_hand":
            pass  # the test states each file's outcome
        elif k == "info.currency":
            check(k, info.currency, "chips" if info.tournament else _CURRENCY[v])
        elif k in ("info.year", "info.month", "info.day", "info.hour", "info.min",
                   "info.sec"):
            t = _utc(info.time)
            assert t is not None
            check(k, getattr(t, {"info.min": "minute", "info.sec": "second"}.get(
                k, k[5:])), v)
        elif k == "info.sb":
            check(k, _num(hand.stakes.small_blind), v)
        elif k == "info.bb":
            check(k, _num(hand.stakes.big_blind), v)
        elif k == "info.ante":
            antes = [e.amount for e in hand.events if e.kind == "ante"]
            check(k, _num(antes[0]) if antes else None, v)
        elif k == "info.limit":
            check(k, info.betting, _LIMITS[v])
        elif k == "info.pokertype":
            check(k, info.game, v)
        elif k == "info.gametype":
            check(k, "tournament" if info.tournament else "cash", v)
        elif k == "info.gameno":
            check(k, info.tournament and info.tournament.id, str(v))
        elif k == "info.level":
            check(k, info.tournament and info.tournament.level, v)
        elif k in ("info.buyin", "info.donation", "info.rake"):
            assert info.tournament is not None and info.tournament.buy_in is not None
            parts = [float(parse_amount(x)) for x in info.tournament.buy_in.split("+")]
            check(k, {"info.buyin": sum(parts), "info.donation": parts[0],
                      "info.rake": parts[-1]}[k], v)
        elif k in ("info.timezone", "table.maxseats"):
            pass  # hhp converts to GMT (compared through the hour); maxseats: players seated
        else:
            out.append(f"{k}: not compared (no rule)")
    return out


# ----------------------------------------------------------------------------- round trips
def shape(h) -> tuple:
    """What 'the same hand' means for a round trip: players, stacks, forced bets,
    winnings, each action (a deal by its target and card count, the hole cards as known
    by the end) and the board (as tests/test_site_convert.py compares)."""
    known: dict[int, list] = {}
    acts = []
    for a in h.actions:
        if a.kind == "dh":
            if a.cards and None not in a.cards:
                known[a.target] = list(a.cards)
            acts.append(("dh", a.target, len(a.cards or [])))
            continue
        if a.kind == "sm" and a.cards and None not in a.cards:
            known[a.actor] = list(a.cards)
        acts.append((a.kind, a.actor, a.target, tuple(a.cards) if a.kind == "db" else None,
                     None if a.amount is None else Decimal(a.amount)))
    return (h.variant, list(h.players), [Decimal(x) for x in h.starting_stacks],
            [Decimal(x) for x in h.antes], [Decimal(x) for x in h.blinds_or_straddles],
            [Decimal(x) for x in h.winnings or []], acts, known)


def round_trip_mismatches(paths: list[str], fmt: str) -> tuple[int, list[str]]:
    """Each hand of ``paths`` written in ``fmt`` and read back: how many were written, and
    the hands that do not read back the same (or could not be written), named."""
    import simulate.notation as N
    from simulate.notation.sites import read_site

    done, bad = 0, []
    for path in paths:
        for line, hh in read_site(sample(path).read_bytes(), path):
            if isinstance(hh, SiteError):
                continue
            try:
                text = N.write([hh], fmt)
            except ValueError as exc:
                bad.append(f"{path}:{line}: not written: {exc}")
                continue
            try:
                (back,) = N.read(text)
            except ValueError as exc:  # PHHError is a ValueError
                bad.append(f"{path}:{line}: does not read back: {exc}")
                continue
            done += 1
            if shape(back) != shape(hh):
                bad.append(f"{path}:{line}")
    return done, bad


def key(path: str) -> str:
    """A sample's path with source A's folder written ``A:`` (the tests' short keys)."""
    return path.replace(_A, "A:")


@dataclass
class Replayed:
    """Every hand of some samples through :func:`read_site` and the replay: the errors and
    the hands whose betting the rules refuse (not validated, the reason), each by
    ``(key, first line)``; how many were validated, and how many hands there were."""

    errors: dict[tuple[str, int], str] = field(default_factory=dict)
    refused: dict[tuple[str, int], str] = field(default_factory=dict)
    validated: int = 0
    total: int = 0


def replay_all(paths: list[str]) -> Replayed:
    """:class:`Replayed` of every hand of ``paths``."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    out = Replayed()
    for path in paths:
        for line, hh in read_site(sample(path).read_bytes(), path):
            doc = replay(hh).to_dict()
            out.total += 1
            out.validated += bool(doc["validated"])
            if doc["error"]:
                out.errors[(key(path), line)] = doc["error"]
            if "rules engine refuses" in (doc["not_validated"] or ""):
                out.refused[(key(path), line)] = doc["not_validated"]
    return out
