"""Time zones as hand histories print them, to ISO 8601 text with the offset.

Sites print a zone abbreviation (``EST``, ``CEST``, ``MSK``), an offset
(``GMT+01:00``) or nothing. An abbreviation names its offset exactly (``EDT`` is
summer time: -04:00), so no zone database is needed; ``ET`` (no season given) goes
through :mod:`zoneinfo`'s America/New_York.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from simulate.notation.site_text import SiteError

__all__ = ["LOCAL_ZONES", "ZONE_OFFSETS", "checked_time", "iso_time", "local_time"]

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


#: Abbreviations some sites (PokerStars, Full Tilt) print all year for a region's local
#: time, summer time included: PokerStars' ``23:22:20 CET [17:22:20 ET]`` of a 4 October
#: is +02:00, not CET's +01:00. Each to its IANA zone.
LOCAL_ZONES: dict[str, str] = {
    "ET": "America/New_York", "CT": "America/Chicago", "MT": "America/Denver",
    "PT": "America/Los_Angeles", "AKT": "America/Anchorage", "HT": "Pacific/Honolulu",
    "AT": "America/Halifax", "NT": "America/St_Johns", "BRT": "America/Sao_Paulo",
    "ART": "America/Argentina/Buenos_Aires", "WET": "Europe/Lisbon", "CET": "Europe/Paris",
    "EET": "Europe/Helsinki", "MSK": "Europe/Moscow", "AWST": "Australia/Perth",
    "ACST": "Australia/Adelaide", "AEST": "Australia/Sydney", "NZT": "Pacific/Auckland",
}


def local_time(date: str, clock: str, zone: str | None) -> str:
    """``2017/03/28`` ``15:31:25`` and a zone as such a site prints it (an abbreviation of
    :data:`LOCAL_ZONES` read as that region's local time, else as :func:`iso_time` reads
    it) as ISO 8601; without an offset where the zone is missing or unknown."""
    y, mo, d = (int(x) for x in date.split("/"))
    parts = [int(x) for x in clock.split(":")] + [0]
    when = datetime(y, mo, d, parts[0], parts[1], parts[2])
    try:
        return iso_time(when, LOCAL_ZONES.get(zone or "", zone))
    except ValueError:
        return when.isoformat()


_ISO_PARTS = re.compile(r"(\d{4})-(\d\d?)-(\d\d?)T(\d\d?):(\d\d?)(?::(\d\d?))?")


def checked_time(text: str, line: int) -> str:
    """``text``, the ISO 8601 time a reader made of a hand's printed date (``YYYY-MM-DDTHH:MM
    [:SS]``, an offset after it), checked: a :class:`SiteError` naming ``line`` for one that
    cannot be (30 February, hour 25), which would otherwise pass on as text."""
    m = _ISO_PARTS.match(text)
    try:
        if m is None:
            raise ValueError
        datetime(*(int(x) for x in m.groups(default="0")))
    except ValueError:
        raise SiteError(f"line {line}: not a date: {text}") from None
    return text
