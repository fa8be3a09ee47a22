"""The error hierarchy. Every error is a `ValueError`, so callers can catch broadly or precisely."""

from __future__ import annotations


class TTRError(ValueError):
    """Base class of every error the package raises on bad input."""


class MapError(TTRError):
    """A map file, or a name looked up on a map (city, route, ticket, card), is wrong."""


class InvalidActionError(TTRError):
    """An action is malformed: unknown kind, route, city, card or ticket, or a bad card set."""


class IllegalActionError(TTRError):
    """A well-formed action that the rules do not allow now. `rule` is the rule ID it breaks."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{rule}: {message}" if rule else message)
        self.rule = rule


class RecordError(TTRError):
    """A game record or position document is malformed; the message names the field."""
