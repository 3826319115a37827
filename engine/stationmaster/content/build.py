"""Schema-valid plain data to typed records, one builder per family."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.stationmaster.content.model import (
    Card,
    Consist,
    Enhancement,
    Facility,
    FacilityModifier,
    GradeCut,
    MainlineCard,
    MainlineModifier,
    Maneuver,
    OfficeTier,
    OpponentCard,
    Origin,
    SecondSection,
    Source,
    TrackShape,
    TrackSpeed,
    TrainCard,
)

Raw = Mapping[str, Any]


def _common(raw: Raw, family: str, origin: Origin) -> dict[str, Any]:
    return {
        "id": raw["id"],
        "name": raw["name"],
        "source": Source.from_yaml(raw["source"]),
        "count": raw["count"],
        "family": family,
        "text": raw.get("text"),
        "play_option": raw.get("playOption"),
        "origin": origin,
    }


def _ids(value: Any) -> str | tuple[str, ...]:
    return value if isinstance(value, str) else tuple(value)


def _track(raw: Raw, c: dict[str, Any]) -> Card:
    return TrackShape(**c, handedness=raw["handedness"], routes=tuple((a, b) for a, b in raw["routes"]), label=raw["label"])


def _office(raw: Raw, c: dict[str, Any]) -> Card:
    return OfficeTier(
        **c,
        upgrades_from=raw.get("upgradesFrom"),
        ad_tracks=raw["adTracks"],
        porters=raw["porters"],
        outbound_slots=raw["outboundSlots"],
        inbound_slots=raw["inboundSlots"],
        control_point=raw["controlPoint"],
        passenger_facility=raw["passengerFacility"],
    )


def _facility(raw: Raw, c: dict[str, Any]) -> Card:
    return Facility(
        **c,
        commodity=raw["commodity"],
        car_types=tuple(raw["carTypes"]),
        traffic=raw["traffic"],
        inbound_boxes=raw["inboundBoxes"],
        outbound_boxes=raw["outboundBoxes"],
        lockouts=tuple(raw.get("lockouts", ())),
    )


def _modifier(raw: Raw, c: dict[str, Any]) -> Card:
    return FacilityModifier(**c, hosts=_ids(raw["hosts"]), grant=raw["grant"], effect=raw["effect"])


def _train(raw: Raw, c: dict[str, Any]) -> Card:
    consist = raw["consist"]
    return TrainCard(
        **c,
        number=raw["number"],
        service=raw["service"],
        speed=raw["speed"],
        consist=Consist(coach=consist.get("coach", 0), freight=consist.get("freight", 0)),
        caboose=raw["caboose"],
        restrictions=tuple(raw.get("restrictions", ())),
        effect=raw.get("effect"),
    )


def _enhancement(raw: Raw, c: dict[str, Any]) -> Card:
    return Enhancement(**c, placement=raw["placement"], effect=raw["effect"], answers=tuple(raw.get("answers", ())))


def _mainline_modifier(raw: Raw, c: dict[str, Any]) -> Card:
    crossing = raw.get("crossing")
    return MainlineModifier(
        **c,
        play_on=_ids(raw["playOn"]),
        effect=raw["effect"],
        requires=raw.get("requires"),
        crossing=GradeCut(crossing["direction"], crossing["stages"]) if crossing else None,
        realign=tuple(sorted(raw.get("realign", {}).items())),
    )


def _maneuver(raw: Raw, c: dict[str, Any]) -> Card:
    return Maneuver(**c, effect=raw["effect"], hand_limit_bonus=raw.get("handLimitBonus", 0))


def _second_section(raw: Raw, c: dict[str, Any]) -> Card:
    return SecondSection(**c, effect=raw["effect"])


def _opponent(raw: Raw, c: dict[str, Any]) -> Card:
    return OpponentCard(**c, category=raw["category"], effect=raw["effect"], attacks=raw.get("attacks"), answers=tuple(raw.get("answers", ())))


def _mainline(raw: Raw, c: dict[str, Any]) -> Card:
    speed = raw.get("speedMph")
    return MainlineCard(
        **c,
        role=raw["role"],
        end=raw.get("end"),
        speed_mph=TrackSpeed(speed["passenger"], speed["freight"]) if speed else None,
        passing=raw.get("passing", False),
        yard=raw.get("yard", False),
        grade=raw.get("grade", False),
        effect=raw.get("effect"),
    )


CARD_BUILDERS: dict[str, Callable[[Raw, dict[str, Any]], Card]] = {
    "track": _track,
    "offices": _office,
    "facilities": _facility,
    "modifiers": _modifier,
    "trains": _train,
    "enhancements": _enhancement,
    "mainline-modifiers": _mainline_modifier,
    "maneuvers": _maneuver,
    "second-section": _second_section,
    "opponent": _opponent,
    "mainline": _mainline,
}


def build_card(family: str, raw: Raw, origin: Origin) -> Card:
    return CARD_BUILDERS[family](raw, _common(raw, family, origin))
