"""simulate.store.chunks/rows: a hand the compiled replay settled is stored from the fields
the replay read (:meth:`Batch.add_plain`, not read again) with exactly the rows it gets
when read in full (:meth:`Batch.add_hand`): same key, same counts, same actions."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("duckdb")

from test_db_counts import phh  # noqa: E402

from simulate.notation.phh_read import PHHError, iter_hand_files, iter_sections  # noqa: E402
from simulate.notation.phh_synth import synthetic_hands  # noqa: E402
from simulate.replay import fast_replay  # noqa: E402
from simulate.store import rows as rows_module  # noqa: E402
from simulate.store.chunks import ROW_TABLES, Chunk, prepare_chunk  # noqa: E402

PHH = Path(__file__).resolve().parent / "data" / "phh"


def _texts() -> list[bytes]:
    out = [t.encode() for n in (3, 6, 9) for t in synthetic_hands(60, players=n, seed=n)]
    out += [phh(a).encode() for a in (
        "p3 f, p4 f, p5 f, p6 f, p1 f",  # a walk
        "p3 cc, p4 cc, p5 f, p6 f, p1 cc, p2 cc, /, p1 cc, p2 cbr 4, p3 f, p4 cc, p1 f",
        "p3 cbr 6, p4 cc, p5 cbr 24, p6 f, p1 f, p2 f, p3 f, p4 f",  # a squeeze
        "p3 cbr 200, p4 f, p5 f, p6 f, p1 f, p2 cc")]  # all-in preflop
    files = itertools.islice(iter_hand_files(PHH), 60)
    for f in files:
        with open(f, "rb") as fh:
            out += [d for _, _, d in iter_sections(fh, str(f)) if not isinstance(d, PHHError)]
    return out


def _plain(tables: dict) -> dict:
    return {t: {k: np.ma.asarray(v).tolist() for k, v in cols.items()}
            for t, cols in tables.items()}


def test_a_settled_hand_s_rows_are_those_of_the_hand_read_in_full(monkeypatch) -> None:
    texts = _texts()
    chunk = Chunk("f.phhs", [(f"f.phhs#{i}", 1, t, 7 * i, i) for i, t in enumerate(texts)],
                  True)
    used = []
    real = rows_module.Batch.add_plain

    def counted(self, *a, **k):  # type: ignore[no-untyped-def]
        got = real(self, *a, **k)
        used.append(got is not None)
        return got

    monkeypatch.setattr(rows_module.Batch, "add_plain", counted)
    monkeypatch.setattr(fast_replay, "FAST_MIN", 0)  # the compiled road even on a cold cache
    fast = prepare_chunk(chunk)
    monkeypatch.setattr(rows_module.Batch, "add_plain", lambda self, *a, **k: None)
    slow = prepare_chunk(chunk)
    assert sum(used) >= 180 and fast.outcomes == slow.outcomes
    assert sum(kind == "ok" for kind, _ in fast.outcomes) >= 200
    want, got = _plain(slow.tables), _plain(fast.tables)
    for t in ROW_TABLES:
        for k in want[t]:
            assert got[t][k] == want[t][k], (t, k)
