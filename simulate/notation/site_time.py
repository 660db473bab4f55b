"""The time of a site hand: the zone abbreviations site exports print (``ET``, ``CET``,
``WET``, ``BRT``, ...) and the ISO 8601 text of a printed date, time and zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

__all__ = ["ZONES", "iso_time"]

#: Time-zone abbreviations the sites print (PokerStars, Full Tilt, ...), to IANA zones.
ZONES = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
    "AKT": "America/Anchorage", "HT": "Pacific/Honolulu", "AT": "America/Halifax",
    "NT": "America/St_Johns", "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires",
    "UTC": "UTC", "GMT": "UTC", "WET": "Europe/Lisbon", "CET": "Europe/Paris",
    "CEST": "Europe/Paris", "EET": "Europe/Helsinki", "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata", "CCT": "Asia/Shanghai", "JST": "Asia/Tokyo",
    "AWST": "Australia/Perth", "ACST": "Australia/Adelaide", "AEST": "Australia/Sydney",
    "NZT": "Pacific/Auckland", "KST": "Asia/Seoul", "HKT": "Asia/Hong_Kong",
    "SGT": "Asia/Singapore", "BRST": "America/Sao_Paulo", "CLT": "America/Santiago",
    "COT": "America/Bogota", "PET": "America/Lima", "BST": "Europe/London",
    "WEST": "Europe/Lisbon", "EEST": "Europe/Helsinki", "AEDT": "Australia/Sydney",
}


def iso_time(date: str, clock: str, zone: str | None) -> str:
    """``2017/03/28`` ``15:31:25`` ``ET`` as ISO 8601 (with the zone's offset where the
    zone is known; local time without one otherwise)."""
    y, mo, d = (int(x) for x in date.split("/"))
    parts = [int(x) for x in clock.split(":")] + [0]
    dt = datetime(y, mo, d, parts[0], parts[1], parts[2])
    name = ZONES.get(zone or "")
    if name is not None:
        dt = dt.replace(tzinfo=ZoneInfo(name))
    return dt.isoformat()
