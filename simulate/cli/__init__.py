"""The ``pokerjit`` command line (also ``python -m simulate``).

Each command lives in its own module in :mod:`simulate.cli` with ``NAME``,
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``. Heavy imports
happen inside ``run`` so that ``-h`` and a cached first answer stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys

from simulate.cli._client import REMOTE, add_server_option, remote_or_local
from simulate.cli._util import UsageError, error_line

COMMANDS = ("equity", "eval", "range", "chart", "allin", "icm", "pushfold", "hand", "convert",
            "import", "stats", "export", "batch",
            "bench", "warmup", "play", "serve")

EPILOG = """examples:
  pokerjit equity AhKh QsQd
  pokerjit equity AhKh QsQd 7c7d --board Ks8h2c --json
  pokerjit eval AsKsQsJsTs
  pokerjit range 'QQ+,AKs' --vs random --board Td9d2c
  pokerjit allin AhAs:100 KdKc:60 QhQs:30 --button 0
  pokerjit icm 5000 3000 2000 --payouts 50 30 20
  pokerjit pushfold --stack 10 --json
  pokerjit bench --quick
  pokerjit warmup            compile every kernel once, e.g. after installing
  pokerjit serve --open      the workbench page and the JSON API (pip install 'pokerjit[serve]')

Compiled kernels are cached by Numba (NUMBA_CACHE_DIR chooses the folder).
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        m = re.fullmatch(r"argument (-[-\w]+)(?:/-[-\w]+)*: expected one argument", message)
        if m:  # the value is missing, or starts with "-" and was read as an option
            opt = m.group(1)
            message = (f"{opt} needs a value (one that starts with '-' is written "
                       f"{opt}=VALUE, e.g. {opt}=-1)")
        # a value of thousands of characters (a 5000-digit number) is not echoed whole
        message = re.sub(r"'([^']{40})[^']{20,}'", lambda v: f"'{v.group(1)}...' "
                         f"({len(v.group(0)) - 2:,} characters)", message)
        raise UsageError(message)


def _command_modules() -> list[object]:
    return [importlib.import_module(f"simulate.cli.{name}") for name in COMMANDS]


def _version() -> str:
    from simulate import __version__

    return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only`` (a command name) the other commands keep their
    name and help but not their options, so a command (above all a client of ``pokerjit
    serve``) does not import what the others' options need."""
    parser = _Parser(prog="pokerjit", description="Fast poker hand evaluation and equity.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"pokerjit {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=mod.HELP,
                           epilog=getattr(mod, "EXAMPLES", None),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        if only is not None and mod.NAME != only:
            continue
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
        if mod.NAME in REMOTE:  # these may ask a running `pokerjit serve` instead
            add_server_option(p)
            p.set_defaults(_run=remote_or_local(mod))
    return parser


#: Commands that answer once and end: run as the program, their first run may answer
#: small work on serial kernels (``evaluator._first_run.serial_first_runs``).
ONE_ANSWER = ("equity", "range", "allin")
_AS_PROGRAM = [False]  # main() runs the command line of this process (not a caller's argv)


def _announce_compiling() -> None:
    """The one line a first run prints on stderr instead of a silent pause (see
    ``pokerjit warmup``): always when the process is the ``pokerjit`` program (a terminal, a
    log, a script), and on a terminal when :func:`main` is called with an argument list
    (tests and other programs that run commands in their own process)."""
    from evaluator._jit import cache_works

    try:
        if not (_AS_PROGRAM[0] or sys.stderr.isatty()):
            return
    except (AttributeError, ValueError):
        return
    why = ("first run only: later runs load them from Numba's cache" if cache_works()
           else "Numba's cache cannot be written, so every run compiles")
    print(f"compiling pokerjit's kernels ({why}; `pokerjit warmup` compiles them all at "
          "once; times and rates shown leave the compile out) ...", file=sys.stderr,
          flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run one command: ``argv`` (default: this process's command line) -> exit status.

    Run as the program (``argv`` None: the ``pokerjit`` script, ``python -m simulate``),
    the process ends here once the command is done, with :func:`_exit`."""
    rc = _main(argv)
    if argv is None:
        _exit(rc)
    return rc


def _exit(rc: int) -> None:
    """End the process with status ``rc``: the exit handlers run and the output is flushed,
    but the interpreter's teardown of every object (Numba's compiled code and LLVM among
    them: measured 1-5 s of a busy 2-core machine after the answer, and after Ctrl-C) is
    skipped; there is nothing left in it to save."""
    import atexit
    import os

    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(rc)


def _main(argv: list[str] | None) -> int:
    from evaluator._first_run import allow_compile_beside, serial_first_runs
    from evaluator._jit import on_first_compile
    from simulate.cli._util import start_load_clock
    from simulate.progress import report_progress

    if argv is None:
        _AS_PROGRAM[0] = True
        allow_compile_beside()  # a first run compiles in two processes where it can
    on_first_compile(_announce_compiling)
    start_load_clock()
    try:
        words = sys.argv[1:] if argv is None else argv
        parser = build_parser(words[0] if words and words[0] in COMMANDS else None)
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        if argv is None and args.command in ONE_ANSWER:
            serial_first_runs()
        with report_progress():  # long runs show progress on stderr
            return int(args._run(args) or 0)
    except (UsageError, ValueError) as e:  # a CardError is a ValueError
        print(f"error: {error_line(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except OSError as e:  # an unreadable or unwritable file: one line, not a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, RuntimeError) as e:  # Ctrl-C, or SIGTERM/SIGHUP (simulate.run.stop)
        if isinstance(e, RuntimeError) and str(e) != "Query interrupted":  # DuckDB's Ctrl-C
            raise
        from simulate.run.stop import stopped

        stop = stopped(e)
        try:
            print(f"error: {stop.line}", file=sys.stderr)
        except OSError:  # SIGHUP: the terminal may be gone
            pass
        return stop.status


if __name__ == "__main__":
    raise SystemExit(main())
