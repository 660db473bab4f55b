"""Hand histories in the PHH format: reading (:mod:`simulate.phh.parse`), replaying one
hand (:mod:`simulate.phh.replay`) or many at once (:mod:`simulate.phh.many`), streaming
collections and folders with per-player totals (:mod:`simulate.phh.analyze`) and writing
(:mod:`simulate.phh.write`)."""

from simulate.phh.parse import *  # noqa: F401,F403
from simulate.phh.parse import __all__ as _parse_all

__all__ = list(_parse_all)
