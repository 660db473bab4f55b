"""pokerjit's hand evaluator: Numba kernels over compact lookup tables.

Public API: :func:`evaluate`, :func:`evaluate_batch`, :func:`category`,
:func:`describe`, :func:`count_categories`, :func:`evaluate_omaha`, :func:`evaluate_low`
(Omaha's eight-or-better low), and the card
helpers in :mod:`evaluator.cards`.
"""

from .cards import CardError, card_str, cards_str, parse_cards
from .hands import (
    HandDescription,
    category,
    count_categories,
    describe,
    evaluate,
    evaluate_batch,
    strength_histogram,
)
from .low import describe_low, evaluate_low
from .omaha import describe_omaha, evaluate_omaha, evaluate_omaha_batch
from .tablegen import CATEGORIES

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
