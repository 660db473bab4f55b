"""simulate.progress: plain lines when stderr is not a terminal (every ``PLAIN_EVERY_S``),
a tqdm bar on a terminal, nothing when quiet; the ``report(done, total)`` callback."""

from __future__ import annotations

import io

import pytest
from helpers import FakeClock, patch_clock

import simulate.progress as P
from simulate.progress import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    return patch_clock(monkeypatch, P, FakeClock(1000.0))


def test_plain_lines_come_every_few_seconds(clock: FakeClock):
    out = io.StringIO()
    with progress(total=1000, desc="boards", unit="boards", stream=out) as bar:
        bar.update(100)  # no time has passed: no line
        assert out.getvalue() == ""
        clock.now += P.PLAIN_EVERY_S
        bar.update(400)
        clock.now += 1.0
        bar.update(100)  # too soon after the last line
    lines = out.getvalue().splitlines()
    assert lines == ["boards: 500/1,000 boards (50%), 100 boards/s, about 5 s left"]


def test_line_without_a_total(clock: FakeClock):
    with progress(desc="hands", unit="hands", stream=io.StringIO()) as bar:
        clock.now += 2.0
        bar.update(3000)
        assert bar.line() == "hands: 3,000 hands, 1,500 hands/s"


def test_quiet_writes_nothing(clock: FakeClock):
    out = io.StringIO()
    with progress(total=10, desc="x", stream=out, quiet=True) as bar:
        clock.now += 100
        bar.update(10)
        assert bar.done == 10
    assert out.getvalue() == ""


def test_note_changes_the_label(clock: FakeClock):
    out = io.StringIO()
    with progress(total=4, desc="first", stream=out) as bar:
        bar.note("second")
        clock.now += P.PLAIN_EVERY_S
        bar.update(2)
    assert out.getvalue().startswith("second: 2/4 it (50%)")


def test_callback_moves_to_done_of_total(clock: FakeClock):
    with progress(total=None, desc="walk", stream=io.StringIO()) as bar:
        report = bar.callback()
        report(10, 100)
        assert (bar.done, bar.total) == (10, 100)
        report(5, 100)  # never backwards
        assert bar.done == 10
        report(100, 200)  # a total that grows
        assert (bar.done, bar.total) == (100, 200)


def test_a_terminal_gets_a_bar_that_is_closed():
    out = Terminal()
    with progress(total=50, desc="bar", unit="hands", stream=out) as bar:
        assert bar._bar is not None
        bar.update(50)
        bar.note("done")
    assert bar._bar is None  # closed, and it left no bar behind (leave=False)
    text = out.getvalue()
    assert "bar" in text or "done" in text


def test_closed_even_when_the_block_raises():
    out = Terminal()
    with pytest.raises(RuntimeError), progress(total=5, stream=out) as bar:
        raise RuntimeError("boom")
    assert bar._bar is None


def test_rates_and_time_left_leave_the_compile_out(clock: FakeClock, monkeypatch):
    """A kernel compiled between two updates (the compile clock moves with the wall clock)
    is not the work's speed: the rate and time left count the work alone, and a slow rate
    keeps its digits."""
    import evaluator._jit as J

    out = io.StringIO()
    with progress(total=1000, desc="hands", unit="hands", stream=out) as bar:
        clock.now += 60.0
        monkeypatch.setattr(J._clock, "total", J._clock.total + 59.0)  # 59 s of it compiling
        bar.update(100)  # 100 hands in the one second of work
        assert bar.line() == "hands: 100/1,000 hands (10%), 100 hands/s, about 9 s left"
        clock.now += 401.0
        bar.update(1)  # 101 hands in 402 s of work
        assert ", 0.251 hands/s," in bar.line()


def test_a_terminal_bar_leaves_the_compile_out(clock: FakeClock, monkeypatch):
    import evaluator._jit as J

    tty = Terminal()
    with progress(total=1000, desc="hands", unit="hands", stream=tty) as bar:
        start = bar._bar.start_t
        monkeypatch.setattr(J._clock, "total", J._clock.total + 30.0)
        bar.update(10)
        assert bar._bar.start_t == pytest.approx(start + 30.0)
