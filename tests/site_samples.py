"""The site samples of tests/data/sites for the site-reader tests: each file of a family
(by index.json's content label), its records, and the checks every family's test makes
(detection, hand counts, the chip check, the replay, round trips through PHH and OHH, damaged
text). The sources' expected values are compared in tests/site_expected.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cache
from pathlib import Path

import pytest
from helpers import examples

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
    """The file's one record, a hand."""
    (h,) = recs_of(path)
    assert isinstance(h, SiteHand) and not h.summary_only, (key(path), h)
    return h


def recs_of(path: str) -> list[SiteHand | SiteError]:
    """The file's records without their lines."""
    return [r for _, r in records(path)]


def spelled(path: str, n: int = 0, pot: bool = False) -> list[tuple]:
    """The file's ``n``-th record, a hand, as its events ``(kind, player, amount as text or
    None, the cards joined by spaces)``, and each one's pot where ``pot``."""
    hand = records(path)[n][1]
    assert isinstance(hand, SiteHand), (key(path), hand)
    return [(e.kind, e.player, None if e.amount is None else str(e.amount), " ".join(e.cards))
            + ((e.pot,) if pot else ()) for e in hand.events]


def rows(hand: SiteHand) -> list[tuple]:
    """A hand's events in full: ``(kind, player, amount, the cards joined by spaces, pot,
    run, allin)``."""
    return [(e.kind, e.player, e.amount, " ".join(e.cards), e.pot, e.run, e.allin)
            for e in hand.events]


def moves(hand: SiteHand, leave_out: tuple[str, ...] = ("hole", "board")) -> list[tuple]:
    """A hand's events but those of the kinds ``leave_out``, as ``(kind, player, amount)``."""
    return [(e.kind, e.player, e.amount) for e in hand.events if e.kind not in leave_out]


def read_hand(read: Callable[[str, str], Iterable[tuple[int, SiteHand | SiteError]]],
              text: str) -> SiteHand:
    """The one record a reader's ``read`` makes of ``text``, a hand."""
    (rec,) = [r for _, r in read(text, "t")]
    assert isinstance(rec, SiteHand), rec
    return rec


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


#: A hand of the samples: ``(key(path), its first line)``.
Where = tuple[str, int]


@dataclass
class Replayed:
    """Every hand of some samples through :func:`read_site` and the replay, each by
    :data:`Where`: the errors, the hands not validated (the reason) and among them those
    whose betting the rules refuse; how many were validated, and how many hands there
    were."""

    errors: dict[Where, str] = field(default_factory=dict)
    unvalidated: dict[Where, str] = field(default_factory=dict)
    refused: dict[Where, str] = field(default_factory=dict)
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
            elif not doc["validated"]:
                out.unvalidated[(key(path), line)] = doc["not_validated"]
            if "rules engine refuses" in (doc["not_validated"] or ""):
                out.refused[(key(path), line)] = doc["not_validated"]
    return out


def says(message: str, fragment: str) -> bool:
    """Whether an error ``message`` says ``fragment``: a fragment naming a line
    (``"line 19: ..."``) must start the message, any other be in it."""
    if fragment.startswith("line "):
        return message.startswith(fragment)
    return fragment in message


@cache
def head_of(path: str) -> str:
    """The start of a sample that the detectors see."""
    return text_of(path)[:DETECT_CHARS].lstrip("\ufeff \n\t")


def both(n: int) -> dict[str, tuple[int, tuple[str, ...]]]:
    """:attr:`Family.round_trip` for a family whose ``n`` hands all read back the same from
    PHH and from OHH."""
    return {"phh": (n, ()), "ohh": (n, ())}


