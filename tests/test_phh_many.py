"""Many hands in one compiled call (simulate.replay.fast_replay,
simulate._kernels.replay.replay_many) against the per-hand path
(simulate.replay.hand_files.replay_item): identical documents, key order included, on the
vendored samples, synthetic hands, random engine-played hands of
every betting structure (antes, straddles, short stacks) and broken hands; and the
compiled path really settles the plain ones."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import examples, mutated_hand

import simulate.replay.fast_replay as M
from simulate.engine import Hand, Rules
from simulate.notation.phh_read import PHHError, decode_toml, iter_sections
from simulate.notation.phh_synth import allin_hands, synthetic_hands
from simulate.notation.phh_write import dumps_fields
from simulate.replay.fast_replay import _quick, replay_items
from simulate.replay.hand_files import _items, analyze, replay_item

DATA = Path(__file__).resolve().parent / "data" / "phh"


@pytest.fixture()
def settled(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Per hand given to the compiled path: True when it settled it."""
    seen: list[bool] = []
    real = M._Settled.doc

    def spy(self: Any, i: int) -> Any:
        out = real(self, i)
        seen.append(out is not None)
        return out

    monkeypatch.setattr(M._Settled, "doc", spy)
    monkeypatch.setattr(M, "FAST_MIN", 0)  # the compiled road even on a cold cache
    return seen


def same(items: list[tuple[str, int, Any]]) -> list[dict[str, Any]]:
    """The documents by both paths, asserted equal as JSON (key order included)."""
    got = replay_items(items)
    for it, d in zip(items, got, strict=True):
        want = replay_item(*it)
        assert json.dumps(d) == json.dumps(want), it
    return got


def texts_items(texts: list[str], tag: str) -> list[tuple[str, int, Any]]:
    return [(f"{tag}{i}", 1, t.encode()) for i, t in enumerate(texts)]


def test_samples_and_synthetic_hands(settled: list[bool]) -> None:
    same(list(_items([DATA])))
    assert sum(settled) >= 80  # the plain samples settle in the kernel
    settled.clear()
    texts = [*synthetic_hands(200, players=3, seed=1), *synthetic_hands(200, seed=2),
             *synthetic_hands(100, players=10, seed=3)]
    docs = same(texts_items(texts, "s"))
    assert all(d["validated"] and d["error"] is None for d in docs)
    assert len(settled) == len(texts) and all(settled)


def test_allin_hands_fall_back_with_their_ev(settled: list[bool]) -> None:
    docs = same(texts_items(allin_hands(40, seed=5), "a"))
    assert all(d["allin_ev"] is not None for d in docs)
    assert settled and not any(settled)


def _engine_hand(rng: random.Random) -> str:
    """A random hand played through the engine with random legal actions, as PHH."""
    betting = rng.choice(["no-limit", "pot-limit", "fixed-limit"])
    n = rng.randint(2, 9)
    ante = rng.choice([0, 0, 1, 2])
    straddles = (4,) if n > 2 and rng.random() < 0.2 else ()
    rules = Rules(betting=betting, blinds=(1, 2), ante=ante, bb_ante=ante > 0 and rng.random()
                  < 0.3, straddles=straddles)
    stacks = [rng.choice([rng.randint(3, 40), rng.randint(100, 400)]) for _ in range(n)]
    h = Hand(rules, stacks, button=n - 1, seed=rng.randrange(1 << 30))
    while h.actor is not None:
        lg = h.legal
        opts = ["cc"] * 3 + (["f"] if lg.fold else [])
        if lg.min_raise_to is not None:
            opts.append("r")
        o = rng.choice(opts)
        if o == "f":
            h.fold()
        elif o == "cc":
            h.check_or_call()
        else:
            lo, top = lg.min_raise_to, lg.max_raise_to
            assert top is not None
            h.raise_to(rng.randint(lo, top if rng.random() < 0.2 else min(top, 2 * lo)))
    return h.to_phh()


