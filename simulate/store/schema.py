"""The hand database's tables, where the database file lives, and opening it.

One DuckDB file holds five tables (:data:`TABLES`: each column's name, SQL type and
meaning; the README lists them): ``hands`` (one row per hand), ``hand_players`` (one row
per player per hand, with the counts of :mod:`simulate.store.counts`), ``actions`` (one row
per action), ``files`` (what was read of each file, for the next import) and ``errors``
(the hands that could not be stored). ``(site, hand_id)`` is the key of a hand. Amounts are
``DOUBLE`` in the table's own units (dollars, euros, tournament chips); ``time`` is UTC
where the file gives a time zone, else as printed.

The file: ``--db FILE``, else ``POKERJIT_DB``, else :func:`default_db_path`
(``$XDG_DATA_HOME/pokerjit/hands.duckdb``, ``~/.local/share/pokerjit/hands.duckdb``
without it). DuckDB comes with the ``db`` extra (``pip install 'pokerjit[db]'``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from simulate.store.counts import COUNT_FIELDS

__all__ = ["SCHEMA_VERSION", "TABLES", "Column", "connect", "default_db_path", "duckdb",
           "resolve_db"]

#: Bumped when a table changes; a database of another version is refused.
SCHEMA_VERSION = 1

Column = tuple[str, str, str]  # name, SQL type, meaning

_KEY: list[Column] = [
    ("site", "VARCHAR", "the site (pokerstars, ggpoker, ..., phh for PHH files)"),
    ("hand_id", "VARCHAR", "the site's hand id as printed (PHH: a digest of the hand)"),
]

_COUNT_MEANING = {
    "vpip_opp": "VPIP and PFR opportunity (acted preflop)", "vpip": "VPIP done",
    "pfr": "PFR done", "three_bet_opp": "3-bet opportunity", "three_bet": "3-bet done",
    "fold_to_three_bet_opp": "fold to 3-bet opportunity",
    "fold_to_three_bet": "fold to 3-bet done", "cbet_opp": "flop c-bet opportunity",
    "cbet": "flop c-bet done", "fold_to_cbet_opp": "fold to flop c-bet opportunity",
    "fold_to_cbet": "fold to flop c-bet done",
    "aggressive": "postflop bets and raises", "calls": "postflop calls",
    "folds": "postflop folds", "saw_flop": "saw the flop", "showdown": "went to showdown",
    "wtsd": "saw the flop and went to showdown",
    "won_showdown": "won chips at a showdown", "won_saw_flop": "saw the flop and won chips",
}

TABLES: dict[str, list[Column]] = {
    "hands": [
        *_KEY,
        ("hand_no", "BIGINT", "order of import (1, 2, ...): the graph's order after time"),
        ("game", "VARCHAR", "holdem, omaha, ... (an equity game name), stud, razz, ..."),
        ("variant", "VARCHAR", "the PHH variant code (NT, PO, F7S, ...)"),
        ("betting", "VARCHAR", "no-limit, pot-limit or fixed-limit"),
        ("currency", "VARCHAR", "USD, EUR, ... or chips (null: not given)"),
        ("small_blind", "DOUBLE", "the small blind (null: none)"),
        ("big_blind", "DOUBLE", "the big blind (fixed-limit without blinds: the small bet)"),
        ("ante", "DOUBLE", "the largest ante (0: none)"),
        ("stakes", "VARCHAR", "small/big blind as text, e.g. 0.5/1"),
        ("time", "TIMESTAMP", "when the hand started (UTC where the file gives a zone)"),
        ("table_name", "VARCHAR", "the table's name"),
        ("tournament_id", "VARCHAR", "the tournament's id (null: a cash game)"),
        ("buy_in", "VARCHAR", "the tournament's buy-in as printed"),
        ("level", "VARCHAR", "the tournament's blind level as printed"),
        ("board", "VARCHAR", "the board (the first one of a hand run twice)"),
        ("boards", "VARCHAR", "every board, ' | ' between runs"),
        ("pot", "DOUBLE", "every chip put into the pots (uncalled bets returned excluded)"),
        ("rake", "DOUBLE", "the house's cut"),
        ("fees", "DOUBLE", "other money taken from the pots (jackpot, ...)"),
        ("players", "SMALLINT", "players dealt in"),
        ("hero", "VARCHAR", "whose history the file is, where it says"),
        ("validated", "BOOLEAN", "the rules engine replayed every action"),
        ("allin_board", "VARCHAR", "the board when the money went in (all-in EV), or null"),
        ("source", "VARCHAR", "the hand's place: file#section or file:line"),
        ("file", "VARCHAR", "the file it was read from"),
        ("byte", "BIGINT", "the byte of the file its text starts at"),
    ],
    "hand_players": [
        *_KEY,
        ("seat", "SMALLINT", "the site's seat number (PHH: 1, 2, ... in the file's order)"),
        ("player", "VARCHAR", "the player's name as printed (PHH without names: p1, p2, ...)"),
        ("position", "VARCHAR", "BTN, SB, BB, UTG, UTG+1, ..., HJ, CO (null: no blinds)"),
        ("hero", "BOOLEAN", "the player is the file's hero"),
        ("cards", "VARCHAR", "hole cards (?? for a card not shown)"),
        ("starting_stack", "DOUBLE", "chips at the start (null: unknown)"),
        ("committed", "DOUBLE", "chips put into the pots (uncalled bets returned excluded)"),
        ("winnings", "DOUBLE", "chips won from the pots (null: unknown)"),
        ("net", "DOUBLE", "winnings - committed (null: unknown)"),
        ("net_bb", "DOUBLE", "net in big blinds"),
        ("allin_ev", "DOUBLE", "the all-in EV (expected payout - committed), or null"),
        ("allin_adjusted_net", "DOUBLE", "allin_ev where there is one, else net"),
        ("allin_adjusted_bb", "DOUBLE", "allin_adjusted_net in big blinds"),
        *[(f, "BOOLEAN" if f == "showdown" else "SMALLINT", _COUNT_MEANING[f])
          for f in COUNT_FIELDS],
    ],
    "actions": [
        *_KEY,
        ("seq", "SMALLINT", "the action's place in the hand (0, 1, ...)"),
        ("street", "VARCHAR", "preflop, flop, turn or river (draws: the round after)"),
        ("player", "VARCHAR", "who acted or was dealt to (null: the board)"),
        ("action", "VARCHAR", "deal_hole, deal_board, fold, check, call, bet, raise, "
                              "bring_in, draw, show, muck"),
        ("amount", "DOUBLE", "chips the action put in"),
        ("total", "DOUBLE", "the player's street total after it"),
        ("allin", "BOOLEAN", "the player has no chips left after it"),
        ("cards", "VARCHAR", "cards dealt, drawn or shown"),
    ],
    "files": [
        ("path", "VARCHAR", "the file (absolute path)"),
        ("size", "BIGINT", "bytes when last read"),
        ("mtime_ns", "BIGINT", "modification time when last read (ns)"),
        ("digest", "VARCHAR", "SHA-256 of its first size bytes"),
        ("read_to", "BIGINT", "where the next import goes on: the start of the last hand read"),
        ("line", "BIGINT", "the line number at read_to"),
        ("complete", "BOOLEAN", "the last import read it to its end"),
        ("hands", "BIGINT", "hands stored from it"),
        ("errors", "BIGINT", "its hands that could not be stored"),
        ("imported_at", "TIMESTAMP", "when it was last read (UTC)"),
    ],
    "errors": [
        ("file", "VARCHAR", "the file (absolute path)"),
        ("source", "VARCHAR", "the hand's place: file#section or file:line"),
        ("line", "BIGINT", "the hand's first line"),
        ("byte", "BIGINT", "the byte its text starts at"),
        ("message", "VARCHAR", "what is wrong (one line)"),
        ("imported_at", "TIMESTAMP", "when it was read (UTC)"),
    ],
}

_KEYS = {"hands": "PRIMARY KEY (site, hand_id)", "files": "PRIMARY KEY (path)"}


def duckdb() -> Any:
    """The ``duckdb`` module, or ValueError naming the extra that installs it."""
    try:
        import duckdb as db
    except ImportError:
        raise ValueError("the hand database needs DuckDB: pip install 'pokerjit[db]'") from None
    return db


def default_db_path() -> Path:
    """Where the database lives when neither ``--db`` nor ``POKERJIT_DB`` says."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "share")
    return Path(base) / "pokerjit" / "hands.duckdb"


