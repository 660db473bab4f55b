"""simulate.bench.timing, the one timer of ``pokerjit bench`` and ``benchmarks/bench_*.py``:
spreads, calls per short repetition, paired ratios, and :func:`compare` alternating the
sides of a comparison round by round (checked with fake sides on a fake clock)."""

from __future__ import annotations

import json

import helpers
import pytest

import simulate.bench.timing as T
from simulate.bench import Comparison, Side, compare, format_comparisons, script_main


def test_spread():
    assert T.spread([]) is None
    assert T.spread([3.0, 1.0, 2.0, 10.0]) == {"median": 2.5, "min": 1.0, "max": 10.0,
                                               "runs": 4}


@pytest.mark.parametrize("secs,target,want", [(0.5, 0.0, 1), (0.5, 0.1, 1), (0.01, 0.1, 10),
                                              (0.003, 0.1, 34), (0.0, 0.1, T.MAX_INNER)])
def test_inner_calls(secs, target, want):
    assert T.inner_calls(secs, target) == want


def test_paired_ratios_skip_empty_rounds():
    assert T.paired_ratios([4.0, 6.0, 8.0], [2.0, 0.0, 4.0, 1.0]) == [2.0, 2.0]


class FakeClock(helpers.FakeClock):
    """``time.perf_counter`` that each side's run moves by its own cost."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[str] = []

    def side(self, name: str, costs: list[float]) -> Side:
        it = iter(costs)

        def run() -> str:
            self.log.append(name)
            self.now += next(it)
            return name

        return Side(name, run, work=100)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    return helpers.patch_clock(monkeypatch, T, FakeClock())


def test_compare_alternates_and_pairs_the_rounds(clock: FakeClock):
    # warm-up costs first, then three rounds; the peer is 2x, 3x, 4x slower per round
    ours = clock.side("ours", [9.0, 1.0, 2.0, 1.0])
    peer = clock.side("peer", [9.0, 2.0, 6.0, 4.0])
    gone = Side("absent", lambda: None, available=False)
    (row,) = compare([Comparison("spot", [ours, gone, peer], unit="hands")], repeat=3)
    assert clock.log == ["ours", "peer"] + ["ours", "peer"] * 3  # warm-ups, then alternating
    a, b = row["sides"]
    assert (row["title"], row["unit"], row["rounds"]) == ("spot", "hands", 3)
    assert a["seconds"] == {"median": 1.0, "min": 1.0, "max": 2.0, "runs": 3}
    assert a["rate"]["median"] == 100.0 and a["vs_first"] is None
    assert b["vs_first"] == {"median": 3.0, "min": 2.0, "max": 4.0, "runs": 3}
    text = format_comparisons([row])
    assert "spot (3 rounds)" in text and "3.00x" in text and "2.00..4.00" in text
    assert "absent" not in text


def test_compare_uses_the_runs_own_seconds_and_checks_every_run(clock: FakeClock):
    seen = []
    side = Side("self-timed", lambda: {"seconds": 0.25}, work=10, seconds=lambda r: r["seconds"],
                info=lambda r: {"cpu_seconds": 1.5}, check=lambda r: seen.append(r))
    (row,) = compare([Comparison("c", [side], repeat=2, warm=False)], repeat=9)
    (s,) = row["sides"]
    assert row["rounds"] == 2 and len(seen) == 2  # the comparison's own repeat, no warm-up
    assert s["seconds"]["median"] == 0.25 and s["rate"]["median"] == 40.0
    assert s["info"] == {"cpu_seconds": 1.5}


def test_short_runs_are_repeated_within_a_round(clock: FakeClock):
    side = clock.side("short", [0.01] * 40)
    (row,) = compare([Comparison("c", [side], min_rep_s=0.1)], repeat=2)
    assert row["sides"][0]["inner"] == 10 and len(clock.log) == 1 + 2 * 10
    assert row["sides"][0]["seconds"]["median"] == pytest.approx(0.01)


def test_a_failed_check_stops_the_run(clock: FakeClock):
    def bad(_r: object) -> None:
        raise AssertionError("wrong answer")

    with pytest.raises(AssertionError, match="wrong answer"):
        compare([Comparison("c", [Side("x", lambda: 1, check=bad)])])


def test_script_main(capsys: pytest.CaptureFixture[str]):
    made = []

    def comparisons(args, tmp):
        made.append((args.quick, args.size, tmp.is_dir()))
        return [Comparison("one", [Side("ours", lambda: None, work=args.size)], warm=False)]

    def options(ap):
        ap.add_argument("--size", type=int, default=5)

    rc = script_main("Doc line.\n\nMore.", comparisons, argv=["--json", "--quick", "--repeat",
                                                                "2", "--size", "7"],
                     add_arguments=options, extra=lambda args, tmp: {"x": 1})
    assert rc == 0 and made == [(True, 7, True)]
    doc = json.loads(capsys.readouterr().out)
    assert doc["extra"] == {"x": 1} and doc["comparisons"][0]["rounds"] == 2
    assert doc["comparisons"][0]["sides"][0]["work"] == 7
    with pytest.raises(SystemExit):
        script_main("Doc.", comparisons, argv=["--repeat", "0"])
    assert "--repeat must be at least 1" in capsys.readouterr().err
