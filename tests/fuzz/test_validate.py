"""Fuzzing ``stationmaster validate``: the shipped content of both packs,
damaged at the level of its bytes, its YAML and its folders (every kind in
``fuzz_mutations.MUTATIONS``), then validated.

Whatever the damage: exit 0, 1 or 2, never 3; no traceback; no hang; and not
one byte of the content changed. Each kind of damage is a case of its own, so
a failure names the kind of damage that reached it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.kit.fuzz import assert_sound, call, changes, fingerprint, fuzz_settings, scratch
from tests.kit.fuzz_mutations import MUTATIONS, damage
from tests.kit.project import PROJECT_ROOT

# Cases per kind of damage: about 30 kinds, each case one in-process run.
EXAMPLES = 3


TARGETS = ["content", "content/stationmaster", "content/trickoftherails", "content/stationmaster/home-deck"]


def validate_damaged(kinds: list[str], examples: int, *, mixed: bool = False) -> None:
    """Validate ``examples`` damaged copies, each hit first by ``kinds[0]``
    (with ``mixed``, by any of ``kinds``)."""

    @fuzz_settings(examples)
    @given(st.data())
    def case(data: st.DataObject) -> None:
        with scratch(PROJECT_ROOT, ["content"]) as root:
            done = damage(data.draw, root, kinds, mixed=mixed)
            target = data.draw(st.sampled_from(TARGETS), label="target")
            fmt = data.draw(st.sampled_from(["text", "json", "github"]), label="format")
            before = fingerprint(root)
            outcome = call(["validate", target, "--format", fmt], root)
            what = f"validate {target} --format {fmt} after: " + "; ".join(done)
            assert_sound(outcome, what)
            assert not changes(before, fingerprint(root)), f"{what}: validate changed files: {changes(before, fingerprint(root))}"

    case()


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_validate_survives_each_kind_of_damage(kind: str) -> None:
    validate_damaged([kind], EXAMPLES)


def test_validate_survives_mixed_damage() -> None:
    """Several kinds at once (known-defect kinds left out)."""
    kinds = sorted(MUTATIONS)
    validate_damaged(kinds, 2 * EXAMPLES, mixed=True)
