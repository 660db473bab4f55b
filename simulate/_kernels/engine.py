"""The rules core of the hand engine: Numba kernels over one hand's integer state.

One implementation of every rule, called by both the interactive
:class:`simulate.engine.Hand` (one kernel call per action) and the batch
simulator :func:`simulate.engine.play` (a compiled loop over hands).

State (all arrays, nothing else):

- ``S``: ``ndarray[STATE_SIZE] int64``, a header of scalar fields (indices below)
  followed by per-seat sections of :data:`MAXS` entries each (``STACK + s``,
  ``BET + s``, ...). Rules are copied into the header when a hand starts, so every
  kernel needs only ``S``.
- ``hole``: ``ndarray[MAXS, MAXH] uint8``, each seat's hole cards (:data:`UNKNOWN`
  for a card not known, e.g. ``????`` in a hand history).
- ``board``: ``ndarray[5] uint8``.
- ``deck``: ``ndarray[52] uint8``, the deck in dealing order (seeded or scripted
  deals); unused in manual mode, where deals come as actions.

Per-seat status: ``OUT`` (folded), ``ACTIVE`` (holds cards and chips), ``ALLIN``.
``ACTED + s`` holds the street's bet level when seat ``s`` last acted (-1: not yet
this street); a seat that already acted may raise again only if the bet has grown
by at least a full raise since then (so several short all-ins that add up to a full
raise reopen the betting, as in TDA Rule 47 Example 1, and one short all-in does not).

Pineapple (``DISCAT`` set): three hole cards; when the betting round ``DISCAT - 1`` is
over, :func:`_end_street` sets ``DISCING`` and the actor becomes the next live seat to
discard (from the button's left); betting is refused (:data:`E_DISCARD`) until
:func:`discard` has taken one card from every live seat (``HOLEN + s`` drops to 2); then
``NHOLE`` becomes 2 and the hand goes on as Hold'em. Games without discards pay one
comparison per street for this.

Error codes returned by :func:`act` (0 = done) are turned into one-line messages by
the Python layer, which also reads the legal options from :func:`legal`.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from evaluator._kernels.holdem import KEY_INIT_I64, lookup
from evaluator._kernels.omaha import omaha_batch_serial
from simulate._kernels.rng import deal, stream_state
from simulate._kernels.score import award

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
GAME = 10  # 0 hold'em, 1 omaha (two plus three)
SB = 11
BB = 12
ANTE = 13
BBANTE = 14  # 1: the big blind posts the ante alone
SMALLBET = 15
BIGBET = 16
MAXRAISES = 17
UNCAPPED = 18  # 1: no cap while only two players are left
MODE = 19  # 0: cards from the deck array, 1: manual (deals come as actions)
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
HEADER = 40

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
E_FOLD = 2  # nothing to call (check instead)
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


@inline
def _live_count(S):
    return S[NLIVE]


@inline
def _post(S, s, amount, is_bet):
    """Seat ``s`` puts ``min(amount, stack)`` chips in: a bet or blind when ``is_bet``, else
    an ante (dead money)."""
    a = min(amount, S[STACK + s])
    S[STACK + s] -= a
    if is_bet:
        S[COMM + s] += a
        S[BET + s] += a
    else:
        S[ANTEP + s] += a
        S[DEAD] += a
    if S[STACK + s] == 0 and S[STAT + s] == ACTIVE:
        S[STAT + s] = ALLIN
        S[NACTIVE] -= 1
    return a


@inline
def _has_decision(S, s):
    """True when seat ``s`` must act now: active, and either not yet acted this street or
    facing a bet; a seat not facing a bet has no decision when no other live seat has
    chips left."""
    if S[STAT + s] != ACTIVE:
        return False
    if S[BET + s] < S[BETLEVEL]:
        return True
    return S[ACTED + s] < 0 and S[NACTIVE] > 1  # another seat (s is one) has chips


@inline
def _next_actor(S, after):
    """The first seat clockwise after ``after`` (``after`` itself last) with a decision."""
    n = S[N]
    s = after
    for _ in range(n):
        s += 1  # (after + k) % n without a division: ``after`` is a seat, 0..n-1
        if s == n:
            s = 0
        if _has_decision(S, s):
            return s
    return -1


@inline
def _next_discarder(S, after):
    """The first live seat clockwise after ``after`` still holding all its hole cards while
    the discards are due (-1: none left)."""
    n = S[N]
    s = after
    for _ in range(n):
        s += 1
        if s == n:
            s = 0
        if S[STAT + s] != OUT and S[HOLEN + s] == S[NHOLE]:
            return s
    return -1


@inline
def _bet_size(S):
    """Fixed-limit bet size on the current street."""
    return S[SMALLBET] if S[STREET] < 2 else S[BIGBET]


@inline
def raise_bounds(S, s):
    """``(code, lo, hi)``: may seat ``s`` bet or raise now, and to which street totals.

    ``code`` is 0 when it may (``lo..hi`` raise-to amounts; a short stack's all-in is
    both) or the ``E_RAISE_*`` reason it may not.
    """
    n = S[N]
    stack = S[STACK + s]
    bet = S[BET + s]
    level = S[BETLEVEL]
    to_call = level - bet
    if stack <= to_call:
        return E_RAISE_SHORT, -1, -1
    other = False
    for i in range(n):
        if i != s and S[STAT + i] == ACTIVE and S[STACK + i] + S[BET + i] > level:
            other = True
            break
    if not other:
        return E_RAISE_ALLIN, -1, -1
    fixed = S[BETTING] == FIXED_LIMIT
    size = _bet_size(S)
    threshold = (size + 1) // 2 if fixed else S[MININC]
    # a seat that already acted on a bet may raise again only after a full raise (or short
    # all-ins adding up to one); a seat that only checked faces a fresh bet and may raise
    if S[ACTED + s] > 0 and level - S[ACTED + s] < threshold:
        return E_RAISE_CLOSED, -1, -1
    if fixed and S[NRAISES] >= S[MAXRAISES] and not (S[UNCAPPED] != 0 and _live_count(S) == 2):
        return E_RAISE_CAP, -1, -1
    allin = bet + stack
    if fixed:
        lo = level + size
        hi = lo
    else:
        lo = level + S[MININC]
        if S[BETTING] == POT_LIMIT:
            pot = S[DEAD]
            for i in range(n):
                pot += S[COMM + i]
            hi = level + pot + to_call
            if hi < lo:
                hi = lo
        else:
            hi = allin
    if hi > allin:
        hi = allin
    if lo > allin:
        lo = allin
    return OK, lo, hi


@inline
def legal(S, out):
    """Fill ``out`` (``int64[LEGAL_SIZE]``) with the actor's options (all -1/0 when no actor)."""
    s = S[ACTOR]
    out[L_FOLD] = 0
    out[L_CHECK] = 0
    out[L_CALL] = -1
    out[L_MIN] = -1
    out[L_MAX] = -1
    out[L_WHY] = E_NO_ACTOR
    if s < 0:
        return
    if S[DISCING] != 0:
        out[L_WHY] = E_DISCARD
        return
    to_call = S[BETLEVEL] - S[BET + s]
    if to_call > 0:
        out[L_FOLD] = 1
        out[L_CALL] = min(to_call, S[STACK + s])
    else:
        out[L_CHECK] = 1
    code, lo, hi = raise_bounds(S, s)
    out[L_WHY] = code
    if code == OK:
        out[L_MIN] = lo
        out[L_MAX] = hi


