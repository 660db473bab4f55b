"""Differential test of :mod:`simulate.engine` against pokerkit 0.7.7.

Random hands per betting structure (no-limit Hold'em, pot-limit Omaha, fixed-limit Hold'em,
fixed-limit Omaha hi/lo eight or better, and no-limit short deck against pokerkit's
``NoLimitShortDeckHoldem``: the 36-card deck, antes with a button blind half the time,
blinds otherwise), 2-9 seats, stacks from 1 to 300 big blinds (log-uniform, so short
stacks, all-ins and side pots are common), antes, big-blind antes and straddles, a random
button and scripted cards.
Both engines play the same random action sequence; at every step they must agree on the
actor, the stacks behind, and the legal set (fold, check, call amount, minimum and maximum
raise-to); at the end on the pots (amount and eligible seats) and the finishing stacks.

Where the cardroom rule the engine follows differs from pokerkit, the harness detects the
spot by an explicit rule below, leaves the differing fields out of that step's comparison,
keeps both engines on common ground (it never takes an action only one side allows), and
counts the spot. Each rule is asserted the cardroom way in tests/test_engine_rules.py:

``check_only``
    pokerkit gives a seat a turn (check only, no raise) when every other live seat is all
    in and its bet is already matched; the engine gives it no turn and runs the board out.
    The harness checks for pokerkit alone and asserts the engine's actor is someone else.
``check_first``
    The other way round: a seat whose bet is already the largest, when no other live seat
    could even call it, gets a check-only turn in the engine (it is its turn, and another
    seat still has chips) where pokerkit skips it (its effective stack is 0). Seen with
    posts: the poster acts after a big blind all in for less. The harness checks for the
    engine alone; no chips move.
``fl_cap``
    Fixed-limit before the flop pokerkit allows four raises after the big blind; the
    cardroom counts the big blind as the bet, so a bet and three raises (``max_raises=4``).
    The engine must refuse the raise; nobody raises.
``fl_heads_up``
    pokerkit caps a fixed-limit street with two players left too; the engine does not
    (``uncapped_heads_up=True``). Nobody raises past pokerkit's cap.
``straddle_min``
    Before the flop with a straddle pokerkit's minimum raise is the big blind on top of the
    straddle; the cardroom's straddle sets the minimum raise. Until a raise at least the
    straddle's size is made, the raise bounds are compared as "ours at least pokerkit's"
    and raises are drawn from the range both allow.
``short_open``
    pokerkit treats an all-in for less than a full raise that opens a street's wagering
    (before the flop: the first raise over the blinds, which it does not count as a bet)
    as a full wager, so it reopens the betting for players who already acted; the cardroom
    rule does not. While that is so, a seat pokerkit lets raise and the engine does not
    simply does not raise.
``cumulative_short``
    No-limit and pot-limit: all-in raises each short of a full raise that together make one
    reopen the betting for a player who already acted (TDA Rule 47; Robert's Rules); pokerkit
    looks at each raise alone. The engine lets that player raise and pokerkit does not;
    nobody raises there.
``fl_half_bet``
    Fixed-limit: all-in raises of half a bet or more count as a full raise for the
    cardroom (a player facing half a bet or more since acting may raise again); pokerkit
    reopens only for a full bet. Nobody raises where only the engine would allow it.
``fl_short_all_in``
    Fixed-limit: an all-in raise of less than half a bet is not a raise for the cardroom,
    so it does not count toward the cap; pokerkit counts it. Nobody raises past
    pokerkit's cap.
``fo8_betting``
    pokerkit 0.7.7's ``FixedLimitOmahaHoldemHighLowSplitEightOrBetter`` derives from its
    ``PotLimitPokerMixin``: it bets pot-limit (no cap, a pot-sized maximum) with the small
    and big bets as minimums. The harness plays fixed-limit Omaha hi/lo against that class
    with pokerkit's own ``FixedLimitPokerMixin`` put first (the betting its name says, as
    pokerkit's fixed-limit Hold'em has it), and pot-limit Omaha hi/lo against the class as
    it is, with both minimums the big blind (the engine's pot-limit minimum bet).
``short_blind``
    A big blind (or straddle) posted short by a player all in on it: the cardroom's players
    still call the full blind, and a pot-limit opener raises as if it were posted in full
    (Robert's Rules, rules for using blinds 1); pokerkit lowers the bet to the chips the
    blind put in. While nobody has bet the full blind, the legal sets differ; the harness
    compares none of it, and takes a fold or a raise both allow (a raise at least the
    engine's minimum puts both on the same bets again), else stops the hand there. After
    such a raise the street's raise sizes differ (the engine measures the raise from the
    full blind): the raise bounds are compared no more and raises drawn from both ranges.
``odd_chips``
    pokerkit gives all the odd chips of a split pot to the first winner left of the button;
    the cardroom rule gives them one at a time to the winners in that order. The harness
    moves pokerkit's odd chips to the cardroom seats before comparing the stacks (hi/lo:
    each pot halved on its own, the odd chip to the high half, then each half so).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from dataclasses import dataclass

import pytest
from helpers import quick_first
from pokerkit import (
    Automation,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    FixedLimitTexasHoldem,
    NoLimitShortDeckHoldem,
    NoLimitTexasHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit.games import FixedLimitPokerMixin

from simulate.engine import Hand, Rules

#: pokerkit's Omaha hi/lo with the fixed-limit betting of its name (``fo8_betting`` above).
FixedLimitOmahaHiLo = type("FixedLimitOmahaHiLo", (
    FixedLimitPokerMixin, FixedLimitOmahaHoldemHighLowSplitEightOrBetter), {})

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]

# pokerkit does the chores; the cards (hole, burns, board), the showdown and the chip pushes
# stay manual so the harness deals the scripted cards and reads the pots before any hand is
# mucked (pokerkit drops a mucked seat from its pots' eligible players).
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CHIPS_PULLING,
)

#: structure: (betting, game, hole cards)
STRUCTURES = {
    "no-limit": ("no-limit", "holdem", 2),
    "pot-limit": ("pot-limit", "omaha", 4),
    "fixed-limit": ("fixed-limit", "holdem", 2),
    "short-deck": ("no-limit", "short_deck", 2),
    "fixed-limit-hilo": ("fixed-limit", "omaha_hilo", 4),
    "pot-limit-hilo": ("pot-limit", "omaha_hilo", 4),
}
SHORT_DECK = [c for c in DECK if c[0] not in "2345"]
DEFAULT_SEQUENCES = 1000
# The soak run's further sequences per structure (other seeds than the default run's, which
# CI's slow set plays): pokerkit's state machine takes most of the time (about 30 ms a hand
# for Omaha hi/lo on a 2-core machine), so 2,000 more per structure cost about 170 s, more
# than CI's budget allows (`pytest -m soak` plays them on demand).
SLOW_SEQUENCES = 2000


@dataclass
class Setup:
    """One random hand: the table, the forced bets and the scripted cards (seats clockwise)."""

    betting: str
    game: str
    blinds: tuple[int, int]
    ante: int
    bb_ante: bool
    straddles: tuple[int, ...]
    stacks: list[int]
    button: int
    hole: list[str]
    board: str
    posts: tuple[int, ...] = ()  # per seat from the button's left (PHH's negative blinds)
    button_blind: bool = False  # short deck: blinds (0, B), the button posts B

    @property
    def n(self) -> int:
        return len(self.stacks)

    def rules(self) -> Rules:
        return Rules(game=self.game, betting=self.betting, blinds=self.blinds, ante=self.ante,
                     bb_ante=self.bb_ante, straddles=self.straddles, posts=self.posts,
                     button_blind=self.button_blind)


def random_setup(rng: random.Random, structure: str, posts: bool = False) -> Setup:
    betting, game, n_hole = STRUCTURES[structure]
    n = rng.randint(2, 9)
    sb, bb = rng.choice([(1, 2), (1, 2), (2, 4), (5, 10), (2, 5)])
    if game == "short_deck" and rng.random() < 0.5:  # antes and a button blind (Triton's)
        a = rng.choice([1, 2, 5])
        sb, bb = 0, rng.choice([a, 2 * a])
        stacks = [rng.randint(1, 2 * bb) if rng.random() < 0.125
                  else max(1, round(bb * math.exp(rng.uniform(0.0, math.log(300)))))
                  for _ in range(n)]
        cards = rng.sample(SHORT_DECK, n * n_hole + 5)
        return Setup(betting, game, (sb, bb), a, False, (), stacks, rng.randrange(n),
                     ["".join(cards[i * 2:i * 2 + 2]) for i in range(n)],
                     "".join(cards[n * 2:]), button_blind=True)
    # 1..300 big blinds, log-uniform (so all-ins and side pots are common), and one seat in
    # eight with at most two big blinds in chips (all in on the blinds, short first raises)
    stacks = [rng.randint(1, 2 * bb) if rng.random() < 0.125
              else max(1, round(bb * math.exp(rng.uniform(0.0, math.log(300)))))
              for _ in range(n)]
    ante, bb_ante = 0, False
    u = rng.random()
    if u < 0.25:
        ante = rng.choice([1, max(1, bb // 2), bb // 4 or 1])
    elif u < 0.4:
        ante, bb_ante = bb, True
    straddles: tuple[int, ...] = ()
    if betting != "fixed-limit" and n >= 4 and rng.random() < 0.15 and game != "short_deck":
        straddles = (2 * bb,) if n == 4 or rng.random() < 0.7 else (2 * bb, 4 * bb)
    if game == "holdem" and rng.random() < 0.05:
        # a straight flush on the board: everyone plays it, so pots split many ways
        top, suit = rng.randrange(3, 13), rng.choice(SUITS)
        board_cards = [RANKS[(top - k) % 13] + suit for k in range(5)]  # wheel wraps to A
        rng.shuffle(board_cards)
        rest = rng.sample([c for c in DECK if c not in board_cards], n * n_hole)
        cards = rest + board_cards
    else:
        cards = rng.sample(SHORT_DECK if game == "short_deck" else DECK, n * n_hole + 5)
    hole = ["".join(cards[i * n_hole:(i + 1) * n_hole]) for i in range(n)]
    board = "".join(cards[n * n_hole:])
    button = rng.randrange(n)
    post_seats: tuple[int, ...] = ()
    if posts:  # drawn last: the hands without posts are those of the other tests
        free = list(range(2 + len(straddles), n))
        if free:
            k = rng.randint(1, min(3, len(free)))
            amounts = [rng.choice([bb, bb, bb, sb, 2 * bb]) for _ in range(k)]
            chosen = dict(zip(rng.sample(free, k), amounts, strict=True))
            post_seats = tuple(chosen.get(i, 0) for i in range(n))
    return Setup(betting, game, (sb, bb), ante, bb_ante, straddles, stacks,
                 button, hole, board, post_seats)


_MEMO: dict[type, type] = {}


def _memoized(hand_type: type) -> type:
    """``hand_type`` with ``from_game`` remembered per (hole, board): the same answers, once.

    pokerkit evaluates each showdown hand many times over (every seat against every other
    while deciding who may muck, then again per pot); Omaha's 60 combinations make that the
    bulk of the harness's time.
    """
    if hand_type not in _MEMO:
        cache: dict = {}
        base = hand_type.from_game.__func__

        def from_game(cls, hole_cards, board_cards=()):
            key = (tuple(hole_cards), tuple(board_cards))
            hand = cache.get(key)
            if hand is None:
                hand = cache[key] = base(cls, key[0], key[1])
            return hand

        _MEMO[hand_type] = type(hand_type.__name__, (hand_type,), {
            "from_game": classmethod(from_game),
            "entry": functools.cached_property(hand_type.entry.fget),
        })
    return _MEMO[hand_type]


class PokerkitHand:
    """pokerkit's state for a :class:`Setup`, seen in the engine's seat numbering.

    pokerkit numbers players from the small blind (heads-up: from the big blind), i.e. its
    player ``i`` is our seat ``button + 1 + i``; its antes and blinds are given by position
    (index 1 is the big blind's, heads-up included).
    """

    def __init__(self, s: Setup):
        n = s.n
        self.setup = s
        self.seat_of = [(s.button + 1 + i) % n for i in range(n)]
        self.index_of = {seat: i for i, seat in enumerate(self.seat_of)}
        antes = {1: s.ante} if s.bb_ante else s.ante
        forced = s.blinds + tuple(s.straddles)
        if s.button_blind:  # pokerkit's {-1: B}: the last player, the button (heads-up too)
            forced = (0,) * (n - 1) + (s.blinds[1],)
        if any(s.posts):  # PHH's and pokerkit's post: a negative blind
            forced = tuple(-p if p else (forced[i] if i < len(forced) else 0)
                           for i, p in enumerate(s.posts))
        stacks = [s.stacks[seat] for seat in self.seat_of]
        bb = s.blinds[1]
        if s.game == "short_deck":
            self.state = NoLimitShortDeckHoldem.create_state(AUTOMATIONS, False, antes, forced,
                                                             bb, stacks, n)
        elif s.game == "omaha_hilo":
            fixed = s.betting == "fixed-limit"
            cls = FixedLimitOmahaHiLo if fixed else FixedLimitOmahaHoldemHighLowSplitEightOrBetter
            self.state = cls.create_state(AUTOMATIONS, False, antes, forced, bb,
                                          2 * bb if fixed else bb, stacks, n)
        elif s.betting == "no-limit":
            self.state = NoLimitTexasHoldem.create_state(AUTOMATIONS, False, antes, forced, bb,
                                                         stacks, n)
        elif s.betting == "pot-limit":
            self.state = PotLimitOmahaHoldem.create_state(AUTOMATIONS, False, antes, forced, bb,
                                                          stacks, n)
        else:
            fl = (FixedLimitOmahaHoldemHighLowSplitEightOrBetter if s.game == "omaha_hilo"
                  else FixedLimitTexasHoldem)
            self.state = fl.create_state(AUTOMATIONS, False, antes, forced, bb, 2 * bb, stacks,
                                         n)
        self.state.hand_types = tuple(_memoized(t) for t in self.state.hand_types)
        self._hole = [[s.hole[seat][k:k + 2] for k in range(0, len(s.hole[seat]), 2)]
                      for seat in self.seat_of]
        self._board = [s.board[k:k + 2] for k in range(0, 10, 2)]
        self._board_next = 0
        self.pots: list[tuple[int, tuple[int, ...]]] | None = None
        self.pushes: list[tuple[int, ...]] = []
        self.showdown = False
        self.shown: dict[int, tuple] = {}
        self.last_bets: list[int] = []
        self.advance()

    # -- the chores pokerkit leaves to the harness
    def advance(self) -> None:
        st = self.state
        while st.status and st.actor_index is None:
            if st.can_deal_hole():  # a player's cards in one go (the order is not compared)
                i = st.hole_dealee_index
                st.deal_hole("".join(self._hole[i][len(st.hole_cards[i]):]))
            elif st.can_burn_card():
                st.burn_card("??")
            elif st.can_deal_board():
                k = st.board_dealing_count
                st.deal_board("".join(self._board[self._board_next:self._board_next + k]))
                self._board_next += k
            elif st.can_show_or_muck_hole_cards():
                if not self.showdown:  # before any hand is mucked or killed
                    self._snapshot_pots()
                    self.showdown = True
                    self.shown = {i: tuple(st.hole_cards[i]) for i in range(st.player_count)
                                  if st.statuses[i]}
                st.show_or_muck_hole_cards(True)  # every hand is shown: cards speak
            elif st.can_kill_hand():
                st.kill_hand()
            elif st.can_push_chips():
                self._snapshot_pots()
                self.pushes.append(st.push_chips().amounts)
            else:
                raise AssertionError(f"pokerkit is stuck: {st.operations[-1:]}")

    def _snapshot_pots(self) -> None:
        if self.pots is None:
            self.pots = [(p.amount, tuple(sorted(self.seat_of[i] for i in p.player_indices)))
                         for p in self.state.pots]

    # -- what the engine is compared on
    @property
    def actor(self) -> int | None:
        i = self.state.actor_index
        return None if i is None else self.seat_of[i]

    def legal(self) -> tuple:
        st = self.state
        ca = st.checking_or_calling_amount
        return (st.can_fold(), ca == 0, ca if ca else None,
                st.min_completion_betting_or_raising_to_amount,
                st.max_completion_betting_or_raising_to_amount)

    def stacks(self) -> list[int]:
        return [self.state.stacks[self.index_of[seat]] for seat in range(self.setup.n)]

    def live(self) -> int:
        return sum(self.state.statuses)

    def others_all_in(self) -> bool:
        """Every live seat but the actor has no chips behind."""
        st = self.state
        a = st.actor_index
        return all(not st.stacks[i] for i in range(st.player_count) if i != a and st.statuses[i])

    # -- actions
    def fold(self) -> None:
        st = self.state
        self.last_bets = [st.bets[self.index_of[seat]] for seat in range(self.setup.n)]
        st.fold()
        self.advance()

    def check_or_call(self) -> None:
        self.state.check_or_call()
        self.advance()

    def raise_to(self, total: int) -> None:
        self.state.complete_bet_or_raise_to(total)
        self.advance()

    def cardroom_finishing_stacks(self) -> tuple[list[int], bool]:
        """Finishing stacks with every split pot's odd chips dealt the cardroom way.

        pokerkit gives the whole remainder of a split to the first winner left of the button,
        and it splits pots again after the losers' hands are killed, so two pots with the same
        winners are split as one. The cardroom rule splits each pot (as formed before the
        showdown) on its own, the odd chips one at a time to its winners from the seat left
        of the button. Here pokerkit's own pots and hand ranking are settled that way; returns
        the stacks (by our seats) and whether they differ from pokerkit's.
        """
        st = self.state
        final = list(st.stacks)
        if not self.showdown:
            return [final[self.index_of[seat]] for seat in range(self.setup.n)], False
        stacks = [x - sum(p[i] for p in self.pushes) for i, x in enumerate(final)]
        board = list(st.get_board_cards(0))
        hands = {i: st.hand_types[0].from_game(cards, board) for i, cards in self.shown.items()}
        lows = {i: _low_or_none(st.hand_types[1], cards, board)
                for i, cards in self.shown.items()} if len(st.hand_types) > 1 else {}

        def deal(chips: int, elig: list[int], values: dict) -> None:
            best = max(values[i] for i in elig)
            winners = [i for i in elig if values[i] == best]
            share, odd = divmod(chips, len(winners))
            for k, i in enumerate(winners):
                stacks[i] += share + (k < odd)

        for amount, seats in self.pots or []:
            elig = sorted(self.index_of[seat] for seat in seats)  # pokerkit order = odd-chip order
            with_low = [i for i in elig if lows.get(i) is not None]
            if with_low:  # hi/lo: the high half takes the odd chip
                deal(amount - amount // 2, elig, hands)
                deal(amount // 2, with_low, lows)
            else:
                deal(amount, elig, hands)
        assert sum(stacks) == sum(final)
        return [stacks[self.index_of[seat]] for seat in range(self.setup.n)], stacks != final


def _low_or_none(low_type: type, cards, board):
    """pokerkit's eight-or-better low of a shown hand, or None when it has none."""
    try:
        return low_type.from_game(cards, board)
    except ValueError:
        return None


def short_forced(s: Setup) -> bool:
    """Whether a blind or straddle of ``s`` is posted short (its seat all in on it)."""
    n = s.n
    if s.button_blind:
        seats = [(s.button, s.blinds[1])] if n > 2 else [((s.button + 1) % n, s.blinds[1])]
    else:
        sb = s.button if n == 2 else (s.button + 1) % n
        seats = [(sb, s.blinds[0]), ((sb + 1) % n, s.blinds[1])]
        seats += [((sb + 2 + k) % n, x) for k, x in enumerate(s.straddles)]
    bb_seat = seats[-1 - len(s.straddles)][0]
    for seat, amount in seats:
        ante = s.ante if not s.bb_ante or seat == bb_seat else 0
        if amount and s.stacks[seat] - ante < amount:
            return True
    return False


def ours_legal(h: Hand) -> tuple:
    lg = h.legal
    return (bool(lg.fold), bool(lg.check), lg.call, lg.min_raise_to, lg.max_raise_to)


def merged_pots(pots: list[tuple[int, tuple[int, ...]]]) -> list[tuple[int, tuple[int, ...]]]:
    """Pots with nothing in them dropped and neighbours with the same eligible seats merged."""
    out: list[tuple[int, tuple[int, ...]]] = []
    for amount, elig in pots:
        if amount == 0:
            continue
        if out and out[-1][1] == elig:
            out[-1] = (out[-1][0] + amount, elig)
        else:
            out.append((amount, elig))
    return out


FIELDS = ("fold", "check", "call", "min_raise_to", "max_raise_to")


def play_one(seed: int, structure: str, spots: Counter, posts: bool = False) -> None:
    """Play one random hand through both engines; assert agreement; count the rule spots.
    ``posts``: some seats after the blinds post (a live bet to play at once)."""
    rng = random.Random(seed)
    s = random_setup(rng, structure, posts)
    spots["button_blind"] += s.button_blind
    if any(s.posts):
        spots["posts"] += 1
    ours = Hand(s.rules(), list(s.stacks), button=s.button, hole=list(s.hole), board=s.board)
    pk = PokerkitHand(s)
    bb = s.blinds[1]
    fixed = s.betting == "fixed-limit"
    straddle_size = s.straddles[-1] if s.straddles else 0
    street = -1
    short_blind_raised = False  # short_blind: a raise over a short blind this street
    short_open = False  # pokerkit took a short all-in that opened the street as a full wager
    short_raises = 0  # fixed-limit: all-in raises of less than half a bet (pokerkit counts them)
    acted_at: dict[int, int] = {}  # this street: the bet level each seat last acted at
    last_full = last_full_size = 0  # this street: the level and size of the last full raise
    history: list[str] = []

    def bet_size(street: int) -> int:
        return bb if street < 2 else 2 * bb

    def where() -> str:
        return f"seed {seed}: {s} after {' '.join(history) or 'no action'}"

    while True:
        st = pk.state
        if st.street_index != street:
            street, short_open, short_raises = st.street_index, False, 0
            short_blind_raised = False
            acted_at, last_full, last_full_size = {}, 0, 0
        preflop = street == 0
        b = pk.legal() if pk.actor is not None else None
        if b is not None and b[1] and b[3] is None and pk.others_all_in():
            # check_only: pokerkit's check-only turn; the engine gives none
            assert ours.actor != pk.actor, f"engine gave a check-only turn; {where()}"
            spots["check_only"] += 1
            history.append(f"[pk check s{pk.actor}]")
            pk.check_or_call()
            continue
        if ours.actor is not None and ours.actor != pk.actor \
                and ours_legal(ours) == (False, True, None, None, None):
            # check_first: the engine's check-only turn that pokerkit skips (no other live
            # seat can even call the seat's bet: pokerkit's effective stack is 0)
            spots["check_first"] += 1
            history.append(f"[check s{ours.actor}]")
            ours.check()
            continue
        assert ours.actor == pk.actor, f"actor {ours.actor} != pokerkit {pk.actor}; {where()}"
        if ours.actor is None:
            break
        assert list(ours.stacks) == pk.stacks(), f"stacks; {where()}"
        a = ours_legal(ours)
        if preflop and a != b and (max(st.bets) < max(bb, straddle_size) or (
                s.betting == "pot-limit" and st.completion_betting_or_raising_count == 0
                and short_forced(s))):
            # short_blind: the engine's bet is the full blind, pokerkit's the chips posted
            spots["short_blind"] += 1
            lo, hi = max(a[3] or 0, b[3] or 0), min(a[4] or 0, b[4] or 0)
            if a[0] and b[0] and (rng.random() < 0.4 or lo > hi or a[3] is None or b[3] is None):
                history.append(f"s{ours.actor} f")
                ours.fold()
                pk.fold()
                continue
            if a[3] is None or b[3] is None or lo > hi:
                spots["hands"] += 1  # no common action: the hand's comparison ends here
                return
            to = rng.randint(lo, hi)
            short_blind_raised = True
            history.append(f"s{ours.actor} cbr {to}")
            acted_at[ours.actor] = last_full = to
            last_full_size = to - max(st.bets)
            ours.raise_to(to)
            pk.raise_to(to)
            continue
        raise_ok = a[3] is not None
        lo, hi = a[3], a[4]
        spot = None
        count = st.completion_betting_or_raising_count
        if fixed and preflop and a[3] is None and b[3] is not None and count == 3 \
                and pk.live() > 2:
            spot = "fl_cap"
        elif fixed and a[3] is not None and b[3] is None and pk.live() == 2 \
                and count == st.street.max_completion_betting_or_raising_count:
            spot, raise_ok = "fl_heads_up", False
        elif fixed and a[3] is not None and b[3] is None and a[2] is not None \
                and 2 * a[2] >= bet_size(street) > a[2] \
                and count < st.street.max_completion_betting_or_raising_count:
            spot, raise_ok = "fl_half_bet", False
        elif fixed and short_raises and a[3] is not None and b[3] is None \
                and count == st.street.max_completion_betting_or_raising_count:
            spot, raise_ok = "fl_short_all_in", False
        elif preflop and straddle_size and st.completion_betting_or_raising_amount < straddle_size \
                and a[3] is not None and b[3] is not None and (a[3], a[4]) != (b[3], b[4]):
            spot = "straddle_min"
            assert a[3] >= b[3], f"straddle minimum below pokerkit's; {where()}"
            lo, hi = max(a[3], b[3]), min(a[4], b[4])
            raise_ok = lo <= hi
        elif short_blind_raised and (a[3], a[4]) != (b[3], b[4]):
            spot = "short_blind"
            lo, hi = max(a[3] or 0, b[3] or 0), min(a[4] or 0, b[4] or 0)
            raise_ok = a[3] is not None and b[3] is not None and lo <= hi
        elif short_open and a[3] is None and b[3] is not None:
            spot = "short_open"
        elif not fixed and a[3] is not None and b[3] is None and ours.actor in acted_at \
                and last_full <= acted_at[ours.actor] \
                and max(st.bets) - acted_at[ours.actor] >= max(
                    last_full_size, max(bb, straddle_size) if preflop else bb):
            spot, raise_ok = "cumulative_short", False
        skip = () if spot is None else ("min_raise_to", "max_raise_to")
        if spot is not None:
            spots[spot] += 1
        for name, x, y in zip(FIELDS, a, b, strict=True):
            if name not in skip:
                assert x == y, f"{name}: engine {a} pokerkit {b} (seat {ours.actor}); {where()}"

        # an action both allow
        acted_at[ours.actor] = max(st.bets)
        u = rng.random()
        if u < 0.2 and a[0]:
            history.append(f"s{ours.actor} f")
            ours.fold()
            pk.fold()
        elif u < 0.7 or not raise_ok:
            history.append(f"s{ours.actor} cc")
            ours.check() if a[1] else ours.call()
            pk.check_or_call()
        else:
            v = rng.random()
            to = lo if v < 0.4 else hi if v < 0.7 else rng.randint(lo, hi)
            seat = ours.actor
            before_max = max(st.bets)
            first = count == 0
            history.append(f"s{seat} cbr {to}")
            ours.raise_to(to)
            pk.raise_to(to)
            size = to - before_max
            all_in = pk.stacks()[seat] == 0
            if fixed:
                bet = bet_size(street)
                if size >= bet:
                    short_open = False
                elif all_in and 2 * size < bet:
                    short_open = short_open or first
                    short_raises += 1
            else:
                full = max(bb, straddle_size) if preflop else bb
                acted_at[seat] = to
                if size >= max(full, last_full_size):
                    last_full, last_full_size = to, size
                if size >= full:
                    short_open = False
                elif all_in and first:
                    short_open = True

    assert ours.done and not pk.state.status, f"hand not over; {where()}"
    got = merged_pots([(p.amount, tuple(sorted(p.eligible))) for p in ours.pots])
    want_pots = merged_pots(pk.pots or [])
    if not pk.showdown:
        # won without a showdown: pokerkit pulls the winner's own last-street bet back
        # instead of putting its called part in the pot; add that part back
        (w,) = [seat for seat in range(s.n) if pk.state.statuses[pk.index_of[seat]]]
        assert pk.last_bets, where()
        bets = pk.last_bets
        matched = min(bets[w], max(x for seat, x in enumerate(bets) if seat != w))
        want_pots = [(sum(x for x, _ in want_pots) + matched, (w,))]
    assert got == want_pots, f"pots {got} vs pokerkit {want_pots}; {where()}"
    want, moved = pk.cardroom_finishing_stacks()
    if moved:
        spots["odd_chips"] += 1
    assert list(ours.finishing_stacks) == want, \
        f"finishing stacks {list(ours.finishing_stacks)} vs {want}; {where()}"
    assert sum(want) == sum(s.stacks)
    spots["hands"] += 1


def run_many(structure: str, count: int, seed_step: int, posts: bool = False) -> Counter:
    """Play ``count`` hands of ``structure`` (seeds on from ``seed_step`` times one plus its
    place in :data:`STRUCTURES`, so each test and structure has its own) and check that every
    one was played; returns the spots met."""
    base_seed = seed_step * (1 + list(STRUCTURES).index(structure))
    spots: Counter = Counter()
    for i in range(count):
        play_one(base_seed + i, structure, spots, posts)
    assert spots["hands"] == count
    return spots


# the spots each structure's default run must meet at least once (so no rule is dead code)
EXPECTED_SPOTS = {
    "no-limit": ("check_only", "straddle_min", "short_open", "odd_chips", "short_blind"),
    "pot-limit": ("check_only", "straddle_min", "short_open", "short_blind"),
    "fixed-limit": ("check_only", "fl_cap", "fl_heads_up", "fl_half_bet", "odd_chips",
                    "short_blind"),
    "short-deck": ("check_only", "short_open", "odd_chips", "button_blind"),
    "fixed-limit-hilo": ("check_only", "fl_cap", "fl_heads_up", "fl_half_bet", "odd_chips"),
    "pot-limit-hilo": ("check_only", "straddle_min", "short_open", "odd_chips"),
}


@pytest.mark.slow
@pytest.mark.parametrize("betting", list(STRUCTURES))
def test_engine_agrees_with_pokerkit(betting):
    spots = run_many(betting, DEFAULT_SEQUENCES, seed_step=1_000_000)
    for name in EXPECTED_SPOTS[betting]:
        assert spots[name] > 0, (name, spots)


@pytest.mark.soak
@pytest.mark.parametrize("betting", list(STRUCTURES))
def test_engine_agrees_with_pokerkit_slow(betting):
    run_many(betting, SLOW_SEQUENCES, seed_step=50_000_000)


@pytest.mark.parametrize("betting", quick_first(["no-limit", "pot-limit", "fixed-limit"]))
def test_engine_agrees_with_pokerkit_on_posts(betting):
    """Posts (``blinds_or_straddles`` entries below zero, e.g. ``[5, 10, 0, -10, 0]``) in one
    to three seats after the blinds and straddles: the same actors, legal actions, pots and
    finishing stacks as pokerkit."""
    spots = run_many(betting, 300, seed_step=7_000_000, posts=True)
    assert spots["posts"] > 150, spots


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting_unlike_pokerkit():
    """TDA Rule 47 (cumulative short all-ins): after s4's raise to 11 (a raise of 7), s0's
    all-in to 15 and s1's to 18 together raise 7 over what s6 called, so s6 may raise again;
    pokerkit looks at each short raise alone and does not let it."""
    s = Setup(betting="no-limit", game="short_deck", blinds=(2, 4), ante=0, bb_ante=False,
              straddles=(), stacks=[15, 18, 40, 33, 19, 8, 30], button=1,
              hole=["QsKc", "9dQc", "8hKd", "Kh9s", "7sKs", "Td9h", "7hTc"],
              board="Qh8dQdAhTh", posts=(), button_blind=False)
    ours = Hand(s.rules(), list(s.stacks), button=s.button, hole=list(s.hole), board=s.board)
    pk = PokerkitHand(s)
    for seat, to in [(4, 11), (5, None), (6, None), (0, 15), (1, 18), (2, None), (3, None),
                     (4, 19)]:
        assert ours.actor == pk.actor == seat
        if to is None:
            ours.call()
            pk.check_or_call()
        else:
            ours.raise_to(to)
            pk.raise_to(to)
    assert ours.actor == pk.actor == 6
    assert ours_legal(ours)[3:] == (26, 30)  # reopened: a raise to 26 (19 + 7) up to all in
    assert pk.legal()[3:] == (None, None)  # pokerkit: call or fold only


def test_a_big_blind_all_in_for_less_is_called_in_full_unlike_pokerkit():
    """short_blind: the big blind is all in for 30 of 100; the cardroom's first player calls
    the full 100 (raise to 200 at least), pokerkit's calls 50, up to the small blind."""
    s = Setup(betting="no-limit", game="holdem", blinds=(50, 100), ante=0, bb_ante=False,
              straddles=(), stacks=[1000, 1000, 30, 1000], button=0,
              hole=["AcAd", "KcKd", "QcQd", "JcJd"], board="2h7s9d3c4h")
    assert short_forced(s)
    ours = Hand(s.rules(), list(s.stacks), button=s.button, hole=list(s.hole), board=s.board)
    pk = PokerkitHand(s)
    assert ours.actor == pk.actor == 3
    assert ours_legal(ours)[2:4] == (100, 200)
    assert pk.legal()[2:4] == (50, 150)


def test_a_fold_facing_a_check_is_binding_in_a_record_unlike_pokerkit():
    """TDA "Non-Standard Folds": the big blind folding its option (nothing to call) is a
    binding fold, which a replayed record takes; pokerkit refuses it."""
    from pokerkit import NoLimitTexasHoldem as NT

    st = NT.create_state(AUTOMATIONS, False, 0, (1, 2), 2, (100, 100, 100), 3)
    for cards in ("AcAd", "KcKd", "QcQd"):
        st.deal_hole(cards)
    st.check_or_call()
    st.check_or_call()
    assert st.checking_or_calling_amount == 0 and not st.can_fold()
    with pytest.raises(ValueError, match="no reason"):
        st.fold()
    ours = Hand(Rules(), [100, 100, 100], button=2, deal="manual")
    for seat, cards in enumerate(("AcAd", "KcKd", "QcQd"), 1):
        ours.act(f"d dh p{seat} {cards}")
    ours.act("p3 cc")
    ours.act("p1 cc")
    assert ours.legal.check and not ours.legal.fold
    ours.act("p2 f")
    assert ours.live == [True, False, True]


def test_a_history_pokerkit_writes_with_its_check_only_turn_replays_without_it():
    """pokerkit gives a seat a check-only turn when every other live seat is all in (the
    engine runs the board out, ``check_only`` above) and writes it as ``pN cc``; a replay
    leaves that check out, says so in ``repairs``, and ends where pokerkit ends (it refused
    the history: 'no player is to act')."""
    from pokerkit import HandHistory

    from simulate.notation import parse_text
    from simulate.replay.hand_replay import replay

    text = """variant = 'NT'
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [2, 5, 0, 0, 0]
min_bet = 5
starting_stacks = [7, 11, 526, 12, 73]
actions = ['d dh p1 4d8d', 'd dh p2 9hJh', 'd dh p3 Kh7s', 'd dh p4 Td3c', 'd dh p5 2cKd',
  'p3 cbr 10', 'p4 cc', 'p5 cc', 'p1 cc', 'p2 cbr 11', 'p3 f', 'p4 cc', 'p5 cc',
  'd db QhTs6h', 'p4 f', 'p5 cc', 'p1 sm 4d8d', 'p2 sm 9hJh', 'p5 sm 2cKd', 'd db 2d',
  'd db 3h']
"""
    *_, pk = HandHistory.loads(text)
    assert list(pk.stacks) == [0, 50, 516, 1, 62]
    ((_, hh),) = parse_text(text)
    doc = replay(hh).to_dict()
    assert doc["error"] is None and doc["finishing_stacks"] == [0, 50, 516, 1, 62]
    assert doc["repairs"] == ["'p5 cc' (action 16) left out: a check with no turn to take, "
                              "every other live seat all in (pokerkit's check-only turn)"]
    # a check with no turn while another live seat has chips is refused as before
    bad = text.replace("'p4 f', 'p5 cc'", "'p4 cc', 'p5 cc', 'p5 cc'")
    ((_, hh),) = parse_text(bad)
    assert replay(hh).to_dict()["error"] is not None
