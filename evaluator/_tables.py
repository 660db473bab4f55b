"""Loading the shipped lookup tables (``data/tables.npz``) once per process."""

from __future__ import annotations

import functools
import io
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import numpy as np

from . import tablegen

TABLE_FILE = "tables.npz"


class Tables(NamedTuple):
    """The evaluator's tables; ``kernel_args`` is what kernels take.

    card_key: int64[52], card_mask: int64[52], row_offsets: int32[R],
    rank_table: uint16[T], flush_table: uint16[8192], category_start: int32[10],
    class_info: int8[7463, 6] (category and tiebreak ranks of each strength).
    """

    card_key: np.ndarray
    card_mask: np.ndarray
    row_offsets: np.ndarray
    rank_table: np.ndarray
    flush_table: np.ndarray
    category_start: np.ndarray
    class_info: np.ndarray
    rank_multipliers: np.ndarray

    @property
    def kernel_args(self) -> tuple[np.ndarray, ...]:
        """``(card_key, card_mask, row_offsets, rank_table, flush_table)``."""
        return (self.card_key, self.card_mask, self.row_offsets, self.rank_table,
                self.flush_table)

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self)


def _read_bytes() -> bytes:
    try:
        return resources.files("pokerjit_data").joinpath(TABLE_FILE).read_bytes()
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parent.parent / "data" / TABLE_FILE).read_bytes()


def load_arrays() -> dict[str, np.ndarray]:
    """Every array in the shipped table file, by name."""
    with np.load(io.BytesIO(_read_bytes())) as z:
        return {k: z[k] for k in z.files}


@functools.cache
def get_tables(game: str = "holdem") -> Tables:
    """The tables of one evaluator scale (``holdem``, ``short_deck``,
    ``short_deck_triton``), loaded and checked once per process. Every scale shares the
    card keys and masks; a short-deck scale has its own ``row_offsets``, ``rank_table``,
    ``flush_table`` and ``class_info`` (its ``category_start`` is the first strength of
    each category in its own order, ``tablegen.CATEGORY_ORDER``)."""
    if game != "holdem":
        if game not in tablegen.SCALES:
            raise ValueError(f"unknown evaluator game '{game}' (expected one of: "
                             f"{', '.join(tablegen.SCALES)})")
        base, a = get_tables(), load_arrays()

        def own(name: str, dtype: type) -> np.ndarray:
            return np.ascontiguousarray(a[f"{game}__{name}"], dtype=dtype)

        info = own("class_info", np.int8)
        order = tablegen.CATEGORY_ORDER[game]
        starts = [int(np.argmax(info[1:, 0] == c)) + 1 for c in order]
        return base._replace(row_offsets=own("row_offsets", np.int32),
                             rank_table=own("rank_table", np.uint16),
                             flush_table=own("flush_table", np.uint16),
                             class_info=info,
                             category_start=np.array(starts + [len(info)], np.int32))
    a = load_arrays()
    shift, key_init = (int(x) for x in a["meta"])
    if shift != tablegen.ROW_SHIFT or key_init != tablegen.KEY_INIT:
        raise RuntimeError("data/tables.npz does not match evaluator/tablegen.py; rebuild it")
    return Tables(
        card_key=np.ascontiguousarray(a["card_key"], dtype=np.int64),
        card_mask=np.ascontiguousarray(a["card_mask"], dtype=np.int64),
        row_offsets=np.ascontiguousarray(a["row_offsets"], dtype=np.int32),
        rank_table=np.ascontiguousarray(a["rank_table"], dtype=np.uint16),
        flush_table=np.ascontiguousarray(a["flush_table"], dtype=np.uint16),
        category_start=np.ascontiguousarray(a["category_start"], dtype=np.int32),
        class_info=np.ascontiguousarray(a["class_info"], dtype=np.int8),
        rank_multipliers=np.ascontiguousarray(a["rank_multipliers"], dtype=np.int64),
    )
