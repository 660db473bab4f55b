"""What the tests of the structured-format site readers share (iPoker, Merge, MicroGaming,
Boss Media XML and IGT JSON): the samples of a site label, each file read through the
registry, and the checks every family makes (detection, hand counts, the chip check, the
sources' expected values)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cache
from pathlib import Path

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, decode
from simulate.notation.sites import DETECT_CHARS, SITE_FORMATS, detect_site, read_site_records

SITES = Path(__file__).resolve().parent / "data" / "sites"
SAMPLES = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/"


@cache
def index() -> dict[str, dict]:
    return json.loads((SITES / "index.json").read_text(encoding="utf-8"))


@cache
def expected() -> dict[str, dict]:
    return json.loads((SITES / "expected_from_sources.json").read_text(encoding="utf-8"))


def files_of(label: str) -> list[str]:
    """The sample files ``index.json`` labels ``label`` (by content), sorted."""
    return sorted(k for k, v in index().items() if v["site"] == label)


def short(path: str) -> str:
    """A sample's path without the source's long common prefix."""
    return path.split("SampleHandHistories/")[-1]


@cache
def records(path: str) -> tuple[tuple[int, SiteHand | SiteError], ...]:
    """Every hand of the sample ``path`` read through the registry."""
    return tuple(read_site_records((SITES / path).read_bytes(), path))


def head(path: str) -> str:
    return decode((SITES / path).read_bytes())[:DETECT_CHARS].lstrip("\ufeff \n\t")


@dataclass
class Family:
    """One family's samples and the faults its test knows (``faults``: a file's short path
    to a fragment of the :class:`SiteError` each of its faulty hands gives;
    ``edited_stakes``: the files whose header stakes the source edited, so that they no
    longer match the blinds the hand posts)."""

    name: str
    label: str
    faults: dict[str, str] = field(default_factory=dict)
    edited_stakes: frozenset[str] = frozenset()

    def check_detection_and_counts(self, path: str) -> None:
        fmt = detect_site(decode((SITES / path).read_bytes()))
        assert fmt is not None and fmt.name == self.name, short(path)
        others = [f.name for f in SITE_FORMATS if f.name != self.name and f.detect(head(path))]
        assert others == [], (short(path), others)
        assert len(records(path)) == index()[path]["hands"], short(path)

    def check_chips(self, path: str) -> None:
        fault = self.faults.get(short(path))
        for _, rec in records(path):
            if fault is not None:
                assert isinstance(rec, SiteError) and fault in str(rec), (short(path), rec)
                continue
            assert isinstance(rec, SiteHand), (short(path), rec)
            rec.check_chips()
            assert rec.rake is None or rec.rake >= 0
            if not any(e.kind == "board" for e in rec.events) and rec.rake is not None:
                assert rec.rake == 0, (short(path), "rake without a flop")   # no flop, no drop
            # the stakes read from the header agree with the blinds the hand posts
            for kind, want in (("small_blind", rec.stakes.small_blind),
                               ("big_blind", rec.stakes.big_blind)):
                posted = [e for e in rec.events if e.kind == kind and not e.allin]
                if want is not None and posted and short(path) not in self.edited_stakes:
                    assert posted[0].amount == want, (short(path), kind, want)


GAME_TYPES = {"NoLimitHoldem": ("holdem", "no-limit"), "PotLimitOmaha": ("omaha", "pot-limit"),
              "FixedLimitHoldem": ("holdem", "fixed-limit"),
              "PotLimitOmahaHiLo": ("omaha_hilo", "pot-limit"), "PotLimitHoldem":
              ("holdem", "pot-limit")}


def limit_pair(text: str) -> tuple[Decimal, Decimal]:
    """``$100-$200``, ``SEK0.25-SEK0.50`` as two amounts."""
    small, big = (x.strip("$€£SEK ") for x in text.split("-"))
    return Decimal(small), Decimal(big)


def check_expected(path: str, facts: dict, skip: dict[str, str]) -> None:
    """The first hand of ``path`` against the source's expected ``facts`` (``skip``: the
    keys not compared, each with the reason)."""
    recs = [r for _, r in records(path)]
    for key, value in facts.items():
        if key.startswith("_") or key in skip:
            continue
        if key == "is_valid_hand":
            assert all(isinstance(r, SiteHand) for r in recs) == value, short(path)
            continue
        if key in ("is_cancelled", "is_valid_or_cancelled"):
            assert all(isinstance(r, SiteError) and "cancelled" in str(r) for r in recs)
            continue
        if key == "number_of_hands":
            assert len(recs) == value
            continue
        hand = recs[0]
        assert isinstance(hand, SiteHand), (short(path), hand)
        info = hand.info
        if key == "hand_id":
            assert info.hand_id.replace("-", ".").replace(".hand.", ".") == value
        elif key == "date_utc":
            when = datetime.strptime(value, "%m/%d/%Y %H:%M:%S")
            assert info.time is not None
            assert datetime.fromisoformat(info.time).replace(tzinfo=None) == when
        elif key == "dealer_button_seat":
            assert hand.button == value
        elif key == "number_of_players":
            assert len(hand.seats) == value
        elif key == "rake":
            assert hand.rake == Decimal(str(value))
        elif key == "total_pot":
            assert hand.total_pot == (None if value is None else Decimal(str(value)))
        elif key == "limit":
            small, big = limit_pair(value)
            st = hand.stakes
            got = ((st.small_bet, st.big_bet) if info.betting == "fixed-limit"
                   else (st.small_blind, st.big_blind))
            assert got == (small, big), short(path)
        elif key == "table_name":
            assert info.table == value
        elif key == "hero":
            assert info.hero == value
        elif key == "game_type":
            assert (info.game, info.betting) == GAME_TYPES[value]
        elif key == "max_players":
            assert hand.max_seats == value
        else:
            raise AssertionError(f"{short(path)}: no check for {key!r}")


def expected_of(family_dir: str) -> list[tuple[str, dict]]:
    """The expected values of the source for the files under ``family_dir`` (a folder of
    the source's ``SampleHandHistories``)."""
    return sorted((k, v) for k, v in expected().items()
                  if k.startswith(SAMPLES + family_dir + "/"))


def replay_outcomes(paths: list[str]) -> tuple[dict[str, list[str]], int, int]:
    """Every hand of ``paths`` through :func:`read_site` and the replay: the replay errors
    by file (short path: the errors), the number of hands validated, and the number read."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    errors: dict[str, list[str]] = {}
    validated = read = 0
    for path in paths:
        for _, hh in read_site((SITES / path).read_bytes(), path):
            if isinstance(hh, SiteError):
                continue
            read += 1
            doc = replay(hh).to_dict()
            if doc.get("error"):
                errors.setdefault(short(path), []).append(str(doc["error"]))
            validated += bool(doc.get("validated"))
    return errors, validated, read


def refused_by_rules(paths: list[str]) -> dict[str, list[str]]:
    """The hands of ``paths`` whose betting the rules engine refuses (they stand on their
    chip accounting, not validated), by file (short path: the reasons)."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    out: dict[str, list[str]] = {}
    for path in paths:
        for _, hh in read_site((SITES / path).read_bytes(), path):
            if isinstance(hh, SiteError):
                continue
            why = replay(hh).to_dict()["not_validated"] or ""
            if "rules engine refuses" in why:
                out.setdefault(short(path), []).append(why)
    return out