@inline
def _deal_board_from_deck(S, board, deck):
    """Burn one card and turn the street's board cards from the deck."""
    k = 3 if S[STREET] == 1 else 1
    p = S[DPOS] + 1  # the burn
    for j in range(k):
        board[S[NBOARD] + j] = deck[p + j]
    S[NBOARD] += k
    S[DPOS] = p + k


@inline
def _close_street(S, board, deck):
    """Close the betting round and move on: deal the next street (or wait for its deal in
    manual mode) and find its first actor, running out streets nobody can bet on, up to
    the showdown. (Inlined into :func:`act_inline`; :func:`_end_street` for the rest.)"""
    n = S[N]
    while True:
        for i in range(n):
            S[BET + i] = 0
            S[ACTED + i] = -1
        S[BETLEVEL] = 0
        S[MININC] = S[BB]
        S[NRAISES] = 0
        if S[STREET] >= 3:
            S[STREET] = 4
            S[ACTOR] = -1
            return
        if S[DISCAT] == S[STREET] + 1 and S[NHOLE] == 3:  # Pineapple: the discards first
            S[DISCING] = 1
            S[ACTOR] = _next_discarder(S, S[BUTTON])
            return
        S[AGGR] = -1
        S[STREET] += 1
        if S[MODE] == 1:
            S[NEED] = 3 if S[STREET] == 1 else 1
            S[ACTOR] = -1
            return
        _deal_board_from_deck(S, board, deck)
        a = _next_actor(S, S[BUTTON])
        if a >= 0:
            S[ACTOR] = a
            return


