"""Names a package imports on first use (PEP 562), so importing the package stays light.

>>> __getattr__, __dir__ = lazy_names("mypackage", {"f": "mypackage.mod"}, globals())
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, where: Mapping[str, str], namespace: dict[str, Any]
               ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module ``__getattr__`` and ``__dir__`` of ``package``: name ``n`` of ``where``
    is ``where[n]``'s attribute ``n``, imported the first time it is asked for and then
    kept in ``namespace`` (the package's globals)."""

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__
