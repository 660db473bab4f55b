"""Pineapple speed: Crazy Pineapple heads-up from three cards each before the flop (the
discard after the flop betting), one thread.

* exact with the cheap ``made`` policy (every flop, every discard, every turn and river:
  13,707,540 deals): target <= 1 s;
* Monte Carlo with the strong ``equity`` policy (the flop table): target >= 1,000,000
  deals/s/thread; the flop table's build (1,755 flop classes x 1,326 pairs, int32, 9.3 MB,
  cached on disk) is timed apart when it is not cached yet.

``pytest benchmarks/bench_pineapple.py --benchmark-enable`` times each piece with
pytest-benchmark; in the normal test run (``--benchmark-disable``) each runs once as a
smoke test (the Monte Carlo one on few deals). ``python benchmarks/bench_pineapple.py
[--json]`` prints the numbers (best of three) and, for the README, how much the choice of
policy moves the equities on a few spots.
"""

from __future__ import annotations

import argparse
import json
import time

import pytest

from simulate import equity

SPOT = ["AhKh2c", "7s7d8c"]
MC_DEALS = 2_000_000
#: Spots for "how much the policy moves the equities": (hands, board, game, discard_after).
POLICY_SPOTS = [
    (["AhKh2c", "7s7d8c"], "", "crazy_pineapple", "flop"),
    (["AsQs9d", "JhTh5c"], "", "crazy_pineapple", "flop"),
    (["KcQd7h", "9s8s8c", "Ad5d4c"], "", "crazy_pineapple", "flop"),
    (["AhKh2c", "7s7d8c"], "Qh9c3d", "crazy_pineapple", "turn"),
]


def exact_cheap() -> object:
    return equity(SPOT, game="crazy_pineapple", exact=True, threads=1)


def mc_strong(samples: int = MC_DEALS) -> object:
    return equity(SPOT, game="crazy_pineapple", discard_policy="equity", samples=samples,
                  seed=1, threads=1)


def test_exact_cheap_policy(benchmark):
    res = benchmark(exact_cheap)
    assert res.exact and res.samples == 13_707_540


@pytest.mark.slow  # builds the flop table (about a minute, once) when it is not cached
def test_mc_strong_policy(benchmark):
    from simulate.pineapple import flop_table

    flop_table(None)  # built (or loaded) before timing
    res = benchmark(mc_strong, 50_000)
    assert not res.exact and res.samples == 50_000


def _best(fn, repeats: int = 3) -> tuple[float, object]:
    best, res = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = fn()
        best = min(best, time.perf_counter() - t0)
    return best, res


def report() -> dict[str, object]:
    from simulate.pineapple import flop_table

    out: dict[str, object] = {}
    t0 = time.perf_counter()
    flop_table(None, threads=1)
    out["flop_table_load_or_build_s"] = time.perf_counter() - t0
    exact_cheap()  # compile / load
    mc_strong(20_000)
    t, res = _best(exact_cheap)
    out["exact_made_s"] = t
    out["exact_made_equity"] = [p.equity for p in res.players]  # type: ignore[attr-defined]
    t, res = _best(mc_strong)
    out["mc_equity_deals_per_s"] = MC_DEALS / t
    out["mc_equity_equity"] = [p.equity for p in res.players]  # type: ignore[attr-defined]
    spots = []
    for hands, board, game, after in POLICY_SPOTS:
        made = equity(hands, board, game=game, discard_after=after, discard_policy="made",
                      samples=1_000_000, seed=3)
        strong = equity(hands, board, game=game, discard_after=after, discard_policy="equity",
                        samples=1_000_000, seed=3)
        spots.append({"hands": hands, "board": board, "game": game, "discard_after": after,
                      "made": [round(p.equity, 4) for p in made.players],
                      "equity": [round(p.equity, 4) for p in strong.players],
                      "std_error": max(p.std_error for p in strong.players)})
    out["policy_spots"] = spots
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = report()
    if args.json:
        print(json.dumps(r, indent=2))
        return 0
    print(f"flop table (load or build): {r['flop_table_load_or_build_s']:.2f} s")
    print(f"exact, made policy, one thread: {r['exact_made_s']:.3f} s (target <= 1 s)")
    print(f"Monte Carlo, equity policy, one thread: {r['mc_equity_deals_per_s'] / 1e6:.2f} M "
          "deals/s (target >= 1 M)")
    for s in r["policy_spots"]:  # type: ignore[union-attr]
        print(f"{' vs '.join(s['hands'])} board '{s['board']}' {s['game']} after "
              f"{s['discard_after']}: made {s['made']} equity {s['equity']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
