"""Reading a chunk of batch lines of the common shape (private; arrays and ints only).

The common line is ``{"id": ID, "hands": ["AhKh", "QsQd", ...], "board": "Ks8h2c"}``
exactly as :data:`simulate.batch.fast_lines._FAST_LINE` reads it: JSON whitespace (space,
tab, carriage return) anywhere between tokens; those three keys in that order; ID a whole
number as JSON writes it (``-?[1-9][0-9]{0,17}`` or ``0``) or a string of up to 128 of
``[A-Za-z0-9_.:-]``; 2 to 10 hands of two cards written end to end; a board of 0 to 5
cards. A card is a rank letter (``2-9TJQKA``, either case) and a suit letter (``cdhs``,
either case). :func:`read_lines` checks each line against that grammar (a line that is
not of it is left to the general path: ``shape[i, 0]`` stays 0) and, for those that are,
gives the card ids, the id and the text the line's digest is taken of
(:func:`simulate.batch.requests.digest`), so no Python object is made per line but the
digest itself. ``tests/test_batch_fast_lines.py`` holds it to the regular expression.

Arrays: ``buf`` uint8[T] (the chunk's lines joined by newlines), ``starts``/``ends``
int64[N] (each line's bytes), ``rank_of``/``suit_of`` int64[256] (a letter's rank or suit,
-1 for any other byte), ``pre``/``mid``/``sep``/``post`` uint8 (the digest text around the
board and the hands: ``pre + board + mid + hand + sep + hand ... + post``).
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import inline, serial

MAX_HANDS = 10
MAX_BOARD = 5
MAX_ID = 128  # characters of a string id


@inline
def _ws(buf, p, e):
    """The first position from ``p`` that is not JSON whitespace (``e`` at most)."""
    while p < e and (buf[p] == 32 or buf[p] == 9 or buf[p] == 13):
        p += 1
    return p


@inline
def _key(buf, p, e, word):
    """The position after ``word`` (a quoted key, as a tuple of bytes) then ``:`` with
    whitespace around it, from ``p``; -1 if the text there is not that."""
    if p + len(word) > e:
        return -1
    for k in range(len(word)):
        if buf[p + k] != word[k]:
            return -1
    p = _ws(buf, p + len(word), e)
    if p >= e or buf[p] != 58:  # :
        return -1
    return _ws(buf, p + 1, e)


@inline
def _card(buf, p, e, rank_of, suit_of):
    """The id of the card written at ``p`` (two letters), -1 if none is."""
    if p + 2 > e:
        return -1
    r, s = rank_of[buf[p]], suit_of[buf[p + 1]]
    if r < 0 or s < 0:
        return -1
    return 4 * r + s


@inline
def _id_end(buf, p, e):
    """The end of the id token at ``p`` (a JSON whole number or a plain string), -1 if
    the text there is no such id."""
    if p >= e:
        return -1
    c = buf[p]
    if c == 34:  # a string of [A-Za-z0-9_.:-]
        q = p + 1
        while q < e and q - p - 1 <= MAX_ID:
            c = buf[q]
            if c == 34:
                return q + 1
            if not ((48 <= c <= 58) or (65 <= c <= 90) or (97 <= c <= 122) or c == 95
                    or c == 45 or c == 46):
                return -1
            q += 1
        return -1
    if c == 48:  # 0 alone
        return p + 1
    q = p + 1 if c == 45 else p  # -
    if q >= e or not 49 <= buf[q] <= 57:
        return -1
    d = q + 1
    while d < e and 48 <= buf[d] <= 57:
        d += 1
    return d if d - q <= 18 else -1


@serial
def read_lines(buf, starts, ends, rank_of, suit_of, pre, mid, sep, post, cards, shape,
               id_at, keys, key_end, digest_text, digest_end):
    """Check and read lines ``0..N-1`` (see the module doc).

    For a line of the common shape: ``shape[i]`` = (hands, board cards), ``cards[i]``
    uint8[25] its hands' cards then its board's (in the order written), ``id_at[i]`` =
    (start, end) of its id's JSON text in ``buf``. ``keys`` uint8 gets each line's id key
    (``n`` and the number's text, or ``s`` and the string's characters) and ``digest_text``
    uint8 the text its digest is taken of, line after line with a newline after each;
    ``key_end[i]``/``digest_end[i]`` where line ``i``'s ends. A line not of the shape gets
    ``shape[i, 0] = 0`` and empty texts. ``keys`` needs ``(MAX_ID + 2) * N`` bytes,
    ``digest_text`` ``(pre + mid + post + 5 * 2 + 10 * 4 + 9 * sep + 1) * N``."""
    kp = 0
    dp = 0
    for i in range(starts.size):
        shape[i, 0] = 0
        shape[i, 1] = 0
        key_end[i] = kp
        digest_end[i] = dp
        p, e = _ws(buf, starts[i], ends[i]), ends[i]
        if p >= e or buf[p] != 123:  # {
            continue
        p = _key(buf, _ws(buf, p + 1, e), e, (34, 105, 100, 34))  # "id":
        if p < 0:
            continue
        q = _id_end(buf, p, e)
        if q < 0:
            continue
        id_lo, id_hi = p, q
        p = _ws(buf, q, e)
        if p >= e or buf[p] != 44:  # ,
            continue
        p = _key(buf, _ws(buf, p + 1, e), e, (34, 104, 97, 110, 100, 115, 34))  # "hands":
        if p < 0 or p >= e or buf[p] != 91:  # [
            continue
        p = _ws(buf, p + 1, e)
        n_hands = 0
        hands_at = p  # the first hand's opening quote
        ok = True
        while True:
            if n_hands == MAX_HANDS or p + 6 > e or buf[p] != 34 or buf[p + 5] != 34:
                ok = False
                break
            c0 = _card(buf, p + 1, e, rank_of, suit_of)
            c1 = _card(buf, p + 3, e, rank_of, suit_of)
            if c0 < 0 or c1 < 0:
                ok = False
                break
            cards[i, 2 * n_hands] = c0
            cards[i, 2 * n_hands + 1] = c1
            n_hands += 1
            p = _ws(buf, p + 6, e)
            if p < e and buf[p] == 44:  # , another hand
                p = _ws(buf, p + 1, e)
                continue
            break
        if not ok or n_hands < 2 or p >= e or buf[p] != 93:  # ]
            continue
        p = _ws(buf, p + 1, e)
        if p >= e or buf[p] != 44:  # ,
            continue
        p = _key(buf, _ws(buf, p + 1, e), e, (34, 98, 111, 97, 114, 100, 34))  # "board":
        if p < 0 or p >= e or buf[p] != 34:
            continue
        p += 1
        board_at = p
        n_board = 0
        while p < e and buf[p] != 34 and n_board < MAX_BOARD:
            c = _card(buf, p, e, rank_of, suit_of)
            if c < 0:
                break
            cards[i, 2 * n_hands + n_board] = c
            n_board += 1
            p += 2
        if p >= e or buf[p] != 34:  # a sixth card, or a letter that is no card
            continue
        p = _ws(buf, p + 1, e)
        if p >= e or buf[p] != 125:  # }
            continue
        if _ws(buf, p + 1, e) != e:
            continue
        # a line of the shape: its key and digest text
        shape[i, 0] = n_hands
        shape[i, 1] = n_board
        id_at[i, 0] = id_lo
        id_at[i, 1] = id_hi
        if buf[id_lo] == 34:
            keys[kp] = 115  # s
            for k in range(id_lo + 1, id_hi - 1):
                kp += 1
                keys[kp] = buf[k]
        else:
            keys[kp] = 110  # n
            for k in range(id_lo, id_hi):
                kp += 1
                keys[kp] = buf[k]
        keys[kp + 1] = 10
        kp += 2
        key_end[i] = kp
        for k in range(pre.size):
            digest_text[dp] = pre[k]
            dp += 1
        for k in range(board_at, board_at + 2 * n_board):
            digest_text[dp] = buf[k]
            dp += 1
        for k in range(mid.size):
            digest_text[dp] = mid[k]
            dp += 1
        h = hands_at
        for j in range(n_hands):
            if j:
                for k in range(sep.size):
                    digest_text[dp] = sep[k]
                    dp += 1
                h += 1  # the closing quote
                while buf[h] != 34:  # whitespace and a comma up to the next opening quote
                    h += 1
            for k in range(h + 1, h + 5):
                digest_text[dp] = buf[k]
                dp += 1
            h += 5
        for k in range(post.size):
            digest_text[dp] = post[k]
            dp += 1
        digest_text[dp] = 10
        dp += 1
        digest_end[i] = dp


# ----------------------------------------------------------------------------- digests
#: BLAKE2b's initial words and message schedule (RFC 7693), for :func:`blake2b_8`
BLAKE2B_IV = (0x6A09E667F3BCC908, 0xBB67AE8584CAA73B, 0x3C6EF372FE94F82B, 0xA54FF53A5F1D36F1,
              0x510E527FADE682D1, 0x9B05688C2B3E6C1F, 0x1F83D9ABFB41BD6B, 0x5BE0CD19137E2179)
BLAKE2B_SIGMA = (
    (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
    (14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3),
    (11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4),
    (7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8),
    (9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13),
    (2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9),
    (12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11),
    (13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10),
    (6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5),
    (10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0))


@inline
def _rotr(x, n):
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@inline
def _g(v, a, b, c, d, x, y):
    v[a] = v[a] + v[b] + x
    v[d] = _rotr(v[d] ^ v[a], 32)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 24)
    v[a] = v[a] + v[b] + y
    v[d] = _rotr(v[d] ^ v[a], 16)
    v[c] = v[c] + v[d]
    v[b] = _rotr(v[b] ^ v[c], 63)


@serial
def blake2b_8(text, ends, iv, sigma, hex_digits, out):
    """``hashlib.blake2b(piece, digest_size=8).hexdigest()`` of each piece of ``text``
    uint8 (piece ``i`` ends at ``ends[i]`` int64, the next starting after a one-byte
    separator), written as 16 ASCII hex digits at ``out[16 * i]``: the RFC 7693 hash,
    unkeyed, 8 bytes of digest. ``iv`` uint64[8] and ``sigma`` int64[10, 16] are
    :data:`BLAKE2B_IV` and :data:`BLAKE2B_SIGMA`; ``hex_digits`` uint8[16] is
    ``b"0123456789abcdef"``."""
    h = np.empty(8, np.uint64)
    v = np.empty(16, np.uint64)
    m = np.empty(16, np.uint64)
    start = 0
    for i in range(ends.size):
        end = ends[i]
        for k in range(8):
            h[k] = iv[k]
        h[0] ^= np.uint64(0x01010008)  # digest length 8, no key, fan-out and depth 1
        size = end - start
        done = 0
        while True:  # one 128-byte block at a time; the last one (maybe empty) flagged
            last = size - done <= 128
            take = size - done if last else 128
            for k in range(16):
                m[k] = 0
            for k in range(take):
                m[k >> 3] |= np.uint64(text[start + done + k]) << np.uint64(8 * (k & 7))
            done += take
            for k in range(8):
                v[k] = h[k]
                v[k + 8] = iv[k]
            v[12] ^= np.uint64(done)
            if last:
                v[14] = ~v[14]
            for r in range(12):
                s = sigma[r % 10]
                _g(v, 0, 4, 8, 12, m[s[0]], m[s[1]])
                _g(v, 1, 5, 9, 13, m[s[2]], m[s[3]])
                _g(v, 2, 6, 10, 14, m[s[4]], m[s[5]])
                _g(v, 3, 7, 11, 15, m[s[6]], m[s[7]])
                _g(v, 0, 5, 10, 15, m[s[8]], m[s[9]])
                _g(v, 1, 6, 11, 12, m[s[10]], m[s[11]])
                _g(v, 2, 7, 8, 13, m[s[12]], m[s[13]])
                _g(v, 3, 4, 9, 14, m[s[14]], m[s[15]])
            for k in range(8):
                h[k] ^= v[k] ^ v[k + 8]
            if last:
                break
        d = h[0]
        for k in range(8):  # the first 8 bytes of the state, little-endian, as hex
            byte = (d >> np.uint64(8 * k)) & np.uint64(255)
            out[16 * i + 2 * k] = hex_digits[byte >> np.uint64(4)]
            out[16 * i + 2 * k + 1] = hex_digits[byte & np.uint64(15)]
        start = end + 1
