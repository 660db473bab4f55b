"""Private Numba kernels of the range equity engine.

Kernels take only arrays and ints. ``tables`` is the evaluator's ``kernel_args`` tuple.
Players' combos come as padded arrays, ``P`` players by ``M`` combos:

* ``ckey int64[P, M]``: sum of the two cards' evaluator keys;
* ``cmask int64[P, M]``: OR of the two cards' evaluator masks;
* ``cbits int64[P, M]``: ``1 << card`` of both cards (for card conflicts);
* ``cw float64[P, M]``: weights (> 0); ``ncombo int64[P]``: combos per player;
* ``cid int64[P, M]``: combo index 0..1325; ``pos int32[P, 1326]``: local index of a combo
  index in each player's list, or -1.

Exact walks go *board-major*: for every full board (``boards uint8[N, 5]``, weighted by
``bweights int64[N]``, the size of its suit-isomorphism orbit) the strength of every live combo
of every player is looked up once, then the compatible combinations are scored. Results are
per-combo float sums (weights are floats) into per-block accumulators that Python adds up.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from evaluator._jit import inline, parallel, parallel_and_serial, serial
from evaluator._kernels.holdem import KEY_INIT_I64, RANK_BITS, flush_strength, rank_strength
from simulate._kernels.award import best_and_ties
from simulate._kernels.score import score_row, scorer_row

N_BLOCKS = 16  # blocks of boards in the exact walks (fixed: results do not depend on threads)


@inline
def block_bounds(blk, lo, hi, n_blocks):
    """Items ``[start, stop)`` of block ``blk`` when items ``lo..hi-1`` are cut into
    ``n_blocks`` fixed blocks of ``ceil((hi - lo) / n_blocks)`` items (the last ones shorter
    or empty: ``start >= stop``). The one block schedule of the walks and the sampler: fixed
    blocks, each summed into its own accumulator, make the sums independent of the thread
    count."""
    step = (hi - lo + n_blocks - 1) // n_blocks
    start = lo + blk * step
    return start, min(hi, start + step)


# ----------------------------------------------------------------------------- heads-up walk
@inline
def _counting_pass(src, dst, n, shift, n_buckets):
    """Move ``src[:n]`` (int64) into ``dst`` stably sorted by the digit ``(x >> shift) &
    (n_buckets - 1)`` (``n_buckets`` a power of two): one pass of :func:`_radix_sort`.
    Inlined: as a plain call the heads-up range walk ran 1.6x slower (measured)."""
    cnt = np.zeros(n_buckets, np.int64)
    for i in range(n):
        cnt[(src[i] >> shift) & (n_buckets - 1)] += 1
    t = 0
    for d in range(n_buckets):
        c = cnt[d]
        cnt[d] = t
        t += c
    for i in range(n):
        d = (src[i] >> shift) & (n_buckets - 1)
        dst[cnt[d]] = src[i]
        cnt[d] += 1


@serial
def _radix_sort(keys, n, tmp):
    """Sort ``keys[:n]`` (int64, strength << 12 | item) by strength, stably, via ``tmp``:
    the strength's low 7 bits, then its high 6 (strengths < 2**13)."""
    _counting_pass(keys, tmp, n, 12, 128)
    _counting_pass(tmp, keys, n, 19, 64)


@inline
def _sorted_item(key):
    """Player ``p`` (0 or 1) and live index ``k`` of a sorted key of the heads-up walk
    (``strength << 12 | (p * 2048 + k)``)."""
    it = key & 4095
    return it >> 11, it & 2047


