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
from simulate.store import chunks as chunks_module  # noqa: E402
from simulate.store import rows as rows_module  # noqa: E402
from simulate.store.chunks import ROW_TABLES, Chunk, prepare_chunk  # noqa: E402
from simulate.store.plain_walk import PlainWalk  # noqa: E402

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
    """Three roads to the same rows: the compiled walk's arrays (:meth:`Batch.add_walked`),
    the Python walk of the replay's fields (:meth:`Batch.add_plain`), the hand read in full."""
    texts = _texts()
    chunk = Chunk("f.phhs", [(f"f.phhs#{i}", 1, t, 7 * i, i) for i, t in enumerate(texts)],
                  True)
    used: dict[str, list[bool]] = {"add_walked": [], "add_plain": []}

    def counting(name):  # type: ignore[no-untyped-def]
        real = getattr(rows_module.Batch, name)

        def counted(self, *a, **k):  # type: ignore[no-untyped-def]
            out = real(self, *a, **k)
            used[name].append(out is not None)
            return out

        return counted

    for name in used:
        monkeypatch.setattr(rows_module.Batch, name, counting(name))
    monkeypatch.setattr(fast_replay, "FAST_MIN", 0)  # the compiled roads even on a cold cache
    monkeypatch.setattr(chunks_module, "WALK_MIN", 0)
    walked = prepare_chunk(chunk)
    assert sum(used["add_walked"]) >= 180 and not used["add_plain"]
    monkeypatch.setattr(PlainWalk, "walked", lambda self, j: False)
    plain = prepare_chunk(chunk)
    assert sum(used["add_plain"]) >= 180
    monkeypatch.setattr(rows_module.Batch, "add_plain", lambda self, *a, **k: None)
    slow = prepare_chunk(chunk)
    assert walked.outcomes == plain.outcomes == slow.outcomes
    assert sum(kind == "ok" for kind, _ in slow.outcomes) >= 200
    want = _plain(slow.tables)
    for road in (plain, walked):
        got = _plain(road.tables)
        for t in ROW_TABLES:
            for k in want[t]:
                assert got[t][k] == want[t][k], (t, k)
