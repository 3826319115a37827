"""Trick of the Rails' fixtures, from its game-building kit
(tests/kit/trickoftherails.py): the shipped catalog."""

from __future__ import annotations

import pytest

from engine.trickoftherails.content.model import Catalog
from tests.kit.trickoftherails import CATALOG


@pytest.fixture
def catalog() -> Catalog:
    """The shipped catalog, loaded once for the session by the kit."""
    return CATALOG
