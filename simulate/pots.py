"""Pot construction and showdown settlement: the money side of an all-in.

Seats are the positions ``0..n-1`` in the order given. Chips are Python
integers and are never created or lost: for any valid input,
``sum(pot.amount for pot in pots) + sum(returned) == sum(committed)``, and
:func:`settle` pays out exactly ``sum(committed)``.

How pots are built (:func:`build_pots`, a wrapper of the project's one pot builder, the
kernel :func:`simulate._kernels.pots.build_pots` that the hand engine uses too):

- The distinct commitment levels ``c1 < c2 < ...`` cut the money into
  layers. Layer ``k`` holds ``(ck - c(k-1))`` chips from every seat that
  committed at least ``ck``, live or folded: a folded seat's chips are dead
  money in every layer it reached.
- A seat is eligible for a layer only if it is live (still holds cards) and
  committed at least that layer's level.
- The layer that only one seat reached holds nothing but that seat's own
  uncalled chips; it is not a pot but is handed back, reported per seat in
  ``returned``. A layer that only one *live* seat can win but that also holds
  dead money from a folded seat is a real pot (that seat wins the dead chips
  uncontested), so it stays in ``pots`` with a single eligible seat.
- Adjacent layers with the same eligible seats merge into one pot (first pot
  is the main pot, then side pots in increasing level).

Bad input is a ``ValueError`` with a one-line message: mismatched lengths, no
seats, no live seat, non-integer or non-positive chips, and *dead money above
every live commitment* (a folded seat that committed more than every live
seat). The last cannot arise from legal betting: the largest commitment
always belongs to a seat that was never asked to call more, so it cannot
have folded; a folded seat tops the table only in a mistyped ``allin`` spec,
and there would be no live player to award those chips to, so it is refused
rather than guessed at.

Settlement (:func:`settle`, and the jitted kernel
:func:`simulate._kernels.award.settle_kernel` that an EV runner calls directly):
each pot goes to the best eligible strength (higher is better); a split is
divided evenly and the odd chips go one at a time to the tied winners in seat
order starting left of the button (button + 1, button + 2, ..., wrapping).
Odd chips are assigned pot by pot.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulate._kernels.award import settle_kernel

__all__ = [
    "Pot",
    "PotStructure",
    "add_dead_money",
    "build_pots",
    "odd_chip_order",
    "pots_to_arrays",
    "settle",
    "settle_kernel",
]


@dataclass(frozen=True)
class Pot:
    """One pot: ``amount`` chips that only the seats in ``eligible`` (sorted) can win."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form used by ``pokerjit allin --json``: ``{"amount", "eligible"}``."""
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass
class PotStructure:
    """Result of :func:`build_pots`.

    ``pots``: main pot first, then side pots by increasing level.
    ``returned``: per seat, the uncalled chips handed back (at most one seat
    is non-zero). ``committed`` and ``live`` echo the validated input.
    """

    pots: list[Pot]
    returned: list[int]
    committed: tuple[int, ...] = field(default=())
    live: tuple[bool, ...] = field(default=())

    @property
    def n_seats(self) -> int:
        """Number of seats."""
        return len(self.returned)

    @property
    def total(self) -> int:
        """All chips committed: pots plus returned chips."""
        return sum(p.amount for p in self.pots) + sum(self.returned)

    def to_dict(self) -> dict[str, Any]:
        """``{"pots": [{"amount", "eligible"}...], "returned": [...]}``."""
        return {"pots": [p.to_dict() for p in self.pots], "returned": list(self.returned)}


from simulate.games import MAX_CHIPS, number_text  # noqa: E402 - the one chip limit (re-exported)


