"""Pausing Python's cyclic garbage collector around bulk work.

Loading the content, rendering the tables and parsing the pages each build
hundreds of thousands of small objects that either live on (the catalog) or
die by reference counting alone (parser tokens). The cyclic collector would
re-scan all of them again and again and find nothing to free: on 10,000 cards
that was a third of the time ``check`` took. Nothing is leaked by pausing it;
cycles made meanwhile are collected once it runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector off, restoring it after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
