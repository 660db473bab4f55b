"""The hand engine's state layout: the fields of ``S``, the per-seat statuses, action
kinds, error codes, the :func:`simulate._kernels.engine.legal` slots and the byte layout of a
:class:`simulate.engine.Hand`'s buffer. Constants only: the rules
(:mod:`simulate._kernels.engine`), the pots (:mod:`simulate._kernels.pots`) and the deals
(:mod:`simulate._kernels.boards`) all read ``S`` by these names.

``S``: ``ndarray[STATE_SIZE] int64``, a header of scalar fields followed by per-seat
sections of :data:`MAXS` entries each (``STACK + s``, ``BET + s``, ...).
"""

from __future__ import annotations

MAXS = 10  # seats
MAXH = 6  # hole cards per seat
UNKNOWN = 255  # a card not known (manual deals)

# ---- header fields of S
N = 0  # seats in the hand
BUTTON = 1
STREET = 2  # 0 preflop, 1 flop, 2 turn, 3 river, 4 showdown, 5 done (won without showdown)
ACTOR = 3  # seat to act, -1 none
BETLEVEL = 4  # the street's highest bet
MININC = 5  # size of the last full bet or raise of the street (the minimum raise)
NRAISES = 6  # bets and raises on the street that count toward a fixed-limit cap
AGGR = 7  # last seat to bet or raise on this street (-1 none)
BETTING = 8  # 0 no-limit, 1 pot-limit, 2 fixed-limit
NHOLE = 9  # hole cards per seat
GAME = 10  # 0 hold'em, 1 omaha (two plus three), HILO_GAME: omaha hi/lo eight or better
SB = 11
BB = 12
ANTE = 13
BBANTE = 14  # 1: the big blind posts the ante alone
SMALLBET = 15
BIGBET = 16
MAXRAISES = 17
UNCAPPED = 18  # 1: no cap while only two players are left
MODE = 19  # 0: cards from the deck array, 1: manual (deals come as actions: a table's record,
# where a fold with nothing to call is taken as the binding fold it was, TDA "Non-Standard Folds")
NBOARD = 20  # board cards dealt
NEED = 21  # manual mode: board cards awaited before the street can start (0 none)
DPOS = 22  # next deck position
NSTRAD = 23  # straddles posted after the big blind
STRAD0 = 24  # ..31: straddle amounts
MAXSTRAD = 8
NACTIONS = 32  # betting actions taken (for information)
DEAD = 33  # antes posted: dead money in the main pot
DISCAT = 34  # Pineapple: 1 + the street after whose betting every live seat discards (0 none)
DISCING = 35  # 1 while the discards are being made (the actor is the next seat to discard)
NLIVE = 36  # seats holding cards (not OUT), kept up to date by start/_post/act
NACTIVE = 37  # seats ACTIVE (holding cards and chips)
NPOST = 38  # positions (from the button's left) that POST0.. holds: posts, read by start
BTNBLIND = 39  # 1: a button blind (short deck): the button posts BB, nobody SB (heads-up:
# the other seat, as Hold'em's heads-up blinds swap); the seat after it acts first
POST0 = 40  # ..49: per position from the button's left, a post (a live bet; 0 none)
DECKLOW = 50  # the lowest card id of the deck: 0, or 16 in short deck (the 36 from the six)
SHORTFALL = 51  # chips the blinds and straddles were posted short of their full amounts (a
# seat all in on its blind): the pot-limit opener's pot counts them (Robert's Rules)
HEADER = 52
HILO_GAME = 2  # S[GAME] of a high/low split game (Omaha eight or better)

STACK = HEADER
BET = STACK + MAXS
COMM = BET + MAXS  # blinds and bets put in this hand (this street's included; antes apart)
STAT = COMM + MAXS
ACTED = STAT + MAXS
HOLEN = ACTED + MAXS  # hole cards dealt to each seat
ANTEP = HOLEN + MAXS  # ante posted by each seat
STATE_SIZE = ANTEP + MAXS

OUT = 0
ACTIVE = 1
ALLIN = 2

NO_LIMIT = 0
POT_LIMIT = 1
FIXED_LIMIT = 2

# action kinds
FOLD = 0
CHECK = 1
CALL = 2
CHECK_CALL = 3
RAISE = 4

# error codes of act() (and reasons a raise is not allowed, from raise_bounds())
OK = 0
E_NO_ACTOR = 1  # nobody to act: the hand is over or waits for a deal
E_FOLD = 2  # nothing to call (check instead); manual mode takes such a fold (a record's)
E_CHECK = 3  # facing a bet
E_CALL = 4  # nothing to call
E_BELOW_MIN = 5
E_ABOVE_MAX = 6
E_RAISE_SHORT = 7  # the stack does not cover more than a call
E_RAISE_ALLIN = 8  # every other live seat is all in (or cannot call more)
E_RAISE_CLOSED = 9  # already acted and the betting was not reopened by a full raise
E_RAISE_CAP = 10  # fixed-limit cap reached
E_BAD_KIND = 11
E_DISCARD = 12  # a discard is due (no betting until every live seat has discarded)
E_NO_DISCARD = 13  # no discard is due now

# legal() output slots
L_FOLD = 0
L_CHECK = 1
L_CALL = 2  # chips a call adds now, -1 when nothing to call
L_MIN = 3  # minimum raise-to, -1 when no raise is allowed
L_MAX = 4
L_WHY = 5  # why no raise is allowed (an E_RAISE_* code), 0 when one is
LEGAL_SIZE = 6
E_NOT_ACTOR = 14  # hand_act: the seat named is not the one to act

# The interactive :class:`simulate.engine.Hand` keeps its arrays as views of one uint8
# buffer ``W`` so that each call from Python passes one array (Numba's dispatch checks
# every argument's type: one array costs about a third of the four that ``act`` takes).
# Byte offsets: ``S`` int64[STATE_SIZE], the :func:`legal` output int64[LEGAL_SIZE], the
# showdown strengths and the payouts int64[MAXS] each, ``hole`` uint8[MAXS, MAXH],
# ``board`` uint8[5] (padded to 8), ``deck`` uint8[52].
W_S = 0
W_LEGAL = W_S + 8 * STATE_SIZE
W_ST = W_LEGAL + 8 * LEGAL_SIZE
W_PAY = W_ST + 8 * MAXS
W_HOLE = W_PAY + 8 * MAXS
W_BOARD = W_HOLE + MAXS * MAXH
W_DECK = W_BOARD + 8
W_SIZE = W_DECK + 56
