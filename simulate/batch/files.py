"""Batch input and output files: reading lines, the output's lock, resume and format.

**Input** is JSON lines (one request per line) or, for a file named ``*.csv``, a CSV
table with a header row naming request fields (``id,hands,board,dead,game,exact,
samples,seed,std_error,kind,players,button,dead_money``; ``hands`` and ``players`` hold
their items separated by spaces; an empty cell is a missing field; one row per line).
A line ends at ``\\n``, ``\\r\\n`` or a lone ``\\r``. Lines are read in bounded memory: a
line longer than 16 MiB, bytes that are not UTF-8, a NUL byte, or a byte-order mark
anywhere but the start of the file are that line's error. A file that is not UTF-8 text
by its first bytes (UTF-16, or mostly NUL bytes) is refused at once (:func:`check_text`).

**Output** is JSON lines, ``{"id", "line", "digest", "result"}`` or ``{"id", "line",
"digest", "error"}`` (``"refused": "duplicate"`` or ``"changed"`` on a line whose id
was refused), or, for a file named ``*.csv``, one CSV row per spot with the columns
:data:`CSV_COLUMNS` (player columns ``hand_k, equity_k, win_k, tie_k, std_error_k,
high_k, low_k, scoop_k`` for k = 1..10, empty past the last player; ``high_k, low_k,
scoop_k`` only for a hi/lo game, as in the JSON result; only ``equity`` results fit a row,
any other kind is that line's error).

The output file is the run's state: :class:`Output` refuses anything but a regular file
(a device or pipe is never read), takes an exclusive lock on it for the whole run (a
second run on the same file stops before any work), reads back what earlier runs wrote
(a last line cut short by a crash is cut off, and its request runs again; a line answered
with an error is answered again, and its new record appended unless it is the same
error), and appends whole lines.
"""

from __future__ import annotations

import csv
import errno
import fcntl
import io
import json
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulate.run.spool import write_all

from .requests import MAX_LINE_BYTES, BadRequest, decode_json, id_key

FSYNC_EVERY_S = 1.0
CSV_PLAYERS = 10
CSV_BASE = ("id", "line", "digest", "error", "refused", "game", "board", "dead", "exact",
            "samples", "seed")
#: ``high``, ``low``, ``scoop``: a hi/lo game's halves and scoops, empty in other games
CSV_PLAYER_FIELDS = ("hand", "equity", "win", "tie", "std_error", "high", "low", "scoop")
CSV_COLUMNS = CSV_BASE + tuple(f"{f}_{k}" for k in range(1, CSV_PLAYERS + 1)
                               for f in CSV_PLAYER_FIELDS)
#: the header before the hi/lo columns: such a file is refused with its own message
_CSV_COLUMNS_BEFORE_HILO = CSV_BASE + tuple(f"{f}_{k}" for k in range(1, CSV_PLAYERS + 1)
                                            for f in CSV_PLAYER_FIELDS[:5])
CSV_INPUT_FIELDS = ("id", "kind", "hands", "players", "board", "dead", "game", "exact",
                    "samples", "seed", "std_error", "button", "dead_money")


def output_format(path: str | Path) -> str:
    """``"csv"`` for a ``*.csv`` path, else ``"jsonl"``."""
    return "csv" if str(path).lower().endswith(".csv") else "jsonl"


# ----------------------------------------------------------------------------- input
def _named(path: Path, e: OSError) -> OSError:
    """``e`` naming ``path`` (a read error such as EIO carries no file name of its own)."""
    return OSError(e.errno, e.strerror or str(e), str(path)) if e.filename is None else e


def _kept(line: bytes) -> bool:
    """A line that is not blank or a ``#`` comment."""
    s = line.strip()
    return bool(s) and not s.startswith(b"#")


def _text_blocks(f: Any, size: int) -> Iterator[bytes]:
    """The file ``f``'s bytes, read ``size`` at a time, with every line end made ``\\n``:
    ``\\r\\n`` and a lone ``\\r`` (old Mac files) end a line as ``\\n`` does, as in
    Python's universal newlines (a ``\\r`` at the end of a block waits for the next)."""
    cr = False
    while data := f.read(size):
        if cr:
            data = b"\r" + data
        cr = data.endswith(b"\r")
        if cr:
            data = data[:-1]
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if data:
            yield data
    if cr:
        yield b"\n"


