"""simulate.replay.hand_replay: replay of every shipped hand against its record, all-in EV
cross-checks, pokerkit cross-checks, and the ``pokerjit hand`` command."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from helpers import stud_hand

from simulate.notation.phh_read import PHHError, load_hands, parse_text
from simulate.replay.hand_replay import HOLDEM_VARIANTS, OMAHA_VARIANTS, STUD_HIGH_VARIANTS, replay

DATA = Path(__file__).resolve().parent / "data" / "phh"   # vendored: see data/phh/README.md
SUPPORTED = HOLDEM_VARIANTS | OMAHA_VARIANTS | STUD_HIGH_VARIANTS


HAND = """
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 2c7h', 'p3 f', 'p1 cbr 6', 'p2 cc',
  'd db 2d3d4h', 'p1 cbr 10', 'p2 f']
players = ['a', 'b', 'c']
finishing_stacks = [106, 94, 100]
"""


def test_single_hand_and_collection() -> None:
    [(src, h)] = parse_text(HAND, "x.phh")
    assert src == "x.phh" and not isinstance(h, PHHError)
    assert h.variant == "NT" and h.n_players == 3 and h.players == ["a", "b", "c"]
    r = replay(h)
    assert r.error is None and r.finishing_stacks == [106, 94, 100] and r.matches_record
    assert r.winnings == [12, 0, 0]
    text = "[1]\n" + HAND + "\n[2]\nvariant = 'NT'\nstarting_stacks = [1]\n[3]\nbroken ==\n"
    out = parse_text(text, "y.phhs")
    assert [s for s, _ in out] == ["y.phhs#1", "y.phhs#2", "y.phhs#3"]
    assert not isinstance(out[0][1], PHHError)
    assert "actions" in str(out[1][1]) or "players, got 1" in str(out[1][1])
    assert "TOML" in str(out[2][1])
    assert replay(out[2][1], "y.phhs#3").error is not None


def test_heads_up_blinds_are_swapped() -> None:
    # Heads-up the second seat is the button and posts the small blind.
    text = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
starting_stacks = [50, 50]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'p2 f']
"""
    [(_, h)] = parse_text(text)
    assert replay(h).finishing_stacks == [51, 49]


def test_muck_gives_up_the_pot_and_hidden_cards_leave_the_outcome_unknown() -> None:
    base = HAND.replace("'p1 cbr 10', 'p2 f'", "'p1 cc', 'p2 cc', 'd db 5s', 'p1 cc', "
                        "'p2 cc', 'd db 9h', 'p1 cc', 'p2 cc', {}")
    [(_, h)] = parse_text(base.format("'p1 sm', 'p2 sm KcKd'"))
    assert replay(h).finishing_stacks == [94, 106, 100]   # AA mucked: KK takes it
    [(_, h)] = parse_text(base.format("'p1 sm AcAd', 'p2 sm KcKd'"))
    assert replay(h).finishing_stacks == [106, 94, 100]   # AA makes the wheel
    text = base.replace("'d dh p2 KcKd'", "'d dh p2 ????'").format("'p2 sm ????'")
    [(_, h)] = parse_text(text)
    r = replay(h)
    assert r.error is None and r.outcome_known is False
    assert r.finishing_stacks == [None, None, 100] and r.net == [None, None, 0]
    assert r.pots[0]["winners"] is None and r.pots[0]["amount"] == 12