@serial
def _end_street(S, board, deck):
    """:func:`_close_street`, compiled once for the callers off the hot path."""
    _close_street(S, board, deck)


@inline
def _after_action(S, s, board, deck):
    if _live_count(S) == 1:
        S[STREET] = 5
        S[ACTOR] = -1
        return
    a = _next_actor(S, s)
    if a >= 0:
        S[ACTOR] = a
    else:
        _close_street(S, board, deck)


# The hot entry points come twice: ``start_inline`` / ``act_inline`` (one implementation,
# inlined where a loop plays many hands: a call between compiled functions costs more than
# a heads-up action's whole work) and ``start`` / ``act``, the same compiled once for
# everyone else (the interactive Hand, the PHH replay). Inline each at one call site only:
# every copy adds to the caller's compile time.
@inline
def start_inline(S, hole, board, deck):
    """Start a hand whose header (rules, ``N``, ``BUTTON``, ``MODE``) and stacks are set:
    post antes (dead money, before the blinds), blinds and straddles, deal the hole cards
    from the deck (unless manual) and find the first actor."""
    n = S[N]
    b = S[BUTTON]
    for s in range(n):
        S[BET + s] = 0
        S[COMM + s] = 0
        S[STAT + s] = ACTIVE
        S[ACTED + s] = -1
        S[HOLEN + s] = 0
        S[ANTEP + s] = 0
    S[NLIVE] = n
    S[NACTIVE] = n
    S[DEAD] = 0
    S[DISCING] = 0
    S[STREET] = 0
    S[NBOARD] = 0
    S[NEED] = 0
    S[DPOS] = 0
    S[AGGR] = -1
    S[NACTIONS] = 0
    sb = b if n == 2 else (b + 1) % n
    bb = (sb + 1) % n
    if S[ANTE] > 0:
        if S[BBANTE] != 0:
            _post(S, bb, S[ANTE], False)
        else:
            for k in range(n):
                _post(S, (b + 1 + k) % n, S[ANTE], False)
    _post(S, sb, S[SB], True)
    _post(S, bb, S[BB], True)
    last = bb
    inc = S[BB]
    for k in range(S[NSTRAD]):
        seat = (bb + 1 + k) % n
        amt = S[STRAD0 + k]
        _post(S, seat, amt, True)
        last = seat
        if amt > inc:
            inc = amt
    level = 0
    for s in range(n):
        if S[BET + s] > level:
            level = S[BET + s]
    S[BETLEVEL] = level
    S[MININC] = inc
    S[NRAISES] = 1 + S[NSTRAD]  # the big blind is the opening bet before the flop
    if S[MODE] == 0:
        h = S[NHOLE]
        for r in range(h):
            s = b
            for k in range(n):
                s += 1  # (b + 1 + k) % n
                if s == n:
                    s = 0
                hole[s, r] = deck[r * n + k]
        for s in range(n):
            S[HOLEN + s] = h
        S[DPOS] = h * n
    if _live_count(S) < 2:  # cannot happen with two or more seats
        S[STREET] = 5
        S[ACTOR] = -1
        return
    a = _next_actor(S, last)
    if a >= 0:
        S[ACTOR] = a
    else:
        S[ACTOR] = -1
        _end_street(S, board, deck)


