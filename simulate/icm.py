"""Tournament equity: :func:`icm`, each player's expected prize under the Malmuth-Harville
model (the Independent Chip Model).

The model: the first place goes to a player with probability its stack over all the chips,
then the next place among the players left by the same rule, and so on. Players with no
chips (busted) take the lowest places, in the order given: the first busted player listed
takes the best of those places. Places beyond the payouts pay nothing.

Two exact methods (:mod:`simulate._kernels.icm`): the walk over the sets of players that
took the first places, for fields of at most :data:`SUBSET_MAX` players with chips, and the
race integral (each player finishing at an exponential time of rate its stack) by
Gauss-Legendre quadrature for larger fields: ``O(nodes x players x paid places)``, relative
error below 1e-9 (tested against the subset walk, the equal-stack answer and a closed form
for 1,000 players). ``model="monte-carlo"`` samples finishing orders instead (seeded; the
standard errors in :func:`icm_monte_carlo`).
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["MODELS", "SUBSET_MAX", "IcmMonteCarlo", "check_amounts", "check_payouts",
           "check_stacks", "icm", "icm_after_hand", "icm_monte_carlo"]

MODELS = ("malmuth-harville", "monte-carlo")
#: Largest field (players with chips) the subset walk takes; larger fields integrate.
SUBSET_MAX = 14
#: Gauss-Legendre nodes per interval of the race integral, and the most standard deviations of
#: the number of finished players one interval spans.
GL_NODES = 16
WIDTH = 4.0
_FLOAT_MAX = sys.float_info.max


@functools.lru_cache(maxsize=4)
def _gauss_legendre(k: int) -> tuple[np.ndarray, np.ndarray]:
    return np.polynomial.legendre.leggauss(k)


def _finite_array(values: Sequence[float] | np.ndarray, what: str) -> np.ndarray:
    """``values`` as float64[n]: finite entries with a finite total; else a one-line
    ValueError naming ``what`` and the entry (1-based)."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{what} must be a list of numbers, got {values!r}")
    try:
        arr = np.array(values, dtype=np.float64)
    except OverflowError:  # a Python int beyond the largest float
        big = [k for k, v in enumerate(values) if isinstance(v, int) and abs(v) > _FLOAT_MAX]
        where = f"entry {big[0] + 1}" if big else "an entry"
        raise ValueError(f"{what}: {where} is too large for a float") from None
    except (TypeError, ValueError):
        raise ValueError(f"{what} must be numbers, got {values!r}") from None
    if arr.ndim != 1:
        raise ValueError(f"{what} must be a flat list of numbers")
    bad = np.flatnonzero(~np.isfinite(arr))
    if bad.size:
        raise ValueError(f"{what}: entry {int(bad[0]) + 1} is {arr[bad[0]]}, not a finite number")
    with np.errstate(over="ignore"):
        if not np.isfinite(np.abs(arr).sum()):
            raise ValueError(f"{what}: the total is too large for a float (above "
                             f"{_FLOAT_MAX:.4g})")
    return arr


def _scaled(s: np.ndarray) -> np.ndarray:
    """Checked stacks, times the power of two that brings the largest into [0.5, 1) when it
    is far from 1: exact, and ICM does not change, but tiny (subnormal) stacks no longer
    lose precision."""
    top = s.max()
    return s if 2.0 ** -500 < top < 2.0 ** 500 else np.ldexp(s, -int(np.frexp(top)[1]))


def check_amounts(values: Sequence[float] | np.ndarray, what: str = "stacks") -> np.ndarray:
    """``values`` as float64[n], n >= 1, finite and non-negative with a finite total; else a
    one-line ValueError naming ``what`` and the entry (1-based)."""
    s = _finite_array(values, what)
    if s.size == 0:
        raise ValueError(f"{what}: no players given")
    neg = np.flatnonzero(s < 0)
    if neg.size:
        raise ValueError(f"{what}: player {int(neg[0]) + 1} has a negative stack "
                         f"({s[neg[0]]:g})")
    return s


def check_stacks(stacks: Sequence[float] | np.ndarray) -> np.ndarray:
    """``stacks`` as float64[n]: finite, non-negative, at least one player with chips; else
    a one-line ValueError naming the fault."""
    s = check_amounts(stacks)
    if not (s > 0).any():
        raise ValueError("stacks: nobody has any chips")
    return s


def check_payouts(payouts: Sequence[float] | np.ndarray, n_players: int) -> np.ndarray:
    """``payouts`` as float64[m]: finite, non-negative, 1 <= m <= ``n_players``; else a
    one-line ValueError."""
    p = _finite_array(payouts, "payouts")
    if p.size == 0:
        raise ValueError("payouts: no places paid")
    neg = np.flatnonzero(p < 0)
    if neg.size:
        raise ValueError(f"payouts: place {int(neg[0]) + 1} pays a negative amount ({p[neg[0]]:g})")
    if p.size > n_players:
        raise ValueError(f"payouts: {p.size} places paid but only {n_players} players")
    return p


