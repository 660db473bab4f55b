"""Hand histories in the PHH format: reading (:mod:`simulate.phh.parse`) and replaying
(:mod:`simulate.phh.replay`)."""

from simulate.phh.parse import *  # noqa: F401,F403
from simulate.phh.parse import __all__ as _parse_all

__all__ = list(_parse_all)
