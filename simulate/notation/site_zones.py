"""Time zones as hand histories print them, to ISO 8601 text with the offset.

Sites print a zone abbreviation (``EST``, ``CEST``, ``MSK``), an offset
(``GMT+01:00``) or nothing. An abbreviation names its offset exactly (``EDT`` is
summer time: -04:00), so no zone database is needed; ``ET`` (no season given) goes
through :mod:`zoneinfo`'s America/New_York.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

__all__ = ["ZONE_OFFSETS", "iso_time"]

#: Zone abbreviation -> offset from UTC in minutes.
ZONE_OFFSETS: dict[str, int] = {
    "UTC": 0, "GMT": 0, "WET": 0, "BST": 60, "WEST": 60, "CET": 60, "CEST": 120,
    "MET": 60, "MEST": 120, "EET": 120, "EEST": 180, "MSK": 180, "MSD": 240,
    "EST": -300, "EDT": -240, "CST": -360, "CDT": -300, "MST": -420, "MDT": -360,
    "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600,
    "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780, "IST": 330, "JST": 540,
    "KST": 540, "HKT": 480, "SGT": 480, "BRT": -180, "ART": -180,
}
_OFFSET = re.compile(r"(?:GMT|UTC)?\s*([+-])(\d{1,2}):?(\d{2})?$")


def iso_time(when: datetime, zone: str | None = None) -> str:
    """``when`` (naive, as printed) as ISO 8601 text: with the offset of ``zone`` (an
    abbreviation, ``GMT+01:00``, ``+0100``, or ``ET``/``America/New_York``), without
    one where ``zone`` is None or empty. Raises ValueError for a zone it does not know."""
    if not zone:
        return when.isoformat()
    z = zone.strip()
    if z.upper() in ZONE_OFFSETS:
        tz = timezone(timedelta(minutes=ZONE_OFFSETS[z.upper()]))
        return when.replace(tzinfo=tz).isoformat()
    m = _OFFSET.match(z)
    if m:
        minutes = int(m.group(2)) * 60 + int(m.group(3) or 0)
        tz = timezone(timedelta(minutes=minutes if m.group(1) == "+" else -minutes))
        return when.replace(tzinfo=tz).isoformat()
    from zoneinfo import ZoneInfo

    name = {"ET": "America/New_York"}.get(z.upper(), z)
    try:
        return when.replace(tzinfo=ZoneInfo(name)).isoformat()
    except (KeyError, ValueError):
        raise ValueError(f"unknown time zone {zone!r}") from None
