"""The PokerStars plain-hand lane (:mod:`simulate.notation.site_pokerstars_plain`) gives what
the full road gives (the reader, then :func:`simulate.notation.site_build.build`): the same
fields and site facts for every hand it takes, the same documents from ``pokerjit hand``'s
path, and it leaves to the full road every hand on which that road would choose, mend or
refuse."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from simulate.notation.phh_read import HandHistory
from simulate.notation.site_pokerstars_plain import plain_hand
from simulate.notation.site_text import PlainSiteHand, SiteError, decode, split_hands
from simulate.notation.sites import SitePart, detect_site, read_again, read_site, read_site_part
from simulate.replay.fast_replay import _site_quick, replay_item
from simulate.replay.hand_files import analyze

SITES = Path(__file__).parent / "data" / "sites"
#: ``play`` set-ups written as PokerStars text: heads-up with antes, full-ring fixed limit,
#: uneven stacks at pot limit, big-blind antes, all-ins (side pots, uncalled bets).
PLAYS = (["--players", "6"], ["--players", "2", "--ante", "1"],
         ["--players", "9", "--betting", "fixed-limit"],
         ["--players", "3", "--stacks", "50,400,1000", "--betting", "pot-limit"],
         ["--players", "6", "--ante", "1", "--bb-ante"],
         ["--players", "4", "--policy", "allin,random,call,random"])
_MONEY = re.compile(r"[$€£](\d{1,3}(?:,\d{3})*|\d+)(?:\.(\d{1,2}))?")


def _cents(m: re.Match[str]) -> str:
    return str(int(m[1].replace(",", "")) * 100 + int((m[2] or "0").ljust(2, "0")))


def _stars_samples() -> list[str]:
    """The PokerStars-format samples, as they are and with every amount in cents (whole
    chips: the real files' lines, in the lane's reach)."""
    out = []
    for p in sorted(SITES.rglob("*")):
        if p.is_file():
            text = decode(p.read_bytes())
            fmt = detect_site(text)
            if fmt is not None and fmt.name == "pokerstars":
                out += [text, _MONEY.sub(_cents, text)]
    return out


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    from simulate.cli import main

    tmp = tmp_path_factory.mktemp("plain")
    texts = []
    for i, args in enumerate(PLAYS):
        phh, txt = tmp / f"p{i}.phhs", tmp / f"p{i}.txt"
        assert main(["play", *args, "--policy", "random", "--hands", "60", "--seed", str(i),
                     "--phh", str(phh), "--phh-hands", "60", "-q"]
                    if "--policy" not in args else
                    ["play", *args, "--hands", "60", "--seed", str(i), "--phh", str(phh),
                     "--phh-hands", "60", "-q"]) in (0, None)
        assert main(["convert", str(phh), "--to", "pokerstars", "-o", str(txt), "-q"]) in (0, None)
        texts.append(txt.read_text())
    return texts


def _full(chunk: str, line: int) -> HandHistory | SiteError | None:
    got = list(read_site_part(SitePart("x", "pokerstars", line, chunk)))
    return got[0][1] if got else None


def _compare(texts: list[str]) -> tuple[int, int]:
    """Every hand of ``texts``: the lane's fields and site facts equal the full road's where
    the lane takes it; ``(hands, taken)``."""
    hands = taken = 0
    for text in texts:
        fmt = detect_site(text)
        assert fmt is not None
        for line, chunk in split_hands(text, fmt.start):
            hands += 1
            taken += _taken_alike(chunk, line)
    return hands, taken


def _taken_alike(chunk: str, line: int) -> bool:
    """Whether the lane takes the hand ``chunk`` (its first line ``line``); where it does,
    the full road reads the hand too, to the same fields and site facts."""
    got = plain_hand(chunk, line)
    if got is None:
        return False
    full = _full(chunk, line)
    assert isinstance(full, HandHistory), (chunk, full)
    assert got.fields == _site_quick(full), chunk
    assert got.site == full.site, chunk
    return True


def test_the_lane_gives_the_full_roads_fields_on_real_samples() -> None:
    hands, taken = _compare(_stars_samples())
    assert hands >= 350
    assert taken >= 60  # (most real samples are cash games in cents: the full road's)


def test_the_lane_gives_the_full_roads_fields_on_played_hands(played: list[str]) -> None:
    hands, taken = _compare(played)
    assert hands == 60 * len(PLAYS)
    assert taken == hands  # every played hand is one the lane takes


def _full_docs(path: Path) -> list[dict]:
    items = [(f"{path}:{line}", line, str(got) if isinstance(got, SiteError) else got)
             for line, got in read_site(path.read_bytes(), str(path))]
    return [replay_item(*it) for it in items]


def test_hand_gives_the_same_documents_by_either_road(played: list[str],
                                                      tmp_path: Path) -> None:
    texts = played + [t for t in _stars_samples() if "PokerStars" in t[:300]][:40]
    for i, text in enumerate(texts):
        path = tmp_path / f"h{i}.txt"
        path.write_text(text)
        lane = [json.dumps(d) for d in analyze([path])]
        assert lane == [json.dumps(d) for d in _full_docs(path)], path


def test_the_lane_items_are_plain_hands(played: list[str]) -> None:
    got = [h for _, h in read_site(played[0], "x", plain=True)]
    assert got and all(isinstance(h, PlainSiteHand) for h in got)
    assert all(isinstance(h, HandHistory) for _, h in read_site(played[0], "x"))
    full = read_again(got[0])  # the full road, on the lane's own hand
    assert isinstance(full, HandHistory) and full.site == got[0].site


def _hand(played: list[str], k: int = 0) -> tuple[int, str]:
    text = played[0]
    fmt = detect_site(text)
    assert fmt is not None
    return list(split_hands(text, fmt.start))[k]


def _edit(chunk: str, old: str, new: str, count: int = 1) -> str:
    assert old in chunk, old
    return chunk.replace(old, new, count)


def _more_pot(chunk: str, k: int) -> str:
    """``chunk`` with ``k`` more chips in its first collection and its total pot."""
    chunk = re.sub(r"collected (\d+) from pot", lambda m: f"collected {int(m[1]) + k} from pot",
                   chunk, count=1)
    return re.sub(r"Total pot (\d+)", lambda m: f"Total pot {int(m[1]) + k}", chunk, count=1)


@pytest.mark.parametrize("what", [
    "a dead small blind", "an omaha hand", "a fraction", "a straddle", "a bounty",
    "chips that do not add up", "an uncalled bet larger than the bet",
    "an uncalled bet left out", "a cash-out", "a run twice", "a summary that shows more",
    "a summary card that is not a card", "a summary amount that is not an amount",
    "a cancelled hand", "a seated name that is not a seat's",
])
def test_the_lane_leaves_the_full_road_its_choices(played: list[str], what: str,
                                                   tmp_path: Path) -> None:
    fmt = detect_site(played[0])
    assert fmt is not None
    line, chunk = next(split_hands(played[0], fmt.start))
    if "uncalled" in what:  # a hand that returns a bet
        line, chunk = next((n, c) for text in played for n, c in split_hands(text, fmt.start)
                           if "Uncalled bet (" in c)
    sb = next(s for s in chunk.split("\n") if ": posts small blind " in s)
    who = sb.split(": ")[0]
    if what == "a dead small blind":  # (the pot and its winner's share grow by it)
        chunk = _more_pot(_edit(chunk, sb, sb + "\n" + sb.replace(who, "seat 3")),
                          int(sb.split()[-1]))
    elif what == "an omaha hand":
        chunk = _edit(chunk, "Hold'em", "Omaha")
    elif what == "a fraction":
        chunk = _edit(chunk, " in chips)", ".5 in chips)")
    elif what == "a straddle":
        chunk = _more_pot(_edit(chunk, sb, sb + "\nseat 3: posts straddle 4"), 4)
    elif what == "a bounty":
        chunk = _edit(chunk, " in chips)", " in chips, $5 bounty)")
    elif what == "chips that do not add up":
        chunk = re.sub(r"collected (\d+) from pot", lambda m: f"collected {int(m[1]) + 1} "
                       "from pot", chunk, count=1)
    elif what == "an uncalled bet larger than the bet":  # and the collection one smaller
        chunk = re.sub(r"Uncalled bet \((\d+)\)", lambda m: f"Uncalled bet ({int(m[1]) + 1})",
                       chunk)
        chunk = re.sub(r"collected (\d+) from pot", lambda m: f"collected {int(m[1]) - 1} "
                       "from pot", chunk, count=1)
    elif what == "an uncalled bet left out":  # and collected with the pot, as some sites do
        m = re.search(r"\nUncalled bet \((\d+)\) returned to [^\n]*", chunk)
        assert m is not None
        chunk = chunk.replace(m[0], "")
        chunk = re.sub(r"collected (\d+) from pot", lambda c: f"collected {int(c[1]) + int(m[1])}"
                       " from pot", chunk, count=1)
    elif what == "a cash-out":
        chunk = _edit(chunk, "*** SUMMARY ***", f"{who} cashed out the hand for 3\n"
                      "*** SUMMARY ***")
    elif what == "a run twice":
        chunk = _edit(chunk, "*** FLOP ***", "*** FIRST FLOP ***")
    elif what == "a summary card that is not a card":
        chunk = re.sub(r"(Seat \d: [^\n]*showed \[)\w\w", r"\g<1>15h", chunk, count=1)
        assert "15h" in chunk
    elif what == "a summary amount that is not an amount":
        chunk = _edit(chunk, " won (", " won (x")
    elif what == "a cancelled hand":
        chunk = _edit(chunk, "Total pot", "Hand cancelled\nTotal pot")
    elif what == "a summary that shows more":
        chunk = re.sub(r"\nseat \d: shows [^\n]*", "", chunk, count=1)
    elif what == "a seated name that is not a seat's":
        chunk = _edit(chunk, "Dealt to seat 1 ", "Dealt to seat 11 ")
    assert plain_hand(chunk, line) is None
    # and the file reads as the full road reads it (an error, a repair, or a hand)
    path = tmp_path / "one.txt"
    path.write_text(chunk)
    assert [json.dumps(d) for d in analyze([path])] == [json.dumps(d)
                                                        for d in _full_docs(path)]


def test_lines_that_move_nothing_are_passed_over(played: list[str]) -> None:
    line, chunk = _hand(played, 3)
    noisy = chunk.replace("*** HOLE CARDS ***", "*** HOLE CARDS ***\nseat 1: is sitting out\n"
                          "lurker joins the table at seat #9\nseat 2 said, \"nh\"")
    got, plain = plain_hand(noisy, line), plain_hand(chunk, line)
    assert got is not None and plain is not None
    assert got.fields == plain.fields and got.site == plain.site
    full = _full(noisy, line)
    assert isinstance(full, HandHistory) and _site_quick(full) == got.fields


def _mutate(chunk: str, rng: Any) -> str:
    """``chunk`` with one to three random edits of the kinds a damaged or unusual export
    has: a line dropped, doubled or moved, a number changed, a name changed on one line,
    an all-in mark, a chat or table line, blanks around a line."""
    lines = chunk.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(1, len(lines))
        kind = rng.randrange(10)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif kind == 2 and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif kind == 3:
            nums = list(re.finditer(r"\d+", lines[i]))
            if nums:
                m = rng.choice(nums)
                x = max(0, int(m[0]) + rng.choice([-1, 1, 10]))
                lines[i] = lines[i][:m.start()] + str(x) + lines[i][m.end():]
        elif kind == 4:
            lines[i] = lines[i].replace("seat ", "seat 1", 1)
        elif kind == 5:
            lines[i] += " and is all-in"
        elif kind == 7:
            lines.insert(i, f"Uncalled bet ({rng.choice([1, 2, 40])}) returned to seat "
                            f"{rng.randrange(6)}")
        elif kind == 8 and " won (" in lines[i]:
            lines[i] = lines[i].replace(" won (", " won (x", 1)
        elif kind == 8 and "[" in lines[i]:
            lines[i] = re.sub(r"\[(\w\w)", lambda m: "[" + rng.choice(["1Xh", "15h", "Ah", "??",
                                                                     "As", m[1]]),
                              lines[i], count=1)
        elif kind == 6:
            lines.insert(i, rng.choice(["seat 2 said, \"gl\"", "seat 3: sits out",
                                        "seat 4 is disconnected", "Seat 9: ghost (5 in chips)",
                                        "Betting is capped", "Hand cancelled"]))
        else:
            lines[i] = "  " + lines[i] + " "
    return "\n".join(lines)


def test_random_edits_never_make_the_roads_differ(played: list[str]) -> None:
    """Whatever a hand's text turns into, the lane takes it only as the full road reads it
    (the same fields and facts), or leaves it to the full road."""
    import random

    rng = random.Random(11)
    fmt = detect_site(played[0])
    assert fmt is not None
    chunks = [c for text in played for c in split_hands(text, fmt.start)]
    taken = 0
    for _ in range(600):
        line, chunk = rng.choice(chunks)
        taken += _taken_alike(_mutate(chunk, rng), line)
    assert taken > 50  # (some edits leave a hand the lane still takes)