def _blocks(path: Path, size: int) -> Iterator[tuple[int, list[bytes | None]]]:
    """``(number of the first line, lines)`` for ``path`` read ``size`` bytes at a time:
    each line's bytes without its line end (:func:`_text_blocks`), None for a line longer
    than :data:`MAX_LINE_BYTES` (skipped in bounded memory). An error reading is an OSError
    naming ``path``."""
    try:
        with open(path, "rb") as f:
            n, carry, skipping = 1, b"", False
            for data in _text_blocks(f, size):
                if skipping:  # the rest of a long line
                    cut = data.find(b"\n")
                    if cut < 0:
                        continue
                    data, skipping = data[cut + 1:], False
                may_be_long = len(carry) + len(data) > MAX_LINE_BYTES
                parts: list[Any] = (carry + data).split(b"\n") if carry else data.split(b"\n")
                carry = parts.pop()
                if may_be_long:
                    parts = [None if len(p) > MAX_LINE_BYTES else p for p in parts]
                if parts:
                    yield n, parts
                    n += len(parts)
                if len(carry) > MAX_LINE_BYTES:  # too long to hold: skip to its end
                    yield n, [None]
                    n += 1
                    carry, skipping = b"", True
            if carry:
                yield n, [None if len(carry) > MAX_LINE_BYTES else carry]
    except OSError as e:
        raise _named(path, e) from None


def count_lines(path: Path) -> int:
    """Lines in ``path`` (line ends as :func:`_text_blocks` reads them, plus a last line
    without one), in bounded memory."""
    n, last = 0, b"\n"
    try:
        with open(path, "rb") as f:
            for block in _text_blocks(f, 1 << 20):
                n += block.count(b"\n")
                last = block[-1:]
    except OSError as e:
        raise _named(path, e) from None
    return n + (last != b"\n")


def check_text(path: Path) -> None:
    """Refuse at once (ValueError naming ``path``, one line) an input that is not UTF-8
    text by its first bytes (:mod:`simulate.text_encoding`): UTF-16 (by its byte-order
    mark or its NUL bytes) or mostly NUL bytes. A stray NUL within a line is that line's
    error instead."""
    from simulate.text_encoding import BINARY_HEAD, mostly_nul, sniff

    try:
        with open(path, "rb") as f:
            head = f.read(BINARY_HEAD)
    except OSError as e:
        raise _named(path, e) from None
    enc, bom = sniff(head)
    if enc is not None and enc != "utf-8":
        how = (f"it starts with the byte-order mark {head[:bom].hex(' ').upper()}" if bom
               else "every other byte is NUL")
        name = enc.upper().replace("-LE", "LE").replace("-BE", "BE")  # as iconv names it
        raise ValueError(f"{path}: UTF-16 text ({how}); batch reads UTF-8 text: convert it "
                         f"first (iconv -f {name} -t UTF-8)")
    if nul := mostly_nul(head):
        raise ValueError(f"{path}: not a text file ({nul:,} of its first {len(head):,} bytes "
                         "are NUL); batch reads UTF-8 text, one request a line")


class Input:
    """The input file: :meth:`chunks` gives ``(line number, payload)`` for every line that
    is not blank or a ``#`` comment, the payload being the line's bytes (decoded later, by
    whoever answers it, with :meth:`decode`) or an error message (a line too long to read).
    For a CSV input the first such line is the header (a bad header is a ValueError)."""

    def __init__(self, path: Path) -> None:
        check_text(path)
        self.path = path
        self.csv = output_format(path) == "csv"
        self.header: list[str] | None = None
        self._header_line = 0
        if self.csv:
            for (n, raw), *_ in self.chunks(1):
                if isinstance(raw, str):
                    raise ValueError(f"{path}: line {n} (the CSV header): {raw}")
                try:
                    cells = _csv_text(raw, n)
                except BadRequest as e:
                    raise ValueError(f"{path}: line {n} (the CSV header): {e}") from None
                self.header, self._header_line = _csv_header(cells, path), n
                break

    def chunks(self, size: int, block: int = 1 << 20) -> Iterator[list[tuple[int, bytes | str]]]:
        """The lines (as the class doc says; the CSV header left out, and a byte-order
        mark off the first line; a line ends at ``\\n``, ``\\r\\n`` or a lone
        ``\\r``) in lists of ``size`` (the last one shorter), read ``block`` bytes at a
        time and cut into lines at once (a line per Python step was most of the reading
        time), in bounded memory.
        ``tests/reference.py`` reads them a line at a time."""
        out: list[tuple[int, bytes | str]] = []
        head, too_long = self._header_line, f"line longer than {MAX_LINE_BYTES >> 20} MiB"
        for n0, parts in _blocks(self.path, block):
            numbers = range(n0, n0 + len(parts))
            if n0 == 1 and parts[0] is not None and parts[0].startswith(b"\xef\xbb\xbf"):
                parts[0] = parts[0][3:]
            if None in parts:
                out.extend([(n, too_long) if p is None else (n, p)
                            for n, p in zip(numbers, parts, strict=True)
                            if p is None or (_kept(p) and n != head)])
                continue
            out.extend([(n, p) for n, p in zip(numbers, parts, strict=True)
                        if (p[:1] == b"{" or _kept(p)) and n != head])
            while len(out) >= size:
                yield out[:size]
                del out[:size]
        if out:
            yield out

    @staticmethod
    def decode(raw: bytes, n: int, header: list[str] | None) -> Any:
        """The request of one line: a JSON value, or for a CSV input (``header`` given) a
        dict. Raises :class:`BadRequest` for a line that cannot be read (a stray NUL byte
        among them: a file of them is refused before, :func:`check_text`)."""
        if b"\x00" in raw:
            raise BadRequest(f"a NUL byte at column {raw.index(0) + 1} (not text)")
        if header is None:
            return decode_json(raw, n)
        return _csv_request(header, _csv_text(raw, n))


