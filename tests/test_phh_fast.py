"""The compiled fast path of the PHH replay (simulate._kernels.replay) against the
per-action path through simulate.engine.Hand: identical documents (errors and repairs
included) on every vendored sample, on synthetic hands and on deliberately broken ones."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers import examples, mutated_hand

import simulate._kernels.replay as KR
from simulate.notation.phh_read import HandHistory, PHHError, decode_toml, iter_hands, parse_hand
from simulate.notation.phh_synth import allin_hands, synthetic_hands
from simulate.replay import hand_replay as R

DATA = Path(__file__).resolve().parent / "data" / "phh"


@pytest.fixture()
def fast_results(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every result of the compiled kernel in this test (DONE or the action it stopped at)."""
    seen: list[int] = []
    kernel = KR.replay_actions

    def spy(*args: Any) -> int:
        r = int(kernel(*args))
        seen.append(r)
        return r

    monkeypatch.setattr(KR, "replay_actions", spy)
    return seen


def both(fields: dict[str, Any], source: str = "t") -> tuple[dict | None, dict | None]:
    """The replay document and the (possibly repaired) action list by each path."""
    out = []
    for fast in (True, False):
        try:
            h = parse_hand(dict(fields), source)
        except PHHError:
            return None, None
        d = R.replay(h, source, fast=fast).to_dict()
        d["_actions"] = [a.text for a in h.actions]
        out.append(d)
    return out[0], out[1]


def test_action_codes_match_the_kernel() -> None:
    from evaluator.cards import UNKNOWN
    from simulate.replay import engine_check as E

    assert (E._FK_FOLD, E._FK_CC, E._FK_RAISE, E._FK_HOLE, E._FK_BOARD, E._FK_SHOW,
            E._FK_SHOW_NOTHING, E._FK_SKIP) == (
        KR.FOLD, KR.CHECK_CALL, KR.RAISE, KR.DEAL_HOLE, KR.DEAL_BOARD, KR.SHOW,
        KR.SHOW_NOTHING, KR.SKIP)
    assert UNKNOWN == KR.K.UNKNOWN


def test_every_vendored_sample_same_both_ways(fast_results: list[int]) -> None:
    engine_hands = 0
    for src, h in iter_hands(DATA):
        if not isinstance(h, HandHistory):
            continue
        a, b = both(h.fields, src)
        assert a == b, src
        engine_hands += h.variant in R.ENGINE_VARIANTS
    assert engine_hands >= 130
    assert fast_results.count(KR.DONE) >= 100  # most samples take the fast path


def test_synthetic_hands_take_the_fast_path(fast_results: list[int]) -> None:
    for i, text in enumerate(synthetic_hands(150, players=3, seed=5)):
        a, b = both(decode_toml(text), f"s{i}")
        assert a == b and a is not None and a["validated"] and a["error"] is None
    for i, text in enumerate(synthetic_hands(60, players=10, seed=6)):
        a, b = both(decode_toml(text), f"t{i}")
        assert a == b
    assert fast_results and all(r == KR.DONE for r in fast_results)


def test_allin_hands_same_both_ways(fast_results: list[int]) -> None:
    for i, text in enumerate(allin_hands(30, seed=4)):
        a, b = both(decode_toml(text), f"a{i}")
        assert a == b and a is not None and a["allin_ev"] is not None
    assert fast_results.count(KR.DONE) == 30


def test_broken_hands_same_both_ways(fast_results: list[int]) -> None:
    rng = random.Random(2026)
    bases = [decode_toml(t) for t in synthetic_hands(40, players=4, seed=9)]
    bases += [h.fields for _, h in iter_hands(DATA / "derived") if isinstance(h, HandHistory)][:40]
    bases += [decode_toml(t) for t in allin_hands(15, seed=8)]
    errors = 0
    n = examples(700)  # damaged hands (the bounds below scale with them)
    for k in range(n):
        f = mutated_hand(rng, bases)
        a, b = both(f, f"m{k}")
        assert a == b, (k, f["actions"])
        errors += a is not None and a["error"] is not None
    stopped = [r for r in fast_results if r != KR.DONE]
    assert errors >= n * 3 // 14 and len(stopped) >= n * 2 // 7  # the fallback, often
    assert fast_results.count(KR.DONE) >= n // 7


# ---- the fast TOML reader against tomllib

def _tomllib(text: str) -> Any:
    import sys
    from decimal import Decimal

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except Exception as exc:  # noqa: BLE001 - any refusal
        return exc


def test_fast_toml_equals_tomllib_on_every_sample() -> None:
    from simulate.notation.phh_read import _fast_toml, iter_hand_files, iter_sections

    fast = 0
    for f in iter_hand_files(DATA):
        with open(f, "rb") as fh:
            for _, _, data in iter_sections(fh, str(f)):
                if isinstance(data, PHHError):
                    continue
                text = data.decode("utf-8")
                got = _fast_toml(text)
                if got is not None:
                    fast += 1
                    assert repr(got) == repr(_tomllib(text)), f
    assert fast >= 50
    for text in synthetic_hands(20, seed=3):
        assert repr(_fast_toml(text)) == repr(_tomllib(text))


