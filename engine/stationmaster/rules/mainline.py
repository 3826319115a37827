"""Mainline crossing times: the one function the engine and the site both use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine.stationmaster.content.model import CrossingRule, MainlineCard, MainlineModifier

Direction = Literal["uphill", "downhill"]


def crossing_stages(
    terrain: MainlineCard,
    *,
    carries_coach: bool,
    slow: bool,
    direction: Direction | None = None,
    modifiers: Iterable[MainlineModifier] = (),
) -> int:
    """Stages a train spends crossing ``terrain``.

    The card's speed gives the Stages (the pack's crossing table, in
    mainline.yaml); a train with a coach runs at the card's passenger speed,
    one without at its freight speed; a Slow train adds the table's extra. On
    a graded card, each grade card whose cut matches the direction of travel
    takes its Stages off. Never under the table's fewest.
    """
    if terrain.speed_mph is None:
        raise ValueError(f"{terrain.id} is a Division Point; trains are not timed across it")
    rule = terrain.crossing_rule
    mph = terrain.speed_mph.passenger if carries_coach else terrain.speed_mph.freight
    if rule is None:
        raise ValueError(f"{terrain.id}: the content has no crossing table")
    stages = _before_cuts(rule, mph, slow=slow)
    if terrain.grade and direction is not None:
        for modifier in modifiers:
            if modifier.crossing is not None and modifier.crossing.direction == direction:
                stages -= modifier.crossing.stages
    return max(rule.fewest_stages, stages)


def _before_cuts(rule: CrossingRule, mph: int, *, slow: bool) -> int:
    stages = rule.stages_at(mph)
    if stages is None:
        raise ValueError(f"the content's crossing table has no row for {mph} mph")
    return stages + (rule.slow_train_adds if slow else 0)


def stages_at_speed(rule: CrossingRule, mph: int, *, slow: bool) -> int:
    """Stages to cross a card of this speed with no grade card at work."""
    return max(rule.fewest_stages, _before_cuts(rule, mph, slow=slow))
