"""Helpers shared by the command modules in :mod:`simulate.cli`."""

from __future__ import annotations

import argparse
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

# the documents layer (library code, shared with pokerjit serve): re-exported for the commands
from simulate.documents import (  # noqa: F401 - re-exported
    UsageError,
    error_line,
    json_text,
    load_note,
    load_seconds,
    start_load_clock,
    with_load_s,
)

# the one text table lives in simulate.texttable (library code uses it without the CLI)
from simulate.texttable import is_number_text, table  # noqa: F401 - re-exported


def emit_json(obj: Any) -> None:
    """Write one JSON document to stdout (with ``load_s``, see :func:`with_load_s`)."""
    sys.stdout.write(json_text(with_load_s(obj)))


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


_OWN_FD = re.compile(r"^/(?:proc/(?:self|\d+)/fd|dev/fd)/(\d+)$")


def _own_fd(path: str) -> int | None:
    """The file descriptor ``N`` of this process that ``path`` names (``/dev/stdout``,
    ``/dev/fd/N``, ``/proc/self/fd/N``), links followed one at a time; else None."""
    p = os.path.abspath(path)
    for _ in range(40):
        m = _OWN_FD.match(p)
        if m is not None and (not p.startswith("/proc/") or p.split("/")[2] in
                              ("self", str(os.getpid()))):
            return int(m.group(1))
        if not os.path.islink(p):
            return None
        p = os.path.normpath(os.path.join(os.path.dirname(p), os.readlink(p)))
    return None


def _written_in_place(path: str) -> bool:
    """True for an existing output that is not a regular file (a terminal, ``/dev/null``, a
    pipe) or that is one of this process's file descriptors (``/dev/stdout``, see
    :func:`_own_fd`: written through that descriptor, so that it goes where the
    command's own output goes): such a target is written directly, never replaced
    through a temporary file and a rename."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if stat.S_ISDIR(st.st_mode):
        return False  # a folder is no place to write a file: check_output_path says so
    return not stat.S_ISREG(st.st_mode) or _own_fd(path) is not None


def _same_or_inside(out: Path, top: Path) -> bool:
    try:
        out.relative_to(top)
    except ValueError:
        return False
    return True


def check_output_path(path: str, option: str, *, stdout_ok: bool = False,
                      inputs: Iterable[str] = (), reads: Iterable[str] = ()) -> None:
    """Fail early, before any long computation, if ``path`` cannot be written as a file.

    Every command that writes a file calls this first (:func:`check_outputs` for several)
    and :func:`write_output` or :func:`open_output` to write, so the messages read the
    same everywhere: a missing folder, a folder given as the file, a name ending in ``/``
    (which names a folder), a parent that is a file, a place that cannot be written (tried
    for real: a temporary file is created and removed, so read-only file systems and
    permissions are caught even for root), or an output that is one of ``inputs`` (real
    paths compared, links resolved) or, for an input folder, a file in it whose name ends
    with one of ``reads`` (it would be read as input). An existing device or pipe
    (``/dev/null``, ``/dev/stdout``) is written in place (:func:`_written_in_place`).
    ``"-"`` means standard output where ``stdout_ok``. Raises :class:`UsageError`.
    """
    if path == STDOUT:
        if stdout_ok:
            return
        raise UsageError(f"{option} -: standard output is not possible here; name a file")
    if path.endswith(("/", os.sep)) or os.path.basename(path) in ("", ".", ".."):
        if os.path.isdir(path):
            raise _place_error(option, path, reason="is a folder, not a file")
        folder = path.rstrip("/" + os.sep) or path
        raise _place_error(option, path, reason=f"names a folder (the trailing '/'), and "
                                                f"there is no folder '{folder}'")
    real = Path(os.path.realpath(path))
    tops = [(top, Path(os.path.realpath(top))) for top in inputs
            if top != STDOUT and os.path.exists(top)]
    for top, t in tops:
        if real == t:
            what = "folder" if t.is_dir() else "file"
            raise _place_error(option, path, reason=f"is the input {what} '{top}'; writing it "
                                                    "would overwrite the input")
    for top, t in tops:
        if t.is_dir() and _same_or_inside(real, t) and real.name.endswith(tuple(reads)):
            raise _place_error(option, path, reason=f"is inside the input folder '{top}', "
                                                    "where it would be read as input")
    if _written_in_place(path):
        if not os.access(path, os.W_OK):
            raise _place_error(option, path, reason="cannot write there (permission denied)")
        return
    p = Path(path)
    if p.is_symlink():
        p = real
    if p.is_dir():
        raise _place_error(option, path, reason="is a folder, not a file")
    parent = p.parent
    if not parent.exists():
        raise _place_error(option, path, reason=f"no such folder '{parent}'")
    if not parent.is_dir():
        raise _place_error(option, path, reason=f"'{parent}' is not a folder")
    if p.exists() and not os.access(p, os.W_OK):
        raise _place_error(option, path, reason="cannot write there (permission denied)")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=parent)
    except OSError as e:
        raise _place_error(option, path, e) from None
    os.close(fd)
    os.unlink(probe)


def check_outputs(outputs: Iterable[tuple[str, str | None]], *,
                  stdout_ok: bool | Iterable[str] = False, inputs: Iterable[str] = (),
                  reads: Iterable[str] = ()) -> None:
    """:func:`check_output_path` of each ``(option, path)`` given (None: not asked for),
    and no two of them the same place (links resolved; at most one ``-``). ``stdout_ok``:
    for every option, or the options that may write to standard output. A command that
    prints a document on standard output lists it as ``("--json", "-")``."""
    inputs = list(inputs)
    ok = stdout_ok if isinstance(stdout_ok, bool) else set(stdout_ok)
    seen: dict[str, str] = {}
    for option, path in outputs:
        if path is None:
            continue
        if option != "--json":
            check_output_path(path, option, inputs=inputs, reads=reads,
                              stdout_ok=ok if isinstance(ok, bool) else option in ok)
        key = STDOUT if path == STDOUT else os.path.realpath(path)
        if key in seen:
            what = "standard output" if key == STDOUT else f"the same file ({path})"
            raise UsageError(f"{seen[key]} and {option} would both write to {what}; "
                             "name another file for one of them")
        seen[key] = option


def image_format(path: str, option: str = "--png") -> str:
    """The image format for ``{option} PATH`` (``png``, ``svg``, ``pdf``...): from the name's
    extension (png for ``-`` or a name without one); :class:`UsageError` when matplotlib
    is missing or cannot write that kind of file (``--png hands.phh``)."""
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError:
        raise UsageError(f"{option} needs matplotlib: pip install 'pokerjit[plot]'") from None
    name = path.rsplit("/", 1)[-1]
    ext = name.rpartition(".")[2].lower() if path != STDOUT and "." in name else "png"
    if ext not in FigureCanvasBase.get_supported_filetypes():
        raise UsageError(f"{option} {path}: matplotlib cannot write .{ext} files")
    return ext


def pyplot():  # noqa: ANN201 - matplotlib.pyplot, imported only when a picture is asked for
    """matplotlib's pyplot on the file-only Agg backend, or a one-line :class:`UsageError`
    naming the extra that installs it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--png needs matplotlib: pip install 'pokerjit[plot]'") from None
    return plt


