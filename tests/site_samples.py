"""The site samples of tests/data/sites for the site-reader tests: each file of a family
(by index.json's content label), its records, and the checks every family's test makes
(detection, hand counts, the chip check, the replay, round trips through PHH and OHH, damaged
text). The sources' expected values are compared in tests/site_expected.py."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError, decode
from simulate.notation.sites import DETECT_CHARS, SITE_FORMATS, detect_site, read_site_records

SITES = Path(__file__).parent / "data" / "sites"
#: Source A's folder of sample hands (``A:`` in the tests' short keys).
SAMPLES = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories/"


def sample(path: str) -> Path:
    """A sample's path; ``A:`` abbreviates source A's folder of sample hands."""
    return SITES / path.replace("A:", SAMPLES)


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
    """The file's records through the registry (its family's reader; none where no reader
    detects the file)."""
    return tuple(read_site_records(sample(path).read_bytes(), path))


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


# ----------------------------------------------------------------------------- round trips
def shape(h) -> tuple:
    """What 'the same hand' means for a round trip: players, stacks, forced bets,
    winnings, each action (a deal by its target and card count, the hole cards as known
    by the end) and the board (tests/test_site_convert.py compares the same)."""
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
        board = tuple(a.cards) if a.kind == "db" and a.cards else None
        acts.append((a.kind, a.actor, a.target, board,
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
    return path.replace(SAMPLES, "A:")


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


def head_of(path: str) -> str:
    """The start of a sample that the detectors see."""
    return text_of(path)[:DETECT_CHARS].lstrip("\ufeff \n\t")


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
        fmt = detect_site(text_of(path))
        assert fmt is not None and fmt.name == self.name, key(path)
        others = [f.name for f in SITE_FORMATS if f.name != self.name and f.detect(head_of(path))]
        assert others == [], (key(path), others)
        assert len(records(path)) == index()[path]["hands"], key(path)

    def check_chips(self, path: str) -> None:
        fault = self.faults.get(key(path))
        for _, rec in records(path):
            if fault is not None:
                assert isinstance(rec, SiteError) and fault in str(rec), (key(path), rec)
                continue
            assert isinstance(rec, SiteHand), (key(path), rec)
            rec.check_chips()
            assert rec.rake is None or rec.rake >= 0
            if not any(e.kind == "board" for e in rec.events) and rec.rake is not None:
                assert rec.rake == 0, (key(path), "rake without a flop")   # no flop, no drop
            # the stakes read from the header agree with the blinds the hand posts
            for kind, want in (("small_blind", rec.stakes.small_blind),
                               ("big_blind", rec.stakes.big_blind)):
                posted = [e for e in rec.events if e.kind == kind and not e.allin]
                if want is not None and posted and key(path) not in self.edited_stakes:
                    assert posted[0].amount == want, (key(path), kind, want)


def replay_outcomes(paths: list[str]) -> tuple[dict[str, list[str]], int, int]:
    """Every hand of ``paths`` through :func:`read_site` and the replay: the replay errors
    by file (short path: the errors), the number of hands validated, and the number read."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    errors: dict[str, list[str]] = {}
    validated = read = 0
    for path in paths:
        for _, hh in read_site(sample(path).read_bytes(), path):
            if isinstance(hh, SiteError):
                continue
            read += 1
            doc = replay(hh).to_dict()
            if doc.get("error"):
                errors.setdefault(key(path), []).append(str(doc["error"]))
            validated += bool(doc.get("validated"))
    return errors, validated, read


def refused_by_rules(paths: list[str]) -> dict[str, list[str]]:
    """The hands of ``paths`` whose betting the rules engine refuses (they stand on their
    chip accounting, not validated), by file (short path: the reasons)."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    out: dict[str, list[str]] = {}
    for path in paths:
        for _, hh in read_site(sample(path).read_bytes(), path):
            if isinstance(hh, SiteError):
                continue
            why = replay(hh).to_dict()["not_validated"] or ""
            if "rules engine refuses" in why:
                out.setdefault(key(path), []).append(why)
    return out


# ----------------------------------------------------------------------------- damaged text
def mutated_texts(text: str, seed: int, count: int) -> Iterator[str]:
    """``count`` damaged copies of a document: cut short, a line dropped, doubled or cut,
    a character changed (for readers that must never raise, only name a hand's fault)."""
    rng = random.Random(seed)
    for _ in range(count):
        lines = text.split("\n")
        i = rng.randrange(len(lines))
        op = rng.randrange(5)
        if op == 0:
            lines = lines[:i]
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif op == 3:
            lines[i] = lines[i][:rng.randrange(len(lines[i]) + 1)]
        elif lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice("$()[]: x9*#-") + lines[i][j + 1:]
        yield "\n".join(lines)
