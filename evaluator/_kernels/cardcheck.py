"""The vectorized card check of :func:`evaluator.evaluate_batch`: eight rows at a time.

``bad_group(flat, start, k)`` (``k`` = 5, 6 or 7, a constant at each call site) looks at
the eight rows of ``k`` card ids (uint8) at ``flat[start:start + 8 * k]`` and returns a
nonzero uint64 when one of them holds an id over 51 or repeats an id. It loads 64 bytes
from ``flat + start``, so the caller makes sure that ``start + 64 <= flat.shape[0]``;
bytes past the eight rows are ignored.

How (generic LLVM vector code; each line is one instruction with AVX-512 VBMI):

1. One byte shuffle spreads the rows into eight 8-byte lanes, row ``r`` in lane ``r``,
   its unused bytes filled with distinct pad values ``0xC0 + j`` (never a card id).
2. One unsigned compare against 51 per id byte (255 per pad byte): the range check.
3. Every pair of the ``k`` ids of a row differs by a rotation of the row modulo ``k``
   (by 1, 2, .. ``k // 2`` places; pads take id bytes, so a pad never meets itself), so
   ``k // 2`` more shuffles and not-equal compares, chained, find any repeat.

So eight 7-card rows cost a load, four shuffles and four compares. Interleaved with the
evaluation of the same eight rows (see :mod:`evaluator._kernels.holdem`), whose loop is
bound by the latency of its table reads, the check costs almost nothing: measured
0.96-1.0x the unchecked speed on the benchmark machine (AMD EPYC, AVX-512), where a
separate scalar pass (``1 << id`` per card, a popcount per row) ran at 0.75-0.79x.
Other CPUs get LLVM's lowering of the same shuffles: always correct, faster or slower.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.extending import intrinsic

#: Rows per check: one 64-byte vector holds eight rows of up to 8 ids.
GROUP = 8
#: Bytes one check reads from its start (more than the ``8 * k`` it looks at).
LOAD = 64


def _rotations(k: int) -> list[list[int]]:
    """The lane maps of step 3: map ``d`` takes byte ``j`` of a row from byte ``(j + d) % k``;
    pad bytes take byte 0."""
    return [[(j + d) % k for j in range(k)] + [0] * (8 - k) for d in range(1, k // 2 + 1)]


def _make(k: int):
    v_i8 = ir.VectorType(ir.IntType(8), LOAD)
    v_i32 = ir.VectorType(ir.IntType(32), LOAD)
    undef = ir.Constant(v_i8, None)
    spread, pads, limit = [], [], []
    for r in range(GROUP):
        for j in range(8):
            if j < k:  # an id byte: from the load
                spread.append(k * r + j)
                pads.append(0)
                limit.append(51)
            else:  # a pad byte: from the pad vector
                spread.append(64 + 8 * r + j)
                pads.append(0xC0 + j)
                limit.append(255)
    rotations = [[8 * r + m[j] for r in range(GROUP) for j in range(8)] for m in _rotations(k)]

    @intrinsic
    def bad_group(typingctx, flat, start):
        # one contiguous load: only C-contiguous uint8 vectors (a slice ``a[i:]`` of one is)
        if not (isinstance(flat, types.Array) and flat.ndim == 1 and flat.layout == "C"
                and flat.dtype == types.uint8):
            return None

        def codegen(context, builder, sig, args):
            arr = context.make_array(sig.args[0])(context, builder, args[0])
            ptr = builder.gep(arr.data, [args[1]])
            raw = builder.load(builder.bitcast(ptr, v_i8.as_pointer()), align=1)
            rows = builder.shuffle_vector(raw, ir.Constant(v_i8, pads), ir.Constant(v_i32, spread))
            ok = builder.icmp_unsigned("<=", rows, ir.Constant(v_i8, limit))
            for rot in rotations:
                other = builder.shuffle_vector(rows, undef, ir.Constant(v_i32, rot))
                ok = builder.and_(ok, builder.icmp_unsigned("!=", rows, other))
            return builder.bitcast(builder.not_(ok), ir.IntType(64))

        return types.uint64(flat, types.intp), codegen

    bad_group.__doc__ = (f"Nonzero (uint64) when one of the 8 rows of {k} ids (uint8) at "
                         f"``flat[start:start + {8 * k}]`` repeats an id or holds one over "
                         "51; reads ``flat[start:start + 64]``.")
    return bad_group


bad_group5 = _make(5)
bad_group6 = _make(6)
bad_group7 = _make(7)
