"""The house rules the engine knows how to play, and the values each may take.

The content declares each rule's options, default and wording; the loader
checks that every declared option is one the engine has code for, so a new
option in the YAML cannot silently do nothing. ``"office"`` means the value is
an office tier id from the content.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, Literal

from engine.errors import ConfigurationError

if TYPE_CHECKING:
    from engine.stationmaster.content.model import Catalog

HOUSE_RULE_VALUES: Final[dict[str, tuple[str | bool, ...] | Literal["office"]]] = {
    "openingDeal": ("threeRandom", "threeTrackThreeOther"),
    "discardTimetabled": (True, False),
    "extraStart": ("divisionPointsOnly", "ownOffice", "anyOffice"),
    "startingOffice": "office",
}


HouseRuleValue = str | bool


def defaults(catalog: Catalog) -> dict[str, HouseRuleValue]:
    """The table's choices when nobody picks: each rule's declared default."""
    return {rule.id: rule.default for rule in catalog.house_rules}


def configurations(catalog: Catalog) -> list[dict[str, HouseRuleValue]]:
    """Every combination of house-rule options, in content order."""
    combos: list[dict[str, HouseRuleValue]] = [{}]
    for rule in catalog.house_rules:
        combos = [{**combo, rule.id: option.value} for combo in combos for option in rule.options]
    return combos


def resolve(catalog: Catalog, chosen: Mapping[str, HouseRuleValue]) -> dict[str, HouseRuleValue]:
    """Defaults overlaid with ``chosen``; ConfigurationError names a bad key or value."""
    rules = defaults(catalog)
    for key, value in chosen.items():
        if key not in rules:
            raise ConfigurationError(f"unknown house rule '{key}'; known: {', '.join(rules)}")
        rule = catalog.house_rule(key)
        if not rule.allows(value):
            options = ", ".join(str(o.value).lower() if isinstance(o.value, bool) else o.value for o in rule.options)
            raise ConfigurationError(f"house rule '{key}' has no option {value!r}; options: {options}")
        rules[key] = value
    return rules


def parse_assignment(catalog: Catalog, text: str) -> tuple[str, HouseRuleValue]:
    """``key=value`` from a command line, typed by what the rule's options are."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise ConfigurationError(f"'{text}' is not key=value")
    try:
        rule = catalog.house_rule(key)
    except KeyError:
        raise ConfigurationError(f"unknown house rule '{key}'; known: {', '.join(r.id for r in catalog.house_rules)}") from None
    value: HouseRuleValue = raw
    if any(isinstance(o.value, bool) for o in rule.options) and raw in ("true", "false"):
        value = raw == "true"
    return key, value
