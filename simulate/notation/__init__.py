"""Hand histories in the PHH format: reading (:mod:`simulate.notation.phh_read`), replaying one
hand (:mod:`simulate.replay.hand_replay`) or many at once (:mod:`simulate.replay.fast_replay`),
streaming
collections and folders with per-player totals (:mod:`simulate.replay.hand_files`) and writing
(:mod:`simulate.notation.phh_write`)."""

from simulate.notation.phh_read import *  # noqa: F401,F403
from simulate.notation.phh_read import __all__ as _parse_all

__all__ = list(_parse_all)