def test_engine_played_hands(settled: list[bool]) -> None:
    rng = random.Random(11)
    n = examples(300)  # hands (the bounds below scale with them)
    texts = [_engine_hand(rng) for _ in range(n)]
    docs = same(texts_items(texts, "e"))
    assert all(d["error"] is None and d["validated"] for d in docs)
    assert sum(settled) >= n // 3 and not all(settled)  # all-ins fall back


def test_broken_hands(settled: list[bool]) -> None:
    rng = random.Random(2027)
    bases = [decode_toml(t) for t in synthetic_hands(30, players=4, seed=9)]
    bases += [decode_toml(_engine_hand(rng)) for _ in range(30)]
    items = []
    n = examples(400)  # damaged hands (the bounds below scale with them)
    for k in range(n):
        f = mutated_hand(rng, bases)
        items.append((f"m{k}", 1, dumps_fields(f).encode()))
    docs = same(items)
    assert sum(d["error"] is not None for d in docs) >= n // 4
    assert sum(settled) >= n // 20 and not all(settled)


#: Header and text edits: each old text and what it is replaced with (one edit a hand).
_HEADER_EDITS = {
    "antes = [0, 0, 0, 0]": [
        "antes = [1, 1, 1, 1]", "antes = [0, 0, 0]", "antes = [0, 2, 0, 0]",
        "antes = [0, 0, 1, 0]"],
    "ante_trimming_status = false": ["ante_trimming_status = true"],
    "blinds_or_straddles = [1, 2, 0, 0]": [
        "blinds_or_straddles = [1, 2, 4, 0]", "blinds_or_straddles = [2, 1, 0, 0]",
        "blinds_or_straddles = [0, 2, 0, 0]", "blinds_or_straddles = [1.0, 2, 0, 0]"],
    "min_bet = 2": [
        "min_bet = 4", "min_bet = 02", "min_bet = 2\nrake = 1", "min_bet = 2\nrake = 0",
        "min_bet = 2\nfinishing_stacks = [1, 2, 3, 4]", "min_bet = 2\nwinnings = [0, 0, 0, 5]",
        "min_bet = 2\nwinnings = [0, 0, 5]", "min_bet = 2\nwinnings = [0, 0, 0, 1000000000000001]",
        "min_bet = 2\nfinishing_stacks = [0, 0, 0, 9999999999999999]",
        "min_bet = 2\nbring_in = 1000000000000001", "min_bet = 2\nsmall_bet = 1000000000000000",
        "min_bet = 2\nmin_bet = 2", "min_bet =  2", "min_bet = 2 # c", "# c\nmin_bet = 2",
        "min_bet = 2\nvenue = 'x'", "min_bet = 2\nday = 2020-01-01", "min_bet = 2\nx = [1, 'a']",
        "min_bet = 2\n[x]", "min_bet = 2\r", "\tmin_bet = 2"],
    "variant = 'NT'": [
        "variant = 'PT'", "variant = 'FT'", "variant = 'FT'\nsmall_bet = 2\nbig_bet = 4",
        "variant = 'NO'", 'variant = "NT"', "variant = 1", ""],
    "starting_stacks = [200, 200, 200, 200]": [
        "starting_stacks = [200, inf, 200, 200]", "starting_stacks = [200, 0, 200, 200]",
        "starting_stacks = [200, 9, 200, 200]", "starting_stacks = [200.5, 200, 200, 200]",
        "starting_stacks = [200, 2000000000000000, 200, 200]"],
    "players = ['player1', 'player2', 'player3', 'player4']": [
        "players = ['a', 'b', 'c']", 'players = ["a b", "c", "d", "é"]', "players = [1, 2, 3, 4]"],
    "actions = ['": ["actions = [ '"],
    "', 'p": ["','p", '\', "p'],
    "d dh p1 ": ["d dh p1 ♠", "d  dh p1 "],
    "d dh p2 ": ["d dh p02 "],
    "d db ": ["d db 10h"],
}


