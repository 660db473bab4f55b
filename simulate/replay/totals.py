"""Per-player totals of replayed hands: hands played, chips won (``net``), all-in adjusted
chips won (in a hand where the money went in before the river with every live hand known,
the seat's all-in EV replaces its result) and both per 100 big blinds, by player name
(``players`` in the file, else ``p1``, ``p2``, ...). Hands whose result for a seat is
unknown (hidden cards at a showdown) count in ``hands`` but add nothing to the sums
(``unknown_net`` counts them). :func:`totals_input` takes what :class:`Totals` needs from a
hand's document where the document was made (a worker), so only that small record travels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple

__all__ = ["PlayerTotals", "Totals", "TotalsInput", "totals_input"]


def _dec(x: Any) -> Decimal:
    """An amount of a document (int or float) as the Decimal it was written from; ints
    remembered (most results repeat)."""
    if type(x) is int:
        got = _INTS.get(x)
        if got is None:
            if len(_INTS) >= 65536:
                _INTS.clear()
            got = _INTS[x] = Decimal(x)
        return got
    return Decimal(x) if isinstance(x, int) else Decimal(str(x))


_INTS: dict[int, Decimal] = {}


_PER_BB: dict[tuple[Any, ...], Decimal] = {}


def _per_bb(net: Any, n: Decimal, bb: Any, bbd: Decimal) -> Decimal:
    """``n / bbd`` (a seat's result in big blinds), remembered by the raw values: most
    results of a collection repeat."""
    key = (type(net), net, type(bb), bb)
    got = _PER_BB.get(key)
    if got is None:
        if len(_PER_BB) >= 65536:
            _PER_BB.clear()
        got = _PER_BB[key] = n / bbd
    return got


class TotalsInput(NamedTuple):
    """What :meth:`Totals.add` reads of a hand's document (:func:`totals_input`), small and
    cheap to send from a worker. A hand with an error (``replayed`` False) fills in only
    ``readable`` and ``incomplete``; the rest keep their defaults."""

    #: False: the hand has an error.
    replayed: bool
    #: False: the hand's text could not be read as PHH.
    readable: bool = True
    #: The history stops before the hand is over (an error).
    incomplete: bool = False
    #: The engine validated the hand.
    validated: bool = False
    #: A showdown's hole cards are unknown: some seats' results are unknown.
    outcome_unknown: bool = False
    #: The result matches the recorded finishing stacks (None: nothing to compare).
    matches_record: bool | None = None
    #: The hand's big blind in its units (None: none).
    big_blind: Any = None
    #: Each seat's all-in EV, or None (no all-in EV).
    allin_evs: list[Any] | None = None
    #: The players, shared by the hands that seat the same ones (a chunk sends it once).
    players: tuple[str, ...] = ()
    #: Each seat's net (None: unknown).
    nets: tuple[Any, ...] = ()


def totals_input(d: dict[str, Any]) -> TotalsInput:
    """The :class:`TotalsInput` of a hand's document ``d``."""
    if d.get("error"):
        return TotalsInput(False, bool(d.get("readable", True)), not d.get("complete", True))
    match = None
    rec, fin = d.get("recorded_finishing_stacks"), d.get("finishing_stacks")
    if rec is not None and fin is not None:
        pairs = [(a, b) for a, b in zip(fin, rec, strict=False) if a is not None and b is not None]
        if pairs:
            match = all(_dec(a) == _dec(b) for a, b in pairs)
    ev = d.get("allin_ev")
    names = tuple(d["players"])
    shared = _NAMES.get(names)
    if shared is None:
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        shared = _NAMES[names] = names
    nets = d["net"]
    if len(nets) != len(shared):
        raise ValueError("a document's players and net differ in length")
    return TotalsInput(True, validated=bool(d.get("validated")),
                       outcome_unknown=not d.get("outcome_known", True), matches_record=match,
                       big_blind=d.get("big_blind"),
                       allin_evs=None if ev is None else [e["ev"] for e in ev],
                       players=shared, nets=tuple(nets))


_NAMES: dict[tuple[str, ...], tuple[str, ...]] = {}


@dataclass
class PlayerTotals:
    """One player's sums; chips in the files' units, big blinds as ``net / big_blind``."""

    player: str
    hands: int = 0
    unknown_net: int = 0
    net: Decimal = Decimal(0)
    allin_adjusted_net: Decimal = Decimal(0)
    net_bb: Decimal = Decimal(0)
    adjusted_bb: Decimal = Decimal(0)
    bb_hands: int = 0

    def to_dict(self) -> dict[str, Any]:
        def num(d: Decimal) -> int | float:
            return int(d) if d == d.to_integral_value() else float(d)

        per100 = (lambda x: float(100 * x / self.bb_hands)) if self.bb_hands else (lambda x: None)
        return {"player": self.player, "hands": self.hands, "net": num(self.net),
                "allin_adjusted_net": num(self.allin_adjusted_net),
                "bb_per_100": per100(self.net_bb),
                "allin_adjusted_bb_per_100": per100(self.adjusted_bb),
                "unknown_net": self.unknown_net}


@dataclass
class Totals:
    """Per-player totals over the hands added (see the module docstring)."""

    players: dict[str, PlayerTotals] = field(default_factory=dict)
    hands: int = 0
    errors: int = 0
    unreadable: int = 0
    incomplete: int = 0  # of the errors: histories that stop before the hand is over
    validated: int = 0
    outcome_unknown: int = 0
    matched: int = 0
    checked: int = 0

    def add(self, d: dict[str, Any]) -> list[tuple[str, Decimal, Decimal]] | None:
        """Count one hand's document; returns ``[(player, net, adjusted net)]`` for the
        seats whose result is known (None for a hand with an error)."""
        return self.add_input(totals_input(d))

    def add_input(self, t: TotalsInput) -> list[tuple[str, Decimal, Decimal]] | None:
        """:meth:`add` of a hand's :func:`totals_input` (made where the document was)."""
        self.hands += 1
        if not t.replayed:
            self.errors += 1
            if not t.readable:
                self.unreadable += 1
            self.incomplete += t.incomplete
            return None
        match, bb, evs, names, nets = t.matches_record, t.big_blind, t.allin_evs, t.players, t.nets
        self.validated += t.validated
        self.outcome_unknown += t.outcome_unknown
        if match is not None:
            self.checked += 1
            self.matched += match
        bbd = _dec(bb) if bb else None
        out = []
        players = self.players
        for s, name in enumerate(names):
            net = nets[s]
            pt = players.get(name)
            if pt is None:
                pt = players[name] = PlayerTotals(name)
            pt.hands += 1
            if net is None:
                pt.unknown_net += 1
                continue
            n = _dec(net)
            pt.net += n
            if evs is None:
                a = n
                pt.allin_adjusted_net += n
                if bbd:
                    pt.bb_hands += 1
                    q = _per_bb(net, n, bb, bbd)
                    pt.net_bb += q
                    pt.adjusted_bb += q
            else:
                a = _dec(evs[s])
                pt.allin_adjusted_net += a
                if bbd:
                    pt.bb_hands += 1
                    pt.net_bb += _per_bb(net, n, bb, bbd)
                    pt.adjusted_bb += a / bbd
            out.append((name, n, a))
        return out

    def summary(self) -> dict[str, Any]:
        """The ``summary`` of ``pokerjit hand --json``: counts over the hands added."""
        return {"hands": self.hands, "replayed": self.hands - self.errors, "errors": self.errors,
                "incomplete": self.incomplete,
                "validated": self.validated, "outcome_unknown": self.outcome_unknown,
                "recorded_checked": self.checked, "recorded_matched": self.matched}

    def to_list(self) -> list[dict[str, Any]]:
        """The contract's ``totals``: one entry per player, most hands first."""
        ps = sorted(self.players.values(), key=lambda t: (-t.hands, t.player))
        return [t.to_dict() for t in ps]
