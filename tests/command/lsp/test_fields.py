"""The fields that name records are read from each pack's schemas, not
listed by hand: every reference the packs' cross-checks resolve is one."""

from __future__ import annotations

import pytest

from command.lsp.fields import declared_kind, reference_fields, shapes
from engine.content.schemas import SchemaSet
from tests.kit.project import PROJECT_ROOT

# (family, field, kind, whether the ids are the field's keys), as the
# cross-checks resolve them (engine/<pack>/content/crosscheck.py).
RESOLVED = {
    "stationmaster": [
        ("facilities", "lockouts", "", False),
        ("modifiers", "hosts", "", False),
        ("offices", "upgradesFrom", "", False),
        ("mainline-modifiers", "realign", "", True),
        ("mainline-modifiers", "playOn", "", False),
        ("mainline-modifiers", "requires", "", False),
        ("enhancements", "answers", "", False),
        ("opponent", "answers", "", False),
        ("trains", "effect", "effect", False),
        ("facilities", "source", "edition", False),
    ],
    "trickoftherails": [
        ("locomotives", "brings", "", False),
        ("locomotives", "effect", "effect", False),
        ("stations", "company", "company", False),
        ("railway", "source", "", False),
    ],
}


@pytest.mark.parametrize("pack", sorted(RESOLVED))
def test_every_resolved_reference_is_a_field_the_schemas_mark(pack: str) -> None:
    schemas = SchemaSet(PROJECT_ROOT / "content" / pack / "schema")
    found = {(family, *ref) for family, shape in shapes(schemas.raw, schemas.families).items() for ref in reference_fields(shape)}
    assert set(RESOLVED[pack]) <= found


def test_a_family_declares_the_kind_it_is_named_for() -> None:
    kinds = {"", "effect", "company", "edition"}
    assert declared_kind("effects", kinds) == "effect"
    assert declared_kind("companies", kinds) == "company"
    assert declared_kind("facilities", kinds) == ""
