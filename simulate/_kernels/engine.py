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

Forced bets posted short (a seat all in on its blind) are called in full
(:data:`~simulate._kernels.state.SHORTFALL`, :func:`_call_level`); a replayed record's fold
facing a check is binding (:data:`~simulate._kernels.state.MODE`; :func:`legal` never
offers it). Both are Robert's Rules' and TDA's, where pokerkit differs (the README).

Pineapple (``DISCAT`` set): three hole cards; when the betting round ``DISCAT - 1`` is
over, :func:`end_street` sets ``DISCING`` and the actor becomes the next live seat to
discard (from the button's left); betting is refused (:data:`E_DISCARD`) until
:func:`discard` has taken one card from every live seat (``HOLEN + s`` drops to 2); then
``NHOLE`` becomes 2 and the hand goes on as Hold'em. Games without discards pay one
comparison per street for this.

The layout of ``S`` and every code are :mod:`simulate._kernels.state` (re-exported
here); the pots are :mod:`simulate._kernels.pots`, the deals :mod:`simulate._kernels.boards`
(both re-exported for the callers of this module).

Error codes returned by :func:`act` (0 = done) are turned into one-line messages by
the Python layer, which also reads the legal options from :func:`legal`.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from simulate._kernels.boards import deal_board_from_deck, deal_deck, seeded_deck  # noqa: F401
from simulate._kernels.pots import build_pots, omaha_value, settle, table_pots  # noqa: F401
from simulate._kernels.showdown import dealt_strengths, holdem_strengths, strengths  # noqa: F401
from simulate._kernels.state import *  # noqa: F403 - the whole layout, re-exported
from simulate._kernels.state import (
    ACTED,
    ACTIVE,
    ACTOR,
    AGGR,
    ALLIN,
    ANTE,
    ANTEP,
    BB,
    BBANTE,
    BET,
    BETLEVEL,
    BETTING,
    BIGBET,
    BTNBLIND,
    BUTTON,
    CALL,
    CHECK,
    CHECK_CALL,
    COMM,
    DEAD,
    DISCAT,
    DISCING,
    DPOS,
    E_ABOVE_MAX,
    E_BAD_KIND,
    E_BELOW_MIN,
    E_CALL,
    E_CHECK,
    E_DISCARD,
    E_FOLD,
    E_NO_ACTOR,
    E_NO_DISCARD,
    E_NOT_ACTOR,
    E_RAISE_ALLIN,
    E_RAISE_CAP,
    E_RAISE_CLOSED,
    E_RAISE_SHORT,
    FIXED_LIMIT,
    FOLD,
    HOLEN,
    L_CALL,
    L_CHECK,
    L_FOLD,
    L_MAX,
    L_MIN,
    L_WHY,
    MAXH,
    MAXRAISES,
    MAXS,
    MININC,
    MODE,
    NACTIONS,
    NACTIVE,
    NBOARD,
    NEED,
    NHOLE,
    NLIVE,
    NPOST,
    NRAISES,
    NSTRAD,
    OK,
    OUT,
    POST0,
    POT_LIMIT,
    RAISE,
    SB,
    SHORTFALL,
    SMALLBET,
    STACK,
    STAT,
    STRAD0,
    STREET,
    UNCAPPED,
    UNKNOWN,
    W_BOARD,
    W_DECK,
    W_HOLE,
    W_LEGAL,
    W_PAY,
    W_S,
    W_ST,
    N,
)


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
def _call_level(S, s):
    """The street total a call by seat ``s`` goes to: the bet level (before the flop at
    least the full big blind or straddle, however short it was posted), but no more than
    another seat's largest bet when ``s`` is the only seat left with chips."""
    level = S[BETLEVEL]
    if S[NACTIVE] == 1 and S[STAT + s] == ACTIVE:
        top = 0
        for i in range(S[N]):
            if i != s and S[BET + i] > top:
                top = S[BET + i]
        if top < level:
            return top
    return level


@inline
def _has_decision(S, s):
    """True when seat ``s`` must act now: active, and either not yet acted this street or
    facing a bet; a seat not facing a bet has no decision when no other live seat has
    chips left (nor one facing only the part of a short blind nobody put in)."""
    if S[STAT + s] != ACTIVE:
        return False
    if S[BET + s] < S[BETLEVEL]:
        return S[BET + s] < _call_level(S, s)
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
            if S[STREET] == 0 and S[AGGR] < 0:  # the opener: the blinds count in full
                pot += S[SHORTFALL]
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
    to_call = _call_level(S, s) - S[BET + s]
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
def _close_street(S, board, deck):
    """Close the betting round and move on: deal the next street (or wait for its deal in
    manual mode) and find its first actor, running out streets nobody can bet on, up to
    the showdown. (Inlined into :func:`act_inline`; :func:`end_street` for the rest.)"""
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
        deal_board_from_deck(S, board, deck)
        a = _next_actor(S, S[BUTTON])
        if a >= 0:
            S[ACTOR] = a
            return


@serial
def end_street(S, board, deck):
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
    post antes (dead money, before the blinds), blinds, straddles and posts (a seat's live
    bet to play at once: it does not move the first actor nor the minimum raise), deal the
    hole cards from the deck (unless manual) and find the first actor."""
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
    if S[BTNBLIND] != 0:  # a button blind (SB is 0); heads-up the other seat posts it
        sb = bb = b if n > 2 else bb
    if S[ANTE] > 0:
        if S[BBANTE] != 0:
            _post(S, bb, S[ANTE], False)
        else:
            for k in range(n):
                _post(S, (b + 1 + k) % n, S[ANTE], False)
    short = S[SB] - _post(S, sb, S[SB], True)
    short += S[BB] - _post(S, bb, S[BB], True)
    last = bb
    inc = S[BB]
    for k in range(S[NSTRAD]):
        seat = (bb + 1 + k) % n
        amt = S[STRAD0 + k]
        short += amt - _post(S, seat, amt, True)
        last = seat
        if amt > inc:
            inc = amt
    S[SHORTFALL] = short
    for k in range(S[NPOST]):  # posts: live bets that do not move the first actor
        if S[POST0 + k] > 0:
            _post(S, (b + 1 + k) % n, S[POST0 + k], True)
    level = inc  # the full big blind or straddle, however short it was posted
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
        end_street(S, board, deck)


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
    to_call = _call_level(S, s) - S[BET + s]
    if kind == CHECK_CALL:
        kind = CALL if to_call > 0 else CHECK
    if kind == FOLD:
        if to_call <= 0 and S[MODE] == 0:  # a record's fold facing a check is binding
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
    end_street(S, board, deck)
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
        end_street(S, board, board[:0])
    return 0


# ---------------------------------------------------------------- one buffer per Hand
# The interactive :class:`simulate.engine.Hand` keeps its arrays as views of one uint8
# buffer ``W`` so that each call from Python passes one array (Numba's dispatch checks
# every argument's type: one array costs about a third of the four that ``act`` takes).
# Byte offsets: ``S`` int64[STATE_SIZE], the :func:`legal` output int64[LEGAL_SIZE], the
# showdown strengths and the payouts int64[MAXS] each, ``hole`` uint8[MAXS, MAXH],
# ``board`` uint8[5] (padded to 8), ``deck`` uint8[52].
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
    :func:`strengths`; ``otables`` None for a Hold'em-like game (this kernel then holds
    Hold'em's evaluator alone: a Hold'em hand's first settle compiles no Omaha code).
    Returns :func:`settle`'s count of pots left unpaid."""
    S, hole, board, deck = _w_views(W)
    n = S[N]
    st = W[W_ST:W_PAY].view(np.int64)[:n]
    pay = W[W_PAY:W_HOLE].view(np.int64)[:n]
    st[:] = 0
    pay[:] = 0
    if S[STREET] == 4:
        if otables is None:  # Hold'em-like: decided when this kernel compiles
            card_key, card_mask, row_offsets, rank_table, flush_table = tables
            holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table,
                             flush_table, st)
        else:
            strengths(S, hole, board, tables, otables, st, np.zeros((1, S[NHOLE]), np.uint8),
                      np.zeros((1, 5), np.uint8), np.zeros(1, np.int32))
    order = np.empty(n, np.int64)
    for i in range(n):
        order[i] = (S[BUTTON] + 1 + i) % n
    return settle(S, st, pay, np.zeros(n + 1, np.int64), np.zeros((n + 1, n), np.bool_),
                  order, np.zeros((n + 1, n + 1), np.int64), np.zeros((n + 1, n + 1), np.int64),
                  np.zeros((n + 1, n), np.int64))
