"""simulate.batch.requests on its own: reading one line (UTF-8, the byte-order mark, numbers
JSON allows), request ids, a request's effective fields (line values, the run's defaults,
the sampling mode as one unit), its digest, its answer (errors as one line, never raised)
and the all-in game of ``omaha5``/``omaha6`` seats. ``test_batch`` runs whole files."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import holdem_equities

from evaluator.cards import CardError, parse_cards
from simulate.batch import requests as R
from simulate.sampling import Sampling

EQ = {"id": "x", "hands": ["AhKh", "QsQd"], "board": "2c7d9h"}


# ----------------------------------------------------------------------------- decoding
def test_decode_json_reads_a_line_and_skips_a_bom_on_line_one_only():
    assert R.decode_json(b'{"id": 1, "x": [1.5, "a"]}', 3) == {"id": 1, "x": [1.5, "a"]}
    assert R.decode_json(b'\xef\xbb\xbf{"id": 1}', 1) == {"id": 1}
    for raw, lineno in [(b'\xef\xbb\xbf{"id": 1}', 2), (b'{"id": "a\xef\xbb\xbfb"}', 1)]:
        with pytest.raises(R.BadRequest, match=r"^a byte-order mark \(U\+FEFF\) inside the file"):
            R.decode_json(raw, lineno)


@pytest.mark.parametrize("raw,message", [
    (b'{"a": "\xc3"}', "not UTF-8 text: byte 0xc3 at column 8"),
    (b"\xff", "not UTF-8 text: byte 0xff at column 1"),
    (b"[NaN]", "NaN is not a number JSON allows"),
    (b"[Infinity]", "Infinity is not a number JSON allows"),
    (b'{"s": -Infinity}', "-Infinity is not a number JSON allows"),
    (b"[1e999]", "number 1e999 is too large"),
    (b"[-1234567890123456789012345e999]", "number -1234567890123456789... is too large"),
    (b'{"a": 1,}', "bad JSON: Expecting property name enclosed in double quotes: line 1 "
                   "column 9 (char 8)"),
    (b"", "bad JSON: Expecting value: line 1 column 1 (char 0)"),
    (b"[" * 100_000, "bad JSON: nested too deeply"),
])
def test_decode_json_errors_are_one_bad_request_line(raw, message):
    with pytest.raises(R.BadRequest) as e:
        R.decode_json(raw, 1)
    assert str(e.value) == message
    assert isinstance(e.value, ValueError)  # what callers catch


def test_decode_json_numbers_stay_exact():
    got = R.decode_json(b"[0.1, 12345678901234567890, -0.0, 1e308]", 1)
    assert got == [0.1, 12345678901234567890, -0.0, 1e308]
    assert [type(x) for x in got] == [float, int, float, float]


# ----------------------------------------------------------------------------- ids
def test_id_keys_tell_strings_ints_and_floats_apart():
    keys = [R.id_key(v) for v in ("1", 1, 1.0, "1.0", -0.0, 0, 10**30)]
    assert keys == ["s1", "n1", "n1.0", "s1.0", "n-0.0", "n0", "n" + str(10**30)]
    assert len(set(keys)) == len(keys)
    assert R.id_key("") == "s"
    for bad in (True, False, None, [1], {"a": 1}, float("inf"), float("nan"), b"1"):
        assert R.id_key(bad) is None, bad


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_an_id_read_back_from_json_text_has_the_same_key(value):
    """The key is a property of the JSON text: an id written out and read back keeps it."""
    again = R.decode_json(json.dumps({"id": value}).encode(), 2)
    assert R.check_id(again) == (value, R.id_key(value))
    assert R.id_key(again["id"]) == R.id_key(value)


@pytest.mark.parametrize("req,message", [
    ([1, 2], "a request must be a JSON object"),
    ("x", "a request must be a JSON object"),
    ({"hands": []}, "missing field 'id'"),
    ({"id": None}, "id must be a string or a number, got None"),
    ({"id": True}, "id must be a string or a number, got True"),
    ({"id": ["a"]}, "id must be a string or a number, got ['a']"),
    ({"id": ["a" * 100]}, "id must be a string or a number, got ['" + "a" * 55 + "..."),
])
def test_check_id_refuses(req, message):
    with pytest.raises(R.BadRequest) as e:
        R.check_id(req)
    assert str(e.value) == message
    assert len(str(e.value)) < 100  # long values are cut short


def test_check_id_returns_the_id_and_its_key():
    assert R.check_id({"id": "e1", "hands": []}) == ("e1", "se1")
    assert R.check_id({"id": 7}) == (7, "n7")


# ----------------------------------------------------------------------------- fields
def test_effective_gives_every_field_of_the_kind_in_a_fixed_order():
    for kind, extra in [("equity", {"hands": "AhKh QsQd"}), ("range", {"hands": ["AA", "KK"]}),
                        ("allin", {"players": ["AhAs:100", "KdKc:50"]})]:
        eff = R.effective({"id": 1, "kind": kind, **extra})
        assert list(eff) == [f for f in R.FIELDS[kind] if f != "id"]
        assert eff["kind"] == kind and eff["board"] == eff["dead"] == ""
        assert eff["game"] == "holdem"
        assert [eff[f] for f in R.SAMPLING_FIELDS] == [None] * 4
        assert R.effective({"id": 2, **eff}) == eff  # an effective request reads as itself
    assert R.effective({"id": 1, "hands": "AhKh  QsQd"})["hands"] == ["AhKh", "QsQd"]
    assert R.effective({"id": 1, "hands": ["AhKh", "QsQd"], "board": ["Ah", "Kd", "2c"]}
                       )["board"] == "Ah Kd 2c"


def test_effective_takes_the_line_first_then_the_runs_defaults():
    defaults = {"kind": "allin", "board": "2c7d9h", "dead": "3s", "seed": 4, "button": 1,
                "dead_money": 5, "game": "omaha"}
    eff = R.effective({"id": 1, "players": ["AhAsKhKs:100", "QdJdTc9c:100"], "board": None,
                       "button": 0}, defaults)
    assert (eff["kind"], eff["board"], eff["dead"], eff["seed"]) == ("allin", "2c7d9h", "3s", 4)
    assert (eff["button"], eff["dead_money"], eff["game"]) == (0, 5, "omaha")
    # a line's own kind wins over the run's
    assert R.effective({"id": 1, "kind": "equity", "hands": ["AhKh", "QsQd"]},
                       defaults)["kind"] == "equity"


def test_the_sampling_mode_is_taken_whole_from_the_line_or_from_the_defaults():
    """exact, samples and std_error are one choice: a line that makes it takes none of the
    run's (which could contradict it); the seed is separate."""
    defaults = {"exact": True, "seed": 3}
    eff = R.effective({**EQ, "samples": 100}, defaults)
    assert (eff["exact"], eff["samples"], eff["std_error"], eff["seed"]) == (None, 100, None, 3)
    eff = R.effective(EQ, defaults)
    assert (eff["exact"], eff["samples"], eff["seed"]) == (True, None, 3)
    eff = R.effective({**EQ, "std_error": 0.01}, {"samples": 5000})
    assert (eff["samples"], eff["std_error"]) == (None, 0.01)
    with pytest.raises(R.BadRequest, match="cannot be combined"):
        R.effective({**EQ, "exact": True, "samples": 5})