_LINES = [
    "variant = 'NT'", 'variant = "NT"', "a = 1", "a = -0", "a = 01", "a = +1", "a = 1.5",
    "a = -0.0", "a = 1.", "a = .5", "a = 1e3", "a = 1_000", "a = inf", "a = nan",
    "a = 12345678901234567890", "b = true", "b = false", "b = True", "s = ''", 's = ""',
    "s = 'it''s'", 's = "a\\"b"', 's = "a\\tb"', "s = 'a\tb'", "s = 'a\x01b'", "s = 'é ü'",
    "x = [1, 2, 3]", "x = [1,2]", "x = [1, 2,]", "x = []", "x = [ ]", "x = [1.5, 2, -3]",
    "x = ['a', 'b']", 'x = ["a", "b"]', "x = ['a', \"b\"]", "x = ['a' , 'b']",
    "x = ['a', 'b', ]", "x = [['a']]", "x = ['p1 cc', 'd db AcKd2h']", "  y = 2  ", "y=2",
    "y\t=\t2", "# comment", "  # indented comment", "#bad\x7f", "", "   ", "a = 1 # c",
    "a.b = 1", "'a' = 1", "[table]", "a = 1\r", "a = '\r'", "k-e_y9 = 1", "= 1", "a =",
    "t = 12:30:00", "d = 2019-06-28", "a = 0x1f", "x = [1, 'a']", "a = 'x' 'y'",
]


def test_fast_toml_never_disagrees_with_tomllib() -> None:
    from simulate.notation.phh_read import _fast_toml

    rng = random.Random(7)
    fast = 0
    n = examples(3000)
    for _ in range(n):
        lines = rng.sample(_LINES, rng.randrange(1, 6))
        text = rng.choice(["\n", "\r\n"]).join(lines) + rng.choice(["", "\n"])
        want = _tomllib(text)
        got = _fast_toml(text)
        if got is not None:
            fast += 1
            assert not isinstance(want, Exception), (text, want)
            assert repr(got) == repr(want), text  # values, types and decimal digits
    assert fast >= n // 10


def _quick_as_tomllib(got: dict[str, Any]) -> dict[str, Any]:
    """:func:`simulate.replay.fast_replay._quick`'s fields in tomllib's types (its tuples as lists,
    its ``actions`` text decoded); the keys it does not read (value None) left out."""
    out = {}
    for k, v in got.items():
        if k == "actions":
            v = _tomllib(f"a = {v}")["a"]
        elif isinstance(v, tuple):
            v = list(v)
        if v is not None:
            out[k] = v
    return out


def test_the_plain_header_reader_is_the_fast_toml_reader() -> None:
    """many._quick (the compiled path's header reader) reads every line by the one TOML
    fast path: on every sample and on random lines it agrees with tomllib or declines."""
    from simulate.notation.phh_read import iter_hand_files, iter_sections
    from simulate.replay.fast_replay import _quick

    def check(text: str) -> bool:
        got = _quick(text.encode("utf-8"))
        if got is None:
            return False
        want = _tomllib(text)
        assert not isinstance(want, Exception), (text, want)
        assert repr(_quick_as_tomllib(got)) == repr(
            {k: v for k, v in want.items() if k in got and got[k] is not None}), text
        return True

    taken = 0
    for f in iter_hand_files(DATA):
        with open(f, "rb") as fh:
            for _, _, data in iter_sections(fh, str(f)):
                if not isinstance(data, PHHError):
                    taken += check(data.decode("utf-8"))
    for text in synthetic_hands(20, seed=5):
        assert check(text)
    assert taken >= 50
    rng = random.Random(9)
    extra = ["antes = [0, 0]", "antes = [0, -1]", "antes = [1.5, 0]", "min_bet = 2",
             "min_bet = -2", "players = ['a', 'b']", "ante_trimming_status = true",
             "actions = ['p1 cc', 'p2 f']", "actions = []", "starting_stacks = [100, 200]"]
    for _ in range(2000):
        lines = rng.sample(_LINES + extra, rng.randrange(1, 6))
        text = "\n".join(lines) + rng.choice(["", "\n"])
        taken += check(text)


def test_holdem_allin_spots_are_always_walked() -> None:
    """The replay walks Hold'em all-ins without asking walks_exactly (exact hands are
    always walked): the largest such spot, ten live hands before the flop, and a few
    usual ones are indeed walked by that rule."""
    from simulate.allin import walks_exactly

    ten = [(h, 100 + 10 * i) for i, h in enumerate(
        ["AhAs", "KdKc", "QhQs", "JcTc", "9d9s", "8h7h", "6c6d", "5s4s", "3h3d", "2c2h"])]
    assert walks_exactly(ten, "", "", allow_zero=True)
    assert walks_exactly([("AhKh", 50), (None, 2), ("7c7d", 80)], "", "AsAd", allow_zero=True,
                         dead_money=3)
    assert walks_exactly([("AhKh", 50), ("7c7d", 80)], "Ks8h2c", "", allow_zero=True)


def test_seat_shortcut_matches_the_player_rule() -> None:
    from simulate.notation.actions import _PLAYER_RE, _SEAT_TOKENS
    from simulate.notation.phh_read import MAX_PLAYERS, parse_action

    assert len(_SEAT_TOKENS) == MAX_PLAYERS
    for tok, seat in _SEAT_TOKENS.items():
        m = _PLAYER_RE.match(tok)
        assert m is not None and int(m.group(1)) - 1 == seat
    with pytest.raises(PHHError, match="there are only 3 players"):
        parse_action("p4 f", 3)
    with pytest.raises(PHHError, match="is not a player"):
        parse_action("p0 f", 3)