def key_of(rid: Any, fmt: str) -> str | None:
    """The key that matches a request id with what an output of format ``fmt`` holds:
    :func:`~simulate.batch.requests.id_key`, or for CSV the id's text as written there."""
    key = id_key(rid)
    if key is None or fmt != "csv":
        return key
    return _id_text(rid)


def _csv_text(raw: bytes, n: int) -> list[str]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadRequest(f"not UTF-8 text: byte 0x{raw[e.start]:02x} at column "
                         f"{e.start + 1}") from None
    if n == 1 and text.startswith("\ufeff"):
        text = text[1:]
    if "\ufeff" in text:
        raise BadRequest("a byte-order mark (U+FEFF) inside the file (only the very start of "
                         "a file may have one)")
    try:
        return next(csv.reader([text]))
    except (csv.Error, StopIteration) as e:
        raise BadRequest(f"bad CSV row: {e}") from None


def _csv_header(cells: list[str], path: Path) -> list[str]:
    names = [c.strip() for c in cells]
    twice = next((c for i, c in enumerate(names) if c in names[:i]), None)
    if twice is not None:
        raise ValueError(f"{path}: the CSV header names the column {twice!r} twice")
    unknown = [c for c in names if c not in CSV_INPUT_FIELDS]
    if unknown or "id" not in names:
        what = f"unknown column {unknown[0]!r}" if unknown else "no 'id' column"
        raise ValueError(f"{path}: the CSV header has {what} (columns: "
                         f"{', '.join(CSV_INPUT_FIELDS)})")
    return names


def _csv_request(header: list[str], cells: list[str]) -> dict[str, Any]:
    """A request from one CSV row; a cell that does not convert is kept as text, so the
    request's checks name the field (and the line keeps its id)."""
    if len(cells) > len(header):
        raise BadRequest(f"{len(cells)} cells but the header has {len(header)} columns")
    req: dict[str, Any] = {}
    for name, cell in zip(header, cells, strict=False):
        cell = cell.strip()
        if not cell:
            continue
        value: Any = cell
        if name == "exact":
            low = cell.lower()
            if low in ("true", "1", "yes"):
                value = True
            elif low in ("false", "0", "no"):
                value = False
        elif name in ("samples", "seed", "button", "dead_money"):
            try:
                value = int(cell)
            except ValueError:
                pass
        elif name == "std_error":
            try:
                value = float(cell)
            except ValueError:
                pass
        elif name in ("hands", "players"):
            value = cell.split()
        req[name] = value
    return req


# ----------------------------------------------------------------------------- records
def format_record(rid: Any, line: int, dg: str | None, ans: dict[str, Any], fmt: str) -> Any:
    """One output line (with its newline) for the answer ``ans`` (``{"result"}`` or
    ``{"error"}``, maybe with ``"refused"``) of input line ``line``; ``fmt``: ``"jsonl"``,
    ``"csv"``, or ``"dict"`` (the record itself, for :func:`simulate.batch.run`)."""
    if fmt == "csv":
        return _csv_record(rid, line, dg, ans)
    rec = {"id": rid, "line": line, "digest": dg, **ans}
    if fmt == "dict":
        return rec
    try:
        return json.dumps(rec, separators=(",", ":"), allow_nan=False) + "\n"
    except ValueError:  # never write NaN or Infinity
        rec = {"id": rid, "line": line, "digest": dg,
               "error": "internal error: a result held a number JSON cannot write"}
        return json.dumps(rec, separators=(",", ":")) + "\n"


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return " ".join(str(v).split())