@dataclass(frozen=True)
class Family:
    """One site reader's samples and the facts its test asserts about them, checked by
    tests/test_site_families.py (the family's own test module checks hands by hand).

    ``files``: index.json label -> how many sample files (``detect_only``: labels whose files
    are only detected, not read as hands); ``hands``: the records of the read files;
    ``faults``: the hands that read as a :class:`SiteError`, a piece of it (see :func:`says`);
    ``disagree``: hands read whose chip check fails, a piece of the error; ``replay_errors``:
    the replay's errors beyond those; ``refused``: hands whose betting the rules refuse;
    ``unvalidated``: where given, every hand replayed without error but not validated;
    ``validated``: how many are (``at_least``: at least); ``round_trip``: per format, how
    many hands are written and read back, and the starts of those that differ; ``cut``: a
    sample cut at every line and garbled (the reader must name each hand's fault, never
    raise); ``mutate``: every sample damaged 40 times over (:func:`mutated_texts`);
    ``skins``: a label's ``info.site`` (or those it may be) where it is not ``name``;
    ``also_detects``: keys of files of other labels the detector takes too; ``rake_known``:
    every hand has a rake (printed or derived), never negative, none in a tournament, whose
    chips are no currency; ``posted_stakes``: the rake is never negative, nor without a flop,
    and the header's stakes are the blinds posted (but in ``edited_stakes``, keys of files
    the source edited). The sources' values: ``sources_dir``, the folder of source A's
    samples whose values are compared by :func:`site_expected.check_expected` (but the
    ``not_compared`` facts, and a file's ``contradicted`` one: each with the reason);
    ``asserted``: every sample's through :func:`site_expected.check_site_expected`."""

    name: str
    files: dict[str, int]
    hands: int
    faults: dict[Where, str] = field(default_factory=dict)
    disagree: dict[Where, str] = field(default_factory=dict)
    replay_errors: dict[Where, str] = field(default_factory=dict)
    refused: dict[Where, str] = field(default_factory=dict)
    unvalidated: dict[Where, str] | None = None
    validated: int = 0
    at_least: bool = False
    round_trip: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    cut: str | None = None
    mutate: bool = False
    skins: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    also_detects: tuple[str, ...] = ()
    detect_only: tuple[str, ...] = ()
    sources_dir: str | None = None
    not_compared: dict[str, str] = field(default_factory=dict)
    contradicted: dict[str, str] = field(default_factory=dict)
    asserted: bool = False
    rake_known: bool = False
    posted_stakes: bool = False
    edited_stakes: frozenset[str] = frozenset()

    def __str__(self) -> str:
        return self.name

    @property
    def paths(self) -> list[str]:
        """The family's sample files read as hands."""
        return files_of(*(label for label in self.files if label not in self.detect_only))

    def check_counts(self) -> None:
        got = {label: len(files_of(label)) for label in self.files}
        assert got == self.files
        assert sum(index()[p]["hands"] for p in self.paths) == self.hands

    def check_file(self, path: str) -> None:
        """Every record of the sample: its count, the faults, the chip check."""
        recs = records(path)
        assert len(recs) == index()[path]["hands"], key(path)
        want = {line: part for (k, line), part in self.faults.items() if k == key(path)}
        got = [(line, str(r)) for line, r in recs if isinstance(r, SiteError)]
        assert [line for line, _ in got] == sorted(want), (key(path), got)
        for line, msg in got:
            assert says(msg, want[line]), (key(path), msg)
        site = self.skins.get(index()[path]["site"], self.name)
        sites = (site,) if isinstance(site, str) else site
        for line, h in recs:
            if isinstance(h, SiteError) or h.summary_only:
                continue
            assert h.info.site in sites, key(path)
            part = self.disagree.get((key(path), line))
            if part is None:
                h.check_chips()
            else:
                with pytest.raises(SiteError) as err:
                    h.check_chips()
                assert says(str(err.value), part), (key(path), err.value)
            if self.rake_known:
                assert h.rake is not None and h.rake >= 0, key(path)
                if h.info.tournament is not None:
                    assert h.rake == 0 and h.info.currency == "chips", key(path)
            if self.posted_stakes:
                check_posted_stakes(h, key(path) in self.edited_stakes)

    def check_replay(self) -> None:
        r = replay_all(self.paths)
        assert r.total == self.hands - sum(
            1 for p in self.paths for _, h in records(p)
            if isinstance(h, SiteHand) and h.summary_only)
        want = {**self.faults, **self.disagree, **self.replay_errors}
        assert set(r.errors) == set(want), r.errors
        for w, part in want.items():
            assert says(r.errors[w], part), (w, r.errors[w])
        assert set(r.refused) == set(self.refused), r.refused
        for w, part in self.refused.items():
            assert part in r.refused[w], (w, r.refused[w])
        if self.unvalidated is not None:
            assert set(r.unvalidated) == set(self.unvalidated), r.unvalidated
            for w, part in self.unvalidated.items():
                assert part in r.unvalidated[w], (w, r.unvalidated[w])
        if self.at_least:
            assert r.validated >= self.validated
        else:
            assert r.validated == self.validated

    def check_round_trip(self, fmt: str) -> None:
        n, starts = self.round_trip[fmt]
        done, bad = round_trip_mismatches(self.paths, fmt)
        assert done == n and len(bad) == len(starts), (done, bad)
        assert all(b.startswith(s) for b, s in zip(sorted(bad), sorted(starts), strict=True))

    def damaged_texts(self) -> Iterator[str]:
        if self.cut is not None:
            yield from cut_and_garbled(text_of(self.cut))
        if self.mutate:
            for i, path in enumerate(self.paths):
                yield from mutated_texts(text_of(path), i, examples(40))  # ci: all 40


def check_posted_stakes(h: SiteHand, edited: bool) -> None:
    """The rake is never negative, nor taken without a flop, and (unless the stakes were
    ``edited``) the stakes read from the header are the blinds the hand posts."""
    assert h.rake is None or h.rake >= 0
    if not any(e.kind == "board" for e in h.events) and h.rake is not None:
        assert h.rake == 0, "rake without a flop"   # no flop, no drop
    for kind, want in (("small_blind", h.stakes.small_blind),
                       ("big_blind", h.stakes.big_blind)):
        posted = [e for e in h.events if e.kind == kind and not e.allin]
        if want is not None and posted and not edited:
            assert posted[0].amount == want, (kind, want)


def built_boards(path: str) -> list[str]:
    """The boards of a file's one hand as the builder gives them (one text per run)."""
    from simulate.notation.sites import read_site

    (hh,) = [h for _, h in read_site(sample(path).read_bytes(), path)]
    assert not isinstance(hh, SiteError) and hh.site is not None
    return list(hh.site.boards)


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


def cut_and_garbled(text: str) -> Iterator[str]:
    """``text`` cut after each of its lines, and with each line but the first cut in half
    and ended with ``[$(``."""
    lines = text.split("\n")
    for k in range(1, len(lines)):
        yield "\n".join(lines[:k])
    for k in range(1, len(lines)):
        yield "\n".join(lines[:k] + [lines[k][: len(lines[k]) // 2] + "[$("] + lines[k + 1:])