@serial
def _live_strengths(board, ckey, cmask, cbits, ncombo, tables, live, strength, nl):
    """On the full ``board`` (uint8[5]), each player's combos that miss it, and their strengths.

    ``ckey``/``cmask``/``cbits`` (int64[P, M]): each combo's key, mask and card bits;
    ``ncombo`` (int64[P]). Writes ``live[p, :nl[p]]`` (combo indices), ``strength[p, :nl[p]]``
    and ``nl`` (int64[P]); returns the smallest ``nl[p]`` (0: some player has no combo).
    """
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    bkey = KEY_INIT_I64
    bmask = np.int64(0)
    bbits = np.int64(0)
    for j in range(5):
        c = board[j]
        bkey += card_key[c]
        bmask |= card_mask[c]
        bbits |= np.int64(1) << c
    fewest = ckey.shape[1]
    for p in range(nl.shape[0]):
        n = 0
        for i in range(ncombo[p]):
            if cbits[p, i] & bbits:
                continue
            live[p, n] = i
            kk = bkey + ckey[p, i]
            if (kk >> 32) & 0x8888:
                strength[p, n] = flush_strength(kk, bmask | cmask[p, i], flush_table)
            else:
                strength[p, n] = rank_strength(kk, row_offsets, rank_table)
            n += 1
        nl[p] = n
        fewest = min(fewest, n)
    return fewest


@serial
def _hu_block(boards, bweights, lo, hi, ckey, cmask, cbits, cw, ncombo, cards, pos, cid,
              cat_of, tables, acc, cat_acc, pair_factor):
    M = ckey.shape[1]
    live = np.empty((2, M), np.int64)
    strength = np.empty((2, M), np.int64)
    nl = np.zeros(2, np.int64)
    res = np.zeros((2, M, 3), np.float64)  # per live item: win, tie, total opponent weight
    keys = np.empty(2 * M, np.int64)
    tmp = np.empty(2 * M, np.int64)
    cum_all = np.zeros(2)
    cum_card = np.zeros((2, 52))
    grp_all = np.zeros(2)
    grp_card = np.zeros((2, 52))
    tot_all = np.zeros(2)
    tot_card = np.zeros((2, 52))
    vb = np.empty(M, np.int64)
    vs = np.empty(M, np.int64)
    vw = np.empty(M, np.float64)
    vwin = np.empty(M, np.float64)
    vtie = np.empty(M, np.float64)
    vtot = np.empty(M, np.float64)
    for bi in range(lo, hi):
        _live_strengths(boards[bi], ckey, cmask, cbits, ncombo, tables, live, strength, nl)
        n0 = nl[0]
        n1 = nl[1]
        if n0 == 0 or n1 == 0:
            continue
        if n0 * n1 <= pair_factor * (n0 + n1):
            # pairwise, branch-free over contiguous copies of player 1's live combos
            for y in range(n1):
                j = live[1, y]
                vb[y] = cbits[1, j]
                vs[y] = strength[1, y]
                vw[y] = cw[1, j]
                vwin[y] = 0.0
                vtie[y] = 0.0
                vtot[y] = 0.0
            for x in range(n0):
                i = live[0, x]
                bi0 = cbits[0, i]
                s0 = strength[0, x]
                w0 = cw[0, i]
                win0 = 0.0
                tie0 = 0.0
                tot0 = 0.0
                for y in range(n1):
                    ok = (bi0 & vb[y]) == 0
                    wv = vw[y] * ok
                    sv = vs[y]
                    win0 += wv * (s0 > sv)
                    tie0 += wv * (s0 == sv)
                    tot0 += wv
                    wo = w0 * ok
                    vwin[y] += wo * (s0 < sv)
                    vtie[y] += wo * (s0 == sv)
                    vtot[y] += wo
                res[0, x, 0] = win0
                res[0, x, 1] = tie0
                res[0, x, 2] = tot0
            for y in range(n1):
                res[1, y, 0] = vwin[y]
                res[1, y, 1] = vtie[y]
                res[1, y, 2] = vtot[y]
        else:
            # sorted walk with per-card inclusion-exclusion
            n = 0
            for p in range(2):
                tot_all[p] = 0.0
                for c in range(52):
                    tot_card[p, c] = 0.0
                    cum_card[p, c] = 0.0
                    grp_card[p, c] = 0.0
                cum_all[p] = 0.0
                grp_all[p] = 0.0
                for k in range(nl[p]):
                    i = live[p, k]
                    w = cw[p, i]
                    tot_all[p] += w
                    tot_card[p, cards[p, i, 0]] += w
                    tot_card[p, cards[p, i, 1]] += w
                    keys[n] = (strength[p, k] << 12) | (p * 2048 + k)
                    n += 1
            _radix_sort(keys, n, tmp)
            g0 = 0
            while g0 < n:
                s = keys[g0] >> 12
                g1 = g0 + 1
                while g1 < n and (keys[g1] >> 12) == s:
                    g1 += 1
                for t in range(g0, g1):
                    p, k = _sorted_item(keys[t])
                    i = live[p, k]
                    w = cw[p, i]
                    grp_all[p] += w
                    grp_card[p, cards[p, i, 0]] += w
                    grp_card[p, cards[p, i, 1]] += w
                for t in range(g0, g1):
                    p, k = _sorted_item(keys[t])
                    q = 1 - p
                    i = live[p, k]
                    a = cards[p, i, 0]
                    b = cards[p, i, 1]
                    same = pos[q, cid[p, i]]
                    sw = cw[q, same] if same >= 0 else 0.0
                    res[p, k, 0] = cum_all[q] - cum_card[q, a] - cum_card[q, b]
                    res[p, k, 1] = grp_all[q] - grp_card[q, a] - grp_card[q, b] + sw
                    res[p, k, 2] = tot_all[q] - tot_card[q, a] - tot_card[q, b] + sw
                for t in range(g0, g1):
                    p, k = _sorted_item(keys[t])
                    i = live[p, k]
                    w = cw[p, i]
                    a = cards[p, i, 0]
                    b = cards[p, i, 1]
                    cum_all[p] += w
                    cum_card[p, a] += w
                    cum_card[p, b] += w
                    grp_all[p] = 0.0
                    grp_card[p, a] = 0.0
                    grp_card[p, b] = 0.0
                g0 = g1
        bw = np.float64(bweights[bi])
        for p in range(2):
            for k in range(nl[p]):
                i = live[p, k]
                f = bw * cw[p, i]
                tot = res[p, k, 2]
                acc[p, i, 0] += f * res[p, k, 0]
                acc[p, i, 1] += f * res[p, k, 1]
                acc[p, i, 2] += f * 0.5 * res[p, k, 1]
                acc[p, i, 3] += f * tot
                cat_acc[p, i, cat_of[strength[p, k]]] += f * tot


