"""Counter-based random streams for Numba kernels (SplitMix64).

A Monte Carlo run is cut into fixed-size *blocks*; block ``b`` of a run with
seed ``s`` draws from its own stream ``stream_state(s, b)``, so the numbers a
block sees do not depend on which thread runs it, and a seed gives the same
answer on any thread count. States are ``uint64`` scalars; ``next_u64`` returns
the new state and a 64-bit output.
"""

from __future__ import annotations

import numpy as np

from evaluator._jit import serial

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)


@serial
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@serial
def stream_state(seed, block):
    """Initial state (uint64) of stream ``block`` (int >= 0) under ``seed`` (uint64)."""
    return mix64(mix64(np.uint64(seed)) ^ mix64(np.uint64(block) * _GOLDEN + _GOLDEN))


@serial
def next_u64(state):
    """``(new_state, value)``: one step of SplitMix64 (both uint64)."""
    state = state + _GOLDEN
    return state, mix64(state)


@serial
def below(value, n):
    """Map a uint64 ``value`` to ``0..n-1`` by multiply-shift on its high 32 bits.

    The bias is at most n / 2**32, far below Monte Carlo noise for n <= 52.
    """
    return np.int64(((value >> _S32) * np.uint64(n)) >> _S32)
