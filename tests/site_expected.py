"""The values the samples' own sources assert (tests/data/sites/expected_from_sources.json)
compared with what our site readers make of the samples. Three comparers, one for each way
the site tests state them: :func:`expected_mismatches` (the differences, named),
:func:`check_expected` (the first hand of a file, asserted key by key, with skips) and
:func:`check_site_expected` (the records of a file, asserted key by key)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timezone
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

from site_samples import SAMPLES, expected, index, key, records, recs_of

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, parse_amount

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



GAME_TYPES = {"NoLimitHoldem": ("holdem", "no-limit"), "PotLimitOmaha": ("omaha", "pot-limit"),
              "FixedLimitHoldem": ("holdem", "fixed-limit"),
              "PotLimitOmahaHiLo": ("omaha_hilo", "pot-limit"), "PotLimitHoldem":
              ("holdem", "pot-limit")}


def limit_pair(text: str) -> tuple[Decimal, Decimal]:
    """``$100-$200``, ``SEK0.25-SEK0.50`` as two amounts."""
    small, big = (x.strip("$€£SEK ") for x in text.split("-"))
    return Decimal(small), Decimal(big)


def check_expected(path: str, facts: dict, skip: dict[str, str],
                   contradicted: dict[str, str] | None = None) -> bool:
    """The first hand of ``path`` against the source's expected ``facts`` (``skip``: the
    keys not compared, each with the reason; ``contradicted``: a file's key -> the one fact
    the file itself contradicts, not compared either). Whether the file is one of those."""
    said_otherwise = (contradicted or {}).get(key(path))
    if said_otherwise is not None:
        skip = {**skip, said_otherwise: "the file says otherwise"}
    recs = [r for _, r in records(path)]
    for fact, value in facts.items():
        if fact.startswith("_") or fact in skip:
            continue
        if fact == "is_valid_hand":
            assert all(isinstance(r, SiteHand) for r in recs) == value, key(path)
            continue
        if fact in ("is_cancelled", "is_valid_or_cancelled"):
            assert all(isinstance(r, SiteError) and "cancelled" in str(r) for r in recs)
            continue
        if fact == "number_of_hands":
            assert len(recs) == value
            continue
        hand = recs[0]
        assert isinstance(hand, SiteHand), (key(path), hand)
        info = hand.info
        if fact == "hand_id":
            assert info.hand_id.replace("-", ".").replace(".hand.", ".") == value
        elif fact == "date_utc":
            when = datetime.strptime(value, "%m/%d/%Y %H:%M:%S")
            assert info.time is not None
            assert datetime.fromisoformat(info.time).replace(tzinfo=None) == when
        elif fact == "dealer_button_seat":
            assert hand.button == value
        elif fact == "number_of_players":
            assert len(hand.seats) == value
        elif fact == "rake":
            assert hand.rake == Decimal(str(value))
        elif fact == "total_pot":
            assert hand.total_pot == (None if value is None else Decimal(str(value)))
        elif fact == "limit":
            small, big = limit_pair(value)
            st = hand.stakes
            got = ((st.small_bet, st.big_bet) if info.betting == "fixed-limit"
                   else (st.small_blind, st.big_blind))
            assert got == (small, big), key(path)
        elif fact == "table_name":
            assert info.table == value
        elif fact == "hero":
            assert info.hero == value
        elif fact == "game_type":
            assert (info.game, info.betting) == GAME_TYPES[value]
        elif fact == "max_players":
            assert hand.max_seats == value
        else:
            raise AssertionError(f"{key(path)}: no check for {fact!r}")
    return said_otherwise is not None


def expected_of(family_dir: str) -> list[tuple[str, dict]]:
    """The expected values of the source for the files under ``family_dir`` (a folder of
    the source's ``SampleHandHistories``)."""
    return sorted((k, v) for k, v in expected().items()
                  if k.startswith(SAMPLES + family_dir + "/"))


def site_expected(path: str) -> dict[str, Any]:
    """What the sample's source tests assert about ``path`` (``expected_from_sources.json``;
    empty where they assert nothing)."""
    return expected().get(path, {})


def _utc_of(iso: str) -> datetime:
    return datetime.fromisoformat(iso).astimezone(UTC).replace(tzinfo=None)


_GAME_WORDS = {"Holdem": "holdem", "Omaha": "omaha", "OmahaHiLo": "omaha_hilo",
               "FiveCardOmaha": "omaha5"}
_LIMIT_WORDS = {"NoLimit": "no-limit", "PotLimit": "pot-limit", "FixedLimit": "fixed-limit",
                "CapNoLimit": "no-limit"}


def _amounts(text: str) -> tuple[Decimal, ...]:
    return tuple(Decimal(re.sub(r"[^\d.]", "", x)) for x in text.split("-") if x != "Ante")


def asserted(paths: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The samples of ``paths`` whose sources assert something, each with
    :func:`site_expected`."""
    return [(p, site_expected(p)) for p in paths if site_expected(p)]


def check_site_expected(recs: list[Any], exp: dict[str, Any]) -> None:  # noqa: C901
    """Assert the values a sample's source tests assert (``site_expected``) on the records
    a site reader made of it (:class:`SiteHand` or :class:`SiteError`), fact by fact."""
    D = Decimal  # noqa: N806 - reads as the amounts' type
    hands = [r for r in recs if isinstance(r, SiteHand)]
    h = hands[0] if hands else None
    for fact, want in exp.items():
        if fact == "_from" or (want is None and fact in ("buyin", "rake", "currency")):
            continue
        if fact == "number_of_hands":
            assert len(recs) == want
        elif fact == "is_valid_hand" or fact == "is_valid_or_cancelled":
            ok = h is not None
            if ok:
                try:
                    h.check_chips()
                except SiteError:
                    ok = False
            assert ok == want or fact == "is_valid_or_cancelled"
        elif fact == "is_cancelled":
            assert "cancelled" in str(recs[0]) and want
        elif fact in ("hand_id", "ident", "info.handid", "ident_of_first_hand"):
            assert h.info.hand_id == str(want)
        elif fact == "date_utc":
            assert _utc_of(h.info.time) == datetime.strptime(want, "%m/%d/%Y %H:%M:%S")
        elif fact == "date":
            stamp, zone = want.split(" ")
            assert zone == "US/Eastern"
            local = datetime.fromisoformat(stamp).replace(tzinfo=ZoneInfo("America/New_York"))
            assert datetime.fromisoformat(h.info.time) == local
        elif fact in ("dealer_button_seat", "table.button"):
            assert h.button == want
        elif fact == "number_of_players":
            assert len(h.seats) == want
        elif fact == "rake" and not isinstance(want, str):
            assert h.rake == D(str(want))
        elif fact == "total_pot":
            assert h.total_pot == D(str(want))
        elif fact == "limit" and want in ("NL", "PL", "FL"):
            assert h.info.betting == {"NL": "no-limit", "PL": "pot-limit",
                                      "FL": "fixed-limit"}[want]
        elif fact == "game":
            assert h.info.game == {"HOLDEM": "holdem", "OMAHA": "omaha"}[want]
        elif fact == "limit":
            st = h.stakes
            got = (st.small_blind or st.small_bet, st.big_blind or st.big_bet)
            assert got == _amounts(want)
        elif fact == "limit_after_full_parse":
            sb, bb, ante = _amounts(want)
            assert (h.stakes.small_blind, h.stakes.big_blind) == (sb, bb)
            assert {e.amount for e in h.events if e.kind == "ante"} == {ante}
        elif fact in ("table_name",):
            assert h.info.table == want
        elif fact == "table.tableno":
            assert h.info.table == want or h.info.table.split()[-1] == str(want)
        elif fact == "hero" and isinstance(want, str):
            assert h.info.hero == want
        elif fact == "hero":
            assert h.info.hero == want["name"]
            hole = next(e.cards for e in h.events if e.kind == "hole" and e.player == want["name"])
            combo = want["combo"]  # the source orders the cards its own way
            assert sorted(hole) == sorted(combo[i:i + 2] for i in range(0, len(combo), 2))
        elif fact in ("max_players", "table.maxseats"):
            # a header that prints no seat count: the seats fit the source's
            assert h.max_seats == want or (
                h.max_seats is None and max(s.seat for s in h.seats) <= want)
        elif fact == "game_type" and want in ("TOUR", "SNG", "CASH"):
            assert (h.info.tournament is not None) == (want != "CASH")
        elif fact == "game_type":
            m = re.fullmatch(r"(CapNoLimit|NoLimit|PotLimit|FixedLimit)(\w+)", want)
            assert (h.info.game, h.info.betting) == (_GAME_WORDS[m[2]], _LIMIT_WORDS[m[1]])
        elif fact == "info.gametype":
            assert (h.info.tournament is not None) == (want == "tournament")
        elif fact in ("info.sb", "sb"):
            assert h.stakes.small_blind == D(str(want))
        elif fact in ("info.bb", "bb"):
            assert h.stakes.big_blind == D(str(want))
        elif fact == "info.ante":
            assert {e.amount for e in h.events if e.kind == "ante"} == {D(str(want))}
        elif fact in ("info.level", "tournament_level"):
            level = h.info.tournament.level if h.info.tournament else None
            assert (level or "").lower() == (want or "").lower()
        elif fact == "tournament_ident" or fact == "info.gameno":
            assert (h.info.tournament.id if h.info.tournament else None) == want
        elif fact in ("buyin", "info.donation"):
            assert h.info.tournament.buy_in.split("+")[0] == f"${want}"
        elif fact in ("info.rake", "rake"):
            assert h.info.tournament.buy_in.split("+")[-1] == f"${want}"
        elif fact in ("info.year", "info.month", "info.day", "info.hour", "info.min",
                     "info.sec"):
            t = datetime.fromisoformat(h.info.time)
            attr = {"min": "minute", "sec": "second"}.get(fact[5:], fact[5:])
            assert getattr(t, attr) == want
        elif fact == "info.timezone":
            assert want == "ET" and h.info.time.endswith(("-05:00", "-04:00"))
        elif fact == "info.currency" or fact == "currency":
            assert want in ("$", "USD")
            assert h.info.currency == "USD" or h.info.tournament.buy_in.startswith("$")
        elif fact == "players":
            got = [(s.name, s.stack, s.seat) for s in h.seats]
            assert got == [(p["name"], D(str(p["stack"])), p["seat"]) for p in want
                           if not p["name"].startswith("Empty Seat")]
        elif fact == "button":
            assert h.button == want["seat"]
        elif fact == "board":
            board = [c for e in h.events if e.kind == "board" and e.run == 1 for c in e.cards]
            assert board == (want or [])
        elif fact == "winners":
            assert sorted({e.player for e in h.events if e.kind == "collect"}) == sorted(want)


def check_sources_values(label: str, n_keys: int,
                         skip: Callable[[str], dict[str, str] | None] = lambda k: None,
                         ) -> dict[str, SiteHand]:
    """Every ``expected_from_sources.json`` key of the samples labelled ``label`` (``n_keys``
    of them; ``path#i`` is the file's i-th hand) through :func:`expected_mismatches` (none
    allowed; ``skip(key)``: the keys not compared, with the reason). A hand the source calls
    invalid is our :class:`SiteError` too, unless ``skip`` names ``is_valid_hand``. Returns
    the hands compared, by key."""
    keys = [k for k in expected() if index().get(k.split("#")[0], {}).get("site") == label]
    assert len(keys) == n_keys
    out = {}
    for k in keys:
        path, _, i = k.partition("#")
        recs = records(path)
        rec = recs[int(i or 0)][1]
        skipped = skip(k)
        if expected()[k].get("is_valid_hand") is False and "is_valid_hand" not in (skipped or {}):
            assert isinstance(rec, SiteError), k
            continue
        assert not isinstance(rec, SiteError), (k, rec)
        assert expected_mismatches(k, rec, len(recs), skipped) == [], k
        out[k] = rec
    return out


def iso_time(us: str) -> str:
    """A source's ``date_utc`` (``M/D/YYYY H:MM:SS``) as ISO 8601, no zone."""
    month, day, rest = us.split("/")
    year, clock = rest.split(" ")
    h, m, s = clock.split(":")
    return f"{year}-{int(month):02d}-{int(day):02d}T{int(h):02d}:{m}:{s}"


def plain_hand(path: str, hand_id: Callable[[str], str] = str,
               ) -> tuple[SiteHand | None, dict[str, Any]]:
    """The first hand of ``path`` and the source's expected values ``exp`` for it, once the facts
    stated as our hands hold them are checked (the hand's id as ``hand_id`` writes ours, the
    button's seat, how many players, the table's name, the hero, the game and betting);
    None where ``exp`` speaks of the file as a whole (valid or cancelled, how many hands:
    checked)."""
    exp = expected()[path]
    recs = recs_of(path)
    if "is_cancelled" in exp or "is_valid_hand" in exp:
        valid = exp.get("is_valid_hand", not exp.get("is_cancelled"))
        assert isinstance(recs[0], SiteHand) == valid
        return None, exp
    if "number_of_hands" in exp:
        assert len(recs) == exp["number_of_hands"]
        return None, exp
    hand = recs[0]
    assert isinstance(hand, SiteHand)
    if "hand_id" in exp:
        assert hand_id(hand.info.hand_id) == exp["hand_id"]
    if "dealer_button_seat" in exp:
        assert hand.button == exp["dealer_button_seat"]
    if "number_of_players" in exp:
        assert len(hand.seats) == exp["number_of_players"]
    if "table_name" in exp:
        assert hand.info.table == exp["table_name"]
    if "hero" in exp:
        assert hand.info.hero == exp["hero"]
    if "game_type" in exp:
        assert (hand.info.game, hand.info.betting) == _GAME_TYPES[exp["game_type"]]
    return hand, exp
