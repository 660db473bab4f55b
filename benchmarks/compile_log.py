"""Where a command's first run compiles: run one ``pokerjit`` command in this process and
print every Numba compile longer than ``--min`` seconds (inclusive of the callees it
compiles, nested by depth) on stderr, then the whole command's time.

    NUMBA_CACHE_DIR=$(mktemp -d) python benchmarks/compile_log.py equity AhKh QsQd

An empty ``NUMBA_CACHE_DIR`` makes it a first run. The command runs with ``argv`` given,
so nothing is compiled in a forked copy (``evaluator._first_run.compile_beside`` is the
program's alone): the log shows the whole compile in one place.
"""

from __future__ import annotations

import sys
import time
from typing import Any


def main(argv: list[str]) -> int:
    import numba.core.dispatcher as dispatcher

    minimum = 0.05
    if argv[:1] == ["--min"]:
        minimum, argv = float(argv[1]), argv[2:]
    real = dispatcher.Dispatcher.compile
    depth = [0]
    log: list[tuple[int, str, float]] = []

    def compile(self: Any, sig: Any) -> Any:  # noqa: A001 - Numba's name
        t0 = time.perf_counter()
        depth[0] += 1
        try:
            return real(self, sig)
        finally:
            depth[0] -= 1
            name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
            log.append((depth[0], name, time.perf_counter() - t0))

    dispatcher.Dispatcher.compile = compile
    from simulate.cli import main as cli

    t0 = time.perf_counter()
    try:
        cli(argv)
    except SystemExit:
        pass
    total = time.perf_counter() - t0
    for d, name, s in log:
        if s >= minimum:
            print(f"{'  ' * d}{s:6.2f} {name}", file=sys.stderr)
    print(f"total {total:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