def test_a_muck_after_an_uncalled_all_in_takes_back_the_uncalled_part() -> None:
    """All in for more than the caller, then a muck at the showdown: the part nobody called
    went back when the betting closed (as pokerkit plays it, and as PokerStars paid it);
    the mucked hand gives up only the called pot. Either seat's excess, either order."""
    from pokerkit import HandHistory

    text = """variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [{a}, {b}, 50]
actions = ['d dh p1 AcAd', 'd dh p2 KcKd', 'd dh p3 2c7h', 'p3 f', {bets},
  'd db 2d3d4h', 'd db 9s', 'd db Th', {shows}]
"""
    for a, b, bets, shows, want in [
            (100, 80, "'p1 cbr 100', 'p2 cc'", "'p1 sm', 'p2 sm KcKd'", [20, 160, 50]),
            (100, 80, "'p1 cbr 100', 'p2 cc'", "'p2 sm', 'p1 sm AcAd'", [180, 0, 50]),
            (60, 90, "'p1 cbr 10', 'p2 cbr 90', 'p1 cc'", "'p2 sm KcKd', 'p1 sm'",
             [0, 150, 50])]:
        phh = text.format(a=a, b=b, bets=bets, shows=shows)
        [(_, h)] = parse_text(phh)
        r = replay(h)
        assert r.error is None and r.validated, r.error
        assert r.finishing_stacks == want, (phh, r.finishing_stacks)
        *_, state = HandHistory.loads(phh)  # pokerkit's state after the last action
        assert list(state.stacks) == want


def test_razz_is_chip_accounting_with_its_low_at_showdown() -> None:
    text = stud_hand("FR", 10, 10, (20, 40), [500, 500],
                     ["d dh p1 ????As", "d dh p2 ????Ks", "p2 pb", "p1 cbr 20", "p2 f"])
    [(_, h)] = parse_text(text)
    assert replay(h).finishing_stacks == [520, 480]
    # a contested showdown: p1's best five is 5-4-3-2-A, p2's 6-5-4-3-2
    text = text.replace("'p2 f'", "'p2 cc', 'p1 sm AsAh2c3c4c5c6c', 'p2 sm KsKh2d3d4d5d6d'")
    [(_, h)] = parse_text(text)
    r = replay(h)
    assert r.error is None and r.finishing_stacks == [530, 470]
    text = text.replace("'p1 sm AsAh2c3c4c5c6c'", "'p1 sm AsAh2c3cKcQcJc'")  # Q-J-3-2-A
    [(_, h)] = parse_text(text)
    assert replay(h).finishing_stacks == [470, 530]


# ---------------------------------------------------------------- the shipped data set

@pytest.fixture(scope="module")
def replays() -> list:
    return [replay(h, src) for src, h in load_hands(DATA)]


def test_every_shipped_hand(replays: list) -> None:
    """Every hand of a supported variant replays to its recorded finishing stacks; the
    others fail only with a clear 'not supported' or 'unknown cards' message."""
    assert len(replays) >= 205
    mismatched, bad_errors, matched = [], [], 0
    for r in replays:
        if r.error is None:
            if r.matches_record is False:
                mismatched.append((r.source, r.finishing_stacks, r.recorded_finishing_stacks))
            matched += bool(r.matches_record)
        elif "not supported at a contested showdown" in r.error:
            if r.variant in SUPPORTED:
                bad_errors.append((r.source, r.error))
        elif "unknown at the showdown" in r.error and "handhq" in r.source:
            pass  # HandHQ: hole cards are mostly '????'
        else:
            bad_errors.append((r.source, r.error))
    assert not mismatched, mismatched
    assert not bad_errors, bad_errors
    assert matched >= 179
    by_variant = {(r.variant, r.matches_record) for r in replays if r.error is None}
    for v in ("NT", "FT", "PO", "F7S"):
        assert (v, True) in by_variant


def test_known_problem_hands(replays: list) -> None:
    by = {r.source.split("data/phh/", 1)[-1]: r for r in replays}
    # Big-blind ante with ante_trimming_status = true: the ante is dead money, not trimmed.
    r = by["upstream_phh-dataset/data/wsop/2019/42/3/00-01-07.phh"]
    assert r.error is None and r.matches_record
    assert r.finishing_stacks[:2] == [18100000, 5625000]
    # Razz: a contested showdown settled with the ace-to-five low (evaluator.lowball)
    r = by["vendor/phh-curated/wsop/03-50-24.phh"]
    assert r.variant == "FR" and r.error is None and r.matches_record


