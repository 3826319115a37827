"""What a train may carry: its card's maximum by category and its printed restrictions."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence

from engine.errors import Reason
from engine.stationmaster.content.model import CarCategory, TrainCard
from engine.stationmaster.rules.state import Car


def category(card: TrainCard, car: Car) -> CarCategory:
    """Which of the card's consist limits ``car`` counts against (supplies.yaml)."""
    return card.category(car.type)


def restriction_words(card: TrainCard, restriction: str) -> str:
    return card.restriction_rules[restriction].words


def _outside_types(card: TrainCard, car: Car) -> str | None:
    """The first restriction on ``card`` that limits its freight to types
    ``car`` is not one of, if any."""
    for r in card.restrictions:
        types = card.restriction_rules[r].car_types
        if types and car.type not in types:
            return r
    return None


def _code(restriction: str) -> str:
    """A restriction's refusal code: its id in kebab case (reefersOnly -> reefers-only)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", restriction).lower()


def car_refusal(card: TrainCard, car: Car, *, pickup: bool) -> Reason | None:
    """Why ``card`` may not take ``car`` (None if it may). ``pickup`` is True for
    coupling on during a run, False when the train is made up in a yard."""
    cat = category(card, car)
    limit = card.consist.coach if cat == "coach" else card.consist.freight
    label = f"{'a loaded' if car.loaded else 'an empty'} {car.type}"
    if limit == 0:
        return Reason("takes-no-category", f"{card.name} takes no {'coaches' if cat == 'coach' else 'freight cars'}, so not {label}")
    r = card.restrictions
    outside = _outside_types(card, car) if cat == "freight" else None
    if outside is not None:
        return Reason(_code(outside), f"{card.name} is '{restriction_words(card, outside)}': not {label}")
    if "emptiesOnly" in r and car.loaded:
        return Reason(_code("emptiesOnly"), f"{card.name} is '{restriction_words(card, 'emptiesOnly')}': not {label}")
    if pickup:
        if "mayNotSwitch" in r:
            return Reason(_code("mayNotSwitch"), f"{card.name} '{restriction_words(card, 'mayNotSwitch')}': it cannot pick up {label}")
        if "dropOnly" in r:
            return Reason(_code("dropOnly"), f"{card.name} is '{restriction_words(card, 'dropOnly')}': it cannot pick up {label}")
        if "pickUpEmptiesOnly" in r and car.loaded:
            return Reason(_code("pickUpEmptiesOnly"), f"{card.name} may '{restriction_words(card, 'pickUpEmptiesOnly')}': not {label}")
    return None


def consist_refusals(card: TrainCard, cars: Sequence[Car], caboose: bool, tray_pieces: int) -> list[str]:
    """Every reason this consist may not leave (empty when it may)."""
    reasons: list[str] = []
    coaches = sum(1 for c in cars if category(card, c) == "coach")
    freight = len(cars) - coaches
    if coaches > card.consist.coach:
        reasons.append(Reason("too-many-coaches", f"{card.name} takes at most {card.consist.coach} coach(es), not {coaches}"))
    if freight > card.consist.freight:
        reasons.append(Reason("too-many-freight-cars", f"{card.name} takes at most {card.consist.freight} freight car(s), not {freight}"))
    if caboose and not card.caboose:
        reasons.append(Reason("runs-without-caboose", f"{card.name} runs without a caboose"))
    pieces = len(cars) + (1 if caboose else 0)
    if pieces > tray_pieces:
        reasons.append(Reason("crew-tray-full", f"a Crew Tray holds {tray_pieces} pieces, caboose included; this consist needs {pieces}"))
    for car in cars:
        why = car_refusal(card, car, pickup=False)
        if why and why.code != "takes-no-category":  # already counted by category above
            reasons.append(why)
    return reasons


def parse_car(text: str, types: Collection[str]) -> Car:
    """A car as a player names it in an Extra's load: 'loaded boxcar' or
    'empty coach'. ValueError, saying how to write one, for anything else."""
    words = text.split()
    if len(words) != 2 or words[0] not in ("loaded", "empty") or words[1] not in types:
        raise ValueError(f"{text!r} is not a car: write 'loaded TYPE' or 'empty TYPE', TYPE one of {', '.join(sorted(types))}")
    return Car(words[1], words[0] == "loaded")


def car_label(car: Car) -> str:
    return f"{'loaded' if car.loaded else 'empty'} {car.type}"


def missing_from(yard: Sequence[Car], wanted: Sequence[Car]) -> list[Car]:
    """The wanted cars the yard cannot supply, each yard car used once."""
    pool = [(c.type, c.loaded) for c in yard]
    missing = []
    for car in wanted:
        if (car.type, car.loaded) in pool:
            pool.remove((car.type, car.loaded))
        else:
            missing.append(car)
    return missing


# Whether a car is one a place on a train's run works (an industry that takes
# it in, or loads it): one such test for each car the place has room for.
Wanted = Callable[[Car], bool]


def make_up(
    card: TrainCard,
    yard: list[Car],
    yard_name: str,
    tray_pieces: int,
    chosen: Sequence[Car] | None = None,
    wanted: Sequence[Wanted] = (),
) -> tuple[list[Car], str | None]:
    """Take the train's consist out of ``yard``: the ``chosen`` cars in their
    order when the player named them, else the yard's own choice up to the
    card's maximum: first a car for each of the ``wanted`` tests in turn, if
    the yard has one (these go at the rear, the first taken last, where a
    Spot sets cars out first), then loaded cars, then empties, in yard order.
    The report says what the train wanted and did not get."""
    if chosen is not None:
        missing = missing_from(yard, chosen)
        taken: list[Car] = []
        for want in chosen:
            match = next((c for c in yard if (c.type, c.loaded) == (want.type, want.loaded)), None)
            if match is not None:
                yard.remove(match)
                taken.append(match)
        if not missing:
            return taken, None
        return taken, f"{card.name} left {yard_name} short: the yard no longer had the {', '.join(car_label(c) for c in missing)} chosen for it"
    room = {"coach": card.consist.coach, "freight": card.consist.freight}
    room_total = tray_pieces - (1 if card.caboose else 0)
    bound: list[Car] = []
    general: list[Car] = []

    # Whether the card may take a car at all turns on the car's type and
    # whether it is loaded alone (``car_refusal``), and a yard holds many cars
    # of each such kind: each kind is asked once (the walks below test every
    # car of a yard that cannot fill the train).
    allowed: dict[tuple[str, bool], bool] = {}

    def fits(car: Car) -> bool:
        if len(bound) + len(general) >= room_total or room[category(card, car)] <= 0:
            return False
        kind = (car.type, car.loaded)
        may = allowed.get(kind)
        if may is None:
            may = allowed[kind] = car_refusal(card, car, pickup=False) is None
        return may

    def take(car: Car, into: list[Car]) -> None:
        room[category(card, car)] -= 1
        into.append(car)
        # This very car leaves the yard. (Every walk takes the first car it
        # may in yard order, so no car equal to it stands before it: this is
        # what ``yard.remove(car)`` did, without comparing it with each car
        # before it field by field.)
        for i, standing in enumerate(yard):
            if standing is car:
                del yard[i]
                break

    # Once the train is full nothing more fits: the walks stop there (a yard
    # holds far more cars than a train takes).
    for place in wanted:
        if len(bound) + len(general) >= room_total:
            break
        car = next((c for c in yard if place(c) and fits(c)), None)
        if car is not None:
            take(car, bound)
    for want_loaded in (True, False):
        for car in list(yard):
            if len(bound) + len(general) >= room_total:
                break
            if car.loaded == want_loaded and fits(car):
                take(car, general)
    taken = general + bound[::-1]
    short = [f"{n} more {'coach(es)' if cat == 'coach' else 'freight car(s)'}" for cat, n in room.items() if n > 0]
    if not short:
        return taken, None
    rules = [restriction_words(card, r) for r in card.restrictions if r == "emptiesOnly" or card.restriction_rules[r].car_types]
    why = f" ({', '.join(rules)})" if rules else ""
    report = f"{card.name} left {yard_name} short: it wanted {' and '.join(short)}{why}, and the yard had no more it may take"
    return taken, report
