"""The content held against the source documents it is built from.

Every card says where it comes from: a published edition (declared in
game.yaml, each naming the source document that holds it) or ``designed``.
Here the claims are checked against the documents themselves, which live in
``../shared/seeds`` beside the project (CI keeps a copy of ``shared/`` beside
its clone):

- every declared edition is a document that exists and states its version;
- a card that cites an edition has its title printed in that document;
- a card whose title no document prints is marked designed;
- a card whose title a document prints cites one of the editions printing it.

A title is matched as the documents print names: case and whole words count.
Train cards print their number as a field of their own, so the title is the
name without it ("X17 Campaign Train" is printed as "Campaign Train (X17)"),
and the train's number must appear too; a parenthesised qualifier such as
"(left)" is not part of the title.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path

import pytest

from engine.stationmaster import load_catalog
from engine.stationmaster.content.model import Card, Catalog, TrainCard
from tests.kit.project import PROJECT_ROOT, SHIPPED_CONTENT

SEEDS = PROJECT_ROOT.parent / "shared" / "seeds"

pytestmark = [
    pytest.mark.xdist_group("provenance"),
    pytest.mark.skipif(
        not SEEDS.is_dir(),
        reason=f"the source documents are not at {SEEDS} (they sit in shared/seeds beside the project's clone)",
    ),
]

_TRAIN_NUMBER = re.compile(r"^(?:No\. ?[0-9]+|X[0-9]+) ")
_QUALIFIER = re.compile(r" \([^)]*\)$")


def title(card: Card) -> str:
    """The words a document would print for the card's name."""
    name = _QUALIFIER.sub("", card.name)
    return _TRAIN_NUMBER.sub("", name) if isinstance(card, TrainCard) else name