def resolve_db(db: str | Path | None) -> Path:
    """``db``, else ``POKERJIT_DB``, else :func:`default_db_path`. ValueError for an empty
    name (``--db ""``: it meant some file, not the default one)."""
    if db is not None and not str(db).strip():
        raise ValueError("--db: the database's file name is empty")
    return Path(db or os.environ.get("POKERJIT_DB") or default_db_path()).expanduser()


def connect(path: str | Path, *, read_only: bool = False) -> Any:
    """A DuckDB connection to the database at ``path`` with its tables made (written:
    the folder too). Read-only: ValueError when there is no database there. A database of
    another :data:`SCHEMA_VERSION`, or another program's (tables, none of pokerjit's), is a
    ValueError."""
    db = duckdb()
    p = Path(path)
    if read_only:
        if not p.is_file():
            raise ValueError(f"no hand database at {p} (pokerjit import PATH --db {p})")
        try:
            con = db.connect(str(p), read_only=True)
        except db.Error as exc:
            if "conflicting lock" in str(exc).lower():  # a writer (an import) holds it
                raise ValueError(f"{p} is being written (an import holds it): read it once "
                                 "the import ends") from None
            raise ValueError(f"cannot open {p}: {str(exc).splitlines()[0]}") from None
        _check_version(con, p)
        return con
    p.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = db.connect(str(p))
    except db.Error as exc:
        raise ValueError(f"cannot open {p}: {str(exc).splitlines()[0]}") from None
    tables = {t for (t,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if tables and "pokerjit_meta" not in tables:  # another program's database: left as it is
        con.close()
        raise ValueError(f"{p} is not a pokerjit hand database")
    con.execute("CREATE TABLE IF NOT EXISTS pokerjit_meta (key VARCHAR PRIMARY KEY, "
                "value VARCHAR)")
    con.execute("INSERT OR IGNORE INTO pokerjit_meta VALUES ('schema_version', ?)",
                [str(SCHEMA_VERSION)])
    _check_version(con, p)
    for table, cols in TABLES.items():
        body = ", ".join(f"{name} {sql}" for name, sql, _ in cols)
        if table in _KEYS:
            body += f", {_KEYS[table]}"
        con.execute(f"CREATE TABLE IF NOT EXISTS {table} ({body})")
    return con


def _check_version(con: Any, p: Path) -> None:
    try:
        rows = con.execute("SELECT value FROM pokerjit_meta WHERE key = 'schema_version'"
                           ).fetchall()
    except Exception:  # noqa: BLE001 - not a pokerjit database
        raise ValueError(f"{p} is not a pokerjit hand database") from None
    got = rows[0] if rows else None
    if got is None or got[0] != str(SCHEMA_VERSION):
        raise ValueError(f"{p} is a hand database of another pokerjit version (schema "
                         f"{got[0] if got else '?'}, this one reads {SCHEMA_VERSION})")
