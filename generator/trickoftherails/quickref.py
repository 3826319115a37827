"""The quick reference's words: how a trick goes, what each kind of trick
does, and how the game is scored, a few lines each. Written once, here:
the site's quick reference prints them (the ``quick-reference`` block) and
so does the terminal game's ``help`` (``command.trickoftherails.session``),
so the two never say different things. Every figure stays in the content
(the block's tables); these words name none."""

from __future__ import annotations

# (heading, text) in the order a player needs them.
PARAGRAPHS: tuple[tuple[str, str], ...] = (
    (
        "A trick",
        "The leader plays any card. Clockwise, everyone else plays one, following the led company if they can. "
        "The highest number of the led company wins; there are no trumps. The front card of the Trick Lane says "
        "what the trick is for, and is then used up. The winner leads next. The game ends when the lane and the "
        "hands run out together.",
    ),
    (
        "Stock trick",
        "(the front card is an Exchange, or a Railway card waiting in the lane) The winner takes that card as a "
        "share. The winner's own card replaces the first Reservation still in the lane, or leaves the game if none "
        "is left. Everyone else keeps the card they played as a share of its company. So each player gains one share.",
    ),
    (
        "City trick",
        "The winner adds the City to either end of any railway. Then each player, the winner first and going clockwise, adds the card they played to either end of its own company's railway.",
    ),
    (
        "Locomotive trick",
        "The winner puts the Locomotive at the head of a railway that has none; a Locomotive that brings another "
        "puts that one on the last railway without one. Then the played cards are laid as in a City trick.",
    ),
    (
        "Scoring",
        "A company's profit is the best total of station values over as many cards in a row, anywhere in its "
        "railway, as its Locomotive's reach (the whole railway when it is no longer than that). One share is worth "
        "the profit less the Locomotive's cost, but never less than the floor below, which is also what a share of "
        "a company with no Locomotive is worth. Your score is the sum of your shares' worth; the highest score "
        "wins, and a tie shares the win.",
    ),
)


def paragraphs(strong: str = "") -> list[str]:
    """Each paragraph as one line of text, its heading between ``strong``
    marks ("**" for Markdown): "Heading. Text", or "Heading (a note). Text"
    where the text opens with a note in brackets."""
    found = []
    for heading, text in PARAGRAPHS:
        note, bracket, rest = text.partition(") ")
        if text.startswith("(") and bracket:
            found.append(f"{strong}{heading}{strong} {note}). {rest}")
        else:
            found.append(f"{strong}{heading}.{strong} {text}")
    return found
