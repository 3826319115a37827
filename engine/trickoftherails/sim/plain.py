"""A Trick of the Rails chunk (a list of ``runner.GameRecord``) as plain
values for the wire, and checked on its way back (``engine.sim.plain``
says why): one record a game, one score a seat, share values and
locomotives for the catalog's companies, tricks of the kinds there are."""

from __future__ import annotations

from typing import Any, cast

from engine.sim.plain import LARGEST_FIGURE, BadChunk, as_dict, as_flag, as_list, as_text, as_whole
from engine.trickoftherails.content.model import Catalog
from engine.trickoftherails.rules.lanecards import TRICK_KINDS, TrickKind
from engine.trickoftherails.sim.runner import MAX_ACTIONS_PER_GAME, GameRecord


def chunk_to_plain(chunk: list[GameRecord]) -> list[dict[str, Any]]:
    """``chunk`` as lists, dicts, strings, booleans and whole numbers only."""
    return [
        {
            "scores": list(record.scores),
            "shareValues": dict(record.share_values),
            "locomotives": dict(record.locomotives),
            "tricks": [[kind, led] for kind, led in record.tricks],
            "actions": record.actions,
            "firstLeader": record.first_leader,
        }
        for record in chunk
    ]


def chunk_from_plain(catalog: Catalog, seats: int, games: int, plain: object) -> list[GameRecord]:
    """The chunk ``plain`` stands for, of ``games`` games of ``seats`` seats;
    BadChunk saying what is wrong with it otherwise."""
    companies = {company.id for company in catalog.companies}
    records = []
    for item in as_list(plain, "the chunk", games):
        record = as_dict(item, "a game")
        if set(record) != {"scores", "shareValues", "locomotives", "tricks", "actions", "firstLeader"}:
            raise BadChunk("a game is not a Trick of the Rails game")
        scores = tuple(as_whole(score, "a score", -LARGEST_FIGURE) for score in as_list(record["scores"], "a game's scores", seats))
        shares = {as_text(company, "a company", companies): as_whole(value, "a share value", -LARGEST_FIGURE) for company, value in as_dict(record["shareValues"], "the share values").items()}
        locomotives = {as_text(company, "a company", companies): as_text(card, "a locomotive", catalog.by_id) for company, card in as_dict(record["locomotives"], "the locomotives").items()}
        tricks = []
        for trick in as_list(record["tricks"], "a game's tricks"):
            kind, led = as_list(trick, "a trick", 2)
            tricks.append((cast(TrickKind, as_text(kind, "a trick's kind", TRICK_KINDS)), as_flag(led, "a trick's leader won")))
        actions = as_whole(record["actions"], "a game's actions", 0, MAX_ACTIONS_PER_GAME)
        if len(tricks) > actions:
            raise BadChunk("a game has more tricks than actions")
        first_leader = as_whole(record["firstLeader"], "a game's first leader", 0, seats - 1)
        records.append(GameRecord(scores, shares, locomotives, tuple(tricks), actions, first_leader))
    return records
