"""What every site reader's test asserts of its family of samples, one table of facts
(tests/site_samples.Family) checked by one set of tests: how many samples and hands there
are, each detected by its reader only, the hands that read as errors or whose own numbers
disagree (each looked at by hand, the reason beside it), the chip check, every hand through
the replay, round trips through PHH and OHH, and damaged text. Each family's own module
(tests/test_site_NAME.py) checks its hands event by event and the sources' values."""

from __future__ import annotations

import pytest
from site_expected import asserted, check_expected, check_site_expected, expected_of
from site_samples import (
    SAMPLES,
    Family,
    both,
    detected_only_by,
    files_of,
    head_of,
    index,
    key,
    recs_of,
)

from simulate.notation.site_hand import SiteHand
from simulate.notation.site_text import SiteError
from simulate.notation.sites import SITE_FORMATS

A = "A:"
T = "poker/tests/handhistory/data/888poker/888poker2016032{} Tournament {} WSOP, 888Live & " \
    "Major Tournaments ({}) No Limit Holdem.txt"
T773 = T.format(7, "$0.01 Step 1", 78669773)
T312 = T.format(7, "$0.01 Step 1", 78669312)
PARTY_BIG = "hhp/test/fixtures/partypoker/cash.hhsmithy.usd.NLHE.9max.txt"
NO_RAKE = {"rake": "the file prints no rake: the reader gives the rake the chips imply"}
NO_POT = {"total_pot": "not printed (the source's None); the reader leaves total_pot None too"}
WM, WP, V2 = A + "Winamax/CashGame/", A + "WinningPoker/CashGame/", A + "WinningPokerV2/CashGame/"