def _index(value: Any, what: str, kind: str) -> int:
    """``value`` as a Python ``int`` (an integer type, not a bool); else a ValueError saying
    ``what`` must be ``kind``."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be {kind}, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise ValueError(f"{what} must be {kind}, got {value!r}") from None


def check_chips(value: Any, what: str, *, allow_zero: bool = False) -> int:
    """``value`` as a whole number of chips, 1..MAX_CHIPS (0 too with ``allow_zero``).

    The one check of a chip amount: raises ValueError naming ``what`` (``"seat 2:
    committed chips"``, ``"dead money"``, ``"--stacks"``) for a non-integer, a negative or
    zero amount, or one the engines cannot represent.
    """
    chips = _index(value, what, "an integer")
    if chips < 0 or (chips == 0 and not allow_zero):
        raise ValueError(f"{what} must be {'non-negative' if allow_zero else 'positive'}, "
                         f"got {number_text(chips)}")
    if chips > MAX_CHIPS:
        raise ValueError(f"{what} must be at most {MAX_CHIPS:.0e}, got {number_text(chips)}")
    return int(chips)


def _as_chips(value: Any, seat: int, allow_zero: bool) -> int:
    return check_chips(value, f"seat {seat}: committed chips", allow_zero=allow_zero)


def _as_live(value: Any, seat: int) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"seat {seat}: live must be True or False, got {value!r}")
    return bool(value)


def build_pots(
    committed: Sequence[int],
    live: Sequence[bool],
    *,
    allow_zero: bool = False,
) -> PotStructure:
    """Split the chips committed to a hand into a main pot and side pots.

    ``committed[s]``: total chips seat ``s`` put in this hand (an integer,
    ``>= 1``; ``0`` too when ``allow_zero`` is set, e.g. for a hand history
    seat that folded without posting). ``live[s]``: True while seat ``s``
    holds cards, False for a fold (its chips are dead money).

    Returns a :class:`PotStructure`; see the module docstring for the rules.
    Raises ``ValueError`` (one-line message) on bad input, including a folded
    seat that committed more than every live seat.
    """
    if isinstance(committed, (str, bytes)) or isinstance(live, (str, bytes)):
        raise ValueError("committed and live must be sequences, one entry per seat")
    n = len(committed)
    if n != len(live):
        raise ValueError(f"committed has {n} seats but live has {len(live)}")
    if n == 0:
        raise ValueError("no seats given")
    chips = [_as_chips(c, s, allow_zero) for s, c in enumerate(committed)]
    alive = [_as_live(v, s) for s, v in enumerate(live)]
    if not any(alive):
        raise ValueError("no live player: at least one seat must still hold cards")
    max_live = max(c for c, a in zip(chips, alive, strict=True) if a)
    dead_top = max(range(n), key=lambda s: (chips[s], -s))
    if chips[dead_top] > max_live:
        raise ValueError(
            f"dead money above every live commitment: folded seat {dead_top} committed "
            f"{chips[dead_top]} but no live seat committed more than {max_live}"
        )

    # the one pot builder: the hand engine's kernel (at most one pot per distinct level);
    # imported here so that importing this module does not load the engine's kernels
    from simulate._kernels.pots import build_pots as _build_pots_kernel

    amounts = np.zeros(n, np.int64)
    eligible = np.zeros((n, n), np.bool_)
    returned = np.zeros(n, np.int64)
    n_pots = _build_pots_kernel(np.array(chips, np.int64), np.array(alive, np.bool_), amounts,
                                eligible, returned)
    pots = [Pot(int(amounts[p]), tuple(int(s) for s in np.flatnonzero(eligible[p])))
            for p in range(n_pots)]
    return PotStructure(pots=pots, returned=[int(x) for x in returned], committed=tuple(chips),
                        live=tuple(alive))


def add_dead_money(structure: PotStructure, amount: int) -> PotStructure:
    """The pots with ``amount`` more chips of dead money that no seat has to match.

    Dead money here is chips not counted in any seat's commitment (antes, when
    they are not part of the contributions): it joins the **main pot**, and
    every live seat is eligible for it. When some live seat is not eligible
    for the main pot (a live seat that committed nothing, possible only with
    ``allow_zero``), or there is no pot at all, the dead money forms its own
    pot, placed first, eligible for every live seat. ``committed`` and
    ``returned`` are unchanged, so the pots now hold ``amount`` chips more than
    the seats committed. ``amount``: an integer ``>= 0`` (else ``ValueError``).
    """
    amount = check_chips(amount, "dead money", allow_zero=True)
    if amount == 0:
        return structure
    everyone = tuple(s for s in range(structure.n_seats) if structure.live[s])
    pots = list(structure.pots)
    if pots and pots[0].eligible == everyone:
        pots[0] = Pot(pots[0].amount + amount, everyone)
    else:
        pots.insert(0, Pot(amount, everyone))
    return PotStructure(pots=pots, returned=list(structure.returned),
                        committed=structure.committed, live=structure.live)


def pots_to_arrays(
    structure: PotStructure, n_seats: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Array form of the pots, for :func:`simulate._kernels.award.settle_kernel`.

    Returns ``(amounts, eligible)``: ``amounts`` is ``ndarray[P] int64`` and
    ``eligible`` is ``ndarray[P, n_seats] bool`` (row ``p`` marks the seats
    that can win pot ``p``). ``n_seats`` defaults to the structure's seat
    count; a larger value pads with seats that are eligible for nothing.
    Returned (uncalled) chips are not included; add ``structure.returned``.
    """
    if n_seats is None:
        n_seats = structure.n_seats
    n_seats = operator.index(n_seats)
    if n_seats < structure.n_seats:
        raise ValueError(f"n_seats={n_seats} is fewer than the {structure.n_seats} seats")
    amounts = np.array([p.amount for p in structure.pots], dtype=np.int64)
    eligible = np.zeros((len(structure.pots), n_seats), dtype=np.bool_)
    for i, pot in enumerate(structure.pots):
        eligible[i, list(pot.eligible)] = True
    return amounts, eligible