def test_a_range_line_leaves_out_a_default_game_that_takes_no_ranges():
    eff = R.effective({"id": 1, "kind": "range", "hands": ["AA", "KK"]}, {"game": "omaha"})
    assert eff["game"] == "holdem"
    eff = R.effective({"id": 1, "kind": "range", "hands": ["AA", "KK"]}, {"game": "short_deck"})
    assert eff["game"] == "short_deck"
    # a line that asks for such a game itself gets the engine's answer to it
    eff = R.effective({"id": 1, "kind": "range", "hands": ["AA", "KK"], "game": "omaha"})
    assert eff["game"] == "omaha"
    assert R.answer(eff) == {"error": "ranges are for Hold'em games, not omaha"}


@pytest.mark.parametrize("req,message", [
    ({"id": 1, "kind": "poker", "hands": []}, "unknown kind 'poker' (kinds: equity, range, allin)"),
    ({"id": 1, "kind": 5}, "unknown kind 5 (kinds: equity, range, allin)"),
    ({**EQ, "zzz": 1, "aaa": 2}, "unknown field 'aaa' for kind 'equity' (fields: id, kind, "
                                "board, dead, exact, samples, std_error, seed, hands, game)"),
    ({"id": 1, "kind": "allin", "hands": ["AhKh"]}, "unknown field 'hands' for kind 'allin'"),
    ({"id": 1}, "missing field 'hands'"),
    ({"id": 1, "kind": "allin"}, "missing field 'players'"),
    ({"id": 1, "hands": ["AhKh", 3]}, "hands must be a list of strings, got ['AhKh', 3]"),
    ({"id": 1, "hands": {"a": 1}}, "hands must be a list of strings, got {'a': 1}"),
    ({**EQ, "board": 5}, "board must be a string of cards, got 5"),
    ({**EQ, "dead": ["Ah", 2]}, "dead must be a string of cards, got ['Ah', 2]"),
    ({**EQ, "game": 5}, "game must be a string, got 5"),
    ({"id": 1, "kind": "allin", "players": ["AhAs:1", "KdKc:1"], "button": True},
     "button must be a whole number, got True"),
    ({"id": 1, "kind": "allin", "players": ["AhAs:1", "KdKc:1"], "dead_money": 1.0},
     "dead_money must be a whole number, got 1.0"),
    ({**EQ, "std_error": 5}, "std_error must be below 0.5"),
    ({**EQ, "samples": 0}, "samples must be positive"),
    ({**EQ, "exact": "yes"}, "exact must be true, false or null"),
    ({**EQ, "seed": -1}, "seed must be at least 0"),
])
def test_effective_refuses_with_one_line(req, message):
    with pytest.raises(R.BadRequest) as e:
        R.effective(req)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_sampling_is_checked_in_the_units_of_the_kind():
    """An all-in's standard error is in chips, an equity's a share of the pot."""
    allin = R.effective({"id": 1, "kind": "allin", "players": ["AhAs:100", "KdKc:50"],
                         "std_error": 5})
    assert allin["std_error"] == 5.0 and type(allin["std_error"]) is float
    assert R.sampling_of(allin) == Sampling(None, None, 5.0, None, None)
    assert R.sampling_of(allin, threads=2).threads == 2
    assert R.sampling_of(R.effective(EQ)) == Sampling()
    with pytest.raises(R.BadRequest, match="threads"):
        R.sampling_of(R.effective(EQ), threads=0)


