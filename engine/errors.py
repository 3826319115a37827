"""The engine's small error taxonomy.

Callers catch one of these: the content is wrong (the designer must fix a
file), a game cannot be set up as asked (ConfigurationError), a save cannot be
replayed (SaveError), an action could not even be understood (the caller sent
garbage), or an action was understood but the rules refuse it (with every
reason why). ConfigurationError and SaveError are InvalidActionErrors, as
those failures were before they had types of their own, so callers that catch
InvalidActionError still catch them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.content.problems import Problem


class Reason(str):
    """Why the rules refuse an action, as a value: ``code`` is stable (tests and
    tools match it; the wording may change), the string itself is the text for
    people. It is a ``str`` so code written when reasons were plain text keeps
    working."""

    code: str

    def __new__(cls, code: str, text: str) -> Reason:
        made = str.__new__(cls, text)
        made.code = code
        return made

    @property
    def text(self) -> str:
        return str(self)

    def __reduce__(self) -> tuple[type[Reason], tuple[str, str]]:
        return Reason, (self.code, str(self))


def reasons_from(code: str, texts: Iterable[str]) -> list[Reason]:
    """Reasons from a rule that still answers in plain text, each under
    ``code``; a text that is already a Reason keeps its own code."""
    found: list[Reason] = []
    for text in texts:  # most rules find nothing: a plain loop costs nothing then
        found.append(text if isinstance(text, Reason) else Reason(code, text))
    return found


class StationMasterError(Exception):
    """Base of every error the engine raises on purpose."""


class ContentError(StationMasterError):
    """The content directory does not load; carries every located problem."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        first = self.problems[0].render() if self.problems else "content error"
        more = len(self.problems) - 1
        super().__init__(first + (f" (and {more} more)" if more > 0 else ""))


class UsageError(StationMasterError):
    """The request itself is unusable: a missing directory, an unreadable file."""


class InvalidActionError(StationMasterError, ValueError):
    """An action that is malformed: unknown card, wrong player, bad coordinates."""


class ConfigurationError(InvalidActionError):
    """A new game cannot be set up as asked: the player count, the seed or a house rule."""


class SaveError(InvalidActionError):
    """A save cannot be replayed: not JSON, another format, made with other
    content, a bad setup or an action that the rules now refuse (then
    ``reasons`` carries the refusal's Reasons, else it is empty)."""

    reasons: tuple[Reason, ...] = ()


class IllegalActionError(StationMasterError, ValueError):
    """A well-formed action the rules refuse now; ``reasons`` says every why,
    each a Reason (plain text is filed under the code "refused")."""

    def __init__(self, action: object, reasons: Sequence[str]) -> None:
        self.action = action
        self.reasons: tuple[Reason, ...] = tuple(reasons_from("refused", reasons))
        super().__init__(f"{action}: " + "; ".join(self.reasons))
