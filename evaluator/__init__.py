"""pokerjit's hand evaluator: Numba kernels over compact lookup tables.

Public API: :func:`evaluate`, :func:`evaluate_batch`, :func:`category`,
:func:`describe`, :func:`count_categories`, :func:`evaluate_omaha`, :func:`evaluate_low`
(Omaha's eight-or-better low), and the card
helpers in :mod:`evaluator.cards`.
"""

from __future__ import annotations

from .lazy import lazy_names

# Every name is imported on first use: ``import evaluator._jit`` (the command line's start)
# loads neither numpy nor Numba.
_LAZY = {
    **dict.fromkeys(("CardError", "card_str", "cards_str", "parse_cards"), "evaluator.cards"),
    **dict.fromkeys(("HandDescription", "category", "count_categories", "describe", "evaluate",
                     "evaluate_batch", "strength_histogram"), "evaluator.hands"),
    **dict.fromkeys(("describe_low", "evaluate_low"), "evaluator.low"),
    **dict.fromkeys(("describe_omaha", "evaluate_omaha", "evaluate_omaha_batch"),
                    "evaluator.omaha"),
    "CATEGORIES": "evaluator.tablegen",
}

__all__ = [
    "CATEGORIES",
    "CardError",
    "HandDescription",
    "card_str",
    "cards_str",
    "category",
    "count_categories",
    "describe",
    "describe_low",
    "describe_omaha",
    "evaluate",
    "evaluate_batch",
    "evaluate_low",
    "evaluate_omaha",
    "evaluate_omaha_batch",
    "parse_cards",
    "strength_histogram",
]


__getattr__, __dir__ = lazy_names("evaluator", _LAZY, globals())