FAMILIES = [
    Family(
        "888", {"888 / Pacific": 49, "888 (tournament summary, not a hand)": 5}, 168,
        detect_only=("888 (tournament summary, not a hand)",),
        faults={
            # deliberately broken by the source: the hand stops after the flop's first bets
            (A + "Pacific/CashGame/ValidHandTests/InValidHand_1.txt", 1): "ends before anyone",
            # one hand of the file has every player's name blanked out (seats, posts, actions)
            (T773, 472): "line 478: seat 1 has no player name",
        },
        replay_errors={
            # the site's own record: SYSTEM3RROR "mucks [ Td, 9d ]" yet collects the side pot
            # his pair of tens wins; by the file's words he mucked, so the side pot goes to
            # ASKET174
            (T312, 143): "ASKET174 collected 0.0 by the site's record",
        },
        # DealingCardsMissing.txt hand 1 folds a player who could check: a binding fold
        # (TDA), replayed and validated
        refused={},
        validated=158, round_trip=both(166), rake_known=True),
    Family(
        "ongame", {"OnGame": 39}, 48,
        # deliberately broken by the source: cut inside the summary's seat lines
        faults={(A + "OnGame/CashGame/ValidHandTests/InValidHand_1.txt", 1): "cut short"},
        validated=46, at_least=True, round_trip=both(47)),
    Family(
        "entraction", {"Entraction": 37}, 46,
        replay_errors={
            # the source edited the header ("Fixed Limit EUR 100.00/200.00" with a 600 raise
            # and all-ins of 3,559.76): our rules refuse the raise, and the chip accounting's
            # showdown pays otherwise than the file
            (A + "Entraction/CashGame/HandActionTests/AllInHandWithShowdown.txt", 1):
                "collected 0.0 by the site's record, but the showdown gives"},
        # edited headers ("EUR 2.00/4.00" with 50/100 blinds): they stand on their chip
        # accounting, not validated
        refused={(A + "Entraction/CashGame/HandActionTests/AllInHandWithShowdown.txt", 1):
                 "cannot raise",
                 (A + "Entraction/CashGame/Limits/EuroTable.txt", 1): "cannot raise"},
        validated=34, at_least=True, round_trip=both(46)),
    Family(
        "partypoker", {"PartyPoker": 52}, 296,
        faults={
            # deliberately broken by the source: stops before anyone wins
            (A + "PartyPoker/CashGame/ValidHandTests/InValidHand_1.txt", 1):
                "line 21: the hand ends",
            # a single-line-test file: the hand stops on the turn
            (A + "PartyPoker/CashGame/Limits/Limit6.txt", 1): "line 30: the hand ends",
            # anonymised by the source: seat 1 is "Player1", whose actions name
            # "WolfgangCutler"
            (A + "PartyPoker/CashGame/PlayerTests/WithAnonomous.txt", 1):
                "'WolfgangCutler' acts"},
        # (PARTY_BIG, 7622): the big blind is all in for 0.03 of 0.25 and the others call
        # the full 0.25, the cardroom rule the engine follows: its pots are the site's
        # (PARTY_BIG, 519): a player who could check folds: a binding fold (TDA)
        refused={},
        validated=284, rake_known=True,
        round_trip=both(293)),
    Family(
        "winamax", {"Winamax": 35, "Winamax (invalid header)": 1}, 45,
        faults={
            # the header is damaged on purpose ("Winaax Poker", no summary)
            (WM + "ValidHandTests/InValidHand_1.txt", 1): "line 1: not a Winamax hand header",
            # Dbrz34 posts 0.25 dead and 0.50 out of position, then "calls 0.50€" of sined20's
            # raise to 1.50 (1.00 is owed); the pot (6.26 + 0.24 rake, 2.50 uncalled inside)
            # holds the full 1.00
            (WM + "HandActionTests/PostingDead.txt", 1):
                "line 19: Dbrz34 calls 0.50, but 1.00 is to be called"},
        validated=43,  # every hand without an error (5-card Omaha and hi/lo included)
        round_trip=both(43),
        cut=SAMPLES + "Winamax/CashGame/MultipleHandsTests/10MultipleHands.txt"),
    Family(
        "winning", {"Winning Poker (2014 format)": 45, "Winning Poker / ACR (2019+ format)": 14,
                    "Winning Poker / ACR (tournament format)": 4}, 113,
        faults={(WP + "ValidHandTests/CancelledHand.txt", 1): "the hand was cancelled",
                # the same: nobody dealt
                (WP + "PlayerTests/UncalledBet.txt", 1): "the hand was cancelled",
                (WP + "ValidHandTests/InValidHand_1.txt", 1): "the hand is cut short",
                (WP + "ValidHandTests/InValidHand_2.txt", 1): "the hand is cut short"},
        # 0.01 + 0.02 blinds, "posts dead $0.03", 0.08 and 0.26 - 0.18 returned: 0.21 in,
        # "Total pot $0.20" (no rake printed) and "won $0.20"
        disagree={(V2 + "HandActionTests/PostingDead.txt", 1): "do not add up"},
        # stud hi/lo: chip accounting (not validated), its contested showdown settled high
        # and low (test_phh_accounting's stud hi/lo test checks the split)
        replay_errors={},
        # hand 490 of long_hand_history_for_tests.txt: the sitting-out big blind "folds"
        # with nothing to call, a binding fold (TDA): replayed and validated
        refused={},
        # not validated (no error): forced bets the engine does not post (a dead small blind,
        # a small blind on the button, a big blind all in for less, a dead blind as an ante)
        validated=103, round_trip=both(108),
        cut=next(k for k in files_of("Winning Poker / ACR (tournament format)")
                 if "hh_for_side_pot" in k)),
    Family(
        "ggpoker", {"GGPoker": 16}, 16,
        # the pot and the winner's collection are $1 short of what the lines put in: four
        # players see the flop for $0.50 each, one more posts $0.50, and three then put in
        # $1 + $3.10 each, $14.30; the summary says $13.30 ($11.88 + $1.42 rake)
        disagree={(A + "GGPoker/CashGame/GeneralHands/MultiplePosts.txt", 1): "do not add up"},
        # not validated: the straddle and the dead blind (the engine posts neither)
        validated=13, round_trip=both(15),
        cut=SAMPLES + "GGPoker/CashGame/GeneralHands/RunThreeTimes.txt"),
    Family(
        "bovada", {"Bovada": 23, "Ignition": 9, "Bodog": 1}, 33,
        skins={"Bovada": "bovada", "Ignition": "ignition", "Bodog": "bodog"},
        # the one not validated: a hand with no small blind (the engine posts none)
        validated=32, round_trip=both(33),
        cut="hhp/test/fixtures/holdem/ignition/sng-sidepot.txt"),
    Family(
        "fulltilt", {"Full Tilt": 45}, 54,
        # the source's deliberately broken hand (a header and a summary, no seats, no actions)
        faults={(A + "FullTilt/CashGame/ValidHandTests/InValidHand_1.txt", 1): "lists no seats"},
        unvalidated={}, validated=53, mutate=True, asserted=True),
    Family("pkr", {"PKR": 5}, 5, unvalidated={}, validated=5, mutate=True),
    Family(
        "pokerstars", {"PokerStars": 105, "PPPoker (PokerStars format)": 3,
                       "Upoker (PokerStars format)": 1}, 175,
        # a PokerStars-format export of Upoker's (a yuan table) among PokerStars' samples
        skins={"PokerStars": ("pokerstars", "upoker"), "PPPoker (PokerStars format)": "pppoker",
               "Upoker (PokerStars format)": "upoker"},
        faults={
            # the sources' deliberately broken and cancelled hands
            (A + "PokerStars/CashGame/ValidHandTests/InValidHand_1.txt", 1): "truncated",
            (A + "PokerStars/CashGame/ValidHandTests/CancelledHand.txt", 1): "hand cancelled",
            # edited samples: names in the actions that no seat line has (Blahdi:42eblah
            # seated, Blahdieblah posting)
            (A + "PokerStars/CashGame/PlayerTests/WithSittingOut.txt", 1): "has no seat",
            (A + "Entraction/CashGame/PlayerTests/WithSittingOut.txt", 1): "has no seat"},
        disagree={
            # the pot printed without the antes ($0.30 of antes posted, "Total pot $0.50")
            (A + "PokerStars/CashGame/Limits/AnteTable.txt", 1): "do not add up",
            # PPPoker: "Total pot $3.60 | Rake $0.36" but $3.30 collected (0.06 more than the
            # pot)
            (A + "PokerStars/CashGame/ExtraHands/UtcTimestampFormat.txt", 1): "do not add up"},
        # an edited sample dealing one card twice. (Limit5, a player all in for more than
        # the caller who mucks at the showdown, gets the uncalled part back and replays.)
        replay_errors={
            (A + "PokerStars/CashGame/StreetTests/River.txt", 1): "dealt twice"},
        # posts-allin.txt: the big blind posted all in for less than a big blind; the others
        # call the full blind (the cardroom rule): validated. RunItTwice2: a $80 cap game
        # whose two players reach the cap (they act no more, as if all in, which the engine
        # does not play): its chip accounting, not validated; the other cap samples stay
        # under their cap and are validated
        unvalidated={(A + "PokerStars/CashGame/RunItTwiceTests/RunItTwice2.txt", 1):
                     "reached the cap of 80"},
        validated=167, mutate=True, asserted=True),
    Family(
        "ipoker", {"iPoker": 53}, 234,
        faults={
            # an edited sample: seat 7 'TrapistBeer' is a copy of seat 6 'TrappistBeer' (same
            # stack, same win of $2.44) that never acts, so the file pays the pot twice
            (A + "IPoker/CashGame/Seats/Full Ring (10 Handed).txt", 21):
                "the chips do not add up: 1.30 committed, 3.68 won",
            # deliberately broken by the source: 'nawu' posts and folds without a seat
            (A + "IPoker/CashGame/ValidHandTests/InValidHand_1.txt", 21):
                "'nawu' acts but has no seat"},
        replay_errors={
            # an edited sample (the Hold'em Manager export): both players are paid 238 as a
            # split, but Player5's K-Q-J-T-9 straight beats Player4's pair of nines on
            # Kd Tc 7c 9d 2h
            (A + "IPoker/CashGame/ValidHandTests/HMExport_1.txt", 20):
                "Player4 collected 238.0 by the site's record, but the showdown gives 0"},
        validated=230, posted_stakes=True, sources_dir="IPoker",
        not_compared={**NO_RAKE, "max_players": "iPoker prints no table size"},
        # a session's table information without a hand (iPoker's, no hand: test_site_ipoker)
        also_detects=(A + "IPoker/CashGame/IdTest/IdTest1.txt",)),
    Family(
        "merge", {"Merge": 32}, 41,
        faults={
            # the site cancelled the hand before any blind (a GAME_CANCELLED round)
            (A + "Merge/CashGame/HandActionTests/CancelledHand.txt", 2): "cancelled by the site",
            # deliberately broken by the source: an element left open
            (A + "Merge/CashGame/ValidHandTests/InValidHand_1.txt", 1): "not well-formed XML"},
        # edited stakes, Limit $10/$20 over blinds of $1/$2: a raise to 6 is short; it
        # stands on its chip accounting, not validated
        refused={(A + "Merge/CashGame/Seats/HeadsUp.txt", 2): "cannot raise to 600"},
        validated=34, posted_stakes=True, sources_dir="Merge",
        not_compared={**NO_RAKE, **NO_POT},
        # the file says seats="9" (a 9-seat table with 6 players); the source's parser
        # counts 6
        contradicted={A + "Merge/CashGame/Seats/6 Max.txt": "max_players"},
        # the header says Limit $10/$20, the hand posts $1/$2 (the hero-name and seat tests)
        edited_stakes=frozenset({A + "Merge/CashGame/Seats/HeadsUp.txt"})),
    Family(
        "microgaming", {"MicroGaming": 42}, 51,
        faults={
            # the same cancelled hand twice: one player, no blind, a deal and a fold
            (A + "MicroGaming/CashGame/ExtraHands/CancelledHand.txt", 1): "cancelled",
            (A + "MicroGaming/CashGame/ValidHandTests/CancelledHand.txt", 1): "cancelled",
            # an edited sample: the betting leaves 118 uncalled (raises of 35 and 320 against
            # 5 + 110 + 122), the file gives back 117, and Player1's 237.50 stack ends at 0.50
            # after going all in: the amounts were changed by hand
            (A + "MicroGaming/CashGame/HandActionTests/AllInHandWithUncalledBet.txt", 1):
                "the betting leaves 118.00 of 'Player6' uncalled, the file gives back 117.00"},
        # an edited sample (the source's street test): the river card is also a flop card
        replay_errors={(A + "MicroGaming/CashGame/StreetTests/River.txt", 1):
                       "card Ks is dealt twice"},
        validated=39, posted_stakes=True, sources_dir="MicroGaming",
        not_compared={"rake": "the source's None; the file prints rake=\"0\" (cents), read as "
                              "0.00",
                      **NO_POT},
        # the source refuses hhversion="2" files; the hand itself reads and its chips add up
        contradicted={A + "MicroGaming/CashGame/ValidHandTests/InValidHand_1.txt":
                      "is_valid_hand"},
        # the header says 3|6, the hand posts 1/2 (the hero-name and seat tests)
        edited_stakes=frozenset({A + "MicroGaming/CashGame/GeneralHands/HeroName.txt"})),
    Family(
        "bossmedia", {"Boss Media": 33}, 42,
        # an edited sample: seat 1 was renamed '&&££ÖÖ' (HTML entities, read as such) while
        # its actions still name 'Player1'
        faults={(A + "BossMedia/CashGame/PlayerTests/StrangePlayerNames.txt", 1):
                "'Player1' acts but has no seat"},
        # edited samples (the source's street tests): a board card is dealt twice
        replay_errors={(A + "BossMedia/CashGame/StreetTests/River.txt", 1):
                       "card Kh is dealt twice",
                       (A + "BossMedia/CashGame/StreetTests/Turn.txt", 1):
                       "card 3s is dealt twice"},
        validated=36, posted_stakes=True, sources_dir="BossMedia",
        # the header says 2.00/4.00, the hand posts 2.50/5.00
        edited_stakes=frozenset({A + "BossMedia/CashGame/GeneralHands/HeroName.txt"})),
    Family(
        "igt", {"IGT": 19}, 19,
        # edited samples (the source's street tests): the later board does not repeat the
        # earlier one (the turn's four cards are not the flop's three and one more)
        faults={(A + "IGT/CashGame/StreetTests/River.txt", 1):
                "the board does not follow '6c As 8d Qd'",
                (A + "IGT/CashGame/StreetTests/Turn.txt", 1):
                "the board does not follow 'Ad 2h 8d'"},
        replay_errors={
            # the anonymised sample deals HERO the card PLAYER2 shows (6s; it also prints
            # every stack as 0.00, and PLAYER4, who folds putting in nothing, ends with 0.00
            # too: its stack cannot be known)
            (A + "IGT/CashGame/HandActionTests/AllInHandWithShowdown.txt", 1):
                "card 6s is dealt twice (PLAYER2's hand and HERO's hand)",
            # an edited sample (the source's table test): a board card is dealt twice
            (A + "IGT/CashGame/Tables/Table2.txt", 1): "card Ad is dealt twice"},
        validated=14, posted_stakes=True, sources_dir="IGT"),
]
EVERY_FILE = [(f, p) for f in FAMILIES for p in files_of(*f.files)]
READ_FILES = [(f, p) for f in FAMILIES for p in f.paths]


