"""Share values and scores: a company's profit is its locomotive's best run
of consecutive railway cards, less the locomotive's cost, never below the
content's floor; a player scores shares held times share value."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.trickoftherails.content.model import Card, Catalog


def best_run(values: Sequence[int], reach: int | None) -> int:
    """The highest total of ``reach`` consecutive values (all of them when
    ``reach`` is None or the row is no longer)."""
    if reach is None or len(values) <= reach:
        return sum(values)
    window = sum(values[:reach])
    best = window
    for i in range(reach, len(values)):
        window += values[i] - values[i - reach]
        best = max(best, window)
    return best


def share_value(catalog: Catalog, railway: Sequence[str], locomotive: str | None) -> int:
    """What one share of the company is worth: nothing without a locomotive."""
    if locomotive is None:
        return catalog.share_floor
    values = [catalog.by_id[card].station_value or 0 for card in railway]
    return run_value(catalog, values, catalog.by_id[locomotive])


def run_value(catalog: Catalog, values: Sequence[int], locomotive: Card) -> int:
    """A share's worth with ``locomotive`` pulling a railway of these
    station values (a bot asks it of railways that may yet be)."""
    return max(catalog.share_floor, best_run(values, locomotive.reach) - (locomotive.cost or 0))


def share_values(catalog: Catalog, railways: Mapping[str, Sequence[str]], locomotives: Mapping[str, str]) -> dict[str, int]:
    return {company: share_value(catalog, railways[company], locomotives.get(company)) for company in railways}


def company_of(catalog: Catalog, card_id: str) -> str:
    company = catalog.by_id[card_id].company
    assert company is not None, f"{card_id} is not a share"
    return company


def partner(player: int, players: int) -> int:
    """The partner in Teams: the player sitting opposite."""
    return (player + players // 2) % players


def team_sides(players: int) -> tuple[tuple[int, ...], ...]:
    """The Teams partnerships, each as its two seats, lowest seat first."""
    return tuple((p, partner(p, players)) for p in range(players // 2))


def scores(catalog: Catalog, shares: Sequence[Sequence[str]], values: Mapping[str, int], teams: bool = False) -> list[int]:
    """Each player's score; with teams, partners sitting opposite share the
    sum of both their scores."""
    own = [sum(values[company_of(catalog, card)] for card in held) for held in shares]
    if not teams:
        return own
    return [own[p] + own[partner(p, len(own))] for p in range(len(own))]


def winners(final: Sequence[int], ties_share: bool = True) -> list[int]:
    """Every player on the top score, as game.yaml's ``tiesShareTheWin``
    says; no source gives a tie-break, so there is none to apply otherwise."""
    if not ties_share:
        raise NotImplementedError("no tie-break for the win is known; game.yaml's tiesShareTheWin must be true")
    top = max(final)
    return [p for p, score in enumerate(final) if score == top]
