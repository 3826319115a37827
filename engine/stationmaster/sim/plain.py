"""A Station Master chunk (``runner.ChunkResult``) as plain values for the
wire, and checked on its way back (``engine.sim.plain`` says why).

The checks are those any chunk really played passes: one entry a game,
one score a seat, a game's turns no more than its actions, every card
tally for a card of the catalog with each draw ending once (played,
discarded or held at the end), and no attack answered more often than made.
"""

from __future__ import annotations

from typing import Any

from engine.sim.plain import LARGEST_FIGURE, BadChunk, as_counts, as_dict, as_list, as_text, as_whole
from engine.stationmaster.content.model import Catalog
from engine.stationmaster.sim.runner import ANSWERED, ATTACK_WIDTH, ATTACKED, DISCARDED, HELD, MAX_ACTIONS_PER_GAME, PLAYED, TALLY_WIDTH, ChunkResult, Tally


def chunk_to_plain(chunk: ChunkResult) -> dict[str, Any]:
    """``chunk`` as lists, dicts, strings and whole numbers only."""
    games, tally, attacks = chunk
    return {
        "games": [[list(scores), actions, turns] for scores, actions, turns in games],
        "tally": {card: list(row) for card, row in tally.items()},
        "attacks": {card: list(row) for card, row in attacks.items()},
    }


def chunk_from_plain(catalog: Catalog, seats: int, games: int, plain: object) -> ChunkResult:
    """The chunk ``plain`` stands for, of ``games`` games of ``seats`` seats;
    BadChunk saying what is wrong with it otherwise."""
    data = as_dict(plain, "the chunk")
    if set(data) != {"games", "tally", "attacks"}:
        raise BadChunk("the chunk is not a Station Master chunk")
    results = []
    for game in as_list(data["games"], "the chunk's games", games):
        scores, actions, turns = as_list(game, "a game", 3)
        seat_scores = tuple(as_whole(score, "a score", -LARGEST_FIGURE) for score in as_list(scores, "a game's scores", seats))
        played = as_whole(actions, "a game's actions", 0, MAX_ACTIONS_PER_GAME)
        results.append((seat_scores, played, as_whole(turns, "a game's turns", 0, played)))
    return results, _tally(catalog, data["tally"]), _attacks(catalog, data["attacks"])


def _tally(catalog: Catalog, plain: object) -> Tally:
    tally: Tally = {}
    for card, row in as_dict(plain, "the card tally").items():
        name = as_text(card, "a tallied card", catalog.by_id)
        counts = as_counts(row, f"the tally of {name}", TALLY_WIDTH)
        if sum(counts[:PLAYED]) != counts[PLAYED] + counts[DISCARDED] + counts[HELD]:
            raise BadChunk(f"the tally of {name} does not add up: {sum(counts[:PLAYED])} drawn, {counts[PLAYED] + counts[DISCARDED] + counts[HELD]} played, discarded or held")
        tally[name] = counts
    return tally


def _attacks(catalog: Catalog, plain: object) -> Tally:
    attacks: Tally = {}
    for card, row in as_dict(plain, "the attack tally").items():
        name = as_text(card, "an attacking card", catalog.by_id)
        counts = as_counts(row, f"the attacks of {name}", ATTACK_WIDTH)
        if counts[ANSWERED] > counts[ATTACKED]:
            raise BadChunk(f"the attacks of {name} were answered more often than made")
        attacks[name] = counts
    return attacks
