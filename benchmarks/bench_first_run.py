"""First runs against warm runs, per command: the table of ``benchmarks/README.md``
("First run of each command").

Each command runs as a fresh ``pokerjit`` process: once with an empty Numba cache (its own
``NUMBA_CACHE_DIR``: the first run after installing, which compiles what the command needs),
then ``--warm`` times with that cache filled (the median is the warm run). Commands take
turns, so a busy spell of the machine falls on several commands rather than on one.

``python benchmarks/bench_first_run.py`` prints the table (Markdown) and, with ``--write``,
puts it in ``benchmarks/README.md`` between the two ``first-run table`` markers;
``--only NAME`` runs one command of :data:`COMMANDS`; ``--json`` prints the numbers.
The run takes minutes (the sum of every command's compile, about two minutes on the
2-core VM).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "benchmarks" / "README.md"
PHH = "tests/data/phh/vendor/phh-curated/dwan-ivey-2009.phh"
SITE = "tests/data/sites/hhp/test/fixtures/holdem/pokerstars/actiononall.txt"
MARK = "<!-- first-run table (benchmarks/bench_first_run.py --write) -->"

#: ``(name, arguments)``: one line of the table each, every command a user meets first.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("eval", ("eval", "AsKsQsJsTs")),
    ("equity", ("equity", "AhKh", "QsQd")),
    ("equity, Omaha", ("equity", "AhKhQdJd", "7s7d8c9c", "--game", "omaha")),
    ("equity, Omaha hi/lo", ("equity", "Ah2h3c4d", "KsKdQcJh", "--game", "omaha_hilo")),
    ("range", ("range", "QQ+,AKs", "--vs", "random", "--board", "Td9d2c")),
    ("allin", ("allin", "AhAs:100", "KdKc:60", "QhQs:30", "--button", "0")),
    ("icm", ("icm", "4200", "3100", "1500", "900", "300", "--payouts", "500", "300", "200")),
    ("pushfold", ("pushfold", "--stack", "10")),
    ("hand, PHH", ("hand", PHH)),
    ("hand, PokerStars", ("hand", SITE)),
    ("play", ("play", "--players", "6", "--hands", "10000", "--seed", "1")),
)


@dataclass
class FirstRun:
    """One command's line: seconds of its first run and of its warm runs."""

    name: str
    command: str
    first_s: float
    warm_s: list[float]

    @property
    def warm_median_s(self) -> float:
        return statistics.median(self.warm_s)

    @property
    def ratio(self) -> float:
        return self.first_s / self.warm_median_s


def _timed(args: tuple[str, ...], cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "simulate", *args], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"error: pokerjit {' '.join(args)} failed: {done.stderr.strip()}")
    return dt


def measure(commands=COMMANDS, warm: int = 3) -> list[FirstRun]:
    """Each command's first run (empty cache), then ``warm`` warm runs, commands in turn."""
    caches = {name: tempfile.mkdtemp(prefix="pokerjit-first-") for name, _ in commands}
    try:
        runs = {name: FirstRun(name, "pokerjit " + " ".join(args), 0.0, [])
                for name, args in commands}
        for name, args in commands:
            runs[name].first_s = _timed(args, caches[name])
            print(f"{name}: first {runs[name].first_s:.2f} s", file=sys.stderr)
        for _ in range(warm):
            for name, args in commands:
                runs[name].warm_s.append(_timed(args, caches[name]))
        return list(runs.values())
    finally:
        for d in caches.values():
            shutil.rmtree(d, ignore_errors=True)


def table(runs: list[FirstRun]) -> str:
    """The Markdown table of ``runs``."""
    lines = ["| command | first run | warm run (median) | first / warm |",
             "|---|---:|---:|---:|"]
    for r in runs:
        lines.append(f"| `{r.command}` | {r.first_s:.2f} s | {r.warm_median_s:.2f} s "
                     f"| {r.ratio:.1f}× |")
    return "\n".join(lines)


def write_readme(text: str) -> None:
    """Put ``text`` between the two markers of ``benchmarks/README.md``."""
    doc = README.read_text(encoding="utf-8")
    head, sep, rest = doc.partition(MARK)
    if not sep or MARK not in rest:
        raise SystemExit(f"error: {README} lacks two '{MARK}' lines")
    _, _, tail = rest.partition(MARK)
    README.write_text(f"{head}{MARK}\n{text}\n{MARK}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warm", type=int, default=3, help="warm runs per command (median)")
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="run this command of the table only (repeatable)")
    ap.add_argument("--write", action="store_true", help="update benchmarks/README.md")
    ap.add_argument("--json", action="store_true", help="print the numbers as JSON")
    a = ap.parse_args(argv)
    commands = [c for c in COMMANDS if not a.only or c[0] in a.only]
    if not commands:
        ap.error(f"--only: none of {a.only} is in the table")
    runs = measure(commands, a.warm)
    if a.json:
        print(json.dumps([dict(asdict(r), ratio=r.ratio) for r in runs], indent=1))
    else:
        print(table(runs))
    if a.write:
        write_readme(table(runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