SOURCES = [(f, p, facts) for f in FAMILIES if f.sources_dir
           for p, facts in expected_of(f.sources_dir)]
ASSERTED = [(f, p, facts) for f in FAMILIES if f.asserted for p, facts in asserted(f.paths)]


def _ids(x: object) -> str | None:
    if isinstance(x, Family):
        return x.name
    return key(x) if isinstance(x, str) else None


def _reader(family: Family):
    return next(f for f in SITE_FORMATS if f.name == family.name)


@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_the_family_has_its_samples(family: Family) -> None:
    family.check_counts()


@pytest.mark.parametrize(("family", "path"), EVERY_FILE, ids=_ids)
def test_detected_by_its_reader_only(family: Family, path: str) -> None:
    assert detected_only_by(path, family.name) == []


@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_the_detector_takes_no_other_families_file(family: Family) -> None:
    mine = set(family.files)
    others = [p for p, e in index().items() if e["site"] not in mine]
    assert others
    detect = _reader(family).detect
    assert [key(p) for p in others if detect(head_of(p))] == list(family.also_detects)


@pytest.mark.parametrize(("family", "path"), READ_FILES, ids=_ids)
def test_every_hand_is_read_and_its_chips_add_up(family: Family, path: str) -> None:
    family.check_file(path)


