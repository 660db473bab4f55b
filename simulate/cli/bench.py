"""``pokerjit bench``: evaluator and equity speed on this machine, each answer checked."""

from __future__ import annotations

import argparse

from simulate.cli._util import UsageError, add_json, emit_json

NAME = "bench"
HELP = "measure evaluator and equity speed on this machine (optionally against peer libraries)"
EXAMPLES = """examples:
  pokerjit bench --quick
  pokerjit bench --peers
  pokerjit bench --case batch walk --repeat 7 --json
  pokerjit bench --peers --json > bench.json && python benchmarks/plot_eval_speed.py bench.json

Every case checks its own answer (known category counts, pinned exact equities, a
pure-Python sample of each batch, Monte Carlo within 4 standard errors of the exact
value); a failed check marks the case FAILED and the exit status is 1. Times are the
median and min..max of the repetitions, the first (compiling) call is reported
separately. With --peers, speedup = peer time / pokerjit time: above 1, pokerjit is
faster.
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    size = p.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true",
                      help="smaller sizes and fewer repetitions (well under 30 s)")
    size.add_argument("--tiny", action="store_true",
                      help="smoke-test sizes (for the test suite; timings meaningless)")
    p.add_argument("--peers", action="store_true",
                   help="run the same work through the installed peer libraries, alternating")
    p.add_argument("--repeat", type=int, metavar="N", help="timed repetitions per case")
    p.add_argument("--threads", type=int, metavar="T",
                   help="threads for the all-threads cases (default: every core)")
    p.add_argument("--case", nargs="+", metavar="NAME", dest="cases",
                   help="run only these cases (see the list below)")
    p.add_argument("--markdown", action="store_true",
                   help="also print the README's markdown table (text output only)")
    add_json(p)
    p.epilog = (p.epilog or "") + "\ncases: " + ", ".join(_case_names()) + "\n"


def _case_names() -> tuple[str, ...]:
    from simulate.bench import CASE_NAMES

    return CASE_NAMES


def run(args: argparse.Namespace) -> int:
    from simulate.bench import CASE_NAMES, format_report, markdown_table, run_bench

    if args.repeat is not None and args.repeat < 1:
        raise UsageError(f"--repeat must be at least 1, got {args.repeat}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be at least 1, got {args.threads}")
    for name in args.cases or ():
        if name not in CASE_NAMES:
            raise UsageError(f"unknown case {name!r}; choose from {', '.join(CASE_NAMES)}")
    mode = "tiny" if args.tiny else ("quick" if args.quick else "full")

    from simulate.progress import progress

    names = args.cases or CASE_NAMES
    with progress(len(names), "bench", "cases") as bar:
        started: list[str] = []

        def report(msg: str) -> None:  # "CASE: first call", "CASE: repetition 2/5", ...
            case = msg.partition(":")[0]
            if case not in started:
                if started:
                    bar.update(1)
                started.append(case)
            bar.note(msg)

        rep = run_bench(args.cases, mode=mode, repeat=args.repeat, threads=args.threads,
                        peers=args.peers, progress=report)
    if args.json:
        emit_json(rep)
    else:
        print(format_report(rep))
        if args.markdown:
            print()
            print(markdown_table(rep))
    return 0 if rep["ok"] else 1
