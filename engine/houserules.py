"""The house rules the engine knows how to play, and the values each may take.

The content declares each rule's options, default and wording; the loader
checks that every declared option is one the engine has code for, so a new
option in the YAML cannot silently do nothing. ``"office"`` means the value is
an office tier id from the content.
"""

from __future__ import annotations

from typing import Final, Literal

HOUSE_RULE_VALUES: Final[dict[str, tuple[str | bool, ...] | Literal["office"]]] = {
    "openingDeal": ("threeRandom", "threeTrackThreeOther"),
    "discardTimetabled": (True, False),
    "extraStart": ("divisionPointsOnly", "ownOffice", "anyOffice"),
    "startingOffice": "office",
}