# ----------------------------------------------------------------------------- digest
def test_digest_is_the_effective_request():
    d = R.digest(R.effective(EQ))
    assert re.fullmatch("[0-9a-f]{16}", d)
    # the same request spelled another way, or its values taken from the defaults
    assert R.digest(R.effective({**EQ, "id": "other", "hands": "AhKh QsQd"})) == d
    assert R.digest(R.effective({"id": 1, "hands": EQ["hands"]}, {"board": "2c7d9h"})) == d
    assert R.digest(R.effective({**EQ, "kind": "equity", "game": None})) == d
    changed = [{**EQ, "board": "2c7d9hTs"}, {**EQ, "dead": "3s"}, {**EQ, "seed": 1},
               {**EQ, "samples": 1000}, {**EQ, "exact": True}, {**EQ, "game": "short_deck"},
               {**EQ, "hands": ["QsQd", "AhKh"]}, {**EQ, "kind": "range"}]
    digests = {R.digest(R.effective(r)) for r in changed}
    assert d not in digests and len(digests) == len(changed)


# ----------------------------------------------------------------------------- answers
def test_answer_is_the_engines_document():
    got = R.answer(R.effective(EQ))
    assert set(got) == {"result"}
    doc = got["result"]
    assert doc["exact"] is True and doc["samples"] == 990 and doc["board"] == "2c7d9h"
    want = holdem_equities([parse_cards("AhKh"), parse_cards("QsQd")], parse_cards("2c7d9h"))
    assert [p["equity"] for p in doc["players"]] == pytest.approx(want, abs=1e-12)
    assert "default_samples" not in doc and "load_s" not in doc


def test_an_allin_answer_passes_button_and_dead_money_only_when_given():
    base = {"id": 1, "kind": "allin", "players": ["AhAs:100", "KdKc:60"], "board": "2c7d9h"}
    plain = R.document(R.effective(base))
    assert (plain["button"], plain["dead_money"]) == (0, 0)
    doc = R.document(R.effective({**base, "button": 1, "dead_money": 5}))
    assert (doc["button"], doc["dead_money"]) == (1, 5)
    assert doc["pots"] == [{"amount": 125, "eligible": [0, 1]}]
    assert [p["returned"] for p in doc["players"]] == [40, 0]
    assert sum(p["expected_payout"] for p in doc["players"]) == pytest.approx(125 + 40)


def test_the_default_sample_size_is_reported_with_the_answer(monkeypatch):
    import simulate.sampling

    monkeypatch.setattr(simulate.sampling, "DEFAULT_BUDGET_S", 1e-9)  # stop after a block
    doc = R.document(R.effective({**EQ, "exact": False, "seed": 1}))
    assert doc["default_samples"]["stopped_by"] == "time"
    assert doc["default_samples"]["deals"] == doc["samples"] > 0
    sized = R.document(R.effective({**EQ, "samples": doc["samples"], "seed": 1}))
    assert "default_samples" not in sized  # sized by the request: nothing to report
    assert sized["players"] == doc["players"]  # the same deals again


