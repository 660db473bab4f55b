"""Helpers shared by the command modules in :mod:`simulate.cli`."""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

# the one text table lives in simulate.texttable (library code uses it without the CLI)
from simulate.texttable import is_number_text, table  # noqa: F401 - re-exported


class UsageError(Exception):
    """Bad input on the command line: printed as one ``error: ...`` line, exit status 2."""


def _check_option(option: str, **kw: Any) -> None:
    """Check one sampling option by the one rule (:class:`simulate.sampling.Sampling`)."""
    from simulate.sampling import CLI_NAMES, Sampling

    try:
        Sampling(**kw).validate({**CLI_NAMES, next(iter(kw)): option})
    except ValueError as e:
        raise UsageError(str(e)) from None


def check_samples(n: int | None, option: str = "--samples") -> None:
    """Raise :class:`UsageError` unless ``n`` is None or a sample count the engines take."""
    _check_option(option, samples=n)


def check_std_error(e: float | None, option: str = "--std-error") -> None:
    """Raise :class:`UsageError` unless ``e`` is None or a target standard error the
    engines take."""
    _check_option(option, target_std_error=e)


_load_mark = (0.0, 0.0)


def start_load_clock() -> None:
    """Mark the start of a command for :func:`load_seconds` (``main`` calls it)."""
    global _load_mark
    from evaluator._jit import compile_seconds

    _load_mark = compile_seconds()


def load_seconds() -> tuple[float, float]:
    """``(compiling and loading, compiling)``: seconds this command spent getting compiled
    kernels ready (kept out of every result's ``elapsed_s``)."""
    from evaluator._jit import compile_seconds

    total, compiling = compile_seconds()
    return total - _load_mark[0], compiling - _load_mark[1]


def load_note() -> str:
    """``""``, or a footer note on the time spent compiling or loading kernels."""
    total, compiling = load_seconds()
    if total < 0.05:
        return ""
    if compiling >= total / 2:
        return f" (+ {total:.1f} s compiling kernels, first run)"
    return f" (+ {total:.2f} s loading compiled kernels)"


def json_text(obj: Any) -> str:
    """One JSON document as text, as every command writes it (stdout or a file). Numbers
    that JSON cannot hold (NaN, infinities) are refused here rather than written."""
    return json.dumps(obj, indent=2, allow_nan=False) + "\n"


def with_load_s(obj: Any) -> Any:
    """The document as ``--json`` prints it: one that times its work (``elapsed_s``) also
    gets ``load_s``, this command's seconds compiling or loading kernels (a document that
    has one already, such as a server's answer, keeps it)."""
    if isinstance(obj, dict) and "elapsed_s" in obj and "load_s" not in obj:
        obj = {**obj, "load_s": load_seconds()[0]}
    return obj


def emit_json(obj: Any) -> None:
    """Write one JSON document to stdout (with ``load_s``, see :func:`with_load_s`)."""
    sys.stdout.write(json_text(with_load_s(obj)))


def error_line(e: BaseException) -> str:
    """The one line a bad input's exception becomes (``error: ...`` on the command line,
    ``{"error": ...}`` from ``pokerjit serve``): its message's first line."""
    return str(e).splitlines()[0] if str(e) else type(e).__name__


STDOUT = "-"  # an output path of "-" means standard output


def _place_error(option: str, path: str, exc: OSError | None = None,
                 reason: str | None = None) -> UsageError:
    """The one wording for an output place that cannot be written, naming the user's path
    (never an internal temporary file): ``{option} {path}: {reason}``."""
    if reason is None:
        assert exc is not None
        if exc.errno == errno.ENOENT and not Path(path).parent.exists():
            reason = f"no such folder '{Path(path).parent}'"
        elif exc.errno == errno.EISDIR:
            reason = "is a folder, not a file"
        elif exc.errno == errno.ENOTDIR:
            reason = f"'{Path(path).parent}' is not a folder"
        elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            reason = f"cannot write there ({os.strerror(exc.errno).lower()})"
        else:
            reason = f"cannot write there ({(exc.strerror or str(exc)).lower()})"
    return UsageError(f"{option} {path}: {reason}".lstrip())


def check_output_path(path: str, option: str, *, stdout_ok: bool = False) -> None:
    """Fail early, before any long computation, if ``path`` cannot be written as a file.

    Every command that writes a file calls this first and :func:`write_output` at the end,
    so the messages read the same everywhere: a missing folder, a folder given as the file,
    a parent that is a file, a place that cannot be written (tried for real: a temporary file
    is created and removed, so read-only file systems and permissions are caught even for
    root), or an existing special file (a device or pipe is never replaced). ``"-"`` means
    standard output where ``stdout_ok``. Raises :class:`UsageError`.
    """
    if path == STDOUT:
        if stdout_ok:
            return
        raise UsageError(f"{option} -: standard output is not possible here; name a file")
    p = Path(path)
    if p.is_symlink():
        p = p.resolve()
    if p.is_dir():
        raise _place_error(option, path, reason="is a folder, not a file")
    parent = p.parent
    if not parent.exists():
        raise _place_error(option, path, reason=f"no such folder '{parent}'")
    if not parent.is_dir():
        raise _place_error(option, path, reason=f"'{parent}' is not a folder")
    if p.exists() and not p.is_file():
        raise _place_error(option, path, reason="not a regular file (a device or pipe?)")
    if p.exists() and not os.access(p, os.W_OK):
        raise _place_error(option, path, reason="cannot write there (permission denied)")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    except OSError as e:
        raise _place_error(option, path, e) from None
    os.close(fd)
    os.unlink(probe)


