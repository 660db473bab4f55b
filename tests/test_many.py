"""``simulate.equity_many``: many spots in one call, row i exactly ``equity`` on spot i."""

from __future__ import annotations

import numpy as np
import pytest

from evaluator.cards import cards_str
from simulate import equity, equity_many


def _spots(n: int, players: int, board: int, dead: int = 0, seed: int = 0):
    rng = np.random.default_rng(seed)
    c = np.argsort(rng.random((n, 52)), axis=1)[:, :2 * players + board + dead].astype(np.uint8)
    hands = c[:, :2 * players].reshape(n, players, 2)
    return hands, c[:, 2 * players:2 * players + board], c[:, 2 * players + board:]


def _one(hands, board, dead, i, **kw):
    return equity([cards_str(h) for h in hands[i]], cards_str(board[i]), cards_str(dead[i]),
                  **kw).to_dict()


def _strip(d: dict) -> dict:
    d = dict(d)
    d.pop("elapsed_s")
    return d


@pytest.mark.parametrize(("players", "board", "dead", "n"),
                         [(2, 3, 0, 40), (2, 0, 0, 3), (3, 4, 2, 20), (6, 5, 0, 20), (10, 3, 1, 4)])
def test_exact_rows_equal_equity(players: int, board: int, dead: int, n: int) -> None:
    h, b, d = _spots(n, players, board, dead, seed=players * 10 + board)
    r = equity_many(h, b, dead=d if dead else None)
    assert r.exact and r.std_error is None and r.equity.shape == (n, players)
    docs = r.to_dicts()
    for i in range(n):
        want = _one(h, b, d, i, exact=True)
        assert _strip(docs[i]) == _strip(want)  # every number, bit for bit
        assert r.equity[i].tolist() == [p["equity"] for p in want["players"]]
    assert np.allclose(r.equity.sum(axis=1), 1.0)


def test_monte_carlo_rows_equal_equity_with_the_row_seed() -> None:
    h, b, d = _spots(12, 3, 3, seed=5)
    r = equity_many(h, b, exact=False, samples=3000, seed=11, threads=1)
    assert not r.exact and r.seeds is not None and r.samples.tolist() == [3000] * 12
    docs = r.to_dicts()
    for i in range(12):
        want = _one(h, b, d, i, samples=3000, seed=int(r.seeds[i]))
        assert _strip(docs[i]) == _strip(want)
    again = equity_many(h, b, exact=False, samples=3000, seed=11, threads=2)
    for name in ("equity", "win", "tie", "std_error", "categories"):
        assert np.array_equal(getattr(r, name), getattr(again, name)), name
    other = equity_many(h, b, exact=False, samples=3000, seed=12, threads=1)
    assert not np.array_equal(r.equity, other.equity)
    per_row = equity_many(h, b, exact=False, samples=3000, seed=r.seeds)
    assert np.array_equal(per_row.equity, r.equity)


def test_threads_do_not_change_exact_answers() -> None:
    h, b, _ = _spots(300, 2, 3, seed=9)
    one = equity_many(h, b, threads=1)
    two = equity_many(h, b, threads=2)
    assert np.array_equal(one.equity, two.equity) and np.array_equal(one.tie, two.tie)


@pytest.mark.parametrize(("hands", "board", "message"), [
    ([[[0, 1], [2, 3]], [[4, 5], [4, 7]]], None, "row 1: duplicate card 3c in hand 1 and hand 2"),
    ([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[8, 9, 10], [8, 9, 5]],
     "row 1: duplicate card 3d in hand 1 and board"),
    ([[[0, 1], [2, 3]], [[4, 5], [6, 77]]], None, "row 1: 77 is not a card id"),
    ([[[0, 1], [2, 3]]], [[8, 9]], "a board has 0, 3, 4 or 5 cards"),
    ([[[0, 1]]], None, "need 2 to 10 players"),
    ([[[0, 1, 2], [3, 4, 5]]], None, "two hole cards"),
    ([[0, 1, 2, 3]], None, "3-d array"),
    ([[[0.5, 1], [2, 3]]], None, "integer card ids"),
    ([[[0, 1], [2, 3]], [[4, 5], [6, 7]]], [[8, 9, 10]], "board has 1 rows but hands has 2"),
])
def test_bad_input_names_the_row(hands, board, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        equity_many(np.array(hands), None if board is None else np.array(board))


def test_sampling_options_are_checked() -> None:
    h, b, _ = _spots(2, 2, 3)
    with pytest.raises(ValueError, match="samples"):
        equity_many(h, b, exact=False, samples=0)
    with pytest.raises(ValueError, match="cannot be combined"):
        equity_many(h, b, exact=True, samples=10)
    with pytest.raises(ValueError, match="seed"):
        equity_many(h, b, exact=False, samples=10, seed=-1)
    with pytest.raises(ValueError, match="row seeds"):
        equity_many(h, b, exact=False, samples=10, seed=np.array([1, 2, 3], np.uint64))


def test_empty_input_and_progress() -> None:
    r = equity_many(np.zeros((0, 2, 2), np.uint8))
    assert r.equity.shape == (0, 2) and r.to_dicts() == []
    h, b, _ = _spots(50, 2, 4)
    seen: list[int] = []
    equity_many(h, b, progress=seen.append)
    assert sum(seen) == 50
