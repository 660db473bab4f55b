"""Replay a hand history's actions through the engine's rules in one compiled call.

:func:`replay_actions` loops over a hand's actions, already turned into integer arrays by
:mod:`simulate.replay.hand_replay`, and applies each with the engine's own kernels
(:func:`simulate._kernels.engine.act` and :func:`~simulate._kernels.engine.deal_board`):
no rule is written here. It is a fast path only: it takes the ordinary case (every card
known or, for hole cards, ``??``; every action legal; shown hands equal to the dealt
ones) and stops at the first action it does not take, returning that action's index.
The caller then replays the whole hand action by action through
:class:`simulate.engine.Hand`, which builds the one-line message (or repairs the
history), so results and errors are those of the per-action path by construction.

One row per action in ``rows`` (``int64[m, 10]``): the action code (below), the seat
(the actor or the seat dealt to, -1 for the board), the ``cbr`` total in the hand's
integer units (else 0), the number of cards, then six card slots
(:data:`~simulate._kernels.engine.UNKNOWN` for ``??`` and for unused slots). Codes:
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial
from simulate._kernels import engine as K
from simulate.games import MAX_CHIPS

FOLD = 0  # pN f
CHECK_CALL = 1  # pN cc
RAISE = 2  # pN cbr X
DEAL_HOLE = 3  # d dh pN CARDS
DEAL_BOARD = 4  # d db CARDS
SHOW = 5  # pN sm CARDS (every card known)
SHOW_NOTHING = 6  # pN sm ???? (nothing learned; the seat must hold cards)
SKIP = 7  # pN sm (a muck: the replay settles it, the engine never sees it)
OTHER = 8  # anything else (pb, sd, ...): never taken here

#: :func:`replay_actions` result when every action was applied and the hand is over.
DONE = -1


@serial
def replay_actions(S, hole, board, deck, rows):
    """Apply the actions to a started manual-deal hand (``S``, ``hole``, ``board``,
    ``deck`` as :mod:`simulate._kernels.engine` keeps them). Returns :data:`DONE`, or the
    0-based index of the first action not taken (``m`` when every action was taken but
    the hand is not over); the state is then partly advanced and must be thrown away."""
    m = rows.shape[0]
    n = S[K.N]
    h = S[K.NHOLE]
    used = np.zeros(52, np.bool_)
    cards = np.empty((m, 6), np.uint8)
    for i in range(m):
        for r in range(6):
            cards[i, r] = rows[i, 4 + r]
    dealt = 0  # seats whose hole cards are dealt
    for i in range(m):
        kind = rows[i, 0]
        s = rows[i, 1]
        k = rows[i, 3]
        if kind == SKIP:
            continue
        if kind == DEAL_HOLE:
            if S[K.STREET] != 0 or S[K.NACTIONS] > 0 or S[K.HOLEN + s] != 0 or k != h:
                return i
            for r in range(k):
                c = cards[i, r]
                if c != K.UNKNOWN:
                    if used[c]:
                        return i
                    used[c] = True
                hole[s, r] = c
            S[K.HOLEN + s] = h
            dealt += 1
            continue
        if kind == DEAL_BOARD:
            if S[K.NEED] == 0 or k != S[K.NEED]:
                return i
            for r in range(k):
                c = cards[i, r]
                if c == K.UNKNOWN or used[c]:
                    return i
                used[c] = True
            if K.deal_board(S, board, cards[i, :k]) != 0:
                return i
            continue
        if kind == SHOW or kind == SHOW_NOTHING:
            if s < 0 or s >= n or S[K.STAT + s] == K.OUT:
                return i
            if kind == SHOW_NOTHING:
                continue
            if k != h or S[K.HOLEN + s] != h:
                return i
            # the shown cards must be the dealt ones (every one known), in any order
            for r in range(h):
                c = hole[s, r]
                if c == K.UNKNOWN:
                    return i
                found = 0
                for q in range(h):
                    if cards[i, q] == c:
                        found += 1
                if found != 1:
                    return i
            continue
        if kind == FOLD or kind == CHECK_CALL or kind == RAISE:
            if S[K.STREET] == 0 and dealt < n:
                return i  # hole cards still due
            if S[K.ACTOR] < 0 or S[K.NEED] != 0 or S[K.ACTOR] != s:
                return i
            if kind == FOLD:
                code = K.act(S, K.FOLD, np.int64(0), board, deck)
            elif kind == CHECK_CALL:
                code = K.act(S, K.CHECK_CALL, np.int64(0), board, deck)
            else:
                code = K.act(S, K.RAISE, rows[i, 2], board, deck)
            if code != K.OK:
                return i
            continue
        return i
    if S[K.STREET] < 4:
        return m
    return DONE


# ---------------------------------------------------------------- many hands in one call
#: :func:`replay_many` per-hand status: settled here (the outputs hold the result).
SETTLED = 0
#: The hand is not one :func:`replay_many` settles (unusual text, an action the fast path
#: does not take, an all-in, a hidden showdown, ...): the caller replays it the usual way.
FALLBACK = 1
_MAX_AMOUNT = MAX_CHIPS  # the parser's largest amount as well


@inline
def _card(pairs, c0, c1):
    """The card id of the two characters ``c0 c1`` by the codec's byte table ``pairs``
    (:data:`evaluator.cards.CARD_PAIRS`): 255 (:data:`~simulate._kernels.state.UNKNOWN`) for
    ``??``, -1 for anything else."""
    if c0 >= 128 or c1 >= 128:
        return -1
    return pairs[128 * c0 + c1]


@inline
def _cards_into(text, a, b, row, pairs):
    """Cards ``text[a:b]`` into ``row[3]`` (count) and ``row[4:10]``; False when they are not
    1..6 two-character cards."""
    k = (b - a) // 2
    if (b - a) % 2 != 0 or k < 1 or k > 6:
        return False
    for j in range(6):
        row[4 + j] = K.UNKNOWN
    for j in range(k):
        c = _card(pairs, text[a + 2 * j], text[a + 2 * j + 1])
        if c < 0:
            return False
        row[4 + j] = c
    row[3] = k
    return True


@inline
def _seat_token(text, a, b, n):
    """``pN`` in ``text[a:b]`` as the 0-based seat, -1 when it is not ``p1``..``pn``
    (no leading zero)."""
    if b - a < 2 or b - a > 3 or text[a] != 112 or text[a + 1] == 48:  # 'p', '0'
        return -1
    v = 0
    for j in range(a + 1, b):
        c = text[j]
        if c < 48 or c > 57:
            return -1
        v = 10 * v + (c - 48)
    return v - 1 if 1 <= v <= n else -1


@inline
def _parse_one(text, a, b, n, row, pairs):
    """One action ``text[a:b]`` (single spaces, no comment) into ``row`` (the codes above);
    False when it is not one of the forms the fast path takes."""
    # token bounds (at most 4 tokens, separated by one space each)
    ts = np.empty(4, np.int64)
    te = np.empty(4, np.int64)
    nt = 0
    j = a
    while j < b:
        if nt == 4:
            return False
        e = j
        while e < b and text[e] != 32:
            e += 1
        if e == j:
            return False  # an empty token: two spaces, or a space at an end
        ts[nt] = j
        te[nt] = e
        nt += 1
        j = e + 1
        if e < b and j == b:
            return False  # a trailing space
    if nt < 2:
        return False
    row[1] = 0
    row[2] = 0
    row[3] = 0
    for r in range(6):
        row[4 + r] = K.UNKNOWN
    t0 = ts[0]
    l1 = te[1] - ts[1]
    t1 = ts[1]
    if te[0] - t0 == 1 and text[t0] == 100:  # d
        if l1 != 2 or text[t1] != 100:
            return False
        if text[t1 + 1] == 104 and nt == 4:  # d dh pN CARDS
            s = _seat_token(text, ts[2], te[2], n)
            if s < 0:
                return False
            row[0] = DEAL_HOLE
            row[1] = s
            return _cards_into(text, ts[3], te[3], row, pairs)
        if text[t1 + 1] == 98 and nt == 3:  # d db CARDS
            row[0] = DEAL_BOARD
            row[1] = -1
            return _cards_into(text, ts[2], te[2], row, pairs)
        return False
    s = _seat_token(text, t0, te[0], n)
    if s < 0:
        return False
    row[1] = s
    c0 = text[t1]
    if l1 == 1 and c0 == 102 and nt == 2:  # f
        row[0] = FOLD
        return True
    if l1 == 2 and c0 == 99 and text[t1 + 1] == 99 and nt == 2:  # cc
        row[0] = CHECK_CALL
        return True
    if l1 == 3 and c0 == 99 and text[t1 + 1] == 98 and text[t1 + 2] == 114 and nt == 3:
        la = te[2] - ts[2]
        if la > 16:
            return False
        v = 0
        for q in range(ts[2], te[2]):
            c = text[q]
            if c < 48 or c > 57:
                return False
            v = 10 * v + (c - 48)
        if v > _MAX_AMOUNT:
            return False
        row[0] = RAISE
        row[2] = v
        return True
    if l1 == 2 and c0 == 115 and text[t1 + 1] == 109 and nt == 3:  # sm CARDS
        if not _cards_into(text, ts[2], te[2], row, pairs):
            return False
        k = row[3]
        unknown = 0
        for r in range(k):
            if row[4 + r] == K.UNKNOWN:
                unknown += 1
        if unknown == 0:
            row[0] = SHOW
        elif unknown == k:
            row[0] = SHOW_NOTHING
        else:
            return False
        return True
    return False  # sm alone (a muck), pb, sd, ...


@inline
def _action_char(c):
    """A character the fast path reads inside an action: letters, digits, space, ``?``."""
    return (c == 32 or c == 63 or 48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122)


@inline
def parse_actions(text, a, b, n, rows, pairs):
    """The TOML array ``text[a:b]`` of action strings (``['d dh p1 AhKh', 'p3 cc', ...]``:
    one quote style per item, ``", "`` between items, nothing else) into ``rows``
    (``int64[>= m, 10]``), cards by the codec's byte table ``pairs``
    (:data:`evaluator.cards.CARD_PAIRS`); returns ``m``, or -1 when the text is not of that
    plain form or some action is not one the fast path takes."""
    if b - a < 4 or text[a] != 91 or text[b - 1] != 93:  # [ ... ]
        return -1
    j = a + 1
    m = 0
    while True:
        q = text[j]
        if q != 39 and q != 34:  # ' or "
            return -1
        e = j + 1
        while e < b - 1 and text[e] != q:
            if not _action_char(text[e]):
                return -1
            e += 1
        if e >= b - 1 or m >= rows.shape[0]:
            return -1
        if not _parse_one(text, j + 1, e, n, rows[m], pairs):
            return -1
        m += 1
        j = e + 1
        if j == b - 1:
            return m
        if j + 2 >= b - 1 or text[j] != 44 or text[j + 1] != 32:  # ", "
            return -1
        j += 2


@serial
def replay_many(hdr, order, text, toff, pairs, tables, status, nboard, board_out, holen, hole_out,
                fin, pay, returned, npots, pot_amount, pot_elig, pot_win):
    """Play and settle many hands in one call (Hold'em, manual deals), each by the engine's
    kernels: :func:`simulate._kernels.engine.start`, :func:`replay_actions` (every action
    through :func:`simulate._kernels.engine.act`), :func:`~simulate._kernels.engine.table_pots`
    and, at a showdown, :func:`~simulate._kernels.engine.settle` (the project's pot rule).

    Per hand ``i`` (of ``H``): ``hdr[i]`` (``int64[H, STATE_SIZE]``) is the started state's
    header (rules, ``N``, ``BUTTON``, ``MODE`` 1, stacks; the row is played in place);
    ``order[i]`` (``int64[H, MAXS]``) the odd-chip order (seats from the button's left);
    the actions are the TOML array text ``text[toff[i]:toff[i + 1]]`` (``uint8``, see
    :func:`parse_actions`; ``pairs`` its card table). ``tables``: the evaluator's
    ``kernel_args``.

    Outputs (seats ``s < N``, pots ``p < npots[i]``): ``status[i]`` :data:`SETTLED` or
    :data:`FALLBACK` (every other output of the hand is then meaningless); the board
    (``board_out[i, :nboard[i]]``); each seat's hole cards as last shown
    (``hole_out[i, s, :holen[i, s]]``, 255 unknown); finishing stacks ``fin``, chips taken
    from the table ``pay`` (pots won plus uncalled chips) and uncalled chips ``returned``
    (``int64[H, MAXS]``); the pots (``pot_amount``, ``pot_elig`` and ``pot_win``
    int64[H, MAXS + 1]: the chips, and the seats who may win and who won as bit masks,
    bit ``s`` for seat ``s``).

    A hand falls back unless every action is taken, the hand is over, no live seat is all
    in (no all-in EV to compute), nothing is mucked and every contested pot's winner is
    known."""
    H = hdr.shape[0]
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    longest = 0
    for i in range(H):
        if toff[i + 1] - toff[i] > longest:
            longest = toff[i + 1] - toff[i]
    rows = np.empty((longest // 6 + 1, 10), np.int64)
    hole = np.empty((K.MAXS, K.MAXH), np.uint8)
    board = np.empty(5, np.uint8)
    deck = np.empty(52, np.uint8)
    st = np.zeros(K.MAXS, np.int64)
    for i in range(H):
        status[i] = FALLBACK
        S = hdr[i]
        n = S[K.N]
        m = parse_actions(text, toff[i], toff[i + 1], n, rows, pairs)
        if m <= 0:
            continue
        hole[:, :] = K.UNKNOWN
        board[:] = K.UNKNOWN
        start = 0
        for s in range(n):
            start += S[K.STACK + s]
        K.start(S, hole, board, deck)
        if replay_actions(S, hole, board, deck, rows[:m]) != DONE:
            continue
        # the cards as the history last shows them (a show replaces the dealt order)
        for s in range(n):
            holen[i, s] = 0
        for r in range(m):
            kind = rows[r, 0]
            if kind == DEAL_HOLE or kind == SHOW:
                s = rows[r, 1]
                holen[i, s] = rows[r, 3]
                for q in range(rows[r, 3]):
                    hole_out[i, s, q] = rows[r, 4 + q]
            elif kind == SHOW_NOTHING:
                s = rows[r, 1]
                if rows[r, 3] > holen[i, s]:
                    holen[i, s] = rows[r, 3]
                    for q in range(rows[r, 3]):
                        hole_out[i, s, q] = K.UNKNOWN
        nb = S[K.NBOARD]
        nboard[i] = nb
        for j in range(nb):
            board_out[i, j] = board[j]
        live_top = 0
        out_top = 0
        allin = False
        for s in range(n):
            if S[K.STAT + s] == K.OUT:
                if S[K.COMM + s] > out_top:
                    out_top = S[K.COMM + s]
            else:
                if S[K.COMM + s] > live_top:
                    live_top = S[K.COMM + s]
                if S[K.STAT + s] == K.ALLIN or S[K.STACK + s] == 0:
                    allin = True
        if allin or out_top > live_top:
            continue
        amounts = np.zeros(n + 1, np.int64)
        elig = np.zeros((n + 1, n), np.bool_)
        ret = np.zeros(n, np.int64)
        p_n = K.table_pots(S, amounts, elig, ret)
        payout = np.zeros(n, np.int64)
        ok = True
        if S[K.STREET] == 4:
            K.holdem_strengths(S, hole, board, card_key, card_mask, row_offsets, rank_table,
                               flush_table, st)
            unknown = K.settle(S, st, payout, np.zeros(n + 1, np.int64),
                               np.zeros((n + 1, n), np.bool_), order[i, :n],
                               np.zeros((n + 1, n + 1), np.int64),
                               np.zeros((n + 1, n + 1), np.int64),
                               np.zeros((n + 1, n), np.int64))
            ok = unknown == 0
        else:  # won without a showdown: each pot has the one live seat as its only claimant
            for s in range(n):
                st[s] = 0
            for s in range(n):
                payout[s] = ret[s]
            for p in range(p_n):
                ne = 0
                w = 0
                for s in range(n):
                    if elig[p, s]:
                        ne += 1
                        w = s
                if ne != 1:
                    ok = False
                payout[w] += amounts[p]
        if not ok:
            continue
        end = 0
        for s in range(n):
            fin[i, s] = S[K.STACK + s] + payout[s]
            pay[i, s] = payout[s]
            returned[i, s] = ret[s]
            end += fin[i, s]
        if end != start:
            continue
        npots[i] = p_n
        for p in range(p_n):
            pot_amount[i, p] = amounts[p]
            best = -1
            ne = 0
            em = 0
            for s in range(n):
                if elig[p, s]:
                    em |= 1 << s
                    ne += 1
                    if st[s] > best:
                        best = st[s]
            wm = 0
            for s in range(n):
                if elig[p, s] and (ne == 1 or st[s] == best):
                    wm |= 1 << s
            pot_elig[i, p] = em
            pot_win[i, p] = wm
        status[i] = SETTLED
