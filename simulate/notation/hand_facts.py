"""What a hand record says about the hand itself, beyond its play: its number and its time,
read from and written to PHH's fields (``hand``; ``year``, ``month``, ``day``, ``time``,
``time_zone``), for the site writers, the site builder and the database."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from typing import Any

__all__ = ["fields_digest", "hand_number", "hand_time", "in_utc", "time_fields"]


def fields_digest(fields: dict[str, Any]) -> str:
    """A hand's identity where its record gives no hand number: a digest (24 hex digits)
    of its decoded PHH fields, so the same hand read from two files is one hand (lists
    may be tuples: the digest is the same)."""
    text = json.dumps(fields, sort_keys=True, default=str)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def hand_number(fields: dict[str, Any]) -> str:
    """The hand's number as a site writes one: PHH's ``hand`` field, else 18 decimal
    digits of :func:`fields_digest` (distinct hands, distinct numbers, which trackers
    need: they keep one hand per number)."""
    given = fields.get("hand")
    if given is not None and str(given) != "":
        return str(given)
    return str(int(fields_digest(fields), 16) % 10**18)


#: Names of UTC itself, as PHH's ``time_zone`` (a zone name, which pokerkit reads) or
#: ``time_zone_abbreviation`` (which the PHH dataset writes) give it; other zones (``ET``,
#: ``Europe/Paris``) are not turned into offsets: such a time is kept as the local time given.
_UTC_NAMES = frozenset({"UTC", "GMT", "Z", "ETC/UTC", "ETC/GMT"})


def hand_time(fields: dict[str, Any]) -> str | None:
    """A PHH hand's time as ISO 8601 text: ``year``, ``month``, ``day`` and ``time`` (a TOML
    local time; midnight when absent), with ``+00:00`` when ``time_zone`` or
    ``time_zone_abbreviation`` says UTC; a ``time`` that is itself ISO 8601 date-and-time
    text (as pokerjit wrote it before) as given; None without a date."""
    t = fields.get("time")
    if isinstance(t, str) and "T" in t:
        try:
            return dt.datetime.fromisoformat(t.replace("Z", "+00:00")).isoformat()
        except ValueError:
            return None
    try:
        y, m, d = int(fields["year"]), int(fields["month"]), int(fields["day"])
    except (KeyError, TypeError, ValueError):
        return None
    zone = str(fields.get("time_zone") or fields.get("time_zone_abbreviation") or "").upper()
    return (f"{y:04d}-{m:02d}-{d:02d}T{t if t is not None else '00:00:00'}"
            + ("+00:00" if zone in _UTC_NAMES else ""))


def in_utc(iso: Any) -> tuple[dt.datetime, bool] | None:
    """``(time, in UTC)`` of ISO 8601 text (``Z`` read as ``+00:00``): a time with an offset
    turned to UTC (naive, and True), one without as written (and False); None for nothing
    or text that is not a time. The one reading of a hand's ISO time (the PHH fields, the
    PokerStars header, the database's column)."""
    if not iso:
        return None
    try:
        t = dt.datetime.fromisoformat(str(iso).replace("Z", "+00:00"))
    except ValueError:
        return None
    if t.tzinfo is None:
        return t, False
    return t.astimezone(dt.timezone.utc).replace(tzinfo=None), True


def time_fields(iso: str | None) -> dict[str, Any]:
    """PHH's fields for an ISO 8601 time (:func:`hand_time` reads them back): ``year``,
    ``month``, ``day`` and ``time`` (a local time, which TOML writes bare); a time with an
    offset in UTC, with ``time_zone = 'UTC'``. Nothing for None or text that is not a
    time."""
    got = in_utc(iso)
    if got is None:
        return {}
    t, utc = got
    return {"year": t.year, "month": t.month, "day": t.day, "time": t.time(),
            **({"time_zone": "UTC"} if utc else {})}