def icm(stacks: Sequence[float] | np.ndarray, payouts: Sequence[float] | np.ndarray, *,
        model: str = "malmuth-harville", samples: int = 1_000_000,
        seed: int | None = None) -> np.ndarray:
    """Each player's expected prize (float64[n], in the payouts' units), in the order given.

    ``stacks``: n >= 1 chip counts (floats allowed; 0 = busted, taking the lowest places in
    the order given); ``payouts``: the prize of place 1, 2, ..., m (m <= n; later places pay
    nothing). ``model``: ``"malmuth-harville"`` (exact) or ``"monte-carlo"`` (``samples``
    finishing orders drawn with ``seed``; :func:`icm_monte_carlo` gives the standard errors).
    Raises ValueError (one line) for negative, NaN or infinite entries, a total beyond the
    largest float, no chips, more payouts than players or an unknown model. The shares add
    up to the payouts' sum."""
    if model == "monte-carlo":
        return icm_monte_carlo(stacks, payouts, samples=samples, seed=seed).equity
    if model != "malmuth-harville":
        raise ValueError(f"model must be one of {', '.join(MODELS)}, got {model!r}")
    fast = _fast(stacks, payouts)
    if fast is not None:
        return fast
    s = check_stacks(stacks)
    pay = check_payouts(payouts, s.size)
    return _exact(s, pay)


_SUBSETS: list[Any] = []  # the subset walk's kernel, once loaded


def _fast(stacks: Any, payouts: Any) -> np.ndarray | None:
    """:func:`icm` of a small field where every stack is positive and every number sound
    (the common call, a few microseconds), or None to take the checked road."""
    try:
        s = np.asarray(stacks, np.float64)
        pay = np.asarray(payouts, np.float64)
    except (TypeError, ValueError, OverflowError):
        return None
    if s.ndim != 1 or pay.ndim != 1 or not 2 <= s.size <= SUBSET_MAX \
            or not 1 <= pay.size <= s.size:
        return None
    lo = min(s.min(), pay.min())
    if not (lo >= 0 and s.min() > 0 and max(s.max(), pay.max()) < 1e300):  # NaN: False
        return None
    if not _SUBSETS:
        from simulate._kernels.icm import icm_subsets

        _SUBSETS.append(icm_subsets)
    out = np.zeros(s.size)
    _SUBSETS[0](_scaled(s), pay, out)
    return out


def _exact(s: np.ndarray, pay: np.ndarray) -> np.ndarray:
    """:func:`icm` of checked arrays."""
    from simulate._kernels import icm as K

    n = s.size
    out = np.zeros(n)
    alive = np.flatnonzero(s > 0)
    busted = np.flatnonzero(s == 0)
    n_alive = alive.size
    for place, seat in enumerate(busted.tolist(), start=n_alive):
        if place < pay.size:
            out[seat] = pay[place]
    paid = pay[:n_alive]
    nz = np.flatnonzero(paid)
    if nz.size == 0:
        return out
    paid = np.ascontiguousarray(paid[: int(nz[-1]) + 1])
    sa = np.ascontiguousarray(_scaled(s[alive]))
    res = np.zeros(n_alive)
    if n_alive == 1:
        res[0] = paid[0]
    elif n_alive <= SUBSET_MAX:
        K.icm_subsets(sa, paid, res)
    else:
        x, w = _gauss_legendre(GL_NODES)
        K.icm_integral(sa, paid, x, w, WIDTH, res)
    out[alive] = res
    return out


def icm_after_hand(final: np.ndarray, start: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    """:func:`icm` of the stacks ``final`` after a hand (float64[n]; checked payouts), the
    players it busted taking the lowest places by the chips they started it with
    (``start``: more chips, the better place; equal, the earlier seat)."""
    busted = sorted(np.flatnonzero(final == 0).tolist(), key=lambda s: (-start[s], s))
    perm = np.array([*np.flatnonzero(final > 0).tolist(), *busted], np.int64)
    out = np.empty(final.size)
    out[perm] = _exact(final[perm], payouts)
    return out


@dataclass
class IcmMonteCarlo:
    """:func:`icm_monte_carlo`'s answer: ``equity`` and ``std_error`` float64[n], the
    ``samples`` drawn and the ``seed`` used."""

    equity: np.ndarray
    std_error: np.ndarray
    samples: int
    seed: int


def icm_monte_carlo(stacks: Sequence[float] | np.ndarray, payouts: Sequence[float] | np.ndarray,
                    *, samples: int = 1_000_000, seed: int | None = None) -> IcmMonteCarlo:
    """ICM by sampling ``samples`` finishing orders (the exponential race: each player's
    finishing time ``-log(U) / stack``, sorted), with the standard error of each mean.
    The same ``seed`` gives the same answer. For checks and comparisons: :func:`icm`'s
    default model is exact and faster."""
    s = _scaled(check_stacks(stacks))
    pay = check_payouts(payouts, s.size)
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
        raise ValueError(f"samples must be an integer >= 2, got {samples!r}")
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (2**63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an integer with 0 <= seed < 2**64, got {seed!r}")
    rng = np.random.default_rng(int(seed))
    n = s.size
    alive = s > 0
    prize = np.zeros(n)
    prize[: pay.size] = pay
    total = np.zeros(n)
    total_sq = np.zeros(n)
    chunk = max(1, 2_000_000 // n)
    done = 0
    order_busted = np.arange(n, dtype=np.float64)  # busted: finish after everyone, in order
    while done < samples:
        k = min(chunk, samples - done)
        t = np.empty((k, n))
        t[:, alive] = rng.exponential(size=(k, int(alive.sum()))) / s[alive]
        t[:, ~alive] = np.inf
        key = np.where(np.isinf(t), 1e300 * (1 + order_busted), t)
        places = np.argsort(np.argsort(key, axis=1), axis=1)
        won = prize[places]
        total += won.sum(axis=0)
        total_sq += (won * won).sum(axis=0)
        done += k
    mean = total / samples
    var = np.maximum(total_sq / samples - mean * mean, 0.0)
    return IcmMonteCarlo(mean, np.sqrt(var / (samples - 1)), samples, int(seed))
