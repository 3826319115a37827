"""Finding a pack's site tables by its id: ``generator.tableset.table_set``."""

from __future__ import annotations

import pytest

from engine.errors import UsageError
from engine.packs import known_pack_ids
from generator.tableset import TableSet, table_set


@pytest.mark.parametrize("pack_id", known_pack_ids())
def test_every_pack_has_its_tables_under_its_own_id(pack_id: str) -> None:
    found = table_set(pack_id)
    assert isinstance(found, TableSet) and found.templates == pack_id


def test_a_pack_without_site_tables_is_one_usage_line_not_a_traceback() -> None:
    with pytest.raises(UsageError) as raised:
        table_set("nosuchpack")
    assert str(raised.value) == "pack 'nosuchpack' has no site tables: write generator/nosuchpack/tables.py holding TABLE_SET (see the README's 'Adding a game pack')"