def _id_text(rid: Any) -> str:
    return rid if isinstance(rid, str) else json.dumps(rid)


def _csv_record(rid: Any, line: int, dg: str | None, ans: dict[str, Any]) -> str:
    row: dict[str, Any] = {"id": None if rid is None else _id_text(rid), "line": line,
                           "digest": dg, "refused": ans.get("refused")}
    res = ans.get("result")
    if res is not None and ("pots" in res or "ranges" in res or "players" not in res):
        kind = "allin" if "pots" in res else "range"
        ans = {"error": f"a {kind} result does not fit a CSV row; write JSON lines "
                        "(an output file not named .csv)"}
        res = None
    if res is None:
        row["error"] = ans.get("error", "internal error: no answer")
    else:
        for k in ("game", "board", "dead", "exact", "samples", "seed"):
            row[k] = res.get(k)
        for p, pl in enumerate(res["players"], 1):
            for f in CSV_PLAYER_FIELDS:
                row[f"{f}_{p}"] = pl.get(f)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([_cell(row.get(c)) for c in CSV_COLUMNS])
    return buf.getvalue()


def _csv_header_line() -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(CSV_COLUMNS)
    return buf.getvalue()


# ----------------------------------------------------------------------------- output
@dataclass
class Resume:
    """What earlier runs left in the output: ``answered`` (id key -> (line, digest)) for
    requests answered, ``acknowledged`` ((id key, digest) pairs written, answers and
    refusals), ``lines`` (input line number -> ``(id key, id)`` of the record written for
    it: a rerun matches a line by its id, and refuses to go on where another request
    stands at that number now), ``errors`` (lines whose last record is an error that is
    not a refusal: these are answered again)."""

    answered: dict[str, tuple[int, str | None]] = field(default_factory=dict)
    acknowledged: set[tuple[str, str | None]] = field(default_factory=set)
    lines: dict[int, tuple[str | None, Any]] = field(default_factory=dict)
    records: int = 0
    #: input line -> the last error record written for it (the record's text): an error
    #: line is not finished, a rerun answers it again and writes the new record unless it
    #: is this same text again
    errors: dict[int, str] = field(default_factory=dict)