@serial
def start(S, hole, board, deck):
    """:func:`start_inline`, compiled once."""
    start_inline(S, hole, board, deck)


@inline
def act_inline(S, kind, amount, board, deck):
    """Apply the actor's action (``kind`` FOLD/CHECK/CALL/CHECK_CALL/RAISE, ``amount`` the
    raise-to total) and advance the hand. Returns 0, or an error code with ``S``
    unchanged."""
    s = S[ACTOR]
    if s < 0 or S[NEED] != 0:
        return E_NO_ACTOR
    if S[DISCING] != 0:
        return E_DISCARD
    level = S[BETLEVEL]
    to_call = level - S[BET + s]
    if kind == CHECK_CALL:
        kind = CALL if to_call > 0 else CHECK
    if kind == FOLD:
        if to_call <= 0:
            return E_FOLD
        S[STAT + s] = OUT  # the actor was ACTIVE
        S[NLIVE] -= 1
        S[NACTIVE] -= 1
    elif kind == CHECK:
        if to_call > 0:
            return E_CHECK
    elif kind == CALL:
        if to_call <= 0:
            return E_CALL
        _post(S, s, to_call, True)
    elif kind == RAISE:
        code, lo, hi = raise_bounds(S, s)
        if code != OK:
            return code
        if amount < lo:
            return E_BELOW_MIN
        if amount > hi:
            return E_ABOVE_MAX
        inc = amount - level
        _post(S, s, amount - S[BET + s], True)
        if S[BETTING] == FIXED_LIMIT:
            if 2 * inc >= _bet_size(S):
                S[NRAISES] += 1
        elif inc >= S[MININC]:
            S[MININC] = inc
            S[NRAISES] += 1
        S[BETLEVEL] = amount
        S[AGGR] = s
    else:
        return E_BAD_KIND
    S[ACTED + s] = S[BETLEVEL]
    S[NACTIONS] += 1
    _after_action(S, s, board, deck)
    return OK


@serial
def act(S, kind, amount, board, deck):
    """:func:`act_inline`, compiled once."""
    return act_inline(S, kind, amount, board, deck)


@serial
def discard(S, slot, hole, board, deck):
    """Pineapple: the actor throws away its hole card in slot ``slot`` (0..2; the kept
    cards move up, the last slot becomes :data:`UNKNOWN`); after the last live seat's
    discard the hand goes on (the next street is dealt, or awaited in manual mode). Returns
    0, or :data:`E_NO_DISCARD` / :data:`E_BAD_KIND` with ``S`` unchanged."""
    s = S[ACTOR]
    if s < 0 or S[DISCING] == 0:
        return E_NO_DISCARD
    h = S[HOLEN + s]
    if slot < 0 or slot >= h:
        return E_BAD_KIND
    for r in range(slot, h - 1):
        hole[s, r] = hole[s, r + 1]
    hole[s, h - 1] = UNKNOWN
    S[HOLEN + s] = h - 1
    a = _next_discarder(S, s)
    if a >= 0:
        S[ACTOR] = a
        return OK
    S[DISCING] = 0
    S[NHOLE] = h - 1
    S[ACTOR] = -1
    _end_street(S, board, deck)
    return OK


@serial
def deal_board(S, board, cards):
    """Manual mode: the awaited board cards ``cards`` (uint8[k]) arrive; start the street's
    betting (or run on to the next deal or the showdown). Returns 0, or 1 when ``k`` is not
    the number of cards awaited (``S`` unchanged)."""
    k = cards.shape[0]
    if S[NEED] == 0 or k != S[NEED]:
        return 1
    for j in range(k):
        board[S[NBOARD] + j] = cards[j]
    S[NBOARD] += k
    S[NEED] = 0
    a = _next_actor(S, S[BUTTON])
    if a >= 0:
        S[ACTOR] = a
    else:
        _end_street(S, board, board[:0])
    return 0