@parallel
def hu_walk(boards, bweights, ckey, cmask, cbits, cw, ncombo, cards, pos, cid, cat_of, tables,
            acc, cat_acc, pair_factor):
    """Heads-up exact walk. ``acc float64[B, 2, M, 4]`` gets per block and combo the weighted
    sums of (win, tie, tie/2, total) and ``cat_acc float64[B, 2, M, 9]`` the total per final
    hand category; every sum carries the board weight, the combo's own weight and the
    opponent's compatible weight. ``cards uint8[2, M, 2]``."""
    nb_blocks = acc.shape[0]
    for blk in nb.prange(nb_blocks):
        lo, hi = block_bounds(blk, 0, boards.shape[0], nb_blocks)
        if lo < hi:
            _hu_block(boards, bweights, lo, hi, ckey, cmask, cbits, cw, ncombo, cards, pos, cid,
                      cat_of, tables, acc[blk], cat_acc[blk], pair_factor)


# ----------------------------------------------------------------------------- heads-up vs random
@serial
def _first_at_least(sorted_vals, lo, hi, v):
    """The first index in ``lo..hi`` (``hi`` if none) whose ``sorted_vals`` (ascending) is
    ``>= v``: a binary search."""
    while lo < hi:
        mid = (lo + hi) >> 1
        if sorted_vals[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo


@serial
def _add_class(S, r1, r2, c, sh, less, eq, g1, g2, gc, ng):
    """Count ``c`` villain combos of the suitless class ``(r1, r2)`` against a hero of
    strength ``sh``: into ``less``/``eq`` by how ``S[r1, r2]`` compares, and as entry ``ng``
    of the class list ``g1``/``g2``/``gc``. Returns ``less, eq, ng + 1``."""
    sv = S[r1, r2]
    less += c * (sv < sh)
    eq += c * (sv == sh)
    g1[ng] = r1
    g2[ng] = r2
    gc[ng] = c
    return less, eq, ng + 1


@serial
def _hr_block(boards, bweights, lo, hi, hkey, hmask, hbits, hw, hcards, pool, wv, cat_of, tables,
              acc, cat_acc, vacc, vcat, sorted_from):
    """Boards ``lo..hi-1`` of the heads-up walk of a hero range against ``random``
    (:func:`hu_random_walk`, one block of it).

    Inputs: ``boards`` uint8[N, 5] (canonical full boards) and ``bweights`` int64[N] (their
    orbit sizes); the hero's ``n`` combos as ``hkey`` int64[n] (sum of the two cards'
    evaluator keys), ``hmask`` int64[n] (OR of their masks), ``hbits`` int64[n]
    (``1 << card`` of both), ``hw`` float64[n] (weights) and ``hcards`` uint8[n, 2]
    (``lo < hi`` card ids); ``pool`` int64: bit set of the cards on neither the spot's board
    nor its dead cards (the villain holds any two of them off the walked board); ``wv``
    float64: the villain's one weight; ``cat_of`` uint8[7463]: category of each strength;
    ``tables``: the evaluator's ``kernel_args``; ``sorted_from``: from this many hero
    combos on, the villain's rank classes are read from per-board prefix sums.

    Outputs (added to, float64): ``acc[n, 4]`` per hero combo (win, tie, tie/2, total
    villain weight), ``cat_acc[n, 9]`` per hero combo and final category, ``vacc[4]`` and
    ``vcat[9]`` the villain's totals. Every term carries the board's orbit weight times the
    hero combo's weight times ``wv``.

    Per board: the villain's suitless strength ``S[r1, r2]`` of each of the 91 rank pairs is
    looked up once and its combos counted by card removal (``nr``: live cards per rank); the
    villain combos that make a flush are listed (``fbits``, ``fstr``, ``fnon``) and
    corrected one by one; each hero combo then counts the villain combos below and equal to
    it (all 91 classes, or with ``n >= sorted_from`` binary searches in the sorted classes
    plus the classes holding one of the hero's ranks)."""
    card_key, card_mask, row_offsets, rank_table, flush_table = tables
    n = hkey.shape[0]
    rkey = np.empty(13, np.int64)
    for r in range(13):
        rkey[r] = card_key[4 * r]  # rank part in the low 32 bits; rank_strength ignores the rest
    nr = np.zeros(13, np.int64)
    S = np.zeros((13, 13), np.int64)  # S[r1, r2], r1 <= r2: strength of a suitless villain pair
    clsw = np.zeros((13, 13), np.float64)  # hero weight x compatible villain combos per class
    acards = np.empty(52, np.int64)
    nxt = np.empty(53, np.int64)
    fbits = np.empty(1326, np.int64)
    fstr = np.empty(1326, np.int64)
    fnon = np.empty(1326, np.int64)
    fw = np.empty(1326, np.float64)
    sc = np.zeros(4, np.int64)
    sorted_mode = n >= sorted_from
    cnt0 = np.zeros((13, 13), np.int64)
    cls_s = np.empty(92, np.int64)
    cls_c = np.empty(92, np.int64)
    cls_cum = np.zeros(93, np.int64)
    g1 = np.empty(92, np.int64)  # a group's classes (r1, r2) and counts
    g2 = np.empty(92, np.int64)
    gc = np.empty(92, np.int64)
    prev_ranks = np.int64(-1)
    ncls = 0
    na = 0
    for bi in range(lo, hi):
        bkey = KEY_INIT_I64
        bmask = np.int64(0)
        bbits = np.int64(0)
        for s in range(4):
            sc[s] = 0
        for j in range(5):
            c = boards[bi, j]
            bkey += card_key[c]
            bmask |= card_mask[c]
            bbits |= np.int64(1) << c
            sc[c & 3] += 1
        avail = pool & ~bbits
        for r1 in range(13):
            for r2 in range(r1, 13):
                clsw[r1, r2] = 0.0
        # the live cards per rank, the classes' strengths and their sorted counts depend on
        # the board's ranks alone (its cards come from ``pool``, but the spot's own, the same
        # on every board), so a run of boards of one rank multiset computes them once
        ranks = bkey & RANK_BITS
        fresh = ranks != prev_ranks
        prev_ranks = ranks
        if fresh:
            na = 0  # live cards
            for r in range(13):
                m = (avail >> (4 * r)) & 0xF
                nr[r] = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
                na += nr[r]
            for r1 in range(13):
                for r2 in range(r1, 13):
                    ok = nr[r1] >= 2 if r1 == r2 else (nr[r1] >= 1 and nr[r2] >= 1)
                    if ok:
                        S[r1, r2] = rank_strength(bkey + rkey[r1] + rkey[r2], row_offsets,
                                                  rank_table)
        wsum = 0.0
        if sorted_mode and fresh:
            ncls = 0
            for r1 in range(13):
                for r2 in range(r1, 13):
                    c = nr[r1] * (nr[r1] - 1) // 2 if r1 == r2 else nr[r1] * nr[r2]
                    cnt0[r1, r2] = c
                    if c > 0:
                        # insertion sort by strength
                        sv = S[r1, r2]
                        j = ncls
                        while j > 0 and cls_s[j - 1] > sv:
                            cls_s[j] = cls_s[j - 1]
                            cls_c[j] = cls_c[j - 1]
                            j -= 1
                        cls_s[j] = sv
                        cls_c[j] = c
                        ncls += 1
            cls_cum[0] = 0
            for j in range(ncls):
                cls_cum[j + 1] = cls_cum[j] + cls_c[j]
        # villain combos that make a flush: listed with their flush and suitless strengths
        fs = -1
        for s in range(4):
            if sc[s] >= 3:
                fs = s
        nf = 0
        if fs >= 0:
            x = 0  # the live cards, listed only for a board that can make a flush
            for c in range(52):
                if (avail >> c) & 1:
                    acards[x] = c
                    x += 1
            need = 5 - sc[fs]
            # the pairs x < y with ``need`` cards of suit fs, in the double loop's order (so
            # sums keep theirs); nxt[x]: the first card of the suit at or after x
            nxt_at = nxt[na] = na
            for x in range(na - 1, -1, -1):
                if acards[x] & 3 == fs:
                    nxt_at = x
                nxt[x] = nxt_at
            for x in range(na):
                cx = acards[x]
                kx = np.int64(cx & 3 == fs)
                if kx + 1 < need:  # need 2: only a suited x can start a pair
                    continue
                y = x + 1 if kx + 0 >= need else nxt[x + 1]
                while y < na:
                    cy = acards[y]
                    y_next = y + 1 if kx >= need else nxt[y + 1]
                    fbits[nf] = (np.int64(1) << cx) | (np.int64(1) << cy)
                    kk = bkey + card_key[cx] + card_key[cy]
                    if (kk >> 32) & 0x8888:
                        fstr[nf] = flush_strength(kk, bmask | card_mask[cx] | card_mask[cy],
                                                  flush_table)
                    else:
                        fstr[nf] = rank_strength(kk, row_offsets, rank_table)
                    fnon[nf] = S[cx >> 2, cy >> 2]  # cx < cy, so rank(cx) <= rank(cy)
                    fw[nf] = 0.0
                    nf += 1
                    y = y_next
        bw = np.float64(bweights[bi])
        # consecutive hero combos of equal ranks, live cards and strength (a pair's suits,
        # off a flush) count the same villain classes: counted once per such group, whose
        # classes get the group's weight times the counts (same sums for dyadic weights)
        pkey = np.int64(-1)
        gw = 0.0
        ng = 0
        less0 = np.int64(0)
        eq0 = np.int64(0)
        for i in range(n):
            hb = hbits[i]
            if hb & bbits:
                continue
            kh = bkey + hkey[i]
            if (kh >> 32) & 0x8888:
                sh = flush_strength(kh, bmask | hmask[i], flush_table)
            else:
                sh = rank_strength(kh, row_offsets, rank_table)
            a = np.int64(hcards[i, 0])
            b = np.int64(hcards[i, 1])
            ra = a >> 2
            rb = b >> 2
            da = (avail >> a) & 1
            db = (avail >> b) & 1
            m = na - da - db
            tot = m * (m - 1) // 2
            w = hw[i]
            gkey = (((sh * 13 + ra) * 13 + rb) * 2 + da) * 2 + db
            if sorted_mode:
                wsum += w
            if gkey == pkey:
                gw += w
                less = less0
                eq = eq0
            else:
                for k in range(ng):
                    clsw[g1[k], g2[k]] += gw * gc[k]
                ng = 0
                pkey = gkey
                gw = w
                nr[ra] -= da
                nr[rb] -= db
                less = np.int64(0)
                eq = np.int64(0)
                if not sorted_mode:
                    for r1 in range(13):
                        n1 = nr[r1]
                        if n1 == 0:
                            continue
                        for r2 in range(r1, 13):
                            c = n1 * (n1 - 1) // 2 if r2 == r1 else n1 * nr[r2]
                            if c > 0:
                                less, eq, ng = _add_class(S, r1, r2, c, sh, less, eq, g1, g2,
                                                          gc, ng)
                else:
                    # all classes from the prefix sums, then the classes holding a hero rank
                    x0 = _first_at_least(cls_s, 0, ncls, sh)
                    y0 = _first_at_least(cls_s, x0, ncls, sh + 1)
                    less = cls_cum[x0]
                    eq = cls_cum[y0] - cls_cum[x0]
                    for ti in range(2):
                        t = ra if ti == 0 else rb
                        if (da if ti == 0 else db) == 0 or (ti == 1 and rb == ra and da == 1):
                            continue
                        for r in range(13):
                            if ti == 1 and r == ra and da == 1:
                                continue  # class (ra, rb) done with ra
                            r1 = min(t, r)
                            r2 = max(t, r)
                            if r1 == r2:
                                c = nr[r1] * (nr[r1] - 1) // 2
                            else:
                                c = nr[r1] * nr[r2]
                            d = c - cnt0[r1, r2]
                            if d != 0:
                                less, eq, ng = _add_class(S, r1, r2, d, sh, less, eq, g1, g2,
                                                          gc, ng)
                nr[ra] += da
                nr[rb] += db
                less0 = less
                eq0 = eq
            for f in range(nf):
                if fbits[f] & hb:
                    continue
                sf = fstr[f]
                sn = fnon[f]
                less += (sf < sh) - (sn < sh)
                eq += (sf == sh) - (sn == sh)
                fw[f] += w
            g = bw * w * wv
            acc[i, 0] += g * less
            acc[i, 1] += g * eq
            acc[i, 2] += g * 0.5 * eq
            acc[i, 3] += g * tot
            cat_acc[i, cat_of[sh]] += g * tot
            vacc[0] += g * (tot - less - eq)
            vacc[1] += g * eq
            vacc[2] += g * 0.5 * eq
            vacc[3] += g * tot
        for k in range(ng):
            clsw[g1[k], g2[k]] += gw * gc[k]
        g = bw * wv
        for r1 in range(13):
            for r2 in range(r1, 13):
                x = clsw[r1, r2]
                if sorted_mode:
                    x += wsum * cnt0[r1, r2]
                if x != 0.0:
                    vcat[cat_of[S[r1, r2]]] += g * x
        for f in range(nf):
            if fw[f] != 0.0:
                vcat[cat_of[fstr[f]]] += g * fw[f]
                vcat[cat_of[fnon[f]]] -= g * fw[f]


def hu_random_walk(boards, bweights, hkey, hmask, hbits, hw, hcards, pool, wv, cat_of, tables,
                   acc, cat_acc, vacc, vcat, sorted_from):
    """Heads-up exact walk of a range against ``random``: every pair of cards of ``pool``
    (int64 bit set of card ids) not on the board, each with weight ``wv``. The villain's
    suitless strengths are looked up once per board and rank pair (91 classes, counted by card
    removal), and only the villain combos that make a flush are looked up one by one.
    Hero combos: ``hkey``, ``hmask``, ``hbits`` int64[n], ``hw`` float64[n], ``hcards``
    uint8[n, 2] (lo, hi). Per block: ``acc float64[B, n, 4]`` (win, tie, tie/2, total) and
    ``cat_acc float64[B, n, 9]`` per hero combo as in :func:`hu_walk`; ``vacc float64[B, 4]``
    and ``vcat float64[B, 9]`` the villain's totals (per-combo villain sums are not kept).
    With ``n >= sorted_from`` hero combos, each board sorts the rank-pair classes once and a
    hero combo reads its counts from prefix sums, correcting only the classes that hold one of
    its ranks; below it, every hero combo walks all 91 classes. :data:`hu_random_serial`:
    the same walk on one thread (``_jit.parallel_and_serial``)."""
    nb_blocks = acc.shape[0]
    for blk in nb.prange(nb_blocks):
        lo, hi = block_bounds(blk, 0, boards.shape[0], nb_blocks)
        if lo < hi:
            _hr_block(boards, bweights, lo, hi, hkey, hmask, hbits, hw, hcards, pool, wv, cat_of,
                      tables, acc[blk], cat_acc[blk], vacc[blk], vcat[blk], sorted_from)


hu_random_walk, hu_random_serial = parallel_and_serial(hu_random_walk, "hu_random_serial")


# ----------------------------------------------------------------------------- multiway walk
@serial
def _mw_block(boards, bweights, lo, hi, ckey, cmask, cbits, cw, ncombo, cat_of, tables, acc,
              cat_acc, sc):
    P, M = ckey.shape
    live = np.empty((P, M), np.int64)
    strength = np.empty((P, M), np.int64)
    nl = np.zeros(P, np.int64)
    at = np.zeros(P, np.int64)
    used = np.zeros(P, np.int64)
    wprod = np.zeros_like(cw[:, 0])  # weight products: int64 (exact) or float64, as cw
    st = np.empty(P, np.int64)
    everyone = np.ones(P, np.bool_)
    pots = sc[0].shape[0] > 0
    deals = np.int64(0)
    for bi in range(lo, hi):
        if _live_strengths(boards[bi], ckey, cmask, cbits, ncombo, tables, live, strength,
                           nl) == 0:
            continue
        bw = bweights[bi]
        lvl = 0
        at[0] = -1
        while lvl >= 0:
            at[lvl] += 1
            if at[lvl] >= nl[lvl]:
                lvl -= 1
                continue
            i = live[lvl, at[lvl]]
            prev = used[lvl - 1] if lvl > 0 else np.int64(0)
            b = cbits[lvl, i]
            if b & prev:
                continue
            used[lvl] = prev | b
            wprod[lvl] = (wprod[lvl - 1] if lvl > 0 else bw) * cw[lvl, i]
            if lvl < P - 1:
                lvl += 1
                at[lvl] = -1
                continue
            W = wprod[lvl]
            for p in range(P):
                st[p] = strength[p, at[p]]
            deals += bw
            if pots:  # an all-in: the tuple's pots
                score_row(st, W, sc)
                continue
            best, nbest, _ = best_and_ties(st, everyone)
            for p in range(P):
                k = at[p]
                i = live[p, k]
                s = strength[p, k]
                acc[p, i, 3] += W
                cat_acc[p, i, cat_of[s]] += W
                if s == best:
                    if nbest == 1:
                        acc[p, i, 0] += W
                    else:
                        acc[p, i, 1] += W
                        acc[p, i, 2] += W / nbest
    return deals


@parallel
def mw_walk(boards, bweights, ckey, cmask, cbits, cw, ncombo, cat_of, tables, acc, cat_acc, bsc,
            deals):
    """Exact walk for any number of players: every compatible combination of live combos on
    every board, in ``B = deals.shape[0]`` fixed blocks of boards. Range equity: per-combo
    accumulators as in :func:`hu_walk` (``acc[B, P, M, 4]``: win, tie, split share, total;
    ``cat_acc[B, P, M, 9]``) and a block scorer ``bsc`` without pots. All-in: ``bsc`` is a
    pots block scorer (:func:`simulate._kernels.score.block_scorer`, weights of ``cw``'s
    dtype times the board weights) and ``acc``/``cat_acc`` are not touched. ``deals``
    int64[B]: the (tuple, runout) pairs walked per block."""
    nb_blocks = deals.shape[0]
    for blk in nb.prange(nb_blocks):
        lo, hi = block_bounds(blk, 0, boards.shape[0], nb_blocks)
        if lo < hi:
            deals[blk] = _mw_block(boards, bweights, lo, hi, ckey, cmask, cbits, cw, ncombo,
                                   cat_of, tables, acc[blk], cat_acc[blk],
                                   scorer_row(bsc, blk))
