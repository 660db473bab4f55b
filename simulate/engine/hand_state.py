"""Playing one hand by the rules: :class:`Hand` (the rules are
:class:`simulate.engine.rules.Rules`; many hands at once:
:func:`simulate.engine.self_play.play`; :mod:`simulate.engine` gathers the three).

Seats are numbered ``0..N-1`` clockwise. The small blind is the seat after the button
and the big blind the next; heads-up the button posts the small blind, acts first
before the flop and last after it. Every rule lives once, in the Numba kernels of
:mod:`simulate._kernels.engine`; :class:`Hand` calls one kernel per action and
:func:`play` runs the same kernels in a compiled loop over many hands.

PHH action strings (``.actions``, ``.act(...)``) name seat ``s`` as player
``p{s + 1}``.

Users import it from :mod:`simulate.engine`, whose docstring has an example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from evaluator.cards import UNKNOWN, cards_text
from simulate.engine.hand_text import HandText
from simulate.engine.rules import (
    HOLDEM_LIKE,
    STREETS,
    IllegalAction,
    Legal,
    Rules,
    chips,
    kernels,
)
from simulate.games import MAX_PLAYERS, MIN_PLAYERS
from simulate.pots import MAX_CHIPS, Pot
from simulate.sampling import resolve_seed

__all__ = ["Hand", "check_table"]

_K = kernels


_DEAL_TABLES: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def deal_tables(n_cards: int, deck_size: int = 52) -> tuple[np.ndarray, np.ndarray]:
    """``(mul, thr)`` uint64 arrays for dealing ``n_cards`` from a deck of ``deck_size``
    cards (52, or short deck's 36; made once per pair and shared: read them, do not write
    them)."""
    got = _DEAL_TABLES.get((n_cards, deck_size))
    if got is None:
        from simulate._kernels.rng import deal_setup

        size = -(-n_cards // 5) * 5
        mul = np.empty(size, np.uint64)
        thr = np.empty(size, np.uint64)
        deal_setup(deck_size, n_cards, mul, thr)
        got = _DEAL_TABLES[(n_cards, deck_size)] = (mul, thr)
    return got


_HAND_ACT: Any = None  # _entry(hand_act, ...), set at the first action


def check_table(rules: Rules, stacks: Sequence[int]) -> list[int]:
    """Each seat's starting stack (int) once ``rules`` and ``stacks`` make a table a hand
    can be dealt at: 2 to 10 seats of positive whole chips, the straddles and posts fit,
    the deck holds every hole card and the board. Raises ``ValueError`` naming the fault.
    What :class:`Hand` checks before it deals; :func:`simulate.engine.play` checks a run's
    table with it, compiling none of the engine's kernels."""
    if not isinstance(rules, Rules):
        raise ValueError("rules must be a simulate.engine.Rules")
    if isinstance(stacks, (str, bytes)):
        raise ValueError("stacks must be a list of chip counts, one per seat")
    amounts = []
    for i, x in enumerate(stacks):
        if type(x) is not int or not 0 < x <= MAX_CHIPS:
            x = chips(x, f"seat {i}'s stack", allow_zero=False)
        amounts.append(x)
    n = len(amounts)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise ValueError(f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} seats, got {n}")
    if len(rules.straddles) > (0 if n == 2 else n - 2):
        raise ValueError(f"{len(rules.straddles)} straddles do not fit {n} seats")
    if len(rules.posts) > n or (n == 2 and rules.posts):
        raise ValueError(f"posts for {len(rules.posts)} seats do not fit {n} seats")
    n_deck = len(rules.deck)
    if n * rules.n_hole + 8 > n_deck:
        raise ValueError(f"{n} seats of {rules.game.name} need more than {n_deck} cards")
    return amounts


def _entry(kernel: Any, *args: Any) -> Any:
    """``kernel``'s compiled code for the types of ``args`` (compiled, or loaded from the
    cache, now), to be called directly with arguments of those same types: Numba's
    dispatcher checks the type of every argument on every call, and the Hand always passes
    the same types (its buffer, ints that :meth:`Hand._do` keeps in int64, the tables)."""
    try:
        import numba

        return kernel.compile(tuple(numba.typeof(a) for a in args))
    except Exception:  # pragma: no cover - a Numba whose dispatchers lack compile()
        return kernel


_WHY = {
    7: "the stack covers no more than a call",
    8: "every other live player is all in",
    9: "the betting was not reopened (an all-in for less than a full raise)",
    10: "the betting is capped",
}

_UNKNOWN_CARD = UNKNOWN


_BLANK: np.ndarray | None = None


