"""Numba settings shared by every kernel module.

``POKERJIT_CACHE=0`` in the environment turns the on-disk cache of compiled
kernels off (it is on by default so a fresh CLI process starts fast).
"""

from __future__ import annotations

import os

CACHE = os.environ.get("POKERJIT_CACHE", "1").strip().lower() not in ("0", "false", "no", "off")