class Output:
    """The output file of a run, locked for the run (use as a context manager).

    Raises ValueError (naming ``path``) for a folder, a device or pipe, a file that is not
    a batch output, or a file another run holds; OSError for a place that cannot be
    written.
    """

    def __init__(self, path: str | Path, fmt: str | None = None) -> None:
        self.path = Path(path)
        self.fmt = fmt or output_format(path)
        self.fd = -1
        self.resume = Resume()
        self._last_sync = time.monotonic()

    def key_of(self, rid: Any) -> str | None:
        """The id key used to match lines with what the file holds."""
        return key_of(rid, self.fmt)

    def __enter__(self) -> Output:
        p = self.path
        try:
            st = os.stat(p)
        except FileNotFoundError:
            st = None
        if st is not None and stat.S_ISDIR(st.st_mode):
            raise ValueError(f"{p}: is a folder, not a file")
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{p}: not a regular file (a device or pipe?); a batch output is "
                             "read back to resume, so it must be a file")
        fd = os.open(p, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK, 0o666)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError(f"{p}: not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise ValueError(f"{p}: another pokerjit batch run is writing this file; "
                                     "wait for it to end or choose another output") from None
                raise
            self.fd = fd
            self._scan()
        except BaseException:
            os.close(fd)
            self.fd = -1
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        """fsync and close (an fsync error names the file, unless the run is already
        ending with another exception, which it would hide)."""
        if self.fd >= 0:
            try:
                os.fsync(self.fd)
            except OSError as e:
                if exc[0] is None:
                    raise _named(self.path, e) from None
            finally:
                os.close(self.fd)  # closing releases the lock
                self.fd = -1

    def _scan(self) -> None:
        """Read what earlier runs wrote; cut off a torn last line; write the CSV header."""
        r = self.resume
        pos = good_end = 0
        n = 0
        with os.fdopen(os.dup(self.fd), "rb") as f:
            f.seek(0)
            raw = f.readline(MAX_LINE_BYTES + 1)
            while raw:
                n += 1
                nxt = f.readline(MAX_LINE_BYTES + 1)
                rec = self._parse(raw, n) if raw.endswith(b"\n") else None
                if rec is None:
                    if nxt or not self._torn(raw, n):  # only our last line may be cut short
                        raise ValueError(f"{self.path}: line {n} is not a batch result; not "
                                         "touching this file (give another output file)")
                    break
                if rec is not True:
                    self._note(rec, raw)
                pos += len(raw)
                good_end = pos
                raw = nxt
        end = os.lseek(self.fd, 0, os.SEEK_END)
        if good_end != end:
            os.ftruncate(self.fd, good_end)
            os.fsync(self.fd)
        os.lseek(self.fd, 0, os.SEEK_END)
        if self.fmt == "csv" and good_end == 0:
            self.write([_csv_header_line()])
        r.records = len(r.lines)

    def _torn(self, raw: bytes, n: int) -> bool:
        """True if ``raw``, the last line, can be the start of a record this module wrote
        (so cutting it off loses nothing of anyone else's)."""
        if self.fmt == "csv":
            return n > 1  # line 1 was our header
        head = raw[:6]
        return b'{"id":'.startswith(head) if len(head) < 6 else head == b'{"id":'

    def _parse(self, raw: bytes, n: int) -> dict[str, Any] | bool | None:
        """A record, True for the CSV header, None for a line that is not a record."""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if self.fmt == "csv":
            try:
                cells = next(csv.reader([text]))
            except (csv.Error, StopIteration):
                return None
            if n == 1:
                if tuple(cells) == _CSV_COLUMNS_BEFORE_HILO:
                    raise ValueError(f"{self.path}: written before the hi/lo columns "
                                     "(high_k, low_k, scoop_k) were added; not touching "
                                     "this file (give another output file)")
                if tuple(cells) != CSV_COLUMNS:
                    raise ValueError(f"{self.path}: line 1 is not a batch CSV header; not "
                                     "touching this file (give another output file)")
                return True
            if len(cells) != len(CSV_COLUMNS) or not cells[1].isdigit():
                return None
            return {"id": cells[0] or None, "line": int(cells[1]), "digest": cells[2] or None,
                    "error": cells[3] or None, "refused": cells[4] or None, "ok": True}
        try:
            rec = json.loads(text)
        except (ValueError, RecursionError):
            return None
        if (not isinstance(rec, dict) or ("result" not in rec and "error" not in rec)
                or not isinstance(rec.get("line"), int)):
            return None
        return rec

    def _note(self, rec: dict[str, Any], raw: bytes) -> None:
        r = self.resume
        if rec.get("error") is not None and not rec.get("refused"):
            r.errors[rec["line"]] = raw.decode("utf-8")  # not finished: answered again
            return
        r.errors.pop(rec["line"], None)
        key = self.key_of(rec.get("id")) if rec.get("id") is not None else None
        r.lines[rec["line"]] = (key, rec.get("id"))
        if key is None:
            return
        dg = rec.get("digest")
        r.acknowledged.add((key, dg))
        if not rec.get("refused") and key not in r.answered:
            r.answered[key] = (rec["line"], dg)

    def write(self, lines: list[Any]) -> None:
        """Append whole lines (each text, UTF-8 bytes or a uint8 array of them; one
        write; or one piece that copies itself to a file, ``copy_to(fd)``: a
        :class:`~simulate.run.spool.SpoolRef`), fsync at most every second. A write that
        fails (a full disk: ENOSPC) is undone, the file cut back to where it ended, so
        that no line is left torn; the OSError is raised."""
        end = os.lseek(self.fd, 0, os.SEEK_CUR)
        try:
            if len(lines) == 1 and hasattr(lines[0], "copy_to"):
                lines[0].copy_to(self.fd)
            else:
                if len(lines) == 1 and not isinstance(lines[0], str):
                    data = lines[0]
                else:
                    try:
                        data = b"".join(lines)
                    except TypeError:  # some lines are text
                        data = b"".join([x.encode("utf-8") if isinstance(x, str) else x
                                         for x in lines])
                write_all(self.fd, data)
        except OSError:
            try:
                os.ftruncate(self.fd, end)  # shrinking needs no room
                os.lseek(self.fd, end, os.SEEK_SET)
            except OSError:
                pass
            raise
        now = time.monotonic()
        if now - self._last_sync >= FSYNC_EVERY_S:
            os.fsync(self.fd)
            self._last_sync = now
