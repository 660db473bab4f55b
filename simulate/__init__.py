"""pokerjit's equity engine: exact enumeration and Monte Carlo, ranges, pots and all-in EV.

The public names are importable from here (``from simulate import equity, allin_ev``).
``import simulate`` imports nothing but the standard library: every name is imported on
first use (so ``pokerjit --server`` and ``-h`` start without numpy). ``equity``, ``icm``,
``pushfold``, ``pushfold_icm`` and ``range_equity`` share their names with their modules;
the package keeps those names for the functions when the modules are imported
(:class:`_Package`).
"""

from __future__ import annotations

import sys
import types
from typing import Any

from evaluator.lazy import lazy_names

__version__ = "0.1.0"

_LAZY = {
    "equity": "simulate.equity",
    "range_equity": "simulate.range_equity",
    "analyze_ranges": "simulate.range_equity",
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
    "icm": "simulate.icm",
    "pushfold": "simulate.pushfold",
    "pushfold_chart": "simulate.pushfold",
    "PushFoldResult": "simulate.pushfold",
    "pushfold_icm": "simulate.pushfold_icm",
    "Rules": "simulate.engine",
    "Hand": "simulate.engine",
    "IllegalAction": "simulate.engine",
    "play": "simulate.engine",
    "PlayResult": "simulate.engine",
}
#: Public functions named as modules: ``simulate.equity`` is the function, always.
_SHADOWED = frozenset({"equity", "icm", "play", "pushfold", "pushfold_icm", "range_equity"})


class _Package(types.ModuleType):
    """The package's module type: importing the submodule ``simulate.equity`` (which
    binds the submodule on its package) leaves ``simulate.equity`` to the function; the
    submodule stays in ``sys.modules``, where ``from simulate.equity import ...`` finds it."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _SHADOWED and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

__all__ = ["__version__", *sorted(_LAZY)]


__getattr__, __dir__ = lazy_names("simulate", _LAZY, globals())