def _words(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")


def prints(text: str, card: Card) -> bool:
    """Whether a document's text prints the card: its title, and a train's number."""
    if not _words(title(card)).search(text):
        return False
    if isinstance(card, TrainCard):
        number = card.number if card.number.startswith("X") else f"No. {card.number}"
        return _words(number).search(text) is not None
    return True


def seed_texts(catalog: Catalog) -> dict[str, str]:
    """Each declared edition's document text, by edition id."""
    texts: dict[str, str] = {}
    for edition in catalog.game.source_editions.values():
        found = sorted(SEEDS.glob(f"{edition.seed}_*.txt"))
        assert len(found) == 1, f"edition '{edition.id}' names seed {edition.seed}; {SEEDS} holds {[p.name for p in found]}"
        texts[edition.id] = found[0].read_text(encoding="utf-8")
    return texts


def all_seed_texts() -> list[str]:
    """Every source document, declared as an edition or not (a second game's, say)."""
    return [p.read_text(encoding="utf-8") for p in sorted(SEEDS.glob("[0-9][0-9][0-9]_*.txt"))]


def provenance_problems(cards: Iterable[Card], editions: Mapping[str, str], every_seed: list[str]) -> list[str]:
    """Every card whose source disagrees with the documents, in words."""
    problems: list[str] = []
    for card in cards:
        printed_in = [edition for edition, text in editions.items() if prints(text, card)]
        if card.source.edition is not None:
            if not prints(editions[card.source.edition], card):
                problems.append(f"card '{card.id}' cites {card.source.edition}, which does not print '{title(card)}'")
        elif printed_in:
            problems.append(f"card '{card.id}' is marked designed, but '{title(card)}' is printed in {', '.join(printed_in)}; cite it")
        if not any(prints(text, card) for text in every_seed) and not card.source.designed:
            problems.append(f"card '{card.id}': no source document prints '{title(card)}', so it must be marked designed")
    return problems


@pytest.fixture(scope="module")
def shipped() -> Catalog:
    return load_catalog(SHIPPED_CONTENT)


def test_every_declared_edition_is_a_source_document_stating_its_version(shipped: Catalog) -> None:
    texts = seed_texts(shipped)
    assert texts, "game.yaml declares no source editions"
    for edition in shipped.game.source_editions.values():
        stated = re.compile(rf"(?<![\w.]){re.escape(edition.version)}(?![\w]|\.[0-9])|\bv{re.escape(edition.version)}(?![\w]|\.[0-9])")
        assert stated.search(texts[edition.id]), f"{edition.id}: seed {edition.seed} does not state version {edition.version}"


def test_shipped_cards_agree_with_the_source_documents(shipped: Catalog) -> None:
    assert provenance_problems(shipped.cards, seed_texts(shipped), all_seed_texts()) == []


def test_the_shipped_content_marks_some_cards_designed_and_cites_the_rest(shipped: Catalog) -> None:
    # Guards the check above against passing vacuously: both kinds are present.
    assert any(c.source.designed for c in shipped.cards)
    assert any(c.source.edition for c in shipped.cards)


def _edit(content: Path, rel: str, old: str, new: str) -> None:
    path = content / rel
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {rel} (the content changed shape?)"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _source_lines(content: Path, rel: str, card_id: str) -> str:
    """The ``source:`` lines of a card, as written (one line, or two for designed)."""
    text = (content / rel).read_text(encoding="utf-8")
    m = re.search(rf"^  - id: {re.escape(card_id)}\n(?:    (?!source:).*\n|      .*\n)*?(    source:(?: \S.*\n|\n      designed: .*\n))", text, re.M)
    assert m, f"card {card_id} in {rel} has no source"
    return m.group(1)


def _cite_a_designed_card(content: Path) -> str:
    # Coal Mine is in no document: claiming the newest Home Deck prints it is caught.
    _edit(content, "home-deck/facilities.yaml", _source_lines(content, "home-deck/facilities.yaml", "coal-mine"), "    source: homeDeck-0.8.6\n")
    return "card 'coal-mine' cites homeDeck-0.8.6, which does not print 'Coal Mine'"


def _rename_a_cited_card(content: Path) -> str:
    # A cited card renamed to a title no document prints keeps a false citation.
    _edit(content, "home-deck/facilities.yaml", "    name: Packing Sheds\n", "    name: Packing Barns\n")
    return "card 'packing-sheds' cites homeDeck-0.8.6, which does not print 'Packing Barns'"


def _cite_the_wrong_edition(content: Path) -> str:
    # The Second Section is printed only in 0.8.6, not in the older Home Deck.
    old = _source_lines(content, "home-deck/second-section.yaml", "second-section")
    _edit(content, "home-deck/second-section.yaml", old, "    source: homeDeck-0.8.0.15\n")
    return "card 'second-section' cites homeDeck-0.8.0.15, which does not print 'Second Section'"


def _mark_a_printed_card_designed(content: Path) -> str:
    old = _source_lines(content, "home-deck/maneuvers.yaml", "red-flag")
    _edit(content, "home-deck/maneuvers.yaml", old, "    source:\n      designed: Pretend nobody printed it.\n")
    return "card 'red-flag' is marked designed, but 'Red Flag' is printed in"


def _cite_a_train_without_its_number(content: Path) -> str:
    # "Campaign Train" is printed, but as X17: an X4 of that name is not.
    _edit(content, "home-deck/trains.yaml", "    name: X17 Campaign Train\n", "    name: X4 Campaign Train\n")
    _edit(content, "home-deck/trains.yaml", "    number: X17\n", "    number: X4\n")
    return "card 'extra-17' cites homeDeck-0.8.6, which does not print 'Campaign Train'"


@pytest.mark.parametrize(
    "damage",
    [_cite_a_designed_card, _rename_a_cited_card, _cite_the_wrong_edition, _mark_a_printed_card_designed, _cite_a_train_without_its_number],
    ids=["designed-card-cites-an-edition", "cited-card-renamed", "wrong-edition", "printed-card-marked-designed", "train-number-not-printed"],
)
def test_a_card_that_disagrees_with_the_documents_is_caught(content_copy: Path, damage: Callable[[Path], str]) -> None:
    expected = damage(content_copy)
    catalog = load_catalog(content_copy)
    problems = provenance_problems(catalog.cards, seed_texts(catalog), all_seed_texts())
    assert any(expected in p for p in problems), problems


def test_a_card_no_document_prints_must_be_marked_designed(content_copy: Path, tmp_path: Path) -> None:
    # With the citation check satisfied by a made-up edition document, only
    # the "printed nowhere" rule is left to catch the card.
    _edit(content_copy, "home-deck/facilities.yaml", _source_lines(content_copy, "home-deck/facilities.yaml", "coal-mine"), "    source: homeDeck-0.8.6\n")
    catalog = load_catalog(content_copy)
    coal = [c for c in catalog.cards if c.id == "coal-mine"]
    problems = provenance_problems(coal, {"homeDeck-0.8.6": "The Coal Mine"}, all_seed_texts())
    assert problems == ["card 'coal-mine': no source document prints 'Coal Mine', so it must be marked designed"]


@pytest.mark.parametrize(
    "name, number, text, printed",
    [
        ("X18 Circus Train", "X18", "the Circus Train (X18) pays", True),
        ("X18 Circus Train", "X18", "the Circus Train pays", False),
        ("No. 6 Peddler", "6", "a Peddler runs", False),
        ("No. 6 Peddler", "6", "No. 6 Peddler runs", True),
        ("Curve (left)", None, "Curves and turnouts", False),
        ("Curve (left)", None, "a Curve is printed", True),
        ("Station", None, "a station", False),
        ("Station", None, "Station and Terminal", True),
        ("Yard", None, "the Small Yard", True),
        ("Yard", None, "the Yard-keeper", False),
    ],
)
def test_how_a_title_is_matched(shipped: Catalog, name: str, number: str | None, text: str, printed: bool) -> None:
    if number is not None:
        train = next(c for c in shipped.cards if isinstance(c, TrainCard))
        assert prints(text, replace(train, name=name, number=number)) is printed
    else:
        other = next(c for c in shipped.cards if not isinstance(c, TrainCard))
        assert prints(text, replace(other, name=name)) is printed
