"""Output text laid out row by row (private; arrays and ints only).

A group of batch answers is written as rows of pieces: piece ``p`` is
``text[start[p]:start[p] + length[p]]`` of one uint8 text (``start``, ``length``
int64[K]) and ``idx`` int32[N, C] names the pieces of each of N rows in order, so a row's
text is its pieces end to end. The public side (:class:`simulate.batch.answer_text.Rows`)
makes the pieces (constants, card texts, a table of share texts, each distinct number
once, each row's id, line number and digest, the ids as ranges of the input lines) and
sizes ``out``; the copy is here, so no Python object is made per piece of a row (joining
~60 Python strings a row was most of a batch line's time).
"""

from __future__ import annotations

from evaluator._jit import serial


@serial
def gather_rows(text, start, length, idx, out, ends):
    """Write row ``r`` (pieces ``idx[r, 0]``, ``idx[r, 1]``, ... end to end) after row
    ``r - 1`` in ``out`` uint8[the rows' total length]; ``ends`` int64[N] gets where each
    row ends."""
    pos = 0
    for r in range(idx.shape[0]):
        for c in range(idx.shape[1]):
            p = idx[r, c]
            a = start[p]
            for k in range(length[p]):
                out[pos + k] = text[a + k]
            pos += length[p]
        ends[r] = pos