@pytest.mark.parametrize("family", FAMILIES, ids=str)
def test_every_hand_through_the_replay(family: Family) -> None:
    family.check_replay()


@pytest.mark.parametrize(("family", "fmt"), [(f, fmt) for f in FAMILIES if f.round_trip
                                             for fmt in ("phh", "ohh")], ids=_ids)
def test_every_hand_reads_back_the_same_from_phh_and_ohh(family: Family, fmt: str) -> None:
    family.check_round_trip(fmt)


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.cut or f.mutate], ids=str)
def test_damaged_text_gives_errors_never_exceptions(family: Family) -> None:
    """Cut, dropped, doubled and garbled lines: each hand reads or is its SiteError."""
    read = _reader(family).read
    for text in family.damaged_texts():
        for _, rec in read(text, "damaged"):
            assert isinstance(rec, (SiteHand, SiteError))
            if isinstance(rec, SiteHand):
                try:
                    rec.check_chips()
                except SiteError:
                    pass


#: A hand's printed date made impossible (30 February, day 32, hour 25), by family: the
#: sample, the date as printed and the impossible one.
BAD_DATES = [
    ("888", A + "Pacific/CashGame/GeneralHands/GeneralHand.txt", "06 01 2014", "30 02 2014"),
    ("entraction", A + "Entraction/CashGame/GeneralHands/GeneralHand.txt",
     "2012-05-30 15:", "2012-05-30 25:"),
    ("ongame", A + "OnGame/CashGame/GeneralHands/GeneralHand.txt", "Jan 06", "Jan 32"),
    ("partypoker", A + "PartyPoker/CashGame/GeneralHands/GeneralHand.txt",
     "January 06,", "February 30,"),
    # these read the date as text: it passed on as an impossible ISO time
    ("ggpoker", A + "GGPoker/CashGame/GeneralHands/GeneralHand.txt", "2017/11/12", "2017/11/31"),
    ("winamax", A + "Winamax/CashGame/GeneralHands/GeneralHand.txt", "2013/10/24", "2013/02/29"),
    ("winning", A + "WinningPokerV2/CashGame/GeneralHands/GeneralHand.txt", "16:00:00",
     "24:00:00"),
    ("winning", A + "WinningPoker/CashGame/GeneralHands/GeneralHand.txt",
     "started at: 2014/3/9", "started at: 2014/3/32"),
    ("bovada", "hand-history-parser/extracted/bovada/HAND_NO_SMALL_BLIND.txt", "2022-05-26",
     "2022-13-26"),
]


@pytest.mark.parametrize(("name", "path", "date", "bad"), BAD_DATES,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD_DATES)])
def test_an_impossible_date_is_the_hands_error_and_the_next_hand_reads(
        name: str, path: str, date: str, bad: str) -> None:
    from site_samples import text_of

    good = text_of(path)
    assert good.count(date) == 1
    recs = [r for _, r in next(f for f in SITE_FORMATS if f.name == name).read(
        good.replace(date, bad) + "\n\n" + good, "x")]
    assert len(recs) == 2 and isinstance(recs[0], SiteError) and isinstance(recs[1], SiteHand)
    assert str(recs[0]).startswith("line ")


@pytest.mark.parametrize(("family", "path", "facts"), SOURCES, ids=_ids)
def test_the_sources_expected_values(family: Family, path: str, facts: dict) -> None:
    check_expected(path, facts, family.not_compared, family.contradicted)


@pytest.mark.parametrize(("family", "path", "facts"), ASSERTED, ids=_ids)
def test_the_values_the_sources_assert(family: Family, path: str, facts: dict) -> None:
    check_site_expected(recs_of(path), facts)