def write_output(path: str, data: str | bytes, option: str = "") -> None:
    """Write ``data`` (text or bytes) to ``path``, or to standard output for ``"-"``.

    A file is written through a temporary file in the same folder and renamed into place,
    so a failure never leaves a half-written file; errors name ``path`` with
    ``option`` (the wording of :func:`check_output_path`).
    """
    if path == STDOUT:
        if isinstance(data, bytes):
            sys.stdout.flush()
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return
    p = Path(path)
    if p.is_symlink():  # write where the link points, and keep the link
        p = p.resolve()
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
        with open(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, p)
        tmp = None
    except OSError as e:
        raise _place_error(option, path, e) from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def write_text_atomic(path: str, text: str, option: str = "") -> None:
    """:func:`write_output` for text (kept for callers of the older name)."""
    write_output(path, text, option)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON document on stdout")


def add_game(p: Any, default: str | None = "holdem",
             note: str = "") -> None:
    """``--game`` on the parser or argument group ``p``: every game of
    :data:`simulate.games.GAMES` (the one list), its help from
    :func:`simulate.games.games_help`; ``note``: what this command does with some games
    (a command that cannot play a game says so in its help and refuses it with one line)."""
    from simulate.games import GAMES, games_help

    where = f"default {default}" if default else "no default"
    p.add_argument("--game", default=default, choices=tuple(GAMES), metavar="GAME",
                   help=f"the game ({where}): {games_help()}" + (f". {note}" if note else ""))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 hand"``, ``"2 hands"``, ``"1,000 hands"``: a count and its noun, agreed."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def add_quiet(p: argparse.ArgumentParser) -> None:
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")


def add_sampling_options(p: argparse.ArgumentParser, unit: str = "pot") -> None:
    """``--exact | --samples N``, ``--std-error E``, ``--seed``, ``--threads``.

    ``unit``: what the standard error is measured in, ``"pot"`` (a fraction of the pot) or
    ``"chips"``; the help says so. ``--samples`` with ``--std-error`` stops at whichever
    comes first.
    """
    from simulate.sampling import (
        DEFAULT_BUDGET_S,
        DEFAULT_SAMPLES,
        MAX_SAMPLES,
        MAX_THREADS,
        MIN_STD_ERROR,
        TARGET_CAP,
    )

    what = ("in chips" if unit == "chips"
            else "as a fraction of the pot (0.001 is 0.1%% of the pot)")
    p.add_argument("--exact", action="store_true", default=None,
                   help="walk every runout (exact answer)")
    p.add_argument("--samples", type=int, metavar="N",
                   help=f"Monte Carlo with N deals (1 to {MAX_SAMPLES:.0e}; default "
                        f"{DEFAULT_SAMPLES:,}, or fewer when {DEFAULT_BUDGET_S:g} s of "
                        "sampling end first: the answer says which)")
    p.add_argument("--std-error", type=float, metavar="E", dest="std_error",
                   help=f"Monte Carlo until every standard error is at most E, {what} "
                        f"(at least {MIN_STD_ERROR:g}{'' if unit == 'chips' else ', below 0.5'}"
                        "); with --samples, whichever comes first, "
                        f"else at most {TARGET_CAP:,} deals")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="random seed, 0 <= S < 2**64 (same seed, same answer on any thread "
                        "count)")
    p.add_argument("--threads", type=int, default=None, metavar="T",
                   help=f"threads to use (1 to {MAX_THREADS}; default: all)")
    p.set_defaults(_std_error_unit=unit)


def sampling_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The ``exact``/``samples``/``target_std_error``/``seed``/``threads`` keyword arguments,
    checked by :meth:`simulate.sampling.Sampling.validate` (messages name the options)."""
    from simulate.sampling import CHIPS, CLI_NAMES, POT_FRACTION, Sampling

    exact = True if args.exact else (False if args.samples or args.std_error else None)
    unit = CHIPS if getattr(args, "_std_error_unit", "pot") == "chips" else POT_FRACTION
    try:
        opts = Sampling(exact, args.samples, args.std_error, args.seed,
                        args.threads).validate(CLI_NAMES, unit)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return opts.kwargs()


def with_choice(doc: dict[str, Any], chosen: list[dict[str, Any]]) -> dict[str, Any]:
    """``doc`` with ``"default_samples"``: how the default sample size was chosen
    (:func:`simulate.sampling.default_choices`: ``{"deals", "cap", "budget_s",
    "stopped_by"}``), when a Monte Carlo run took it."""
    return {**doc, "default_samples": chosen[-1]} if chosen else doc


def choice_line(chosen: list[dict[str, Any]]) -> str:
    """The text line saying how the default sample size was chosen, or ``""``."""
    if not chosen:
        return ""
    c = chosen[-1]
    if c["stopped_by"] == "cap":
        return (f"sample size: the default {c['cap']:,} deals (no --samples or --std-error "
                "given)")
    return (f"sample size: {c['deals']:,} deals, what {c['budget_s']:g} s of sampling drew "
            f"(the default stops at {c['cap']:,} deals or {c['budget_s']:g} s, whichever "
            "comes first; give --samples or --std-error to choose)")


def pct(x: float) -> str:
    return f"{100.0 * x:6.2f}%"


