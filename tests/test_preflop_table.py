"""simulate.preflop_table: the shipped 169 x 169 heads-up preflop table."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from simulate import equity, equity_many, preflop_equity
from simulate.preflop_table import (
    _representatives,
    canonical_matchups,
    compute_table,
    preflop_table,
)
from simulate.ranges import ALL_COMBOS, HAND_CLASSES

#: sha256 of the shipped table's equity and tie arrays (float64, C order), in that order.
DIGEST = "2cab876508c9b5987c8f609fabb2f8379672a8ae5474ea9d709935c1e86b112c"


def test_shipped_table_digest():
    t = preflop_table()
    assert t.equity.shape == t.tie.shape == (169, 169)
    assert t.equity.dtype == np.float64
    assert hashlib.sha256(t.equity.tobytes() + t.tie.tobytes()).hexdigest() == DIGEST


def test_table_is_zero_sum_and_even_on_the_diagonal():
    e = preflop_table().equity
    assert np.abs(e + e.T - 1).max() < 1e-12
    assert np.abs(np.diag(e) - 0.5).max() < 1e-12
    assert ((e > 0.1) & (e < 0.9)).mean() > 0.9


@pytest.mark.parametrize("a,b", [("AKs", "QQ"), ("AA", "KK"), ("72o", "32s"),
                                 ("AKo", "AKs"), ("JJ", "JTs"), ("T9s", "T9s"),
                                 ("A5s", "KQo")])
def test_matchups_equal_the_exact_range_engine(a, b):
    r = equity([a, b], exact=True)
    assert r.exact
    assert preflop_equity(a, b) == pytest.approx(r.players[0].equity, abs=1e-12)
    assert preflop_table().tie[HAND_CLASSES.index(a), HAND_CLASSES.index(b)] == \
        pytest.approx(r.players[0].tie, abs=1e-12)


def test_names_are_read_in_any_case_and_bad_ones_are_one_line():
    assert preflop_equity("aks", "qq") == preflop_equity("AKs", "QQ")
    with pytest.raises(ValueError, match="'AKx' is not a starting-hand class"):
        preflop_equity("AKx", "QQ")


def test_canonical_matchups_are_suit_and_seat_relabellings():
    ca, cb, rep, flip, keys = canonical_matchups()
    assert len(ca) == 1326 * 1225 and len(keys) == 47008
    reps = _representatives(keys)
    rng = np.random.default_rng(5)
    pick = rng.choice(len(ca), 12, replace=False)
    spots = np.stack([ALL_COMBOS[ca[pick]], ALL_COMBOS[cb[pick]]], axis=1)
    mine = equity_many(spots, None).equity[:, 0]
    canon = equity_many(reps[rep[pick]], None).equity
    theirs = np.where(flip[pick], canon[:, 1], canon[:, 0])
    assert np.abs(mine - theirs).max() < 1e-12


def test_chart_vs_all_refuses_sampling_options(capsys):
    from simulate.cli import main

    assert main(["chart", "--vs-all", "--opponents", "2"]) == 2
    assert "--vs-all is exact heads-up" in capsys.readouterr().err


@pytest.mark.soak
def test_chart_vs_all_recomputes_the_shipped_table(tmp_path, monkeypatch):
    """``chart --vs-all`` walks all 47,008 canonical matchups (one computation, kept for both
    checks): the table it computes equals the shipped one bit for bit, and its CSV holds
    those values. In the soak set (45 s on 2 cores): the quick run pins the shipped file's
    digest and recomputes a few of its cells with the range engine."""
    import csv

    import simulate.preflop_table as P
    from simulate.cli import main

    computed = []

    def keep(*args, **kwargs):
        computed.append(compute_table(*args, **kwargs))
        return computed[-1]

    monkeypatch.setattr(P, "compute_table", keep)
    out = tmp_path / "hu.csv"
    assert main(["chart", "--vs-all", "-o", str(out), "--quiet"]) == 0
    assert len(computed) == 1
    shipped = preflop_table()
    assert np.array_equal(computed[0].equity, shipped.equity)
    assert np.array_equal(computed[0].tie, shipped.tie)
    rows = list(csv.reader(out.read_text().splitlines()))
    assert rows[0] == ["hand", *HAND_CLASSES]
    got = np.array([[float(x) for x in r[1:]] for r in rows[1:]])
    assert np.abs(got - shipped.equity).max() < 1e-11
