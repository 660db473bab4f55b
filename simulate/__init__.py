"""pokerjit's equity engine: exact enumeration and Monte Carlo, ranges, pots and all-in EV."""

from .allin import allin_ev
from .equity import equity

__all__ = ["allin_ev", "equity"]
