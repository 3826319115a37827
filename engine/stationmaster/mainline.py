"""Mainline crossing times: the one function the engine and the site both use."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from engine.stationmaster.content.model import MainlineCard, MainlineModifier

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

    A 60 mph card costs one Stage and a 30 mph card two; a train with a coach
    runs at the card's passenger speed, one without at its freight speed; a
    Slow train adds one. On a graded card, each grade card whose cut matches
    the direction of travel takes its Stages off. Never under one Stage.
    """
    if terrain.speed_mph is None:
        raise ValueError(f"{terrain.id} is a Division Point; trains are not timed across it")
    mph = terrain.speed_mph.passenger if carries_coach else terrain.speed_mph.freight
    stages = 1 if mph >= 60 else 2
    if slow:
        stages += 1
    if terrain.grade and direction is not None:
        for modifier in modifiers:
            if modifier.crossing is not None and modifier.crossing.direction == direction:
                stages -= modifier.crossing.stages
    return max(1, stages)