def test_header_and_text_edits(settled: list[bool]) -> None:
    """Each edit is either read the same by the quick reader as by tomllib, or refused by
    it (the per-hand path then reads it); documents equal either way."""
    base = list(synthetic_hands(30, players=4, seed=21))
    items = []
    for t in base:
        for old, news in _HEADER_EDITS.items():
            items += [(f"h{len(items) + k}", 1, t.replace(old, new, 1).encode())
                      for k, new in enumerate(news) if old in t]
    same(items)
    assert sum(settled) >= 100 and not all(settled)
    for _, _, data in items:
        q = _quick(data)
        if q is None:
            continue
        try:  # what it reads is what tomllib reads (the actions are the kernel's to judge)
            full = decode_toml(data.decode())
        except PHHError:
            assert "actions" in q  # only a bad actions text gets this far
            continue
        assert set(q) == set(full)
        for k, v in q.items():
            if k != "actions" and v is not None:
                v = list(v) if isinstance(v, tuple) else v
                assert v == full[k] and type(v) is type(full[k]), k


def test_analyze_streams_in_chunks_in_order(tmp_path: Path) -> None:
    """The chunked replay keeps input order, mixes settled and per-hand hands, and gives
    the same documents with workers as without."""
    from simulate.notation.phh_write import write_phhs

    rng = random.Random(3)
    texts = list(synthetic_hands(120, players=5, seed=4))
    texts[7] = texts[7].replace("p1 sm", "p1 smx")
    texts[50] = _engine_hand(rng)
    f = tmp_path / "mix.phhs"
    write_phhs(texts, f)
    one = list(analyze(f, chunk=16))
    assert [d["source"].rsplit("#", 1)[1] for d in one] == [str(i + 1) for i in range(120)]
    with open(f, "rb") as fh:
        items = [(s, ln, d) for s, ln, d in iter_sections(fh, str(f))]
    assert one == [replay_item(*it) for it in items]
    assert one[7]["error"] is not None


def test_no_import_circle_and_no_private_names_across_packages() -> None:
    """simulate.replay.fast_replay does not import simulate.replay.hand_files (the circle is
    open), and the
    hand-history reader, the executor, ``hand`` and the warm-up registry import no private
    name of another package (the executor is public: simulate.batch.executor)."""
    import ast

    root = Path(__file__).resolve().parents[1]
    files = [root / "simulate" / p for p in ("replay/hand_files.py", "replay/fast_replay.py",
                                             "batch/runner.py", "cli/hand.py", "warmup.py")]
    bad = []
    for f in files:
        rel = f.relative_to(root).with_suffix("")
        pkg = ".".join(rel.parts[:-1])
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if f.name == "fast_replay.py" and node.module == "simulate.replay.hand_files":
                bad.append(f"{rel}: imports simulate.replay.hand_files")
            home = node.module.rsplit(".", 1)[0]
            if home == pkg or node.module == pkg or home.startswith("simulate._kernels") \
                    or home == "evaluator" and node.module == "evaluator._jit":
                continue
            bad += [f"{rel}: {node.module}.{a.name}" for a in node.names
                    if a.name.startswith("_") and not a.name.startswith("__")]
    assert bad == []


def test_a_few_hands_on_a_cold_cache_take_the_per_hand_road(settled: list[bool],
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Below ``FAST_MIN`` plain hands, with the batch kernel neither compiled nor cached,
    each hand is replayed on its own (a first run on a few hands compiles one road); the
    documents are the same either way, and a ready kernel is used at once."""
    monkeypatch.setattr(M, "FAST_MIN", 10**9)
    monkeypatch.setattr(M, "_fast_ready", lambda: False)
    texts = list(synthetic_hands(20, seed=4))
    docs = same(texts_items(texts, "c"))
    assert settled == [] and all(d["validated"] for d in docs)
    monkeypatch.setattr(M, "_fast_ready", lambda: True)
    same(texts_items(texts, "c"))
    assert len(settled) == len(texts) and all(settled)
