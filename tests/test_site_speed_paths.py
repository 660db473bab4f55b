"""The two fast paths of site hands give what the plain paths give: the compiled replay
(:func:`simulate.replay.fast_replay.replay_items`) the per-hand replay's documents, and a
document cut into parts (:func:`simulate.notation.sites.site_parts`) the whole document's
hands, line numbers and errors included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulate.notation.phh_read import HandHistory
from simulate.notation.site_text import SiteError
from simulate.notation.sites import read_site, read_site_part, site_parts
from simulate.replay import fast_replay
from simulate.replay.hand_files import analyze

SITES = Path(__file__).parent / "data" / "sites"
SAMPLES = "PokerHandHistoryParser/HandHistories.Parser.UnitTests/SampleHandHistories"


def _stars_text(tmp: Path, hands: int) -> str:
    """``hands`` hands of ``play`` written as PokerStars text by ``convert``."""
    from simulate.cli import main

    phh, txt = tmp / "p.phhs", tmp / "p.txt"
    assert main(["play", "--players", "6", "--hands", str(hands), "--seed", "3", "--phh",
                 str(phh), "--phh-hands", str(hands), "-q"]) in (0, None)
    assert main(["convert", str(phh), "--to", "pokerstars", "-o", str(txt), "-q"]) in (0, None)
    return txt.read_text()


@pytest.fixture(scope="module")
def stars(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _stars_text(tmp_path_factory.mktemp("stars"), 40)


def _items(text: str) -> list[fast_replay.Item]:
    return [(f"x:{line}", line, str(got) if isinstance(got, SiteError) else got)
            for line, got in read_site(text, "x")]


def test_compiled_replay_gives_the_per_hand_documents(stars: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [stars] + [p.read_bytes().decode("utf-8", "replace")
                       for p in sorted((SITES / SAMPLES / "PokerStars").rglob("*"))
                       if p.is_file()]
    fast = 0
    orig = fast_replay.replay_item
    fallback: list[int] = []

    def counted(*it: object) -> dict:
        fallback.append(1)
        return orig(*it)  # type: ignore[arg-type]

    for text in texts:
        items = _items(text)
        slow = [orig(*it) for it in items]
        fallback.clear()
        monkeypatch.setattr(fast_replay, "replay_item", counted)
        monkeypatch.setattr(fast_replay, "FAST_MIN", 0)  # compiled even on a cold cache
        got = fast_replay.replay_items(items)
        monkeypatch.undo()
        fast += len(items) - len(fallback)
        # equal, key order included
        assert [json.dumps(d) for d in got] == [json.dumps(d) for d in slow]
    assert fast >= 40  # the played hands all take the compiled path


def test_parts_read_as_the_whole(stars: str) -> None:
    lines = stars.split("\n")
    # two hands made wrong: their errors name the same lines either way
    at = [i for i, s in enumerate(lines) if " collected " in s]
    lines[at[5]] = lines[at[5]].replace(" collected ", " collected 1")
    lines[at[30]] = lines[at[30]].replace(" collected ", " collected 1")
    text = "\n".join(lines)
    whole = [(line, str(h) if isinstance(h, SiteError) else h.fields)
             for line, h in read_site(text, "x")]
    parts = site_parts(text.encode(), "x", 7)
    assert parts is not None and len(parts) == 6
    cut = [(line, str(h) if isinstance(h, SiteError) else h.fields)
           for p in parts for line, h in read_site_part(p)]
    assert cut == whole
    errors = [w for w in whole if isinstance(w[1], str)]
    assert len(errors) == 2 and all(e[1].startswith(f"line {e[0]}:") for e in errors)
    assert all(isinstance(h, (HandHistory, SiteError)) for p in parts
               for _, h in read_site_part(p))


@pytest.mark.slow  # worker processes (about 2 s); a PHH file's ranges: quick in test_db_import
def test_workers_read_parts_of_a_large_site_file(stars: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from simulate.replay import hand_files

    f = tmp_path / "big.txt"
    f.write_text(stars)
    monkeypatch.setattr(hand_files, "RANGE_MIN_BYTES", 1000)
    one = list(analyze([f], workers=1))
    tasks = list(hand_files._tasks([f], 9))
    assert len(tasks) == 5 and all(type(t).__name__ == "SitePart" for t in tasks)
    two = list(analyze([f], workers=2, chunk=9))
    assert [json.dumps(d) for d in two] == [json.dumps(d) for d in one]
