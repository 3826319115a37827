"""The choices a game is set up with: the lane variant (basic or Expert) and
Teams. Which variants exist, and at which player counts, is content
(game.yaml's ``variants``); which the engine can play is here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ConfigurationError, InvalidActionError
from engine.trickoftherails.content.model import Catalog

HouseRuleValue = str | bool
DEFAULTS: dict[str, HouseRuleValue] = {"variant": "basic", "teams": False}
VARIANTS = ("basic", "expert")


def parse_assignment(catalog: Catalog, text: str) -> tuple[str, HouseRuleValue]:
    """``variant=expert`` or ``teams=true`` from a command line, typed."""
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    if not sep:
        raise InvalidActionError(f"{text!r}: a house rule is KEY=VALUE (variant=basic|expert, teams=true|false)")
    if key == "variant":
        if raw not in VARIANTS or (raw != "basic" and raw not in catalog.variants):
            raise InvalidActionError(f"variant={raw}: the variants are {', '.join(v for v in VARIANTS if v == 'basic' or v in catalog.variants)}")
        return key, raw
    if key == "teams":
        if raw not in ("true", "false"):
            raise InvalidActionError(f"teams={raw}: teams is true or false")
        return key, raw == "true"
    raise InvalidActionError(f"{key!r} is not a house rule of Trick of the Rails; the house rules are: variant, teams")


def resolve(catalog: Catalog, chosen: Mapping[str, Any], players: int | None = None) -> dict[str, HouseRuleValue]:
    """The full set, defaults overlaid with ``chosen``; ConfigurationError for
    an unknown key or value, or a variant at a player count it does not have."""
    rules = dict(DEFAULTS)
    for key, value in chosen.items():
        if key not in DEFAULTS:
            raise ConfigurationError(f"{key!r} is not a house rule of Trick of the Rails; the house rules are: {', '.join(DEFAULTS)}")
        if key == "variant" and value not in VARIANTS:
            raise ConfigurationError(f"variant={value!r}: the variants are {', '.join(VARIANTS)}")
        if key == "teams" and not isinstance(value, bool):
            raise ConfigurationError(f"teams={value!r}: teams is true or false")
        rules[key] = value
    for key, value in rules.items():
        variant_id = str(value) if key == "variant" else key
        if value in (False, "basic"):
            continue
        variant = catalog.variants.get(variant_id)
        if variant is None:
            raise ConfigurationError(f"{key}={value}: this content has no such variant")
        if players is not None and variant.players is not None and players not in variant.players:
            counts = " or ".join(str(p) for p in variant.players)
            raise ConfigurationError(f"{variant.name} is played by {counts} players, not {players}")
    return rules
