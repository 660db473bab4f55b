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

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from evaluator._jit import serial


@intrinsic
def copy_bytes(typingctx, dst, at, src, start, n):
    """``dst[at:at + n] = src[start:start + n]`` (uint8 arrays, ranges in bounds, not
    overlapping) as one ``memcpy``: seven times a loop of byte copies on pieces of ~14
    bytes, which the compiler cannot widen without knowing the arrays apart."""
    sig = types.void(dst, types.intp, src, types.intp, types.intp)

    def codegen(context, builder, signature, args):
        d = context.make_array(signature.args[0])(context, builder, args[0])
        s = context.make_array(signature.args[2])(context, builder, args[2])
        cgutils.raw_memcpy(builder, builder.gep(d.data, [args[1]]),
                           builder.gep(s.data, [args[3]]), args[4], 1)

    return sig, codegen


@serial
def gather_rows(text, start, length, idx, out, ends):
    """Write row ``r`` (pieces ``idx[r, 0]``, ``idx[r, 1]``, ... end to end) after row
    ``r - 1`` in ``out`` uint8[the rows' total length]; ``ends`` int64[N] gets where each
    row ends."""
    pos = 0
    for r in range(idx.shape[0]):
        for c in range(idx.shape[1]):
            p = idx[r, c]
            copy_bytes(out, pos, text, start[p], length[p])
            pos += length[p]
        ends[r] = pos
