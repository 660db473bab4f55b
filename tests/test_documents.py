"""simulate.documents: the ``--json`` documents shared by the command line and the server,
the one bad-input exception, the one JSON text and the kernel load clock."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pytest

from simulate import documents as D

PHH = Path(__file__).parent / "data" / "phh" / "vendor" / "phh-curated" / "dwan-ivey-2009.phh"


def test_eval_document_holdem_omaha_and_hilo():
    d = D.eval_document("AhKh", "QhJhTh")
    assert (d["game"], d["text"], d["strength"], d["board"]) == (
        "holdem", "Royal Flush", 7462, "QhJhTh")
    o = D.eval_document("AhKhQd2c", "Jh9h3h5s7c", "omaha")
    assert o["hole"] == "AhKhQd2c" and o["category"] == "Flush"
    assert (o["hole_used"], o["board_used"]) == ("Ah Kh", "Jh 9h 3h")  # two plus three
    lo = D.eval_document("AhKh2c3d", "4s5h9cTd8s", "omaha_hilo")
    assert lo["low"] is not None and lo["low_value"] > 0
    assert D.eval_document("AhKhQd2c", "Jh9hTs5s7c", "omaha_hilo")["low"] is None


@pytest.mark.parametrize("args, message", [
    (("AhKhQd2c", "", "omaha"), "omaha needs a board"),
    (("AhKhQd", "Jh9h3h", "omaha"), "omaha hands have 4 hole cards, got 3"),
    (("AhKh2c", "Jh", "pineapple"), "give the 2 cards kept after the discard"),
])
def test_eval_document_refuses_with_a_usage_error(args, message):
    with pytest.raises(D.UsageError, match=message):
        D.eval_document(*args)


def test_hand_document_replays_and_totals():
    doc = D.hand_document(PHH.read_text(), source=PHH.name)
    assert len(doc["hands"]) == 1
    hand = doc["hands"][0]
    assert hand["error"] is None and hand["validated"] and hand["source"] == PHH.name
    assert hand["net"] == [-553500, -2500, 556000]  # Dwan wins Ivey's all-in
    assert {t["player"] for t in doc["totals"]} == set(hand["players"])
    assert doc["summary"]["replayed"] == 1


def test_hand_document_without_a_readable_hand_is_a_usage_error():
    with pytest.raises(D.UsageError,
                       match=r"x: no PHH hand could be read \(not a PHH hand: no fields\)"):
        D.hand_document("# a comment, no hand\n", source="x")
    with pytest.raises(D.UsageError, match="x: no PHH hand could be read"):
        D.hand_document("variant = 'NT'\nnot toml [", source="x")


def test_json_text_refuses_what_json_cannot_hold():
    assert D.json_text({"a": 1}) == '{\n  "a": 1\n}\n'
    with pytest.raises(ValueError):
        D.json_text({"a": math.nan})


def test_with_load_s_adds_the_load_time_only_to_timed_documents(monkeypatch):
    t0 = time.perf_counter()
    D.start_load_clock()
    timed = D.with_load_s({"elapsed_s": 0.5})
    wall = time.perf_counter() - t0
    assert timed["elapsed_s"] == 0.5 and type(timed["load_s"]) is float
    assert 0.0 <= timed["load_s"] <= wall
    # load_s is the compile clock's advance since the command's start, nothing before it
    import evaluator._jit

    clock = [(2.0, 0.5)]
    monkeypatch.setattr(D, "_load_mark", D._load_mark)  # put back after the test
    monkeypatch.setattr(evaluator._jit, "compile_seconds", lambda: clock[0])
    D.start_load_clock()
    clock[0] = (3.25, 1.0)
    assert D.with_load_s({"elapsed_s": 0.5})["load_s"] == 1.25
    assert D.load_seconds() == (1.25, 0.5)
    assert D.with_load_s({"elapsed_s": 1, "load_s": 7})["load_s"] == 7  # a server's answer
    assert "load_s" not in D.with_load_s({"rows": []})
    assert D.with_load_s([1]) == [1]


def test_error_line_is_the_first_line_or_the_type():
    assert D.error_line(ValueError("bad card\nmore detail")) == "bad card"
    assert D.error_line(KeyError()) == "KeyError"


def test_the_commands_and_the_server_use_these_documents():
    from simulate.cli import chart, eval, hand
    from simulate.serve import handlers as served

    assert eval.document is D.eval_document
    assert chart.document is D.chart_document
    assert hand.document is D.hand_document
    assert served.document("eval", {"cards": "AsKsQsJsTs"}) == json.loads(
        D.json_text(D.eval_document("AsKsQsJsTs")))