@inline
def build_pots(committed, live, amounts, eligible, returned):
    """Main and side pots from the chips committed: the project's one pot builder (the rules
    are stated in :mod:`simulate.pots`, whose :func:`simulate.pots.build_pots` validates and
    wraps this kernel).

    ``committed``: int64[n]; ``live``: bool-like[n] (nonzero while the seat holds cards).
    Writes ``amounts`` (int64[>= n]), ``eligible`` (bool[>= n, n]) and adds uncalled chips to
    ``returned`` (int64[n]). Returns the number of pots. Distinct commitment levels cut
    layers; a layer only one seat reached is returned to it; neighbouring layers with the
    same eligible seats merge.
    """
    n = committed.shape[0]
    prev = 0
    n_pots = 0
    while True:
        level = -1
        for s in range(n):
            c = committed[s]
            if c > prev and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        count = 0
        last = -1
        for s in range(n):
            if committed[s] >= level:
                count += 1
                last = s
        amount = (level - prev) * count
        prev = level
        if count == 1:
            returned[last] += amount
            continue
        same = n_pots > 0
        if same:
            for s in range(n):
                e = committed[s] >= level and live[s] != 0
                if e != eligible[n_pots - 1, s]:
                    same = False
                    break
        if same:
            amounts[n_pots - 1] += amount
        else:
            amounts[n_pots] = amount
            for s in range(n):
                eligible[n_pots, s] = committed[s] >= level and live[s] != 0
            n_pots += 1
    return n_pots


@inline
def table_pots(S, amounts, eligible, returned):
    """The hand's pots: :func:`build_pots` over the blinds and bets, with the antes (dead
    money) added to the main pot, which every live seat may win (a pot of their own, placed
    first, when some live seat is not eligible for the main pot). ``amounts`` int64[>= n+1],
    ``eligible`` bool[>= n+1, n]; uncalled chips are added to ``returned``. Returns the
    number of pots."""
    n = S[N]
    # the common showdown: two or more live seats, all with the same chips in. Then every
    # layer build_pots would cut has two or more seats (the most any seat put in is a live
    # seat's: a seat folds only facing more) and the live seats as its eligible seats, so
    # there is one pot, antes in, and nothing to return.
    top = -1  # the live seats' chips in (-1: none seen yet)
    same = True
    total = S[DEAD]
    for s in range(n):
        c = S[COMM + s]
        total += c
        if S[STAT + s] != OUT:
            if top < 0:
                top = c
            elif c != top:
                same = False
    if same and top > 0 and S[NLIVE] >= 2:
        amounts[0] = total
        for s in range(n):
            eligible[0, s] = S[STAT + s] != OUT
        return 1
    n_pots = build_pots(S[COMM:COMM + n], S[STAT:STAT + n], amounts, eligible, returned)
    dead = S[DEAD]
    if dead == 0:
        return n_pots
    every = n_pots > 0
    if every:
        for s in range(n):
            if eligible[0, s] != (S[STAT + s] != OUT):
                every = False
                break
    if every:
        amounts[0] += dead
        return n_pots
    for p in range(n_pots, 0, -1):
        amounts[p] = amounts[p - 1]
        for s in range(n):
            eligible[p, s] = eligible[p - 1, s]
    amounts[0] = dead
    for s in range(n):
        eligible[0, s] = S[STAT + s] != OUT
    return n_pots + 1


@inline
def dealt_strengths(S, hole, deck, card_key, card_mask, row_offsets, rank_table, flush_table,
                    out):
    """Hold'em: every seat's strength (into ``out``) with the board a seeded deal will turn,
    read from ``deck`` right after :func:`start` (each street burns one card, as
    :func:`_deal_board_from_deck` deals them: board card ``j`` lies ``1 + j + (j >= 3) +
    (j >= 4)`` past ``DPOS``). The play loop evaluates before the betting so that the
    evaluator's table reads (cache misses, mostly) overlap the betting; at a showdown these
    are :func:`holdem_strengths` (folded seats aside, which it sets to 0)."""
    n = S[N]
    h = S[NHOLE]
    p = S[DPOS] + 1
    bkey = KEY_INIT_I64
    bmask = np.int64(0)
    for j in range(5):
        c = deck[p + j + (j >= 3) + (j >= 4)]
        bkey += card_key[c]
        bmask |= card_mask[c]
    for s in range(n):
        key = bkey
        mask = bmask
        for r in range(h):
            c = hole[s, r]
            key += card_key[c]
            mask |= card_mask[c]
        out[s] = lookup(key, mask, row_offsets, rank_table, flush_table)


