"""poker-equity (Rust): ``score_batch`` over card strings (0..7461, lower is better), exact
equity (``exact_from_text``, one thread, declines big walks) and seeded Monte Carlo with an
exact sample count (``chunk_from_text``) for every game it knows."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _common
from ._common import Cards, PeerEquity, PeerUnsupported, board_dead, cards_text, import_peer


def make_evaluator() -> _common.PeerEvaluator:
    pe = import_peer("poker_equity")

    def prepare(cards: np.ndarray) -> list[str]:
        arr = _common.check_batch(cards)
        return ["".join(_common.CARD_NAMES[c] for c in row) for row in arr.tolist()]

    def run(prepared: list[str]) -> np.ndarray:
        return np.asarray(pe.score_batch("high", prepared), dtype=np.int64)

    return _common.PeerEvaluator(
        "poker_equity",
        prepare,
        run,
        False,
        "native batch",
        "poker_equity.score_batch('high', [card strings]) -- one call, parses text per hand; "
        "score 0..7461, lower is better (ours = 7462 - score)",
        contract=lambda s: 7462 - np.asarray(s, dtype=np.int64),
    )


def _pe_field(spec: str, game: str) -> str:
    if spec.strip().lower() == "random":
        if game not in ("holdem", "short_deck"):
            raise PeerUnsupported("poker_equity: 'random' only for two-card games")
        return "**"
    n_hole = 4 if game == "omaha" else 2
    if _common.is_exact_hand(spec, n_hole):
        return cards_text(spec)
    return spec  # its own notation: ranges ("QQ+,AKs"), wildcards ("A*")


def _pe_result(raw: dict[str, Any], dt: float, note: str) -> PeerEquity:
    return PeerEquity(
        "poker_equity",
        [float(p["equity"]) for p in raw["players"]],
        bool(raw["exact"]),
        int(raw["samples"]),
        dt,
        note=note,
        extra={
            "std_error": [float(p["std_error"]) for p in raw["players"]],
            "win": [float(p["win"]) for p in raw["players"]],
            "tie": [float(p["tie"]) for p in raw["players"]],
        },
    )


def poker_equity_exact(hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                       game: str = "holdem") -> PeerEquity:
    """Exact equity through poker-equity's ``exact_from_text`` (single-threaded; no thread
    option). ``game``: ``"holdem"``, ``"omaha"`` (four-card hands) or any of
    ``poker_equity.variants()``. Raises :class:`PeerUnsupported` when it declines (returns
    ``None``: too many deals to walk -- deciding that can itself take seconds).
    """
    pe = import_peer("poker_equity")
    b, d = board_dead(board, dead)
    fields = [_pe_field(h, game) for h in hands]
    t0 = time.perf_counter()
    raw = pe.exact_from_text(game, fields, cards_text(b), cards_text(d))
    dt = time.perf_counter() - t0
    if raw is None:
        raise PeerUnsupported(f"poker_equity: too many deals to walk exactly ({dt:.1f} s to say)")
    return _pe_result(raw, dt, "exact_from_text, one thread")


def poker_equity_monte_carlo(hands: Sequence[str], board: Cards = "", dead: Cards = "", *,
                             samples: int = 1_000_000, game: str = "holdem", seed: int = 0,
                             threads: int = 1) -> PeerEquity:
    """Monte Carlo equity through poker-equity's ``chunk_from_text``: exactly ``samples``
    deals, seeded, on ``threads`` threads (``1`` = one thread; ``0`` = its default,
    ``default_thread_count()``). Works for every game it knows, e.g. ``game="omaha"``.
    """
    pe = import_peer("poker_equity")
    b, d = board_dead(board, dead)
    fields = [_pe_field(h, game) for h in hands]
    t0 = time.perf_counter()
    raw = pe.chunk_from_text(
        game,
        fields,
        cards_text(b),
        cards_text(d),
        samples=int(samples),
        seed=int(seed),
        threads=int(threads),
    )
    dt = time.perf_counter() - t0
    return _pe_result(raw, dt, f"chunk_from_text, threads={threads}")