@pytest.mark.parametrize("req,message", [
    ({"id": 1, "hands": ["AhKh", "AhQd"]}, "duplicate card Ah in hand 1 and hand 2"),
    ({"id": 1, "hands": ["AhKh", "QsQd"], "game": "poker"}, "unknown game 'poker'"),
    ({"id": 1, "kind": "allin", "players": ["AhAs:100", "KdKc:-5"]}, "-5"),
])
def test_bad_input_is_answered_not_raised(req, message):
    got = R.answer(R.effective(req))
    assert set(got) == {"error"} and message in got["error"] and "\n" not in got["error"]
    with pytest.raises((ValueError, CardError)):
        R.document(R.effective(req))


def test_unexpected_failures_become_one_line_errors(monkeypatch):
    eff = R.effective(EQ)

    def boom(exc):
        def document(eff, threads=None):
            raise exc
        return document

    for exc, want in [(RuntimeError("disk\n  on fire"),
                       "internal error: RuntimeError: disk on fire"),
                      (ValueError(""), "ValueError"),
                      (TypeError("bad\ttype"), "bad type"),
                      (RecursionError("deep"), "input nested too deeply")]:
        monkeypatch.setattr(R, "document", boom(exc))
        assert R.answer(eff) == {"error": want}
    monkeypatch.setattr(R, "document", boom(KeyboardInterrupt()))
    with pytest.raises(KeyboardInterrupt):
        R.answer(eff)


def test_memory_error_propagates(monkeypatch):
    def document(eff, threads=None):
        raise MemoryError()

    monkeypatch.setattr(R, "document", document)
    with pytest.raises(MemoryError):
        R.answer(R.effective(EQ))


def test_one_line():
    assert R.one_line("  a\n b\t\tc \r\n") == "a b c"
    assert R.one_line("") == ""


# ----------------------------------------------------------------------------- all-in game
@pytest.mark.parametrize("game,specs,want", [
    ("holdem", ["AhAs:100", "KdKc:60"], "holdem"),
    ("omaha", ["AhAsKhKs:100", "QdJdTc9c:60"], "omaha"),
    ("omaha5", ["AhAsKhKs2c:100", "fold:20", "QdJdTc9c3c:60"], "omaha"),
    ("omaha6", ["AhAsKhKs2c2d:100", "QdJdTc9c3c3d:60"], "omaha"),
    ("  Omaha5 ", ["AhAsKhKs2c:100", "QdJdTc9c3c:60"], "omaha"),
    ("short_deck", ["AhAs:100", "KdKc:60"], "short_deck"),
])
def test_allin_game(game, specs, want):
    assert R.allin_game(game, specs) == want


def test_allin_game_keeps_the_hilo_games():
    specs = ["Ah2sKhKs:100", "QdJdTc9c:60"]
    assert R.allin_game("omaha_hilo", specs) == "omaha_hilo"
    assert R.allin_game("omaha5_hilo", ["Ah2sKhKs3c:100", "QdJdTc9c3d:60"]) == "omaha5_hilo"


def test_allin_command_splits_hilo_pots_as_allin_ev(capsys):
    """``pokerjit allin --game omaha_hilo`` pays what allin_ev and a batch line pay (it
    played high-only Omaha when the game was mapped to omaha)."""
    import json

    from simulate import allin_ev
    from simulate.cli import main

    specs = ["Ah2sKhKs:100", "QdJdTc9c:60"]
    assert main(["allin", *specs, "--board", "3c4d8h", "--game", "omaha_hilo", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    want = allin_ev(specs, board="3c4d8h", game="omaha_hilo")
    assert [p["expected_payout"] for p in doc["players"]] == pytest.approx(
        [p.expected_payout for p in want.players])
    assert doc["players"][0]["expected_payout"] == pytest.approx(146.32, abs=0.01)


@pytest.mark.parametrize("game,specs,message", [
    ("omaha5", ["AhAsKhKs2c:100", "QdJdTc9c:60"], "seat 1 has 4 cards; omaha5 hands have 5"),
    ("omaha6", ["AhAsKhKs2c:100", "QdJdTc9c3c3d:60"], "seat 0 has 5 cards; omaha6 hands have 6"),
    ("omaha5", ["AhAsKhKs2x:100"], "seat 0"),
    ("poker", ["AhAs:100"], "unknown game 'poker'"),
])
def test_allin_game_refuses(game, specs, message):
    with pytest.raises(ValueError) as e:
        R.allin_game(game, specs)
    assert message in str(e.value) and "\n" not in str(e.value)