@contextmanager
def open_output(path: str, option: str = "", *, text: bool = False) -> Iterator[IO[Any]]:
    """A file object to write the output ``path`` (``"-"``: standard output) through.

    A regular file is written to a temporary file in the same folder, renamed into place
    when the ``with`` block ends normally; on any exception (an error, Ctrl-C, SIGTERM or
    SIGHUP turned into an exception by :func:`simulate.run.stop_on_signals`) the temporary
    file is removed and the old file stays as it was. The new file gets the mode an
    ordinary ``open`` gives it (0666 less the umask; an existing file keeps its mode). A
    device, a pipe or ``/dev/stdout`` is written in place (:func:`_written_in_place`).
    ``text``: a text file (UTF-8, ``newline=""``, for :mod:`csv`), else binary. Errors
    name ``path`` with ``option`` (the wording of :func:`check_output_path`).
    """
    if path == STDOUT:
        sys.stdout.flush()
        yield sys.stdout if text else sys.stdout.buffer
        (sys.stdout if text else sys.stdout.buffer).flush()
        return
    kw: dict[str, Any] = {"encoding": "utf-8", "newline": ""} if text else {}
    if _written_in_place(path):
        sys.stdout.flush()
        sys.stderr.flush()
        fd = _own_fd(path)
        try:
            f = (open(os.dup(fd), "w" if text else "wb", **kw) if fd is not None
                 else open(path, "w" if text else "wb", **kw))
        except OSError as e:
            raise _place_error(option, path, e) from None
        with f:
            yield f
        return
    p = Path(path)
    if p.is_symlink():  # write where the link points, and keep the link
        p = p.resolve()
    tmp = None
    try:
        try:
            try:
                mode = stat.S_IMODE(os.stat(p).st_mode)
            except FileNotFoundError:
                mode = 0o666 & ~_umask()
            fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
            os.chmod(tmp, mode)
            f = open(fd, "w" if text else "wb", **kw)
        except OSError as e:
            raise _place_error(option, path, e) from None
        with f:
            yield f
        try:
            os.replace(tmp, p)
        except OSError as e:
            raise _place_error(option, path, e) from None
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def write_output(path: str, data: str | bytes, option: str = "") -> None:
    """Write ``data`` (text or bytes) to ``path``, or to standard output for ``"-"``, whole
    or not at all (:func:`open_output`)."""
    with open_output(path, option) as f:
        try:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
        except OSError as e:
            raise _place_error(option, path, e) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def add_db(p: argparse.ArgumentParser) -> None:
    """The ``--db FILE`` option of the hand database's commands."""
    p.add_argument("--db", metavar="FILE", default=None,
                   help="the hand database (default: $POKERJIT_DB, else "
                        "~/.local/share/pokerjit/hands.duckdb)")


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
    p.add_argument("--game", default=default, type=_game_name, choices=tuple(GAMES),
                   metavar="GAME",
                   help=f"the game ({where}): {games_help()}" + (f". {note}" if note else ""))


def _game_name(text: str) -> str:
    """``--game``'s value by the one rule of game names (:func:`simulate.games.check_game`:
    any case, spaces around ignored), as the API and batch read it."""
    from simulate.games import check_game

    try:
        return check_game(text).name
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


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


