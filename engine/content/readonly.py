"""Teaches pickle the read-only mappings catalogs hold (``MappingProxyType``),
which it cannot copy by itself: a catalog crosses to the worker processes of
``simulate`` where processes are spawned rather than forked, and to the
workers of ``sweep --cluster``. Between the kit's own processes only; no
catalog is ever read back from disk."""

from __future__ import annotations

import copyreg
from collections.abc import Callable
from types import MappingProxyType
from typing import Any


def _proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(items)


def _mappingproxy(proxy: MappingProxyType[Any, Any]) -> tuple[Callable[[dict[Any, Any]], MappingProxyType[Any, Any]], tuple[dict[Any, Any]]]:
    return _proxy, (dict(proxy),)


copyreg.pickle(MappingProxyType, _mappingproxy)