@inline
def holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table, flush_table,
                     out):
    """Hold'em showdown strengths into ``out`` (see :func:`strengths`)."""
    n = S[N]
    h = S[NHOLE]
    nb = S[NBOARD]
    bkey = KEY_INIT_I64
    bmask = np.int64(0)
    board_known = True
    for j in range(nb):
        c = board[j]
        if c == UNKNOWN:
            board_known = False
        else:
            bkey += card_key[c]
            bmask |= card_mask[c]
    for s in range(n):
        if S[STAT + s] == OUT:
            out[s] = 0
            continue
        key = bkey
        mask = bmask
        known = board_known
        for r in range(h):
            c = hole[s, r]
            if c == UNKNOWN:
                known = False
            else:
                key += card_key[c]
                mask |= card_mask[c]
        out[s] = lookup(key, mask, row_offsets, rank_table, flush_table) if known else -1


@serial
def strengths(S, hole, board, tables, otables, out, hbuf, bbuf, sbuf):
    """Showdown strength of each live seat into ``out`` (int64[n]); -1 for a seat whose
    cards are not all known, 0 for a folded seat. ``hbuf`` uint8[1, NHOLE], ``bbuf``
    uint8[1, 5] and ``sbuf`` int32[1] are scratch for the Omaha evaluator."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    if S[GAME] == 0:
        holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table,
                         flush_table, out)
        return
    n = S[N]
    h = S[NHOLE]
    nb = S[NBOARD]
    for s in range(n):
        if S[STAT + s] == OUT:
            out[s] = 0
            continue
        known = True
        for r in range(h):
            hbuf[0, r] = hole[s, r]
            if hole[s, r] == UNKNOWN:
                known = False
        for j in range(nb):
            bbuf[0, j] = board[j]
            if board[j] == UNKNOWN:
                known = False
        if not known:
            out[s] = -1
            continue
        omaha_batch_serial(hbuf, bbuf, sbuf, tables, otables)
        out[s] = sbuf[0]


@inline
def settle(S, st, payout, amounts, eligible, order, split, odd, win):
    """Chips each seat takes from the table at the end of the hand, added to ``payout``
    (int64[n]); ``st`` are the strengths from :func:`strengths`.

    A hand won without a showdown pays every chip (antes included) to the last live seat.
    At a showdown the pots come from :func:`table_pots` and are settled by the project's
    one pot rule, :func:`simulate._kernels.score.award` (each pot on its own, odd chips one
    at a time to the tied winners in ``order`` int64[n] = seats from the button's left). A
    pot with two or more eligible seats of which one has an unknown strength (-1) is left
    unpaid; returns the number of such pots (0 when the outcome is known). Scratch:
    ``amounts`` int64[n+1], ``eligible`` bool[n+1, n], ``split``/``odd`` int64[n+1, n+1],
    ``win`` int64[n+1, n].
    """
    n = S[N]
    if S[STREET] == 5:
        total = S[DEAD]
        w = 0
        for s in range(n):
            total += S[COMM + s]
            if S[STAT + s] != OUT:
                w = s
        payout[w] += total
        return 0
    n_pots = table_pots(S, amounts, eligible, payout)
    unknown = 0
    for p in range(n_pots):
        ne = 0
        hidden = False
        for s in range(n):
            if eligible[p, s]:
                ne += 1
                if st[s] < 0:
                    hidden = True
        a = amounts[p]
        if hidden and ne > 1:
            unknown += 1
            a = 0
        # award reads split/odd of pot p only at k = the number of tied winners <= ne;
        # k = 1 needs no division (the common case: one winner)
        split[p, 1] = a
        odd[p, 1] = 0
        for k in range(2, ne + 1):
            q = a // k
            split[p, k] = q
            odd[p, k] = a - q * k
    award(st, np.int64(1), amounts[:n_pots], eligible[:n_pots], order, split, odd, win, payout)
    return unknown


@inline
def deal_deck(state, n_cards, deck, mul, thr):
    """Fill ``deck`` (uint8[52]) with 0..51 and deal its top ``n_cards`` uniformly (the
    project's one deal, :func:`simulate._kernels.rng.deal`) from the random stream at
    ``state`` (uint64); ``mul``, ``thr``: :func:`simulate._kernels.rng.deal_setup` of
    ``(52, n_cards)``. Returns the stream state after the deal (policies draw from it)."""
    for c in range(52):
        deck[c] = c
    return deal(state, deck, 0, n_cards, mul, thr)


@serial
def seeded_deck(seed, index, n_cards, deck, mul, thr):
    """:func:`deal_deck` from the stream of hand ``index`` under ``seed``."""
    return deal_deck(stream_state(seed, index), n_cards, deck, mul, thr)


# ---------------------------------------------------------------- one buffer per Hand
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


@inline
def _w_views(W):
    """``(S, hole, board, deck)``: views of the buffer ``W`` (uint8[W_SIZE])."""
    return (W[W_S:W_LEGAL].view(np.int64), W[W_HOLE:W_BOARD].reshape((MAXS, MAXH)),
            W[W_BOARD:W_BOARD + 5], W[W_DECK:W_DECK + 52])


@serial
def hand_start(W):
    """:func:`start` on the arrays held in ``W``."""
    S, hole, board, deck = _w_views(W)
    start(S, hole, board, deck)


E_NOT_ACTOR = 14  # hand_act: the seat named is not the one to act


@serial
def hand_act(W, kind, amount, seat):
    """:func:`act` on the arrays held in ``W``, by ``seat`` (-1: whoever is to act;
    :data:`E_NOT_ACTOR` when another seat is). Returns the error code (1..15, ``S``
    unchanged), or once done ``16 * (seat + 1) + 256 * NBOARD + 4096 * STREET`` (the
    actor, and the board count and street before the action) plus ``65536`` when the
    action dealt board cards or changed the street."""
    S, hole, board, deck = _w_views(W)
    s = S[ACTOR]
    if seat >= 0 and s >= 0 and seat != s:
        return E_NOT_ACTOR
    nb = S[NBOARD]
    street = S[STREET]
    code = act(S, kind, amount, board, deck)
    if code != OK:
        return code
    r = 16 * (s + 1) + 256 * nb + 4096 * street
    if S[NBOARD] != nb or S[STREET] != street:
        r += 65536
    return r


@serial
def hand_legal(W):
    """:func:`legal` into ``W``'s legal slots."""
    legal(W[W_S:W_LEGAL].view(np.int64), W[W_LEGAL:W_ST].view(np.int64))


@serial
def hand_settle(W, tables, otables):
    """Settle a finished hand held in ``W``: :func:`strengths` (at a showdown) into ``W``'s
    strength slots, :func:`settle` into its payout slots (seats ``0..N-1``, from zero, the
    odd chips in seat order from the button's left). ``tables``/``otables``: as for
    :func:`strengths`. Returns :func:`settle`'s count of pots left unpaid."""
    S, hole, board, deck = _w_views(W)
    n = S[N]
    st = W[W_ST:W_PAY].view(np.int64)[:n]
    pay = W[W_PAY:W_HOLE].view(np.int64)[:n]
    st[:] = 0
    pay[:] = 0
    if S[STREET] == 4:
        strengths(S, hole, board, tables, otables, st, np.zeros((1, S[NHOLE]), np.uint8),
                  np.zeros((1, 5), np.uint8), np.zeros(1, np.int32))
    order = np.empty(n, np.int64)
    for i in range(n):
        order[i] = (S[BUTTON] + 1 + i) % n
    return settle(S, st, pay, np.zeros(n + 1, np.int64), np.zeros((n + 1, n), np.bool_),
                  order, np.zeros((n + 1, n + 1), np.int64), np.zeros((n + 1, n + 1), np.int64),
                  np.zeros((n + 1, n), np.int64))
