"""``pokerjit convert`` and the writers behind it: every hand written reads back as the same
hand (players, stacks, forced bets, actions, boards, winnings), here for Open Hand History
written from every PHH hand of tests/data/phh that can be settled; a hand whose own sums
disagree, or whose showdown cards are missing, is left out with its error."""

from __future__ import annotations

import json
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from site_samples import shape

import simulate.notation as N
from simulate.replay.hand_files import read_hands

DATA = Path(__file__).parent / "data"


def _run(*args: str) -> subprocess.CompletedProcess:
    """``pokerjit ARGS`` run in this process (the command's ``main``), its exit status and
    output as a finished subprocess would give them (a process start per call made this
    file's tests several seconds slower)."""
    import contextlib
    import io

    from simulate.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(list(args))
        except SystemExit as e:  # argparse's refusals
            rc = e.code if isinstance(e.code, int) else 2
    return subprocess.CompletedProcess(list(args), rc, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def phh_to_ohh(tmp_path_factory):
    out = tmp_path_factory.mktemp("conv") / "all.ohh"
    r = _run("convert", str(DATA / "phh"), "--to", "ohh", "-o", str(out))
    return r, out


def test_every_phh_hand_reads_back_from_ohh(phh_to_ohh):
    from simulate.cli.convert import _Writer

    r, out = phh_to_ohh
    assert r.returncode == 1  # some hands cannot be settled (below)
    writer = _Writer("ohh")
    kept = []
    for src, h in read_hands([DATA / "phh"]):
        if isinstance(h, Exception):
            continue
        try:
            writer.text(h)
        except ValueError:
            continue
        kept.append((src, h))
    back = [h for _, h in read_hands([out])]
    assert len(back) == len(kept) > 150
    for (src, h), b in zip(kept, back, strict=True):
        assert shape(b) == shape(h), src
    # each object is one line of JSON with the spec's top key
    lines = out.read_text().splitlines()
    assert all(json.loads(x)["ohh"]["spec_version"] for x in lines)


def test_hands_left_out_say_why(phh_to_ohh):
    r, _ = phh_to_ohh
    errs = [x for x in r.stderr.splitlines() if x.startswith("error:")]
    assert errs and all(("who won is unknown" in x or "do not add up" in x
                         or "not supported at a contested showdown" in x) for x in errs)
    assert "hands written to" in r.stderr and "left out" in r.stderr


def test_phh_collection_round_trip(tmp_path):
    src = DATA / "phh" / "derived" / "highstakes_1000nl_sidepot_hands.phhs"
    out = tmp_path / "x.phhs"
    r = _run("convert", str(src), "--to", "phh", "-o", str(out), "-q")
    assert r.returncode == 0, r.stderr
    a = [h for _, h in read_hands([src])]
    b = [h for _, h in read_hands([out])]
    assert [shape(x) for x in a] == [shape(x) for x in b]


def test_ohh_numbers_of_one_hand_by_hand():
    """A hand checked field by field: a raise's amount is what it puts in (cy's raise to
    1.50 over bob's bet of 0.50 is written 1.5: nothing in before; bob's call adds 1), the
    uncalled bet is not written and is worked out again on reading."""
    from test_site_build import three_handed

    from simulate.notation.site_build import build
    from simulate.notation.site_ohh import read
    from simulate.notation.site_write import ohh_dict

    h = three_handed()
    o = ohh_dict(h)["ohh"]
    assert o["game_number"] == "42" and o["dealer_seat"] == 5 and o["currency"] == "USD"
    pre, flop, turn = o["rounds"]
    assert [(a["player_id"], a["action"], a.get("amount")) for a in pre["actions"]
            if a["action"] != "Dealt Cards"] == [
        (0, "Post SB", 0.05), (1, "Post BB", 0.1), (2, "Raise", 0.3), (0, "Fold", None),
        (1, "Call", 0.2)]
    assert flop["cards"] == ["2c", "7d", "Jh"]
    assert [(a["action"], a.get("amount")) for a in flop["actions"]] == [
        ("Bet", 0.5), ("Raise", 1.5), ("Call", 1)]
    assert [(a["action"], a.get("amount")) for a in turn["actions"]] == [
        ("Bet", 2), ("Fold", None)]
    assert o["pots"] == [{"number": 0, "amount": 3.65, "rake": 0.13,
                          "player_wins": [{"player_id": 1, "win_amount": 3.52}]}]
    [(_, back)] = list(read(json.dumps({"ohh": o}), "x"))
    uncalled = [(e.player, e.amount) for e in back.events if e.kind == "uncalled"]
    assert uncalled == [("bob", Decimal(2))]
    assert shape(build(back, "x")) == shape(build(three_handed(), "x"))


def test_convert_refuses_bad_options(tmp_path):
    r = _run("convert", str(tmp_path / "nope"), "--to", "ohh")
    assert r.returncode == 2 and r.stderr.startswith("error:") and "Traceback" not in r.stderr
    r = _run("convert", str(DATA / "phh"), "--to", "xml")
    assert r.returncode == 2


def test_write_door_names_the_formats():
    with pytest.raises(ValueError, match="known: phh, ohh"):
        N.write([], "xml")


def test_hands_without_a_number_are_written_with_distinct_stable_ones(tmp_path):
    """PHH hands with no ``hand`` field (``play --phh`` writes none) get a number of 18
    digits from a digest of the hand (the same hand, the same number), in PokerStars text
    and OHH alike: trackers, and ``pokerjit import``, keep one hand per number, so every
    hand written ``#0`` (as before) came back as one hand. A hand's own number is kept."""
    import re

    from simulate.notation.hand_facts import hand_number
    from simulate.notation.phh_read import parse_text
    from simulate.notation.phh_synth import synthetic_hands

    duckdb = pytest.importorskip("duckdb")  # the db extra (in dev)
    from simulate.store.importer import import_hands

    texts = [re.sub(r"(?m)^hand = .*\n", "", t) for t in synthetic_hands(6, seed=3)]
    texts[0] += "hand = 17\n"
    src = tmp_path / "x.phhs"
    src.write_text("".join(f"[{i}]\n{t}\n" for i, t in enumerate(texts, 1)))
    want = [hand_number(h.fields) for _, h in parse_text(src.read_text(), str(src))]
    stars, ohh = tmp_path / "x.txt", tmp_path / "x.ohh"
    for fmt, out in (("pokerstars", stars), ("ohh", ohh)):
        r = _run("convert", str(src), "--to", fmt, "-o", str(out), "-q")
        assert r.returncode == 0, r.stderr
    ids = re.findall(r"(?m)^PokerStars Hand #(\d+):", stars.read_text())
    assert ids == want and ids[0] == "17" and len(set(ids)) == 6
    assert all(len(x) <= 18 for x in ids)
    assert [json.loads(x)["ohh"]["game_number"] for x in ohh.read_text().splitlines()
            if x.strip()] == ids
    db = tmp_path / "h.duckdb"
    assert import_hands([stars], db).hands_added == 6
    with duckdb.connect(str(db), read_only=True) as con:
        assert sorted(x for (x,) in con.execute("SELECT hand_id FROM hands").fetchall()) \
            == sorted(ids)


def test_a_site_hands_time_is_written_as_phh_time_fields(tmp_path):
    """Site text to PHH writes the hand's time as PHH's own fields (``year``, ``month``,
    ``day``, ``time`` a TOML local time, in UTC with ``time_zone = 'UTC'``), which pokerkit
    reads as such (every field known to it), not as one text field; PHH to PokerStars text or OHH
    carries the time again (the same instant)."""
    import datetime as dt

    from pokerkit import HandHistory as PokerkitHand

    from simulate.notation.hand_facts import hand_time, time_fields

    site = DATA / "sites/hhp/test/fixtures/holdem/pokerstars/actiononall.txt"
    phh, back = tmp_path / "a.phhs", tmp_path / "a.ohh"
    assert _run("convert", str(site), "--to", "phh", "-o", str(phh), "-q").returncode == 0
    text = phh.read_text()
    assert "\ntime = 06:29:41\n" in text and "\ntime_zone = \"UTC\"\n" in text
    one = text.split("\n", 1)[1].replace("rake = 0\n", "")  # one hand, pokerkit's fields
    ph = PokerkitHand.loads(one)
    assert (ph.year, ph.month, ph.day, ph.time) == (2016, 3, 1, dt.time(6, 29, 41))
    assert _run("convert", str(phh), "--to", "ohh", "-o", str(back), "-q").returncode == 0
    got = json.loads(back.read_text().splitlines()[0])["ohh"]["start_date_utc"]
    assert dt.datetime.fromisoformat(got) == dt.datetime.fromisoformat(
        "2016-03-01T01:29:41-05:00")  # the site's 01:29:41 ET
    for iso in ("2016-03-01T01:29:41-05:00", "2020-12-31T23:59:59", "2021-06-01T00:00:00Z"):
        want = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
        assert dt.datetime.fromisoformat(hand_time(time_fields(iso))) == want
    assert time_fields("not a time") == {} and hand_time({"year": 2009}) is None
    # a file pokerjit wrote before, with the whole time as one text field, still reads
    assert hand_time({"time": "2016-03-01T01:29:41-05:00"}) == "2016-03-01T01:29:41-05:00"
    # the PHH dataset's spelling of the zone reads too
    assert hand_time({"year": 2016, "month": 3, "day": 1, "time": dt.time(6, 29, 41),
                      "time_zone_abbreviation": "UTC"}) == "2016-03-01T06:29:41+00:00"


@pytest.mark.slow
def test_pokerkit_replays_every_site_hand_written_as_phh_to_our_stacks():
    """Every sample hand of every site family, written as PHH, that pokerkit plays ends in
    pokerkit with our finishing stacks but for the rake, which pokerkit leaves on the table
    (so each seat has at least ours and the differences add up to the rake): an outsider's
    check of every reader, the builder and the PHH writer at once. pokerkit does not load
    Omaha hi/lo (PO/8), the five-card Omahas, posts and straddles ours writes as negative
    blinds, and a few blind structures; those are counted, not compared."""
    pokerkit = pytest.importorskip("pokerkit")
    import warnings

    from simulate.notation.phh_write import hand_to_phh

    compared = not_loaded = 0
    for src, h in read_hands([DATA / "sites"]):
        if isinstance(h, Exception):
            continue
        ours = our_finishing_stacks(h)
        if ours is None:
            continue
        text = "".join(x for x in hand_to_phh(h).splitlines(keepends=True)
                       if not x.startswith("rake ="))  # pokerkit's rake is a function
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # pokerkit warns of fields it does not know
                *_, state = pokerkit.HandHistory.loads(text)
        except (KeyError, ValueError, TypeError):
            not_loaded += 1
            continue
        theirs = [Decimal(str(x)) for x in state.stacks]
        rake = h.rake or Decimal(0)
        assert all(t >= o for t, o in zip(theirs, ours, strict=True)), (src, theirs, ours)
        assert sum(theirs) - sum(ours) == rake, (src, theirs, ours, rake)
        compared += 1
    assert compared >= 1250 and not_loaded <= 75, (compared, not_loaded)  # 1,274 and 59


def our_finishing_stacks(h):
    """Our finishing stacks of a read hand (exact, as Decimals), or None when the replay
    leaves them unknown or fails."""
    from simulate.replay.hand_replay import replay

    d = replay(h).to_dict()
    stacks = d["finishing_stacks"]
    if d["error"] or stacks is None or any(x is None for x in stacks):
        return None
    return [Decimal(str(x)) for x in stacks]


def test_a_walk_with_nothing_called_reads_back_from_pokerstars_text(tmp_path):
    """A button-blind hand whose big blind gets a walk (nothing called, nothing collected):
    the seat left is written as having collected nothing, not as a muck (which read back as
    every seat mucking), so the hand reads back with the same result."""
    src = tmp_path / "walk.phh"
    src.write_text("variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [0, 2]\nmin_bet = 2\n"
                   "starting_stacks = [400, 400]\n"
                   "actions = ['d dh p1 2h4h', 'd dh p2 5dAh', 'p2 f']\n")
    out = tmp_path / "walk.txt"
    assert _run("convert", str(src), "--to", "pokerstars", "-o", str(out), "-q").returncode == 0
    text = out.read_text()
    assert "Seat 1: p1 (big blind) collected (0)" in text, text
    (back,) = [h for _, h in read_hands([out])]
    from simulate.replay.hand_replay import replay

    d = replay(back).to_dict()
    assert d["error"] is None and d["net"] == [0, 0]


_RUN_TWICE = [Path(__file__).parent / "data" / "sites" / "PokerHandHistoryParser" /
              "HandHistories.Parser.UnitTests" / "SampleHandHistories" / p for p in (
                  "PokerStars/CashGame/RunItTwiceTests/RunItTwice2.txt",
                  "GGPoker/CashGame/GeneralHands/RunTwice.txt")]


@pytest.mark.parametrize("fmt", ["pokerstars", "ohh"])
def test_a_hand_run_twice_and_a_capped_game_read_back_the_same(fmt):
    """Every run's board survives a conversion (only the first did: the hand read back with
    one board), and so does a capped game's cap (PokerStars' ``$80 Cap``: without it the
    converted hand's betting was not over when the board came, and it did not replay)."""
    from simulate.notation.sites import read_site
    from simulate.replay.hand_replay import replay

    keys = ("boards", "net", "winnings", "committed", "error", "validated", "rake",
            "finishing_stacks")
    for src in _RUN_TWICE:
        hands = [h for _, h in read_site(src.read_bytes(), "s")]
        assert hands and all(len(h.site.boards) == 2 for h in hands), src
        back = [h for _, h in read_site(N.write(hands, fmt), "b")]
        assert len(back) == len(hands)
        for h, b in zip(hands, back, strict=True):
            assert b.site.cap == h.site.cap
            want, got = replay(h).to_dict(), replay(b).to_dict()
            assert {k: got[k] for k in keys} == {k: want[k] for k in keys}, src
    capped = [h for _, h in read_site(_RUN_TWICE[0].read_bytes(), "s")]
    assert capped[0].site.cap == Decimal(80)


def test_a_tournament_without_a_buy_in_is_not_written_as_a_freeroll():
    """A tournament hand whose buy-in the site did not print is written without one (it
    read back as a freeroll before), and reads back without one."""
    from simulate.notation.sites import read_site

    src = (Path(__file__).parent / "data" / "sites" / "PokerHandHistoryParser" /
           "HandHistories.Parser.UnitTests" / "SampleHandHistories" / "PokerStars" /
           "MultiTableTournament" / "GameTypeTests" / "NoLimitHoldem.txt")
    text = src.read_text(encoding="utf-8-sig").replace("$0.91+$0.09 USD ", "", 1)
    (hand,) = [h for _, h in read_site(text, "t")][:1]
    assert hand.site.tournament.buy_in is None and hand.site.tournament.id == "937193984"
    out = N.write([hand], "pokerstars")
    first = out.splitlines()[0]
    assert "Freeroll" not in first and "Tournament #937193984, Hold'em No Limit" in first
    (back,) = [h for _, h in read_site(out, "t")]
    assert back.site.tournament == hand.site.tournament
    assert back.fields["starting_stacks"] == hand.fields["starting_stacks"]


@pytest.mark.slow
def test_played_hands_read_back_the_same_from_pokerstars_text_and_ohh(tmp_path, capsys):
    """Hands ``play`` makes with random policies (all-ins, side pots, folds to a bet, walks;
    antes and a straddle, pot-limit Omaha, nine seats of unequal stacks, the button blind)
    written as PokerStars text and as OHH replay to the nets and errors of their PHH."""
    from simulate.cli import main
    from simulate.replay.hand_files import analyze

    configs = [["--players", "6", "--policy", "random", "--stacks", "100,50,200,30,400,80",
                "--ante", "1", "--straddle", "4"],
               ["--players", "3", "--betting", "pot-limit", "--game", "omaha",
                "--policy", "random,allin,call"],
               ["--players", "9", "--policy", "random,allin,random,call,random,random,allin,"
                "call,random", "--stacks", "60,120,30,500,45,90,200,75,300"],
               ["--players", "2", "--policy", "random", "--button-blind", "2"]]
    for i, args in enumerate(configs):
        phh = tmp_path / f"p{i}.phhs"
        assert main(["play", *args, "--hands", "300", "--seed", str(i + 1), "--phh", str(phh),
                     "--phh-hands", "300", "-q"]) == 0
        want = [(d["net"], d["error"]) for d in analyze(phh)]
        assert len(want) == 300 and all(e is None for _, e in want), args
        for fmt in ("pokerstars", "ohh"):
            f = tmp_path / f"p{i}.{fmt}"
            assert main(["convert", str(phh), "--to", fmt, "-o", str(f), "-q"]) == 0
            assert [(d["net"], d["error"]) for d in analyze(f)] == want, (args, fmt)
    capsys.readouterr()


def test_a_site_export_on_standard_input_is_read_as_from_its_file(monkeypatch):
    """``-`` is told from its content as a file is: a PokerStars hand on standard input is
    converted (it was read as PHH, and refused), and PHH there still is."""
    import io
    import sys

    stars = DATA / "sites/hhp/test/fixtures/holdem/pokerstars/actiononall.txt"
    want = _run("convert", str(stars), "--to", "ohh")
    phh = DATA / "phh/derived/highstakes_1000nl_sidepot_hands.phhs"
    for path, fmt in ((stars, "ohh"), (phh, "phh")):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(path.read_bytes())))
        r = _run("convert", "-", "--to", fmt, "-q")
        assert r.returncode == 0, r.stderr
        if fmt == "ohh":
            assert r.stdout == want.stdout
