"""pokerjit's equity engine: exact enumeration and Monte Carlo, ranges, pots and all-in EV.

The public names are importable from here (``from simulate import equity, allin_ev``).
``import simulate`` stays light: ``equity`` and ``range_equity`` are bound at once (their
modules need only numpy, and each shares its name with its module, so it must be bound
before anything imports the module), every other name is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import Any

from .equity import equity
from .range_equity import analyze_ranges, range_equity

__version__ = "0.1.0"

_LAZY = {
    "allin_ev": "simulate.allin",
    "AllinResult": "simulate.results",
    "equity_many": "simulate.many",
    "EquityArrays": "simulate.many",
    "EquityResult": "simulate.results",
    "PlayerResult": "simulate.results",
    "hand_categories": "simulate.range_report",
    "parse_range": "simulate.ranges",
    "Range": "simulate.ranges",
    "chart_rows": "simulate.chart",
    "preflop_equity": "simulate.preflop_table",
    "Rules": "simulate.engine",
    "Hand": "simulate.engine",
    "IllegalAction": "simulate.engine",
    "play": "simulate.engine",
    "PlayResult": "simulate.engine",
}


__all__ = ["__version__", "analyze_ranges", "equity", "range_equity", *sorted(_LAZY)]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'simulate' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