def odd_chip_order(n_seats: int, button: int) -> np.ndarray:
    """Seat indices in odd-chip order: ``button+1, button+2, ...`` wrapping, button last.

    Returns ``ndarray[n_seats] int64``. Raises ``ValueError`` unless
    ``0 <= button < n_seats``.
    """
    button = _index(button, "button", "a seat index")
    if not 0 <= button < n_seats:
        raise ValueError(f"button {button} is not a seat (seats are 0..{n_seats - 1})")
    return (np.arange(1, n_seats + 1, dtype=np.int64) + button) % n_seats


def settle(structure: PotStructure, strengths: Sequence[int | None], button: int = 0, *,
           lows: Sequence[int] | None = None) -> list[int]:
    """Chips each seat takes back from the table after the showdown.

    ``strengths[s]``: hand strength of seat ``s`` (an integer, higher is
    better, equal ties, e.g. ``evaluator.evaluate``'s 1..7462); entries of
    folded seats are ignored and may be ``None``. ``button``: the button's
    seat, which fixes the odd-chip order. ``lows``: a high/low split game's
    lows per seat (higher is better, 0 for no qualifying low, e.g.
    ``evaluator.evaluate_low``'s 1..56): each pot is then halved between its
    best high and its best low, the odd chip to the high, the whole pot to
    the high when no eligible seat has a low.

    Returns a list of ``n_seats`` ints: pot winnings plus returned uncalled
    chips. Their sum always equals ``sum(committed)``; a seat's net result is
    ``payout[s] - structure.committed[s]``.
    """
    n = structure.n_seats
    if len(strengths) != n:
        raise ValueError(f"strengths has {len(strengths)} entries for {n} seats")
    order = odd_chip_order(n, button)
    live = structure.live or tuple(any(s in p.eligible for p in structure.pots) for s in range(n))
    values = np.zeros(n, dtype=np.int64)
    for s in range(n):
        if not live[s]:
            continue
        v = strengths[s]
        if v is None or isinstance(v, (bool, np.bool_)):
            raise ValueError(f"seat {s}: live seat needs an integer strength, got {v!r}")
        try:
            values[s] = operator.index(v)
        except (TypeError, OverflowError):
            raise ValueError(f"seat {s}: live seat needs an integer strength, got {v!r}") from None
    if lows is not None:
        if len(lows) != n:
            raise ValueError(f"lows has {len(lows)} entries for {n} seats")
        values = np.concatenate([values, np.array([int(x) for x in lows], np.int64)])
    amounts, eligible = pots_to_arrays(structure, n)
    payout = np.zeros(n, dtype=np.int64)
    settle_kernel(values, amounts, eligible, order, payout)
    return [int(payout[s]) + structure.returned[s] for s in range(n)]