def test_side_pot_hand(replays: list) -> None:
    [r] = [r for r in replays if "highstakes_1000nl_sidepot" in r.source]
    assert r.error is None
    assert r.finishing_stacks == [0, 1683.35, 985, 1074, 1651]   # pokerkit 0.7.7 agrees
    assert r.pots == [{"amount": 1074.0, "eligible": [0, 1, 3], "winners": [3]},
                      {"amount": 642.0, "eligible": [0, 1], "winners": [1]}]
    assert r.allin_board == "" and r.allin_exact
    evs = [p["ev"] for p in r.allin_ev]
    assert abs(sum(p["expected_payout"] for p in r.allin_ev) - (679 + 1720.35 + 358)) < 1e-6
    assert evs[2] == 0 and evs[4] == 0
    # The same spot through simulate.allin (pots in cents, seats that put in nothing left
    # out): expected payouts agree to within an odd chip.
    from simulate.allin import allin_ev

    res = allin_ev([("8sAc", 67900), ("AhKs", 172035), ("ThTs", 35800)], button=2,
                         exact=True)
    for mine, theirs in zip([evs[0], evs[1], evs[3]], res.players, strict=True):
        assert abs(mine * 100 - theirs.ev) < 1.0


def test_allin_ev_spots(replays: list) -> None:
    by = {r.source.rsplit("/", 1)[-1]: r for r in replays}
    r = by["dwan-ivey-2009.phh"]                 # 7-high straight vs a wheel: a lock
    assert r.allin_board == "Jc3d5c4h" and r.allin_exact
    assert r.allin_ev[2]["expected_payout"] == pytest.approx(1109500)
    r = by["antonius-blom-2009.phh"]             # Omaha, all in on the flop
    assert r.variant == "PO" and r.allin_board == "4s5c2h" and r.allin_exact
    total = sum(p["expected_payout"] for p in r.allin_ev)
    assert total == pytest.approx(860000 + 678473.5)
    assert 0 < r.allin_ev[0]["expected_payout"] < 1356947
    assert sum(1 for r in replays if r.allin_ev is not None) >= 5


def test_handhq_winnings_are_pots_less_rake(replays: list) -> None:
    """HandHQ records ``winnings`` after rake: same winners, ours at most a small rake more."""
    checked = 0
    for src, h in load_hands(DATA / "upstream_phh-dataset"):
        r = replay(h, src)
        if r.error or h.winnings is None:
            continue
        for mine, rec in zip(r.winnings, h.winnings, strict=True):
            assert (mine > 0) == (rec > 0)
            assert 0 <= mine - float(rec) <= 0.1 * mine + 1e-9
        checked += 1
    assert checked >= 2


def test_pokerkit_cross_check() -> None:
    """Hands without recorded finishing stacks: our replay agrees with pokerkit's."""
    pokerkit = pytest.importorskip("pokerkit")
    import warnings

    files = [DATA / "vendor/phh-curated/dwan-ivey-2009.phh",
             DATA / "vendor/phh-curated/antonius-blom-2009.phh",
             DATA / "derived/highstakes_1000nl_sidepot_hands.phhs"]
    files += sorted((DATA / "vendor/phh-curated/pluribus_ai").glob("*.phh"))[:10]
    for f in files:
        with open(f, "rb") as fh, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            histories = pokerkit.HandHistory.load_all(fh) if f.suffix == ".phhs" \
                else [pokerkit.HandHistory.load(fh)]
            theirs = []
            for hh in histories:
                *_, state = iter(hh)
                theirs.append([Decimal(str(x)) for x in state.stacks])
        ours = [replay(h, s) for s, h in load_hands(f)]
        for mine, t in zip(ours, theirs, strict=True):
            assert [Decimal(str(x)) for x in mine.finishing_stacks] == t, f


