"""The tracker counts and action rows of many plain hands in one compiled call.

:func:`walk_many` is the compiled twin of the hand database's counting walk
(:func:`simulate.store.counts.walk`, the reference it is tested against): one pass over each
hand's actions that gives, per seat, the counts every tracker statistic is built from, and
one row per action (street, seat, kind, chips added, street total, all-in, where its cards
are written). It takes the hands :func:`simulate._kernels.replay.replay_many` settles (the
same TOML array of action strings, read by the same
:func:`~simulate._kernels.replay.parse_actions`): dealing, folds, checks and calls, bets and
raises, shows; a hand whose text is not of that form is left to the Python walk
(``nact[i]`` -1).

Counts: ``counts[i, s, k]`` with ``k`` in :data:`COUNTS` order (the names of
:data:`simulate.store.counts.COUNT_FIELDS`, tested equal); W$SD and W$WSF need the hand's
winnings and are the caller's (their columns stay 0). Action kinds: indices into
:data:`ACTION_NAMES`; streets: indices into :data:`STREET_NAMES`.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial
from simulate._kernels import engine as K
from simulate._kernels import replay as R

#: The count columns, in :data:`simulate.store.counts.COUNT_FIELDS` order.
COUNTS = ("vpip_opp", "vpip", "pfr", "three_bet_opp", "three_bet", "fold_to_three_bet_opp",
          "fold_to_three_bet", "cbet_opp", "cbet", "fold_to_cbet_opp", "fold_to_cbet",
          "aggressive", "calls", "folds", "saw_flop", "showdown", "wtsd", "won_showdown",
          "won_saw_flop")
(VPIP_OPP, VPIP, PFR, THREE_BET_OPP, THREE_BET, F3B_OPP, F3B, CBET_OPP, CBET, FCB_OPP, FCB,
 AGG, CALLS, FOLDS, SAW_FLOP, SHOWDOWN, WTSD, WON_SD, WON_SF) = range(len(COUNTS))

#: The action rows' kinds (``a_kind`` indexes this).
ACTION_NAMES = ("deal_hole", "deal_board", "fold", "check", "call", "bet", "raise", "show")
DEAL_HOLE, DEAL_BOARD, FOLD, CHECK, CALL, BET, RAISE, SHOW = range(len(ACTION_NAMES))
#: The action rows' streets (``a_street`` indexes this).
STREET_NAMES = ("preflop", "flop", "turn", "river")


@serial
def walk_many(text, toff, pairs, nseat, blinds, antes, stacks, board_game, counts, aoff, nact,
              a_street, a_seat, a_kind, a_amount, a_total, a_allin, a_cards0, a_cards1):
    """Walk hands ``i < H``: the actions are the TOML array ``text[toff[i]:toff[i + 1]]``
    (``uint8``; ``pairs``: :data:`evaluator.cards.CARD_PAIRS`) of an ``nseat[i]``-seat hand
    whose seats posted ``blinds[i]`` (``int64[H, MAXS]``, in seat order, as the walk posts
    them) and ``antes[i]`` from ``stacks[i]``; ``board_game[i]`` 1 for a game with a board
    (only those have preflop and flop counts).

    Outputs: ``counts`` (``int32[H, MAXS, len(COUNTS)]``, zeroed here); ``nact[i]`` the
    hand's action rows (-1: not walked here), written from ``aoff[i]`` (room for
    ``len // 6 + 1`` rows a hand: no action is shorter than 6 bytes with its separator):
    ``a_street``, ``a_seat`` (-1: the board), ``a_kind`` (``int8``), ``a_amount`` and
    ``a_total`` (``int64``, -1: none), ``a_allin`` (``bool``) and the written cards
    ``text[a_cards0:a_cards1]`` (``int64``, equal: none)."""
    H = nseat.shape[0]
    longest = 0
    for i in range(H):
        if toff[i + 1] - toff[i] > longest:
            longest = toff[i + 1] - toff[i]
    rows = np.empty((longest // 6 + 1, 10), np.int64)
    totals = np.zeros(K.MAXS, np.int64)
    left = np.zeros(K.MAXS, np.int64)
    folded = np.zeros(K.MAXS, np.bool_)
    acted_flop = np.zeros(K.MAXS, np.bool_)
    for i in range(H):
        n = nseat[i]
        c = counts[i]
        c[:, :] = 0
        a, b = toff[i], toff[i + 1]
        m = R.parse_actions(text, a, b, n, rows, pairs)
        if m <= 0:
            nact[i] = -1
            continue
        nact[i] = m
        board = board_game[i] != 0
        top = 0
        for s in range(n):
            totals[s] = blinds[i, s]
            left[s] = stacks[i, s] - antes[i, s] - blinds[i, s]
            folded[s] = False
            acted_flop[s] = False
            if totals[s] > top:
                top = totals[s]
        street = 0
        raises = 0
        first_raiser = -1
        last_raiser = -1
        flop_bets = 0
        cbet_live = False
        j = a + 1  # the next item's opening quote (the form parse_actions checked)
        for r in range(m):
            o = aoff[i] + r
            e = j + 1
            while text[e] != text[j]:
                e += 1
            cs = e  # the cards: the item's last token, for the kinds that name cards
            while text[cs - 1] != 32:
                cs -= 1
            j = e + 3
            kind = rows[r, 0]
            s = rows[r, 1]
            a_seat[o] = s
            a_amount[o] = -1
            a_total[o] = -1
            a_allin[o] = False
            a_cards0[o] = cs
            a_cards1[o] = e
            if kind == R.DEAL_BOARD:
                if street == 0:
                    for p in range(n):
                        c[p, SAW_FLOP] = 1 if board and not folded[p] else 0
                street += 1
                for p in range(n):
                    totals[p] = 0
                top = 0
                a_street[o] = min(street, 3)
                a_kind[o] = DEAL_BOARD
                continue
            a_street[o] = min(street, 3)
            if kind == R.DEAL_HOLE:
                a_kind[o] = DEAL_HOLE
                continue
            if kind == R.SHOW or kind == R.SHOW_NOTHING:
                a_kind[o] = SHOW
                continue
            a_cards1[o] = cs  # a player action names no cards
            had = totals[s]
            facing = top > had
            if board and street == 0:  # preflop counts
                c[s, VPIP_OPP] = 1
                if kind == R.RAISE or (kind == R.CHECK_CALL and facing):
                    c[s, VPIP] = 1
                if kind == R.RAISE:
                    c[s, PFR] = 1
                if raises == 1 and s != first_raiser and c[s, THREE_BET_OPP] == 0:
                    c[s, THREE_BET_OPP] = 1
                    c[s, THREE_BET] = 1 if kind == R.RAISE else 0
                if raises == 2 and s == first_raiser and c[s, F3B_OPP] == 0:
                    c[s, F3B_OPP] = 1
                    c[s, F3B] = 1 if kind == R.FOLD else 0
            elif board:  # postflop: aggression, and on the flop the c-bet counts
                if kind == R.RAISE:
                    c[s, AGG] += 1
                elif kind == R.CHECK_CALL and facing:
                    c[s, CALLS] += 1
                elif kind == R.FOLD:
                    c[s, FOLDS] += 1
                if street == 1:
                    first = not acted_flop[s]
                    acted_flop[s] = True
                    if first and s == last_raiser and flop_bets == 0:
                        c[s, CBET_OPP] = 1
                        if kind == R.RAISE:
                            c[s, CBET] = 1
                            cbet_live = True
                    elif cbet_live and s != last_raiser and c[s, FCB_OPP] == 0:
                        c[s, FCB_OPP] = 1
                        c[s, FCB] = 1 if kind == R.FOLD else 0
                    if kind == R.RAISE:
                        flop_bets += 1
                        if not (c[s, CBET] == 1 and flop_bets == 1):
                            cbet_live = False
            if kind == R.FOLD:
                folded[s] = True
                a_kind[o] = FOLD
                continue
            new = rows[r, 2] if kind == R.RAISE else top
            put = new - had
            if put < 0:
                put = 0
            if put > left[s]:
                put = left[s]
            left[s] -= put
            had += put
            totals[s] = had
            if kind == R.CHECK_CALL:
                a_kind[o] = CALL if facing else CHECK
            else:
                a_kind[o] = RAISE if top > 0 else BET
                if street == 0 and board:
                    raises += 1
                    if raises == 1:
                        first_raiser = s
                    last_raiser = s
            if had > top:
                top = had
            a_amount[o] = put
            a_total[o] = had
            a_allin[o] = left[s] <= 0
        live = 0
        for p in range(n):
            if not folded[p]:
                live += 1
        if live >= 2:
            for p in range(n):
                if not folded[p]:
                    c[p, SHOWDOWN] = 1
                    c[p, WTSD] = c[p, SAW_FLOP]

