"""Many requests at once: ``pokerjit batch IN.jsonl -o OUT.jsonl`` and :func:`run`.

Input: one request a line (UTF-8 JSON lines, or a CSV table for ``*.csv``; a line ends at
``\\n``, ``\\r\\n`` or ``\\r``; a UTF-16 or binary file is refused at once), ``{"id", "hands",
"board", "dead", "game", "exact", "samples", "seed", "std_error"}`` for equity (the
default ``kind``), ``{"kind": "range", "hands", ...}`` for the ``range --json`` document
and ``{"kind": "allin", "players": [SPEC...], "button", "dead_money", ...}`` for the
``allin --json`` document (see :mod:`simulate.batch.requests`). Blank lines and lines
starting with ``#`` are skipped; a byte-order mark at the start of the file is skipped.

Output: one line per input line, ``{"id", "line", "digest", "result": {...}}`` or
``{"id", "line", "digest", "error": "..."}`` (``id`` null when the line could not be
read; ``digest`` identifies the request as answered, defaults included). A bad line is
that line's error and the run goes on.

Rules:

- **Fast.** Consecutive exact-hand Hold'em equity lines are grouped by shape and answered
  by :func:`simulate.many.equity_many` in one call per group (the same documents as one
  request at a time); every other line is answered as its single command answers it.
- **Resume.** Run it again after a stop (Ctrl-C, SIGTERM, SIGHUP keep every line
  answered: :mod:`simulate.run.stop`): lines already answered in OUT are matched by id
  (same id, same digest) and skipped, a last line cut short by a crash is cut off and
  redone; a line answered with an error (a line without a usable id among them) is
  answered again, its new record appended unless it is the same error at the same line
  number (matched by content and number: the last record of a line is its answer). A
  line whose number OUT answered for another id (a line inserted, removed or replaced
  above answered ones) stops the run with one line before it is answered: OUT's
  ``line`` numbers would name two requests. A request whose id was answered with another digest
  (the line or the run's defaults changed) is refused with an error line naming the id,
  ``"refused": "changed"``; a second line with an id already used in the input gets
  ``"refused": "duplicate"``.
- **Safe.** OUT is locked for the whole run (a second run on it stops at once with one
  line), must be a regular file (a device or pipe is refused before any work), is never
  the input, and is only appended to in whole lines.
- **Order.** Lines are written in input order with any backend, and each answer depends
  only on its line: with seeds, 1 worker, N workers and Dask write the same file
  (``elapsed_s`` aside).
- **Backends.** This process (``workers=1``), ``workers=N`` processes, or Dask
  (``scheduler="local[:N]"`` or ``"tcp://HOST:PORT"``): :func:`executor`, the one pool
  of pokerjit (``pokerjit hand`` runs on it too; its docstring says what it takes, the
  order, the window, and what Ctrl-C and a failing worker do).
"""

from __future__ import annotations

from simulate.run import Executor, chunked, executor, parse_scheduler

from .chunks import answer_chunk
from .chunks import warm_lines as warm
from .files import CSV_COLUMNS, Output
from .requests import FIELDS, KINDS, answer, effective
from .runner import BatchSummary, run, run_batch

__all__ = ["CSV_COLUMNS", "FIELDS", "KINDS", "BatchSummary", "Executor", "Output", "answer",
           "answer_chunk", "chunked", "effective", "executor", "parse_scheduler", "run",
           "run_batch", "warm"]