# ---------------------------------------------------------------- command line

def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    from simulate.cli import main

    path = DATA / "derived"
    assert main(["hand", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [h] = doc["hands"]
    assert h["source"].endswith("highstakes_1000nl_sidepot_hands.phhs#1")
    for key in ("finishing_stacks", "pots", "winnings", "allin_ev", "error"):
        assert key in h
    assert h["error"] is None and len(h["allin_ev"]) == 5
    assert main(["hand", str(DATA / "vendor/phh-curated/dwan-ivey-2009.phh")]) == 0
    out = capsys.readouterr().out
    assert "main pot: 1,109,500" in out and "Tom Dwan" in out


def test_cli_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from simulate.cli import main

    assert main(["hand", str(tmp_path / "nope.phh")]) == 2
    assert capsys.readouterr().err.startswith("error: no such file")
    bad = tmp_path / "bad.phh"
    bad.write_text("variant = 'NT'\nactions = [\n")
    assert main(["hand", str(bad), "--json"]) == 2         # nothing in it is PHH
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "no hand could be read" in err


def test_allin_ev_goes_through_the_engine_with_antes_and_empty_seats(replays: list) -> None:
    """The replay's all-in EV is simulate.allin_ev's: a big-blind ante as dead money in the
    main pot, seats that put in nothing, folded hole cards out of the deck, the button."""
    from simulate.allin import allin_ev

    by = {r.source.rsplit("/", 1)[-1]: r for r in replays}
    r = by["03-02-41.phh"]
    assert r.allin_exact and r.allin_board == ""
    res = allin_ev([(None, 75000), ("9d9c", 3350000), (None, 0), (None, 0), ("AcKc", 3350000)],
                   dead="8d3s6c5hJs4h", button=4, dead_money=225000, allow_zero=True)
    assert [(p.amount, p.eligible) for p in res.pots] == [(6700000 + 75000 + 225000, (1, 4))]
    assert [p["expected_payout"] for p in r.allin_ev] == [p.expected_payout for p in res.players]
    assert r.allin_ev[1]["committed"] == 3575000
    assert r.allin_ev[1]["ev"] == res.players[1].expected_payout - 3575000


def test_button_from_seat_order_and_blinds() -> None:
    from simulate.replay.accounting import button_seat

    def hand(blinds: list[int]) -> object:
        n = len(blinds)
        text = (f"variant = 'NT'\nantes = {[0] * n}\nblinds_or_straddles = {blinds}\n"
                f"starting_stacks = {[100] * n}\nactions = []\n")
        [(_, h)] = parse_text(text)
        return h

    assert button_seat(hand([1, 2])) == 1            # heads-up: the small blind, second seat
    assert button_seat(hand([1, 2, 0, 0])) == 3      # the seat before the small blind
    assert button_seat(hand([0, 1, 2, 0])) == 0
    assert button_seat(hand([0, 0, 0])) == 2         # no blinds: the last seat


def test_omaha_allin_ev_parses_its_spot_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An Omaha all-in is parsed once (parse_allin_spot) for both the walk-size test and the
    run, and gives what the text entry points give for the same seats: walks_exactly, then
    allin_ev walked exactly, or sampled (EV_SAMPLES runouts, seed 0) when the walk is too
    large (forced here by a walk limit of 0)."""
    import simulate.omaha
    import simulate.request
    from simulate.allin import allin_ev, walks_exactly
    from simulate.replay.hand_replay import EV_SAMPLES

    [(src, h)] = load_hands(next(DATA.rglob("antonius-blom-2009.phh")))
    calls: list[tuple[tuple, dict]] = []
    parse = simulate.request.parse_allin_spot

    def counted(*args: object, **kw: object) -> object:
        calls.append((args, kw))
        return parse(*args, **kw)

    monkeypatch.setattr(simulate.request, "parse_allin_spot", counted)
    for limit, exact in ((simulate.omaha.EXACT_WORK_LIMIT, True), (0, False)):
        monkeypatch.setattr(simulate.omaha, "EXACT_WORK_LIMIT", limit)
        calls.clear()
        r = replay(h, src)
        assert r.error is None and r.allin_board == "4s5c2h" and r.allin_exact is exact
        assert len(calls) == 1, calls  # the replay's one parse
        (players, board, dead, button), kw = calls[0]
        assert kw["game"] == "omaha" and kw["allow_zero"] is True
        monkeypatch.setattr(simulate.request, "parse_allin_spot", parse)
        assert walks_exactly(players, board, dead, game=kw["game"], allow_zero=True,
                             dead_money=kw["dead_money"]) is exact
        res = allin_ev(players, board, dead, button=button, exact=exact,
                       samples=None if exact else EV_SAMPLES, seed=None if exact else 0, **kw)
        monkeypatch.setattr(simulate.request, "parse_allin_spot", counted)
        scale = players[0][1] / r.allin_ev[0]["committed"]  # the replay's decimal units
        assert [p["expected_payout"] for p in r.allin_ev] == [p.expected_payout / scale
                                                             for p in res.players]
        assert res.exact is exact


PARTY_SHORT_BB = """***** Hand History for Game 198586505 *****
$0.10/$0.25 USD NL Texas Hold'em - Wednesday, June 20, 19:27:09 EDT 2018
Table Clifton (Real Money)
Seat 7 is the button
Total number of players : 8/9
Seat 1: FunkDrSpock ( $4.65 USD )
Seat 3: Ritch_Razor ( $5.38 USD )
Seat 5: Wheeze ( $15.69 USD )
Seat 4: davis1226 ( $18.18 USD )
Seat 7: emilyrose ( $28.73 USD )
Seat 6: minidon ( $36.66 USD )
Seat 2: papou1 ( $0.03 USD )
Seat 9: rdfilo ( $6.90 USD )
FunkDrSpock posts small blind [$0.10 USD].
papou1 posts big blind [$0.03 USD].
** Dealing down cards **
Ritch_Razor calls [$0.25 USD]
davis1226 folds
Wheeze folds
minidon folds
emilyrose calls [$0.25 USD]
FunkDrSpock folds
** Dealing Flop ** [ Tc, 9s, 4s ]
Ritch_Razor checks
emilyrose bets [$0.50 USD]
Ritch_Razor calls [$0.50 USD]
** Dealing Turn ** [ 2h ]
Ritch_Razor checks
emilyrose bets [$1.15 USD]
Ritch_Razor calls [$1.15 USD]
** Dealing River ** [ 3s ]
Ritch_Razor is all-In  [$3.48 USD]
emilyrose folds
Ritch_Razor shows [ 2s, Ks ]a flush, King high.
papou1 doesn't show [ Kd, 8c ]high card King.
Ritch_Razor wins $7.08 USD from the side pot 1 with a flush, King high.
Ritch_Razor wins $0.12 USD from the main pot with a flush, King high.
"""


def test_a_site_hand_with_a_short_big_blind_is_validated() -> None:
    """A real PartyPoker hand (tests/data/sites/hhp, partypoker 9-max, game 198586505): the
    big blind is all in for $0.03 and both callers call the full $0.25, as cardrooms play it
    (Robert's Rules); the builder writes the full blind, so the engine validates the hand and
    the site's pots ($0.12 main, $7.08 side) are reproduced."""
    from simulate.notation.sites import read_site

    [(_, h)] = list(read_site(PARTY_SHORT_BB, "party.txt"))
    r = replay(h, "party.txt")
    assert r.error is None and r.validated, (r.error, r.not_validated)
    assert r.matches_record is not False
    i = h.players.index("Ritch_Razor")
    assert r.finishing_stacks[i] == 7.2  # 7.08 + 0.12 (he was all in for 5.38)