def _blank_buffer() -> np.ndarray:
    """A Hand's buffer before the hand (:data:`simulate._kernels.engine.W_SIZE` bytes): the
    state zero, no cards known, the deck 0..51 in order."""
    global _BLANK
    if _BLANK is None:
        K = _K()
        W = np.zeros(K.W_SIZE, np.uint8)
        W[K.W_HOLE:K.W_DECK] = _UNKNOWN_CARD
        W[K.W_DECK:K.W_DECK + 52] = np.arange(52)
        W.flags.writeable = False  # copied, never written
        _BLANK = W
    return _BLANK


class Hand(HandText):
    """One hand of poker played by the rules (see the module docstring).

    ``Hand(rules, stacks, *, button=0, seed=None, hole=None, board=None, deal=None)``:
    the forced bets are posted and the hole cards dealt, shuffled from ``seed`` by the
    real procedure (a burn before each street), or scripted (``hole``: one hand per seat,
    ``board``: the five board cards in order), or ``deal="manual"``: the deals arrive as
    PHH actions (``act("d dh p1 AhKh")``, ``act("d dh p2 ????")``, ``act("d db Jc3d5c")``)
    and showdowns as ``act("p1 sm AhKh")``: a table's record, where a fold with nothing to
    call is taken as the binding fold it was (TDA "Non-Standard Folds"); a dealt hand
    refuses it (:attr:`legal` offers a check, never that fold). With a seed,
    ``hand_index=i`` deals hand ``i`` of a :func:`play` run with that seed (hand 0 by
    default).
    """

    def __init__(self, rules: Rules, stacks: Sequence[int], *, button: int = 0,
                 seed: int | None = None, hole: Sequence[str] | None = None,
                 board: str | None = None, deal: str | None = None,
                 hand_index: int = 0) -> None:
        amounts = check_table(rules, stacks)
        n = len(amounts)
        h = rules.n_hole
        n_deck = len(rules.deck)
        if type(button) is not int and (isinstance(button, (bool, np.bool_))
                                        or not isinstance(button, (int, np.integer))) \
                or not 0 <= button < n:
            raise ValueError(f"button must be a seat 0..{n - 1}, got {button!r}")
        if deal not in (None, "manual", "seed", "script"):
            raise ValueError(f"deal must be 'manual' or None, got {deal!r}")
        K = _K()
        self.rules = rules
        self.n = n
        self.button = int(button)
        self.starting_stacks = tuple(amounts)
        # every array of the hand is a view of one buffer (one argument per kernel call)
        W = _blank_buffer().copy()
        self._W = W
        self._views()
        V = self._V
        rules._write_header(V)
        V[K.N] = n
        V[K.BUTTON] = self.button
        self._S[K.STACK:K.STACK + n] = amounts
        self._result: tuple[list[int | None], int] | None = None
        self.seed: int | None = None
        self.actions: list[str] = []
        """PHH action strings so far, deals included (seat ``s`` is ``p{s + 1}``)."""
        self.discards: list[str | None] = [None] * n
        """Pineapple: each seat's discarded card (text; ``??`` unknown), None before it."""
        scripted = hole is not None or board is not None
        if deal == "manual":
            if scripted or seed is not None:
                raise ValueError("deal='manual' takes no seed, hole or board")
            V[K.MODE] = 1
            self.manual = True
        else:
            self.manual = False
            if scripted:
                if hole is None or board is None:
                    raise ValueError("give both hole and board, or neither")
                self._script(hole, board)
            else:
                self.seed = resolve_seed(seed)
                self.hand_index = int(hand_index)
                mul, thr = deal_tables(n * h + 8, n_deck)
                self._rng_state = K.seeded_deck(np.uint64(self.seed), self.hand_index,
                                                n * h + 8, self._deck, mul, thr)
        K.hand_start(W)
        if self.manual:
            self._dealt: set[int] = set()
        else:
            dealt = self._hole[:n, :h].tolist()
            self.actions += [f"d dh p{s} {cards_text(x)}" for s, x in enumerate(dealt, 1)]
            self._dealt = set().union(*dealt)
            if V[K.STREET] or V[K.NBOARD]:
                self._after(0)

    def _views(self) -> None:
        """The state arrays as views of the buffer ``_W``: ``_S`` (int64[STATE_SIZE]),
        ``_legal_buf``, ``_hole``, ``_board``, ``_deck``, and ``_V``, a memoryview of the
        int64 part (``S`` then the legal, strength and payout slots), which Python reads at
        a third of the cost of numpy indexing."""
        K = _K()
        W = self._W
        i64 = W[K.W_S:K.W_HOLE].view(np.int64)  # S, legal, strengths, payouts
        self._S = i64[:K.STATE_SIZE]
        self._V = memoryview(i64)
        self._legal_buf = i64[K.W_LEGAL // 8:K.W_ST // 8]
        self._hole = W[K.W_HOLE:K.W_BOARD].reshape(K.MAXS, K.MAXH)
        self._board = W[K.W_BOARD:K.W_BOARD + 5]
        self._deck = W[K.W_DECK:K.W_DECK + 52]

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles carry the buffer; the views are made again from it."""
        return {k: v for k, v in self.__dict__.items()
                if k not in ("_S", "_V", "_legal_buf", "_hole", "_board", "_deck")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._views()

    # ---- construction helpers

    # ---- state
    @property
    def actor(self) -> int | None:
        """The seat to act, or None (hand over, or a deal awaited in manual mode)."""
        if self.manual and self._holes_pending():
            return None
        a = self._V[_K().ACTOR]
        return None if a < 0 else a

    def _holes_pending(self) -> bool:
        K = _K()
        V = self._V
        # not STREET == 0: blinds and antes that put all but one seat all in close the
        # preflop betting at the start, and the hole cards are still to be dealt then
        return V[K.NACTIONS] == 0 and V[K.NBOARD] == 0 and V[K.DISCING] == 0 \
            and V[K.NHOLE] == self.rules.n_hole and any(
                V[K.HOLEN + s] < V[K.NHOLE] for s in range(self.n))

    @property
    def street(self) -> str:
        """``preflop``, ``flop``, ``turn``, ``river``; at the end ``showdown`` (decided by a
        showdown) or ``done`` (won without one)."""
        return STREETS[self._V[_K().STREET]]

    @property
    def done(self) -> bool:
        """True when no more betting or deals are expected."""
        return self._V[_K().STREET] >= 4

    @property
    def legal(self) -> Legal:
        """The actor's options (all empty when nobody is to act)."""
        if self.actor is None:
            return Legal()
        K = _K()
        if self._V[K.DISCING]:
            return Legal(discard=True)
        K.hand_legal(self._W)
        out = self._legal_buf.tolist()
        return Legal._of(out[0] != 0, out[1] != 0, None if out[2] < 0 else out[2],
                         None if out[3] < 0 else out[3], None if out[4] < 0 else out[4])

    def _seat_array(self, field_: int) -> list[int]:
        return self._S[field_:field_ + self.n].tolist()

    @property
    def stacks(self) -> list[int]:
        """Chips behind, per seat (before the pots are paid)."""
        return self._seat_array(_K().STACK)

    @property
    def bets(self) -> list[int]:
        """Chips bet on this street, per seat."""
        return self._seat_array(_K().BET)

    @property
    def committed(self) -> list[int]:
        """Chips put in this hand (antes, blinds and bets), per seat."""
        K = _K()
        return [a + b for a, b in zip(self._seat_array(K.COMM), self._seat_array(K.ANTEP),
                                      strict=True)]

    @property
    def antes(self) -> list[int]:
        """Antes posted, per seat (dead money in the main pot, not part of any call)."""
        return self._seat_array(_K().ANTEP)

    @property
    def live(self) -> list[bool]:
        """Per seat, True while the seat holds cards (not folded)."""
        return [x != 0 for x in self._seat_array(_K().STAT)]

    @property
    def all_in(self) -> list[bool]:
        return [x == 2 for x in self._seat_array(_K().STAT)]

    @property
    def pots(self) -> list[Pot]:
        """Main pot and side pots built from the chips committed so far (this street's
        bets included; uncalled chips are not a pot; antes are dead money in the main pot,
        which every live seat may win)."""
        K = _K()
        n = self.n
        amounts = np.zeros(n + 1, np.int64)
        elig = np.zeros((n + 1, n), np.bool_)
        m = K.table_pots(self._S, amounts, elig, np.zeros(n, np.int64))
        return [Pot(int(amounts[p]), tuple(int(s) for s in np.flatnonzero(elig[p])))
                for p in range(m)]

    @property
    def board(self) -> str:
        """The board cards dealt so far (text)."""
        return cards_text(self._board[:int(self._S[_K().NBOARD])])

    @property
    def hole(self) -> list[str]:
        """Each seat's hole cards (``??`` for a card not known; Pineapple: the two kept
        after the seat's discard)."""
        K = _K()
        return [cards_text(self._hole[s, :int(self._S[K.HOLEN + s])]) for s in range(self.n)]

    # ---- results
    def _settle(self) -> tuple[list[int | None], int]:
        if self._result is None:
            from evaluator._tables import get_tables

            K = _K()
            n = self.n
            W = self._W
            game = self.rules.game.name
            call = _SETTLES.get(game)
            if call is None:
                # Hold'em-like games pass no Omaha tables: their settle compiles without
                # the Omaha evaluator
                args = (get_tables(self.rules.scale).kernel_args,
                        None if game in HOLDEM_LIKE else omaha_tables_of(game))
                call = _SETTLES[game] = (_entry(K.hand_settle, W, *args), *args)
            unknown = call[0](W, call[1], call[2])
            payout: list[int | None] = self._V[K.W_PAY // 8:K.W_PAY // 8 + n].tolist()
            if unknown:
                # seats that could win a pot whose winner hangs on hidden cards
                st = W[K.W_ST:K.W_PAY].view(np.int64)[:n]
                amounts = np.zeros(n + 1, np.int64)
                elig = np.zeros((n + 1, n), np.bool_)
                m = K.table_pots(self._S, amounts, elig, np.zeros(n, np.int64))
                for p in range(m):
                    e = np.flatnonzero(elig[p])
                    if len(e) > 1 and any(st[s] < 0 for s in e):
                        for s in e:
                            payout[int(s)] = None
            self._result = (payout, unknown)
        return self._result

    @property
    def payouts(self) -> list[int | None] | None:
        """Chips each seat takes from the table at the end (pots won plus uncalled chips
        returned); None before the end; a seat's entry is None when it could win a pot
        whose winner hangs on cards nobody showed."""
        if not self.done:
            return None
        return list(self._settle()[0])

    @property
    def outcome_known(self) -> bool:
        """False when some pot's winner hangs on cards not known (manual deals)."""
        return self.done and self._settle()[1] == 0

    @property
    def finishing_stacks(self) -> list[int | None] | None:
        """Stacks after the pots are paid (None before the end)."""
        pay = self.payouts
        if pay is None:
            return None
        return [None if p is None else s + p for s, p in zip(self.stacks, pay, strict=True)]

    @property
    def net(self) -> list[int | None] | None:
        """Chips won (+) or lost (-) per seat at the end."""
        fin = self.finishing_stacks
        if fin is None:
            return None
        return [None if f is None else f - s0 for f, s0 in zip(fin, self.starting_stacks,
                                                               strict=True)]

    # ---- actions
    def fold(self) -> None:
        self._do(0, 0)

    def check(self) -> None:
        self._do(1, 0)

    def call(self) -> None:
        self._do(2, 0)

    def check_or_call(self) -> None:
        self._do(3, 0)

    def raise_to(self, total: int) -> None:
        """Bet or raise to ``total`` chips on this street (also the opening bet)."""
        if type(total) is not int:
            if isinstance(total, (bool, np.bool_)) or not isinstance(total, (int, np.integer)):
                if isinstance(total, float) and total.is_integer():
                    total = int(total)
                else:
                    raise IllegalAction(
                        f"a raise needs an integer number of chips, got {total!r}")
            total = int(total)
        self._do(4, total)

    def _do(self, kind: int, amount: int, text: str | None = None, seat: int = -1,
            action: str = "") -> None:
        """Apply a betting action (``kind`` a kernel action kind, ``amount`` the raise-to
        total) by one kernel call; raise :class:`IllegalAction` with the state unchanged.
        ``seat``: the actor named by the PHH action ``action`` (-1: none); ``text``: the PHH
        action to record, when the caller knows it is the actor's."""
        if self.manual and self._holes_pending():
            raise IllegalAction("the hole cards are not all dealt yet")
        global _HAND_ACT
        if _HAND_ACT is None:  # on the first action (a replay's compiled walk needs none)
            _HAND_ACT = _entry(_K().hand_act, self._W, 0, 0, 0)
        r = _HAND_ACT(self._W, kind, amount if -MAX_CHIPS <= amount <= MAX_CHIPS
                      else MAX_CHIPS + 1 if amount > 0 else -MAX_CHIPS - 1,  # refused alike
                      seat)
        if r < 16:
            if r == _K().E_NOT_ACTOR:
                raise IllegalAction(f"{action!r}: player p{seat + 1} (seat {seat}) is not to "
                                    f"act; seat {self._V[_K().ACTOR]} is")
            raise IllegalAction(self._refused(r, kind, amount))
        self._result = None
        if text is None:
            s = (r >> 4 & 15) - 1
            text = (f"p{s + 1} f" if kind == 0 else f"p{s + 1} cbr {amount}" if kind == 4
                    else f"p{s + 1} cc")
        self.actions.append(text)
        if r >= 65536 and not self.manual:
            self._after(r >> 8 & 15, r >> 12 & 15)

    def _refused(self, code: int, kind: int, amount: int) -> str:
        """The message for an action the kernel refused with ``code`` (state unchanged)."""
        K = _K()
        V = self._V
        s = V[K.ACTOR]
        if kind == 3 and s >= 0 and V[K.NEED] == 0:  # name the check or the call refused
            kind = 2 if V[K.BETLEVEL] > V[K.BET + s] else 1
        return self._message(code, kind, amount, s)

    def _after(self, nb_before: int, street_before: int = 0) -> None:
        """Record the deals (and the showdown) an action caused, as PHH actions."""
        K = _K()
        V = self._V
        nb = V[K.NBOARD]
        st = V[K.STREET]
        if st == 4 and street_before < 4:
            hole = self._hole.tolist()
            for s in self._show_order():
                self.actions.append(f"p{s + 1} sm {cards_text(hole[s][:V[K.HOLEN + s]])}")
        board = self._board.tolist()
        for a, b in ((0, 3), (3, 4), (4, 5)):
            if nb_before <= a < nb:
                self.actions.append(f"d db {cards_text(board[a:b])}")

    def _show_order(self) -> list[int]:
        """Live seats in showdown order: the river's last aggressor first, else the first
        live seat left of the button, then clockwise."""
        K = _K()
        V = self._V
        n = self.n
        a = V[K.AGGR]
        first = a if a >= 0 and V[K.STAT + a] else (self.button + 1) % n
        return [(first + k) % n for k in range(n) if V[K.STAT + (first + k) % n]]

    def _message(self, code: int, kind: int, amount: int, s: int) -> str:
        K = _K()
        if code == K.E_NO_ACTOR:
            if self.done:
                return "the hand is over"
            return "no player is to act: a deal is awaited"
        if code == K.E_DISCARD:
            verb = {0: "fold", 1: "check", 2: "call", 4: f"raise to {amount}"}.get(kind, "act")
            return (f"seat {s} cannot {verb}: it must discard one of "
                    f"{self.hole[s]} first (legal: discard one hole card)")
        legal = self.legal.text()
        verb = {0: "fold", 1: "check", 2: "call", 4: f"raise to {amount}"}.get(kind, "act")
        if code == K.E_FOLD:
            why = "there is nothing to call (check instead)"
        elif code == K.E_CHECK:
            why = f"facing a bet of {int(self._S[K.BETLEVEL] - self._S[K.BET + s])}"
        elif code == K.E_CALL:
            why = "there is nothing to call"
        elif code == K.E_BELOW_MIN:
            why = f"the minimum is {self.legal.min_raise_to}"
        elif code == K.E_ABOVE_MAX:
            lg = self.legal
            why = (f"the maximum is {lg.max_raise_to}" if lg.max_raise_to
                   != int(self._S[K.STACK + s] + self._S[K.BET + s])
                   else f"the stack allows at most {lg.max_raise_to}")
        else:
            why = _WHY.get(code, f"error {code}")
        return f"seat {s} cannot {verb}: {why} (legal: {legal})"

    def to_phh(self) -> str:
        """This hand as a PHH document (written by
        :func:`simulate.notation.phh_write.hand_to_phh`)."""
        from simulate.notation.phh_write import hand_to_phh

        return hand_to_phh(self)

    def __repr__(self) -> str:
        return (f"Hand({self.rules.game.name} {self.rules.betting}, {self.n} seats, "
                f"street={self.street}, actor={self.actor}, board={self.board!r})")


_OMAHA_DUMMY: tuple[np.ndarray, ...] | None = None
#: Per game: :func:`simulate._kernels.engine.hand_settle` (by :func:`_entry`) and its
#: table arguments.
_SETTLES: dict[str, tuple[Any, tuple[np.ndarray, ...], tuple[np.ndarray, ...] | None]] = {}


def omaha_tables_of(game: str) -> tuple[np.ndarray, ...]:
    """``tuple[np.ndarray, ...]``: the Omaha lookup tables for an Omaha game, then the
    eight-or-better low's
    (:func:`evaluator.omaha.omaha_tables` + :func:`evaluator.low.low_tables`: what
    :func:`simulate._kernels.pots.omaha_value` reads); small placeholders of the same types
    for Hold'em (the kernels never read them then)."""
    global _OMAHA_DUMMY
    if game not in HOLDEM_LIKE:
        from evaluator.low import low_tables
        from evaluator.omaha import omaha_tables

        return omaha_tables() + low_tables()
    if _OMAHA_DUMMY is None:
        _OMAHA_DUMMY = (np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(1, np.uint16),
                        np.zeros(1, np.uint8), np.zeros(1, np.int8))
    return _OMAHA_DUMMY
